/*
 * eunomia_conf.c - select/eunomia's settings.  See eunomia_conf.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eunomia_conf.h"
#include "kvfile.h"

void eunomia_conf_init(eunomia_conf_t *c)
{
	memset(c, 0, sizeof(*c));
	c->placement = PLACE_BEST_FIT;
	c->default_speed = 1.0;
}

int eunomia_conf_set(eunomia_conf_t *c, const char *key, const char *value,
		     horae_err_t *err)
{
	horae_err_t e;
	place_policy_t p;
	speed_map_t *m;
	double v;

	if (!strcasecmp(key, "Placement")) {
		if (!strcmp(value, "cons_tres")) {
			c->steer = false;
			return 0;
		}
		if (place_policy_parse(value, &p, &e))
			return err_set(err, -EINVAL, "Placement=%s: %s (or cons_tres)",
				       value, e.text);
		if (p == PLACE_EUNOMIA)
			return err_set(err, -EINVAL,
				       "Placement=eunomia: needs progress accounting, which this version of select/eunomia does not do yet");
		c->steer = true;
		c->placement = p;
		return 0;
	}
	if (!strcasecmp(key, "SpeedMap")) {
		if (strlen(value) >= sizeof(c->speed_map))
			return err_set(err, -EINVAL, "SpeedMap: longer than %zu characters",
				       sizeof(c->speed_map) - 1);
		if (!(m = speed_map_create(value, 1.0, &e)))
			return err_set(err, -EINVAL, "SpeedMap=%s: %s", value, e.text);
		speed_map_destroy(&m);
		snprintf(c->speed_map, sizeof(c->speed_map), "%s", value);
		return 0;
	}
	if (!strcasecmp(key, "DefaultSpeed")) {
		if (kvfile_number("DefaultSpeed", value, 0, true, &v, err))
			return -EINVAL;
		c->default_speed = v;
		return 0;
	}
	return err_set(err, -EINVAL, "unknown key '%s'", key);
}

static int _line(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	for (int i = 0; i < l->npairs; i++) {
		int rc = eunomia_conf_set(arg, l->key[i], l->value[i], err);

		if (rc)
			return rc;
	}
	return 0;
}

int eunomia_conf_read(eunomia_conf_t *c, const char *path, horae_err_t *err)
{
	return kvfile_read(path, _line, c, err);
}
