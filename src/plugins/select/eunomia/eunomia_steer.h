/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_steer.h - steering cons_tres's choice of nodes: each candidate
 * node is scored by the core (placement.c) for the job's per-node demand
 * against the node's idle resources, and its rank written into the low
 * byte of node_ptr->sched_weight, which slurmctld leaves at 0xff and
 * cons_tres reads as "lowest first" after the admin's Weight (the higher
 * bits, untouched).  The caller restores the weights after cons_tres's
 * job_test, so backfill, which does not reset them, sees the truth.
 *
 * Called inside select_p_job_test, with the locks slurmctld holds for it
 * (job write, node write or read).
 */
#ifndef HORAE_EUNOMIA_STEER_H
#define HORAE_EUNOMIA_STEER_H

#include "src/slurmctld/slurmctld.h"

#include "common/placement.h"
#include "eunomia_progress.h"

/*
 * Set the candidates' sched_weight low bytes for job_ptr under prog's
 * Placement (for eunomia, by the job's account's progress gap);
 * the previous values go to *saved (xfree'd by eunomia_steer_restore).
 * Returns the number of candidates steered.
 */
int eunomia_steer(eunomia_progress_t *prog, job_record_t *job_ptr,
		  bitstr_t *candidates, uint64_t **saved);

/* Put back what eunomia_steer changed (job_test rewrites the candidate
 * bitmap, so this goes by *saved alone). */
void eunomia_steer_restore(uint64_t **saved);

#endif /* HORAE_EUNOMIA_STEER_H */
