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

/* Rank the jobs of one group (runnable or not) into order. */
static int _rank_group(const hmrf_account_t *ha, int nacct, double monopoly,
		       const eunomia_job_t *jobs, size_t njobs, bool runnable,
		       size_t *order, size_t *k, horae_err_t *err)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_LT_AF, .horizon = INFINITY };
	hmrf_job_t *hj = malloc((njobs ? njobs : 1) * sizeof(*hj));
	size_t *idx = malloc((njobs ? njobs : 1) * sizeof(*idx));
	size_t *sub = malloc((njobs ? njobs : 1) * sizeof(*sub));
	size_t n = 0;
	int rc;

	if (!hj || !idx || !sub) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	tres_zero(&p.capacity);
	p.capacity.v[0] = monopoly;
	for (size_t j = 0; j < njobs; j++) {
		if (jobs[j].runnable != runnable)
			continue;
		tres_zero(&hj[n].tres);
		hj[n].account = jobs[j].account;
		hj[n].tres.v[0] = jobs[j].rate;
		hj[n].duration = jobs[j].duration;
		idx[n++] = j;
	}
	rc = hmrf_rank(&p, ha, nacct, hj, n, sub, err);
	for (size_t i = 0; !rc && i < n; i++)
		order[(*k)++] = idx[sub[i]];
cleanup:
	free(hj);
	free(idx);
	free(sub);
	return rc;
}

int eunomia_rank(const eunomia_account_t *accts, int nacct, double monopoly,
		 const eunomia_job_t *jobs, size_t njobs, size_t *order,
		 horae_err_t *err)
{
	hmrf_account_t *ha;
	size_t k = 0, *tmp;
	int rc;

	if (nacct < 0 || (nacct && !accts) || (njobs && (!jobs || !order)))
		return err_set(err, -EINVAL, "eunomia rank: missing arguments");
	if (!(monopoly > 0) || !isfinite(monopoly))
		return err_set(err, -EINVAL,
			       "eunomia rank: monopoly progress %g must be > 0",
			       monopoly);
	for (size_t j = 0; j < njobs; j++)
		if (!(jobs[j].rate >= 0) || !isfinite(jobs[j].rate))
			return err_set(err, -EINVAL,
				       "eunomia rank: job %zu has rate %g", j,
				       jobs[j].rate);
	ha = calloc(nacct ? nacct : 1, sizeof(*ha));
	tmp = malloc((njobs ? njobs : 1) * sizeof(*tmp));
	if (!ha || !tmp) {
		free(ha);
		free(tmp);
		return err_set(err, -ENOMEM, "out of memory");
	}
	for (int a = 0; a < nacct; a++) {
		/* x / (w f_a) = x / ((w f_a / f) f): fold an account's own
		 * monopoly into its weight. */
		ha[a].weight = accts[a].weight *
			       _monopoly(&accts[a], monopoly) / monopoly;
		ha[a].used.v[0] = accts[a].progress;
	}
	rc = _rank_group(ha, nacct, monopoly, jobs, njobs, true, tmp, &k, err);
	if (!rc)
		rc = _rank_group(ha, nacct, monopoly, jobs, njobs, false, tmp,
				 &k, err);
	if (!rc)
		for (size_t i = 0; i < njobs; i++)
			order[i] = tmp[i];
	free(ha);
	free(tmp);
	return rc;
}
