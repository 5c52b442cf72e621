/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_conf.h - the settings of priority/hmrf (hmrf.conf), validated one
 * key at a time so that a reader can report the file and line of a bad
 * value.  The Slurm adapter parses the file with Slurm's own parser and
 * hands each key and value here; sfair --check-config can do the same.
 * Keys are case-insensitive; see horae-hmrf.conf(5).
 */
#ifndef HORAE_HMRF_CONF_H
#define HORAE_HMRF_CONF_H

#include <stdbool.h>

#include "err.h"
#include "hmrf.h"
#include "window.h"

#define HMRF_CONF_NAME_MAX 64

typedef struct hmrf_conf_account {
	char name[HMRF_CONF_NAME_MAX];
	double share;
} hmrf_conf_account_t;

typedef struct hmrf_conf {
	hmrf_policy_t policy;	 /* Policy=hmrf */
	window_spec_t window;	 /* Window=sliding:7d */
	double bucket;		 /* WindowBucket=0 (L/64) */
	double timeout;		 /* Timeout= (window length; 0: off) */
	bool timeout_set;
	double period;		 /* Period=30s: recalculation */
	double save_interval;	 /* SaveInterval=5m: the whole state */
	double horizon;		 /* ChargeHorizon=0: the window length */
	double borrow_limit;	 /* BorrowLimit=0: none */
	double default_share;	 /* DefaultShare=1 */
	unsigned weight;	 /* PriorityWeight=0: PriorityWeightFairshare */
	char tres[256];		 /* Tres=cpu,mem,gres/gpu */
	hmrf_conf_account_t *accounts; /* Account=NAME Share=N */
	int naccounts;
} hmrf_conf_t;

/* A configuration holding the defaults; NULL with errno ENOMEM. */
hmrf_conf_t *hmrf_conf_create(void);

/* Free it and set *conf to NULL.  NULL-safe. */
void hmrf_conf_destroy(hmrf_conf_t **conf);

/*
 * Set key (case-insensitive) to value.  Returns 0, or -EINVAL with err
 * saying what is wrong with the key or value ("unknown key 'X'",
 * "Window=weekly: ..."); conf is unchanged on failure.
 */
int hmrf_conf_set(hmrf_conf_t *conf, const char *key, const char *value,
		  horae_err_t *err);

/*
 * Add "Account=name Share=share".  The name must be new and non-empty;
 * share a number > 0.  Returns 0, -EINVAL with err, or -ENOMEM.
 */
int hmrf_conf_add_account(hmrf_conf_t *conf, const char *name,
			  const char *share, horae_err_t *err);

/*
 * Checks that involve several keys (the bucket fits the window, the TRES
 * list parses), and fills in defaults that depend on others (Timeout).
 * Returns 0 or -EINVAL with err.
 */
int hmrf_conf_finish(hmrf_conf_t *conf, horae_err_t *err);

/*
 * Read the file path (see kvfile.h for its syntax) into conf: every
 * setting through hmrf_conf_set(), "Account=NAME Share=N" lines through
 * hmrf_conf_add_account(), then hmrf_conf_finish().
 * Returns 0, -ENOENT when the file does not exist, or -EINVAL with err as
 * "PATH:LINE: what is wrong" (or "PATH: what is wrong" for cross-key
 * checks).  On failure conf may hold part of the file: discard it.
 */
int hmrf_conf_read(hmrf_conf_t *conf, const char *path, horae_err_t *err);

/* True when an Account line names name. */
bool hmrf_conf_has_account(const hmrf_conf_t *conf, const char *name);

/* The share of account name: its Account line, else DefaultShare. */
double hmrf_conf_share(const hmrf_conf_t *conf, const char *name);

/*
 * How often, in s, the plugin saves its whole state durably: SaveInterval,
 * but no less often than slurmctld keeps a finished job's record
 * (min_job_age, MinJobAge; <= 0: not known), so that after a crash every
 * job that ended since the last save is still there to be charged from
 * its record, and no more often than each Period (SaveInterval=0: each
 * Period).  Between saves, what sfair shows is published each Period
 * (hmrf_shares.h).
 */
double hmrf_conf_save_every(const hmrf_conf_t *c, double min_job_age);

/*
 * Whether the whole state is due to be saved at now, last saved at last
 * (0: not yet since the start): hmrf_conf_save_every() has passed, less
 * half a Period so that a recalculation a little early counts, or the
 * clock went back.
 */
bool hmrf_conf_save_due(const hmrf_conf_t *c, double min_job_age,
			double last, double now);

#endif /* HORAE_HMRF_CONF_H */
