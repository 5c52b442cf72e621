/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_conf.c - validating priority/hmrf's settings.  See hmrf_conf.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hmrf_conf.h"
#include "kvfile.h"
#include "tres.h"

hmrf_conf_t *hmrf_conf_create(void)
{
	hmrf_conf_t *c = calloc(1, sizeof(*c));

	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->policy = HMRF_POLICY_HMRF;
	c->window.kind = WINDOW_SLIDING;
	c->window.length = 7 * 86400;
	c->period = 30;
	c->save_interval = 300;
	c->default_share = 1;
	snprintf(c->tres, sizeof(c->tres), "cpu,mem,gres/gpu");
	return c;
}

void hmrf_conf_destroy(hmrf_conf_t **conf)
{
	if (!conf || !*conf)
		return;
	free((*conf)->accounts);
	free(*conf);
	*conf = NULL;
}

static int _set_tres(hmrf_conf_t *c, const char *value, horae_err_t *err)
{
	horae_err_t terr;
	tres_layout_t *l = tres_layout_create(value, &terr);

	if (!l)
		return err_set(err, -EINVAL, "Tres=%s: %s", value, terr.text);
	tres_layout_destroy(&l);
	if (strlen(value) >= sizeof(c->tres))
		return err_set(err, -EINVAL, "Tres=%s: longer than %zu characters",
			       value, sizeof(c->tres) - 1);
	snprintf(c->tres, sizeof(c->tres), "%s", value);
	return 0;
}

int hmrf_conf_set(hmrf_conf_t *c, const char *key, const char *value,
		  horae_err_t *err)
{
	horae_err_t e;
	double v;
	int rc;

	if (!c || !key || !value)
		return err_set(err, -EINVAL, "missing key or value");
	if (!strcasecmp(key, "Policy")) {
		if (hmrf_policy_parse(value, &c->policy, &e))
			return err_set(err, -EINVAL, "Policy=%s: %s", value,
				       e.text);
	} else if (!strcasecmp(key, "Window")) {
		if (window_parse(value, &c->window, &e))
			return err_set(err, -EINVAL, "Window=%s: %s", value,
				       e.text);
	} else if (!strcasecmp(key, "WindowBucket")) {
		return kvfile_duration("WindowBucket", value, false, &c->bucket, err);
	} else if (!strcasecmp(key, "Timeout")) {
		/* UNLIMITED: an account never jumps the queue (0, off). */
		rc = kvfile_duration_or_unlimited("Timeout", value, false, 0,
						  &c->timeout, err);
		c->timeout_set |= !rc;
		return rc;
	} else if (!strcasecmp(key, "Period")) {
		return kvfile_duration("Period", value, true, &c->period, err);
	} else if (!strcasecmp(key, "SaveInterval")) {
		return kvfile_duration("SaveInterval", value, false,
				       &c->save_interval, err);
	} else if (!strcasecmp(key, "ChargeHorizon")) {
		return kvfile_duration("ChargeHorizon", value, false, &c->horizon,
				 err);
	} else if (!strcasecmp(key, "BorrowLimit")) {
		return kvfile_number("BorrowLimit", value, 0, false, &c->borrow_limit,
			       err);
	} else if (!strcasecmp(key, "DefaultShare")) {
		return kvfile_number("DefaultShare", value, 0, true, &c->default_share,
			       err);
	} else if (!strcasecmp(key, "PriorityWeight")) {
		rc = kvfile_number("PriorityWeight", value, 0, false, &v, err);
		if (!rc && (v != floor(v) || v > 1e9))
			rc = err_set(err, -EINVAL,
				     "PriorityWeight=%s: must be a whole number up to 1000000000",
				     value);
		if (!rc)
			c->weight = (unsigned)v;
		return rc;
	} else if (!strcasecmp(key, "Tres")) {
		return _set_tres(c, value, err);
	} else {
		return err_set(err, -EINVAL, "unknown key '%s'", key);
	}
	return 0;
}

int hmrf_conf_add_account(hmrf_conf_t *c, const char *name, const char *share,
			  horae_err_t *err)
{
	hmrf_conf_account_t *a;
	horae_err_t e;
	double v;

	if (!c || !name || !name[0])
		return err_set(err, -EINVAL, "Account= needs a name");
	if (strlen(name) >= HMRF_CONF_NAME_MAX)
		return err_set(err, -EINVAL, "Account=%s: name longer than %d characters",
			       name, HMRF_CONF_NAME_MAX - 1);
	if (!share)
		return err_set(err, -EINVAL, "Account=%s: needs Share=NUMBER",
			       name);
	if (kvfile_number("Share", share, 0, true, &v, &e))
		return err_set(err, -EINVAL, "Account=%s: %s", name, e.text);
	for (int i = 0; i < c->naccounts; i++)
		if (!strcasecmp(c->accounts[i].name, name))
			return err_set(err, -EINVAL,
				       "Account=%s: the account appears twice (names are compared as Slurm stores them, in lower case)",
				       name);
	a = realloc(c->accounts, (c->naccounts + 1) * sizeof(*a));
	if (!a)
		return err_set(err, -ENOMEM, "out of memory");
	c->accounts = a;
	/* Slurm stores account names in lower case. */
	for (size_t i = 0; i <= strlen(name); i++)
		a[c->naccounts].name[i] = (char)tolower((unsigned char)name[i]);
	a[c->naccounts].share = v;
	c->naccounts++;
	return 0;
}

int hmrf_conf_finish(hmrf_conf_t *c, horae_err_t *err)
{
	if (!c)
		return err_set(err, -EINVAL, "missing configuration");
	if (window_check_bucket(&c->window, c->bucket, err))
		return -EINVAL;
	if (!c->timeout_set)
		c->timeout = c->window.kind == WINDOW_NONE ? 0 :
							     c->window.length;
	return 0;
}

bool hmrf_conf_has_account(const hmrf_conf_t *c, const char *name)
{
	for (int i = 0; name && i < c->naccounts; i++)
		if (!strcasecmp(c->accounts[i].name, name))
			return true;
	return false;
}

double hmrf_conf_share(const hmrf_conf_t *c, const char *name)
{
	for (int i = 0; name && i < c->naccounts; i++)
		if (!strcasecmp(c->accounts[i].name, name))
			return c->accounts[i].share;
	return c->default_share;
}

typedef struct reading {
	hmrf_conf_t *c;
	kvfile_seen_t seen;
} reading_t;

static int _read_line(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	reading_t *r = arg;
	const char *share = NULL;
	int rc;

	if (strcasecmp(l->key[0], "Account")) {
		for (int i = 0; i < l->npairs; i++) {
			rc = kvfile_seen_once(&r->seen, l, i, err);
			if (!rc)
				rc = hmrf_conf_set(r->c, l->key[i], l->value[i],
						   err);
			if (rc)
				return rc;
		}
		return 0;
	}
	for (int i = 1; i < l->npairs; i++) {
		if (strcasecmp(l->key[i], "Share"))
			return err_set(err, -EINVAL,
				       "Account=%s: unknown key '%s' (an Account line takes Share=NUMBER)",
				       l->value[0], l->key[i]);
		if (share)
			return err_set(err, -EINVAL,
				       "Account=%s: Share is set twice",
				       l->value[0]);
		share = l->value[i];
	}
	return hmrf_conf_add_account(r->c, l->value[0], share, err);
}

int hmrf_conf_read(hmrf_conf_t *c, const char *path, horae_err_t *err)
{
	reading_t *r = calloc(1, sizeof(*r));
	horae_err_t e;
	int rc;

	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	r->c = c;
	rc = kvfile_read(path, _read_line, r, err);
	free(r);
	if (rc)
		return rc;
	if (hmrf_conf_finish(c, &e))
		return err_set(err, -EINVAL, "%s: %s", path, e.text);
	return 0;
}

double hmrf_conf_save_every(const hmrf_conf_t *c, double min_job_age)
{
	double every = c->save_interval;

	if (min_job_age > 0 && min_job_age < every)
		every = min_job_age;
	return every > c->period ? every : c->period;
}

bool hmrf_conf_save_due(const hmrf_conf_t *c, double min_job_age,
			double last, double now)
{
	double every = hmrf_conf_save_every(c, min_job_age);

	return !last || now < last || now - last >= every - c->period / 2;
}
