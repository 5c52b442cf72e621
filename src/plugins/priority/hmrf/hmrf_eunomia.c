/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_eunomia.c - the Eunomia factor.  See hmrf_eunomia.h.  The order is
 * the core's (eunomia_rank); this file gathers the inputs.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/read_config.h"
#include "horae_compat.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/eunomia.h"
#include "common/names.h"
#include "common/prio.h"
#include "hmrf_eunomia.h"
#include "progress_info.h"

extern const char plugin_type[];

bool hmrf_eunomia_available(void)
{
	return !xstrcmp(slurm_conf.select_type, "select/eunomia");
}

static void _all_ones(hmrf_ctx_t *ctx, size_t npend, double *factor)
{
	for (size_t i = 0; i < npend; i++)
		factor[i] = 1.0;
	for (int a = 0; a < ctx->next_cap; a++)
		ctx->next_eunomia[a] = 1.0;
}

/* Index of account name among the progress accounts, adding it with the
 * default weight (no progress yet) when select/eunomia has not seen it. */
static int _account(names_t *idx, eunomia_account_t **acct, int *cap,
		    double weight, const char *name)
{
	int n = names_count(idx), a = names_intern(idx, name ? name : "");

	if (a < 0)
		return -1;
	if (a >= n) { /* new */
		if (a >= *cap) {
			*cap = *cap ? *cap * 2 : 16;
			xrecalloc(*acct, *cap, sizeof(**acct));
		}
		(*acct)[a].weight = weight;
	}
	return a;
}

void hmrf_eunomia_factors(hmrf_ctx_t *ctx, job_record_t **pend, size_t npend,
			  const double *duration, double *factor)
{
	static bool warned;
	const progress_ops_t *ops = progress_ops_find();
	progress_info_t info = { 0 };
	names_t *idx = NULL;
	eunomia_account_t *acct = NULL;
	eunomia_job_t *jobs = NULL;
	size_t *order = NULL, njobs = 0, done = 0;
	int nhmrf = hmrf_books_count(ctx->books), cap, *probe_of = NULL;
	horae_err_t err;

	if (!ops || ops->export(&info) || !(info.monopoly > 0)) {
		if (!warned)
			error("%s: select/eunomia gave no progress shares; the Eunomia factor is 1 for every job until it does",
			      plugin_type);
		warned = true;
		_all_ones(ctx, npend, factor);
		goto cleanup;
	}
	warned = false;
	idx = names_create();
	cap = info.count;
	acct = xcalloc(cap ? cap : 1, sizeof(*acct));
	for (int a = 0; a < info.count; a++) {
		names_intern(idx, info.name[a]);
		acct[a] = info.acct[a];
	}
	jobs = xcalloc(npend + nhmrf + 1, sizeof(*jobs));
	order = xcalloc(npend + nhmrf + 1, sizeof(*order));
	probe_of = xcalloc(nhmrf + 1, sizeof(int));
	for (size_t i = 0; i < npend; i++) {
		double rate = ops->job_rate(pend[i]);

		jobs[njobs].account = _account(idx, &acct, &cap,
					       info.default_weight,
					       pend[i]->account);
		jobs[njobs].rate = rate;
		jobs[njobs].duration = duration[i];
		jobs[njobs++].runnable = true;
	}
	/* A zero-size probe per account of ours finds where its next job
	 * would go (priority_p_set between recalculations). */
	for (int a = 0; a < nhmrf; a++) {
		jobs[njobs].account = _account(idx, &acct, &cap,
					       info.default_weight,
					       hmrf_books_name(ctx->books, a));
		jobs[njobs].runnable = true;
		probe_of[njobs - npend] = a;
		njobs++;
	}
	if (eunomia_rank(acct, names_count(idx), info.monopoly, jobs, njobs,
			 order, &err)) {
		error("%s: Eunomia order failed: %s", plugin_type, err.text);
		_all_ones(ctx, npend, factor);
		goto cleanup;
	}
	for (size_t k = 0; k < njobs; k++) {
		size_t j = order[k];

		if (j >= npend)
			ctx->next_eunomia[probe_of[j - npend]] =
				prio_rank_factor(done, npend);
		else
			factor[j] = prio_rank_factor(done++, npend);
	}
cleanup:
	progress_info_free(&info);
	names_destroy(&idx);
	xfree(acct);
	xfree(jobs);
	xfree(order);
	xfree(probe_of);
}
