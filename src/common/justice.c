/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice.c - Justice's estimate, admission and offers.  See justice.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "justice.h"

static const char *const names[] = {
	[JUSTICE_POLICY_JUSTICE] = "justice",
	[JUSTICE_POLICY_BASELINE_FS] = "baseline-fs",
	[JUSTICE_POLICY_REACTIVE_FS] = "reactive-fs",
	[JUSTICE_POLICY_ORACLE] = "oracle",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

int justice_policy_parse(const char *s, justice_policy_t *out,
			 horae_err_t *err)
{
	for (size_t i = 0; s && out && i < NNAMES; i++) {
		if (!strcmp(s, names[i])) {
			*out = (justice_policy_t)i;
			return 0;
		}
	}
	return err_set(err, -EINVAL,
		       "unknown admission policy '%s' (use justice, baseline-fs, reactive-fs or oracle)",
		       s ? s : "");
}

const char *justice_policy_name(justice_policy_t p)
{
	return (size_t)p < NNAMES ? names[p] : "unknown";
}

/* CALCULATE_ALLOC_FRACTION and CORRECT_ALLOC_FRACTION (with
 * VALIDATE_FRACTION to [MinCPUFrac, 1]). */
static double _fraction(const justice_history_t *h)
{
	double lo = justice_history_min(h);
	double f = (justice_history_last(h) +
		    (justice_history_last_success(h) ? lo :
						       justice_history_max(h))) /
		   2;

	f += justice_history_correction(h);
	return fmin(1.0, fmax(lo, f));
}

double justice_fraction(const justice_history_t *h)
{
	return h && justice_history_count(h) > 0 ? _fraction(h) : NAN;
}

/* Fill in what would be feasible for a fraction f before the stretch: a
 * window D' whose time to run, ttd', meets f x (q + ttd') <= ttd', that
 * is ttd' >= f q / (1 - f); with a run cap, the scheduler's cut
 * (justice_run_cap(): whole minutes from 60 s on) must leave it that. */
static void _what_would_do(justice_estimate_t *e, const justice_request_t *r,
			   double f)
{
	double ttd;

	e->cpus_needed = e->req_cpus;
	if (!(f < 1)) {
		e->deadline_ok = INFINITY;
		return;
	}
	ttd = f * r->queued / (1 - f);
	if (r->run_cap > 0 && ttd >= 60)
		ttd = ceil(ttd / 60 - 1e-9) * 60;
	e->deadline_ok = fmax(r->queued + ttd, r->deadline);
}

int justice_estimate(const justice_history_t *h, const justice_params_t *p,
		     const justice_request_t *r, justice_estimate_t *out,
		     horae_err_t *err)
{
	justice_estimate_t e = { 0 };
	double f;

	if (!p || !r || !out)
		return err_set(err, -EINVAL, "justice: missing arguments");
	if (!(r->deadline > 0) || !isfinite(r->deadline) ||
	    !(r->requested > 0) || !isfinite(r->requested) ||
	    !(p->capacity > 0) || !isfinite(p->capacity) ||
	    !(r->queued >= 0) || !isfinite(r->queued) ||
	    !(r->run_cap >= 0) || !isfinite(r->run_cap) ||
	    !(r->claim >= 0) || !isfinite(r->claim))
		return err_set(err, -EINVAL,
			       "justice: a job needs a deadline window and size > 0, a queue time, run cap and claim >= 0 and a cluster of > 0 CPUs");
	e.max_cpus = fmin(r->requested, p->capacity);
	e.req_cpus = e.max_cpus;
	e.ttd = r->deadline - r->queued;
	if (r->run_cap > 0 && r->run_cap < e.ttd)
		e.ttd = r->run_cap;
	e.fraction = 1;
	switch (p->policy) {
	case JUSTICE_POLICY_BASELINE_FS:
	case JUSTICE_POLICY_REACTIVE_FS:
		e.verdict = JUSTICE_FEASIBLE;
		break;
	case JUSTICE_POLICY_ORACLE:
		/* The exact need over the time left. */
		f = e.ttd > 0 ? r->need / e.ttd / e.max_cpus : INFINITY;
		e.fraction = f;
		e.req_cpus = fmax(ceil(f * e.max_cpus - 1e-9), 1);
		e.verdict = e.req_cpus > e.max_cpus ? JUSTICE_INFEASIBLE :
						      JUSTICE_FEASIBLE;
		if (e.verdict == JUSTICE_INFEASIBLE) {
			e.cpus_needed = e.req_cpus;
			e.deadline_ok = r->queued + r->need / e.max_cpus;
		}
		break;
	case JUSTICE_POLICY_JUSTICE:
	default:
		if (justice_history_count(h) < 2 ||
		    justice_history_count(h) < p->bootstrap) {
			e.verdict = JUSTICE_BOOTSTRAP;
			break;
		}
		f = _fraction(h);
		/* The queue stretch D / (D - q), with D the job's effective
		 * window: cut short by run_cap, the job has q + ttd (the
		 * history learns the same, justice_history_track()), so a
		 * job is never refused at q = 0, as in the paper. */
		e.fraction = e.ttd > 0 ? f * (r->queued + e.ttd) / e.ttd :
					 INFINITY;
		e.req_cpus = isfinite(e.fraction) ?
				     fmax(ceil(e.fraction * e.max_cpus - 1e-9),
					  1) :
				     INFINITY;
		e.verdict = e.req_cpus > e.max_cpus ? JUSTICE_INFEASIBLE :
						      JUSTICE_FEASIBLE;
		if (e.verdict == JUSTICE_INFEASIBLE)
			_what_would_do(&e, r, f);
		break;
	}
	if (e.verdict != JUSTICE_INFEASIBLE && e.ttd > 0)
		e.priority = e.req_cpus / e.ttd;
	e.size_cpus = e.req_cpus;
	if (e.verdict != JUSTICE_INFEASIBLE && r->claim > 0 && e.ttd > 0)
		e.size_cpus = fmax(e.req_cpus,
				   fmin(e.max_cpus,
					ceil(r->claim / e.ttd - 1e-9)));
	*out = e;
	return 0;
}

double justice_offers(const double *req_cpus, size_t n, double free_cpus,
		      double *offers)
{
	for (size_t i = 0; i < n; i++) {
		if (req_cpus[i] <= free_cpus) {
			offers[i] = req_cpus[i];
			free_cpus -= req_cpus[i];
		} else {
			offers[i] = 0;
		}
	}
	return free_cpus;
}

typedef struct keyed {
	double key;
	size_t i;
} keyed_t;

static int _by_key(const void *a, const void *b)
{
	const keyed_t *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int justice_order(const justice_estimate_t *est, size_t n, size_t *order)
{
	return justice_order_by(est, n, JUSTICE_ORDER_JUSTICE, order);
}

int justice_order_by(const justice_estimate_t *est, size_t n,
		     justice_order_kind_t kind, size_t *order)
{
	keyed_t *k = malloc((n ? n : 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		k[i].i = i;
		k[i].key = est[i].verdict == JUSTICE_INFEASIBLE ? INFINITY :
			   kind == JUSTICE_ORDER_DEADLINE    ? est[i].ttd :
							       est[i].priority;
	}
	qsort(k, n, sizeof(*k), _by_key);
	for (size_t i = 0; i < n; i++)
		order[i] = k[i].i;
	free(k);
	return 0;
}

bool justice_kill_late(double now, double deadline, double cpus,
		       double kill_above)
{
	return now > deadline && cpus > kill_above;
}

/* Within a microsecond of a whole minute is that minute: a window made by
 * adding whole minutes to a time in floating point (deadline_ok) may come
 * back a rounding short of them. */
#define RUN_CAP_SLACK 1e-6

double justice_run_cap(double left)
{
	if (left + RUN_CAP_SLACK < 60)
		return fmax(left, 1);
	return floor((left + RUN_CAP_SLACK) / 60) * 60;
}

long justice_size(double req_cpus, double per_unit, long min_units,
		  long max_units)
{
	double n;

	if (!(per_unit > 0))
		return min_units;
	/* 1e-9: a quotient a hair above a whole unit is that unit */
	n = ceil(req_cpus / per_unit - 1e-9);
	if (!(n >= min_units))
		return min_units;
	return n > max_units ? max_units : (long)n;
}
