/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_seed.c - see hmrf_seed.h.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurmdb.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "horae_compat.h"
#include HORAE_INC_ACCT_STORAGE
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "hmrf_recalc.h"
#include "hmrf_seed.h"

extern const char plugin_type[];

/* Give up after this many periods without an answer from slurmdbd. */
#define SEED_TRIES 20

/* The TRES id of each slot, -1 for none. */
static void _ids(hmrf_ctx_t *ctx, pthread_mutex_t *mutex, int *ids)
{
	assoc_mgr_lock_t locks = { .tres = READ_LOCK };
	int n;

	assoc_mgr_lock(&locks);
	slurm_mutex_lock(mutex);
	n = tres_layout_count(ctx->layout);
	if (!ctx->tres_known)
		hmrf_tres_refresh(ctx);
	for (int i = 0; i < n; i++) {
		int p = ctx->tres_pos[i];

		ids[i] = p >= 0 && p < (int)g_tres_count &&
					 assoc_mgr_tres_array ?
				 (int)assoc_mgr_tres_array[p]->id :
				 -1;
	}
	slurm_mutex_unlock(mutex);
	assoc_mgr_unlock(&locks);
}

/* "id=count,..." as a vector over the slots. */
static tres_vec_t _alloc(const char *s, const int *ids, int n)
{
	tres_vec_t v;

	tres_zero(&v);
	while (s && *s) {
		char *end;
		long id = strtol(s, &end, 10);
		double count;

		if (*end != '=')
			break;
		count = strtod(end + 1, &end);
		for (int i = 0; i < n; i++)
			if (ids[i] == id && isfinite(count) && count >= 0)
				v.v[i] = count;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return v;
}

void hmrf_seed(hmrf_ctx_t *ctx, pthread_mutex_t *mutex)
{
	slurmdb_job_cond_t cond = { 0 };
	slurmdb_job_rec_t *job;
	list_itr_t *it;
	list_t *jobs;
	double from, to;
	int ids[TRES_MAX], n, charged = 0;

	slurm_mutex_lock(mutex);
	to = ctx->seed_to;
	if (!(to > 0) || hmrf_books_seed_span(ctx->books, to, &from))
		from = to;
	n = tres_layout_count(ctx->layout);
	slurm_mutex_unlock(mutex);
	if (!(to > 0))
		return;
	if (!isfinite(from) || from >= to ||
	    !slurm_conf.accounting_storage_type ||
	    !strcmp(slurm_conf.accounting_storage_type,
		    "accounting_storage/none")) {
		slurm_mutex_lock(mutex);
		ctx->seed_to = 0; /* nothing to ask, or nobody to ask */
		slurm_mutex_unlock(mutex);
		return;
	}
	_ids(ctx, mutex, ids);
	cond.cluster_list = list_create(NULL);
	list_append(cond.cluster_list, slurm_conf.cluster_name);
	cond.usage_start = (time_t)from;
	cond.usage_end = (time_t)ceil(to);
	/* As sacct asks: any job flags, start and end as they were (we clip
	 * them to the window ourselves). */
	cond.db_flags = SLURMDB_JOB_FLAG_NOTSET;
	cond.flags = JOBCOND_FLAG_NO_STEP | JOBCOND_FLAG_NO_TRUNC;
	/* Not connected yet at the very start: a retry. */
	jobs = acct_db_conn ?
		       jobacct_storage_g_get_jobs_cond(
			       acct_db_conn, slurm_conf.slurm_user_id, &cond) :
		       NULL;
	FREE_NULL_LIST(cond.cluster_list);
	slurm_mutex_lock(mutex);
	if (!jobs) {
		if (++ctx->seed_tries >= SEED_TRIES) {
			error("%s: slurmdbd did not give the jobs of the window in %d tries; the usage before %.0f is lost",
			      plugin_type, ctx->seed_tries, to);
			ctx->seed_to = 0;
		}
		slurm_mutex_unlock(mutex);
		return;
	}
	it = list_iterator_create(jobs);
	while ((job = list_next(it))) {
		tres_vec_t v;
		int a;

		if (!job->start || !job->account)
			continue;
		a = hmrf_ctx_account(ctx, job->account);
		v = _alloc(job->tres_alloc_str, ids, n);
		if (a >= 0 && hmrf_books_seed(ctx->books, a, &v,
					      (double)job->start,
					      (double)job->end, from, to) > 0)
			charged++;
	}
	list_iterator_destroy(it);
	FREE_NULL_LIST(jobs);
	ctx->seed_to = 0;
	info("%s: no saved usage: rebuilt the window's from %d jobs slurmdbd recorded over [%.0f, %.0f]",
	     plugin_type, charged, from, to);
	slurm_mutex_unlock(mutex);
}
