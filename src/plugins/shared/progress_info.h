/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress_info.h - how Eunomia's progress shares reach priority/hmrf.
 *
 * select/eunomia exports a table of two functions under the symbol
 * PROGRESS_OPS_SYMBOL; priority/hmrf finds it in the select_eunomia.so
 * slurmctld has loaded (progress_ops_find).  The same on every Slurm
 * release: Slurm's own channel between plugins,
 * select_g_get_info_from_plugin(), went in 25.05.
 *
 *   export    fills a progress_info_t with a copy of every account's
 *             progress (the caller frees it with progress_info_free);
 *             0, or -ENODEV when select/eunomia keeps no progress here
 *   job_rate  the progress per second a pending job is expected to make
 *             (its CPUs x the speed of the nodes it may use)
 *
 * Both take select/eunomia's mutex only; call them with slurmctld's job
 * read lock held (the job record is read).
 */
#ifndef HORAE_PROGRESS_INFO_H
#define HORAE_PROGRESS_INFO_H

#include "common/eunomia.h"

typedef struct progress_info {
	int count;
	char **name; /* account names */
	eunomia_account_t *acct; /* weight, progress, own monopoly, active */
	double monopoly; /* the common monopoly over the window span */
	double default_weight; /* of accounts it has not seen (DefaultShare) */
} progress_info_t;

struct job_record;

/* The version is in the name: a table of another layout is not found. */
#define PROGRESS_OPS_SYMBOL "horae_progress_ops_v1"

typedef struct progress_ops {
	int (*export)(progress_info_t *info);
	double (*job_rate)(struct job_record *job_ptr);
} progress_ops_t;

/*
 * The table of the select/eunomia loaded in this process (looked for in
 * each directory of PluginDir, without loading anything), or NULL while
 * there is none.  Found once, then remembered.
 */
const progress_ops_t *progress_ops_find(void);

/* Free what export filled in and zero it.  NULL-safe. */
void progress_info_free(progress_info_t *info);

#endif /* HORAE_PROGRESS_INFO_H */
