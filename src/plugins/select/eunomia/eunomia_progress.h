/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_progress.h - select/eunomia's progress accounting: every running
 * job makes progress at its CPUs x the speed factors of its nodes (for
 * its account, eunomia.conf); the core's books (eunomia_books.h) charge it
 * to its account's windowed progress ledger, hold each account's monopoly
 * span and rate, and give the shares; this adapter tells them which jobs
 * start, end, pause and change size, at which rates, charges them every
 * Period, and saves them in StateSaveLocation/horae_eunomia.state like
 * priority/hmrf's usage.  From it come each account's progress share, the
 * fair share and the gap that Placement=eunomia steers by, and what
 * priority/hmrf's Eunomia factor ranks by (progress_info.h).
 *
 * Every function takes the object's own mutex.  Functions that read job
 * or node records are called with slurmctld's locks held (job_test,
 * job_begin, job_fini, job_init, get_info); the period's charge takes no
 * slurmctld lock: it uses only what job_begin recorded.
 */
#ifndef HORAE_EUNOMIA_PROGRESS_H
#define HORAE_EUNOMIA_PROGRESS_H

#include <stdbool.h>

#include "src/slurmctld/slurmctld.h"
#include "horae_compat.h"

#include "common/eunomia_conf.h"
#include "progress_info.h"

typedef struct eunomia_progress eunomia_progress_t;

/*
 * Take conf (owned from now on) and load the saved progress from
 * state_dir.  When the saved state and its fallbacks are all unreadable,
 * returns NULL after logging why, unless start_empty (slurmctld -i).
 * standby (a backup controller is configured, ctld_role.h): read nothing
 * now; eunomia_progress_take reads the state when this slurmctld takes
 * control, and until then nothing is charged, saved or published.
 */
eunomia_progress_t *eunomia_progress_create(eunomia_conf_t *conf,
					    const char *state_dir,
					    bool start_empty, bool standby);

/*
 * This slurmctld is taking control (job_init, before the sync of the job
 * list): read the saved progress again, replacing what p had.  -1 after
 * logging why when it cannot (as create).  Nothing to do when p was
 * created without standby.  The books are given up, unsaved, at the
 * first period after control has passed to another slurmctld.
 */
int eunomia_progress_take(eunomia_progress_t *p, bool start_empty);

/* Save one last time, free, and set *p to NULL.  NULL-safe. */
void eunomia_progress_destroy(eunomia_progress_t **p);

/* A new configuration (owned from now on); the window keeps its shape
 * until slurmctld restarts. */
void eunomia_progress_reconfig(eunomia_progress_t *p, eunomia_conf_t *conf);

/* The configuration in use (valid until the next reconfig). */
const eunomia_conf_t *eunomia_progress_conf(eunomia_progress_t *p);

/* Nodes changed (node_init, reconfigure): forget cached speed sums. */
void eunomia_progress_nodes_changed(eunomia_progress_t *p);

/*
 * slurmctld's job list at start or reconfigure: track every running job
 * not yet tracked, charged from its start or from the saved state's end;
 * after a restart, charge jobs that ran and ended while slurmctld was down.
 */
void eunomia_progress_sync(eunomia_progress_t *p, list_t *jobs);

/* A job started; ended (its progress charged up to its end); was
 * suspended or resumed; changed size. */
void eunomia_progress_begin(eunomia_progress_t *p, job_record_t *job_ptr);
void eunomia_progress_end(eunomia_progress_t *p, job_record_t *job_ptr);
void eunomia_progress_pause(eunomia_progress_t *p, job_record_t *job_ptr,
			    bool paused);
void eunomia_progress_resized(eunomia_progress_t *p, job_record_t *job_ptr);

/* Charge every running job up to now and save the state (the file is
 * written with the mutex released).  The period's work. */
void eunomia_progress_tick(eunomia_progress_t *p);

/* The same without publishing (no slurmctld lock taken): slurmctld's
 * own state save.  Both do nothing while this slurmctld does not hold the
 * books (eunomia_progress_create's standby). */
void eunomia_progress_save(eunomia_progress_t *p);

/* Period= of the configuration. */
double eunomia_progress_period(eunomia_progress_t *p);

/* The gap of account name to the fair progress share (eunomia_gap). */
double eunomia_progress_gap(eunomia_progress_t *p, const char *account);

/* The speed factor of node_ptr for account. */
double eunomia_progress_speed(eunomia_progress_t *p, const char *account,
			      const node_record_t *node_ptr);

/* What horae_progress_ops_v1 answers priority/hmrf (progress_info.h). */
void eunomia_progress_export(eunomia_progress_t *p, progress_info_t *out);
double eunomia_progress_job_rate(eunomia_progress_t *p,
				 job_record_t *job_ptr);

#endif /* HORAE_EUNOMIA_PROGRESS_H */
