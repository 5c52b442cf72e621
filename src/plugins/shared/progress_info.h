/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress_info.h - how Eunomia's progress shares reach priority/hmrf:
 * through Slurm's own channel between plugins, select_g_get_info_from_plugin(),
 * with two request codes that only select/eunomia answers.  Any other
 * select plugin logs "info type invalid" and fails, so the caller asks only
 * when SelectType is select/eunomia.
 *
 *   HORAE_SELECT_PROGRESS  job_ptr NULL, data a progress_info_t * filled
 *                          with a copy of every account's progress (the
 *                          caller frees it with progress_info_free)
 *   HORAE_SELECT_JOB_RATE  data a double *: the progress per second a
 *                          pending job is expected to make (its CPUs x
 *                          the speed of the nodes it may use)
 *
 * Both take select/eunomia's mutex only; call them with slurmctld's job
 * read lock held (the job record is read).
 */
#ifndef HORAE_PROGRESS_INFO_H
#define HORAE_PROGRESS_INFO_H

#include "common/eunomia.h"

#define HORAE_SELECT_PROGRESS 0x48520001
#define HORAE_SELECT_JOB_RATE 0x48520002

typedef struct progress_info {
	int count;
	char **name;		 /* account names */
	eunomia_account_t *acct; /* weight, progress, own monopoly, active */
	double monopoly;	 /* the common monopoly over the window span */
	double default_weight;	 /* of accounts it has not seen (DefaultShare) */
} progress_info_t;

/* Free what HORAE_SELECT_PROGRESS filled in and zero it.  NULL-safe. */
void progress_info_free(progress_info_t *info);

#endif /* HORAE_PROGRESS_INFO_H */
