/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_books_test.c - Check tests of hmrf_books.c: the errno contract; the
 * charging rules one by one; the papers' examples (Table 1 of H-MRF's
 * Example 3, and Example 4 with its beta values) in a step model that
 * drives the books; and the books fed job by job as priority/hmrf feeds
 * them and account by account as horae-sim feeds them, on generated
 * traces, giving the same ledgers and the same order; and, on generated
 * jobs fed pass by pass as priority/hmrf feeds them, every job charged
 * once, exactly what it ran.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"
#include "test_vec.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../hmrf_books.h"
#include "../hmrf_shares.h"
#include "../hmrf_state_impl.h"
#include "../ledger.h"
#include "../rng.h"

static hmrf_books_conf_t _conf(hmrf_policy_t policy, window_kind_t kind,
			       double length)
{
	hmrf_books_conf_t c = { .policy = policy, .tres = "cpu,mem",
				.horizon = 1 };

	c.window.kind = kind;
	c.window.length = length;
	return c;
}

/* --- errno contract ------------------------------------------------------ */

START_TEST(test_badargs)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b;
	horae_err_t err;
	tres_vec_t v = _v(1, 1);
	size_t order[1];
	hmrf_job_t job = { .account = 3, .duration = 1 };

	ck_assert_ptr_null(hmrf_books_create(NULL, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	c.horizon = -1;
	ck_assert_ptr_null(hmrf_books_create(&c, 0, &err));
	ck_assert_ptr_nonnull(strstr(err.text, "horizon"));
	c.horizon = 1;
	c.tres = "";
	ck_assert_ptr_null(hmrf_books_create(&c, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	c.tres = "cpu,mem";
	ck_assert_ptr_null(hmrf_books_create(&c, NAN, &err));
	b = hmrf_books_create(&c, 0, &err);
	ck_assert_ptr_nonnull(b);
	/* Nothing to feed outside a pass, nor an unknown account. */
	ck_assert_int_eq(hmrf_books_running(b, 0, &v, 0, INFINITY), -EINVAL);
	ck_assert_int_eq(hmrf_books_close(b), -EINVAL);
	ck_assert_int_eq(hmrf_books_begin(b, INFINITY), -EINVAL);
	ck_assert_int_eq(hmrf_books_begin(b, 10), 0);
	ck_assert_int_eq(hmrf_books_running(b, 0, &v, 0, INFINITY), -EINVAL);
	ck_assert_int_eq(hmrf_books_account(b, "a"), 0);
	ck_assert_int_eq(hmrf_books_set_weight(b, 0, 0, true), -EINVAL);
	ck_assert_int_eq(hmrf_books_set_weight(b, 0, INFINITY, true), -EINVAL);
	ck_assert_int_eq(hmrf_books_set_weight(b, 1, 1, true), -EINVAL);
	ck_assert_int_eq(hmrf_books_ended(b, 1, 0, &v, 5, 4), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting(b, 0, &v, NAN), -EINVAL);
	ck_assert_int_eq(hmrf_books_running(b, 0, &v, 0, NAN), -EINVAL);
	ck_assert_int_eq(hmrf_books_running(b, 0, &v, 0, -1), -EINVAL);
	ck_assert_int_eq(hmrf_books_task(NULL, 0, &v, 5, 1, 6, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_task(b, 1, &v, 5, 1, 6, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_task(b, 0, &v, -INFINITY, 1, 6, NULL),
			 -EINVAL);
	ck_assert_int_eq(hmrf_books_task(b, 0, &v, 5, NAN, 6, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_task(b, 0, &v, 5, 1, 4, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_task_end(NULL, 0), -EINVAL);
	ck_assert_int_eq(hmrf_books_task_end(b, 1), -EINVAL); /* never given */
	ck_assert_int_eq(hmrf_books_task_end(b, 0), 0);
	v.v[0] = -1;
	ck_assert_int_eq(hmrf_books_set_capacity(b, &v), -EINVAL);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_rank(b, &job, 1, order, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "account 3"));
	hmrf_books_destroy(&b);
	ck_assert_ptr_null(b);
	hmrf_books_destroy(&b);
	hmrf_books_destroy(NULL);
}
END_TEST

/* --- the charging rules -------------------------------------------------- */

START_TEST(test_running_from_start_or_last_charge)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 100, NULL);
	tres_vec_t one = _v(1, 0);
	hmrf_account_t x;
	int a = hmrf_books_account(b, "a");

	/* Started at 50, before the books' clock: charged from 100. */
	ck_assert_int_eq(hmrf_books_begin(b, 110), 0);
	ck_assert_int_eq(hmrf_books_running(b, a, &one, 50, INFINITY), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_get(b, a, &x), 0);
	ck_assert_double_eq(x.used.v[0], 10);
	/* Started at 115: charged from its start. */
	ck_assert_int_eq(hmrf_books_begin(b, 120), 0);
	ck_assert_int_eq(hmrf_books_running(b, a, &one, 115, INFINITY), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.used.v[0], 15);
	ck_assert_double_eq(hmrf_books_charged_until(b), 120);
	/* The clock went back: nothing charged, nothing goes back. */
	ck_assert_int_eq(hmrf_books_begin(b, 90), 0);
	ck_assert_int_eq(hmrf_books_running(b, a, &one, 50, INFINITY), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.used.v[0], 15);
	ck_assert_double_eq(hmrf_books_charged_until(b), 120);
	hmrf_books_destroy(&b);
}
END_TEST

/* Account a's running_left after a pass at t with nothing fed. */
static tres_vec_t _left_at(hmrf_books_t *b, int a, double t)
{
	hmrf_account_t x;

	ck_assert_int_eq(hmrf_books_begin(b, t), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	return x.running_left;
}

/*
 * What running jobs have left of their charge spans (min(span, horizon)
 * from their starts), told job by job with their starts or as tasks
 * (hmrf_books_task): horizon 10.
 */
START_TEST(test_running_left)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b;
	tres_vec_t one = _v(1, 2);
	hmrf_account_t x;
	tres_vec_t l;
	uint64_t id[6];

	c.horizon = 10;
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(hmrf_books_account(b, "jobs"), 0);
	ck_assert_int_eq(hmrf_books_account(b, "tasks"), 1);
	ck_assert_int_eq(hmrf_books_begin(b, 100), 0);
	/* 5 s of 10 left, 0 of 10, 2 of its own 3, 9 of 10, and none
	 * known */
	ck_assert_int_eq(hmrf_books_running(b, 0, &one, 95, 60), 0);
	ck_assert_int_eq(hmrf_books_running(b, 0, &one, 80, 60), 0);
	ck_assert_int_eq(hmrf_books_running(b, 0, &one, 99, 3), 0);
	ck_assert_int_eq(hmrf_books_running(b, 0, &one, 99, 60), 0);
	ck_assert_int_eq(hmrf_books_running(b, 0, &one, -INFINITY, 60), 0);
	/* the same as tasks, which end at 200, 200, 102 and 101 */
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 95, 60, 200, NULL), 0);
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 80, 60, 200, NULL), 0);
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 99, 3, 102, NULL), 0);
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 99, 60, 101, NULL), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, 0, &x);
	ck_assert_double_eq_tol(x.running_left.v[0], 16, 1e-9);
	ck_assert_double_eq_tol(x.running_left.v[1], 32, 1e-9);
	hmrf_books_get(b, 1, &x);
	/* 5 + 0 + 2 + 9: what is left of a span does not depend on when
	 * the task ends, only whether it still runs (as for a job) */
	ck_assert_double_eq_tol(x.running_left.v[0], 16, 1e-9);
	ck_assert_double_eq_tol(x.running_left.v[1], 32, 1e-9);
	/* At 101.5: 3.5 and 0.5, the last task ended; at 104, 1; at 105
	 * none. */
	ck_assert_double_eq_tol(_left_at(b, 1, 101.5).v[0], 4, 1e-9);
	ck_assert_double_eq_tol(_left_at(b, 1, 104).v[0], 1, 1e-9);
	l = _left_at(b, 1, 105);
	ck_assert(tres_is_zero(&l));
	/* A task with nothing left is not kept. */
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 80, 60, 200, &id[0]), 0);
	ck_assert_uint_eq(id[0], 0);
	l = _left_at(b, 1, 106);
	ck_assert(tres_is_zero(&l));
	/* Tasks ended before the end they were told with count no more
	 * from the next close: at 107, of 10, 8 and 6 left, the first
	 * ended (twice: the second changes nothing), then the second. */
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 107, 60, 200, &id[0]), 0);
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 105, 60, 200, &id[1]), 0);
	ck_assert_int_eq(hmrf_books_task(b, 1, &one, 103, 60, 200, &id[2]), 0);
	ck_assert_uint_ne(id[0], 0);
	ck_assert_uint_ne(id[0], id[1]);
	ck_assert_int_eq(hmrf_books_task_end(b, id[0]), 0);
	ck_assert_int_eq(hmrf_books_task_end(b, id[0]), 0);
	l = _left_at(b, 1, 107);
	ck_assert_double_eq_tol(l.v[0], 14, 1e-9);
	ck_assert_double_eq_tol(l.v[1], 28, 1e-9);
	ck_assert_int_eq(hmrf_books_task_end(b, id[1]), 0);
	ck_assert_double_eq_tol(_left_at(b, 1, 108).v[0], 5, 1e-9);
	/* The third retires at 113; its place taken again, its old id
	 * ends nothing (nor do the others'). */
	l = _left_at(b, 1, 113);
	ck_assert(tres_is_zero(&l));
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(hmrf_books_task(b, 1, &one, 113, 60, 200,
						 &id[3 + k]),
				 0);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(hmrf_books_task_end(b, id[k]), 0);
	ck_assert_double_eq_tol(_left_at(b, 1, 114).v[0], 27, 1e-9);
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * An account's standing is where H-MRF would serve it now: with equal
 * contributions, the one that has used least stands first; one whose
 * demand went unmet (beta < 1) stands ahead of both.
 */
START_TEST(test_standing)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), two = _v(20, 20), ten = _v(10, 10);
	double f[3] = { -1, -1, -1 };

	ck_assert_int_eq(hmrf_books_standing(NULL, f), -EINVAL);
	ck_assert_int_eq(hmrf_books_standing(b, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_standing(b, f), 0); /* no accounts */
	ck_assert_double_eq(f[0], -1);
	hmrf_books_set_capacity(b, &R);
	hmrf_books_account(b, "heavy");
	hmrf_books_account(b, "light");
	hmrf_books_begin(b, 0);
	hmrf_books_running(b, 0, &two, 0, INFINITY);
	hmrf_books_running(b, 1, &ten, 0, INFINITY);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_begin(b, 100);
	hmrf_books_running(b, 0, &two, 0, INFINITY);
	hmrf_books_running(b, 1, &ten, 0, INFINITY);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_standing(b, f), 0);
	ck_assert_double_eq(f[1], 1);
	ck_assert_double_eq(f[0], 0.5);
	ck_assert_int_eq(hmrf_books_find(b, "light"), 1);
	ck_assert_int_eq(hmrf_books_find(b, "nobody"), -ENOENT);
	ck_assert_int_eq(hmrf_books_find(NULL, "light"), -ENOENT);

	/* A third account that waited for all of its share and got none is
	 * in sharing loss: it stands first. */
	hmrf_books_account(b, "starved");
	hmrf_books_begin(b, 200);
	hmrf_books_running(b, 0, &two, 0, INFINITY);
	hmrf_books_running(b, 1, &ten, 0, INFINITY);
	hmrf_books_waiting(b, 2, &R, 100);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_begin(b, 300);
	hmrf_books_running(b, 0, &two, 0, INFINITY);
	hmrf_books_running(b, 1, &ten, 0, INFINITY);
	hmrf_books_waiting(b, 2, &R, 100);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_standing(b, f), 0);
	ck_assert_double_eq(f[2], 1);
	ck_assert_double_eq_tol(f[1], 2.0 / 3, 1e-12);
	ck_assert_double_eq_tol(f[0], 1.0 / 3, 1e-12);
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * The order a pass gives two accounts, a and b, each with one job
 * waiting, after a ran alone on half the cluster for 100 s: with the
 * cluster in service (cap R), or drained (cap 0) with the whole of it
 * configured (conf).  order[0] is the account that goes first.
 */
static void _order_after_drain(hmrf_policy_t policy, tres_vec_t cap,
			       tres_vec_t conf, size_t *order)
{
	hmrf_books_conf_t c = _conf(policy, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), half = _v(50, 50), one = _v(1, 1);
	hmrf_job_t jobs[2] = { { 0, one, 10 }, { 1, one, 10 } };

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(hmrf_books_set_capacity(b, &R), 0);
	hmrf_books_account(b, "a");
	hmrf_books_account(b, "b");
	hmrf_books_begin(b, 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_begin(b, 100);
	hmrf_books_ended(b, 1, 0, &half, 0, 100);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_set_capacity(b, &cap), 0);
	ck_assert_int_eq(hmrf_books_set_configured(b, &conf), 0);
	hmrf_books_begin(b, 110);
	hmrf_books_waiting(b, 0, &one, 105);
	hmrf_books_waiting(b, 1, &one, 105);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_rank(b, jobs, 2, order, NULL), 0);
	hmrf_books_destroy(&b);
}

/* With every node drained the ranking divides by the configured capacity:
 * the order is the one the cluster in service gives (b, which used
 * nothing, first), not a tie broken by job order. */
START_TEST(test_rank_while_drained)
{
	hmrf_policy_t pol[] = { HMRF_POLICY_HMRF, HMRF_POLICY_LT_DRF,
				HMRF_POLICY_LT_AF };
	tres_vec_t R = _v(100, 100), none = _v(0, 0), bad = _v(-1, 0);
	size_t up[2], drained[2];
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);

	for (size_t i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		_order_after_drain(pol[i], R, none, up);
		ck_assert_uint_eq(up[0], 1);
		_order_after_drain(pol[i], none, R, drained);
		ck_assert_uint_eq(drained[0], up[0]);
		ck_assert_uint_eq(drained[1], up[1]);
	}
	/* Bad input changes nothing. */
	ck_assert_int_eq(hmrf_books_set_configured(NULL, &R), -EINVAL);
	ck_assert_int_eq(hmrf_books_set_configured(b, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_set_configured(b, &bad), -EINVAL);
	hmrf_books_destroy(&b);
}
END_TEST

START_TEST(test_ended_once)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t two = _v(2, 0);
	hmrf_account_t x;
	int a = hmrf_books_account(b, "a");

	/* Charged at its end (outside a pass), then met again in the walk. */
	ck_assert_int_eq(hmrf_books_ended(b, 7, a, &two, 2, 6), 0);
	ck_assert_int_eq(hmrf_books_begin(b, 10), 0);
	ck_assert_int_eq(hmrf_books_ended(b, 7, a, &two, 2, 6), 0);
	ck_assert_int_eq(hmrf_books_ended(b, 8, a, &two, 4, 5), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.used.v[0], 2 * 4 + 2 * 1);
	/* After the close its end lies before the clock: nothing more. */
	ck_assert_int_eq(hmrf_books_begin(b, 20), 0);
	ck_assert_int_eq(hmrf_books_ended(b, 7, a, &two, 2, 6), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.used.v[0], 10);
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * Charged once, whatever the order: random jobs fed as priority/hmrf feeds
 * them (hmrf_recalc.c, priority_hmrf.c), on whole seconds as Slurm's
 * times are.  Each pass walks every job still listed: running ones
 * (started, not ended by the pass's clock; a job that ends within the
 * pass's own second may still run at the walk), ended ones, in every
 * pass until purged, at least one pass after their end.  Between passes
 * some jobs' ends come on their own (priority_p_job_end, or its queue
 * drained after the close); one that ends in the pass's second after the
 * walk comes only then.  After every close each account must hold what
 * its jobs ran up to the clock, summed here from the jobs alone.
 */
#define CW_JOBS 40
#define CW_ACCTS 3
#define CW_STEP 5 /* the longest time between passes */

typedef struct cw_job {
	int a, cpus;
	double start, end;
	int purge; /* passes it stays listed after its end */
	bool late; /* ends in a pass's second, after its walk */
	bool told; /* its end came on its own */
} cw_job_t;

static void _cw_gen(rng_t *r, cw_job_t *j)
{
	for (int k = 0; k < CW_JOBS; k++) {
		j[k].a = (int)rng_below(r, CW_ACCTS);
		j[k].cpus = 1 + (int)rng_below(r, 4);
		j[k].start = (double)rng_below(r, 150);
		j[k].end = j[k].start + (double)rng_below(r, 40);
		j[k].purge = 1 + (int)rng_below(r, 3);
		j[k].late = false;
		j[k].told = false;
	}
}

/* What the jobs ran up to t, per account: the model. */
static void _cw_model(const cw_job_t *j, double t, double *want)
{
	for (int a = 0; a < CW_ACCTS; a++)
		want[a] = 0;
	for (int k = 0; k < CW_JOBS; k++) {
		double e = j[k].end < t ? j[k].end : t;

		if (e > j[k].start)
			want[j[k].a] += j[k].cpus * (e - j[k].start);
	}
}

/* Job k's end told on its own, as at its end or from the queue. */
static void _cw_tell(hmrf_books_t *b, cw_job_t *j, int k, const int *acct)
{
	tres_vec_t v = _v(j[k].cpus, 0);

	ck_assert_int_eq(hmrf_books_ended(b, (uint32_t)k + 1, acct[j[k].a], &v,
					  j[k].start, j[k].end),
			 0);
	j[k].told = true;
}

START_TEST(test_generated_passes_charge_each_job_once)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	static cw_job_t j[CW_JOBS];
	int acct[CW_ACCTS], passes = 0;
	double now = 0, prev = 0, want[CW_ACCTS];
	hmrf_books_t *b;
	rng_t r;

	rng_seed(&r, gen_seed(_i));
	_cw_gen(&r, j);
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_ptr_nonnull(b);
	for (int a = 0; a < CW_ACCTS; a++) {
		char name[8];

		snprintf(name, sizeof(name), "a%d", a);
		acct[a] = hmrf_books_account(b, name);
	}
	while (now < 200) {
		prev = now;
		now += 1 + (double)rng_below(&r, CW_STEP);
		/* Ends between the passes, some on their own. */
		for (int k = 0; k < CW_JOBS; k++)
			if (j[k].end > prev && j[k].end < now &&
			    j[k].end > j[k].start && rng_below(&r, 2))
				_cw_tell(b, j, k, acct);
		ck_assert_int_eq(hmrf_books_begin(b, now), 0);
		for (int k = 0; k < CW_JOBS; k++) {
			tres_vec_t v = _v(j[k].cpus, 0);

			if (j[k].start > now)
				continue; /* pending */
			j[k].late = j[k].end == now && j[k].end > j[k].start &&
				    rng_below(&r, 2);
			if (j[k].end > now || j[k].late) {
				ck_assert_int_eq(hmrf_books_running(
							 b, acct[j[k].a], &v,
							 j[k].start, INFINITY),
						 0);
			} else if (now < j[k].end + j[k].purge * CW_STEP) {
				ck_assert_int_eq(
					hmrf_books_ended(b, (uint32_t)k + 1,
							 acct[j[k].a], &v,
							 j[k].start, j[k].end),
					0);
			}
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
		/* Ends that came while the books were busy, after the close:
		 * those in the pass's second after the walk, and others
		 * told again. */
		for (int k = 0; k < CW_JOBS; k++)
			if (j[k].late || (j[k].told && j[k].end <= now &&
					  rng_below(&r, 4) == 0))
				_cw_tell(b, j, k, acct);
		_cw_model(j, now, want);
		for (int a = 0; a < CW_ACCTS; a++) {
			hmrf_account_t x;

			ck_assert_int_eq(hmrf_books_get(b, acct[a], &x), 0);
			ck_assert_msg(fabs(x.used.v[0] - want[a]) < 1e-9,
				      "seed %d, pass %d at %g: account %d charged %g, ran %g",
				      _i, passes, now, a, x.used.v[0], want[a]);
		}
		passes++;
	}
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * What hmrf_books_get reads of the window is summed once at the close;
 * every charge after it (a job's end between passes, a seed, an account
 * added) is seen at once, and the sums are the ledger's own on a sliding
 * window, bucket for bucket.
 */
START_TEST(test_get_after_close_follows_charges)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_SLIDING, 100);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t two = _v(2, 1), want;
	hmrf_account_t x;
	int a = hmrf_books_account(b, "a"), z;

	ck_assert_int_eq(hmrf_books_begin(b, 50), 0);
	ck_assert_int_eq(hmrf_books_running(b, a, &two, 10, INFINITY), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ledger_usage(hmrf_books_state(b)->usage, a, &want);
	ck_assert_double_eq(x.used.v[0], want.v[0]);
	ck_assert_double_eq_tol(x.used.v[0], 2 * 40, 1e-9);
	/* A job ends between passes (charged from the close on): read at
	 * once. */
	ck_assert_int_eq(hmrf_books_ended(b, 9, a, &two, 40, 58), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq_tol(x.used.v[0], 2 * 40 + 2 * 8, 1e-9);
	/* A seed likewise, and an account added after the close. */
	ck_assert_int_eq(hmrf_books_seed(b, a, &two, 1, 5, 0, 50), 1);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq_tol(x.used.v[0], 2 * 40 + 2 * 8 + 2 * 4, 1e-9);
	z = hmrf_books_account(b, "z");
	ck_assert_int_eq(hmrf_books_get(b, z, &x), 0);
	ck_assert_double_eq(x.used.v[0], 0);
	/* The window slides: the next close sums it afresh. */
	ck_assert_int_eq(hmrf_books_begin(b, 170), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	hmrf_books_get(b, a, &x);
	ledger_usage(hmrf_books_state(b)->usage, a, &want);
	ck_assert_double_eq(x.used.v[0], want.v[0]);
	ck_assert_double_eq(x.used.v[1], want.v[1]);
	hmrf_books_get(b, a, &x);
	ledger_usage(hmrf_books_state(b)->ns, a, &want);
	ck_assert_double_eq(x.ns.v[0], want.v[0]);
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * The view published each Period carries every account's window sums
 * (usage, non-sharing allocation) and last start as the state holds them:
 * what sfair shows between two saves of the whole window.  Also for an
 * account the books met after the close and one charged after it.
 */
START_TEST(test_view_carries_window_sums)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_SLIDING, 100);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(10, 10), two = _v(2, 1), want;
	int a = hmrf_books_account(b, "a"), w = hmrf_books_account(b, "w");
	json_object *doc;
	hmrf_shares_t v;
	horae_err_t err;

	hmrf_books_set_capacity(b, &R);
	ck_assert_int_eq(hmrf_books_begin(b, 50), 0);
	ck_assert_int_eq(hmrf_books_running(b, a, &two, 10, INFINITY), 0);
	ck_assert_int_eq(hmrf_books_waiting(b, w, &two, 20), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	ck_assert_int_eq(hmrf_books_ended(b, 9, w, &two, 51, 58), 0);
	hmrf_books_account(b, "late");
	doc = hmrf_books_view(b);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(
		hmrf_shares_from_json(doc, HMRF_SHARES_VERSION, &v, &err), 0);
	ck_assert(v.has_usage);
	ck_assert_int_eq(v.n, 3);
	for (int i = 0; i < v.n; i++) {
		int k = hmrf_books_find(b, v.rows[i].name);

		ck_assert_int_ge(k, 0);
		ledger_usage(hmrf_books_state(b)->usage, k, &want);
		for (int t = 0; t < 2; t++)
			ck_assert_double_eq(v.rows[i].used.v[t], want.v[t]);
		ledger_usage(hmrf_books_state(b)->ns, k, &want);
		for (int t = 0; t < 2; t++)
			ck_assert_double_eq(v.rows[i].ns.v[t], want.v[t]);
		ck_assert_double_eq(v.rows[i].last_start,
				    hmrf_state_last_start(hmrf_books_state(b),
							  k));
	}
	/* the figures themselves: a ran 40 s on 2 CPUs, w waited 30 s
	 * before its job of 7 s, which started at 51 */
	ck_assert_double_eq_tol(hmrf_shares_find(&v, "a")->used.v[0], 80,
				1e-9);
	ck_assert_double_eq_tol(hmrf_shares_find(&v, "w")->used.v[0], 14,
				1e-9);
	ck_assert_double_eq(hmrf_shares_find(&v, "w")->last_start, 51);
	ck_assert_double_eq(hmrf_shares_find(&v, "late")->used.v[0], 0);
	hmrf_shares_free(&v);
	json_object_put(doc);
	hmrf_books_destroy(&b);
}
END_TEST

/*
 * The weight sum counts accounts with demand or a configured weight, and
 * the non-sharing allocation is the demand within that share.
 */
START_TEST(test_nonsharing_and_weight_sum)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), d = _v(80, 20);
	hmrf_account_t x;
	int a = hmrf_books_account(b, "a"), idle = hmrf_books_account(b, "i");
	int other = hmrf_books_account(b, "o");

	hmrf_books_set_capacity(b, &R);
	hmrf_books_set_weight(b, a, 1, false);
	hmrf_books_set_weight(b, idle, 1, false);
	hmrf_books_set_weight(b, other, 2, true);
	ck_assert_int_eq(hmrf_books_begin(b, 10), 0);
	ck_assert_int_eq(hmrf_books_waiting(b, a, &d, 0), 0);
	ck_assert_int_eq(hmrf_books_close(b), 0);
	/* Share 1/3 of R (o is configured, i neither): 80 CPUs scaled to
	 * 33.3, memory with it. */
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq_tol(x.ns_rate.v[0], 100.0 / 3, 1e-9);
	ck_assert_double_eq_tol(x.ns_rate.v[1], 20 * (100.0 / 3) / 80, 1e-9);
	ck_assert_double_eq_tol(x.ns.v[0], 10 * 100.0 / 3, 1e-9);
	ck_assert(hmrf_books_counted(b, other));
	ck_assert(!hmrf_books_counted(b, idle));
	hmrf_books_get(b, other, &x);
	ck_assert(tres_is_zero(&x.ns_rate));
	hmrf_books_destroy(&b);
}
END_TEST

/* A row of the first n TRES counts as the vector with the rest 0: two
 * books fed the same jobs both ways give the same demand (its non-sharing
 * rate) and starvation clock; a bad row counts nothing. */
START_TEST(test_waiting_row)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *bv = hmrf_books_create(&c, 0, NULL);
	hmrf_books_t *br = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), d1 = _v(80, 20), d2 = _v(5, 60);
	const double r1[] = { 80, 20 }, r2[] = { 5, 60 };
	hmrf_account_t x, y;
	int a, o;

	for (int k = 0; k < 2; k++) {
		hmrf_books_t *b = k ? br : bv;

		ck_assert_int_eq(hmrf_books_account(b, "a"), 0);
		ck_assert_int_eq(hmrf_books_account(b, "o"), 1);
		hmrf_books_set_capacity(b, &R);
		hmrf_books_set_weight(b, 0, 1, true);
		hmrf_books_set_weight(b, 1, 3, true);
		ck_assert_int_eq(hmrf_books_begin(b, 10), 0);
	}
	a = 0;
	o = 1;
	ck_assert_int_eq(hmrf_books_waiting(bv, a, &d1, 7), 0);
	ck_assert_int_eq(hmrf_books_waiting(bv, a, &d2, 4), 0);
	ck_assert_int_eq(hmrf_books_waiting_row(br, a, r1, 2, 7), 0);
	ck_assert_int_eq(hmrf_books_waiting_row(br, a, r2, 2, 4), 0);
	/* None of these counts anything, in either account. */
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, r1, -1, 1), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, r1, TRES_MAX + 1, 1),
			 -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, NULL, 2, 1), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, r1, 2, NAN), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(br, 2, r1, 2, 1), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(NULL, o, r1, 2, 1), -EINVAL);
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, NULL, 0, 9), 0);
	ck_assert_int_eq(hmrf_books_waiting(bv, o, &R, 9), 0);
	ck_assert_int_eq(hmrf_books_waiting_row(br, o, R.v, TRES_MAX, 9), 0);
	ck_assert_int_eq(hmrf_books_close(bv), 0);
	ck_assert_int_eq(hmrf_books_close(br), 0);
	for (int k = 0; k < 2; k++) {
		hmrf_books_get(bv, k, &x);
		hmrf_books_get(br, k, &y);
		ck_assert_mem_eq(&x, &y, sizeof(x));
	}
	hmrf_books_get(br, a, &y);
	ck_assert_double_eq(y.waiting_since, 4);
	ck_assert(!tres_is_zero(&y.ns_rate));
	hmrf_books_get(br, o, &y);
	ck_assert_double_eq(y.waiting_since, 9);
	hmrf_books_destroy(&bv);
	hmrf_books_destroy(&br);
}
END_TEST

START_TEST(test_horizon_and_starvation_clock)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_SLIDING, 3600);
	hmrf_books_t *b;
	tres_vec_t one = _v(1, 1), R = _v(10, 10);
	hmrf_account_t x;
	int a;

	c.horizon = 0;
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_double_eq(hmrf_books_horizon(b), 3600);
	hmrf_books_destroy(&b);
	c.window.kind = WINDOW_NONE;
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_double_eq(hmrf_books_horizon(b),
			    HMRF_BOOKS_HORIZON_NO_WINDOW);
	a = hmrf_books_account(b, "a");
	hmrf_books_set_capacity(b, &R);
	/* Waiting since 40, last start 30: waits since 40; a start at 60
	 * moves it. */
	hmrf_books_started(b, a, 30);
	hmrf_books_begin(b, 50);
	hmrf_books_waiting(b, a, &one, 45);
	hmrf_books_waiting(b, a, &one, 40);
	hmrf_books_close(b);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.waiting_since, 40);
	hmrf_books_begin(b, 70);
	hmrf_books_running(b, a, &one, 60, INFINITY);
	hmrf_books_waiting(b, a, &one, 40);
	hmrf_books_close(b);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.waiting_since, 60);
	/* Nothing waiting: not waiting. */
	hmrf_books_begin(b, 80);
	hmrf_books_close(b);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.waiting_since, 0);
	hmrf_books_destroy(&b);
}
END_TEST

START_TEST(test_seed)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_SLIDING, 100);
	hmrf_books_t *b = hmrf_books_create(&c, 1000, NULL);
	tres_vec_t one = _v(1, 0);
	hmrf_account_t x;
	double from;
	int a = hmrf_books_account(b, "a");

	ck_assert_int_eq(hmrf_books_seed_span(b, 1000, &from), 0);
	ck_assert_double_eq(from, 900);
	ck_assert_int_eq(hmrf_books_seed(b, a, &one, 850, 950, from, 1000), 1);
	ck_assert_int_eq(hmrf_books_seed(b, a, &one, 990, 0, from, 1000), 1);
	ck_assert_int_eq(hmrf_books_seed(b, a, &one, 10, 20, from, 1000), 0);
	hmrf_books_get(b, a, &x);
	ck_assert_double_eq(x.used.v[0], 50 + 10);
	hmrf_books_destroy(&b);
	c.window.kind = WINDOW_NONE;
	b = hmrf_books_create(&c, 1000, NULL);
	ck_assert_int_eq(hmrf_books_seed_span(b, 1000, &from), -ENOENT);
	hmrf_books_destroy(&b);
}
END_TEST

/* --- the step model: the papers' examples -------------------------------- */

/* Start jobs in order, each that still fits in R; count them in ran[a]
 * (per account, stride apart). */
static void _start_fitting(const hmrf_job_t *jobs, const size_t *order,
			   size_t n, const tres_vec_t *R, int *ran, int stride)
{
	tres_vec_t used;

	tres_zero(&used);
	for (size_t k = 0; k < n; k++) {
		tres_vec_t after = used;

		tres_add(&after, &jobs[order[k]].tres);
		if (!tres_fits(&after, R))
			continue;
		used = after;
		ran[jobs[order[k]].account * stride]++;
	}
}


/*
 * Two accounts on 100 CPUs / 100 GB.  At each step t the books are told
 * what happened over [t-1, t] (the tasks that ran, the tasks left
 * waiting); then what waits now, and the tasks are started in the order
 * the books rank them, each that still fits.  Tasks last one step.
 */
typedef struct step_model {
	hmrf_policy_t policy;
	window_spec_t window;
	double weight[2];
	tres_vec_t task[2];
	int steps;
	const int *arrivals[2]; /* new tasks per step; NULL: always 200 */
	int ran[2][512];
	double beta[2][512]; /* after each step */
	hmrf_books_t *books;
} step_model_t;

static void _feed(step_model_t *m, double now, const int *running,
		  const int *waiting)
{
	ck_assert_int_eq(hmrf_books_begin(m->books, now), 0);
	for (int a = 0; a < 2; a++) {
		tres_vec_t r = m->task[a], w = m->task[a];

		tres_scale(&r, running[a]);
		tres_scale(&w, waiting[a]);
		if (running[a])
			ck_assert_int_eq(hmrf_books_running(m->books, a, &r,
							    now - 1, INFINITY),
					 0);
		ck_assert_int_eq(hmrf_books_waiting(m->books, a, &w, now), 0);
	}
	ck_assert_int_eq(hmrf_books_close(m->books), 0);
}

/* Close step t-1 (its tasks ran over [t-1, t]); its betas. */
static void _close_step(step_model_t *m, int t, const int *pending)
{
	int ran[2] = { m->ran[0][t - 1], m->ran[1][t - 1] };
	int left[2] = { pending[0], pending[1] };
	hmrf_account_t x;

	_feed(m, t, ran, left);
	for (int a = 0; a < 2; a++) {
		hmrf_books_get(m->books, a, &x);
		m->beta[a][t - 1] = hmrf_beta(&x.used, &x.ns);
	}
}

static void _step(step_model_t *m, int t, int *pending)
{
	hmrf_job_t jobs[1024];
	size_t order[1024], n = 0;
	tres_vec_t R = _v(100, 100);
	int none[2] = { 0, 0 }, run[2] = { 0, 0 };

	_feed(m, t, none, pending);
	for (int a = 0; a < 2; a++) {
		for (int k = 0; k < pending[a]; k++) {
			ck_assert_uint_lt(n, 1024);
			jobs[n].account = a;
			jobs[n].tres = m->task[a];
			jobs[n++].duration = 1;
		}
	}
	ck_assert_int_eq(hmrf_books_rank(m->books, jobs, n, order, NULL), 0);
	_start_fitting(jobs, order, n, &R, run, 1);
	for (int a = 0; a < 2; a++) {
		pending[a] -= run[a];
		m->ran[a][t] = run[a];
	}
}

static void _run(step_model_t *m)
{
	hmrf_books_conf_t c = _conf(m->policy, m->window.kind,
				    m->window.length);
	tres_vec_t R = _v(100, 100);
	int pending[2] = { 0, 0 };

	m->books = hmrf_books_create(&c, 0, NULL);
	ck_assert_ptr_nonnull(m->books);
	hmrf_books_set_capacity(m->books, &R);
	for (int a = 0; a < 2; a++) {
		ck_assert_int_eq(hmrf_books_account(m->books, a ? "b" : "a"),
				 a);
		hmrf_books_set_weight(m->books, a, m->weight[a], true);
	}
	for (int t = 0; t < m->steps; t++) {
		if (t)
			_close_step(m, t, pending);
		for (int a = 0; a < 2; a++)
			pending[a] = m->arrivals[a] ? pending[a] +
							      m->arrivals[a][t] :
						      200;
		_step(m, t, pending);
	}
	_close_step(m, m->steps, pending);
}

static void _done(step_model_t *m)
{
	hmrf_books_destroy(&m->books);
}

static double _aggregate(const step_model_t *m, int a)
{
	hmrf_account_t x;

	hmrf_books_get(m->books, a, &x);
	return x.used.v[0] + x.used.v[1];
}

static const int example3_a[] = { 30, 20, 27, 10 };
static const int example3_b[] = { 4, 24, 8, 30 };

static void _example3(step_model_t *m, hmrf_policy_t policy,
		      window_kind_t kind, double length)
{
	memset(m, 0, sizeof(*m));
	m->policy = policy;
	m->window.kind = kind;
	m->window.length = length;
	m->weight[0] = m->weight[1] = 1;
	m->task[0] = _v(1, 4);
	m->task[1] = _v(4, 1);
	m->steps = 4;
	m->arrivals[0] = example3_a;
	m->arrivals[1] = example3_b;
	_run(m);
}

static void _assert_steps(const step_model_t *m, const int *a, const int *b)
{
	for (int t = 0; t < 4; t++) {
		ck_assert_msg(m->ran[0][t] == a[t] && m->ran[1][t] == b[t],
			      "%s t%d: A %d (want %d), B %d (want %d)",
			      hmrf_policy_name(m->policy), t + 1, m->ran[0][t],
			      a[t], m->ran[1][t], b[t]);
	}
}

START_TEST(test_table1_drf)
{
	static const int a[] = { 24, 20, 22, 20 }, b[] = { 4, 20, 12, 20 };
	step_model_t m;

	_example3(&m, HMRF_POLICY_DRF, WINDOW_NONE, 0);
	_assert_steps(&m, a, b);
	_done(&m);
}
END_TEST

START_TEST(test_table1_hmrf)
{
	static const int a[] = { 24, 4, 23, 8 }, b[] = { 4, 24, 8, 23 };
	step_model_t m;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	_assert_steps(&m, a, b);
	/* Totals 59 and 59: equal aggregate usage, as the paper says. */
	ck_assert_double_eq(_aggregate(&m, 0), 59 * 5);
	ck_assert_double_eq(_aggregate(&m, 1), 59 * 5);
	_done(&m);
}
END_TEST

/*
 * Example 4 (Figs. 3-5): 100 CPUs / 100 GB, A's tasks <1, 2>, B's <1, 1>,
 * equal weights; 15 and 80 tasks at t1, 60 and 40 to run at t2 (B's 10
 * left over plus 30 new).  The paper: LT-DRF 15/70 then 35/30, LT-AF 15/70
 * then 42/16, H-MRF 15/70 then 40/20 with beta_A = 1, beta_B = 1.4 after
 * t1 and beta_A = 1.375, beta_B = 1 after t2.
 */
static const int example4_a[] = { 15, 60 };
static const int example4_b[] = { 80, 30 };

static const struct {
	hmrf_policy_t policy;
	int a[2], b[2];
} example4_cases[] = {
	{ HMRF_POLICY_LT_DRF, { 15, 35 }, { 70, 30 } },
	{ HMRF_POLICY_LT_AF, { 15, 42 }, { 70, 16 } },
	{ HMRF_POLICY_HMRF, { 15, 40 }, { 70, 20 } },
};

START_TEST(test_example4)
{
	step_model_t m;

	memset(&m, 0, sizeof(m));
	m.policy = example4_cases[_i].policy;
	m.window.kind = WINDOW_NONE;
	m.weight[0] = m.weight[1] = 1;
	m.task[0] = _v(1, 2);
	m.task[1] = _v(1, 1);
	m.steps = 2;
	m.arrivals[0] = example4_a;
	m.arrivals[1] = example4_b;
	_run(&m);
	for (int t = 0; t < 2; t++)
		ck_assert_msg(m.ran[0][t] == example4_cases[_i].a[t] &&
				      m.ran[1][t] == example4_cases[_i].b[t],
			      "%s t%d: A %d (want %d), B %d (want %d)",
			      hmrf_policy_name(m.policy), t + 1, m.ran[0][t],
			      example4_cases[_i].a[t], m.ran[1][t],
			      example4_cases[_i].b[t]);
	if (m.policy == HMRF_POLICY_HMRF) {
		ck_assert_double_eq_tol(m.beta[0][0], 1, 1e-12);
		ck_assert_double_eq_tol(m.beta[1][0], 1.4, 1e-12);
		ck_assert_double_eq_tol(m.beta[0][1], 1.375, 1e-12);
		ck_assert_double_eq_tol(m.beta[1][1], 1, 1e-12);
		/* Aggregates 165 and 180 (Fig. 5), in CPU + GB. */
		ck_assert_double_eq(_aggregate(&m, 0), 165);
		ck_assert_double_eq(_aggregate(&m, 1), 180);
	}
	_done(&m);
}
END_TEST

/*
 * Example 4 with scheduling latency, as on a real cluster: each step's
 * jobs are ranked, then wait lambda (in steps) with the capacity in
 * service and nothing running before they start, and run one step.  That
 * wait is demand without allocation, so it is entitlement, and it counts
 * from the next ranking on: with lambda = 0 the paper's 40/20; with half a
 * second and a second before the start of a six-second step, 37/26 and
 * 35/30, what t0010 measured on Slurm (35/30 in three runs of four, 37/26
 * in one).
 */
static void _example4_latency(double lambda, int ran[2][2])
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), shape[2] = { _v(1, 2), _v(1, 1) };
	int pending[2] = { 0, 0 };
	double t = 0;

	hmrf_books_set_capacity(b, &R);
	hmrf_books_account(b, "a");
	hmrf_books_account(b, "b");
	for (int s = 0; s < 2; s++) {
		hmrf_job_t jobs[200];
		size_t order[200], n = 0;

		hmrf_books_begin(b, t);
		for (int a = 0; a < 2; a++) {
			tres_vec_t w = shape[a];

			pending[a] += a ? example4_b[s] : example4_a[s];
			ran[a][s] = 0;
			tres_scale(&w, pending[a]);
			hmrf_books_waiting(b, a, &w, t);
			for (int k = 0; k < pending[a]; k++) {
				jobs[n].account = a;
				jobs[n].tres = shape[a];
				jobs[n++].duration = 1;
			}
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
		ck_assert_int_eq(hmrf_books_rank(b, jobs, n, order, NULL), 0);
		_start_fitting(jobs, order, n, &R, &ran[0][s], 2);
		/* They start lambda later: demand, capacity, no allocation. */
		hmrf_books_begin(b, t + lambda);
		for (int a = 0; a < 2; a++) {
			tres_vec_t w = shape[a];

			tres_scale(&w, pending[a]);
			hmrf_books_waiting(b, a, &w, t);
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
		t += lambda + 1;
		hmrf_books_begin(b, t);
		for (int a = 0; a < 2; a++) {
			tres_vec_t r = shape[a], w = shape[a];

			tres_scale(&r, ran[a][s]);
			pending[a] -= ran[a][s];
			tres_scale(&w, pending[a]);
			hmrf_books_running(b, a, &r, t - 1, INFINITY);
			hmrf_books_waiting(b, a, &w, t);
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
	}
	hmrf_books_destroy(&b);
}

START_TEST(test_example4_scheduling_latency)
{
	int ran[2][2];

	_example4_latency(0, ran);
	ck_assert_msg(ran[0][1] == 40 && ran[1][1] == 20, "lambda 0: %d/%d",
		      ran[0][1], ran[1][1]);
	_example4_latency(1.0 / 12, ran);
	ck_assert_msg(ran[0][1] == 37 && ran[1][1] == 26,
		      "lambda 1/12: %d/%d", ran[0][1], ran[1][1]);
	_example4_latency(1.0 / 6, ran);
	ck_assert_msg(ran[0][0] == 15 && ran[1][0] == 70, "t1: %d/%d",
		      ran[0][0], ran[1][0]);
	ck_assert_msg(ran[0][1] == 35 && ran[1][1] == 30,
		      "lambda 1/6: %d/%d", ran[0][1], ran[1][1]);
}
END_TEST

/*
 * Example 4's step 2 ranked while every node is drained (nothing in
 * service, the configured capacity set), as when a site resumes its nodes
 * after a maintenance or t0010 puts its node back: the drained span adds
 * no entitlement, and the ranking takes the step's entitlement over the
 * configured capacity, so the pass that follows starts the paper's 40/20
 * (without it, no account is seen in loss and the order is LT-AF's,
 * 42/16).
 */
START_TEST(test_example4_ranked_drained)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), none = _v(0, 0);
	tres_vec_t shape[2] = { _v(1, 2), _v(1, 1) };
	int pending[2] = { 0, 0 }, ran[2][2];
	hmrf_account_t before, after;

	hmrf_books_set_configured(b, &R);
	hmrf_books_account(b, "a");
	hmrf_books_account(b, "b");
	for (int s = 0; s < 2; s++) {
		hmrf_job_t jobs[200];
		size_t order[200], n = 0;
		double t = 2.0 * s; /* drained from 1 to 2 */

		/* Step 2's jobs arrive on the drained cluster. */
		hmrf_books_set_capacity(b, s ? &none : &R);
		hmrf_books_begin(b, t);
		for (int a = 0; a < 2; a++) {
			tres_vec_t w = shape[a];

			pending[a] += a ? example4_b[s] : example4_a[s];
			tres_scale(&w, pending[a]);
			hmrf_books_waiting(b, a, &w, t);
			for (int k = 0; k < pending[a]; k++) {
				jobs[n].account = a;
				jobs[n].tres = shape[a];
				jobs[n++].duration = 1;
			}
		}
		if (s)
			hmrf_books_get(b, 0, &before);
		ck_assert_int_eq(hmrf_books_close(b), 0);
		if (s) {
			hmrf_books_get(b, 0, &after);
			ck_assert_double_eq(after.ns.v[0], before.ns.v[0]);
		}
		ck_assert_int_eq(hmrf_books_rank(b, jobs, n, order, NULL), 0);
		_start_fitting(jobs, order, n, &R, &ran[0][s], 2);
		/* The step runs with the capacity in service. */
		hmrf_books_set_capacity(b, &R);
		hmrf_books_begin(b, t + 1);
		for (int a = 0; a < 2; a++) {
			tres_vec_t r = shape[a], w = shape[a];

			tres_scale(&r, ran[a][s]);
			pending[a] -= ran[a][s];
			tres_scale(&w, pending[a]);
			hmrf_books_running(b, a, &r, t, INFINITY);
			if (!s)
				continue; /* drained at once after step 1 */
			hmrf_books_waiting(b, a, &w, t + 1);
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
	}
	ck_assert_msg(ran[0][0] == 15 && ran[1][0] == 70, "t1: %d/%d",
		      ran[0][0], ran[1][0]);
	ck_assert_msg(ran[0][1] == 40 && ran[1][1] == 20, "t2: %d/%d",
		      ran[0][1], ran[1][1]);
	hmrf_books_destroy(&b);
}
END_TEST

/* A window no longer than a step forgets everything between steps. */
START_TEST(test_short_window_is_memoryless)
{
	static const int a[] = { 24, 20, 22, 20 }, b[] = { 4, 20, 12, 20 };
	step_model_t m;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_TUMBLING, 1);
	_assert_steps(&m, a, b);
	_done(&m);
	_example3(&m, HMRF_POLICY_HMRF, WINDOW_TUMBLING, 0.25);
	_assert_steps(&m, a, b);
	_done(&m);
}
END_TEST

/* A window longer than the run remembers it all. */
START_TEST(test_table1_long_windows_remember)
{
	step_model_t m;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_SLIDING, 10);
	ck_assert_int_eq(m.ran[0][3] + m.ran[0][2] + m.ran[0][1] + m.ran[0][0],
			 59);
	_done(&m);
}
END_TEST

START_TEST(test_weights_2_to_1)
{
	step_model_t m;
	double ratio;

	memset(&m, 0, sizeof(m));
	m.policy = HMRF_POLICY_HMRF;
	m.window.kind = WINDOW_NONE;
	m.weight[0] = 2;
	m.weight[1] = 1;
	m.task[0] = _v(1, 4);
	m.task[1] = _v(4, 1);
	m.steps = 300;
	_run(&m);
	ratio = _aggregate(&m, 0) / _aggregate(&m, 1);
	ck_assert_msg(fabs(ratio / 2 - 1) < 0.01,
		      "aggregate ratio %.4f, want 2 within 1%%", ratio);
	_done(&m);
}
END_TEST

/*
 * t0014 on the books, with slurmctld's timing: accounts a and b, shares
 * 2:1, both backlogged with jobs of 1 CPU (time limit 60 s) on 16 CPUs,
 * ChargeHorizon 4 s.  A job runs 4 s, but its end is recorded up to 2 s
 * later (a loaded slurmctld, 2026-12-06), one job at a time; the main
 * scheduler starts the next batch once all 16 CPUs are free, in the
 * order of the last ranking, which comes every second and so often
 * while some of the batch have ended and others not yet.  Each batch
 * must split about 2:1 (a 10.67 of 16).  Counting each running job for
 * the whole step, the ranking held back the accounts of the jobs not yet
 * ended by a step they would not use, and the batches swung, as in a CI
 * run of t0014 that ended at 1.895 (14/2, 6/10, 16/0, 3/13): 51 of these
 * 100 seeds had a batch 3.5 or more jobs off, the worst 6.67 (4/12), and
 * a/b after 90 s was 1.900-2.065.  With the running jobs capped at what
 * they have left of their charge span, the worst batch was 1.67 jobs off
 * and a/b 1.967-2.020 (2026-12-06).  The bound asserted is 3.5.
 */
#define SW_JOBS 600
#define SW_SEEDS 100

/* One seed: the worst batch's distance from 2:1, jobs; *ratio: a's usage
 * over b's after 90 s. */
static double _swing_run(uint64_t seed, double *ratio)
{
	hmrf_books_conf_t c = _conf(HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	hmrf_books_t *b;
	tres_vec_t R = _v(16, 16000), one = _v(1, 500);
	static double start[SW_JOBS], len[SW_JOBS];
	static int state[SW_JOBS], ord[SW_JOBS]; /* 0 waits, 1 runs, 2 ended */
	static hmrf_job_t pend[SW_JOBS];
	static size_t order[SW_JOBS];
	double used[2] = { 0, 0 }, worst = 0;
	int idle = 16, nord = 0;
	rng_t r;

	rng_seed(&r, gen_seed(seed));
	c.horizon = 4;
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_ptr_nonnull(b);
	hmrf_books_set_capacity(b, &R);
	ck_assert_int_eq(hmrf_books_account(b, "a"), 0);
	ck_assert_int_eq(hmrf_books_account(b, "b"), 1);
	hmrf_books_set_weight(b, 0, 2, true);
	hmrf_books_set_weight(b, 1, 1, true);
	memset(state, 0, sizeof(state));
	for (int k = 0; k <= 900; k++) {
		double t = k / 10.0;
		int split[2] = { 0, 0 };

		for (int j = 0; j < SW_JOBS; j++) {
			if (state[j] != 1 || start[j] + len[j] > t + 1e-9)
				continue;
			state[j] = 2;
			idle++;
			ck_assert_int_eq(hmrf_books_ended(b, (uint32_t)j + 1,
							  j % 2, &one, start[j],
							  start[j] + len[j]),
					 0);
			used[j % 2] += len[j];
		}
		if (k % 10 == 5) { /* the ranking, every second */
			tres_vec_t w[2] = { _v(0, 0), _v(0, 0) };
			int map[SW_JOBS];
			size_t np = 0;

			ck_assert_int_eq(hmrf_books_begin(b, t), 0);
			for (int j = 0; j < SW_JOBS; j++) {
				if (state[j] == 1)
					ck_assert_int_eq(
						hmrf_books_running(b, j % 2,
								   &one,
								   start[j],
								   60),
						0);
				if (state[j])
					continue;
				tres_add(&w[j % 2], &one);
				pend[np].account = j % 2;
				pend[np].tres = one;
				pend[np].duration = 60;
				map[np++] = j;
			}
			for (int a = 0; a < 2; a++)
				hmrf_books_waiting(b, a, &w[a], 0);
			ck_assert_int_eq(hmrf_books_close(b), 0);
			ck_assert_int_eq(hmrf_books_rank(b, pend, np, order,
							 NULL),
					 0);
			nord = (int)np;
			for (size_t i = 0; i < np; i++)
				ord[i] = map[order[i]];
		}
		if (idle < 16 || !nord)
			continue;
		for (int i = 0; i < nord && idle; i++) {
			int j = ord[i];

			if (state[j])
				continue;
			state[j] = 1;
			start[j] = t;
			/* 4 s, recorded 0-2 s late, in tenths */
			len[j] = 4 + (double)rng_below(&r, 21) / 10;
			idle--;
			split[j % 2]++;
		}
		worst = fmax(worst, fabs(split[0] - 16 * 2.0 / 3));
	}
	for (int j = 0; j < SW_JOBS; j++)
		if (state[j] == 1)
			used[j % 2] += 90 - start[j];
	*ratio = used[0] / used[1];
	hmrf_books_destroy(&b);
	return worst;
}

START_TEST(test_batches_do_not_swing)
{
	double worst = 0, lo = INFINITY, hi = 0;

	for (uint64_t seed = 1; seed <= SW_SEEDS; seed++) {
		double ratio, w = _swing_run(seed, &ratio);

		ck_assert_msg(w < 3.5,
			      "seed %d: a batch %.2f jobs off 2:1",
			      (int)seed, w);
		worst = fmax(worst, w);
		lo = fmin(lo, ratio);
		hi = fmax(hi, ratio);
	}
	printf("# batches: worst %.2f jobs off 2:1 over %d seeds; a/b after 90 s %.3f-%.3f\n",
	       worst, SW_SEEDS, lo, hi);
}
END_TEST

/* --- generated step cases against the paper's algorithm ------------------ */

/*
 * Generated cases: 2-4 accounts with one task shape each, weights 1-3, on
 * 100 CPUs / 100 GB, six steps of random arrivals, tasks of one step.
 * The books drive the step (rank, then start each task that fits) and
 * are compared with Algorithm 1 of the H-MRF paper written out here on
 * its own, as progressive filling: pick the account the policy prefers
 * (beta over the step being decided for H-MRF), give it one task if it
 * fits, else leave it out for the rest of the step.  It shares no code
 * with hmrf.c or hmrf_books.c.
 */
#define GEN_ACCTS 4
#define GEN_STEPS 6

typedef struct gen_case {
	int nacct;
	double weight[GEN_ACCTS];
	double shape[GEN_ACCTS][2];
	int arrivals[GEN_STEPS][GEN_ACCTS];
} gen_case_t;

static void _gen_case(rng_t *r, gen_case_t *g)
{
	memset(g, 0, sizeof(*g));
	g->nacct = 2 + (int)rng_below(r, GEN_ACCTS - 1);
	for (int a = 0; a < g->nacct; a++) {
		g->weight[a] = 1 + (double)rng_below(r, 3);
		g->shape[a][0] = 1 + (double)rng_below(r, 8);
		g->shape[a][1] = 1 + (double)rng_below(r, 8);
		for (int t = 0; t < GEN_STEPS; t++)
			g->arrivals[t][a] = (int)rng_below(r, 30);
	}
}

/* a below b beyond rounding (the rule HMRF_TIE states, written again). */
static bool _lt(double a, double b)
{
	if (a == b)
		return false;
	if (isinf(a) || isinf(b))
		return a < b;
	return b - a > 1e-9 * fmax(fabs(a), fabs(b));
}

/* The paper's Algorithm 1 (and the baselines) as progressive filling. */
static void _paper_steps(const gen_case_t *g, hmrf_policy_t policy,
			 int ran[GEN_STEPS][GEN_ACCTS])
{
	double U[GEN_ACCTS][2] = { { 0 } }, NS[GEN_ACCTS][2] = { { 0 } };
	int pending[GEN_ACCTS] = { 0 };
	double W = 0;

	for (int a = 0; a < g->nacct; a++)
		W += g->weight[a];
	for (int t = 0; t < GEN_STEPS; t++) {
		double step[GEN_ACCTS][2] = { { 0 } }, nsend[GEN_ACCTS][2];
		double free_[2] = { 100, 100 };
		bool out[GEN_ACCTS] = { false };

		for (int a = 0; a < g->nacct; a++) {
			double k = 1, share = 100 * g->weight[a] / W;

			pending[a] += g->arrivals[t][a];
			ran[t][a] = 0;
			for (int j = 0; j < 2; j++) {
				double d = pending[a] * g->shape[a][j];

				if (d > share)
					k = fmin(k, share / d);
			}
			for (int j = 0; j < 2; j++)
				nsend[a][j] = NS[a][j] +
					      k * pending[a] * g->shape[a][j];
		}
		for (;;) {
			int best = -1;
			double bk0 = 0, bk1 = 0, bk2 = 0;

			for (int a = 0; a < g->nacct; a++) {
				double u[2], k0, k1 = 0, k2 = 0, beta = INFINITY;

				if (out[a] || ran[t][a] == pending[a])
					continue;
				for (int j = 0; j < 2; j++) {
					u[j] = U[a][j] + step[a][j];
					if (nsend[a][j] > 0)
						beta = fmin(beta,
							    u[j] / nsend[a][j]);
				}
				/* k0: 0 in loss (then k1 = beta), else 1 */
				k0 = 1;
				if (policy == HMRF_POLICY_HMRF &&
				    _lt(beta, 1)) {
					k0 = 0;
					k1 = beta;
				} else if (policy == HMRF_POLICY_DRF) {
					k1 = fmax(step[a][0] / 100,
						  step[a][1] / 100) /
					     g->weight[a];
				} else if (policy == HMRF_POLICY_LT_DRF) {
					k1 = fmax(u[0] / 100, u[1] / 100) /
					     g->weight[a];
				} else {
					k1 = (u[0] / 100 + u[1] / 100) /
					     g->weight[a];
					k2 = fmax(u[0] / 100, u[1] / 100) /
					     g->weight[a];
				}
				if (best < 0 || k0 < bk0 ||
				    (k0 == bk0 &&
				     (_lt(k1, bk1) ||
				      (!_lt(bk1, k1) && _lt(k2, bk2))))) {
					best = a;
					bk0 = k0;
					bk1 = k1;
					bk2 = k2;
				}
			}
			if (best < 0)
				break;

			if (g->shape[best][0] > free_[0] + 1e-9 ||
			    g->shape[best][1] > free_[1] + 1e-9) {
				out[best] = true;
				continue;
			}
			for (int j = 0; j < 2; j++) {
				free_[j] -= g->shape[best][j];
				step[best][j] += g->shape[best][j];
			}
			ran[t][best]++;
		}
		for (int a = 0; a < g->nacct; a++) {
			pending[a] -= ran[t][a];
			for (int j = 0; j < 2; j++) {
				U[a][j] += step[a][j];
				NS[a][j] = nsend[a][j];
			}
		}
	}
}

/* The same case through the books, as the step model drives them. */
static void _books_steps(const gen_case_t *g, hmrf_policy_t policy,
			 int ran[GEN_STEPS][GEN_ACCTS])
{
	hmrf_books_conf_t c = _conf(policy, WINDOW_NONE, 0);
	hmrf_books_t *b = hmrf_books_create(&c, 0, NULL);
	tres_vec_t R = _v(100, 100), shape[GEN_ACCTS];
	int pending[GEN_ACCTS] = { 0 };
	hmrf_job_t jobs[GEN_ACCTS * GEN_STEPS * 30];
	size_t order[GEN_ACCTS * GEN_STEPS * 30];

	hmrf_books_set_capacity(b, &R);
	for (int a = 0; a < g->nacct; a++) {
		char name[4] = { (char)('a' + a), 0 };

		hmrf_books_account(b, name);
		hmrf_books_set_weight(b, a, g->weight[a], true);
		shape[a] = _v(g->shape[a][0], g->shape[a][1]);
	}
	for (int t = 0; t < GEN_STEPS; t++) {
		size_t n = 0;

		if (t) { /* what step t-1 held and left over [t-1, t] */
			hmrf_books_begin(b, t);
			for (int a = 0; a < g->nacct; a++) {
				tres_vec_t x = shape[a], y = shape[a];

				tres_scale(&x, ran[t - 1][a]);
				tres_scale(&y, pending[a]);
				if (ran[t - 1][a])
					hmrf_books_running(b, a, &x, t - 1, INFINITY);
				hmrf_books_waiting(b, a, &y, t - 1);
			}
			ck_assert_int_eq(hmrf_books_close(b), 0);
		}
		hmrf_books_begin(b, t);
		for (int a = 0; a < g->nacct; a++) {
			tres_vec_t y = shape[a];

			pending[a] += g->arrivals[t][a];
			ran[t][a] = 0;
			tres_scale(&y, pending[a]);
			hmrf_books_waiting(b, a, &y, t);
			for (int k = 0; k < pending[a]; k++) {
				jobs[n].account = a;
				jobs[n].tres = shape[a];
				jobs[n++].duration = 1;
			}
		}
		ck_assert_int_eq(hmrf_books_close(b), 0);
		ck_assert_int_eq(hmrf_books_rank(b, jobs, n, order, NULL), 0);
		_start_fitting(jobs, order, n, &R, ran[t], 1);
		for (int a = 0; a < g->nacct; a++)
			pending[a] -= ran[t][a];
	}
	hmrf_books_destroy(&b);
}

static const hmrf_policy_t gen_policies[] = {
	HMRF_POLICY_HMRF, HMRF_POLICY_DRF, HMRF_POLICY_LT_DRF, HMRF_POLICY_LT_AF
};

START_TEST(test_generated_cases_follow_the_paper)
{
	hmrf_policy_t policy = gen_policies[_i];
	int cases = 300, same = 0, loss_mattered = 0;

	for (int seed = 1; seed <= cases; seed++) {
		rng_t r;
		gen_case_t g;
		int want[GEN_STEPS][GEN_ACCTS] = { { 0 } };
		int got[GEN_STEPS][GEN_ACCTS] = { { 0 } };
		bool eq = true;

		rng_seed(&r, gen_seed((uint64_t)seed * 7919));
		_gen_case(&r, &g);
		_paper_steps(&g, policy, want);
		_books_steps(&g, policy, got);
		for (int t = 0; t < GEN_STEPS; t++)
			for (int a = 0; a < g.nacct; a++)
				eq &= want[t][a] == got[t][a];
		same += eq;
		if (policy == HMRF_POLICY_HMRF) {
			int lt[GEN_STEPS][GEN_ACCTS] = { { 0 } };

			_paper_steps(&g, HMRF_POLICY_LT_AF, lt);
			loss_mattered += memcmp(lt, want, sizeof(lt)) != 0;
		}
		if (!eq && getenv("GEN_DEBUG")) {
			for (int a = 0; a < g.nacct; a++) {
				fprintf(stderr, "acct %d w %g shape %g,%g:", a, g.weight[a], g.shape[a][0], g.shape[a][1]);
				for (int t = 0; t < GEN_STEPS; t++)
					fprintf(stderr, " +%d %d/%d", g.arrivals[t][a], want[t][a], got[t][a]);
				fprintf(stderr, "\n");
			}
		}
		ck_assert_msg(eq, "%s, case %d: step counts differ from Algorithm 1",
			      hmrf_policy_name(policy), seed);
	}
	ck_assert_int_eq(same, cases);
	/* The cases reach sharing loss: H-MRF departs from LT-AF in many. */
	if (policy == HMRF_POLICY_HMRF) {
		fprintf(stderr, "hmrf differs from lt-af in %d of %d cases\n",
			loss_mattered, cases);
		ck_assert_int_gt(loss_mattered, cases / 10);
	}
}
END_TEST

/* --- one set of books: fed as the plugin feeds them and as the simulator --- */

/*
 * A generated trace: jobs of three accounts with a submit, a start and an
 * end on a grid of whole seconds (start and end 0: never started).  Both
 * feeders see every time something happens, and at each tell the books
 * what held over the interval that ends there:
 *  - the plugin's way: job by job, running ones with their start times
 *    and time limits (their durations),
 *    ended ones with their ids (the first pass after an end may meet the
 *    job again, as slurmctld's job list still holds it), waiting ones with
 *    their submit times;
 *  - the simulator's way: account by account, what it held in total
 *    (since before the last charge) and what it waited for in total with
 *    its earliest submit, starts reported as they happen, each with its
 *    task (hmrf_books_task) and the end it was started for; a job
 *    stopped sooner (about one in four) has its task ended
 *    (hmrf_books_task_end) once the pass at its end is over, as
 *    horae-sim ends a task killed at its deadline.
 * Then both rank the jobs waiting after the changes.  The ledgers and the
 * order must be the same.
 */
#define EQ_JOBS 60
#define EQ_ACCTS 3

typedef struct eq_job {
	int account;
	tres_vec_t tres;
	/* planned: the end it was started for (start + duration); end, when
	 * it ends, sooner for a job stopped (a deadline's kill) */
	double submit, start, end, duration, planned;
} eq_job_t;

static void _gen(rng_t *r, eq_job_t *jobs)
{
	for (int j = 0; j < EQ_JOBS; j++) {
		eq_job_t *x = &jobs[j];

		x->account = (int)rng_below(r, EQ_ACCTS);
		x->tres = _v(1 + (double)rng_below(r, 8),
			     1 + (double)rng_below(r, 8));
		x->submit = (double)rng_below(r, 200);
		x->duration = 1 + (double)rng_below(r, 50);
		if (rng_below(r, 4)) {
			x->start = x->submit + (double)rng_below(r, 40);
			x->end = x->planned = x->start + x->duration;
			if (x->duration > 1 && !rng_below(r, 4)) { /* stopped */
				uint64_t n = (uint64_t)x->duration - 1;

				x->end = x->start + 1 + (double)rng_below(r, n);
			}
		} else {
			x->start = x->end = x->planned = 0;
		}
	}
}

static bool _running_over(const eq_job_t *x, double t0, double t1)
{
	return x->start > 0 && x->start <= t0 && x->end >= t1;
}

static bool _waiting_over(const eq_job_t *x, double t0, double t1)
{
	return x->submit <= t0 && (x->start == 0 || x->start >= t1);
}

static hmrf_books_t *_eq_books(hmrf_policy_t policy, window_kind_t kind)
{
	hmrf_books_conf_t c = _conf(policy, kind, 120);
	hmrf_books_t *b;
	tres_vec_t R = _v(40, 40);

	c.horizon = 30; /* shorter than some jobs */
	c.timeout = 90;
	b = hmrf_books_create(&c, 0, NULL);
	ck_assert_ptr_nonnull(b);
	hmrf_books_set_capacity(b, &R);
	for (int a = 0; a < EQ_ACCTS; a++) {
		char name[8] = { (char)('a' + a), 0 };

		ck_assert_int_eq(hmrf_books_account(b, name), a);
		hmrf_books_set_weight(b, a, 1 + a, a != 1);
	}
	return b;
}

/* The plugin's way over [t0, t1] (times of the trace). */
static void _feed_jobs(hmrf_books_t *b, const eq_job_t *jobs, double t0,
		       double t1)
{
	ck_assert_int_eq(hmrf_books_begin(b, t1), 0);
	for (int j = 0; j < EQ_JOBS; j++) {
		const eq_job_t *x = &jobs[j];

		if (_running_over(x, t0, t1))
			ck_assert_int_eq(hmrf_books_running(b, x->account,
							    &x->tres, x->start,
							    x->duration),
					 0);
		else if (x->start > 0 && x->end <= t0)
			ck_assert_int_eq(hmrf_books_ended(b, (uint32_t)j + 1,
							  x->account, &x->tres,
							  x->start, x->end),
					 0);
		if (_waiting_over(x, t0, t1))
			ck_assert_int_eq(hmrf_books_waiting(b, x->account,
							    &x->tres,
							    x->submit),
					 0);
	}
	ck_assert_int_eq(hmrf_books_close(b), 0);
}

/* The simulator's way over [t0, t1]. */
static void _feed_accounts(hmrf_books_t *b, const eq_job_t *jobs, double t0,
			   double t1)
{
	tres_vec_t run[EQ_ACCTS], wait[EQ_ACCTS];
	double first[EQ_ACCTS];

	for (int a = 0; a < EQ_ACCTS; a++) {
		tres_zero(&run[a]);
		tres_zero(&wait[a]);
		first[a] = INFINITY;
	}
	for (int j = 0; j < EQ_JOBS; j++) {
		const eq_job_t *x = &jobs[j];

		if (_running_over(x, t0, t1))
			tres_add(&run[x->account], &x->tres);
		if (_waiting_over(x, t0, t1)) {
			tres_add(&wait[x->account], &x->tres);
			first[x->account] = fmin(first[x->account], x->submit);
		}
	}
	ck_assert_int_eq(hmrf_books_begin(b, t1), 0);
	for (int a = 0; a < EQ_ACCTS; a++) {
		if (!tres_is_zero(&run[a]))
			ck_assert_int_eq(hmrf_books_running(b, a, &run[a],
							    -INFINITY,
							    INFINITY),
					 0);
		if (!tres_is_zero(&wait[a]))
			ck_assert_int_eq(hmrf_books_waiting(b, a, &wait[a],
							    first[a]),
					 0);
	}
	ck_assert_int_eq(hmrf_books_close(b), 0);
}

static int _cmp_double(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return p < q ? -1 : p > q;
}

/* Every distinct time something happens, in order; returns the count. */
static int _times(const eq_job_t *jobs, double *t)
{
	int n = 0, m = 0;

	for (int j = 0; j < EQ_JOBS; j++) {
		t[n++] = jobs[j].submit;
		if (jobs[j].start > 0) {
			t[n++] = jobs[j].start;
			t[n++] = jobs[j].end;
		}
	}
	qsort(t, (size_t)n, sizeof(*t), _cmp_double);
	for (int k = 0; k < n; k++)
		if (!m || t[k] != t[m - 1])
			t[m++] = t[k];
	return m;
}

static void _assert_same_books(const hmrf_books_t *p, const hmrf_books_t *s,
			       double t)
{
	for (int a = 0; a < EQ_ACCTS; a++) {
		hmrf_account_t x, y;

		hmrf_books_get(p, a, &x);
		hmrf_books_get(s, a, &y);
		for (int i = 0; i < 2; i++) {
			ck_assert_msg(fabs(x.used.v[i] - y.used.v[i]) < 1e-6,
				      "t=%g account %d used[%d]: %g vs %g", t,
				      a, i, x.used.v[i], y.used.v[i]);
			ck_assert_msg(fabs(x.ns.v[i] - y.ns.v[i]) < 1e-6,
				      "t=%g account %d ns[%d]: %g vs %g", t, a,
				      i, x.ns.v[i], y.ns.v[i]);
			ck_assert_msg(fabs(x.running_left.v[i] -
					   y.running_left.v[i]) < 1e-6,
				      "t=%g account %d running_left[%d]: %g vs %g",
				      t, a, i, x.running_left.v[i],
				      y.running_left.v[i]);
		}
		ck_assert_double_eq(x.waiting_since, y.waiting_since);
	}
}

static const struct {
	hmrf_policy_t policy;
	window_kind_t window;
} eq_cases[] = {
	{ HMRF_POLICY_HMRF, WINDOW_NONE },
	{ HMRF_POLICY_HMRF, WINDOW_SLIDING },
	{ HMRF_POLICY_HMRF, WINDOW_TUMBLING },
	{ HMRF_POLICY_LT_DRF, WINDOW_SLIDING },
	{ HMRF_POLICY_DRF, WINDOW_NONE },
};

/* hmrf_books_rank_table over jobs[] as a table of the TRES they use
 * gives want, hmrf_books_rank's order; without books or table, -EINVAL. */
static void _assert_table_rank(const hmrf_books_t *b, const hmrf_job_t *jobs,
			       size_t n, const size_t *want)
{
	int account[EQ_JOBS];
	double amounts[EQ_JOBS * (TRES_MAX + 1)];
	size_t got[EQ_JOBS];
	hmrf_job_table_t t = { account, amounts, 0, n };

	ck_assert_uint_le(n, EQ_JOBS);
	for (size_t j = 0; j < n; j++)
		if (tres_slots(&jobs[j].tres) > t.ntres)
			t.ntres = tres_slots(&jobs[j].tres);
	for (size_t j = 0; j < n; j++) {
		double *row = amounts + j * (t.ntres + 1);

		account[j] = jobs[j].account;
		row[0] = jobs[j].duration;
		memcpy(row + 1, jobs[j].tres.v, t.ntres * sizeof(*row));
	}
	ck_assert_int_eq(hmrf_books_rank_table(b, &t, got, NULL), 0);
	for (size_t k = 0; k < n; k++)
		ck_assert_uint_eq(got[k], want[k]);
	ck_assert_int_eq(hmrf_books_rank_table(b, NULL, got, NULL), -EINVAL);
	ck_assert_int_eq(hmrf_books_rank_table(NULL, &t, got, NULL), -EINVAL);
}

START_TEST(test_plugin_and_simulator_feed_the_same_books)
{
	eq_job_t jobs[EQ_JOBS];
	double t[3 * EQ_JOBS];
	hmrf_job_t pend[EQ_JOBS];
	size_t op[EQ_JOBS], os[EQ_JOBS];
	uint64_t id[EQ_JOBS];
	int seeds = 40, ranked = 0, stopped = 0;

	for (int seed = 1; seed <= seeds; seed++) {
		rng_t rs, *r = &rs;
		hmrf_books_t *p = _eq_books(eq_cases[_i].policy,
					    eq_cases[_i].window);
		hmrf_books_t *s = _eq_books(eq_cases[_i].policy,
					    eq_cases[_i].window);
		int n;
		double prev = 0;

		rng_seed(r, gen_seed((uint64_t)seed));
		_gen(r, jobs);
		n = _times(jobs, t);
		for (int k = 0; k < n; k++) {
			size_t np = 0;

			_feed_jobs(p, jobs, prev, t[k]);
			_feed_accounts(s, jobs, prev, t[k]);
			/* The simulator reports the starts at t[k] as they
			 * happen; the plugin meets them in the next walk. */
			for (int j = 0; j < EQ_JOBS; j++) {
				if (jobs[j].start != t[k])
					continue;
				hmrf_books_started(s, jobs[j].account, t[k]);
				if (jobs[j].start <= 0) /* never started */
					continue;
				ck_assert_int_eq(
					hmrf_books_task(s, jobs[j].account,
							&jobs[j].tres, t[k],
							jobs[j].duration,
							jobs[j].planned,
							&id[j]),
					0);
			}
			_feed_jobs(p, jobs, t[k], t[k]);
			_feed_accounts(s, jobs, t[k], t[k]);
			_assert_same_books(p, s, t[k]);
			for (int j = 0; j < EQ_JOBS; j++) {
				if (!_waiting_over(&jobs[j], t[k], t[k]))
					continue;
				pend[np].account = jobs[j].account;
				pend[np].tres = jobs[j].tres;
				pend[np++].duration = jobs[j].duration;
			}
			ck_assert_int_eq(hmrf_books_rank(p, pend, np, op, NULL),
					 0);
			ck_assert_int_eq(hmrf_books_rank(s, pend, np, os, NULL),
					 0);
			for (size_t k2 = 0; k2 < np; k2++)
				ck_assert_msg(op[k2] == os[k2],
					      "seed %d t=%g: position %zu differs",
					      seed, t[k], k2);
			_assert_table_rank(p, pend, np, op);
			ranked += np > 1;
			/* Tasks that end here, stopped or not (one that has
			 * retired is no task any more: 0 all the same). */
			for (int j = 0; j < EQ_JOBS; j++) {
				if (jobs[j].start <= 0 || jobs[j].end != t[k])
					continue;
				ck_assert_int_eq(hmrf_books_task_end(s, id[j]),
						 0);
				stopped += jobs[j].end < jobs[j].planned;
			}
			prev = t[k];
		}
		hmrf_books_destroy(&p);
		hmrf_books_destroy(&s);
	}
	/* The traces exercised the ranking, not only the ledgers, and
	 * stopped jobs. */
	ck_assert_int_gt(ranked, seeds * 10);
	ck_assert_int_gt(stopped, seeds);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf_books");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, test_running_from_start_or_last_charge);
	tcase_add_test(tc, test_ended_once);
	tcase_add_loop_test(tc, test_generated_passes_charge_each_job_once, 0,
			    200);
	tcase_add_test(tc, test_get_after_close_follows_charges);
	tcase_add_test(tc, test_view_carries_window_sums);
	tcase_add_test(tc, test_running_left);
	tcase_add_test(tc, test_standing);
	tcase_add_test(tc, test_nonsharing_and_weight_sum);
	tcase_add_test(tc, test_waiting_row);
	tcase_add_test(tc, test_horizon_and_starvation_clock);
	tcase_add_test(tc, test_seed);
	suite_add_tcase(s, tc);
	tc = tcase_create("papers");
	tcase_add_test(tc, test_table1_drf);
	tcase_add_test(tc, test_table1_hmrf);
	tcase_add_loop_test(tc, test_example4, 0,
			    (int)(sizeof(example4_cases) /
				  sizeof(example4_cases[0])));
	tcase_add_test(tc, test_example4_scheduling_latency);
	tcase_add_test(tc, test_example4_ranked_drained);
	tcase_add_test(tc, test_short_window_is_memoryless);
	tcase_add_test(tc, test_table1_long_windows_remember);
	tcase_add_test(tc, test_weights_2_to_1);
	tcase_add_test(tc, test_batches_do_not_swing);
	tcase_add_test(tc, test_rank_while_drained);
	suite_add_tcase(s, tc);
	tc = tcase_create("generated");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_generated_cases_follow_the_paper, 0,
			    (int)(sizeof(gen_policies) /
				  sizeof(gen_policies[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("one_set_of_books");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_plugin_and_simulator_feed_the_same_books,
			    0, (int)(sizeof(eq_cases) / sizeof(eq_cases[0])));
	suite_add_tcase(s, tc);
	return check_run(s);
}
