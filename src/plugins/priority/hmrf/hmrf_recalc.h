/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_recalc.h - translating slurmctld's job records to the core and back:
 * charging usage, ranking pending jobs, setting their priorities.
 *
 * Unless a function says otherwise, it expects the slurmctld job write lock
 * and the node and partition read locks, the assoc_mgr TRES and QOS read
 * locks, and the plugin's mutex, taken in that order.
 */
#ifndef HORAE_HMRF_RECALC_H
#define HORAE_HMRF_RECALC_H

#include "src/slurmctld/slurmctld.h"

#include "views.h"
#include "hmrf_ctx.h"

/* Where each charged TRES sits in slurmctld's TRES arrays, and what the
 * cluster has of it; refreshed at each recalculation. */
void hmrf_tres_refresh(hmrf_ctx_t *ctx);

/*
 * One full recalculation at time now, in five steps, so that the ranking,
 * the dear part, runs without slurmctld's locks and the walk of the jobs
 * with read locks alone:
 *
 * hmrf_recalc_gather(): tell the books what runs, what ended and what
 * waits; note the running jobs, and those that ended since the last
 * charge without their end charged (while slurmctld was down, or without
 * AccountingStorageEnforce=limits, when slurmctld does not tell the
 * plugin of a job's end), for hmrf_recalc_charge; note the pending jobs
 * (with the Eunomia weight, also read the associations, put the jobs in
 * order and work out their Eunomia factors, which read the job records).
 * It writes nothing of slurmctld's: job, node and partition read locks,
 * assoc_mgr's association, QOS and TRES read locks (so that squeue, which
 * reads them all, need not wait for it), and the plugin's mutex.  0, or
 * -ENOENT when slurmctld has no job list yet (nothing done).
 *
 * hmrf_recalc_close(): after a gather that returned 0, with slurmctld's
 * locks let go and assoc_mgr's kept: the contributions from the
 * associations as they are now, the books closed (the non-sharing
 * allocation charged).  assoc_mgr's association read lock, and the
 * plugin's mutex, held since the gather (so nothing reaches the books in
 * between).
 *
 * hmrf_recalc_rank(): put the pending jobs in order (unless the gather
 * did), rank them on the books, each account's factor for its next job,
 * the view sfair shows.  The plugin's mutex only, held since the gather
 * (so the books are as hmrf_recalc_close left them).
 *
 * hmrf_recalc_charge(): Slurm's association and QOS usage (hmrf_usage.h)
 * moved on to the gather's time and charged for the jobs it noted, as the
 * gather saw them (from the books' last charge to the gather's time), on
 * the records that are still theirs: a job whose end priority_p_job_end
 * charged meanwhile is not charged again; then what sshare shows
 * published.  After every gather that returned 0, before
 * hmrf_recalc_write, in the same hold: the job write and partition read
 * locks, assoc_mgr's association and QOS write and TRES read locks, and
 * the plugin's mutex.
 *
 * hmrf_recalc_write(): each pending job's priority and factors, for the
 * jobs that still wait in the same record (a job that started, ended or
 * was purged meanwhile is left alone; one submitted meanwhile got its
 * priority at submission).  Job write and partition read locks,
 * assoc_mgr's QOS read lock, and the plugin's mutex.
 */
int hmrf_recalc_gather(hmrf_ctx_t *ctx, time_t now);
void hmrf_recalc_close(hmrf_ctx_t *ctx);
void hmrf_recalc_rank(hmrf_ctx_t *ctx);
void hmrf_recalc_charge(hmrf_ctx_t *ctx);
void hmrf_recalc_write(hmrf_ctx_t *ctx);

/*
 * Under PrivateData=usage, the readers the last gather's walk met (each
 * job's user, of the job's account), begun for views_readers_finish()
 * (views.h); NULL when usage is not private or no gather has listed
 * them since the last call.  The gather only notes each job's user and
 * account index under slurmctld's locks; this makes the listing of them,
 * with the plugin's mutex alone (the books' account names).
 */
view_readers_t *hmrf_recalc_readers(hmrf_ctx_t *ctx);

/* Free what a recalculation keeps for the next; NULL-safe. */
void hmrf_recalc_scratch_destroy(struct hmrf_scratch **scratch);

/* A job's end as the books charge it; what it points to is lent. */
typedef struct hmrf_end {
	uint32_t job_id;
	uint32_t assoc_id;
	const char *account;
	const uint64_t *tres; /* its TRES allocated, slurmctld's order */
	uint32_t ntres;
	time_t start, end;
} hmrf_end_t;

/* The end of job_ptr, pointing into its record. */
hmrf_end_t hmrf_end_of(const job_record_t *job_ptr);

/* A job's end charged to Slurm's usage from charged (where its last
 * charge ended): the job write lock and assoc_mgr's association and
 * QOS write and TRES read locks; not the plugin's mutex. */
void hmrf_job_end_usage(job_record_t *job_ptr, double charged);

/* A job's end charged to the books: the plugin's mutex and the TRES known
 * (ctx->tres_known); needs no slurmctld or assoc_mgr lock. */
void hmrf_job_end_books(hmrf_ctx_t *ctx, const hmrf_end_t *end);

/* Priority of one job whose H-MRF factor is factor and Eunomia factor
 * eunomia (hmrf_eunomia.h) under weights w on a cluster of cluster_cpus;
 * fills its factors.  The job write lock; not the plugin's mutex. */
uint32_t hmrf_job_priority(const prio_weights_t *w, double cluster_cpus,
			   job_record_t *job_ptr, double factor, double eunomia,
			   time_t now);

/* The CPUs the cluster has, as the last recalculation counted them. */
double hmrf_cluster_cpus(const hmrf_ctx_t *ctx);

#endif /* HORAE_HMRF_RECALC_H */
