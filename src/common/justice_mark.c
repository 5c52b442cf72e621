/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_mark.c - which finished jobs Justice has learnt from already
 * (justice_mark.h).
 */
#include "justice_mark.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t id;
	double end;
} entry_t;

struct justice_mark {
	double time;
	entry_t kept[JUSTICE_MARK_MAX]; /* ascending id */
	size_t nkept;
	/* This period's: learnt from, and the earliest waiting end.  pass
	 * has room for the kept ids too, so that closing needs no memory. */
	entry_t *pass;
	size_t npass, cap;
	double hold;
};

static int _by_id(const void *a, const void *b)
{
	uint32_t x = ((const entry_t *)a)->id, y = ((const entry_t *)b)->id;

	return (x > y) - (x < y);
}

static int _by_end(const void *a, const void *b)
{
	double x = ((const entry_t *)a)->end, y = ((const entry_t *)b)->end;

	return (x > y) - (x < y);
}

justice_mark_t *justice_mark_create(double since)
{
	justice_mark_t *m = calloc(1, sizeof(*m));

	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->time = since;
	m->hold = INFINITY;
	return m;
}

void justice_mark_destroy(justice_mark_t **m)
{
	if (!m || !*m)
		return;
	free((*m)->pass);
	free(*m);
	*m = NULL;
}

bool justice_mark_seen(const justice_mark_t *m, uint32_t id, double end)
{
	entry_t key = { .id = id };
	const entry_t *e;

	if (!m)
		return false;
	if (end < m->time)
		return true;
	e = bsearch(&key, m->kept, m->nkept, sizeof(key), _by_id);
	return e && e->end == end;
}

int justice_mark_learnt(justice_mark_t *m, uint32_t id, double end)
{
	size_t need;

	if (!m || !isfinite(end))
		return -EINVAL;
	need = m->npass + 1 + JUSTICE_MARK_MAX;
	if (need > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 2 * JUSTICE_MARK_MAX;
		entry_t *p;

		while (cap < need)
			cap *= 2;
		if (!(p = realloc(m->pass, cap * sizeof(*p))))
			return -ENOMEM;
		m->pass = p;
		m->cap = cap;
	}
	m->pass[m->npass].id = id;
	m->pass[m->npass].end = end;
	m->npass++;
	return 0;
}

void justice_mark_waiting(justice_mark_t *m, double end)
{
	if (m && !isnan(end) && end < m->hold)
		m->hold = end;
}

/* Keep the entries of e[0..n) that end at or after t; returns how many. */
static size_t _keep_from(entry_t *e, size_t n, double t)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (e[i].end >= t)
			e[k++] = e[i];
	return k;
}

int justice_mark_close(justice_mark_t *m)
{
	double newest = -INFINITY, t;
	size_t n;

	if (!m)
		return -EINVAL;
	for (size_t i = 0; i < m->npass; i++)
		newest = fmax(newest, m->pass[i].end);
	for (size_t i = 0; i < m->nkept; i++)
		newest = fmax(newest, m->kept[i].end);
	t = fmax(m->time, fmin(newest, m->hold));
	if (m->npass) {
		/* Room was made by justice_mark_learnt. */
		memcpy(m->pass + m->npass, m->kept,
		       m->nkept * sizeof(*m->kept));
		n = _keep_from(m->pass, m->npass + m->nkept, t);
		if (n > JUSTICE_MARK_MAX) {
			qsort(m->pass, n, sizeof(*m->pass), _by_end);
			t = nextafter(m->pass[n - JUSTICE_MARK_MAX - 1].end,
				      INFINITY);
			n = _keep_from(m->pass, n, t);
		}
		memcpy(m->kept, m->pass, n * sizeof(*m->kept));
		m->nkept = n;
	} else {
		m->nkept = _keep_from(m->kept, m->nkept, t);
	}
	qsort(m->kept, m->nkept, sizeof(*m->kept), _by_id);
	m->time = t;
	m->npass = 0;
	m->hold = INFINITY;
	return 0;
}

double justice_mark_time(const justice_mark_t *m)
{
	return m ? m->time : 0;
}

size_t justice_mark_count(const justice_mark_t *m)
{
	return m ? m->nkept : 0;
}

int justice_mark_to_json(const justice_mark_t *m, json_object *doc)
{
	json_object *ids, *ends;

	if (!m || !doc)
		return -EINVAL;
	ids = json_object_new_array();
	ends = json_object_new_array();
	if (!ids || !ends)
		goto nomem;
	for (size_t i = 0; i < m->nkept; i++)
		if (json_object_array_add(ids, json_object_new_int64(
						       m->kept[i].id)) ||
		    json_object_array_add(ends, json_object_new_double(
							m->kept[i].end)))
			goto nomem;
	if (json_object_object_add(doc, "seen_time",
				   json_object_new_double(m->time)) ||
	    json_object_object_add(doc, "seen", ids))
		goto nomem;
	ids = NULL;
	if (json_object_object_add(doc, "seen_end", ends))
		goto nomem;
	return 0;
nomem:
	json_object_put(ids);
	json_object_put(ends);
	return -ENOMEM;
}

static bool _number(json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double);
}

justice_mark_t *justice_mark_from_json(json_object *doc, horae_err_t *err)
{
	json_object *t, *ids, *ends = NULL, *o;
	justice_mark_t *m;
	size_t n;
	int64_t id;

	if (!doc || !json_object_object_get_ex(doc, "seen_time", &t) ||
	    !_number(t) || !isfinite(json_object_get_double(t))) {
		err_set(err, -EINVAL, "seen_time: missing or not a number");
		goto inval;
	}
	if (!json_object_object_get_ex(doc, "seen", &ids) ||
	    !json_object_is_type(ids, json_type_array) ||
	    (n = json_object_array_length(ids)) > JUSTICE_MARK_MAX) {
		err_set(err, -EINVAL,
			"seen: missing, not an array or more than %d ids",
			JUSTICE_MARK_MAX);
		goto inval;
	}
	if (json_object_object_get_ex(doc, "seen_end", &ends) &&
	    (!json_object_is_type(ends, json_type_array) ||
	     json_object_array_length(ends) != n)) {
		err_set(err, -EINVAL,
			"seen_end: not an array as long as seen's (%zu)", n);
		goto inval;
	}
	if (!(m = justice_mark_create(json_object_get_double(t))))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		o = json_object_array_get_idx(ids, i);
		id = json_object_get_int64(o);
		if (!json_object_is_type(o, json_type_int) || id < 1 ||
		    id > UINT32_MAX) {
			err_set(err, -EINVAL, "seen[%zu]: not a job id", i);
			goto bad;
		}
		m->kept[i].id = (uint32_t)id;
		m->kept[i].end = m->time;
		if (!ends)
			continue;
		o = json_object_array_get_idx(ends, i);
		if (!_number(o) || !(json_object_get_double(o) >= m->time) ||
		    !isfinite(json_object_get_double(o))) {
			err_set(err, -EINVAL,
				"seen_end[%zu]: not a time at or after seen_time",
				i);
			goto bad;
		}
		m->kept[i].end = json_object_get_double(o);
	}
	m->nkept = n;
	qsort(m->kept, n, sizeof(*m->kept), _by_id);
	for (size_t i = 1; i < n; i++)
		if (m->kept[i].id == m->kept[i - 1].id) {
			err_set(err, -EINVAL, "seen: job id %u twice",
				m->kept[i].id);
			goto bad;
		}
	return m;
bad:
	justice_mark_destroy(&m);
inval:
	errno = EINVAL;
	return NULL;
}
