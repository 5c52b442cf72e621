/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_json_check.c - see sim_json_check.h.  A recursive descent over the
 * text: value, object, array, string, number, literal; comments are
 * skipped as white space.  It only judges; json-c builds the document.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_json_check.h"

#define DEPTH_MAX 512

typedef struct {
	const char *s, *end, *path;
	horae_err_t *err;
} scan_t;

static int _line(const scan_t *c, const char *at)
{
	int line = 1;

	for (const char *p = c->s; p < at && p < c->end; p++)
		line += *p == '\n';
	return line;
}

static int _bad(const scan_t *c, const char *at, const char *what)
{
	return err_set(c->err, -EINVAL, "%s: line %d: %s", c->path,
		       _line(c, at), what);
}

/* White space and comments; false on a comment that never ends. */
static bool _skip(scan_t *c, const char **p)
{
	for (;;) {
		while (*p < c->end && strchr(" \t\r\n", **p) && **p)
			(*p)++;
		if (*p + 1 < c->end && (*p)[0] == '/' && (*p)[1] == '/') {
			while (*p < c->end && **p != '\n')
				(*p)++;
		} else if (*p + 1 < c->end && (*p)[0] == '/' &&
			   (*p)[1] == '*') {
			const char *e;

			*p += 2;
			for (e = *p; e + 1 < c->end; e++)
				if (e[0] == '*' && e[1] == '/')
					break;
			if (e + 1 >= c->end)
				return false;
			*p = e + 2;
		} else {
			return true;
		}
	}
}

/* A double-quoted string; *key (if given) gets its span. */
static int _string(scan_t *c, const char **p, const char **key, size_t *klen)
{
	const char *q = *p + 1;

	for (; q < c->end && *q != '"'; q++) {
		if ((unsigned char)*q < 0x20)
			return _bad(c, q, "a control character in a string");
		if (*q == '\\' && ++q >= c->end)
			break;
	}
	if (q >= c->end)
		return _bad(c, *p, "a string that never ends");
	if (key) {
		*key = *p + 1;
		*klen = (size_t)(q - (*p + 1));
	}
	*p = q + 1;
	return 0;
}

static int _value(scan_t *c, const char **p, int depth);

typedef struct {
	const char *at;
	size_t len;
	int line;
} key_t_;

static int _object(scan_t *c, const char **p, int depth)
{
	key_t_ *keys = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	(*p)++;
	if (!_skip(c, p))
		return _bad(c, *p, "a comment that never ends");
	if (*p < c->end && **p == '}') {
		(*p)++;
		return 0;
	}
	for (;;) {
		const char *k = NULL;
		size_t klen = 0;

		if (!_skip(c, p)) {
			rc = _bad(c, *p, "a comment that never ends");
			break;
		}
		if (*p < c->end && **p == '}') {
			rc = _bad(c, *p, "a comma before '}' (trailing comma)");
			break;
		}
		if (*p >= c->end || **p != '"') {
			rc = _bad(c, *p,
				  *p < c->end && **p == '\'' ?
					  "a key in single quotes: JSON "
					  "takes double quotes" :
					  "expected a key in double quotes");
			break;
		}
		if ((rc = _string(c, p, &k, &klen)))
			break;
		for (size_t i = 0; i < n; i++) {
			if (keys[i].len == klen &&
			    !memcmp(keys[i].at, k, klen)) {
				char what[160];

				snprintf(what, sizeof(what),
					 "key \"%.*s\" given twice in one "
					 "object (first on line %d)",
					 (int)(klen > 64 ? 64 : klen), k,
					 keys[i].line);
				rc = _bad(c, k, what);
				goto done;
			}
		}
		if (n == cap) {
			key_t_ *m;

			cap = cap ? 2 * cap : 16;
			if (!(m = realloc(keys, cap * sizeof(*m)))) {
				rc = err_set(c->err, -ENOMEM,
					     "%s: out of memory", c->path);
				break;
			}
			keys = m;
		}
		keys[n++] = (key_t_){ k, klen, _line(c, k) };
		if (!_skip(c, p)) {
			rc = _bad(c, *p, "a comment that never ends");
			break;
		}
		if (*p >= c->end || **p != ':') {
			rc = _bad(c, *p, "expected ':' after a key");
			break;
		}
		(*p)++;
		if ((rc = _value(c, p, depth + 1)))
			break;
		if (!_skip(c, p)) {
			rc = _bad(c, *p, "a comment that never ends");
			break;
		}
		if (*p >= c->end) {
			rc = _bad(c, *p, "an object that never ends");
			break;
		}
		if (**p == '}') {
			(*p)++;
			break;
		}
		if (**p != ',') {
			rc = _bad(c, *p, "expected ',' or '}' in an object");
			break;
		}
		(*p)++;
	}
done:
	free(keys);
	return rc;
}

static int _array(scan_t *c, const char **p, int depth)
{
	int rc;

	(*p)++;
	if (!_skip(c, p))
		return _bad(c, *p, "a comment that never ends");
	if (*p < c->end && **p == ']') {
		(*p)++;
		return 0;
	}
	for (;;) {
		if (!_skip(c, p))
			return _bad(c, *p, "a comment that never ends");
		if (*p < c->end && **p == ']')
			return _bad(c, *p,
				    "a comma before ']' (trailing comma)");
		if ((rc = _value(c, p, depth + 1)))
			return rc;
		if (!_skip(c, p))
			return _bad(c, *p, "a comment that never ends");
		if (*p >= c->end)
			return _bad(c, *p, "an array that never ends");
		if (**p == ']') {
			(*p)++;
			return 0;
		}
		if (**p != ',')
			return _bad(c, *p, "expected ',' or ']' in an array");
		(*p)++;
	}
}

static int _value(scan_t *c, const char **p, int depth)
{
	/* json-c also reads NaN and Infinity; the trace reader then says
	 * what the member must be. */
	static const char *const lit[] = { "true", "false", "null", "NaN",
					   "Infinity" };

	if (depth > DEPTH_MAX)
		return _bad(c, *p, "nested deeper than 512 levels");
	if (!_skip(c, p))
		return _bad(c, *p, "a comment that never ends");
	if (*p >= c->end)
		return _bad(c, *p, "expected a value, found the end");
	switch (**p) {
	case '{':
		return _object(c, p, depth);
	case '[':
		return _array(c, p, depth);
	case '"':
		return _string(c, p, NULL, NULL);
	case '\'':
		return _bad(c, *p,
			    "a string in single quotes: JSON takes "
			    "double quotes");
	}
	for (size_t i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
		size_t n = strlen(lit[i]);

		if ((size_t)(c->end - *p) >= n && !strncmp(*p, lit[i], n)) {
			*p += n;
			return 0;
		}
	}
	if (**p == '-' || (**p >= '0' && **p <= '9')) {
		char *e;

		strtod(*p, &e);
		if (e == *p)
			return _bad(c, *p, "not a number");
		*p = e;
		return 0;
	}
	return _bad(c, *p, "expected a value");
}

int sim_json_check(const char *buf, size_t len, const char *path,
		   horae_err_t *err)
{
	scan_t c = { buf, buf + len, path, err };
	const char *p = buf;
	int rc = _value(&c, &p, 0);

	if (!rc && _skip(&c, &p) && p < c.end && *p)
		rc = _bad(&c, p, "text after the JSON document");
	return rc;
}
