/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_test.c - Check tests of justice.c: each step of Algorithms 2 and
 * 3 on a hand-computed history, the bootstrap, the correction kept within
 * [MinCPUFrac, 1], an infeasible job with what would be feasible, the
 * baselines, offers and order; and on generated histories and jobs,
 * admission against a model written from justice.h and
 * justice_history.h alone (test_generated_admission).
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../justice.h"
#include "../rng.h"

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
	/* A rounding short of a whole minute is that minute (14841.508... -
	 * 7281.508... in floating point, the generated case that found it);
	 * a real part of a second short is not. */
	ck_assert_double_eq(justice_run_cap(7560 - 1e-9), 7560);
	ck_assert_double_eq(justice_run_cap(60 - 1e-9), 60);
	ck_assert_double_eq(justice_run_cap(7559.5), 7500);
	ck_assert_double_eq(justice_run_cap(59.5), 59.5);
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

/* --- generated cases against a model ------------------------------------ */

/*
 * The model: TRACK_JOB and the estimate as justice_history.h and justice.h
 * state them, computed here from the jobs themselves (no call into the
 * history but its creation and track), then the properties admission must
 * have whatever the history: a job is admitted exactly when the work the
 * estimate gives it over its window, f x maxCPUs x (q + ttd), fits in the
 * time it has at its most CPUs; an admitted job's reqCPUs are the fewest
 * whole CPUs that do that work in time; a job is never refused at q = 0;
 * the window an infeasible job is told it could meet is met (and a second
 * less is not); a longer window never turns an admitted job away; the
 * oracle admits exactly the jobs whose need fits; the order and the offers
 * are the ones a plain sort and a plain greedy give.
 */
enum { GEN_HIST = 40 };

typedef struct model_hist {
	int length, n;
	double rate[GEN_HIST * 2], error[GEN_HIST * 2];
	double smooth, last;
	bool exp, success;
	double alpha;
} model_hist_t;

static void _model_track(model_hist_t *m, const justice_done_t *j,
			 double capacity)
{
	double mx = fmin(j->requested, capacity), per = j->deadline * mx;
	double rate, last, e;

	if (!j->cut)
		rate = j->comp_time / per;
	else if (j->claim > 0)
		rate = fmin(1, fmax(j->comp_time, j->claim) / per);
	else
		rate = 1;
	last = (j->allotted > 0 ? j->allotted : j->cpus) / mx;
	e = rate - last;
	m->smooth = m->n ? m->alpha * e + (1 - m->alpha) * m->smooth : e;
	m->rate[m->n] = rate;
	m->error[m->n] = e;
	m->n++;
	m->last = last;
	m->success = j->success;
}

/* f: the fraction before the queue stretch, over the kept jobs. */
static double _model_fraction(const model_hist_t *m)
{
	int from = m->n > m->length ? m->n - m->length : 0;
	double lo = INFINITY, hi = -INFINITY, sum = 0, f;

	for (int i = from; i < m->n; i++) {
		lo = fmin(lo, m->rate[i]);
		hi = fmax(hi, m->rate[i]);
		sum += m->error[i];
	}
	f = (m->last + (m->success ? lo : hi)) / 2 +
	    (m->exp ? m->smooth : sum / (m->n - from));
	return fmin(1, fmax(lo, f));
}

static double _pick(rng_t *r, double lo, double hi)
{
	return lo + rng_uniform(r) * (hi - lo);
}

static justice_done_t _gen_done(rng_t *r, double capacity)
{
	justice_done_t j = { 0 };
	double mx;

	j.requested = 1 + (double)rng_below(r, 96);
	mx = fmin(j.requested, capacity);
	j.deadline = _pick(r, 60, 7200);
	j.cpus = 1 + (double)rng_below(r, (uint64_t)mx);
	j.comp_time = _pick(r, 0, 1.3) * j.cpus * j.deadline;
	j.success = j.comp_time <= j.cpus * j.deadline;
	if (rng_below(r, 2))
		j.allotted = 1 + (double)rng_below(r, (uint64_t)mx);
	if (!rng_below(r, 5)) {
		j.cut = true;
		j.success = false;
		if (rng_below(r, 2))
			j.claim = _pick(r, 0, 1.5) * mx * j.deadline;
	}
	return j;
}

static justice_request_t _gen_request(rng_t *r)
{
	justice_request_t q = { 0 };

	q.requested = 1 + (double)rng_below(r, 128);
	q.deadline = _pick(r, 30, 20000);
	/* Whole seconds now and then: the minute cut's edges. */
	if (rng_below(r, 2))
		q.deadline = round(q.deadline);
	q.queued = rng_below(r, 4) ? _pick(r, 0, 1.2) * q.deadline : 0;
	if (rng_below(r, 3) == 0 && q.deadline > q.queued)
		q.run_cap = justice_run_cap(q.deadline - q.queued);
	if (rng_below(r, 3) == 0)
		q.claim = _pick(r, 0, 2) * q.requested * q.deadline;
	q.need = _pick(r, 0, 1.5) * q.requested * q.deadline;
	return q;
}

/* Whether x is within a hair of a whole number (the ceil's edge). */
static bool _near_whole(double x)
{
	return fabs(x - round(x)) < 1e-6 * fmax(1, fabs(x));
}

static justice_verdict_t _verdict_at(const justice_history_t *h,
				     const justice_params_t *p,
				     justice_request_t q, double deadline)
{
	justice_estimate_t e;

	q.deadline = deadline;
	if (q.run_cap > 0)
		q.run_cap = justice_run_cap(deadline - q.queued);
	ck_assert_int_eq(justice_estimate(h, p, &q, &e, NULL), 0);
	return e.verdict;
}

static void _check_request(const justice_history_t *h,
			   const justice_params_t *p, const model_hist_t *m,
			   const justice_request_t *q, int c)
{
	justice_estimate_t e;
	double mx = fmin(q->requested, p->capacity),
	       ttd = q->deadline - q->queued;
	double f, work, cpus;
	long learnt = justice_history_count(h);

	if (q->run_cap > 0 && q->run_cap < ttd)
		ttd = q->run_cap;
	ck_assert_int_eq(justice_estimate(h, p, q, &e, NULL), 0);
	ck_assert_double_eq_tol(e.max_cpus, mx, 1e-12);
	if (learnt < 2 || learnt < p->bootstrap) {
		ck_assert_msg(e.verdict == JUSTICE_BOOTSTRAP,
			      "case %d: %ld learnt, bootstrap %ld", c, learnt,
			      p->bootstrap);
		ck_assert_double_eq(e.req_cpus, mx);
		return;
	}
	f = _model_fraction(m);
	ck_assert_double_eq_tol(justice_fraction(h), f, 1e-9);
	if (!(ttd > 0)) {
		ck_assert_msg(e.verdict == JUSTICE_INFEASIBLE,
			      "case %d: admitted with no time left", c);
		return;
	}
	work = f * mx * (q->queued + ttd);
	cpus = work / ttd;
	if (_near_whole(cpus) || fabs(cpus - mx) < 1e-6 * mx)
		return; /* on the ceil's edge: either is right */
	if (cpus <= mx) {
		ck_assert_msg(
			e.verdict == JUSTICE_FEASIBLE,
			"case %d: refused, yet %g CPU-s fit in %g s on %g CPUs",
			c, work, ttd, mx);
		/* Sound: the allotment does the estimated work in time;
		 * and the fewest whole CPUs that do. */
		ck_assert_double_eq(e.req_cpus, fmax(1, ceil(cpus)));
		ck_assert(e.req_cpus * ttd >= work * (1 - 1e-12));
		ck_assert(e.req_cpus <= mx);
		ck_assert_double_eq_tol(e.priority, e.req_cpus / ttd, 1e-12);
		/* A longer window keeps it admitted. */
		if (!(q->run_cap > 0))
			ck_assert_msg(
				_verdict_at(h, p, *q, q->deadline * 1.5 + 10) !=
					JUSTICE_INFEASIBLE,
				"case %d: a longer window refused", c);
	} else {
		ck_assert_msg(
			e.verdict == JUSTICE_INFEASIBLE,
			"case %d: admitted, yet %g CPU-s do not fit in %g s on %g CPUs",
			c, work, ttd, mx);
		ck_assert(q->queued > 0 || q->run_cap > 0);
		ck_assert(e.cpus_needed > mx);
		if (f < 1) {
			ck_assert(isfinite(e.deadline_ok));
			ck_assert_msg(
				_verdict_at(h, p, *q, e.deadline_ok) ==
					JUSTICE_FEASIBLE,
				"case %d: refused at the window %g it was told it could meet",
				c, e.deadline_ok);
			/* And a second less is not met (without the minute
			 * cut, whose edges are a minute apart). */
			if (!(q->run_cap > 0) &&
			    e.deadline_ok - 1 > q->queued &&
			    e.deadline_ok - 1 > q->deadline &&
			    !_near_whole(f * q->queued / (1 - f)))
				ck_assert_msg(
					_verdict_at(h, p, *q,
						    e.deadline_ok - 1) ==
						JUSTICE_INFEASIBLE,
					"case %d: %g is not the earliest window",
					c, e.deadline_ok);
		} else {
			ck_assert(isinf(e.deadline_ok));
		}
	}
}

START_TEST(test_generated_admission)
{
	rng_t r;
	int checked = 0;

	rng_seed(&r, gen_seed(2718));
	for (int c = 0; c < 400; c++) {
		justice_params_t p = {
			.policy = JUSTICE_POLICY_JUSTICE,
			.capacity = rng_below(&r, 2) ? 64 : 128,
			.bootstrap = (long)rng_below(&r, 6),
		};
		model_hist_t m = { 0 };
		justice_history_t *h;
		int n = (int)rng_below(&r, GEN_HIST);

		m.length = 1 + (int)rng_below(&r, GEN_HIST);
		m.exp = rng_below(&r, 2);
		m.alpha = m.exp ? _pick(&r, 0.05, 1) : 0;
		h = justice_history_create(m.length,
					   m.exp ? JUSTICE_SMOOTH_EXP :
						   JUSTICE_SMOOTH_EQUAL,
					   m.alpha, NULL);
		ck_assert_ptr_nonnull(h);
		if (!m.exp)
			m.alpha = 0;
		for (int i = 0; i < n; i++) {
			justice_done_t j = _gen_done(&r, p.capacity);

			ck_assert_int_eq(
				justice_history_track(h, &j, p.capacity, NULL),
				0);
			_model_track(&m, &j, p.capacity);
		}
		for (int k = 0; k < 20; k++) {
			justice_request_t q = _gen_request(&r);

			_check_request(h, &p, &m, &q, c);
			checked++;
		}
		justice_history_destroy(&h);
	}
	ck_assert_int_eq(checked, 400 * 20);
}
END_TEST

/* The oracle admits exactly the jobs whose need fits in the time they
 * have at their most CPUs, whatever was learnt. */
START_TEST(test_generated_oracle)
{
	rng_t r;
	justice_params_t p = { .policy = JUSTICE_POLICY_ORACLE,
			       .capacity = 96 };

	rng_seed(&r, gen_seed(3141));
	for (int c = 0; c < 4000; c++) {
		justice_request_t q = _gen_request(&r);
		justice_estimate_t e;
		double mx = fmin(q.requested, p.capacity);
		double ttd = q.deadline - q.queued, cpus;

		if (q.run_cap > 0 && q.run_cap < ttd)
			ttd = q.run_cap;
		ck_assert_int_eq(justice_estimate(NULL, &p, &q, &e, NULL), 0);
		if (!(ttd > 0)) {
			ck_assert_int_eq(e.verdict, JUSTICE_INFEASIBLE);
			continue;
		}
		cpus = q.need / ttd;
		if (_near_whole(cpus) || fabs(cpus - mx) < 1e-6 * mx)
			continue;
		ck_assert_msg(e.verdict == (cpus <= mx ? JUSTICE_FEASIBLE :
							 JUSTICE_INFEASIBLE),
			      "case %d: need %g in %g s on %g CPUs", c, q.need,
			      ttd, mx);
		if (e.verdict == JUSTICE_FEASIBLE)
			ck_assert(e.req_cpus * ttd >= q.need * (1 - 1e-12));
	}
}
END_TEST

/* justice_order against a plain stable sort (admitted by priority, the
 * refused last, ties by index), and justice_offers against a plain
 * greedy in that order. */
START_TEST(test_generated_order_and_offers)
{
	enum { N = 40 };
	rng_t r;

	rng_seed(&r, gen_seed(1618));
	for (int c = 0; c < 300; c++) {
		justice_estimate_t est[N];
		size_t order[N], want[N];
		double req[N], offers[N], free_cpus, left, expect;
		size_t n = 1 + rng_below(&r, N);

		for (size_t i = 0; i < n; i++) {
			memset(&est[i], 0, sizeof(est[i]));
			est[i].verdict = rng_below(&r, 4) ? JUSTICE_FEASIBLE :
							    JUSTICE_INFEASIBLE;
			est[i].req_cpus = 1 + (double)rng_below(&r, 32);
			est[i].ttd = 1 + (double)rng_below(&r, 5);
			/* Few distinct values: ties. */
			if (est[i].verdict != JUSTICE_INFEASIBLE)
				est[i].priority = est[i].req_cpus / est[i].ttd;
			want[i] = i;
		}
		/* Insertion sort: stable, so ties keep the index order. */
		for (size_t i = 1; i < n; i++) {
			size_t x = want[i], j = i;

			while (j > 0) {
				const justice_estimate_t *a = &est[want[j - 1]],
							 *b = &est[x];
				bool ai = a->verdict == JUSTICE_INFEASIBLE,
				     bi = b->verdict == JUSTICE_INFEASIBLE;

				if (ai == bi ?
					    a->priority <= b->priority || ai :
					    !ai)
					break;
				want[j] = want[j - 1];
				j--;
			}
			want[j] = x;
		}
		ck_assert_int_eq(justice_order(est, n, order), 0);
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(
				order[i] == want[i],
				"case %d: position %zu is job %zu, not %zu", c,
				i, order[i], want[i]);
		free_cpus = (double)rng_below(&r, 200);
		for (size_t i = 0; i < n; i++)
			req[i] = est[order[i]].req_cpus;
		left = justice_offers(req, n, free_cpus, offers);
		expect = free_cpus;
		for (size_t i = 0; i < n; i++) {
			double o = req[i] <= expect ? req[i] : 0;

			ck_assert_double_eq(offers[i], o);
			expect -= o;
		}
		ck_assert_double_eq(left, expect);
		ck_assert(left >= 0);
	}
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
	tcase_add_test(tc, test_generated_admission);
	tcase_add_test(tc, test_generated_oracle);
	tcase_add_test(tc, test_generated_order_and_offers);
	suite_add_tcase(s, tc);
	return check_run(s);
}
