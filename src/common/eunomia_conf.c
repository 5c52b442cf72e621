/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_conf.c - select/eunomia's settings.  See eunomia_conf.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eunomia_conf.h"
#include "kvfile.h"

eunomia_conf_t *eunomia_conf_create(void)
{
	eunomia_conf_t *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->placement = PLACE_BEST_FIT;
	c->default_speed = 1.0;
	c->window.kind = WINDOW_SLIDING;
	c->window.length = 7 * 86400;
	c->period = 30;
	c->default_share = 1;
	return c;
}

void eunomia_conf_destroy(eunomia_conf_t **c)
{
	if (!c || !*c)
		return;
	for (int i = 0; i < (*c)->naccounts; i++)
		speed_map_destroy(&(*c)->accounts[i].speed);
	free((*c)->accounts);
	speed_map_destroy(&(*c)->speed);
	free(*c);
	*c = NULL;
}

static int _placement(eunomia_conf_t *c, const char *value, horae_err_t *err)
{
	horae_err_t e;
	place_policy_t p;

	if (!strcmp(value, "cons_tres")) {
		c->steer = false;
		return 0;
	}
	if (place_policy_parse(value, &p, &e))
		return err_set(err, -EINVAL, "Placement=%s: %s (or cons_tres)",
			       value, e.text);
	c->steer = true;
	c->placement = p;
	return 0;
}

/* A map parses; the default factor is filled in by finish. */
static int _check_map(const char *key, const char *value, horae_err_t *err)
{
	horae_err_t e;
	speed_map_t *m = speed_map_create(value, 1.0, &e);

	if (!m)
		return err_set(err, -EINVAL, "%s=%s: %s", key, value, e.text);
	speed_map_destroy(&m);
	return 0;
}

int eunomia_conf_set(eunomia_conf_t *c, const char *key, const char *value,
		     horae_err_t *err)
{
	horae_err_t e;
	window_spec_t w;
	double v;

	if (!c || !key || !value)
		return err_set(err, -EINVAL, "missing key or value");
	if (!strcasecmp(key, "Placement"))
		return _placement(c, value, err);
	if (!strcasecmp(key, "SpeedMap")) {
		if (strlen(value) >= sizeof(c->speed_map))
			return err_set(err, -EINVAL, "SpeedMap: longer than %zu characters",
				       sizeof(c->speed_map) - 1);
		if (_check_map("SpeedMap", value, err))
			return -EINVAL;
		snprintf(c->speed_map, sizeof(c->speed_map), "%s", value);
		return 0;
	}
	if (!strcasecmp(key, "DefaultSpeed")) {
		if (kvfile_number("DefaultSpeed", value, 0, true, &v, err))
			return -EINVAL;
		c->default_speed = v;
		return 0;
	}
	if (!strcasecmp(key, "Window")) {
		if (window_parse(value, &w, &e))
			return err_set(err, -EINVAL, "Window=%s: %s", value,
				       e.text);
		c->window = w;
		return 0;
	}
	if (!strcasecmp(key, "WindowBucket"))
		return kvfile_duration("WindowBucket", value, false, &c->bucket,
				       err);
	if (!strcasecmp(key, "Period"))
		return kvfile_duration("Period", value, true, &c->period, err);
	if (!strcasecmp(key, "DefaultShare")) {
		if (kvfile_number("DefaultShare", value, 0, true, &v, err))
			return -EINVAL;
		c->default_share = v;
		return 0;
	}
	return err_set(err, -EINVAL, "unknown key '%s'", key);
}

int eunomia_conf_add_account(eunomia_conf_t *c, const char *name,
			     const char *share, const char *speed_map,
			     horae_err_t *err)
{
	eunomia_conf_account_t *a;
	speed_map_t *m = NULL;
	horae_err_t e;
	double v = 0;

	if (!c || !name || !name[0])
		return err_set(err, -EINVAL, "Account= needs a name");
	if (strlen(name) >= EUNOMIA_CONF_NAME_MAX)
		return err_set(err, -EINVAL, "Account=%s: name longer than %d characters",
			       name, EUNOMIA_CONF_NAME_MAX - 1);
	if (eunomia_conf_account(c, name))
		return err_set(err, -EINVAL,
			       "Account=%s: the account appears twice (names are compared as Slurm stores them, in lower case)",
			       name);
	if (share && kvfile_number("Share", share, 0, true, &v, &e))
		return err_set(err, -EINVAL, "Account=%s: %s", name, e.text);
	if (speed_map && !(m = speed_map_create(speed_map, 1.0, &e)))
		return err_set(err, -EINVAL, "Account=%s: SpeedMap=%s: %s",
			       name, speed_map, e.text);
	a = realloc(c->accounts, (c->naccounts + 1) * sizeof(*a));
	if (!a) {
		speed_map_destroy(&m);
		return err_set(err, -ENOMEM, "out of memory");
	}
	c->accounts = a;
	a += c->naccounts++;
	/* Slurm stores account names in lower case. */
	for (size_t i = 0; i <= strlen(name); i++)
		a->name[i] = (char)tolower((unsigned char)name[i]);
	a->share = v;
	a->speed = m;
	return 0;
}

int eunomia_conf_finish(eunomia_conf_t *c, horae_err_t *err)
{
	horae_err_t e;
	speed_map_t *m;

	if (window_check_bucket(&c->window, c->bucket, err))
		return -EINVAL;
	m = speed_map_create(c->speed_map, c->default_speed, &e);
	if (!m)
		return err_set(err, errno == ENOMEM ? -ENOMEM : -EINVAL,
			       "SpeedMap=%s: %s", c->speed_map, e.text);
	speed_map_destroy(&c->speed);
	c->speed = m;
	return 0;
}

typedef struct reading {
	eunomia_conf_t *c;
	kvfile_seen_t seen;
} reading_t;

static int _line(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	reading_t *r = arg;
	const char *share = NULL, *map = NULL;
	int rc;

	if (strcasecmp(l->key[0], "Account")) {
		for (int i = 0; i < l->npairs; i++) {
			rc = kvfile_seen_once(&r->seen, l, i, err);
			if (!rc)
				rc = eunomia_conf_set(r->c, l->key[i],
						      l->value[i], err);
			if (rc)
				return rc;
		}
		return 0;
	}
	for (int i = 1; i < l->npairs; i++) {
		const char **v = !strcasecmp(l->key[i], "Share")    ? &share :
				 !strcasecmp(l->key[i], "SpeedMap") ? &map :
								      NULL;

		if (v && *v)
			return err_set(err, -EINVAL,
				       "Account=%s: %s is set twice",
				       l->value[0], l->key[i]);
		if (v)
			*v = l->value[i];
		else
			return err_set(err, -EINVAL,
				       "Account=%s: unknown key '%s' (an Account line takes Share=NUMBER and SpeedMap=MAP)",
				       l->value[0], l->key[i]);
	}
	return eunomia_conf_add_account(r->c, l->value[0], share, map, err);
}

int eunomia_conf_read(eunomia_conf_t *c, const char *path, horae_err_t *err)
{
	reading_t *r = calloc(1, sizeof(*r));
	horae_err_t e;
	int rc;

	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	r->c = c;
	rc = kvfile_read(path, _line, r, err);
	free(r);
	if (rc && rc != -ENOENT)
		return rc;
	if (eunomia_conf_finish(c, &e))
		return err_set(err, -EINVAL, "%s: %s", path, e.text);
	return rc;
}

const eunomia_conf_account_t *eunomia_conf_account(const eunomia_conf_t *c,
						   const char *name)
{
	for (int i = 0; name && i < c->naccounts; i++)
		if (!strcasecmp(c->accounts[i].name, name))
			return &c->accounts[i];
	return NULL;
}

double eunomia_conf_share(const eunomia_conf_t *c, const char *name)
{
	const eunomia_conf_account_t *a = eunomia_conf_account(c, name);

	return a && a->share > 0 ? a->share : c->default_share;
}

double eunomia_conf_speed(const eunomia_conf_t *c, const char *name,
			  const char *features)
{
	const eunomia_conf_account_t *a = eunomia_conf_account(c, name);

	return speed_of_account(a ? a->speed : NULL, c->speed, features);
}
