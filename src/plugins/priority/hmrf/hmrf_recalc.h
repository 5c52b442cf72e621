/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_recalc.h - translating slurmctld's job records to the core and back:
 * charging usage, ranking pending jobs, setting their priorities.
 *
 * Every function here expects the slurmctld job write lock and the node and
 * partition read locks, the assoc_mgr TRES and QOS read locks, and the
 * plugin's mutex, taken in that order.
 */
#ifndef HORAE_HMRF_RECALC_H
#define HORAE_HMRF_RECALC_H

#include "src/slurmctld/slurmctld.h"

#include "hmrf_ctx.h"

/* Where each charged TRES sits in slurmctld's TRES arrays, and what the
 * cluster has of it; refreshed at each recalculation. */
void hmrf_tres_refresh(hmrf_ctx_t *ctx);

/*
 * One full recalculation at time now: charge running jobs up to now (and,
 * the first time after a restart, jobs that ran while slurmctld was down),
 * charge the non-sharing allocation, rank the pending jobs and set their
 * priorities and factors.
 */
void hmrf_recalc(hmrf_ctx_t *ctx, time_t now);

/* Free what hmrf_recalc keeps between recalculations; NULL-safe. */
void hmrf_recalc_scratch_destroy(struct hmrf_scratch **scratch);

/* Charge a job that just ended for the time since the last charge. */
void hmrf_job_end(hmrf_ctx_t *ctx, job_record_t *job_ptr);

/* Priority of one job whose H-MRF factor is factor and Eunomia factor
 * eunomia (hmrf_eunomia.h); fills its factors. */
uint32_t hmrf_job_priority(hmrf_ctx_t *ctx, job_record_t *job_ptr,
			   double factor, double eunomia, time_t now);

#endif /* HORAE_HMRF_RECALC_H */
