/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia.c - progress shares.  See eunomia.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "eunomia.h"
#include "hmrf.h"

double eunomia_progress_share(double progress, double monopoly, double weight)
{
	if (!(monopoly > 0) || !(weight > 0))
		return 0;
	return progress / (monopoly * weight);
}

double eunomia_gap(double share, double fair)
{
	return fair > 0 ? (fair - share) / fair : 0;
}

static double _monopoly(const eunomia_account_t *a, double monopoly)
{
	return a->monopoly > 0 ? a->monopoly : monopoly;
}

double eunomia_account_share(const eunomia_account_t *a, double monopoly)
{
	return eunomia_progress_share(a->progress, _monopoly(a, monopoly),
				      a->weight);
}

double eunomia_expected_rate(double cpus, double constraint_speed,
			     double monopoly_rate, double total_cpus)
{
	double speed = 1;

	if (!(cpus > 0) || !isfinite(cpus))
		return 0;
	if (constraint_speed > 0 && isfinite(constraint_speed))
		speed = constraint_speed;
	else if (monopoly_rate > 0 && total_cpus > 0 &&
		 isfinite(monopoly_rate / total_cpus))
		speed = monopoly_rate / total_cpus;
	return cpus * speed;
}

double eunomia_charge_span(double run, double horizon, double period)
{
	double span = run;

	if (!(run > 0))
		return 0;
	if (horizon > 0 && horizon < span)
		span = horizon;
	if (period > 0 && period < span)
		span = period;
	return span;
}

double eunomia_fair_share(const eunomia_account_t *accts, int nacct,
			  double monopoly)
{
	double x = 0, wf = 0;

	for (int a = 0; accts && a < nacct; a++) {
		if (!accts[a].active || !(accts[a].weight > 0))
			continue;
		x += accts[a].progress;
		wf += accts[a].weight * _monopoly(&accts[a], monopoly);
	}
	return wf > 0 ? x / wf : 0;
}

struct eunomia_ranker {
	hmrf_ranker_t *r[2]; /* the runnable jobs, then the others */
	hmrf_job_t *hj[2];   /* their form for H-MRF, kept for r */
	size_t *idx[2];	     /* their indices in the caller's jobs[] */
	int cur;	     /* the group being given */
	size_t last;	     /* its job given last, in its group */
};

void eunomia_ranker_destroy(eunomia_ranker_t **rp)
{
	eunomia_ranker_t *r = rp ? *rp : NULL;

	if (!r)
		return;
	for (int g = 0; g < 2; g++) {
		hmrf_ranker_destroy(&r->r[g]);
		free(r->hj[g]);
		free(r->idx[g]);
	}
	free(r);
	*rp = NULL;
}

/* Group g's ranker (g = 0: the runnable jobs; 1: the others) over the
 * accounts in H-MRF's form.  Returns 0, or -errno (err says what). */
static int _group_ranker(eunomia_ranker_t *r, int g, const hmrf_account_t *ha,
			 int nacct, double monopoly, const eunomia_job_t *jobs,
			 const size_t *count, size_t njobs, horae_err_t *err)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_LT_AF, .horizon = INFINITY };
	size_t m = njobs ? njobs : 1, n = 0, *cnt = NULL;

	r->hj[g] = malloc(m * sizeof(*r->hj[g]));
	r->idx[g] = malloc(m * sizeof(*r->idx[g]));
	if (count)
		cnt = malloc(m * sizeof(*cnt));
	if (!r->hj[g] || !r->idx[g] || (count && !cnt)) {
		free(cnt);
		return err_set(err, -ENOMEM, "out of memory");
	}
	tres_zero(&p.capacity);
	p.capacity.v[0] = monopoly;
	for (size_t j = 0; j < njobs; j++) {
		if (jobs[j].runnable != !g)
			continue;
		tres_zero(&r->hj[g][n].tres);
		r->hj[g][n].account = jobs[j].account;
		r->hj[g][n].tres.v[0] = jobs[j].rate;
		r->hj[g][n].duration = jobs[j].duration;
		if (cnt)
			cnt[n] = count[j];
		r->idx[g][n++] = j;
	}
	r->r[g] = hmrf_ranker_create(&p, ha, nacct, r->hj[g], cnt, n, err);
	free(cnt);
	return r->r[g] ? 0 : errno == ENOMEM ? -ENOMEM : -EINVAL;
}

eunomia_ranker_t *eunomia_ranker_create(const eunomia_account_t *accts,
					int nacct, double monopoly,
					const eunomia_job_t *jobs,
					const size_t *count, size_t njobs,
					horae_err_t *err)
{
	eunomia_ranker_t *r = NULL;
	hmrf_account_t *ha = NULL;
	int rc = 0;

	if (nacct < 0 || (nacct && !accts) || (njobs && !jobs))
		rc = err_set(err, -EINVAL, "eunomia rank: missing arguments");
	else if (!(monopoly > 0) || !isfinite(monopoly))
		rc = err_set(err, -EINVAL,
			     "eunomia rank: monopoly progress %g must be > 0",
			     monopoly);
	for (size_t j = 0; !rc && j < njobs; j++)
		if (!(jobs[j].rate >= 0) || !isfinite(jobs[j].rate))
			rc = err_set(err, -EINVAL,
				     "eunomia rank: job %zu has rate %g", j,
				     jobs[j].rate);
	if (rc)
		goto cleanup;
	ha = calloc(nacct ? nacct : 1, sizeof(*ha));
	r = calloc(1, sizeof(*r));
	if (!ha || !r) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	for (int a = 0; a < nacct; a++) {
		/* x / (w f_a) = x / ((w f_a / f) f): fold an account's own
		 * monopoly into its weight. */
		ha[a].weight = accts[a].weight *
			       _monopoly(&accts[a], monopoly) / monopoly;
		ha[a].used.v[0] = accts[a].progress;
	}
	for (int g = 0; g < 2 && !rc; g++)
		rc = _group_ranker(r, g, ha, nacct, monopoly, jobs, count,
				   njobs, err);
cleanup:
	free(ha);
	if (rc) {
		eunomia_ranker_destroy(&r);
		errno = -rc;
	}
	return r;
}

int eunomia_ranker_next(eunomia_ranker_t *r, size_t *job)
{
	size_t k;

	if (!r || !job)
		return -EINVAL;
	for (; r->cur < 2; r->cur++) {
		if (hmrf_ranker_next(r->r[r->cur], &k))
			continue;
		r->last = k;
		*job = r->idx[r->cur][k];
		return 0;
	}
	return -ENOENT;
}

int eunomia_ranker_skip(eunomia_ranker_t *r, size_t job)
{
	if (!r || r->cur >= 2 || r->idx[r->cur][r->last] != job)
		return -EINVAL;
	return hmrf_ranker_skip(r->r[r->cur], r->last);
}

int eunomia_rank(const eunomia_account_t *accts, int nacct, double monopoly,
		 const eunomia_job_t *jobs, size_t njobs, size_t *order,
		 horae_err_t *err)
{
	eunomia_ranker_t *r;
	size_t k = 0;

	if (njobs && !order)
		return err_set(err, -EINVAL, "eunomia rank: missing arguments");
	r = eunomia_ranker_create(accts, nacct, monopoly, jobs, NULL, njobs,
				  err);
	if (!r)
		return -errno;
	while (k < njobs && !eunomia_ranker_next(r, &order[k]))
		k++;
	eunomia_ranker_destroy(&r);
	return 0;
}
