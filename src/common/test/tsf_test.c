/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tsf_test.c - Check tests of tsf.c: the errno contract; monopolies and
 * rankings computed by hand; the shape of Eunomia's micro-benchmark (20
 * nodes of 4 CPUs, one account pinned to the 5 fastest), filled by
 * progressive filling in tsf_rank() order; the ranker, with repeats and
 * skips, against tsf_rank over the jobs written out.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"
#include "test_vec.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../rng.h"
#include "../tsf.h"
#include "ranker_replay.h"

/* --- errno contract ------------------------------------------------------ */

START_TEST(test_badargs)
{
	tres_vec_t d = _v(1, 1), zero = _v(0, 0),
		   cap[2] = { _v(4, 4), _v(4, 4) };
	tsf_account_t a[2] = { { 1, 0, 10 }, { 1, 0, 10 } };
	tsf_job_t j = { .account = 0, .tasks = 1, .duration = 1 };
	size_t order[1] = { 99 };
	horae_err_t err;
	double out = 7;

	ck_assert_int_eq(tsf_monopoly_tasks(NULL, cap, NULL, 2, &out), -EINVAL);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, NULL, NULL, 2, &out), -EINVAL);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, NULL, 2, NULL), -EINVAL);
	ck_assert_int_eq(tsf_monopoly_tasks(&zero, cap, NULL, 2, &out),
			 -EINVAL);
	d.v[1] = -1;
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, NULL, 2, &out), -EINVAL);
	d.v[1] = 1;
	cap[1].v[0] = NAN;
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, NULL, 2, &out), -EINVAL);
	ck_assert_double_eq(out, 7); /* untouched on failure */
	ck_assert_int_eq(tsf_monopoly_tasks(&d, NULL, NULL, 0, &out), 0);
	ck_assert_double_eq(out, 0);

	ck_assert_int_eq(tsf_rank(NULL, 2, &j, 1, order, &err), -EINVAL);
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, NULL, &err), -EINVAL);
	ck_assert_int_eq(tsf_rank(a, -1, &j, 1, order, &err), -EINVAL);
	a[1].weight = 0;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "account 1 has weight 0 and monopoly 10"));
	a[1].weight = 1;
	a[0].monopoly = 0;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "account 0 has weight 1 and monopoly 0"));
	a[0].monopoly = 10;
	a[0].running = -1;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "account 0 runs -1 tasks"));
	a[0].running = 0;
	j.account = 2;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "job 0 names account 2 of 2"));
	j.account = -1;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	j.account = 0;
	j.tasks = -1;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "job 0 stands for -1 tasks"));
	j.tasks = 1;
	j.duration = INFINITY;
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "job 0 has duration inf"));
	ck_assert_uint_eq(order[0], 99); /* untouched on failure */
	j.duration = 1;
	ck_assert_int_eq(tsf_rank(a, 2, NULL, 0, NULL, &err), 0);
	ck_assert_int_eq(tsf_rank(NULL, 0, NULL, 0, NULL, NULL), 0);
	ck_assert_int_eq(tsf_rank(a, 2, &j, 1, order, &err), 0);
	ck_assert_uint_eq(order[0], 0);

	ck_assert_double_eq(tsf_share(NULL), 0);
	a[0].running = 5;
	a[0].monopoly = 0;
	ck_assert_double_eq(tsf_share(&a[0]), 0);
	a[0].monopoly = 10;
	a[0].weight = -1;
	ck_assert_double_eq(tsf_share(&a[0]), 0);
}
END_TEST

/* --- monopolies ----------------------------------------------------------- */

START_TEST(test_monopoly)
{
	/* Task <1 CPU, 2 GB>: min(4/1, 4/2) = 2, min(3, 10/2) = 3,
	 * min(0.5/1, 100/2) = 0 (no whole task), min(9, 4) = 4. */
	tres_vec_t d = _v(1, 2),
		   cap[4] = { _v(4, 4), _v(3, 10), _v(0.5, 100), _v(9, 8) };
	bool elig[4] = { true, false, true, true };
	double m;

	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, NULL, 4, &m), 0);
	ck_assert_double_eq(m, 9);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, elig, 4, &m), 0);
	ck_assert_double_eq(m, 6);
	/* A slot the task does not demand never limits it. */
	d = _v(2, 0);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, NULL, 4, &m), 0);
	ck_assert_double_eq(m, 2 + 1 + 0 + 4);
	/* Nor does a slot the node lacks but the task does not want. */
	cap[0] = _v(4, 0);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, elig, 1, &m), 0);
	ck_assert_double_eq(m, 2);
	/* A node without a demanded slot holds none. */
	d = _v(1, 1);
	ck_assert_int_eq(tsf_monopoly_tasks(&d, cap, elig, 1, &m), 0);
	ck_assert_double_eq(m, 0);
}
END_TEST

/* --- ranking by hand ----------------------------------------------------- */

static void _rank_eq(const tsf_account_t *a, int nacct, const tsf_job_t *j,
		     size_t n, const size_t *want)
{
	size_t order[16];
	horae_err_t err;

	ck_assert_uint_le(n, 16);
	ck_assert_int_eq(tsf_rank(a, nacct, j, n, order, &err), 0);
	for (size_t k = 0; k < n; k++)
		ck_assert_msg(order[k] == want[k],
			      "rank %zu: job %zu, want %zu", k, order[k],
			      want[k]);
}

START_TEST(test_rank_hand)
{
	/* Jobs in submission order: accounts 1 0 1 0 0 1. */
	tsf_job_t j[6] = { { 1, 1, 10 }, { 0, 1, 10 }, { 1, 1, 10 },
			   { 0, 1, 10 }, { 0, 1, 10 }, { 1, 1, 10 } };
	tsf_account_t a[2] = { { 1, 0, 10 }, { 1, 0, 5 } };

	/* Shares per task 1/10 and 1/5: 0,0 -> a0 (tie, lower index) .1;
	 * a1 .2; a0 .2; tie -> a0 .3; a1 .4; a0 is done; a1. */
	_rank_eq(a, 2, j, 6, (size_t[]){ 1, 0, 3, 4, 2, 5 });
	/* Weight 2 for a1 makes both 1/10 a task: they alternate. */
	a[1].weight = 2;
	_rank_eq(a, 2, j, 6, (size_t[]){ 1, 0, 3, 2, 4, 5 });
	/* a0 already runs 5 tasks (share .5): a1 catches up first, to .2,
	 * .4, then .6 (its last job), before a0 gets any. */
	a[0].running = 5;
	a[1].weight = 1;
	_rank_eq(a, 2, j, 6, (size_t[]){ 0, 2, 5, 1, 3, 4 });
	/* An entry for 3 tasks charges 3: a0 at .3 after its first job,
	 * so a1 gets two (.2, .4) before a0's next (.4), and a0 wins the
	 * tie at .4. */
	a[0].running = 0;
	j[1].tasks = 3;
	_rank_eq(a, 2, j, 6, (size_t[]){ 1, 0, 2, 3, 4, 5 });
	ck_assert_double_eq_tol(tsf_share(&a[1]), 0, 1e-12);
	a[1].running = 3;
	ck_assert_double_eq_tol(tsf_share(&a[1]), 0.6, 1e-12);
}
END_TEST

/* --- the micro-benchmark shape -------------------------------------------- */

/*
 * Eunomia's micro-benchmark: 20 nodes of 4 CPUs / 4 GB, five of each
 * speed 1.0, 1.5, 2.0, 3.0 (nodes 0-4 slowest ... 15-19 fastest); four
 * accounts of one-CPU tasks, account 3 (the paper's job 4) constrained to
 * the 5 fastest nodes.  Monopolies: 80 tasks for accounts 0-2, 20 for
 * account 3, so each of account 3's tasks is worth 4 of the others'.
 *
 * Equal task shares s over the 80 CPUs: 3 x 80 s + 20 s = 80, s = 4/13:
 * 24.6 tasks for each of accounts 0-2 and 6.15 for account 3.  In whole
 * tasks, by progressive filling with ties to the lower index, that is
 * 25, 25, 24 and 6.
 */
#define NODES 20
#define JOBS 100 /* per account, more than any monopoly */

START_TEST(test_eunomia_shape)
{
	tres_vec_t cap[NODES], task = _v(1, 1024), idle[NODES];
	bool fast[NODES];
	tsf_account_t a[4];
	tsf_job_t jobs[4 * JOBS];
	size_t order[4 * JOBS];
	double running[4] = { 0 }, got[4] = { 0 };
	const int cycle[13] = { 0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 0, 1, 2 };
	int placed = 0;

	for (int i = 0; i < NODES; i++) {
		cap[i] = _v(4, 4096);
		idle[i] = cap[i];
		fast[i] = i >= 15;
	}
	for (int n = 0; n < 4; n++) {
		a[n].weight = 1;
		a[n].running = 0;
		ck_assert_int_eq(tsf_monopoly_tasks(&task, cap,
						    n == 3 ? fast : NULL, NODES,
						    &a[n].monopoly),
				 0);
	}
	ck_assert_double_eq(a[0].monopoly, 80);
	ck_assert_double_eq(a[3].monopoly, 20);
	/* Submitted account by account: a0's 100, then a1's, ... */
	for (int k = 0; k < 4 * JOBS; k++)
		jobs[k] = (tsf_job_t){ k / JOBS, 1, 2 };
	ck_assert_int_eq(tsf_rank(a, 4, jobs, 4 * JOBS, order, NULL), 0);

	/* All at 0: a0..a3 in index order; then a0-a2 need 3 more tasks
	 * each (to 4/80) to reach a3's 1/20, where all tie again. */
	for (int k = 0; k < 26; k++)
		ck_assert_msg(jobs[order[k]].account == cycle[k % 13],
			      "rank %d: account %d, want %d", k,
			      jobs[order[k]].account, cycle[k % 13]);

	/* After every prefix, while every account still has jobs, no share
	 * is more than one task above any other: removing an account's last
	 * task puts it at or below every other share. */
	for (int k = 0; k < 4 * JOBS; k++) {
		int n = jobs[order[k]].account;
		double lo = INFINITY, hi = -INFINITY;

		running[n]++;
		if (running[0] >= JOBS || running[1] >= JOBS ||
		    running[2] >= JOBS || running[3] >= JOBS)
			break;
		for (int m = 0; m < 4; m++) {
			lo = fmin(lo, running[m] / a[m].monopoly);
			hi = fmax(hi, (running[m] - 1) / a[m].monopoly);
		}
		ck_assert_msg(hi <= lo + 1e-12, "after %d picks: %g > %g",
			      k + 1, hi, lo);
	}

	/* Progressive filling of the 80 CPUs in rank order: each task to the
	 * slowest eligible node with a free CPU, a task that fits nowhere is
	 * skipped. */
	for (int k = 0; k < 4 * JOBS && placed < 4 * NODES; k++) {
		int n = jobs[order[k]].account;

		for (int i = 0; i < NODES; i++) {
			if ((n == 3 && !fast[i]) || !tres_fits(&task, &idle[i]))
				continue;
			tres_sub(&idle[i], &task);
			got[n]++;
			placed++;
			break;
		}
	}
	ck_assert_int_eq(placed, 80);
	ck_assert_msg(got[0] == 25 && got[1] == 25 && got[2] == 24 &&
			      got[3] == 6,
		      "got %g %g %g %g", got[0], got[1], got[2], got[3]);
	/* Task shares .3125 .3125 .3 .3 around 4/13 = .308. */
	for (int n = 0; n < 4; n++) {
		a[n].running = got[n];
		ck_assert(fabs(tsf_share(&a[n]) - 4.0 / 13) <
			  1 / a[n].monopoly);
	}
}
END_TEST

static int _next(void *r, size_t *job)
{
	return tsf_ranker_next(r, job);
}

static int _skip(void *r, size_t job)
{
	return tsf_ranker_skip(r, job);
}

/*
 * Generated: the ranker gives job j count[j] times in a row, in tsf_rank's
 * order over the jobs written out; and when job j dies at its die[j]-th
 * time given and is skipped, the jobs given while alive keep that order.
 */
START_TEST(test_ranker)
{
	enum { NA = 6, NJ = 30, MAXC = 7 };
	rng_t g;
	horae_err_t err;
	size_t zero = 0, k;

	rng_seed(&g, gen_seed(99));
	for (int c = 0; c < 100; c++) {
		tsf_account_t a[NA];
		tsf_job_t jobs[NJ], wide[NJ * MAXC];
		size_t count[NJ], die[NJ], seen[NJ], from[NJ * MAXC];
		size_t order[NJ * MAXC], want[NJ * MAXC];
		size_t nw = 0, nwant = 0, n = 0;
		tsf_ranker_t *r;

		for (int i = 0; i < NA; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 3);
			a[i].running = (double)rng_below(&g, 20);
			a[i].monopoly = 10 + (double)rng_below(&g, 50);
		}
		for (int j = 0; j < NJ; j++) {
			jobs[j].account = (int)rng_below(&g, NA);
			jobs[j].tasks = 1 + (double)rng_below(&g, 3);
			jobs[j].duration = 1 + (double)rng_below(&g, 100);
			count[j] = 1 + rng_below(&g, MAXC);
			die[j] = 1 + rng_below(&g, count[j] + 2);
			for (size_t t = 0; t < count[j]; t++) {
				wide[nw] = jobs[j];
				from[nw++] = (size_t)j;
			}
		}
		ck_assert_int_eq(tsf_rank(a, NA, wide, nw, order, &err), 0);
		r = tsf_ranker_create(a, NA, jobs, count, NJ, &err);
		ck_assert_ptr_nonnull(r);
		for (; !tsf_ranker_next(r, &k); n++) {
			ck_assert_uint_lt(n, nw);
			ck_assert_uint_eq(k, from[order[n]]);
		}
		ck_assert_uint_eq(n, nw);
		tsf_ranker_destroy(&r);
		ck_assert_ptr_null(r);
		/* With deaths: without skip, then with. */
		memset(seen, 0, sizeof(seen));
		for (n = 0; n < nw; n++)
			if (++seen[from[order[n]]] <= die[from[order[n]]])
				want[nwant++] = from[order[n]];
		r = tsf_ranker_create(a, NA, jobs, count, NJ, &err);
		ck_assert_ptr_nonnull(r);
		replay_with_skip(r, _next, _skip, die, seen, NJ, want, nwant);
		tsf_ranker_destroy(&r);
	}
	/* Bad input: an account's monopoly, a job given 0 times. */
	{
		tsf_account_t a = { .weight = 1, .monopoly = 0 };
		tsf_job_t j = { .account = 0, .tasks = 1, .duration = 1 };

		ck_assert_ptr_null(tsf_ranker_create(&a, 1, &j, NULL, 1, &err));
		ck_assert_int_eq(errno, EINVAL);
		a.monopoly = 4;
		ck_assert_ptr_null(
			tsf_ranker_create(&a, 1, &j, &zero, 1, &err));
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(tsf_ranker_next(NULL, &k), -EINVAL);
		ck_assert_int_eq(tsf_ranker_skip(NULL, 0), -EINVAL);
		tsf_ranker_destroy(NULL);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tsf");
	TCase *tc = tcase_create("tsf");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_monopoly);
	tcase_add_test(tc, test_rank_hand);
	tcase_add_test(tc, test_eunomia_shape);
	tcase_add_test(tc, test_ranker);
	suite_add_tcase(s, tc);
	return check_run(s);
}
