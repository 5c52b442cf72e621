/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kvfile.c - Slurm-style "Key=Value" files with line numbers.
 */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "kvfile.h"
#include "window.h"

/* Longest logical line (after joining continuations). */
#define KVFILE_LINE_MAX 8192

/* Deepest chain of Include lines (a file that includes itself stops here). */
#define KVFILE_DEPTH_MAX 16

static char *_skip_blanks(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * Split buf (modified in place) into pairs: "Key=Value", blanks allowed
 * around the '=' as Slurm allows them ("Key = Value").  A value that is
 * missing before the next pair ("Key= Next=1") is empty.
 */
static int _split(char *buf, kvfile_line_t *l, horae_err_t *err)
{
	char *p = buf, *key, *key_end, *value;

	l->npairs = 0;
	for (;;) {
		p = _skip_blanks(p);
		if (!*p || *p == '#')
			return 0;
		if (l->npairs == KVFILE_MAX_PAIRS)
			return err_set(err, -EINVAL, "more than %d settings on one line",
				       KVFILE_MAX_PAIRS);
		key = p;
		while (*p && *p != '=' && !isspace((unsigned char)*p) &&
		       *p != '#')
			p++;
		key_end = p;
		p = _skip_blanks(p);
		if (*p != '=' || key_end == key) {
			key_end[strcspn(key_end, " \t#")] = '\0';
			return err_set(err, -EINVAL,
				       "'%s' is not Key=Value", key);
		}
		*key_end = '\0';
		p++;
		value = _skip_blanks(p);
		if (*value == '"') {
			char *close = strchr(value + 1, '"');

			if (!close)
				return err_set(err, -EINVAL,
					       "%s=: the quoted value has no closing quote",
					       key);
			*close = '\0';
			l->key[l->npairs] = key;
			l->value[l->npairs++] = value + 1;
			p = close + 1;
			continue;
		}
		if (value != p) {
			/* "Key= Next=1": the word after the blank is the
			 * next pair, and Key's value is empty. */
			size_t w = strcspn(value, " \t#");

			if (memchr(value, '=', w)) {
				l->key[l->npairs] = key;
				l->value[l->npairs++] = "";
				p = value;
				continue;
			}
		}
		p = value;
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

/*
 * If buf is an Include line ("Include PATH", the keyword in any case),
 * point *target at PATH (its quotes and a trailing comment gone; buf is
 * modified) and return true.
 */
static bool _include(char *buf, char **target)
{
	char *p = _skip_blanks(buf), *end;

	if (strncasecmp(p, "include", 7) || (p[7] != ' ' && p[7] != '\t'))
		return false;
	p = _skip_blanks(p + 7);
	if (*p == '"') {
		end = strchr(++p, '"');
		if (end)
			*end = '\0';
	} else {
		end = p + strcspn(p, "#");
		*end = '\0';
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
	}
	*target = p;
	return true;
}

static int _read(const char *path, kvfile_fn fn, void *arg, int depth,
		 horae_err_t *err);

/*
 * Read every file that Include line `line` of `from` names: PATH relative
 * to from's directory unless absolute, with Slurm's shell wildcards; the
 * files in name order.  Errors name the included file and its line.
 */
static int _read_include(const char *from, int line, const char *target,
			 kvfile_fn fn, void *arg, int depth, horae_err_t *err)
{
	char *pattern = NULL;
	const char *slash = strrchr(from, '/');
	glob_t g;
	int rc;

	if (!target[0])
		return err_set(err, -EINVAL, "%s:%d: Include needs a file",
			       from, line);
	if (depth >= KVFILE_DEPTH_MAX)
		return err_set(err, -EINVAL,
			       "%s:%d: Include %s: more than %d files deep (does a file include itself?)",
			       from, line, target, KVFILE_DEPTH_MAX);
	if (target[0] != '/' && slash) {
		size_t n = (size_t)(slash - from) + 1;

		pattern = malloc(n + strlen(target) + 1);
		if (!pattern)
			return err_set(err, -ENOMEM, "out of memory");
		memcpy(pattern, from, n);
		strcpy(pattern + n, target);
	}
	rc = glob(pattern ? pattern : target, GLOB_ERR, NULL, &g);
	if (rc == GLOB_NOMATCH) {
		rc = err_set(err, -EINVAL, "%s:%d: Include %s: no such file",
			     from, line, pattern ? pattern : target);
		goto out_pattern;
	}
	if (rc) {
		rc = err_set(err, rc == GLOB_NOSPACE ? -ENOMEM : -EIO,
			     "%s:%d: Include %s: cannot read it", from, line,
			     pattern ? pattern : target);
		goto out_pattern;
	}
	for (size_t i = 0; !rc && i < g.gl_pathc; i++) {
		rc = _read(g.gl_pathv[i], fn, arg, depth + 1, err);
		/* Not -ENOENT: that says the main file is missing. */
		if (rc == -ENOENT)
			rc = err_set(err, -EINVAL, "%s:%d: Include %s: no such file",
				     from, line, g.gl_pathv[i]);
	}
	globfree(&g);
out_pattern:
	free(pattern);
	return rc;
}

static int _read(const char *path, kvfile_fn fn, void *arg, int depth,
		 horae_err_t *err)
{
	FILE *f;
	char *buf = NULL, phys[KVFILE_LINE_MAX], *target;
	size_t len = 0, n;
	int number = 0, first = 0, rc = 0;
	kvfile_line_t line;
	horae_err_t e;
	struct stat sb;

	f = fopen(path, "re");
	if (!f)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (!fstat(fileno(f), &sb) && S_ISDIR(sb.st_mode)) {
		fclose(f);
		return err_set(err, -EINVAL, "%s: is a directory, not a file",
			       path);
	}
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
		if (_include(buf, &target)) {
			rc = _read_include(path, first, target, fn, arg, depth,
					   err);
			if (rc)
				break;
			continue;
		}
		line.path = path;
		line.number = first;
		rc = _split(buf, &line, &e);
		if (!rc && line.npairs)
			rc = fn(arg, &line, &e);
		if (rc) {
			err_set(err, rc, "%s:%d: %s", path, first, e.text);
			break;
		}
	}
	if (!rc && ferror(f))
		rc = err_set(err, -EIO, "%s: read error", path);
	free(buf);
	fclose(f);
	return rc;
}

int kvfile_read(const char *path, kvfile_fn fn, void *arg, horae_err_t *err)
{
	if (!path || !fn)
		return err_set(err, -EINVAL, "configuration file is missing");
	return _read(path, fn, arg, 0, err);
}

int kvfile_seen_once(kvfile_seen_t *s, const kvfile_line_t *l, int i,
		     horae_err_t *err)
{
	const char *key = l->key[i];

	if (strlen(key) >= sizeof(s->at[0].key))
		return 0;
	for (int k = 0; k < s->n; k++)
		if (!strcasecmp(s->at[k].key, key))
			return err_set(err, -EINVAL,
				       "%s is set twice (first at %s:%d)", key,
				       s->at[k].path, s->at[k].line);
	if (s->n == KVFILE_SEEN_MAX)
		return 0;
	snprintf(s->at[s->n].key, sizeof(s->at[0].key), "%s", key);
	snprintf(s->at[s->n].path, sizeof(s->at[0].path), "%s",
		 l->path ? l->path : "");
	s->at[s->n++].line = l->number;
	return 0;
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

int kvfile_duration_or_unlimited(const char *key, const char *value,
				 bool positive, double unlimited, double *out,
				 horae_err_t *err)
{
	if (value && (!strcasecmp(value, "UNLIMITED") ||
		      !strcasecmp(value, "INFINITE"))) {
		*out = unlimited;
		return 0;
	}
	return kvfile_duration(key, value, positive, out, err);
}
