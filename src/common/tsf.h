/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tsf.h - Task-Share Fairness (TSF, Wang et al., SC'16, as Eunomia and
 * psdsf-progressive-filling.md compare against it): an account's task share
 * is the number of tasks it runs over the number it could run if it had the
 * whole cluster to itself, respecting its placement constraints (its
 * monopoly), s_i = x_i / (w_i m_i); TSF equalises task shares by
 * progressive filling.  An account pinned to a few nodes has a small
 * monopoly, so each of its tasks counts for more.
 *
 * Units: tasks are counts (doubles, so that one entry may stand for a
 * fraction or a batch); demands and capacities are TRES vectors (tres.h).
 */
#ifndef HORAE_TSF_H
#define HORAE_TSF_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "tres.h"

/*
 * How many tasks of demand the eligible nodes would hold if they were
 * empty: the sum over the nodes i with eligible[i] (eligible NULL: every
 * node) of floor(min over the slots with demand > 0 of
 * capacity[i] / demand).  A slot the task does not demand never limits it.
 * capacity has nnodes entries; nnodes 0 gives 0.
 * Returns 0 with *out set, or -EINVAL (NULL demand or out, NULL capacity
 * with nnodes > 0, an all-zero demand, a negative or non-finite slot);
 * *out is untouched on failure.
 */
int tsf_monopoly_tasks(const tres_vec_t *demand, const tres_vec_t *capacity,
		       const bool *eligible, size_t nnodes, double *out);

typedef struct tsf_account {
	double weight; /* w_i, > 0 */
	double running; /* tasks it runs now, >= 0 */
	double monopoly; /* tsf_monopoly_tasks() of its task, > 0 */
} tsf_account_t;

typedef struct tsf_job {
	int account; /* index into the accounts */
	double tasks; /* tasks this entry stands for, usually 1; >= 0 */
	double duration; /* expected run time, s: finite, >= 0 */
} tsf_job_t;

/*
 * Task share running / (weight x monopoly); 0 when a is NULL or its
 * monopoly or weight is not positive.
 */
double tsf_share(const tsf_account_t *a);

/*
 * Rank the pending jobs in the order progressive filling would give them
 * out: repeatedly the account with the lowest task share (ties: the lower
 * index) gets its next job (an account's jobs keep their order in jobs[]),
 * whose tasks are added to the account's running count before the next
 * pick.  This is DRF over one synthetic resource, each account's monopoly
 * folded into its weight, so it is hmrf_rank() underneath.
 * order receives, for k = 0..njobs-1, the index in jobs[] of the k-th job.
 * Returns 0; -EINVAL with err naming the bad argument, account (weight or
 * monopoly not > 0, running < 0) or job (account out of range, tasks < 0,
 * bad duration); or -ENOMEM.  order is untouched on failure.
 */
int tsf_rank(const tsf_account_t *accts, int nacct, const tsf_job_t *jobs,
	     size_t njobs, size_t *order, horae_err_t *err);

/*
 * The same order one job at a time, for a caller that may stop early,
 * count[j] (when count is not NULL, >= 1) giving job j that many times in
 * a row, and skip charging the rest of the last job's repeats but one, as
 * hmrf_ranker_create, hmrf_ranker_next and hmrf_ranker_skip do (hmrf.h).
 * jobs[] is read at creation only.  tsf_ranker_create returns NULL with
 * errno EINVAL (err says what) or ENOMEM.
 */
typedef struct tsf_ranker tsf_ranker_t;

tsf_ranker_t *tsf_ranker_create(const tsf_account_t *accts, int nacct,
				const tsf_job_t *jobs, const size_t *count,
				size_t njobs, horae_err_t *err);
int tsf_ranker_next(tsf_ranker_t *r, size_t *job);
int tsf_ranker_skip(tsf_ranker_t *r, size_t job);
void tsf_ranker_destroy(tsf_ranker_t **r);

#endif /* HORAE_TSF_H */
