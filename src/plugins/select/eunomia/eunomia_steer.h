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
 * What each node has allocated is cons_tres's view
 * (select_g_select_nodeinfo_set_all, which walks every node and every
 * partition row at each call).  The steer keeps it until told that
 * allocations may have changed (eunomia_steer_touch: a start, which
 * cons_tres records in select_nodeinfo_set, an end, a resize, a suspend, a
 * resume, nodes or configuration changed) or until
 * slurmctld's last_node_update moves, so that a scheduling cycle that
 * starts nothing reads it once, not once per job.
 *
 * Called inside select_p_job_test, with the locks slurmctld holds for it
 * (job write, node write); touch from any select_p_* call.
 */
#ifndef HORAE_EUNOMIA_STEER_H
#define HORAE_EUNOMIA_STEER_H

#include "src/slurmctld/slurmctld.h"

#include "common/placement.h"
#include "eunomia_progress.h"

typedef struct eunomia_steer eunomia_steer_t;

eunomia_steer_t *eunomia_steer_create(void);
void eunomia_steer_destroy(eunomia_steer_t **steer);

/* Allocations may have changed: the next steer reads them again. */
void eunomia_steer_touch(eunomia_steer_t *steer);

/*
 * Set the candidates' sched_weight low bytes for job_ptr under prog's
 * Placement (for eunomia, by the job's account's progress gap), keeping
 * the previous values for eunomia_steer_restore.  Returns the number of
 * candidates steered.
 */
int eunomia_steer_apply(eunomia_steer_t *steer, eunomia_progress_t *prog,
			job_record_t *job_ptr, bitstr_t *candidates);

/* Put back what eunomia_steer_apply changed (job_test rewrites the
 * candidate bitmap, so this goes by what was kept alone). */
void eunomia_steer_restore(eunomia_steer_t *steer);

#endif /* HORAE_EUNOMIA_STEER_H */
