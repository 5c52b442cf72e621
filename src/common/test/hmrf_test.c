/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_test.c - Check tests of hmrf.c: the errno contract; shares, the
 * non-sharing allocation and beta on hand-computed cases; the starvation
 * timeout; the borrow limit; beta with the step being decided; the
 * ranker, one job at a time with repeats, against hmrf_rank over the
 * jobs written out.  The papers' examples run through the books:
 * hmrf_books_test.c.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"
#include "test_vec.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../hmrf.h"
#include "../ledger.h"
#include "../rng.h"
#include "ranker_replay.h"

/* --- errno contract ------------------------------------------------------ */

START_TEST(test_badargs)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t j = { .account = 0, .duration = 1 };
	size_t order[1] = { 99 };
	horae_err_t err;
	hmrf_policy_t pol = HMRF_POLICY_AF;

	p.capacity = _v(10, 10);
	ck_assert_int_eq(hmrf_rank(NULL, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, NULL, &err), -EINVAL);
	a[1].weight = 0;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "account 1 has weight 0"));
	a[1].weight = 1;
	j.account = 2;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "job 0 names account 2 of 2"));
	j.account = 0;
	j.duration = INFINITY; /* unknown: the horizon, if there is one */
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), 0);
	p.horizon = INFINITY;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "finite without a horizon"));
	j.duration = -1;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	j.duration = 1;
	order[0] = 99;
	p.horizon = -1;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert_uint_eq(order[0], 99); /* untouched on failure */
	p.horizon = 1;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, NULL, 0, NULL, &err), 0);
	/* A bad job after good ones: nothing ranked, nothing written (the
	 * jobs are checked as the ranker groups them). */
	{
		hmrf_job_t three[3] = { j, j, j };
		size_t ord[3] = { 99, 99, 99 }, one[3] = { 1, 1, 0 };

		three[2].account = 5;
		ck_assert_int_eq(hmrf_rank(&p, a, 2, three, 3, ord, &err),
				 -EINVAL);
		ck_assert(strstr(err.text, "job 2 names account 5 of 2"));
		for (int k = 0; k < 3; k++)
			ck_assert_uint_eq(ord[k], 99);
		three[2].account = 1;
		errno = 0;
		ck_assert_ptr_null(hmrf_ranker_create(&p, a, 2, three, one, 3,
						      &err));
		ck_assert_int_eq(errno, EINVAL);
		ck_assert(strstr(err.text, "job 2 is given 0 times"));
	}

	ck_assert_int_eq(hmrf_policy_parse("wfq", &pol, &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown policy 'wfq' (use hmrf, drf"));
	ck_assert_int_eq(pol, HMRF_POLICY_AF);
	ck_assert_int_eq(hmrf_policy_parse(NULL, &pol, &err), -EINVAL);
}
END_TEST

START_TEST(test_policy_names)
{
	const char *names[] = { "hmrf", "drf", "af", "lt-drf", "lt-af" };
	hmrf_policy_t p;

	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(hmrf_policy_parse(names[i], &p, NULL), 0);
		ck_assert_int_eq(p, i);
		ck_assert_str_eq(hmrf_policy_name(p), names[i]);
	}
	ck_assert_str_eq(hmrf_policy_name((hmrf_policy_t)42), "unknown");
}
END_TEST

/* --- shares, non-sharing allocation, beta -------------------------------- */

START_TEST(test_shares)
{
	tres_vec_t R = _v(100, 100), S, d, ns;

	hmrf_fair_share(&R, 2, 3, &S);
	ck_assert_double_eq_tol(S.v[0], 200.0 / 3, 1e-12);
	ck_assert_double_eq_tol(S.v[1], 200.0 / 3, 1e-12);

	/* Example 3 at t1: A's 30 tasks of <1, 4> fit <50, 50> as 12.5. */
	S = _v(50, 50);
	d = _v(30, 120);
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert_double_eq_tol(ns.v[0], 12.5, 1e-12);
	ck_assert_double_eq_tol(ns.v[1], 50, 1e-12);
	/* B's 4 tasks of <4, 1> fit whole. */
	d = _v(16, 4);
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert_double_eq(ns.v[0], 16);
	ck_assert_double_eq(ns.v[1], 4);
	/* A demand for a TRES the share lacks cannot run without sharing. */
	d = _v(1, 1);
	d.v[3] = 1;
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert(tres_is_zero(&ns));
}
END_TEST

START_TEST(test_beta)
{
	tres_vec_t used, ns;

	/* A after t1 of Example 3: used <24, 96>, ns <12.5, 50>. */
	used = _v(24, 96);
	ns = _v(12.5, 50);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 1.92, 1e-12);
	/* The smallest TRES decides: min(20/25, 90/100) = 0.8. */
	used = _v(20, 90);
	ns = _v(25, 100);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 0.8, 1e-12);
	/* TRES without non-sharing demand do not count. */
	used = _v(0, 30);
	ns = _v(0, 20);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 1.5, 1e-12);
	/* No demand yet: no loss. */
	tres_zero(&ns);
	ck_assert(isinf(hmrf_beta(&used, &ns)));
	/* Demand but nothing used: total loss. */
	tres_zero(&used);
	ns = _v(1, 1);
	ck_assert_double_eq(hmrf_beta(&used, &ns), 0);
}
END_TEST

START_TEST(test_aggregate_dominant)
{
	tres_vec_t R = _v(100, 50), u = _v(20, 20);

	ck_assert_double_eq_tol(hmrf_aggregate(&u, &R, 2), (0.2 + 0.4) / 2,
				1e-12);
	ck_assert_double_eq_tol(hmrf_dominant(&u, &R, 2), 0.2, 1e-12);
}
END_TEST

/* --- beta with the step being decided -------------------------------------- */

/*
 * Example 4 at t2 (hmrf_books_test.c runs the whole example): A has used
 * <15, 30> against a non-sharing <15, 30> and is entitled to <25, 50> in
 * this step; B <70, 70> against <50, 50>, entitled to <40, 40>.  Counting
 * the step, both are in loss until A has 25 more tasks and B 20, so the
 * first 45 jobs ranked are 25 of A's and 20 of B's; without the step's
 * entitlement neither is in loss (A 15/15, B 70/50) and A, far behind in
 * aggregate (0.45 vs 1.4), takes the first 32 alone (0.45 + 32 x 0.03 >
 * 1.4), then they go by aggregate and dominant share: B gets 8 of the 45
 * (worked out with exact fractions outside this code).
 */
START_TEST(test_step_beta)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t acct[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t jobs[100];
	size_t order[100];
	int first[2] = { 0, 0 };

	p.capacity = _v(100, 100);
	acct[0].used = acct[0].ns = _v(15, 30);
	acct[0].ns_rate = _v(25, 50);
	acct[1].used = _v(70, 70);
	acct[1].ns = _v(50, 50);
	acct[1].ns_rate = _v(40, 40);
	acct[0].waiting = _v(60, 120); /* the jobs below */
	acct[1].waiting = _v(40, 40);
	for (int k = 0; k < 100; k++) {
		jobs[k].account = k < 60 ? 0 : 1;
		jobs[k].tres = k < 60 ? _v(1, 2) : _v(1, 1);
		jobs[k].duration = 1;
	}
	ck_assert_int_eq(hmrf_rank(&p, acct, 2, jobs, 100, order, NULL), 0);
	for (int k = 0; k < 45; k++)
		first[jobs[order[k]].account]++;
	ck_assert_int_eq(first[0], 25);
	ck_assert_int_eq(first[1], 20);
	tres_zero(&acct[0].ns_rate);
	tres_zero(&acct[1].ns_rate);
	first[0] = first[1] = 0;
	ck_assert_int_eq(hmrf_rank(&p, acct, 2, jobs, 100, order, NULL), 0);
	for (int k = 0; k < 45; k++)
		first[jobs[order[k]].account]++;
	ck_assert_int_eq(first[1], 8);
}
END_TEST

/*
 * Generated pairs of accounts, one job each, against beta over the step
 * as hmrf.h states it, written out here on its own: usage + r over ns +
 * min(ns_rate x d, r + waiting x d), r = min(running x d, running_left),
 * the smallest ratio over the TRES with a positive denominator.  Where
 * one account is in loss and the other is not, or both are and their
 * betas differ by more than rounding, the lower beta goes first.
 */
static double _model_beta(const hmrf_account_t *x, double d)
{
	double beta = INFINITY;

	for (int i = 0; i < 2; i++) {
		double r = fmin(x->running.v[i] * d, x->running_left.v[i]);
		double den = x->ns.v[i] + fmin(x->ns_rate.v[i] * d,
					       r + x->waiting.v[i] * d);

		if (den > 0)
			beta = fmin(beta, (x->used.v[i] + r) / den);
	}
	return beta;
}

START_TEST(test_step_beta_generated)
{
	rng_t g;
	int judged = 0, capped = 0;

	rng_seed(&g, gen_seed(77));
	for (int c = 0; c < 4000; c++) {
		hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .now = 100 };
		hmrf_account_t a[2];
		hmrf_job_t jobs[2];
		size_t order[2];
		double d = 1 + (double)rng_below(&g, 60), b[2];

		p.horizon = rng_below(&g, 2) ? d : 60;
		p.capacity = _v(64, 256);
		memset(a, 0, sizeof(a));
		for (int i = 0; i < 2; i++) {
			double run = (double)rng_below(&g, 16);

			a[i].weight = 1 + (double)rng_below(&g, 3);
			a[i].used = _v(rng_uniform(&g) * 2000,
				       rng_uniform(&g) * 8000);
			a[i].ns = _v(rng_uniform(&g) * 2000,
				     rng_uniform(&g) * 8000);
			a[i].running = _v(run, 4 * run);
			a[i].running_left = _v(run * d * rng_uniform(&g),
					       4 * run * d * rng_uniform(&g));
			a[i].waiting = _v((double)rng_below(&g, 40),
					  (double)rng_below(&g, 160));
			a[i].ns_rate = _v(fmin(32, run + a[i].waiting.v[0]),
					  fmin(128, 4 * run +
							    a[i].waiting.v[1]));
			jobs[i].account = i;
			jobs[i].tres = _v(1, 4);
			jobs[i].duration = d;
			b[i] = _model_beta(&a[i], d);
			capped += a[i].running_left.v[0] < run * d;
		}
		ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
		if (!(fmin(b[0], b[1]) < 1 - 1e-6) ||
		    fabs(b[0] - b[1]) < 1e-6 * fmax(b[0], b[1]))
			continue;
		judged++;
		ck_assert_msg(order[0] == (b[0] < b[1] ? 0u : 1u),
			      "case %d: betas %.9g and %.9g, account %zu first",
			      c, b[0], b[1], order[0]);
	}
	ck_assert_int_gt(judged, 1000);
	ck_assert_int_gt(capped, 1000);
}
END_TEST

/* --- the starvation timeout and the borrow limit ------------------------- */

START_TEST(test_timeout_guard)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_LT_AF, .now = 10000,
			    .horizon = 100, .timeout = 600 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t jobs[4];
	size_t order[4];

	p.capacity = _v(10, 10);
	a[0].used = _v(1e6, 1e6); /* A used far more: normally last */
	for (int i = 0; i < 4; i++) {
		jobs[i].account = i < 2 ? 0 : 1;
		jobs[i].tres = _v(1, 1);
		jobs[i].duration = 100;
	}
	/* Waiting, but not yet for the timeout: B's jobs first. */
	a[0].waiting_since = p.now - 599;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 2);
	ck_assert_uint_eq(order[1], 3);
	/* Past it, one of A's jobs jumps to the front, then order resumes. */
	a[0].waiting_since = p.now - 600;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 3);
	ck_assert_uint_eq(order[3], 1);
	/* Timeout 0 turns the guard off. */
	p.timeout = 0;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 2);
}
END_TEST

START_TEST(test_borrow_limit)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_DRF, .now = 1000,
			    .horizon = 10, .elapsed = 1000 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t jobs[2] = { { .account = 0, .duration = 10 },
			       { .account = 1, .duration = 10 } };
	size_t order[2];

	p.capacity = _v(10, 10);
	jobs[0].tres = jobs[1].tres = _v(1, 1);
	/* A runs nothing now but used the whole cluster all window long;
	 * B runs something.  Memoryless DRF prefers A. */
	a[0].used = _v(10 * 1000, 10 * 1000);
	a[1].running = _v(2, 2);
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
	/* Fair aggregate is 2 x 1000 / 2 = 1000; A has 2000: 100% above. */
	p.borrow_limit = 0.5;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 1);
	p.borrow_limit = 1.5;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
}
END_TEST

/*
 * An account in sharing loss goes first under H-MRF even with the larger
 * aggregate; LT-AF looks only at the aggregate.
 */
START_TEST(test_sharing_loss_first)
{
	hmrf_params_t p = { .horizon = 1 };
	hmrf_account_t a[3] = { { .weight = 1 }, { .weight = 1 },
				{ .weight = 1 } };
	hmrf_job_t jobs[3] = { { .account = 0, .duration = 1 },
			       { .account = 1, .duration = 1 },
			       { .account = 2, .duration = 1 } };
	size_t order[3];

	p.capacity = _v(100, 100);
	for (int i = 0; i < 3; i++)
		jobs[i].tres = _v(1, 1);
	a[0].used = _v(10, 10); /* beta 0.1: loss */
	a[0].ns = _v(100, 100);
	a[1].used = _v(5, 5); /* beta 5: benefit, smallest aggregate */
	a[1].ns = _v(1, 1);
	a[2].used = _v(40, 40); /* beta 0.5: loss, larger aggregate */
	a[2].ns = _v(80, 80);
	p.policy = HMRF_POLICY_HMRF;
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 3, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0); /* lowest beta first */
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 1);
	p.policy = HMRF_POLICY_LT_AF;
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 3, order, NULL), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 0);
	ck_assert_uint_eq(order[2], 2);
}
END_TEST

/* An account's jobs keep their relative order. */
START_TEST(test_order_within_account)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t a[3] = { { .weight = 1 }, { .weight = 1 },
				{ .weight = 1 } };
	hmrf_job_t jobs[9];
	size_t order[9];
	int last[3] = { -1, -1, -1 };

	p.capacity = _v(10, 10);
	for (int i = 0; i < 9; i++) {
		jobs[i].account = (i * 7) % 3;
		jobs[i].tres = _v(1 + i % 2, 1);
		jobs[i].duration = 1;
	}
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 9, order, NULL), 0);
	for (int k = 0; k < 9; k++) {
		int acc = jobs[order[k]].account;

		ck_assert_int_gt((int)order[k], last[acc]);
		last[acc] = (int)order[k];
	}
}
END_TEST

/* --- the ranker ------------------------------------------------------- */

START_TEST(test_ranker_badargs)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t a[1] = { { .weight = 1 } };
	hmrf_job_t j[2] = { { .account = 0, .duration = 1 },
			    { .account = 0, .duration = 1 } };
	size_t count[2] = { 2, 0 }, k;
	hmrf_ranker_t *r;
	horae_err_t err;

	p.capacity = _v(1, 1);
	errno = 0;
	ck_assert_ptr_null(hmrf_ranker_create(&p, a, 1, j, count, 2, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "job 1 is given 0 times"));
	j[1].account = 3;
	count[1] = 1;
	ck_assert_ptr_null(hmrf_ranker_create(&p, a, 1, j, count, 2, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(hmrf_ranker_next(NULL, &k), -EINVAL);
	/* No jobs: nothing to give. */
	r = hmrf_ranker_create(&p, a, 1, NULL, NULL, 0, &err);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(hmrf_ranker_next(r, &k), -ENOENT);
	ck_assert_int_eq(hmrf_ranker_next(r, NULL), -EINVAL);
	hmrf_ranker_destroy(&r);
	ck_assert_ptr_null(r);
	hmrf_ranker_destroy(&r);
	hmrf_ranker_destroy(NULL);
}
END_TEST

/*
 * Generated queues, every policy, with starving accounts and a borrow
 * limit: the ranker with count[j] repeats gives the sequence hmrf_rank
 * gives over the same jobs each written count[j] times in a row; without
 * count, hmrf_rank's.  The accounts and jobs may be freed and changed
 * after creation except jobs[] (the copies are the ranker's).  A ranker
 * stopped half-way is destroyed without leaks (valgrind in t0500).
 */
START_TEST(test_ranker_repeats)
{
	enum { NA = 7, NJ = 40, MAXC = 5 };
	rng_t g;

	rng_seed(&g, gen_seed(22 + (uint64_t)_i));
	for (int c = 0; c < 50; c++) {
		hmrf_params_t p = { .policy = (hmrf_policy_t)(c % 5) };
		hmrf_account_t *a = calloc(NA, sizeof(*a));
		hmrf_job_t jobs[NJ], wide[NJ * MAXC];
		size_t count[NJ], from[NJ * MAXC], order[NJ * MAXC], nw = 0;
		size_t k, n = 0;
		hmrf_ranker_t *r, *plain;

		ck_assert_ptr_nonnull(a);
		p.capacity = _v(64, 256);
		p.now = 1000;
		p.horizon = c % 3 ? 600 : 60;
		p.timeout = c % 4 ? 0 : 300;
		p.elapsed = 800;
		p.borrow_limit = c % 5 == 4 ? 0.2 : 0;
		for (int i = 0; i < NA; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 4);
			a[i].used = _v(rng_uniform(&g) * 2e4,
				       rng_uniform(&g) * 8e4);
			a[i].ns = _v(rng_uniform(&g) * 2e4,
				     rng_uniform(&g) * 8e4);
			a[i].running = _v((double)rng_below(&g, 16), 0);
			a[i].running_left =
				_v(a[i].running.v[0] * 600 * rng_uniform(&g), 0);
			a[i].waiting = _v((double)rng_below(&g, 40), 80);
			a[i].ns_rate = _v((double)rng_below(&g, 20), 40);
			a[i].waiting_since = 0;
			if (!rng_below(&g, 3))
				a[i].waiting_since =
					1 + (double)rng_below(&g, 900);
		}
		for (int j = 0; j < NJ; j++) {
			jobs[j].account = (int)rng_below(&g, NA);
			jobs[j].tres = _v(1 + (double)rng_below(&g, 8),
					  (double)rng_below(&g, 32));
			jobs[j].duration = 10 + (double)rng_below(&g, 900);
			count[j] = 1 + rng_below(&g, MAXC);
			for (size_t t = 0; t < count[j]; t++) {
				wide[nw] = jobs[j];
				from[nw++] = (size_t)j;
			}
		}
		ck_assert_int_eq(hmrf_rank(&p, a, NA, wide, nw, order, NULL),
				 0);
		r = hmrf_ranker_create(&p, a, NA, jobs, count, NJ, NULL);
		plain = hmrf_ranker_create(&p, a, NA, wide, NULL, nw, NULL);
		ck_assert_ptr_nonnull(r);
		ck_assert_ptr_nonnull(plain);
		memset(a, 0xff, NA * sizeof(*a));
		free(a);
		p.policy = (hmrf_policy_t)99;
		for (; !hmrf_ranker_next(r, &k); n++) {
			size_t w;

			ck_assert_uint_lt(n, nw);
			ck_assert_uint_eq(k, from[order[n]]);
			ck_assert_int_eq(hmrf_ranker_next(plain, &w), 0);
			ck_assert_uint_eq(w, order[n]);
		}
		ck_assert_uint_eq(n, nw);
		ck_assert_int_eq(hmrf_ranker_next(r, &k), -ENOENT);
		ck_assert_int_eq(hmrf_ranker_next(plain, &k), -ENOENT);
		hmrf_ranker_destroy(&r);
		hmrf_ranker_destroy(&plain);
		/* Stopped after one. */
		p.policy = (hmrf_policy_t)(c % 5);
		a = calloc(NA, sizeof(*a));
		ck_assert_ptr_nonnull(a);
		for (int i = 0; i < NA; i++)
			a[i].weight = 1;
		r = hmrf_ranker_create(&p, a, NA, jobs, count, NJ, NULL);
		free(a);
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(hmrf_ranker_next(r, &k), 0);
		hmrf_ranker_destroy(&r);
	}
}
END_TEST

static int _next(void *r, size_t *job)
{
	return hmrf_ranker_next(r, job);
}

static int _skip(void *r, size_t job)
{
	return hmrf_ranker_skip(r, job);
}

/*
 * hmrf_ranker_skip on generated queues of every policy: job j dies at its
 * die[j]-th time given (the caller could not start it).  Without skip, the
 * caller would ignore its later repeats; with skip, it says so and
 * ignores the one repeat still given.  What the caller uses (every job
 * given while alive) comes in the same order either way, and with skip
 * each dead job comes at most once more.
 */
START_TEST(test_ranker_skip)
{
	enum { NA = 5, NJ = 30, MAXC = 9 };
	rng_t g;

	rng_seed(&g, gen_seed(77 + (uint64_t)_i));
	for (int c = 0; c < 50; c++) {
		hmrf_params_t p = { .policy = (hmrf_policy_t)(c % 5) };
		hmrf_account_t a[NA];
		hmrf_job_t jobs[NJ];
		size_t count[NJ], die[NJ], seen[NJ], k;
		size_t want[NJ * MAXC], nwant = 0;
		hmrf_ranker_t *r;

		memset(a, 0, sizeof(a));
		p.capacity = _v(32, 128);
		p.now = 500;
		p.horizon = 300;
		p.timeout = c % 2 ? 100 : 0;
		p.elapsed = 400;
		p.borrow_limit = c % 3 ? 0 : 0.5;
		for (int i = 0; i < NA; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 3);
			a[i].used = _v(rng_uniform(&g) * 4e3,
				       rng_uniform(&g) * 1e4);
			a[i].ns = _v(rng_uniform(&g) * 4e3,
				     rng_uniform(&g) * 1e4);
			a[i].ns_rate = _v((double)rng_below(&g, 10), 20);
			if (!rng_below(&g, 3))
				a[i].waiting_since =
					1 + (double)rng_below(&g, 450);
		}
		for (int j = 0; j < NJ; j++) {
			jobs[j].account = (int)rng_below(&g, NA);
			jobs[j].tres = _v(1 + (double)rng_below(&g, 6),
					  (double)rng_below(&g, 16));
			jobs[j].duration = 5 + (double)rng_below(&g, 600);
			count[j] = 1 + rng_below(&g, MAXC);
			/* Past count: it never dies. */
			die[j] = 1 + rng_below(&g, count[j] + 2);
		}
		/* Without skip: the jobs given while alive. */
		memset(seen, 0, sizeof(seen));
		r = hmrf_ranker_create(&p, a, NA, jobs, count, NJ, NULL);
		ck_assert_ptr_nonnull(r);
		while (!hmrf_ranker_next(r, &k))
			if (++seen[k] <= die[k])
				want[nwant++] = k;
		hmrf_ranker_destroy(&r);
		/* With skip. */
		r = hmrf_ranker_create(&p, a, NA, jobs, count, NJ, NULL);
		ck_assert_ptr_nonnull(r);
		replay_with_skip(r, _next, _skip, die, seen, NJ, want, nwant);
		ck_assert_int_eq(hmrf_ranker_skip(r, 0), -EINVAL);
		ck_assert_int_eq(hmrf_ranker_skip(NULL, 0), -EINVAL);
		hmrf_ranker_destroy(&r);
	}
}
END_TEST

/*
 * hmrf_rank_table gives hmrf_rank's order over the same jobs, on
 * generated cases: every policy, starvation, borrow limits, durations
 * past the horizon, tables of 0 to TRES_MAX TRES, TRES of the accounts
 * and the capacity beyond the table's (which the table's jobs have as 0),
 * trailing zeros.  And refuses what hmrf_rank refuses, order untouched.
 */
START_TEST(test_rank_table)
{
	enum { MAXA = 9, MAXJ = 60 };
	rng_t g;

	rng_seed(&g, gen_seed(4242 + (uint64_t)_i));
	for (int c = 0; c < 60; c++) {
		hmrf_params_t p = { .policy = (hmrf_policy_t)(c % 5) };
		int na = 1 + (int)rng_below(&g, MAXA);
		size_t nj = rng_below(&g, MAXJ + 1);
		int nt = c % 7 == 6 ? TRES_MAX : (int)rng_below(&g, 6);
		int wide = nt + (int)rng_below(&g, 3);
		hmrf_account_t a[MAXA];
		hmrf_job_t jobs[MAXJ];
		int account[MAXJ];
		double amounts[MAXJ * (TRES_MAX + 1)];
		size_t want[MAXJ], got[MAXJ];
		hmrf_job_table_t t = { account, amounts, nt, nj };

		if (wide > TRES_MAX)
			wide = TRES_MAX;
		memset(a, 0, sizeof(a));
		tres_zero(&p.capacity);
		for (int i = 0; i < wide; i++)
			p.capacity.v[i] =
				rng_below(&g, 4) ?
					1 + (double)rng_below(&g, 500) :
					0;
		p.now = 1000;
		p.horizon = c % 3 ? 600 : 60;
		p.timeout = c % 4 ? 0 : 300;
		p.elapsed = 800;
		p.borrow_limit = c % 5 == 4 ? 0.2 : 0;
		for (int i = 0; i < na; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 4);
			for (int k = 0; k < wide; k++) {
				a[i].used.v[k] = rng_uniform(&g) * 2e4;
				a[i].ns.v[k] = rng_uniform(&g) * 2e4;
				a[i].running.v[k] = (double)rng_below(&g, 16);
				a[i].running_left.v[k] = a[i].running.v[k] *
							 600 *
							 rng_uniform(&g);
				a[i].waiting.v[k] = (double)rng_below(&g, 40);
				a[i].ns_rate.v[k] = (double)rng_below(&g, 20);
			}
			if (!rng_below(&g, 3))
				a[i].waiting_since =
					1 + (double)rng_below(&g, 900);
		}
		for (size_t j = 0; j < nj; j++) {
			double *row = amounts + j * ((size_t)nt + 1);

			memset(&jobs[j], 0, sizeof(jobs[j]));
			jobs[j].account = account[j] = (int)rng_below(&g, na);
			jobs[j].duration = row[0] =
				rng_below(&g, 8) ?
					10 + (double)rng_below(&g, 900) :
					INFINITY;
			for (int k = 0; k < nt; k++)
				jobs[j].tres.v[k] = row[1 + k] =
					rng_below(&g, 3) ?
						(double)rng_below(&g, 32) :
						0;
		}
		ck_assert_int_eq(hmrf_rank(&p, a, na, jobs, nj, want, NULL), 0);
		ck_assert_int_eq(hmrf_rank_table(&p, a, na, &t, got, NULL), 0);
		for (size_t k = 0; k < nj; k++)
			ck_assert_uint_eq(got[k], want[k]);
	}
}
END_TEST

START_TEST(test_rank_table_badargs)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .now = 1,
			    .horizon = 60 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	int account[2] = { 0, 2 };
	double amounts[6] = { 10, 1, 1, 10, 1, 1 };
	hmrf_job_table_t t = { account, amounts, 2, 2 };
	size_t order[2] = { 7, 7 };
	horae_err_t err;

	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, NULL, order, &err),
			 -EINVAL);
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), -EINVAL);
	ck_assert_str_eq(err.text, "rank: job 1 names account 2 of 2");
	ck_assert_uint_eq(order[0], 7);
	account[1] = 1;
	amounts[3] = -1;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "job 1 has duration -1"));
	amounts[3] = 10;
	t.ntres = TRES_MAX + 1;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "TRES"));
	t.ntres = -1;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), -EINVAL);
	t.ntres = 2;
	t.account = NULL;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), -EINVAL);
	ck_assert_uint_eq(order[0], 7);
	t.account = account;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, NULL, &err), -EINVAL);
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, order, &err), 0);
	ck_assert_uint_eq(order[0], 0);
	ck_assert_uint_eq(order[1], 1);
	t.n = 0;
	ck_assert_int_eq(hmrf_rank_table(&p, a, 2, &t, NULL, &err), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_policy_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("quantities");
	tcase_add_test(tc, test_shares);
	tcase_add_test(tc, test_beta);
	tcase_add_test(tc, test_aggregate_dominant);
	suite_add_tcase(s, tc);
	tc = tcase_create("guards");
	tcase_add_test(tc, test_sharing_loss_first);
	tcase_add_test(tc, test_step_beta);
	tcase_add_test(tc, test_step_beta_generated);
	tcase_add_test(tc, test_timeout_guard);
	tcase_add_test(tc, test_borrow_limit);
	tcase_add_test(tc, test_order_within_account);
	suite_add_tcase(s, tc);
	tc = tcase_create("ranker");
	tcase_add_test(tc, test_ranker_badargs);
	tcase_add_loop_test(tc, test_ranker_repeats, 0, 4);
	tcase_add_loop_test(tc, test_ranker_skip, 0, 4);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_add_test(tc, test_rank_table_badargs);
	tcase_add_loop_test(tc, test_rank_table, 0, 4);
	suite_add_tcase(s, tc);

	return check_run(s);
}
