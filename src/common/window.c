/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window.c - parsing durations and window specifications; window bounds.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

static double _unit_scale(const char *unit)
{
	static const struct {
		const char *name;
		double scale;
	} units[] = {
		{ "", 1 },	    { "s", 1 },	     { "m", 60 },
		{ "h", 3600 },	    { "d", 86400 },  { "w", 604800 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].scale;
	return 0;
}

/* Whole digits at *p into *v; *end after them.  -EINVAL if none. */
static int _digits(const char *p, double *v, const char **end)
{
	double x = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		x = x * 10 + (*p++ - '0');
	*v = x;
	*end = p;
	return 0;
}

/*
 * Slurm's time format: "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM" or
 * "D-HH:MM:SS", each field whole digits.  Returns 0 with *out in seconds,
 * or -EINVAL.
 */
static int _slurm_time(const char *str, double *out)
{
	double field[4] = { 0 }, v = 0;
	const char *p = str, *dash = strchr(str, '-');
	int n = 0, colons = 0;

	for (const char *q = str; *q; q++)
		colons += *q == ':';
	if (colons > 2 || (dash && strchr(dash + 1, '-')))
		return -EINVAL;
	if (dash) {
		const char *end;

		if (_digits(p, &field[0], &end) || end != dash) /* days */
			return -EINVAL;
		p = dash + 1;
	}
	for (;;) {
		const char *end;

		if (n == 3 || _digits(p, &field[1 + n++], &end))
			return -EINVAL;
		if (*end == ':') {
			p = end + 1;
			continue;
		}
		if (*end)
			return -EINVAL;
		break;
	}
	if (dash) /* D-HH[:MM[:SS]] */
		v = field[0] * 86400 + field[1] * 3600 + field[2] * 60 +
		    field[3];
	else if (n == 2) /* MM:SS */
		v = field[1] * 60 + field[2];
	else if (n == 3) /* HH:MM:SS */
		v = field[1] * 3600 + field[2] * 60 + field[3];
	else
		return -EINVAL;
	if (!isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int duration_parse(const char *str, double *seconds, horae_err_t *err)
{
	char *end;
	double v, scale;

	if (!str || !seconds)
		return err_set(err, -EINVAL, "duration is missing");
	if (!isdigit((unsigned char)str[0]) && str[0] != '.')
		return err_set(err, -EINVAL,
			       "duration '%s' does not start with a number",
			       str);
	if (strpbrk(str, ":-") && !strpbrk(str, "eE")) {
		if (_slurm_time(str, &v))
			return err_set(err, -EINVAL,
				       "duration '%s' is not Slurm's MM:SS, HH:MM:SS or D-HH[:MM[:SS]]",
				       str);
		*seconds = v;
		return 0;
	}
	errno = 0;
	v = strtod(str, &end);
	if (errno || end == str ||
	    strspn(str, "0123456789.eE+-") < (size_t)(end - str))
		return err_set(err, -EINVAL, "duration '%s' is not a number",
			       str);
	scale = _unit_scale(end);
	if (scale == 0)
		return err_set(err, -EINVAL,
			       "duration '%s' has unknown unit '%s' (use s, m, h, d or w)",
			       str, end);
	v *= scale;
	if (!isfinite(v))
		return err_set(err, -EINVAL, "duration '%s' is out of range",
			       str);
	*seconds = v;
	return 0;
}

int window_parse(const char *str, window_spec_t *out, horae_err_t *err)
{
	window_spec_t w = { WINDOW_NONE, 0 };
	const char *colon;
	horae_err_t derr;
	size_t n;

	if (!str || !out)
		return err_set(err, -EINVAL, "window is missing");
	if (!strcmp(str, "none")) {
		*out = w;
		return 0;
	}
	colon = strchr(str, ':');
	n = colon ? (size_t)(colon - str) : strlen(str);
	if (n == 8 && !strncmp(str, "tumbling", n))
		w.kind = WINDOW_TUMBLING;
	else if (n == 7 && !strncmp(str, "sliding", n))
		w.kind = WINDOW_SLIDING;
	else
		return err_set(err, -EINVAL,
			       "window '%s': expected none, tumbling:LENGTH or sliding:LENGTH",
			       str);
	if (!colon || !colon[1])
		return err_set(err, -EINVAL,
			       "window '%s' needs a length, as in %.*s:7d", str,
			       (int)n, str);
	if (duration_parse(colon + 1, &w.length, &derr))
		return err_set(err, -EINVAL, "window '%s': %s", str,
			       derr.text);
	if (w.length <= 0)
		return err_set(err, -EINVAL,
			       "window '%s': length must be greater than 0 (use 'none' for all history)",
			       str);
	*out = w;
	return 0;
}

int window_format(const window_spec_t *w, char *buf, size_t len)
{
	int n;

	if (!w || !buf || !len)
		return -EINVAL;
	switch (w->kind) {
	case WINDOW_NONE:
		n = snprintf(buf, len, "none");
		break;
	case WINDOW_TUMBLING:
		n = snprintf(buf, len, "tumbling:%.15gs", w->length);
		break;
	case WINDOW_SLIDING:
		n = snprintf(buf, len, "sliding:%.15gs", w->length);
		break;
	default:
		return -EINVAL;
	}
	return (n < 0 || (size_t)n >= len) ? -ENOSPC : 0;
}

double window_start(const window_spec_t *w, double now)
{
	switch (w->kind) {
	case WINDOW_TUMBLING:
		return floor(now / w->length) * w->length;
	case WINDOW_SLIDING:
		return now - w->length;
	default:
		return -INFINITY;
	}
}

int window_check_bucket(const window_spec_t *w, double bucket,
			horae_err_t *err)
{
	if (w->kind != WINDOW_SLIDING || bucket <= 0)
		return 0;
	if (bucket > w->length)
		return err_set(err, -EINVAL,
			       "WindowBucket=%gs is longer than the window (%gs)",
			       bucket, w->length);
	if (ceil(w->length / bucket) + 1 > 4096)
		return err_set(err, -EINVAL,
			       "WindowBucket=%gs makes %.0f buckets of a %gs window; at most 4095",
			       bucket, ceil(w->length / bucket), w->length);
	return 0;
}
