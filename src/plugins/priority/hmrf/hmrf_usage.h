/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_usage.h - the usage Slurm keeps per association and QOS (raw and
 * per-TRES usage, group wall time, reserved run time), which GrpTRESMins,
 * GrpTRESRunMins, GrpWall-style limits and sshare read, kept as
 * priority/multifactor keeps it, by the rules of common/assoc_usage.h:
 * the same intervals priority/hmrf charges to its books, UsageFactor and
 * TRESBillingWeights applied, PriorityDecayHalfLife and
 * PriorityUsageResetPeriod honoured.
 *
 * Every function here needs assoc_mgr's association and QOS write locks
 * and its TRES read lock (asserted), and the slurmctld job lock.
 */
#ifndef HORAE_HMRF_USAGE_H
#define HORAE_HMRF_USAGE_H

#include "src/slurmctld/slurmctld.h"

#include "common/hmrf_books.h"

/*
 * Move all usage on from charged to now: reset it when a
 * PriorityUsageResetPeriod boundary falls in between, else decay it by
 * PriorityDecayHalfLife (QOS with the NoDecay flag keep theirs).
 */
void hmrf_usage_advance(double charged, double now);

/*
 * Charge job_ptr's run inside (charged, now] to its association and every
 * parent up to root, its QOS and its partition's QOS: TRES x seconds x
 * UsageFactor per TRES, billing x seconds x UsageFactor raw.  ended: the
 * job has ended, so the rest of its reserved run time is released too,
 * and it is never charged again.
 */
void hmrf_usage_charge(job_record_t *job_ptr, double charged, double now,
		       bool ended);

/*
 * What sshare shows: each association's normalised and effective usage
 * (its raw usage over root's) and its fair-share factor, the standing of
 * its account in H-MRF's order (hmrf_books_standing; 0 for an account the
 * books do not know).
 */
void hmrf_usage_publish(const hmrf_books_t *books);

/* Free what charging keeps between calls (at the plugin's fini, with no
 * charge under way). */
void hmrf_usage_fini(void);

#endif /* HORAE_HMRF_USAGE_H */
