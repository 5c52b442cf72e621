/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres.c - TRES vectors: layouts, parsing, formatting and arithmetic.
 * See tres.h for the string format and units.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tres.h"

struct tres_layout {
	int count;
	char names[TRES_MAX][TRES_NAME_MAX];
};

static bool _name_char_ok(char c)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) ||
	       strchr("/_-.:", c);
}

/* Copy the item [s, s+n) into buf, NUL-terminated and cut to fit. */
static void _excerpt(char *buf, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* Append the name [p, p+n) of the list names to layout, checking it. */
static int _layout_append(tres_layout_t *layout, const char *names,
			  const char *p, size_t n, horae_err_t *err)
{
	size_t pos = (size_t)(p - names) + 1;
	char *slot;

	if (n == 0)
		return err_set(err, -EINVAL,
			       "TRES list '%s': empty name at character %zu",
			       names, pos);
	if (n >= TRES_NAME_MAX)
		return err_set(err, -EINVAL,
			       "TRES list '%s': name at character %zu is longer than %d characters",
			       names, pos, TRES_NAME_MAX - 1);
	for (size_t i = 0; i < n; i++)
		if (!_name_char_ok(p[i]))
			return err_set(err, -EINVAL,
				       "TRES list '%s': character %zu ('%c') is not allowed in a TRES name",
				       names, pos + i, p[i]);
	if (layout->count == TRES_MAX)
		return err_set(err, -EINVAL, "TRES list '%s': more than %d TRES",
			       names, TRES_MAX);
	slot = layout->names[layout->count];
	_excerpt(slot, TRES_NAME_MAX, p, n);
	if (tres_layout_find(layout, slot) >= 0)
		return err_set(err, -EINVAL, "TRES list '%s': '%s' appears twice",
			       names, slot);
	layout->count++;
	return 0;
}

tres_layout_t *tres_layout_create(const char *names, horae_err_t *err)
{
	tres_layout_t *layout;
	const char *p, *end;

	if (!names) {
		err_set(err, -EINVAL, "TRES list is missing");
		errno = EINVAL;
		return NULL;
	}
	layout = calloc(1, sizeof(*layout));
	if (!layout) {
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	if (!names[0]) {
		err_set(err, -EINVAL, "TRES list is empty");
		goto fail;
	}
	if (names[strlen(names) - 1] == ',') {
		err_set(err, -EINVAL, "TRES list '%s': trailing comma", names);
		goto fail;
	}
	for (p = names;; p = end + 1) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (_layout_append(layout, names, p, end - p, err))
			goto fail;
		if (!*end)
			break;
	}
	return layout;
fail:
	free(layout);
	errno = EINVAL;
	return NULL;
}

void tres_layout_destroy(tres_layout_t **layout)
{
	if (!layout)
		return;
	free(*layout);
	*layout = NULL;
}

int tres_layout_count(const tres_layout_t *layout)
{
	return layout ? layout->count : 0;
}

const char *tres_layout_name(const tres_layout_t *layout, int i)
{
	if (!layout || i < 0 || i >= layout->count)
		return NULL;
	return layout->names[i];
}

int tres_layout_find(const tres_layout_t *layout, const char *name)
{
	if (!layout || !name)
		return -ENOENT;
	for (int i = 0; i < layout->count; i++)
		if (!strcmp(layout->names[i], name))
			return i;
	return -ENOENT;
}

/*
 * Scale factor of a unit suffix.  Memory is counted in MB, so for it K is
 * 1/1024 and M is 1; plain counts take K = 1024.  Returns 0 for an unknown
 * suffix.
 */
static double _suffix_scale(char c, bool is_mem)
{
	static const char units[] = "KMGTP";
	const char *u = strchr(units, toupper((unsigned char)c));
	double scale;

	if (!c || !u)
		return 0;
	scale = pow(1024.0, (double)(u - units));
	if (!is_mem)
		scale *= 1024.0;
	else
		scale /= 1024.0;
	return scale;
}

static int _parse_value(const char *s, size_t n, bool is_mem, double *out)
{
	char buf[64];
	char *end;
	double v, scale = 1.0;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	_excerpt(buf, sizeof(buf), s, n);
	if (buf[0] == '-')
		return -ERANGE;
	/* Digits first: strtod would also take "nan", "inf" and hex. */
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(buf, &end);
	/* Plain decimal only: no hex, which strtod would also accept. */
	if (end == buf || strspn(buf, "0123456789.eE+-") < (size_t)(end - buf))
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	if (*end) {
		if (end[1])
			return -EINVAL;
		scale = _suffix_scale(*end, is_mem);
		if (scale == 0)
			return -EINVAL;
	} else if (is_mem) {
		scale = 1.0;
	}
	v *= scale;
	if (!isfinite(v) || v < 0)
		return -ERANGE;
	*out = v;
	return 0;
}

int tres_parse(const tres_layout_t *layout, const char *str, tres_vec_t *out,
	       horae_err_t *err)
{
	tres_vec_t vec;
	bool seen[TRES_MAX] = { false };
	char name[TRES_NAME_MAX], item[128];
	const char *p, *end, *eq;
	int slot, rc;

	if (!layout || !str || !out)
		return err_set(err, -EINVAL, "TRES string is missing");
	tres_zero(&vec);
	for (p = str; *p; p = end + 1) {
		size_t pos = (size_t)(p - str) + 1;

		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		_excerpt(item, sizeof(item), p, end - p);
		if (end == p)
			return err_set(err, -EINVAL,
				       "TRES string '%s': empty item at character %zu",
				       str, pos);
		eq = memchr(p, '=', end - p);
		if (!eq)
			return err_set(err, -EINVAL,
				       "TRES string '%s': item '%s' at character %zu has no '=value'",
				       str, item, pos);
		if (eq == p || (size_t)(eq - p) >= TRES_NAME_MAX)
			return err_set(err, -EINVAL,
				       "TRES string '%s': item '%s' at character %zu has no valid name",
				       str, item, pos);
		_excerpt(name, sizeof(name), p, eq - p);
		slot = tres_layout_find(layout, name);
		if (slot < 0)
			return err_set(err, -EINVAL,
				       "TRES string '%s': unknown TRES '%s' at character %zu",
				       str, name, pos);
		if (seen[slot])
			return err_set(err, -EINVAL,
				       "TRES string '%s': '%s' appears twice",
				       str, name);
		seen[slot] = true;
		rc = _parse_value(eq + 1, end - eq - 1, !strcmp(name, "mem"),
				  &vec.v[slot]);
		if (rc == -ERANGE)
			return err_set(err, -EINVAL,
				       "TRES string '%s': value of '%s' at character %zu is negative or out of range",
				       str, name, pos);
		if (rc)
			return err_set(err, -EINVAL,
				       "TRES string '%s': value of '%s' at character %zu is not a number with an optional K/M/G/T/P suffix",
				       str, name, pos);
		if (!*end)
			break;
		if (!end[1])
			return err_set(err, -EINVAL,
				       "TRES string '%s': trailing comma", str);
	}
	*out = vec;
	return 0;
}

int tres_format(const tres_layout_t *layout, const tres_vec_t *vec, char *buf,
		size_t len)
{
	size_t used = 0;
	int n;

	if (!layout || !vec || !buf || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	for (int i = 0; i < layout->count; i++) {
		bool is_mem = !strcmp(layout->names[i], "mem");

		if (vec->v[i] == 0)
			continue;
		n = snprintf(buf + used, len - used, "%s%s=%.15g%s",
			     used ? "," : "", layout->names[i], vec->v[i],
			     is_mem ? "M" : "");
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += n;
	}
	return 0;
}

void tres_zero(tres_vec_t *vec)
{
	memset(vec, 0, sizeof(*vec));
}

void tres_add(tres_vec_t *a, const tres_vec_t *b)
{
	for (int i = 0; i < TRES_MAX; i++)
		a->v[i] += b->v[i];
}

void tres_sub(tres_vec_t *a, const tres_vec_t *b)
{
	for (int i = 0; i < TRES_MAX; i++)
		a->v[i] = a->v[i] > b->v[i] ? a->v[i] - b->v[i] : 0;
}

void tres_scale(tres_vec_t *a, double k)
{
	for (int i = 0; i < TRES_MAX; i++)
		a->v[i] *= k;
}

bool tres_fits(const tres_vec_t *need, const tres_vec_t *avail)
{
	for (int i = 0; i < TRES_MAX; i++)
		if (need->v[i] > avail->v[i])
			return false;
	return true;
}

int tres_slots(const tres_vec_t *vec)
{
	for (int i = TRES_MAX; i > 0; i--)
		if (vec->v[i - 1] != 0)
			return i;
	return 0;
}

bool tres_is_zero(const tres_vec_t *vec)
{
	for (int i = 0; i < TRES_MAX; i++)
		if (vec->v[i] != 0)
			return false;
	return true;
}

double tres_dominant_share(const tres_vec_t *use, const tres_vec_t *cap,
			   int *dom)
{
	double best = 0, share;
	int best_i = -1;

	for (int i = 0; i < TRES_MAX; i++) {
		if (use->v[i] == 0)
			continue;
		share = cap->v[i] > 0 ? use->v[i] / cap->v[i] : INFINITY;
		if (best_i < 0 || share > best) {
			best = share;
			best_i = i;
		}
	}
	if (dom)
		*dom = best_i;
	return best;
}
