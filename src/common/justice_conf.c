/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_conf.c - job_submit/justice's settings.  See justice_conf.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "justice_conf.h"
#include "kvfile.h"

/* Far more jobs than a cluster ever runs, and exact as a double. */
#define JUSTICE_BOOTSTRAP_MAX 1e15

void justice_conf_init(justice_conf_t *c)
{
	memset(c, 0, sizeof(*c));
	c->policy = JUSTICE_POLICY_JUSTICE;
	c->history_length = 1000;
	c->smoothing = JUSTICE_SMOOTH_EQUAL;
	c->alpha = 0.5;
	c->bootstrap = 10;
	c->period = 30;
	c->kill_above = 4;
	c->elastic = true;
	c->urgency_weight = 1000;
	c->order = JUSTICE_ORDER_JUSTICE;
}

static int _policy(justice_conf_t *c, const char *value, horae_err_t *err)
{
	justice_policy_t p;
	horae_err_t e;

	if (justice_policy_parse(value, &p, &e))
		return err_set(err, -EINVAL, "Policy=%s: %s", value, e.text);
	if (p == JUSTICE_POLICY_ORACLE)
		return err_set(err, -EINVAL,
			       "Policy=oracle: the oracle knows each job's exact need, which only the simulator has");
	c->policy = p;
	return 0;
}

static int _smoothing(justice_conf_t *c, const char *value, horae_err_t *err)
{
	double a;

	if (!strcasecmp(value, "equal")) {
		c->smoothing = JUSTICE_SMOOTH_EQUAL;
		return 0;
	}
	if (strncasecmp(value, "exp:", 4))
		return err_set(err, -EINVAL,
			       "Smoothing=%s: use equal or exp:ALPHA", value);
	if (kvfile_number("Smoothing=exp:ALPHA", value + 4, 0, true, &a, err))
		return -EINVAL;
	if (a > 1)
		return err_set(err, -EINVAL,
			       "Smoothing=%s: ALPHA must be at most 1", value);
	c->smoothing = JUSTICE_SMOOTH_EXP;
	c->alpha = a;
	return 0;
}

static int _bool(const char *key, const char *value, bool *out,
		 horae_err_t *err)
{
	if (!strcasecmp(value, "yes") || !strcasecmp(value, "true") ||
	    !strcmp(value, "1"))
		*out = true;
	else if (!strcasecmp(value, "no") || !strcasecmp(value, "false") ||
		 !strcmp(value, "0"))
		*out = false;
	else
		return err_set(err, -EINVAL, "%s=%s: use yes or no", key,
			       value);
	return 0;
}

int justice_conf_set(justice_conf_t *c, const char *key, const char *value,
		     horae_err_t *err)
{
	double v;

	if (!c || !key || !value)
		return err_set(err, -EINVAL, "missing key or value");
	if (!strcasecmp(key, "Policy"))
		return _policy(c, value, err);
	if (!strcasecmp(key, "Smoothing"))
		return _smoothing(c, value, err);
	if (!strcasecmp(key, "Order")) {
		if (!strcasecmp(value, "justice"))
			c->order = JUSTICE_ORDER_JUSTICE;
		else if (!strcasecmp(value, "deadline"))
			c->order = JUSTICE_ORDER_DEADLINE;
		else
			return err_set(err, -EINVAL,
				       "Order=%s: use justice or deadline",
				       value);
		return 0;
	}
	if (!strcasecmp(key, "Elastic"))
		return _bool("Elastic", value, &c->elastic, err);
	if (!strcasecmp(key, "Period"))
		return kvfile_duration("Period", value, true, &c->period, err);
	if (!strcasecmp(key, "HistoryLength")) {
		if (kvfile_number(key, value, 1, false, &v, err))
			return -EINVAL;
		if (v > JUSTICE_HISTORY_MAX || v != floor(v))
			return err_set(err, -EINVAL,
				       "HistoryLength=%s: a whole number up to %d",
				       value, JUSTICE_HISTORY_MAX);
		c->history_length = (int)v;
		return 0;
	}
	if (!strcasecmp(key, "Bootstrap")) {
		if (kvfile_number(key, value, 0, false, &v, err))
			return -EINVAL;
		/* (long)v is undefined beyond LONG_MAX. */
		if (v != floor(v) || v > JUSTICE_BOOTSTRAP_MAX)
			return err_set(err, -EINVAL,
				       "Bootstrap=%s: a whole number up to %.0f",
				       value, JUSTICE_BOOTSTRAP_MAX);
		c->bootstrap = (long)v;
		return 0;
	}
	if (!strcasecmp(key, "KillAbove"))
		return kvfile_number(key, value, 0, false, &c->kill_above, err);
	if (!strcasecmp(key, "UrgencyWeight")) {
		if (kvfile_number(key, value, 0, false, &v, err))
			return -EINVAL;
		/* Added to Slurm's site factor, an offset uint32_t. */
		if (v > JUSTICE_URGENCY_MAX)
			return err_set(err, -EINVAL,
				       "%s=%s: must be at most %.0f (the range of Slurm's site factor)",
				       key, value, JUSTICE_URGENCY_MAX);
		c->urgency_weight = v;
		return 0;
	}
	return err_set(err, -EINVAL, "unknown key '%s'", key);
}

typedef struct reading {
	justice_conf_t *c;
	kvfile_seen_t seen;
	/* The later line that set Bootstrap or HistoryLength, for the
	 * error that names both. */
	char at[320];
} reading_t;

static int _line(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	reading_t *r = arg;

	for (int i = 0; i < l->npairs; i++) {
		int rc = kvfile_seen_once(&r->seen, l, i, err);

		if (!rc)
			rc = justice_conf_set(r->c, l->key[i], l->value[i],
					      err);
		if (rc)
			return rc;
		if (!strcasecmp(l->key[i], "Bootstrap") ||
		    !strcasecmp(l->key[i], "HistoryLength"))
			snprintf(r->at, sizeof(r->at), "%s:%d", l->path,
				 l->number);
	}
	return 0;
}

int justice_conf_read(justice_conf_t *c, const char *path, horae_err_t *err)
{
	reading_t *r = calloc(1, sizeof(*r));
	justice_conf_t next = *c;
	int rc;

	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	r->c = &next;
	rc = kvfile_read(path, _line, r, err);
	if (rc)
		goto out;
	/* Admission control starts once the history holds Bootstrap jobs;
	 * a history shorter than that never does. */
	if (next.policy == JUSTICE_POLICY_JUSTICE &&
	    next.bootstrap > next.history_length) {
		rc = err_set(err, -EINVAL,
			     "%s: Bootstrap=%ld is above HistoryLength=%d: the history never holds that many jobs, so admission control would never start",
			     r->at[0] ? r->at : path, next.bootstrap,
			     next.history_length);
		goto out;
	}
	*c = next;
out:
	free(r);
	return rc;
}
