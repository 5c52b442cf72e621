/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * horae_compat.h - the differences between the Slurm releases the plugins
 * are built for, in one place (../shared/SLURM-PORT.md lists them).  Each
 * macro names what differs, so that the code says why it branches.
 */
#ifndef HORAE_COMPAT_H
#define HORAE_COMPAT_H

#include "slurm/slurm.h"

#include "slurmctld_only.h"

/* Slurm's list types are list_t and list_itr_t from 23.02 on, and the
 * List and ListIterator pointer typedefs went in 24.05 and 24.11; the
 * structs behind them never changed.  Horae writes the new names. */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

/* A job's details are job_details_t from 23.02 on (the struct lost its
 * tag); 22.05 has only struct job_details. */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
typedef struct job_details job_details_t;
#endif

/*
 * Slurm's plugin interfaces moved from src/common/ to src/interfaces/ in
 * 23.02 (select.h, priority.h, accounting_storage.h): include them as
 * #include HORAE_INC_SELECT, after this header.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#define HORAE_INC_SELECT "src/interfaces/select.h"
#define HORAE_INC_PRIORITY "src/interfaces/priority.h"
#define HORAE_INC_ACCT_STORAGE "src/interfaces/accounting_storage.h"
#else
#define HORAE_INC_SELECT "src/common/select.h"
#define HORAE_INC_PRIORITY "src/common/slurm_priority.h"
#define HORAE_INC_ACCT_STORAGE "src/common/slurm_accounting_storage.h"
#endif

/* srun_comm.h moved to src/stepmgr/ in 24.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
#define HORAE_INC_SRUN_COMM "src/stepmgr/srun_comm.h"
#else
#define HORAE_INC_SRUN_COMM "src/slurmctld/srun_comm.h"
#endif

/*
 * Priority factors.  In 22.05 a job caches them as a
 * priority_factors_object_t with the factors inline; from 23.02 on as a
 * priority_factors_t, which the object sprio receives points to.
 * horae_prio_factors_t is what job_record_t.prio_factors points to.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#define HORAE_PRIO_FACTORS_SPLIT 1
typedef priority_factors_t horae_prio_factors_t;
#else
#define HORAE_PRIO_FACTORS_SPLIT 0
typedef priority_factors_object_t horae_prio_factors_t;
#endif

/* The factors in an object of sprio's list (NULL from 23.02 on when the
 * job's priority was set directly), and how a client asks for the list:
 * 23.02 dropped the job, partition and user filters of the request. */
#if HORAE_PRIO_FACTORS_SPLIT
#define HORAE_PRIO_OBJ_FACTORS(obj) ((obj)->prio_factors)
#define HORAE_LOAD_JOB_PRIO(resp) slurm_load_job_prio((resp), 0)
#else
#define HORAE_PRIO_OBJ_FACTORS(obj) (obj)
#define HORAE_LOAD_JOB_PRIO(resp) \
	slurm_load_job_prio((resp), NULL, NULL, NULL, 0)
#endif

/* From 23.02 slurmctld holds the job, node and partition read locks when
 * it asks the priority plugin for the factors list; 22.05 does not. */
#define HORAE_PRIO_LIST_LOCKED \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0))
/* get_priority_factors_list() loses its request argument in 24.05 (sprio
 * filters the list itself from 23.02 on). */
#define HORAE_PRIO_LIST_HAS_REQ \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0))
/* priority_p_recover() is required from 23.02, priority_p_thread_start()
 * from 23.11.6, which then starts the plugin's thread once slurmctld has
 * read its state. */
#define HORAE_PRIO_HAS_RECOVER \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0))
#define HORAE_PRIO_THREAD_START \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 6))

/* A job's state reason as text: slurm_job_reason_string() in slurm.h up
 * to 23.11; from 24.05 libslurmfull's slurm_job_state_reason_string(),
 * declared only in Slurm's internal src/common/job_state_reason.h. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
extern const char *slurm_job_state_reason_string(enum job_state_reason inx);
#define HORAE_JOB_REASON_STRING(r) slurm_job_state_reason_string(r)
#else
extern char *slurm_job_reason_string(enum job_state_reason inx);
#define HORAE_JOB_REASON_STRING(r) slurm_job_reason_string(r)
#endif

/* From 23.11.5 slurmctld caches job states for its readers: a plugin
 * sets one through job_state_set(), never by writing job_state. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 5)
#define HORAE_JOB_STATE_SET(job_ptr, state) job_state_set((job_ptr), (state))
#else
#define HORAE_JOB_STATE_SET(job_ptr, state) ((job_ptr)->job_state = (state))
#endif

/* A node's allocated CPUs and memory: asked of the select plugin's
 * nodeinfo up to 24.11; fields of the node record from 25.05, which
 * removed node_record_t.select_nodeinfo. */
#define HORAE_NODE_ALLOC_FIELDS \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0))

/* The job id a submission asks for (root's --jobid): job_desc_msg_t's
 * job_id, in its step_id from 25.11. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0)
#define HORAE_JOB_DESC_JOB_ID(desc) ((desc)->step_id.job_id)
#else
#define HORAE_JOB_DESC_JOB_ID(desc) ((desc)->job_id)
#endif

/* job_submit's job_modify() takes char **err_msg from 23.02 on; 22.05
 * calls it with three arguments. */
#define HORAE_JOB_MODIFY_ERR_MSG \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0))

/*
 * Assert that slurmctld holds one of its locks, as Slurm's own callers do
 * (xassert: compiled out with NDEBUG, as in Debian's build).  verify_lock
 * lives in slurmctld alone: a plugin that a client or slurmd may load too
 * declares it weak (#pragma weak verify_lock) and checks it is there.
 */
#define HORAE_ASSERT_LOCK(datatype, level) \
	xassert(!verify_lock || verify_lock(datatype, level))

#endif /* HORAE_COMPAT_H */
