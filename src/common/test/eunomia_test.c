/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_test.c - Check tests of eunomia.c: progress shares (Eunomia's
 * Fig. 1: Alice's share 2/8, 3/8, 4/8 as Machine 2's CPUs are given), the
 * fair progress share, and the online order (also one job at a time, with
 * repeats, against the order over the jobs written out).
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../eunomia.h"
#include "../rng.h"
#include "ranker_replay.h"

/* Eunomia Fig. 1: machines 1, 2 of 2 CPUs at speed 1, machine 3 of 2 CPUs
 * at speed 2; Alice may use machines 1-2, Bob 2-3.  Either, alone and
 * unconstrained, would get 2*1 + 2*1 + 2*2 = 8 per unit of time. */
START_TEST(test_eunomia_fig1)
{
	const double monopoly = 8;
	double alice = 2 * 1, bob = 2 * 2; /* Fig. 1c: M1 to Alice, M3 to Bob */
	double want[] = { 2.0 / 8, 3.0 / 8, 4.0 / 8 };

	ck_assert_double_eq_tol(eunomia_progress_share(alice, monopoly, 1),
				want[0], 1e-12);
	ck_assert_double_eq_tol(eunomia_progress_share(bob, monopoly, 1), 0.5,
				1e-12);
	/* Machine 2's CPUs go, one at a time, to the lowest progress share
	 * whose constraints machine 2 meets (both): Alice twice. */
	for (int cpu = 0; cpu < 2; cpu++) {
		double sa = eunomia_progress_share(alice, monopoly, 1);
		double sb = eunomia_progress_share(bob, monopoly, 1);

		ck_assert(sa < sb);
		alice += 1 * 1;
		ck_assert_double_eq_tol(
			eunomia_progress_share(alice, monopoly, 1),
			want[cpu + 1], 1e-12);
	}
	ck_assert_double_eq(eunomia_progress_share(alice, monopoly, 1),
			    eunomia_progress_share(bob, monopoly, 1));
	/* Weights divide; nonsense gives 0, not a division by zero. */
	ck_assert_double_eq(eunomia_progress_share(4, 8, 2), 0.25);
	ck_assert_double_eq(eunomia_progress_share(4, 0, 1), 0);
	ck_assert_double_eq(eunomia_gap(0.25, 0.5), 0.5);
	ck_assert_double_eq(eunomia_gap(0.75, 0.5), -0.5);
	ck_assert_double_eq(eunomia_gap(0.75, 0), 0);
}
END_TEST

/* Online order: runnable jobs first; lowest progress share first, with
 * each pick charged before the next. */
START_TEST(test_eunomia_rank)
{
	eunomia_account_t a[3] = { { 1, 20, 0, true }, { 1, 10, 0, true },
				   { 2, 30, 0, true } };
	eunomia_job_t j[5] = {
		{ 0, 1, 10, true },  { 1, 1, 10, true }, { 1, 1, 10, true },
		{ 2, 1, 10, true },  { 1, 1, 10, false },
	};
	size_t order[5] = { 9, 9, 9, 9, 9 };
	horae_err_t err;

	/* Shares per weight: a0 20, a1 10, a2 15 (30 / 2).  a1 first (10),
	 * then a2 (15) and a1 again (20 after its first pick, ties with a0:
	 * lower index first: a0), then a1; the non-runnable job last. */
	ck_assert_int_eq(eunomia_rank(a, 3, 100, j, 5, order, &err), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 3);
	ck_assert_uint_eq(order[2], 0);
	ck_assert_uint_eq(order[3], 2);
	ck_assert_uint_eq(order[4], 4);
	ck_assert_int_eq(eunomia_rank(a, 3, 0, j, 5, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "monopoly progress 0 must be > 0"));
}
END_TEST

/* The fair share splits what active accounts got by weight; an account's
 * own monopoly (its own speed factors) counts in its share. */
START_TEST(test_eunomia_fair_share)
{
	/* Micro-benchmark at equal shares: 4 accounts, 15 each of 60. */
	eunomia_account_t a[5] = {
		{ 1, 15, 0, true }, { 1, 15, 0, true }, { 1, 15, 0, true },
		{ 1, 15, 0, true }, { 1, 0, 0, false },
	};
	double fair = eunomia_fair_share(a, 5, 60);

	ck_assert_double_eq_tol(fair, 0.25, 1e-12);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(
							    &a[i], 60),
						    fair),
					0, 1e-12);
	/* TSF's outcome: account 3 (pinned to speed 3) 24 of 60, the others
	 * 12: it is above fair by 60%, they are below by 20%. */
	a[0].progress = a[1].progress = a[2].progress = 12;
	a[3].progress = 24;
	fair = eunomia_fair_share(a, 5, 60);
	ck_assert_double_eq_tol(fair, 0.25, 1e-12);
	ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(&a[3], 60),
					    fair),
				-0.6, 1e-12);
	ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(&a[0], 60),
					    fair),
				0.2, 1e-12);
	/* Weight 2 holds twice the progress at the same share. */
	a[0].weight = 2;
	a[0].progress = 48;
	ck_assert_double_eq_tol(eunomia_account_share(&a[0], 60),
				eunomia_account_share(&a[3], 60), 1e-12);
	/* An account whose own factors make the cluster worth 30 to it. */
	a[4].monopoly = 30;
	a[4].progress = 6;
	ck_assert_double_eq_tol(eunomia_account_share(&a[4], 60), 0.2, 1e-12);
	/* Nobody active: no fair share; nonsense weights are skipped. */
	for (int i = 0; i < 5; i++)
		a[i].active = false;
	ck_assert_double_eq(eunomia_fair_share(a, 5, 60), 0);
	ck_assert_double_eq(eunomia_fair_share(NULL, 0, 60), 0);
}
END_TEST

/* An account's own monopoly changes its place in the order. */
START_TEST(test_eunomia_rank_own_monopoly)
{
	/* Equal progress; account 1's factors make the cluster worth half as
	 * much to it, so its share is twice account 0's: 0 goes first. */
	eunomia_account_t a[2] = { { 1, 10, 0, true }, { 1, 10, 50, true } };
	eunomia_job_t j[2] = { { 1, 1, 1, true }, { 0, 1, 1, true } };
	size_t order[2];
	horae_err_t err;

	ck_assert_int_eq(eunomia_rank(a, 2, 100, j, 2, order, &err), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 0);
	a[1].monopoly = 0;
	a[0].progress = 11;
	ck_assert_int_eq(eunomia_rank(a, 2, 100, j, 2, order, &err), 0);
	ck_assert_uint_eq(order[0], 0);
}
END_TEST

/* A pending job's expected rate: its constraint's speed, else the
 * account's average over the cluster, else speed 1. */
START_TEST(test_eunomia_expected_rate)
{
	/* Pinned to gen4 (3.0): 2 CPUs make 6 a second. */
	ck_assert_double_eq(eunomia_expected_rate(2, 3.0, 60, 32), 6);
	/* Unconstrained on the micro-benchmark cluster: 60 / 32 a CPU. */
	ck_assert_double_eq_tol(eunomia_expected_rate(1, 0, 60, 32), 1.875,
				1e-12);
	/* Nothing known: speed 1. */
	ck_assert_double_eq(eunomia_expected_rate(4, 0, 0, 32), 4);
	ck_assert_double_eq(eunomia_expected_rate(4, NAN, 60, 0), 4);
	ck_assert_double_eq(eunomia_expected_rate(0, 3.0, 60, 32), 0);
	ck_assert_double_eq(eunomia_expected_rate(-1, 3.0, 60, 32), 0);
}
END_TEST

/* A pending job counts for what it makes until the next order: its run,
 * capped by the horizon and by the period. */
START_TEST(test_eunomia_charge_span)
{
	/* A 300 s limit, orders every 2 s: 2 s. */
	ck_assert_double_eq(eunomia_charge_span(300, 0, 2), 2);
	/* A job shorter than the period counts whole. */
	ck_assert_double_eq(eunomia_charge_span(1.5, 0, 2), 1.5);
	/* The horizon caps too, whichever is shorter. */
	ck_assert_double_eq(eunomia_charge_span(300, 10, 30), 10);
	ck_assert_double_eq(eunomia_charge_span(300, 60, 30), 30);
	/* No period, no horizon: the whole run. */
	ck_assert_double_eq(eunomia_charge_span(300, 0, 0), 300);
	ck_assert_double_eq(eunomia_charge_span(300, -1, NAN), 300);
	/* Nothing to charge. */
	ck_assert_double_eq(eunomia_charge_span(0, 10, 2), 0);
	ck_assert_double_eq(eunomia_charge_span(-5, 10, 2), 0);
	ck_assert_double_eq(eunomia_charge_span(NAN, 10, 2), 0);
}
END_TEST

/*
 * The online order kept for a period, on generated clusters, against a
 * model of slurmctld written here: its main scheduler, told not to stop
 * at a job that cannot start (SchedulerParameters=bf_min_prio_reserve
 * above every priority), starts on each free CPU the first job in the
 * order whose constraint the CPU's node meets; the order is rebuilt
 * every period from the progress really made.  Two pools of nodes, speed
 * 1 and a faster speed; accounts pinned to one pool or free; one-CPU jobs
 * of WORK units (WORK / speed seconds), a backlog for every account.
 */
#define M_CPUS 64
#define M_ACCTS 6
#define M_WORK 12.0
#define M_LIMIT 300.0 /* the jobs' time limit */
#define M_PERIOD 2.0
#define M_TICK 0.05

typedef struct model {
	int ncpu, nacct;
	double speed[M_CPUS];
	int pool[M_CPUS];      /* 0 slow, 1 fast */
	int pin[M_ACCTS];      /* -1 any node, else the pool */
} model_t;

static double _pool_speed(const model_t *m, int pool)
{
	for (int c = 0; c < m->ncpu; c++)
		if (m->pool[c] == pool)
			return m->speed[c];
	return 0;
}

/* Run the model for secs seconds charging each pending job for
 * eunomia_charge_span(M_LIMIT, 0, period); progress per account in x.
 * Returns max/min of the accounts' progress. */
static double _model_run(const model_t *m, double period, double secs,
			 double *x)
{
	enum { PER = M_CPUS }; /* jobs per account in one order */
	eunomia_account_t a[M_ACCTS];
	eunomia_job_t j[M_ACCTS * PER];
	size_t order[M_ACCTS * PER], njobs = 0;
	bool used[M_ACCTS * PER];
	double until[M_CPUS] = { 0 }, rate = 0, mx = 0, mn = -1;
	int owner[M_CPUS];
	long ticks = lround(secs / M_TICK), every = lround(M_PERIOD / M_TICK);
	horae_err_t err;

	for (int c = 0; c < m->ncpu; c++) {
		rate += m->speed[c];
		owner[c] = -1;
	}
	for (int i = 0; i < m->nacct; i++)
		x[i] = 0;
	for (long k = 0; k < ticks; k++) {
		double t = k * M_TICK;

		if (k % every == 0) { /* a recalculation */
			njobs = 0;
			for (int i = 0; i < m->nacct; i++) {
				a[i] = (eunomia_account_t){ 1, x[i], 0, true };
				for (int n = 0; n < PER; n++) {
					j[njobs] = (eunomia_job_t){
						i,
						eunomia_expected_rate(
							1,
							m->pin[i] < 0 ? 0 :
							_pool_speed(m, m->pin[i]),
							rate, m->ncpu),
						eunomia_charge_span(M_LIMIT, 0,
								    period),
						true
					};
					used[njobs++] = false;
				}
			}
			ck_assert_int_eq(eunomia_rank(a, m->nacct,
						      rate * fmax(t, M_PERIOD),
						      j, njobs, order, &err),
					 0);
		}
		for (int c = 0; c < m->ncpu; c++) {
			if (owner[c] >= 0 && until[c] <= t + 1e-9)
				owner[c] = -1;
			for (size_t o = 0; owner[c] < 0 && o < njobs; o++) {
				int i = j[order[o]].account;

				if (used[order[o]] ||
				    (m->pin[i] >= 0 && m->pin[i] != m->pool[c]))
					continue;
				used[order[o]] = true;
				owner[c] = i;
				until[c] = t + M_WORK / m->speed[c];
			}
			if (owner[c] >= 0)
				x[owner[c]] += m->speed[c] * M_TICK;
		}
	}
	for (int i = 0; i < m->nacct; i++) {
		mx = fmax(mx, x[i]);
		mn = mn < 0 ? x[i] : fmin(mn, x[i]);
	}
	return mn > 0 ? mx / mn : INFINITY;
}

/* Slow CPUs, fast CPUs at speed fast, and accounts by pin. */
static void _model_make(model_t *m, int slow, int fast, double speed,
			const int *pins, int nacct)
{
	memset(m, 0, sizeof(*m));
	for (int c = 0; c < slow + fast; c++) {
		m->speed[c] = c < slow ? 1 : speed;
		m->pool[c] = c < slow ? 0 : 1;
	}
	m->ncpu = slow + fast;
	m->nacct = nacct;
	memcpy(m->pin, pins, nacct * sizeof(int));
}

/* bench-eunomia-constrained.sh's cluster: 16 CPUs at speed 1, 8 at 3;
 * accounts pinned slow, pinned fast, free.  Equal progress (13.3 a second
 * each) fits every pin. */
START_TEST(test_eunomia_constrained_bench)
{
	const int pins[] = { 0, 1, -1 };
	model_t m;
	double x[M_ACCTS], span_period, span_limit;

	_model_make(&m, 16, 8, 3, pins, 3);
	span_period = _model_run(&m, M_PERIOD, 300, x);
	/* The model is deterministic: 1.015 (the bench's real cluster gave
	 * 1.01 in one run). */
	ck_assert_msg(span_period <= 1.10,
		      "charged for a period: progress max/min %.3f (%.0f %.0f %.0f)",
		      span_period, x[0], x[1], x[2]);
	/* Whole limits charged, the defect the period cap mends: the free
	 * account outruns the one pinned to the fast nodes (1.48 here, 1.79
	 * on the bench's real cluster); asserted clear of the bound above. */
	span_limit = _model_run(&m, 0, 300, x);
	ck_assert_msg(span_limit > 1.25,
		      "charged for whole limits: progress max/min %.3f (%.0f %.0f %.0f)",
		      span_limit, x[0], x[1], x[2]);
}
END_TEST

/* Generated clusters and mixes where equal progress fits every pin with
 * at least 15% to spare in each pinned pool: charged for a period, the
 * accounts' progress stays within 15% of each other (the 40 cases of this
 * seed measured 1.000 to 1.055). */
START_TEST(test_eunomia_constrained_generated)
{
	unsigned long seed = (unsigned long)gen_seed(12345);
	int cases = 0;
	double worst = 0;

	while (cases < 40) {
		int slow, fast, ns, nf, nx, pins[M_ACCTS], n = 0;
		double speed, r, x[M_ACCTS], even;
		model_t m;

#define M_RAND(k) ((int)((seed = seed * 6364136223846793005UL + \
				1442695040888963407UL) >> 33) % (k))
		slow = 4 * (1 + M_RAND(6));
		fast = 4 * (1 + M_RAND(4));
		speed = M_RAND(2) ? 3 : 2;
		ns = M_RAND(3);
		nf = M_RAND(3);
		nx = 1 + M_RAND(3);
#undef M_RAND
		if (ns + nf + nx > M_ACCTS)
			continue;
		r = (slow + fast * speed) / (ns + nf + nx);
		if (ns * r > 0.85 * slow || nf * r > 0.85 * fast * speed)
			continue;
		for (int i = 0; i < ns; i++)
			pins[n++] = 0;
		for (int i = 0; i < nf; i++)
			pins[n++] = 1;
		for (int i = 0; i < nx; i++)
			pins[n++] = -1;
		_model_make(&m, slow, fast, speed, pins, n);
		even = _model_run(&m, M_PERIOD, 300, x);
		ck_assert_msg(even <= 1.15,
			      "case %d: %d slow, %d fast CPUs at %.0f, %d pinned slow, %d pinned fast, %d free: progress max/min %.3f",
			      cases, slow, fast, speed, ns, nf, nx, even);
		worst = fmax(worst, even);
		cases++;
	}
	ck_assert(worst >= 1.0);
}
END_TEST

/*
 * Generated: accounts with their own monopolies or the common one, jobs
 * runnable or not, each job given count[j] times in a row by the ranker:
 * the sequence eunomia_rank gives over the jobs written out (runnable
 * first), without count eunomia_rank's own.  jobs[] is read at creation
 * only.
 */
START_TEST(test_eunomia_ranker_repeats)
{
	enum { NA = 6, NJ = 30, MAXC = 4 };
	rng_t g;
	horae_err_t err;
	size_t k;

	rng_seed(&g, gen_seed(2026));
	for (int c = 0; c < 100; c++) {
		eunomia_account_t a[NA];
		eunomia_job_t jobs[NJ], wide[NJ * MAXC];
		size_t count[NJ], from[NJ * MAXC], order[NJ * MAXC], nw = 0;
		size_t n = 0;
		double mono = 1000 + 1000 * rng_uniform(&g);
		eunomia_ranker_t *r;

		for (int i = 0; i < NA; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 3);
			a[i].progress = rng_uniform(&g) * 500;
			a[i].monopoly = rng_below(&g, 2) ? 0 : mono / 2;
			a[i].active = true;
		}
		for (int j = 0; j < NJ; j++) {
			jobs[j].account = (int)rng_below(&g, NA);
			jobs[j].rate = 1 + (double)rng_below(&g, 16);
			jobs[j].duration = 5 + (double)rng_below(&g, 60);
			jobs[j].runnable = rng_below(&g, 3) != 0;
			count[j] = 1 + rng_below(&g, MAXC);
			for (size_t t = 0; t < count[j]; t++) {
				wide[nw] = jobs[j];
				from[nw++] = (size_t)j;
			}
		}
		ck_assert_int_eq(eunomia_rank(a, NA, mono, wide, nw, order,
					      &err),
				 0);
		r = eunomia_ranker_create(a, NA, mono, jobs, count, NJ, &err);
		ck_assert_ptr_nonnull(r);
		memset(jobs, 0xff, sizeof(jobs));
		for (; !eunomia_ranker_next(r, &k); n++) {
			ck_assert_uint_lt(n, nw);
			ck_assert_uint_eq(k, from[order[n]]);
		}
		ck_assert_uint_eq(n, nw);
		eunomia_ranker_destroy(&r);
		ck_assert_ptr_null(r);
		/* Without count: eunomia_rank's order itself. */
		r = eunomia_ranker_create(a, NA, mono, wide, NULL, nw, &err);
		ck_assert_ptr_nonnull(r);
		for (n = 0; !eunomia_ranker_next(r, &k); n++)
			ck_assert_uint_eq(k, order[n]);
		ck_assert_uint_eq(n, nw);
		eunomia_ranker_destroy(&r);
	}
	/* Bad input: a rate not a number, a job given 0 times, no
	 * monopoly, no ranker. */
	{
		eunomia_account_t a = { .weight = 1, .active = true };
		eunomia_job_t j = { .account = 0, .rate = NAN, .duration = 1 };
		size_t zero = 0;

		ck_assert_ptr_null(
			eunomia_ranker_create(&a, 1, 10, &j, NULL, 1, &err));
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_ptr_nonnull(strstr(err.text, "rate"));
		j.rate = 1;
		ck_assert_ptr_null(
			eunomia_ranker_create(&a, 1, 10, &j, &zero, 1, &err));
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_ptr_null(
			eunomia_ranker_create(&a, 1, 0, &j, NULL, 1, &err));
		ck_assert_int_eq(eunomia_ranker_next(NULL, &k), -EINVAL);
		eunomia_ranker_destroy(NULL);
	}
}
END_TEST

static int _next(void *r, size_t *job)
{
	return eunomia_ranker_next(r, job);
}

static int _skip(void *r, size_t job)
{
	return eunomia_ranker_skip(r, job);
}

/* eunomia_ranker_skip, as hmrf_test's test_ranker_skip: generated jobs,
 * runnable or not, each dying at its die[j]-th time given; the jobs given
 * while alive come in the same order with skip as without. */
START_TEST(test_eunomia_ranker_skip)
{
	enum { NA = 5, NJ = 24, MAXC = 8 };
	rng_t g;

	rng_seed(&g, gen_seed(4242));
	for (int c = 0; c < 100; c++) {
		eunomia_account_t a[NA];
		eunomia_job_t jobs[NJ];
		size_t count[NJ], die[NJ], seen[NJ], k;
		size_t want[NJ * MAXC], nwant = 0;
		double mono = 500 + 500 * rng_uniform(&g);
		eunomia_ranker_t *r;

		for (int i = 0; i < NA; i++) {
			a[i].weight = 1 + (double)rng_below(&g, 3);
			a[i].progress = rng_uniform(&g) * 300;
			a[i].monopoly = rng_below(&g, 2) ? 0 : mono / 3;
			a[i].active = true;
		}
		for (int j = 0; j < NJ; j++) {
			jobs[j].account = (int)rng_below(&g, NA);
			jobs[j].rate = 1 + (double)rng_below(&g, 12);
			jobs[j].duration = 5 + (double)rng_below(&g, 90);
			jobs[j].runnable = rng_below(&g, 4) != 0;
			count[j] = 1 + rng_below(&g, MAXC);
			die[j] = 1 + rng_below(&g, count[j] + 2);
		}
		memset(seen, 0, sizeof(seen));
		r = eunomia_ranker_create(a, NA, mono, jobs, count, NJ, NULL);
		ck_assert_ptr_nonnull(r);
		while (!eunomia_ranker_next(r, &k))
			if (++seen[k] <= die[k])
				want[nwant++] = k;
		eunomia_ranker_destroy(&r);
		r = eunomia_ranker_create(a, NA, mono, jobs, count, NJ, NULL);
		ck_assert_ptr_nonnull(r);
		replay_with_skip(r, _next, _skip, die, seen, NJ, want, nwant);
		ck_assert_int_eq(eunomia_ranker_skip(r, 0), -EINVAL);
		eunomia_ranker_destroy(&r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia");
	TCase *tc = tcase_create("eunomia");

	tcase_add_test(tc, test_eunomia_fig1);
	tcase_add_test(tc, test_eunomia_rank);
	tcase_add_test(tc, test_eunomia_fair_share);
	tcase_add_test(tc, test_eunomia_rank_own_monopoly);
	tcase_add_test(tc, test_eunomia_expected_rate);
	tcase_add_test(tc, test_eunomia_charge_span);
	tcase_add_test(tc, test_eunomia_constrained_bench);
	tcase_add_test(tc, test_eunomia_constrained_generated);
	tcase_add_test(tc, test_eunomia_ranker_repeats);
	tcase_add_test(tc, test_eunomia_ranker_skip);
	suite_add_tcase(s, tc);
	return check_run(s);
}
