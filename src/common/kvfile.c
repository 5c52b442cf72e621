/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kvfile.c - Slurm-style "Key=Value" files with line numbers.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
#include "window.h"

/* Longest logical line (after joining continuations). */
#define KVFILE_LINE_MAX 8192

/* Split buf (modified in place) into pairs. */
static int _split(char *buf, kvfile_line_t *l, horae_err_t *err)
{
	char *p = buf, *key, *eq;

	l->npairs = 0;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			return 0;
		if (l->npairs == KVFILE_MAX_PAIRS)
			return err_set(err, -EINVAL, "more than %d settings on one line",
				       KVFILE_MAX_PAIRS);
		key = p;
		while (*p && *p != '=' && !isspace((unsigned char)*p) &&
		       *p != '#')
			p++;
		if (*p != '=' || p == key) {
			p[strcspn(p, " \t#")] = '\0';
			return err_set(err, -EINVAL,
				       "'%s' is not Key=Value", key);
		}
		eq = p;
		*eq = '\0';
		p++;
		if (*p == '"') {
			char *close = strchr(p + 1, '"');

			if (!close)
				return err_set(err, -EINVAL,
					       "%s=: the quoted value has no closing quote",
					       key);
			*close = '\0';
			l->key[l->npairs] = key;
			l->value[l->npairs++] = p + 1;
			p = close + 1;
			continue;
		}
		l->key[l->npairs] = key;
		l->value[l->npairs++] = p;
		while (*p && !isspace((unsigned char)*p) && *p != '#')
			p++;
		if (*p == '#') {
			*p = '\0';
			return 0;
		}
		if (*p)
			*p++ = '\0';
	}
}

int kvfile_read(const char *path, kvfile_fn fn, void *arg, horae_err_t *err)
{
	FILE *f;
	char *buf = NULL, phys[KVFILE_LINE_MAX];
	size_t len = 0, n;
	int number = 0, first = 0, rc = 0;
	kvfile_line_t line;
	horae_err_t e;

	if (!path || !fn)
		return err_set(err, -EINVAL, "configuration file is missing");
	f = fopen(path, "re");
	if (!f)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	buf = malloc(KVFILE_LINE_MAX);
	if (!buf) {
		fclose(f);
		return err_set(err, -ENOMEM, "out of memory");
	}
	while (fgets(phys, sizeof(phys), f)) {
		number++;
		if (!len)
			first = number;
		n = strcspn(phys, "\r\n");
		phys[n] = '\0';
		if (len + n + 1 > KVFILE_LINE_MAX) {
			rc = err_set(err, -EINVAL, "%s:%d: line too long", path,
				     first);
			break;
		}
		memcpy(buf + len, phys, n + 1);
		len += n;
		if (len && buf[len - 1] == '\\') {
			buf[--len] = ' ';
			len++;
			continue;
		}
		len = 0;
		line.number = first;
		rc = _split(buf, &line, &e);
		if (!rc && line.npairs)
			rc = fn(arg, &line, &e);
		if (rc) {
			err_set(err, rc, "%s:%d: %s", path, first, e.text);
			break;
		}
	}
	free(buf);
	fclose(f);
	return rc;
}

int kvfile_number(const char *key, const char *value, double min,
		  bool strict, double *out, horae_err_t *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (!value[0] || *end || errno || !isfinite(v) ||
	    !(isdigit((unsigned char)value[0]) || value[0] == '.' ||
	      value[0] == '-'))
		return err_set(err, -EINVAL, "%s=%s: not a number", key, value);
	if (strict ? !(v > min) : !(v >= min))
		return err_set(err, -EINVAL, "%s=%s: must be %s %g", key, value,
			       strict ? "greater than" : "at least", min);
	*out = v;
	return 0;
}

int kvfile_duration(const char *key, const char *value, bool positive,
		    double *out, horae_err_t *err)
{
	horae_err_t derr;
	double v;

	if (duration_parse(value, &v, &derr))
		return err_set(err, -EINVAL, "%s=%s: %s", key, value, derr.text);
	if (positive && v <= 0)
		return err_set(err, -EINVAL, "%s=%s: must be greater than 0",
			       key, value);
	*out = v;
	return 0;
}
