/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_jobs.h - the Slurm side of Justice: job descriptors and records
 * in, decisions out.  The estimate, the admission and the order are the
 * core's (justice.h); this file reads sizes, deadlines and times and acts
 * on what the core decides.
 *
 * job_submit and job_modify are called with slurmctld's config, job, node
 * and partition locks held; justice_period needs the job and node write
 * locks (it ends jobs and frees their nodes); then the plugin's mutex.
 */
#ifndef HORAE_JUSTICE_JOBS_H
#define HORAE_JUSTICE_JOBS_H

#include "src/slurmctld/slurmctld.h"

#include "justice_ctx.h"

/*
 * A new job: one without a deadline passes untouched; one with a deadline
 * is checked (a deadline in the past or before its time limit ends is
 * refused), estimated, and refused (err_msg says why and what would be
 * feasible), admitted, or, with a node range, sized to just enough nodes.
 * Returns SLURM_SUCCESS or a Slurm error code.
 */
int justice_submit(justice_ctx_t *ctx, job_desc_msg_t *desc, uint32_t uid,
		   char **err_msg);

/* A change of a pending job's deadline or size: checked the same way,
 * counting the time it has already waited. */
int justice_modify(justice_ctx_t *ctx, job_desc_msg_t *desc,
		   job_record_t *job_ptr, char **err_msg);

/*
 * The period: learn from deadline jobs that finished since the last time,
 * drop pending ones that can no longer make their deadline, terminate
 * running ones past it that hold more than KillAbove CPUs, and give the
 * admitted pending ones their urgency (site factor).
 */
void justice_period(justice_ctx_t *ctx, time_t now);

#endif /* HORAE_JUSTICE_JOBS_H */
