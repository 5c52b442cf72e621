/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_conf.h - the settings of select/eunomia (eunomia.conf), read
 * like hmrf.conf (kvfile.h) with "PATH:LINE: what is wrong" errors.
 * See horae-eunomia.conf(5).
 *
 *   Placement=cons_tres     cons_tres | first-fit | best-fit | affinity |
 *                           rpsdsf | eunomia (placement.h); cons_tres
 *                           steers nothing
 *   SpeedMap=               node feature -> speed factor (speed.h)
 *   DefaultSpeed=1          factor of nodes whose features match none
 *   Window=sliding:7d       the progress window (window.h)
 *   WindowBucket=0          bucket of a sliding window (0: L/64)
 *   Period=30s              progress of running jobs is charged this often
 *   DefaultShare=1          contribution of accounts without a line
 *   Account=NAME [Share=N] [SpeedMap=feature:factor,...]
 *                           an account's contribution, and its own speed
 *                           factors for the features it names (the
 *                           paper's per-user performance vector)
 */
#ifndef HORAE_EUNOMIA_CONF_H
#define HORAE_EUNOMIA_CONF_H

#include <stdbool.h>

#include "err.h"
#include "placement.h"
#include "speed.h"
#include "window.h"

#define EUNOMIA_CONF_NAME_MAX 64

typedef struct eunomia_conf_account {
	char name[EUNOMIA_CONF_NAME_MAX];
	double share;	    /* 0: DefaultShare */
	speed_map_t *speed; /* its own factors, or NULL */
} eunomia_conf_account_t;

typedef struct eunomia_conf {
	bool steer;		/* false: Placement=cons_tres */
	place_policy_t placement;
	double default_speed;
	char speed_map[1024];
	speed_map_t *speed;	/* SpeedMap with DefaultSpeed, after finish */
	window_spec_t window;
	double bucket;
	double period;
	double default_share;
	eunomia_conf_account_t *accounts;
	int naccounts;
} eunomia_conf_t;

/*
 * A configuration holding the defaults (Placement=cons_tres, no speed
 * map, DefaultSpeed=1, Window=sliding:7d, Period=30s, DefaultShare=1).
 * NULL with errno ENOMEM.
 */
eunomia_conf_t *eunomia_conf_create(void);

/* Free it and set *c to NULL.  NULL-safe. */
void eunomia_conf_destroy(eunomia_conf_t **c);

/* Set one key; 0 or -EINVAL with err; c unchanged on failure. */
int eunomia_conf_set(eunomia_conf_t *c, const char *key, const char *value,
		     horae_err_t *err);

/*
 * Add "Account=NAME [Share=N] [SpeedMap=...]" (share and speed_map may be
 * NULL).  Returns 0, -EINVAL with err (no name, a name seen before, a bad
 * share or map), or -ENOMEM; c unchanged on failure.
 */
int eunomia_conf_add_account(eunomia_conf_t *c, const char *name,
			     const char *share, const char *speed_map,
			     horae_err_t *err);

/*
 * Checks across keys (the bucket fits the window) and builds c->speed.
 * Returns 0, -EINVAL with err, or -ENOMEM.
 */
int eunomia_conf_finish(eunomia_conf_t *c, horae_err_t *err);

/*
 * Read path into c (fresh from eunomia_conf_create), then finish it.
 * Returns 0, -ENOENT when the file does not exist (c is finished with the
 * defaults), or -EINVAL with err "PATH:LINE: ..." ("PATH: ..." for
 * checks across keys); on failure discard c.
 */
int eunomia_conf_read(eunomia_conf_t *c, const char *path, horae_err_t *err);

/* The account's line, or NULL. */
const eunomia_conf_account_t *eunomia_conf_account(const eunomia_conf_t *c,
						   const char *name);

/* The contribution of account name: its Share, else DefaultShare. */
double eunomia_conf_share(const eunomia_conf_t *c, const char *name);

/* The speed factor of a node with features for account name. */
double eunomia_conf_speed(const eunomia_conf_t *c, const char *name,
			  const char *features);

#endif /* HORAE_EUNOMIA_CONF_H */
