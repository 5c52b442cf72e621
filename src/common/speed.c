/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * speed.c - node speed factors from node features.  See speed.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

struct speed_map {
	int count;
	double deflt;
	char name[SPEED_MAX_FEATURES][SPEED_NAME_MAX];
	double factor[SPEED_MAX_FEATURES];
};

static int _add(speed_map_t *m, const char *map, const char *item, size_t n,
		horae_err_t *err)
{
	char buf[SPEED_NAME_MAX + 32], *colon, *end;
	double f;

	if (n == 0)
		return err_set(err, -EINVAL, "speed map '%s': empty item", map);
	if (n >= sizeof(buf))
		return err_set(err, -EINVAL, "speed map '%s': item '%.*s' is too long",
			       map, (int)n, item);
	memcpy(buf, item, n);
	buf[n] = '\0';
	colon = strchr(buf, ':');
	if (!colon || colon == buf)
		return err_set(err, -EINVAL,
			       "speed map '%s': '%s' is not feature:factor", map,
			       buf);
	*colon = '\0';
	if (strlen(buf) >= SPEED_NAME_MAX)
		return err_set(err, -EINVAL, "speed map '%s': feature '%s' is too long",
			       map, buf);
	errno = 0;
	f = strtod(colon + 1, &end);
	if (!colon[1] || *end || errno || !isdigit((unsigned char)colon[1]))
		return err_set(err, -EINVAL,
			       "speed map '%s': factor '%s' of '%s' is not a number",
			       map, colon + 1, buf);
	if (!isfinite(f) || f <= 0)
		return err_set(err, -EINVAL,
			       "speed map '%s': factor of '%s' must be greater than 0",
			       map, buf);
	for (int i = 0; i < m->count; i++)
		if (!strcmp(m->name[i], buf))
			return err_set(err, -EINVAL,
				       "speed map '%s': feature '%s' appears twice",
				       map, buf);
	if (m->count == SPEED_MAX_FEATURES)
		return err_set(err, -EINVAL, "speed map '%s': more than %d features",
			       map, SPEED_MAX_FEATURES);
	snprintf(m->name[m->count], SPEED_NAME_MAX, "%s", buf);
	m->factor[m->count++] = f;
	return 0;
}

speed_map_t *speed_map_create(const char *map, double deflt, horae_err_t *err)
{
	speed_map_t *m;
	const char *p, *end;

	if (!map || !isfinite(deflt) || deflt <= 0) {
		err_set(err, -EINVAL, "speed map: missing map or default factor <= 0");
		errno = EINVAL;
		return NULL;
	}
	if (!(m = calloc(1, sizeof(*m)))) {
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	m->deflt = deflt;
	for (p = map; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (_add(m, map, p, end - p, err) ||
		    (*end && !end[1] &&
		     err_set(err, -EINVAL, "speed map '%s': trailing comma", map))) {
			free(m);
			errno = EINVAL;
			return NULL;
		}
	}
	return m;
}

void speed_map_destroy(speed_map_t **m)
{
	if (!m)
		return;
	free(*m);
	*m = NULL;
}

double speed_of_feature(const speed_map_t *m, const char *feature)
{
	for (int i = 0; m && feature && i < m->count; i++)
		if (!strcmp(m->name[i], feature))
			return m->factor[i];
	return 0;
}

double speed_of_account(const speed_map_t *over, const speed_map_t *m,
			const char *features)
{
	char buf[SPEED_NAME_MAX];
	const char *p, *end;
	double best = 0, f;
	size_t n;

	for (p = features; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (n == 0 || n >= sizeof(buf))
			continue;
		memcpy(buf, p, n);
		buf[n] = '\0';
		f = speed_of_feature(over, buf);
		if (!(f > 0))
			f = speed_of_feature(m, buf);
		best = fmax(best, f);
	}
	return best > 0 ? best : m->deflt;
}

double speed_of(const speed_map_t *m, const char *features)
{
	return speed_of_account(NULL, m, features);
}

int speed_map_count(const speed_map_t *m)
{
	return m ? m->count : 0;
}
