/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_records.c - Justice's per-job records: a sorted array searched
 * by bisection (a waiting queue is small; inserts of new job ids, which
 * grow, land at the end), and its JSON form.  See justice_records.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_field.h"
#include "justice_records.h"

struct justice_records {
	justice_record_t *r;
	size_t n, cap;
};

justice_records_t *justice_records_create(void)
{
	justice_records_t *t = calloc(1, sizeof(*t));

	if (!t)
		errno = ENOMEM;
	return t;
}

void justice_records_destroy(justice_records_t **t)
{
	if (!t || !*t)
		return;
	free((*t)->r);
	free(*t);
	*t = NULL;
}

static bool _cpus(double v)
{
	return isfinite(v) && v >= 0 && v <= 1e12;
}

int justice_record_check(const justice_record_t *r, horae_err_t *err)
{
	if (!r)
		return err_set(err, -EINVAL, "record: none");
	if (r->key < 1 || r->key > JUSTICE_RECORD_U32_MAX)
		return err_set(err, -EINVAL, "record %u: key out of range",
			       r->key);
	if (r->uid > JUSTICE_RECORD_U32_MAX)
		return err_set(err, -EINVAL, "record %u: uid out of range",
			       r->key);
	if (r->submit < 0 || r->deadline <= 0 || r->updated < 0)
		return err_set(
			err, -EINVAL,
			"record %u: submit, deadline or updated out of range",
			r->key);
	if (!_cpus(r->max_cpus) || !(r->max_cpus > 0) || !_cpus(r->allotted) ||
	    !_cpus(r->per_node))
		return err_set(
			err, -EINVAL,
			"record %u: max_cpus, allotted or per_node not a CPU count",
			r->key);
	if (r->limit_min > JUSTICE_RECORD_U32_MAX)
		return err_set(err, -EINVAL,
			       "record %u: limit_min out of range", r->key);
	if (r->elastic &&
	    (r->min_nodes < 1 || r->min_nodes > r->max_nodes ||
	     r->max_nodes > JUSTICE_RECORD_U32_MAX || !(r->per_node > 0)))
		return err_set(
			err, -EINVAL,
			"record %u: node range %u-%u of %g CPUs cannot be sized",
			r->key, r->min_nodes, r->max_nodes, r->per_node);
	if (r->sized_to && (!r->elastic || r->sized_to < r->min_nodes ||
			    r->sized_to > r->max_nodes))
		return err_set(err, -EINVAL,
			       "record %u: sized_to %u outside its node range",
			       r->key, r->sized_to);
	return 0;
}

/* Index of key, or where it would go (*found false). */
static size_t _find(const justice_records_t *t, uint32_t key, bool *found)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->r[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < t->n && t->r[lo].key == key;
	return lo;
}

int justice_records_put(justice_records_t *t, const justice_record_t *r,
			horae_err_t *err)
{
	size_t i;
	bool found;
	int rc;

	if (!t)
		return err_set(err, -EINVAL, "records: none");
	if ((rc = justice_record_check(r, err)))
		return rc;
	i = _find(t, r->key, &found);
	if (found) {
		t->r[i] = *r;
		return 0;
	}
	if (t->n >= JUSTICE_RECORDS_MAX)
		return err_set(err, -ENOSPC, "records: %d already",
			       JUSTICE_RECORDS_MAX);
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		justice_record_t *p = realloc(t->r, cap * sizeof(*p));

		if (!p)
			return err_set(err, -ENOMEM, "records: out of memory");
		t->r = p;
		t->cap = cap;
	}
	memmove(&t->r[i + 1], &t->r[i], (t->n - i) * sizeof(*t->r));
	t->r[i] = *r;
	t->n++;
	return 0;
}

const justice_record_t *justice_records_get(const justice_records_t *t,
					    uint32_t key)
{
	size_t i;
	bool found;

	if (!t)
		return NULL;
	i = _find(t, key, &found);
	return found ? &t->r[i] : NULL;
}

int justice_records_remove(justice_records_t *t, uint32_t key)
{
	size_t i;
	bool found;

	if (!t)
		return -ENOENT;
	i = _find(t, key, &found);
	if (!found)
		return -ENOENT;
	memmove(&t->r[i], &t->r[i + 1], (t->n - i - 1) * sizeof(*t->r));
	t->n--;
	return 0;
}

size_t justice_records_count(const justice_records_t *t)
{
	return t ? t->n : 0;
}

const justice_record_t *justice_records_at(const justice_records_t *t, size_t i)
{
	return t && i < t->n ? &t->r[i] : NULL;
}

static int _cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

long justice_records_prune(justice_records_t *t, const uint32_t *keep,
			   size_t nkeep, int64_t before)
{
	uint32_t *ids = NULL;
	size_t out = 0;
	long dropped;

	if (!t || (!keep && nkeep))
		return -EINVAL;
	if (keep && nkeep) {
		if (!(ids = malloc(nkeep * sizeof(*ids))))
			return -ENOMEM;
		memcpy(ids, keep, nkeep * sizeof(*ids));
		qsort(ids, nkeep, sizeof(*ids), _cmp_u32);
	}
	for (size_t i = 0; i < t->n; i++) {
		const justice_record_t *r = &t->r[i];

		if (keep && (!ids || !bsearch(&r->key, ids, nkeep, sizeof(*ids),
					      _cmp_u32)))
			continue;
		if (before > 0 && r->updated < before)
			continue;
		t->r[out++] = *r;
	}
	dropped = (long)(t->n - out);
	t->n = out;
	free(ids);
	return dropped;
}

/* --- JSON ----------------------------------------------------------------- */

static const struct {
	const char *name;
	size_t off;
	enum { F_U32, F_I64, F_DBL } type;
} fields[] = {
	{ "key", offsetof(justice_record_t, key), F_U32 },
	{ "uid", offsetof(justice_record_t, uid), F_U32 },
	{ "submit", offsetof(justice_record_t, submit), F_I64 },
	{ "deadline", offsetof(justice_record_t, deadline), F_I64 },
	{ "max_cpus", offsetof(justice_record_t, max_cpus), F_DBL },
	{ "min_nodes", offsetof(justice_record_t, min_nodes), F_U32 },
	{ "max_nodes", offsetof(justice_record_t, max_nodes), F_U32 },
	{ "per_node", offsetof(justice_record_t, per_node), F_DBL },
	{ "limit_min", offsetof(justice_record_t, limit_min), F_U32 },
	{ "allotted", offsetof(justice_record_t, allotted), F_DBL },
	{ "sized_to", offsetof(justice_record_t, sized_to), F_U32 },
	{ "updated", offsetof(justice_record_t, updated), F_I64 },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static json_object *_record_to_json(const justice_record_t *r)
{
	json_object *o = json_object_new_object(), *v;

	if (!o)
		return NULL;
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *p = (const char *)r + fields[i].off;

		switch (fields[i].type) {
		case F_U32:
			v = json_object_new_int64(*(const uint32_t *)p);
			break;
		case F_I64:
			v = json_object_new_int64(*(const int64_t *)p);
			break;
		default:
			v = json_number_new(*(const double *)p);
			break;
		}
		if (!v || json_object_object_add(o, fields[i].name, v)) {
			json_object_put(v);
			json_object_put(o);
			return NULL;
		}
	}
	v = json_object_new_boolean(r->elastic);
	if (!v || json_object_object_add(o, "elastic", v)) {
		json_object_put(v);
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *justice_records_to_json(const justice_records_t *t)
{
	json_object *arr = json_object_new_array(), *o;

	for (size_t i = 0; arr && t && i < t->n; i++) {
		if (!(o = _record_to_json(&t->r[i])) ||
		    json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* One integer field of o in [lo, hi] into *out. */
static int _int(json_object *o, size_t i, const char *name, int64_t lo,
		int64_t hi, int64_t *out, horae_err_t *err)
{
	json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, name, &v) ||
	    !json_object_is_type(v, json_type_int))
		return err_set(
			err, -EINVAL,
			"records: record %zu: field '%s' missing or not an integer",
			i, name);
	x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return err_set(
			err, -EINVAL,
			"records: record %zu: field '%s' = %lld out of range",
			i, name, (long long)x);
	*out = x;
	return 0;
}

static int _record_from_json(json_object *o, size_t i, justice_record_t *r,
			     horae_err_t *err)
{
	json_object *v;
	char what[64];
	int64_t x;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object))
		return err_set(err, -EINVAL,
			       "records: record %zu: not an object", i);
	snprintf(what, sizeof(what), "records: record %zu", i);
	for (size_t f = 0; f < NFIELDS; f++) {
		char *p = (char *)r + fields[f].off;

		switch (fields[f].type) {
		case F_U32:
			if ((rc = _int(o, i, fields[f].name, 0,
				       JUSTICE_RECORD_U32_MAX, &x, err)))
				return rc;
			*(uint32_t *)p = (uint32_t)x;
			break;
		case F_I64:
			if ((rc = _int(o, i, fields[f].name, 0, INT64_MAX, &x,
				       err)))
				return rc;
			*(int64_t *)p = x;
			break;
		default:
			if ((rc = json_field_double(o, fields[f].name,
						    (double *)p, what, err)))
				return rc;
			break;
		}
	}
	if (json_field(o, "elastic", json_type_boolean, &v, what, err))
		return -EINVAL;
	r->elastic = json_object_get_boolean(v);
	return justice_record_check(r, err);
}

justice_records_t *justice_records_from_json(json_object *arr, horae_err_t *err)
{
	justice_records_t *t = NULL;
	justice_record_t r;
	size_t n;
	int rc = -EINVAL;

	if (!arr || !json_object_is_type(arr, json_type_array)) {
		err_set(err, -EINVAL, "records: not an array");
		goto fail;
	}
	n = json_object_array_length(arr);
	if (n > JUSTICE_RECORDS_MAX) {
		err_set(err, -EINVAL, "records: %zu, more than %d", n,
			JUSTICE_RECORDS_MAX);
		goto fail;
	}
	if (!(t = justice_records_create())) {
		rc = -ENOMEM;
		err_set(err, rc, "records: out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		if ((rc = _record_from_json(json_object_array_get_idx(arr, i),
					    i, &r, err)))
			goto fail_table;
		if (justice_records_get(t, r.key)) {
			rc = err_set(err, -EINVAL,
				     "records: record %zu: key %u repeated", i,
				     r.key);
			goto fail_table;
		}
		if ((rc = justice_records_put(t, &r, err)))
			goto fail_table;
	}
	return t;

fail_table:
	justice_records_destroy(&t);
fail:
	errno = -rc;
	return NULL;
}
