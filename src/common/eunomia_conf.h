/*
 * eunomia_conf.h - the settings of select/eunomia (eunomia.conf), read
 * like hmrf.conf (kvfile.h) with "PATH:LINE: what is wrong" errors.
 *
 *   Placement=cons_tres     cons_tres | first-fit | best-fit | affinity |
 *                           rpsdsf (placement.h); cons_tres steers nothing
 *   SpeedMap=               node feature -> speed factor (speed.h)
 *   DefaultSpeed=1          factor of nodes whose features match none
 *
 * Placement=eunomia needs progress accounting, which select/eunomia does
 * not do yet; it is refused with a message that says so.
 */
#ifndef HORAE_EUNOMIA_CONF_H
#define HORAE_EUNOMIA_CONF_H

#include <stdbool.h>

#include "err.h"
#include "placement.h"
#include "speed.h"

typedef struct eunomia_conf {
	bool steer;		/* false: Placement=cons_tres */
	place_policy_t placement;
	double default_speed;
	char speed_map[1024];
} eunomia_conf_t;

/* The defaults: Placement=cons_tres, no speed map, DefaultSpeed=1. */
void eunomia_conf_init(eunomia_conf_t *c);

/* Set one key; 0 or -EINVAL with err; c unchanged on failure. */
int eunomia_conf_set(eunomia_conf_t *c, const char *key, const char *value,
		     horae_err_t *err);

/*
 * Read path into c (after eunomia_conf_init).  Returns 0, -ENOENT when
 * the file does not exist, or -EINVAL with err "PATH:LINE: ...".
 */
int eunomia_conf_read(eunomia_conf_t *c, const char *path, horae_err_t *err);

#endif /* HORAE_EUNOMIA_CONF_H */
