/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_shares.c - priority/hmrf's published shares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexfloat.h"
#include "hmrf.h"
#include "hmrf_shares.h"
#include "json_field.h"

#define _num json_number_new

static json_object *_vec(const tres_vec_t *v, int ntres)
{
	json_object *a = json_object_new_array();

	for (int i = 0; a && i < ntres; i++)
		json_object_array_add(a, _num(v->v[i]));
	return a;
}

/* A window sum's row: one string of ntres exact hexadecimal floats,
 * written by hexfloat_format as the state's rows' values are (ledger.c),
 * which printf's decimal would cost some four times as much to write for
 * each of hundreds of accounts each Period. */
static json_object *_row(const tres_vec_t *v, int ntres)
{
	char buf[TRES_MAX * HEXFLOAT_MAX], *p = buf;

	for (int i = 0; i < ntres; i++) {
		if (i)
			*p++ = ' ';
		p += hexfloat_format(v->v[i], p);
	}
	*p = '\0';
	return json_object_new_string_len(buf, (int)(p - buf));
}

/* TRES the cluster has (the shares' denominators). */
static int _present(const tres_vec_t *capacity, int ntres)
{
	int k = 0;

	for (int i = 0; i < ntres; i++)
		k += capacity->v[i] > 0;
	return k;
}

/* One exact hexadecimal float as a string, as a row's values are. */
static json_object *_hex(double v)
{
	char buf[HEXFLOAT_MAX];

	return json_object_new_string_len(buf, (int)hexfloat_format(v, buf));
}

/* The sum of the weights of the accounts that count (hmrf_share_in_t). */
static double _weight_sum(const hmrf_share_in_t *in, int n)
{
	double wsum = 0;

	for (int a = 0; a < n; a++)
		if (in[a].counted && in[a].weight > 0)
			wsum += in[a].weight;
	return wsum;
}

json_object *hmrf_shares_to_json(double at, double span, int ntres,
				 const tres_vec_t *capacity,
				 const hmrf_share_in_t *in, int n)
{
	json_object *doc = json_object_new_object();
	json_object *rows = json_object_new_array_ext(n > 0 ? n : 1);

	if (!doc || !rows || ntres < 0 || ntres > TRES_MAX)
		goto fail;
	json_object_object_add(doc, "at", _num(at));
	json_object_object_add(doc, "span", _num(span));
	json_object_object_add(doc, "ntres", json_object_new_int(ntres));
	json_object_object_add(doc, "capacity", _vec(capacity, ntres));
	json_object_object_add(doc, "weight_sum", _hex(_weight_sum(in, n)));
	for (int a = 0; a < n; a++) {
		json_object *r = json_object_new_object();

		if (!r)
			goto fail;
		json_object_object_add(r, "account",
				       json_object_new_string(in[a].name));
		json_object_object_add(r, "weight", _hex(in[a].weight));
		json_object_object_add(r, "counted",
				       json_object_new_boolean(in[a].counted));
		json_object_object_add(r, "used", _row(&in[a].used, ntres));
		json_object_object_add(r, "ns", _row(&in[a].ns, ntres));
		json_object_object_add(r, "last_start", _num(in[a].last_start));
		json_object_array_add(rows, r);
	}
	json_object_object_add(doc, "accounts", rows);
	return doc;
fail:
	json_object_put(rows);
	json_object_put(doc);
	return NULL;
}

static int _get(json_object *o, const char *key, json_type type,
		json_object **out, horae_err_t *err)
{
	return json_field(o, key, type, out, "shares", err);
}

static int _get_num(json_object *o, const char *key, double *out,
		    horae_err_t *err)
{
	return json_field_double(o, key, out, "shares", err);
}

static int _get_vec(json_object *o, const char *key, int ntres,
		    tres_vec_t *out, horae_err_t *err)
{
	json_object *a, *v;
	int rc;

	if ((rc = _get(o, key, json_type_array, &a, err)))
		return rc;
	if ((int)json_object_array_length(a) != ntres)
		return err_set(err, -EINVAL,
			       "shares: '%s' has %zu values, not %d", key,
			       json_object_array_length(a), ntres);
	tres_zero(out);
	for (int i = 0; i < ntres; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_number(v, &out->v[i]))
			return err_set(err, -EINVAL,
				       "shares: '%s' holds a non-number", key);
	}
	return 0;
}

/* Row key of r (_row): ntres finite numbers, nothing else. */
static int _get_row(json_object *r, const char *key, int ntres,
		    tres_vec_t *out, horae_err_t *err)
{
	json_object *v;
	const char *p;
	char *end;
	int rc;

	if ((rc = _get(r, key, json_type_string, &v, err)))
		return rc;
	p = json_object_get_string(v);
	tres_zero(out);
	for (int i = 0; i < ntres; i++) {
		out->v[i] = strtod(p, &end);
		if (end == p || !isfinite(out->v[i]) ||
		    (*end && *end != ' '))
			return err_set(err, -EINVAL,
				       "shares: '%s' value %d is not a finite number",
				       key, i + 1);
		p = end;
	}
	if (*p)
		return err_set(err, -EINVAL,
			       "shares: '%s' has more than %d values", key,
			       ntres);
	return 0;
}

/* A version 1 row's window sums, which a view from a build before them
 * lacks: all three or none. */
static int _usage(json_object *r, int ntres, hmrf_share_row_t *row,
		  horae_err_t *err)
{
	int rc, k = json_object_object_get_ex(r, "used", NULL) +
		    json_object_object_get_ex(r, "ns", NULL) +
		    json_object_object_get_ex(r, "last_start", NULL);

	if (!k)
		return 0;
	if ((rc = _get_row(r, "used", ntres, &row->used, err)) ||
	    (rc = _get_row(r, "ns", ntres, &row->ns, err)) ||
	    (rc = _get_num(r, "last_start", &row->last_start, err)))
		return rc;
	row->has_usage = true;
	return 0;
}

/* A version 1 row: its shares as written. */
static int _row_v1(json_object *r, int ntres, hmrf_share_row_t *row,
		   horae_err_t *err)
{
	int rc;

	if ((rc = _get_num(r, "weight", &row->weight, err)) ||
	    (rc = _get_num(r, "contribution", &row->contribution, err)) ||
	    (rc = _get_vec(r, "fair_share", ntres, &row->fair, err)) ||
	    (rc = _get_num(r, "dominant_share", &row->dominant, err)) ||
	    (rc = _get_num(r, "aggregate_share", &row->aggregate, err)))
		return rc;
	return _usage(r, ntres, row, err);
}

/* One hexadecimal float (_hex) of o, finite and >= 0. */
static int _get_hex(json_object *o, const char *key, double *out,
		    horae_err_t *err)
{
	tres_vec_t v;
	int rc;

	if ((rc = _get_row(o, key, 1, &v, err)))
		return rc;
	if (!(v.v[0] >= 0))
		return err_set(err, -EINVAL, "shares: '%s' is negative", key);
	*out = v.v[0];
	return 0;
}

/*
 * A version 2 row: its weight and sums, and its shares worked out from
 * them with the view's capacity, span and weight sum wsum, as version 1's
 * writer worked them out.
 */
static int _row_v2(json_object *r, const hmrf_shares_t *s, double wsum,
		   hmrf_share_row_t *row, horae_err_t *err)
{
	int present = _present(&s->capacity, s->ntres), rc;
	json_object *v;
	bool in_sum;

	if ((rc = _get_hex(r, "weight", &row->weight, err)) ||
	    (rc = _get(r, "counted", json_type_boolean, &v, err)) ||
	    (rc = _get_row(r, "used", s->ntres, &row->used, err)) ||
	    (rc = _get_row(r, "ns", s->ntres, &row->ns, err)) ||
	    (rc = _get_num(r, "last_start", &row->last_start, err)))
		return rc;
	row->has_usage = true;
	in_sum = json_object_get_boolean(v) && row->weight > 0 && wsum > 0;
	tres_zero(&row->fair);
	row->contribution = in_sum ? row->weight / wsum : 0;
	if (in_sum)
		hmrf_fair_share(&s->capacity, row->weight, wsum, &row->fair);
	if (s->span > 0 && present > 0) {
		row->dominant =
			hmrf_dominant(&row->used, &s->capacity, 1) / s->span;
		row->aggregate = hmrf_aggregate(&row->used, &s->capacity, 1) /
				 s->span / present;
	}
	return 0;
}

int hmrf_shares_from_json(json_object *doc, int version, hmrf_shares_t *out,
			  horae_err_t *err)
{
	hmrf_shares_t s = { 0 };
	json_object *v, *rows, *r;
	double wsum = 0;
	int rc;

	if (!doc || !out)
		return err_set(err, -EINVAL, "shares: no document");
	if (version < HMRF_SHARES_OLDEST || version > HMRF_SHARES_VERSION)
		return err_set(
			err, -EINVAL,
			"shares: format version %d, this build reads %d to %d",
			version, HMRF_SHARES_OLDEST, HMRF_SHARES_VERSION);
	if ((rc = _get_num(doc, "at", &s.at, err)))
		return rc;
	if ((rc = _get_num(doc, "span", &s.span, err)))
		return rc;
	if ((rc = _get(doc, "ntres", json_type_int, &v, err)))
		return rc;
	s.ntres = json_object_get_int(v);
	if (s.ntres < 0 || s.ntres > TRES_MAX)
		return err_set(err, -EINVAL, "shares: ntres %d out of range",
			       s.ntres);
	if ((rc = _get_vec(doc, "capacity", s.ntres, &s.capacity, err)))
		return rc;
	if (version >= 2 && (rc = _get_hex(doc, "weight_sum", &wsum, err)))
		return rc;
	if ((rc = _get(doc, "accounts", json_type_array, &rows, err)))
		return rc;
	s.n = (int)json_object_array_length(rows);
	s.rows = calloc(s.n ? s.n : 1, sizeof(*s.rows));
	if (!s.rows)
		return err_set(err, -ENOMEM, "shares: out of memory");
	for (int i = 0; i < s.n; i++) {
		hmrf_share_row_t *row = &s.rows[i];

		r = json_object_array_get_idx(rows, i);
		if ((rc = _get(r, "account", json_type_string, &v, err)))
			goto fail;
		snprintf(row->name, sizeof(row->name), "%s",
			 json_object_get_string(v));
		rc = version >= 2 ? _row_v2(r, &s, wsum, row, err) :
				    _row_v1(r, s.ntres, row, err);
		if (rc)
			goto fail;
		s.has_usage = i ? s.has_usage && row->has_usage :
				  row->has_usage;
	}
	*out = s;
	return 0;
fail:
	free(s.rows);
	return rc;
}

const hmrf_share_row_t *hmrf_shares_find(const hmrf_shares_t *s,
					 const char *name)
{
	for (int i = 0; s && name && i < s->n; i++)
		if (!strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

void hmrf_shares_free(hmrf_shares_t *s)
{
	if (!s)
		return;
	free(s->rows);
	s->rows = NULL;
	s->n = 0;
}
