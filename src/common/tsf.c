/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tsf.c - Task-Share Fairness.  See tsf.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "hmrf.h"
#include "tsf.h"

static bool _finite_nonneg(double x)
{
	return x >= 0 && isfinite(x);
}

static bool _vec_ok(const tres_vec_t *v)
{
	for (int r = 0; r < TRES_MAX; r++)
		if (!_finite_nonneg(v->v[r]))
			return false;
	return true;
}

/* Tasks of demand d that capacity c holds. */
static double _fit(const tres_vec_t *d, const tres_vec_t *c)
{
	double n = INFINITY;

	for (int r = 0; r < TRES_MAX; r++)
		if (d->v[r] > 0)
			n = fmin(n, floor(c->v[r] / d->v[r]));
	return n;
}

int tsf_monopoly_tasks(const tres_vec_t *demand, const tres_vec_t *capacity,
		       const bool *eligible, size_t nnodes, double *out)
{
	double sum = 0;

	if (!demand || !out || (nnodes && !capacity))
		return -EINVAL;
	if (!_vec_ok(demand) || tres_is_zero(demand))
		return -EINVAL;
	for (size_t i = 0; i < nnodes; i++)
		if (!_vec_ok(&capacity[i]))
			return -EINVAL;
	for (size_t i = 0; i < nnodes; i++)
		if (!eligible || eligible[i])
			sum += _fit(demand, &capacity[i]);
	*out = sum;
	return 0;
}

double tsf_share(const tsf_account_t *a)
{
	if (!a || !(a->weight > 0) || !(a->monopoly > 0))
		return 0;
	return a->running / (a->weight * a->monopoly);
}

static int _check(const tsf_account_t *accts, int nacct, const tsf_job_t *jobs,
		  size_t njobs, horae_err_t *err)
{
	if (nacct < 0 || (nacct && !accts) || (njobs && !jobs))
		return err_set(err, -EINVAL, "tsf rank: missing arguments");
	for (int a = 0; a < nacct; a++) {
		const tsf_account_t *t = &accts[a];

		if (!(t->weight > 0) || !isfinite(t->weight) ||
		    !(t->monopoly > 0) || !isfinite(t->weight * t->monopoly))
			return err_set(
				err, -EINVAL,
				"tsf rank: account %d has weight %g and monopoly %g; both must be finite and > 0",
				a, t->weight, t->monopoly);
		if (!_finite_nonneg(t->running))
			return err_set(err, -EINVAL,
				       "tsf rank: account %d runs %g tasks", a,
				       t->running);
	}
	for (size_t j = 0; j < njobs; j++) {
		if (jobs[j].account < 0 || jobs[j].account >= nacct)
			return err_set(
				err, -EINVAL,
				"tsf rank: job %zu names account %d of %d", j,
				jobs[j].account, nacct);
		if (!_finite_nonneg(jobs[j].tasks))
			return err_set(err, -EINVAL,
				       "tsf rank: job %zu stands for %g tasks",
				       j, jobs[j].tasks);
		if (!_finite_nonneg(jobs[j].duration))
			return err_set(
				err, -EINVAL,
				"tsf rank: job %zu has duration %g; it must be finite and >= 0",
				j, jobs[j].duration);
	}
	return 0;
}

struct tsf_ranker {
	hmrf_ranker_t *r;
};

void tsf_ranker_destroy(tsf_ranker_t **rp)
{
	tsf_ranker_t *r = rp ? *rp : NULL;

	if (!r)
		return;
	hmrf_ranker_destroy(&r->r);
	free(r);
	*rp = NULL;
}

tsf_ranker_t *tsf_ranker_create(const tsf_account_t *accts, int nacct,
				const tsf_job_t *jobs, const size_t *count,
				size_t njobs, horae_err_t *err)
{
	/* One resource of capacity 1: DRF's dominant share running / 1 / w'
	 * is the task share when w' = w x monopoly.  DRF charges running
	 * only, so the horizon does not matter. */
	hmrf_params_t p = { .policy = HMRF_POLICY_DRF, .horizon = INFINITY };
	hmrf_account_t *ha = NULL;
	hmrf_job_t *hj = NULL; /* the jobs in H-MRF's form, for creation */
	tsf_ranker_t *r = NULL;
	int rc;

	rc = _check(accts, nacct, jobs, njobs, err);
	if (rc)
		goto cleanup;
	tres_zero(&p.capacity);
	p.capacity.v[0] = 1;
	ha = calloc(nacct ? (size_t)nacct : 1, sizeof(*ha));
	r = calloc(1, sizeof(*r));
	hj = calloc(njobs ? njobs : 1, sizeof(*hj));
	if (!ha || !r || !hj) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	for (int a = 0; a < nacct; a++) {
		ha[a].weight = accts[a].weight * accts[a].monopoly;
		ha[a].running.v[0] = accts[a].running;
	}
	for (size_t j = 0; j < njobs; j++) {
		hj[j].account = jobs[j].account;
		hj[j].tres.v[0] = jobs[j].tasks;
		hj[j].duration = jobs[j].duration;
	}
	r->r = hmrf_ranker_create(&p, ha, nacct, hj, count, njobs, err);
	if (!r->r)
		rc = errno == ENOMEM ? -ENOMEM : -EINVAL;
cleanup:
	free(ha);
	free(hj);
	if (rc) {
		tsf_ranker_destroy(&r);
		errno = -rc;
	}
	return r;
}

int tsf_ranker_next(tsf_ranker_t *r, size_t *job)
{
	return r ? hmrf_ranker_next(r->r, job) : -EINVAL;
}

int tsf_ranker_skip(tsf_ranker_t *r, size_t job)
{
	return r ? hmrf_ranker_skip(r->r, job) : -EINVAL;
}

int tsf_rank(const tsf_account_t *accts, int nacct, const tsf_job_t *jobs,
	     size_t njobs, size_t *order, horae_err_t *err)
{
	tsf_ranker_t *r;
	size_t k = 0;

	if (njobs && !order)
		return err_set(err, -EINVAL, "tsf rank: missing arguments");
	r = tsf_ranker_create(accts, nacct, jobs, NULL, njobs, err);
	if (!r)
		return -errno;
	while (k < njobs && !tsf_ranker_next(r, &order[k]))
		k++;
	tsf_ranker_destroy(&r);
	return 0;
}
