/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_books_test.c - Check tests of eunomia_books.c: the errno
 * contract; the charging, span and activity rules one by one; the saved
 * state (a document in the format select/eunomia wrote through hmrf_state
 * still loads, and what the books write the old loader reads); the books
 * fed job by job as select/eunomia feeds them (events and a periodic
 * charge) and account by account at every event as horae-sim feeds them,
 * giving the same ledgers, shares and order; and generated cases against
 * an independent model (progress = rate x time inside the window, share =
 * progress / (weight x monopoly rate x span)).
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../eunomia_books.h"
#include "../hmrf_state.h"
#include "../rng.h"

static eunomia_books_t *_books(window_kind_t kind, double length, double bucket,
			       double now)
{
	window_spec_t w = { .kind = kind, .length = length };
	horae_err_t err;
	eunomia_books_t *b = eunomia_books_create(&w, bucket, now, &err);

	ck_assert_msg(b != NULL, "%s", err.text);
	return b;
}

static double _progress(eunomia_books_t *b, int a, double now)
{
	eunomia_account_t acct[8];
	double mono;

	ck_assert_int_eq(eunomia_books_accounts(b, now, acct, 8, &mono), 0);
	return acct[a].progress;
}

/* --- errno contract ------------------------------------------------------ */

START_TEST(test_badargs)
{
	window_spec_t w = { .kind = WINDOW_SLIDING, .length = 100 };
	eunomia_account_t acct[1];
	eunomia_books_t *b;
	horae_err_t err;
	double mono, gap[1];
	size_t order[1];
	eunomia_job_t job = {
		.account = 5, .rate = 1, .duration = 1, .runnable = true
	};

	ck_assert_ptr_null(eunomia_books_create(NULL, 0, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(eunomia_books_create(&w, 0, NAN, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(eunomia_books_create(&w, 1000, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "bucket"));
	b = _books(WINDOW_NONE, 0, 0, 0);
	ck_assert_int_eq(eunomia_books_account(b, NULL), -EINVAL);
	ck_assert_int_eq(eunomia_books_account(b, "a"), 0);
	ck_assert_int_eq(eunomia_books_account(b, "b"), 1);
	ck_assert_int_eq(eunomia_books_account(b, "a"), 0);
	ck_assert_str_eq(eunomia_books_name(b, 1), "b");
	ck_assert_ptr_null(eunomia_books_name(b, 2));
	ck_assert_int_eq(eunomia_books_set_weight(b, 2, 1), -EINVAL);
	ck_assert_int_eq(eunomia_books_set_weight(b, 0, 0), -EINVAL);
	ck_assert_int_eq(eunomia_books_set_weight(b, 0, INFINITY), -EINVAL);
	ck_assert_int_eq(eunomia_books_set_monopoly_rate(b, 0, -1), -EINVAL);
	ck_assert_int_eq(eunomia_books_set_common_rate(b, NAN), -EINVAL);
	ck_assert_int_eq(eunomia_books_set_waiting(b, 5, true), -EINVAL);
	ck_assert_int_eq(eunomia_books_start(b, 1, 7, 1, 0, false), -EINVAL);
	ck_assert_int_eq(eunomia_books_start(b, 1, 0, -1, 0, false), -EINVAL);
	ck_assert_int_eq(eunomia_books_start(b, 1, 0, 1, NAN, false), -EINVAL);
	ck_assert_int_eq(eunomia_books_start(b, 1, 0, 1, 0, false), 0);
	ck_assert_int_eq(eunomia_books_start(b, 1, 1, 1, 0, false), -EEXIST);
	ck_assert_int_eq(eunomia_books_end(b, 2, 5), -ENOENT);
	ck_assert_int_eq(eunomia_books_end(b, 1, NAN), -EINVAL);
	ck_assert_int_eq(eunomia_books_pause(b, 2, true, 5), -ENOENT);
	ck_assert_int_eq(eunomia_books_resize(b, 1, NAN, 5), -EINVAL);
	ck_assert_int_eq(eunomia_books_charge(b, INFINITY), -EINVAL);
	ck_assert_int_eq(eunomia_books_accounts(b, 5, acct, 1, &mono), -ERANGE);
	ck_assert_int_eq(eunomia_books_gaps(b, 5, gap, 1), -ERANGE);
	/* Nothing was charged by the failures. */
	ck_assert_double_eq(eunomia_books_charged_until(b), 0);
	/* No common rate: nothing to rank against; an unknown account. */
	ck_assert_int_eq(eunomia_books_rank(b, 5, &job, 1, order, &err),
			 -EINVAL);
	job.account = 0;
	ck_assert_int_eq(eunomia_books_rank(b, 5, &job, 1, order, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "monopoly"));
	ck_assert_double_eq(eunomia_books_charged_until(b), 0);
	ck_assert_int_eq(eunomia_books_set_common_rate(b, 4), 0);
	ck_assert_int_eq(eunomia_books_rank(b, 5, &job, 1, order, &err), 0);
	ck_assert_int_eq(order[0], 0);
	ck_assert_ptr_null(eunomia_books_from_json(NULL, &w, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	eunomia_books_destroy(&b);
	ck_assert_ptr_null(b);
	eunomia_books_destroy(&b);
	eunomia_books_destroy(NULL);
}
END_TEST

/* --- rules --------------------------------------------------------------- */

START_TEST(test_start_running_end)
{
	eunomia_books_t *b = _books(WINDOW_NONE, 0, 0, 100);
	int a = eunomia_books_account(b, "a");

	/* Reported at its start: charged from its start. */
	ck_assert_int_eq(eunomia_books_start(b, 1, a, 2, 90, false), 0);
	ck_assert_double_eq(_progress(b, a, 110), 40);
	/* Seen first in a sync: charged from the last charge (110). */
	ck_assert_int_eq(eunomia_books_running(b, 2, a, 1, 95, false), 1);
	ck_assert_int_eq(eunomia_books_running(b, 2, a, 1, 95, false), 0);
	ck_assert(eunomia_books_tracked(b, 2));
	ck_assert_double_eq(_progress(b, a, 120), 40 + 20 + 10);
	/* Ended at 125, reported at 130: charged to its end. */
	ck_assert_int_eq(eunomia_books_end(b, 1, 125), 0);
	ck_assert(!eunomia_books_tracked(b, 1));
	ck_assert_double_eq(_progress(b, a, 130), 70 + 10 + 10);
	/* The clock never goes back. */
	ck_assert_int_eq(eunomia_books_charge(b, 50), 0);
	ck_assert_double_eq(eunomia_books_charged_until(b), 130);
	ck_assert_double_eq(_progress(b, a, 130), 90);
	eunomia_books_destroy(&b);
}
END_TEST

START_TEST(test_pause_and_resize)
{
	eunomia_books_t *b = _books(WINDOW_NONE, 0, 0, 0);
	int a = eunomia_books_account(b, "a");

	ck_assert_int_eq(eunomia_books_start(b, 7, a, 4, 0, false), 0);
	ck_assert_int_eq(eunomia_books_pause(b, 7, true, 10), 0);
	ck_assert_int_eq(eunomia_books_charge(b, 20), 0);
	ck_assert_int_eq(eunomia_books_pause(b, 7, false, 30), 0);
	ck_assert_int_eq(eunomia_books_resize(b, 7, 1, 40), 0);
	ck_assert_double_eq(_progress(b, a, 50), 40 + 40 + 10);
	/* A job started paused makes nothing until resumed. */
	ck_assert_int_eq(eunomia_books_start(b, 8, a, 5, 50, true), 0);
	ck_assert_double_eq(_progress(b, a, 60), 100);
	eunomia_books_destroy(&b);
}
END_TEST

START_TEST(test_span)
{
	eunomia_books_t *b = _books(WINDOW_NONE, 0, 0, 1000);
	eunomia_books_t *t = _books(WINDOW_TUMBLING, 100, 0, 1000);
	eunomia_books_t *s = _books(WINDOW_SLIDING, 100, 10, 950);

	/* From when the books started, at least 1 s. */
	ck_assert_double_eq(eunomia_books_span(b, 1000), 1);
	ck_assert_double_eq(eunomia_books_span(b, 1000.5), 1);
	ck_assert_double_eq(eunomia_books_span(b, 1300), 300);
	/* The window's start, once it is later than the books' start. */
	ck_assert_int_eq(eunomia_books_charge(t, 1250), 0);
	ck_assert_double_eq(eunomia_books_span(t, 1250), 50);
	ck_assert_double_eq(eunomia_books_span(s, 1000), 50);
	ck_assert_int_eq(eunomia_books_charge(s, 1200), 0);
	ck_assert_double_eq(eunomia_books_span(s, 1200), 100);
	eunomia_books_destroy(&b);
	eunomia_books_destroy(&t);
	eunomia_books_destroy(&s);
}
END_TEST

START_TEST(test_active_and_monopoly)
{
	eunomia_books_t *b = _books(WINDOW_NONE, 0, 0, 0);
	eunomia_account_t acct[4];
	double mono, gap[4];
	int a = eunomia_books_account(b, "a");
	int c = eunomia_books_account(b, "c");
	int d = eunomia_books_account(b, "d");

	ck_assert_int_eq(eunomia_books_set_common_rate(b, 10), 0);
	ck_assert_int_eq(eunomia_books_set_monopoly_rate(b, c, 20), 0);
	ck_assert_int_eq(eunomia_books_set_weight(b, c, 2), 0);
	ck_assert_int_eq(eunomia_books_start(b, 1, a, 5, 0, true), 0);
	ck_assert_int_eq(eunomia_books_start(b, 2, c, 5, 0, false), 0);
	ck_assert_int_eq(eunomia_books_accounts(b, 10, acct, 4, &mono), 0);
	ck_assert_double_eq(mono, 100);
	/* A paused job still makes its account active. */
	ck_assert(acct[a].active && acct[c].active && !acct[d].active);
	ck_assert_double_eq(acct[a].monopoly, 0);
	ck_assert_double_eq(acct[c].monopoly, 200);
	ck_assert_double_eq(acct[c].weight, 2);
	ck_assert_double_eq(acct[c].progress, 50);
	ck_assert_int_eq(eunomia_books_set_waiting(b, d, true), 0);
	ck_assert_int_eq(eunomia_books_accounts(b, 10, acct, 4, &mono), 0);
	ck_assert(acct[d].active);
	/* fair = 50 / (100 + 400 + 100) = 1/12; c's share 50/400. */
	ck_assert_int_eq(eunomia_books_gaps(b, 10, gap, 4), 0);
	ck_assert_double_eq_tol(gap[a], 1, 1e-12);
	ck_assert_double_eq_tol(gap[c], (1.0 / 12 - 0.125) * 12, 1e-12);
	ck_assert_double_eq_tol(gap[d], 1, 1e-12);
	eunomia_books_forget_rates(b);
	ck_assert_double_eq(eunomia_books_common_rate(b), 0);
	ck_assert_double_eq(eunomia_books_monopoly_rate(b, c), 0);
	eunomia_books_destroy(&b);
}
END_TEST

/* --- saved state ------------------------------------------------------------ */

/*
 * What select/eunomia saved before these books (hmrf_state_to_json of its
 * "progress" state): physics 8 CPU-speed over [3600, 7200], chem 3 over
 * [6000, 7200], a sliding hour in buckets of 600 s.
 */
static const char old_state[] =
	"{\"tres\":\"progress\",\"charged_until\":7200.0,"
	"\"accounts\":[\"physics\",\"chem\"],\"last_start\":[0.0,0.0],"
	"\"usage\":{\"window\":\"sliding:3600s\",\"bucket\":600.0,"
	"\"ntres\":1,\"now\":7200.0,\"accounts\":["
	"\"0:4800,1:4800,2:4800,3:4800,4:4800,6:4800\",\"3:1800,4:1800\"]},"
	"\"nonsharing\":{\"window\":\"sliding:3600s\",\"bucket\":600.0,"
	"\"ntres\":1,\"now\":7200.0,\"accounts\":[\"\",\"\"]}}";

START_TEST(test_old_state_loads)
{
	window_spec_t w = { .kind = WINDOW_SLIDING, .length = 3600 };
	json_object *doc = json_tokener_parse(old_state);
	horae_err_t err;
	eunomia_books_t *b;

	ck_assert_ptr_nonnull(doc);
	b = eunomia_books_from_json(doc, &w, 600, &err);
	ck_assert_msg(b != NULL, "%s", err.text);
	ck_assert_int_eq(eunomia_books_count(b), 2);
	ck_assert_str_eq(eunomia_books_name(b, 1), "chem");
	ck_assert(eunomia_books_recovering(b));
	ck_assert_double_eq(eunomia_books_saved_at(b), 7200);
	ck_assert_double_eq(eunomia_books_charged_until(b), 7200);
	ck_assert_double_eq_tol(_progress(b, 0, 7200), 28800, 1e-6);
	ck_assert_double_eq_tol(_progress(b, 1, 7200), 3600, 1e-6);
	/* A recovered history has no start: only the window bounds it. */
	ck_assert_double_eq(eunomia_books_span(b, 7200), 3600);
	/* A job that ended while nobody charged it, once. */
	ck_assert_int_eq(eunomia_books_ran(b, 1, 2, 7000, 7300, 7400), 1);
	ck_assert_int_eq(eunomia_books_ran(b, 1, 2, 6000, 7100, 7400), 0);
	eunomia_books_recovered(b);
	ck_assert_int_eq(eunomia_books_ran(b, 1, 2, 7000, 7300, 7400), 0);
	ck_assert_double_eq_tol(_progress(b, 1, 7400), 3600 + 200, 1e-6);
	eunomia_books_destroy(&b);
	/* Another window, or another bucket: history restarts. */
	ck_assert_ptr_null(eunomia_books_from_json(doc, &w, 300, &err));
	ck_assert_int_eq(errno, ESTALE);
	w.kind = WINDOW_TUMBLING;
	ck_assert_ptr_null(eunomia_books_from_json(doc, &w, 600, &err));
	ck_assert_int_eq(errno, ESTALE);
	ck_assert_ptr_nonnull(strstr(err.text, "sliding:3600s"));
	json_object_put(doc);
	/* Malformed. */
	doc = json_tokener_parse("{\"tres\":\"cpu\",\"charged_until\":1,"
				 "\"accounts\":[],\"usage\":{}}");
	ck_assert_ptr_null(eunomia_books_from_json(doc, &w, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	json_object_put(doc);
}
END_TEST

START_TEST(test_state_round_trip)
{
	window_spec_t w = { .kind = WINDOW_TUMBLING, .length = 1000 };
	eunomia_books_t *b = _books(w.kind, w.length, 0, 0), *c;
	json_object *doc;
	hmrf_state_t *st;
	horae_err_t err;
	tres_vec_t u;

	eunomia_books_account(b, "x");
	eunomia_books_account(b, "y");
	ck_assert_int_eq(eunomia_books_start(b, 3, 1, 1.5, 100, false), 0);
	ck_assert_int_eq(eunomia_books_charge(b, 300), 0);
	ck_assert_ptr_nonnull(doc = eunomia_books_to_json(b));
	/* The old loader reads it. */
	st = hmrf_state_from_json(doc, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert_str_eq(hmrf_state_tres(st), "progress");
	ck_assert_double_eq(hmrf_state_charged_until(st), 300);
	ck_assert_int_eq(ledger_usage(hmrf_state_usage(st), 1, &u), 0);
	ck_assert_double_eq(u.v[0], 300);
	hmrf_state_destroy(&st);
	c = eunomia_books_from_json(doc, &w, 0, &err);
	ck_assert_msg(c != NULL, "%s", err.text);
	ck_assert_str_eq(eunomia_books_name(c, 1), "y");
	ck_assert_double_eq(_progress(c, 1, 300), 300);
	/* Running jobs are not state: slurmctld's job list says what runs
	 * after a restart. */
	ck_assert(!eunomia_books_tracked(c, 3));
	json_object_put(doc);
	eunomia_books_destroy(&b);
	eunomia_books_destroy(&c);
}
END_TEST

/* The books' start is saved: after a restart the monopoly span still runs
 * from it, not from nowhere (1 s without a window, before it was saved). */
START_TEST(test_start_survives_restart)
{
	window_spec_t w = { .kind = WINDOW_NONE };
	eunomia_books_t *b = _books(w.kind, 0, 0, 100), *c;
	json_object *doc, *v;
	horae_err_t err;

	ck_assert_int_eq(eunomia_books_charge(b, 400), 0);
	ck_assert_ptr_nonnull(doc = eunomia_books_to_json(b));
	c = eunomia_books_from_json(doc, &w, 0, &err);
	ck_assert_msg(c != NULL, "%s", err.text);
	ck_assert_double_eq(eunomia_books_span(c, 500), 400);
	eunomia_books_destroy(&c);
	/* A start after the charge is no start. */
	json_object_object_add(doc, "since", json_object_new_double(450));
	ck_assert_ptr_null(eunomia_books_from_json(doc, &w, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "since"));
	/* Without it (the first format): no start. */
	json_object_object_del(doc, "since");
	ck_assert(!json_object_object_get_ex(doc, "since", &v));
	c = eunomia_books_from_json(doc, &w, 0, &err);
	ck_assert_ptr_nonnull(c);
	ck_assert_double_eq(eunomia_books_span(c, 500), 1);
	json_object_put(doc);
	eunomia_books_destroy(&b);
	eunomia_books_destroy(&c);
}
END_TEST

/* --- traces: one recorded sequence, fed two ways --------------------------- */

#define T_ACCTS 4
#define T_JOBS 12

typedef struct tjob {
	int acct;
	double rate, start, end;
	double p0, p1; /* paused over [p0, p1]; p0 == p1: never */
} tjob_t;

typedef struct trace {
	int nacct, njobs;
	double weight[T_ACCTS], mono[T_ACCTS], common;
	tjob_t job[T_JOBS];
	window_spec_t w;
	double bucket;
	double horizon; /* checks up to here */
} trace_t;

/* The recorded sequence: three accounts, one job paused, one resized by
 * ending and restarting at another rate. */
static const trace_t recorded = {
	.nacct = 3, .njobs = 6,
	.weight = { 1, 2, 1 },
	.mono = { 0, 30, 0 },
	.common = 20,
	.job = {
		{ 0, 4, 1, 50, 0, 0 },
		{ 1, 6, 10, 90, 30, 45 },
		{ 2, 2, 20, 35, 0, 0 },
		{ 2, 3, 35, 120, 0, 0 },
		{ 0, 1.5, 60, 140, 100, 101 },
		{ 1, 8, 95, 150, 0, 0 },
	},
	.w = { .kind = WINDOW_NONE },
	.horizon = 160,
};

static eunomia_books_t *_trace_books(const trace_t *t)
{
	eunomia_books_t *b = _books(t->w.kind, t->w.length, t->bucket, 0);
	char name[16];

	for (int a = 0; a < t->nacct; a++) {
		snprintf(name, sizeof(name), "acct%d", a);
		ck_assert_int_eq(eunomia_books_account(b, name), a);
		ck_assert_int_eq(eunomia_books_set_weight(b, a, t->weight[a]),
				 0);
		ck_assert_int_eq(
			eunomia_books_set_monopoly_rate(b, a, t->mono[a]), 0);
	}
	ck_assert_int_eq(eunomia_books_set_common_rate(b, t->common), 0);
	return b;
}

/* Job j's state change at time x, if any: 1 start, 2 pause, 3 resume,
 * 4 end. */
static int _event_at(const tjob_t *j, double x)
{
	if (x == j->start)
		return 1;
	if (j->p1 > j->p0 && x == j->p0)
		return 2;
	if (j->p1 > j->p0 && x == j->p1)
		return 3;
	if (x == j->end)
		return 4;
	return 0;
}

/* select/eunomia's way: each job by id at its start, pause, resume and
 * end (job_begin, job_suspend, job_fini), and every period a charge of
 * all (the period thread). */
static void _feed_plugin(eunomia_books_t *b, const trace_t *t, double from,
			 double to, double period)
{
	for (double x = from + 1; x <= to; x++) {
		for (int i = 0; i < t->njobs; i++) {
			const tjob_t *j = &t->job[i];
			uint32_t id = 1000 + i;

			switch (_event_at(j, x)) {
			case 1:
				ck_assert_int_eq(
					eunomia_books_start(b, id, j->acct,
							    j->rate, x, false),
					0);
				break;
			case 2:
			case 3:
				ck_assert_int_eq(eunomia_books_pause(
							 b, id, x == j->p0, x),
						 0);
				break;
			case 4:
				ck_assert_int_eq(eunomia_books_end(b, id, x),
						 0);
				break;
			}
		}
		if (fmod(x, period) == 0)
			ck_assert_int_eq(eunomia_books_charge(b, x), 0);
	}
}

/* horae-sim's way: at every event a charge of all, then each account's
 * summed rate (one entry per account, by account index) as it now is. */
static void _feed_sim(eunomia_books_t *b, const trace_t *t, double from,
		      double to)
{
	for (double x = from + 1; x <= to; x++) {
		bool any = false;

		for (int i = 0; i < t->njobs; i++)
			any |= _event_at(&t->job[i], x) != 0;
		if (!any)
			continue;
		ck_assert_int_eq(eunomia_books_charge(b, x), 0);
		for (int a = 0; a < t->nacct; a++) {
			double rate = 0;
			int n = 0;

			for (int i = 0; i < t->njobs; i++) {
				const tjob_t *j = &t->job[i];

				if (j->acct != a || x < j->start || x >= j->end)
					continue;
				n++;
				if (!(j->p1 > j->p0 && x >= j->p0 && x < j->p1))
					rate += j->rate;
			}
			if (n && !eunomia_books_tracked(b, a))
				ck_assert_int_eq(eunomia_books_start(b, a, a,
								     rate, x,
								     false),
						 0);
			else if (n)
				ck_assert_int_eq(
					eunomia_books_resize(b, a, rate, x), 0);
			else if (eunomia_books_tracked(b, a))
				ck_assert_int_eq(eunomia_books_end(b, a, x), 0);
		}
	}
}

/* The jobs ranked at a check: two per account. */
static size_t _jobs(const trace_t *t, eunomia_job_t *jobs)
{
	size_t n = 0;

	for (int a = 0; a < t->nacct; a++)
		for (int k = 0; k < 2; k++)
			jobs[n++] = (eunomia_job_t){ .account = a,
						     .rate = 1 + a + k,
						     .duration = 10 * (k + 1),
						     .runnable = k == 0 };
	return n;
}

static void _same_books(eunomia_books_t *p, eunomia_books_t *s,
			const trace_t *t, double now)
{
	eunomia_account_t ap[T_ACCTS], as[T_ACCTS];
	eunomia_job_t jobs[2 * T_ACCTS];
	size_t op[2 * T_ACCTS], os[2 * T_ACCTS], n = _jobs(t, jobs);
	double mp, ms, gp[T_ACCTS], gs[T_ACCTS];
	horae_err_t err;

	ck_assert_int_eq(eunomia_books_accounts(p, now, ap, T_ACCTS, &mp), 0);
	ck_assert_int_eq(eunomia_books_accounts(s, now, as, T_ACCTS, &ms), 0);
	ck_assert_double_eq(mp, ms);
	for (int a = 0; a < t->nacct; a++) {
		ck_assert_msg(fabs(ap[a].progress - as[a].progress) <=
				      1e-9 * fmax(1, ap[a].progress),
			      "at %g account %d: %.17g vs %.17g", now, a,
			      ap[a].progress, as[a].progress);
		ck_assert_double_eq(ap[a].monopoly, as[a].monopoly);
		ck_assert_int_eq(ap[a].active, as[a].active);
	}
	ck_assert_int_eq(eunomia_books_gaps(p, now, gp, T_ACCTS), 0);
	ck_assert_int_eq(eunomia_books_gaps(s, now, gs, T_ACCTS), 0);
	for (int a = 0; a < t->nacct; a++)
		ck_assert_double_eq_tol(gp[a], gs[a], 1e-9);
	ck_assert_int_eq(eunomia_books_rank(p, now, jobs, n, op, &err), 0);
	ck_assert_int_eq(eunomia_books_rank(s, now, jobs, n, os, &err), 0);
	for (size_t k = 0; k < n; k++)
		ck_assert_int_eq(op[k], os[k]);
}

/* Feed both ways up to every check time and compare. */
static void _compare(const trace_t *t, double period, double every)
{
	eunomia_books_t *p = _trace_books(t), *s = _trace_books(t);

	for (double x = 0; x < t->horizon; x += every) {
		_feed_plugin(p, t, x, x + every, period);
		_feed_sim(s, t, x, x + every);
		_same_books(p, s, t, x + every);
	}
	eunomia_books_destroy(&p);
	eunomia_books_destroy(&s);
}

START_TEST(test_recorded_sequence_two_ways)
{
	trace_t t = recorded;
	double want[3] = { 4 * 49 + 1.5 * 79, 6 * 65 + 8 * 55,
			   2 * 15 + 3 * 85 };
	eunomia_books_t *p = _trace_books(&t);

	/* The periodic charge of the plugin (5 s, 7 s) against every event
	 * of the simulator, checked every 10 and every 3 s. */
	_compare(&t, 5, 10);
	_compare(&t, 7, 3);
	t.w = (window_spec_t){ .kind = WINDOW_SLIDING, .length = 60 };
	t.bucket = 10;
	_compare(&t, 5, 10);
	t.w = (window_spec_t){ .kind = WINDOW_TUMBLING, .length = 40 };
	_compare(&t, 7, 3);
	/* And what it comes to. */
	_feed_plugin(p, &recorded, 0, 160, 10);
	for (int a = 0; a < 3; a++)
		ck_assert_double_eq(_progress(p, a, 160), want[a]);
	eunomia_books_destroy(&p);
}
END_TEST

/* --- generated cases against an independent model ---------------------------- */

#define GEN_CASES 300

static void _generate(trace_t *t, rng_t *r)
{
	static const window_spec_t windows[] = {
		{ WINDOW_NONE, 0 },
		{ WINDOW_TUMBLING, 50 },
		{ WINDOW_TUMBLING, 120 },
	};

	memset(t, 0, sizeof(*t));
	t->nacct = 2 + (int)rng_below(r, T_ACCTS - 1);
	t->njobs = 3 + (int)rng_below(r, T_JOBS - 2);
	t->common = 8 + (double)rng_below(r, 16);
	t->w = windows[rng_below(r, 3)];
	t->horizon = 200;
	for (int a = 0; a < t->nacct; a++) {
		t->weight[a] = 1 + (double)rng_below(r, 3);
		t->mono[a] = rng_below(r, 2) ? 0 : 4 + (double)rng_below(r, 30);
	}
	for (int i = 0; i < t->njobs; i++) {
		tjob_t *j = &t->job[i];

		j->acct = (int)rng_below(r, t->nacct);
		j->rate = 0.25 * (1 + (double)rng_below(r, 32));
		j->start = 1 + (double)rng_below(r, 150);
		j->end = j->start + 1 + (double)rng_below(r, 80);
		if (j->end - j->start > 4 && rng_below(r, 3) == 0) {
			j->p0 = j->start + 1 +
				(double)rng_below(r, j->end - j->start - 3);
			j->p1 = j->p0 + 1 +
				(double)rng_below(r, j->end - j->p0 - 1);
		}
	}
}

/* The model: a job's progress is its rate x the time it ran unpaused
 * inside [window start, now]; the span is now - max(window start, 0). */
static double _overlap(double a0, double a1, double b0, double b1)
{
	return fmax(0, fmin(a1, b1) - fmax(a0, b0));
}

static void _model(const trace_t *t, double now, double *progress, bool *active,
		   double *span)
{
	double ws = t->w.kind == WINDOW_NONE ?
			    -INFINITY :
			    floor(now / t->w.length) * t->w.length;
	double start = fmax(ws, 0);

	*span = now - start > 1 ? now - start : 1;
	for (int a = 0; a < t->nacct; a++) {
		progress[a] = 0;
		active[a] = false;
	}
	for (int i = 0; i < t->njobs; i++) {
		const tjob_t *j = &t->job[i];
		double run = _overlap(j->start, j->end, ws, now) -
			     _overlap(j->p0, j->p1, ws, now);

		progress[j->acct] += j->rate * run;
		if (j->start <= now && now < j->end)
			active[j->acct] = true;
	}
	for (int a = 0; a < t->nacct; a++)
		active[a] |= progress[a] > 0;
}

static void _check_model(eunomia_books_t *b, const trace_t *t, double now)
{
	eunomia_account_t acct[T_ACCTS];
	double progress[T_ACCTS], span, mono, x = 0, wf = 0, fair;
	bool active[T_ACCTS];

	_model(t, now, progress, active, &span);
	ck_assert_int_eq(eunomia_books_accounts(b, now, acct, T_ACCTS, &mono),
			 0);
	ck_assert_double_eq_tol(mono, t->common * span, 1e-9);
	for (int a = 0; a < t->nacct; a++) {
		double f = (t->mono[a] > 0 ? t->mono[a] : t->common) * span;
		double share = progress[a] / (t->weight[a] * f);

		ck_assert_msg(fabs(acct[a].progress - progress[a]) <= 1e-9,
			      "at %g account %d: books %.17g, model %.17g", now,
			      a, acct[a].progress, progress[a]);
		ck_assert_int_eq(acct[a].active, active[a]);
		ck_assert_double_eq_tol(eunomia_account_share(&acct[a], mono),
					share, 1e-12);
		if (active[a]) {
			x += progress[a];
			wf += t->weight[a] * f;
		}
	}
	fair = wf > 0 ? x / wf : 0;
	ck_assert_double_eq_tol(eunomia_fair_share(acct, t->nacct, mono), fair,
				1e-12);
}

START_TEST(test_generated_cases)
{
	rng_t r;
	int checks = 0, paused = 0;

	rng_seed(&r, gen_seed(19 + (uint64_t)_i));
	for (int c = 0; c < GEN_CASES / 3; c++) {
		trace_t t;
		eunomia_books_t *p, *s;
		double period = 1 + (double)rng_below(&r, 10);
		double every = 1 + (double)rng_below(&r, 25);

		_generate(&t, &r);
		for (int i = 0; i < t.njobs; i++)
			paused += t.job[i].p1 > t.job[i].p0;
		p = _trace_books(&t);
		s = _trace_books(&t);
		for (double x = 0; x < t.horizon; x += every) {
			_feed_plugin(p, &t, x, x + every, period);
			_feed_sim(s, &t, x, x + every);
			_check_model(p, &t, x + every);
			_check_model(s, &t, x + every);
			_same_books(p, s, &t, x + every);
			checks++;
		}
		eunomia_books_destroy(&p);
		eunomia_books_destroy(&s);
	}
	ck_assert_int_gt(checks, GEN_CASES / 3 * 8);
	ck_assert_int_gt(paused, 10);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia_books");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, test_start_running_end);
	tcase_add_test(tc, test_pause_and_resize);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_active_and_monopoly);
	suite_add_tcase(s, tc);
	tc = tcase_create("state");
	tcase_add_test(tc, test_old_state_loads);
	tcase_add_test(tc, test_state_round_trip);
	tcase_add_test(tc, test_start_survives_restart);
	suite_add_tcase(s, tc);
	tc = tcase_create("one_set_of_books");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_recorded_sequence_two_ways);
	tcase_add_loop_test(tc, test_generated_cases, 0, 3);
	suite_add_tcase(s, tc);
	return check_run(s);
}
