/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia.c - progress shares.  See eunomia.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Rank the jobs as LT-AF over one resource, "progress", of capacity
 * monopoly (see eunomia_rank in eunomia.h). */
static void _params(hmrf_params_t *p, double monopoly)
{
	memset(p, 0, sizeof(*p));
	p->policy = HMRF_POLICY_LT_AF;
	p->horizon = INFINITY;
	p->capacity.v[0] = monopoly;
}

/* What eunomia_rank refuses (order aside).  Returns 0 or -EINVAL. */
static int _check(const eunomia_account_t *accts, int nacct, double monopoly,
		  const eunomia_job_t *jobs, size_t njobs, horae_err_t *err)
{
	if (nacct < 0 || (nacct && !accts) || (njobs && !jobs))
		return err_set(err, -EINVAL,
			       "eunomia rank: missing arguments");
	if (!(monopoly > 0) || !isfinite(monopoly))
		return err_set(err, -EINVAL,
			       "eunomia rank: monopoly progress %g must be > 0",
			       monopoly);
	for (size_t j = 0; j < njobs; j++)
		if (!(jobs[j].rate >= 0) || !isfinite(jobs[j].rate))
			return err_set(err, -EINVAL,
				       "eunomia rank: job %zu has rate %g", j,
				       jobs[j].rate);
	return 0;
}

/* The accounts in H-MRF's form, or NULL (ENOMEM). */
static hmrf_account_t *_accounts(const eunomia_account_t *accts, int nacct,
				 double monopoly)
{
	hmrf_account_t *ha = calloc(nacct ? nacct : 1, sizeof(*ha));

	for (int a = 0; ha && a < nacct; a++) {
		/* x / (w f_a) = x / ((w f_a / f) f): fold an account's own
		 * monopoly into its weight. */
		ha[a].weight = accts[a].weight *
			       _monopoly(&accts[a], monopoly) / monopoly;
		ha[a].used.v[0] = accts[a].progress;
	}
	return ha;
}

/* Group g of the jobs (0: the runnable ones; 1: the others) in H-MRF's
 * form into hj[], their indices in jobs[] into idx[] and, with count,
 * their counts into cnt[].  Returns how many. */
static size_t _group(const eunomia_job_t *jobs, const size_t *count,
		     size_t njobs, int g, hmrf_job_t *hj, size_t *idx,
		     size_t *cnt)
{
	size_t n = 0;

	for (size_t j = 0; j < njobs; j++) {
		if (jobs[j].runnable != !g)
			continue;
		tres_zero(&hj[n].tres);
		hj[n].account = jobs[j].account;
		hj[n].tres.v[0] = jobs[j].rate;
		hj[n].duration = jobs[j].duration;
		if (count)
			cnt[n] = count[j];
		idx[n++] = j;
	}
	return n;
}

struct eunomia_ranker {
	hmrf_ranker_t *r[2]; /* the runnable jobs, then the others */
	size_t *idx[2];	     /* their indices in the caller's jobs[] */
	int cur;	     /* the group being given */
	bool given;	     /* whether last holds a job */
	size_t last;	     /* its job given last, in its group */
};

void eunomia_ranker_destroy(eunomia_ranker_t **rp)
{
	eunomia_ranker_t *r = rp ? *rp : NULL;

	if (!r)
		return;
	for (int g = 0; g < 2; g++) {
		hmrf_ranker_destroy(&r->r[g]);
		free(r->idx[g]);
	}
	free(r);
	*rp = NULL;
}

/* Group g's ranker over the accounts in H-MRF's form.  Returns 0, or
 * -errno (err says what). */
static int _group_ranker(eunomia_ranker_t *r, int g, const hmrf_account_t *ha,
			 int nacct, double monopoly, const eunomia_job_t *jobs,
			 const size_t *count, size_t njobs, horae_err_t *err)
{
	size_t m = njobs ? njobs : 1, n, *cnt = NULL;
	hmrf_job_t *hj = malloc(m * sizeof(*hj)); /* read at creation */
	hmrf_params_t p;
	int rc;

	r->idx[g] = malloc(m * sizeof(*r->idx[g]));
	if (count)
		cnt = malloc(m * sizeof(*cnt));
	if (!hj || !r->idx[g] || (count && !cnt)) {
		free(hj);
		free(cnt);
		return err_set(err, -ENOMEM, "out of memory");
	}
	_params(&p, monopoly);
	n = _group(jobs, count, njobs, g, hj, r->idx[g], cnt);
	r->r[g] = hmrf_ranker_create(&p, ha, nacct, hj, cnt, n, err);
	rc = r->r[g] ? 0 : errno == ENOMEM ? -ENOMEM : -EINVAL;
	free(hj);
	free(cnt);
	return rc;
}

eunomia_ranker_t *eunomia_ranker_create(const eunomia_account_t *accts,
					int nacct, double monopoly,
					const eunomia_job_t *jobs,
					const size_t *count, size_t njobs,
					horae_err_t *err)
{
	eunomia_ranker_t *r = NULL;
	hmrf_account_t *ha = NULL;
	int rc;

	rc = _check(accts, nacct, monopoly, jobs, njobs, err);
	if (rc)
		goto cleanup;
	ha = _accounts(accts, nacct, monopoly);
	r = calloc(1, sizeof(*r));
	if (!ha || !r) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
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
	r->given = false;
	for (; r->cur < 2; r->cur++) {
		if (hmrf_ranker_next(r->r[r->cur], &k))
			continue;
		r->given = true;
		r->last = k;
		*job = r->idx[r->cur][k];
		return 0;
	}
	return -ENOENT;
}

int eunomia_ranker_skip(eunomia_ranker_t *r, size_t job)
{
	if (!r || !r->given || r->idx[r->cur][r->last] != job)
		return -EINVAL;
	return hmrf_ranker_skip(r->r[r->cur], r->last);
}

/* Group g of the jobs as a table (hmrf_job_table_t, one TRES: the
 * rate) into account[] and amounts[], their indices in jobs[] into
 * idx[].  Returns how many. */
static size_t _group_table(const eunomia_job_t *jobs, size_t njobs, int g,
			   int *account, double *amounts, size_t *idx)
{
	size_t n = 0;

	for (size_t j = 0; j < njobs; j++) {
		if (jobs[j].runnable != !g)
			continue;
		account[n] = jobs[j].account;
		amounts[2 * n] = jobs[j].duration;
		amounts[2 * n + 1] = jobs[j].rate;
		idx[n++] = j;
	}
	return n;
}

/* The whole order at once: hmrf_rank_table over each group (the plugins
 * rank every pending job each pass; it is hmrf_rank's order without its
 * per-job calls, and its table holds the one resource in 20 bytes a job
 * where hmrf_job_t's would take more than 140). */
int eunomia_rank(const eunomia_account_t *accts, int nacct, double monopoly,
		 const eunomia_job_t *jobs, size_t njobs, size_t *order,
		 horae_err_t *err)
{
	size_t m = njobs ? njobs : 1, k = 0;
	hmrf_account_t *ha = NULL;
	int *account = NULL;
	double *amounts = NULL;
	size_t *idx = NULL, *sub = NULL, *tmp = NULL;
	hmrf_job_table_t table = { .ntres = 1 };
	hmrf_params_t p;
	int rc;

	rc = _check(accts, nacct, monopoly, jobs, njobs, err);
	if (!rc && njobs && !order)
		rc = err_set(err, -EINVAL, "eunomia rank: missing arguments");
	if (rc)
		return rc;
	ha = _accounts(accts, nacct, monopoly);
	account = malloc(m * sizeof(*account));
	amounts = malloc(2 * m * sizeof(*amounts));
	idx = malloc(m * sizeof(*idx));
	sub = malloc(m * sizeof(*sub));
	tmp = malloc(m * sizeof(*tmp));
	if (!ha || !account || !amounts || !idx || !sub || !tmp) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	_params(&p, monopoly);
	table.account = account;
	table.amounts = amounts;
	for (int g = 0; g < 2 && !rc; g++) {
		table.n = _group_table(jobs, njobs, g, account, amounts, idx);
		rc = hmrf_rank_table(&p, ha, nacct, &table, sub, err);
		for (size_t i = 0; !rc && i < table.n; i++)
			tmp[k++] = idx[sub[i]];
	}
	if (!rc)
		memcpy(order, tmp, njobs * sizeof(*order));
cleanup:
	free(ha);
	free(account);
	free(amounts);
	free(idx);
	free(sub);
	free(tmp);
	return rc;
}
