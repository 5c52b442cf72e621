/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * horae_compat.h - the differences between the Slurm releases the plugins
 * are built for, in one place (../shared/SLURM-PORT.md lists them).  Each
 * macro names what differs, so that the code says why it branches.
 */
#ifndef HORAE_COMPAT_H
#define HORAE_COMPAT_H

#include "slurm/slurm.h"

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
