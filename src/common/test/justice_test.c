/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_test.c - Check tests of justice.c: each step of Algorithms 2 and
 * 3 on a hand-computed history, the bootstrap, the correction kept within
 * [MinCPUFrac, 1], an infeasible job with what would be feasible, the
 * baselines, offers and order.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../justice.h"

/* minReqRate 0.5, 0.2 and 0.9 */
static const justice_done_t A = { 10, 100, 500, 10, true, 0, false, 0 };
static const justice_done_t B = { 20, 200, 800, 20, true, 0, false, 0 };
static const justice_done_t C = { 10, 100, 900, 5, false, 0, false, 0 };

static justice_history_t *_history(int njobs)
{
	const justice_done_t *jobs[] = { &A, &B, &C };
	horae_err_t err;
	justice_history_t *h = justice_history_create(100, JUSTICE_SMOOTH_EQUAL,
						      0, &err);

	for (int i = 0; i < njobs; i++)
		justice_history_track(h, jobs[i], 100, &err);
	return h;
}

START_TEST(test_bootstrap)
{
	justice_history_t *h = _history(1);
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100 };
	justice_estimate_t e;
	horae_err_t err;

	/* One job learnt: no estimate yet (the paper's CompletedJobs > 1). */
	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), 0);
	ck_assert_int_eq(e.verdict, JUSTICE_BOOTSTRAP);
	ck_assert_double_eq(e.req_cpus, 10);
	ck_assert_int_eq(justice_estimate(NULL, &p, &r, &e, &err), 0);
	ck_assert_int_eq(e.verdict, JUSTICE_BOOTSTRAP);
	/* A configured bootstrap of 3 jobs: still learning after 2. */
	justice_history_destroy(&h);
	h = _history(2);
	p.bootstrap = 3;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_BOOTSTRAP);
	p.bootstrap = 2;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_FEASIBLE);
	justice_history_destroy(&h);
}
END_TEST

/* After A and B (both met): fraction (1 + 0.2) / 2 = 0.6, corrected by the
 * mean error -0.65 to -0.05, validated up to MinCPUFrac 0.2; 2 CPUs of
 * 10.  After C (missed): (0.5 + 0.9) / 2 = 0.7, - 0.3 = 0.4: 4 of 10. */
START_TEST(test_steps)
{
	justice_history_t *h = _history(2);
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100 };
	justice_estimate_t e;
	horae_err_t err;

	ck_assert(isnan(justice_fraction(NULL)));

	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), 0);
	ck_assert_int_eq(e.verdict, JUSTICE_FEASIBLE);
	ck_assert_double_eq_tol(e.fraction, 0.2, 1e-12);
	ck_assert_double_eq(e.req_cpus, 2);
	ck_assert_double_eq_tol(e.priority, 2.0 / 100, 1e-12);
	justice_history_destroy(&h);
	h = _history(3);
	/* What sfair shows: the fraction before the queue stretch. */
	ck_assert_double_eq_tol(justice_fraction(h), 0.4, 1e-12);
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq_tol(e.fraction, 0.4, 1e-12);
	ck_assert_double_eq(e.req_cpus, 4);
	/* Queue stretch: 50 s queued of 100 doubles it: 8 CPUs. */
	r.queued = 50;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq_tol(e.fraction, 0.8, 1e-12);
	ck_assert_double_eq(e.req_cpus, 8);
	ck_assert_double_eq_tol(e.ttd, 50, 1e-12);
	/* A scheduler that ends the job 40 s early (Slurm: whole minutes)
	 * leaves it an effective window of 60 s of its 100, which is what
	 * the fraction is of: at q = 0, 0.4 of 10 CPUs, 4; after 20 s in
	 * the queue, with 60 s left to run, 0.4 x 80 / 60, 6. */
	r.queued = 0;
	r.run_cap = 60;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq_tol(e.ttd, 60, 1e-12);
	ck_assert_double_eq(e.req_cpus, 4);
	r.queued = 20;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.req_cpus, 6);
	r.queued = 0;
	r.run_cap = 200; /* beyond the deadline: no effect */
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.req_cpus, 4);
	r.run_cap = -1;
	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), -EINVAL);
	r.run_cap = 0;
	/* Never fewer than 1 CPU; capped by the cluster. */
	r.queued = 0;
	r.requested = 1;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.req_cpus, 1);
	r.requested = 1000;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.max_cpus, 100);
	ck_assert_double_eq(e.req_cpus, 40);
	justice_history_destroy(&h);
}
END_TEST

/* The correction never takes the fraction outside [MinCPUFrac, 1]. */
START_TEST(test_correction_bounds)
{
	horae_err_t err;
	justice_history_t *h = justice_history_create(100, JUSTICE_SMOOTH_EQUAL,
						      0, &err);
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100 };
	/* error 0.89 */
	justice_done_t starved = { 10, 100, 990, 1, false, 0, false, 0 };
	justice_estimate_t e;

	for (int i = 0; i < 5; i++)
		justice_history_track(h, &starved, 100, &err);
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq_tol(e.fraction, 1.0, 1e-12);
	ck_assert_double_eq(e.req_cpus, 10);
	justice_history_destroy(&h);
}
END_TEST

/* 90 s of 100 queued at fraction 0.4: 4 x 10 = 40 CPUs > 10: infeasible;
 * it would need 40 CPUs, or a window of 90 / (1 - 0.4) = 150 s. */
START_TEST(test_infeasible)
{
	justice_history_t *h = _history(3);
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100, .queued = 90 };
	justice_estimate_t e;
	horae_err_t err;

	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), 0);
	ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
	ck_assert_double_eq(e.cpus_needed, 40);
	ck_assert_double_eq_tol(e.deadline_ok, 150, 1e-9);
	ck_assert_double_eq(e.priority, 0);
	/* With slurmctld's whole-minute cut: 100 s queued of 120 needs
	 * 0.4 x 100 / 0.6 = 66.7 s to run, which the cut grants only from
	 * 120 s left: D' = 220 (at 219 s it has 60 s: 0.4 x 160 / 60 > 1). */
	r.deadline = 120;
	r.queued = 100;
	r.run_cap = justice_run_cap(20);
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
	ck_assert_double_eq_tol(e.deadline_ok, 220, 1e-9);
	r.deadline = 220;
	r.run_cap = justice_run_cap(120);
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_ne(e.verdict, JUSTICE_INFEASIBLE);
	r.deadline = 219;
	r.run_cap = justice_run_cap(119);
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
	r.deadline = 100;
	r.run_cap = 0;
	/* Past the deadline: infeasible whatever the fraction. */
	r.queued = 100;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
	r.queued = -1;
	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), -EINVAL);
	ck_assert(strstr(err.text, "queue time, run cap and claim >= 0"));
	justice_history_destroy(&h);
}
END_TEST

START_TEST(test_baselines)
{
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100,
				.queued = 60, .need = 500 };
	justice_estimate_t e;
	justice_policy_t pol;
	horae_err_t err;

	p.policy = JUSTICE_POLICY_BASELINE_FS;
	justice_estimate(NULL, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_FEASIBLE);
	ck_assert_double_eq(e.req_cpus, 10);
	/* Oracle: 500 CPU-s in the 40 s left needs 12.5 -> 13 CPUs > 10. */
	p.policy = JUSTICE_POLICY_ORACLE;
	justice_estimate(NULL, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
	ck_assert_double_eq(e.cpus_needed, 13);
	ck_assert_double_eq_tol(e.deadline_ok, 110, 1e-9);
	r.queued = 0; /* 5 CPUs over 100 s */
	justice_estimate(NULL, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_FEASIBLE);
	ck_assert_double_eq(e.req_cpus, 5);
	ck_assert(justice_kill_late(101, 100, 8, 4));
	ck_assert(!justice_kill_late(101, 100, 2, 4));
	ck_assert(!justice_kill_late(99, 100, 8, 4));
	ck_assert_int_eq(justice_policy_parse("reactive-fs", &pol, &err), 0);
	ck_assert_int_eq(pol, JUSTICE_POLICY_REACTIVE_FS);
	ck_assert_str_eq(justice_policy_name(pol), "reactive-fs");
	ck_assert_int_eq(justice_policy_parse("edf", &pol, &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown admission policy 'edf'"));
}
END_TEST

START_TEST(test_offers_and_order)
{
	double req[3] = { 4, 8, 2 }, offers[3];
	justice_estimate_t e[3] = { 0 };
	size_t order[3];

	ck_assert_double_eq(justice_offers(req, 3, 10, offers), 4);
	ck_assert_double_eq(offers[0], 4);
	ck_assert_double_eq(offers[1], 0); /* does not fit: nothing */
	ck_assert_double_eq(offers[2], 2);
	e[0].verdict = JUSTICE_FEASIBLE;
	e[0].priority = 0.5;
	e[1].verdict = JUSTICE_INFEASIBLE;
	e[2].verdict = JUSTICE_FEASIBLE;
	e[2].priority = 0.1;
	ck_assert_int_eq(justice_order(e, 3, order), 0);
	ck_assert_uint_eq(order[0], 2);
	ck_assert_uint_eq(order[1], 0);
	ck_assert_uint_eq(order[2], 1);
	/* Shortest time to deadline first: job 0 (30 s) before job 2 (90 s),
	 * the infeasible one still last. */
	e[0].ttd = 30;
	e[2].ttd = 90;
	ck_assert_int_eq(justice_order_by(e, 3, JUSTICE_ORDER_DEADLINE, order),
			 0);
	ck_assert_uint_eq(order[0], 0);
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 1);
}
END_TEST

/* Slurm's whole-minute limit for a deadline job. */
START_TEST(test_run_cap)
{
	ck_assert_double_eq(justice_run_cap(179), 120);
	ck_assert_double_eq(justice_run_cap(180), 180);
	ck_assert_double_eq(justice_run_cap(60), 60);
	ck_assert_double_eq(justice_run_cap(59), 59);
	ck_assert_double_eq(justice_run_cap(0.2), 1);
	ck_assert_double_eq(justice_run_cap(-5), 1);
}
END_TEST

START_TEST(test_size)
{
	ck_assert_int_eq(justice_size(10, 4, 1, 8), 3); /* 12 CPUs */
	ck_assert_int_eq(justice_size(12, 4, 1, 8), 3);
	ck_assert_int_eq(justice_size(12.0000000001, 4, 1, 8), 3);
	ck_assert_int_eq(justice_size(1, 4, 2, 8), 2);	 /* at least min */
	ck_assert_int_eq(justice_size(100, 4, 1, 8), 8); /* at most max */
	ck_assert_int_eq(justice_size(5, 1, 1, 16), 5);
	ck_assert_int_eq(justice_size(5, 0, 3, 16), 3);
	ck_assert_int_eq(justice_size(NAN, 1, 3, 16), 3);
}
END_TEST

/*
 * The claim: history(2) estimates 2 of 10 CPUs.  A range whose limit
 * claims 2 CPUs x 300 s at its bottom, with 100 s to run, needs 6: sized
 * for 6, admitted and ranked as 2; a claim of 1,000 CPU-s asks for 10, the
 * most it may use; a small claim, or none, leaves the estimate.  While
 * learning, the whole range; infeasible, the estimate.
 */
START_TEST(test_claim)
{
	justice_history_t *h = _history(2);
	justice_params_t p = { .capacity = 100 };
	justice_request_t r = { .requested = 10, .deadline = 100,
				.claim = 600 };
	justice_estimate_t e;
	horae_err_t err;

	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), 0);
	ck_assert_int_eq(e.verdict, JUSTICE_FEASIBLE);
	ck_assert_double_eq(e.req_cpus, 2);
	ck_assert_double_eq(e.size_cpus, 6);
	ck_assert_double_eq_tol(e.priority, 2.0 / 100, 1e-12);
	r.claim = 1000;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.size_cpus, 10);
	r.claim = 5000;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.size_cpus, 10);
	r.claim = 100;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.size_cpus, 2);
	r.claim = 0;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.size_cpus, 2);
	/* The time it has is what the claim is spread over: 60 s left of
	 * the window after 40 s queued, 600 / 60 = 10. */
	r.claim = 600;
	r.queued = 40;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_double_eq(e.size_cpus, 10);
	r.claim = -1;
	ck_assert_int_eq(justice_estimate(h, &p, &r, &e, &err), -EINVAL);
	ck_assert(strstr(err.text, "claim"));
	justice_history_destroy(&h);
	h = _history(1);
	r.claim = 100;
	r.queued = 0;
	justice_estimate(h, &p, &r, &e, &err);
	ck_assert_int_eq(e.verdict, JUSTICE_BOOTSTRAP);
	ck_assert_double_eq(e.size_cpus, 10);
	justice_history_destroy(&h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice");
	TCase *tc = tcase_create("justice");

	tcase_add_test(tc, test_bootstrap);
	tcase_add_test(tc, test_steps);
	tcase_add_test(tc, test_correction_bounds);
	tcase_add_test(tc, test_infeasible);
	tcase_add_test(tc, test_baselines);
	tcase_add_test(tc, test_offers_and_order);
	tcase_add_test(tc, test_run_cap);
	tcase_add_test(tc, test_size);
	tcase_add_test(tc, test_claim);
	suite_add_tcase(s, tc);
	return check_run(s);
}
