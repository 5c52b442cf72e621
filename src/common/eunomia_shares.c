/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_shares.c - select/eunomia's published progress shares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eunomia_shares.h"
#include "json_field.h"

#define _num json_number_new

json_object *eunomia_shares_to_json(double at, double monopoly,
				    const eunomia_account_t *accts,
				    const char *const *names, int n)
{
	json_object *doc = json_object_new_object();
	json_object *rows = json_object_new_array();
	double fair = eunomia_fair_share(accts, n, monopoly);

	if (!doc || !rows)
		goto fail;
	json_object_object_add(doc, "at", _num(at));
	json_object_object_add(doc, "monopoly", _num(monopoly));
	json_object_object_add(doc, "fair_share", _num(fair));
	for (int i = 0; i < n; i++) {
		json_object *r = json_object_new_object();

		if (!r)
			goto fail;
		json_object_object_add(r, "account",
				       json_object_new_string(names[i]));
		json_object_object_add(r, "weight", _num(accts[i].weight));
		json_object_object_add(r, "progress", _num(accts[i].progress));
		json_object_object_add(
			r, "share",
			_num(eunomia_account_share(&accts[i], monopoly)));
		json_object_object_add(r, "active",
				       json_object_new_boolean(accts[i].active));
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
	return json_field(o, key, type, out, "progress shares", err);
}

static int _get_num(json_object *o, const char *key, double *out,
		    horae_err_t *err)
{
	return json_field_double(o, key, out, "progress shares", err);
}

int eunomia_shares_from_json(json_object *doc, eunomia_shares_t *out,
			     horae_err_t *err)
{
	eunomia_shares_t s = { 0 };
	json_object *v, *rows, *r;
	int rc;

	if (!doc || !out)
		return err_set(err, -EINVAL, "progress shares: no document");
	if ((rc = _get_num(doc, "at", &s.at, err)))
		return rc;
	if ((rc = _get_num(doc, "monopoly", &s.monopoly, err)))
		return rc;
	if ((rc = _get_num(doc, "fair_share", &s.fair, err)))
		return rc;
	if ((rc = _get(doc, "accounts", json_type_array, &rows, err)))
		return rc;
	s.n = (int)json_object_array_length(rows);
	s.rows = calloc(s.n ? s.n : 1, sizeof(*s.rows));
	if (!s.rows)
		return err_set(err, -ENOMEM, "progress shares: out of memory");
	for (int i = 0; i < s.n; i++) {
		eunomia_share_row_t *row = &s.rows[i];

		r = json_object_array_get_idx(rows, i);
		if ((rc = _get(r, "account", json_type_string, &v, err)))
			goto fail;
		snprintf(row->name, sizeof(row->name), "%s",
			 json_object_get_string(v));
		if ((rc = _get_num(r, "weight", &row->weight, err)))
			goto fail;
		if ((rc = _get_num(r, "progress", &row->progress, err)))
			goto fail;
		if ((rc = _get_num(r, "share", &row->share, err)))
			goto fail;
		if ((rc = _get(r, "active", json_type_boolean, &v, err)))
			goto fail;
		row->active = json_object_get_boolean(v);
	}
	*out = s;
	return 0;
fail:
	free(s.rows);
	return rc;
}

const eunomia_share_row_t *eunomia_shares_find(const eunomia_shares_t *s,
					       const char *name)
{
	for (int i = 0; s && name && i < s->n; i++)
		if (!strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

void eunomia_shares_free(eunomia_shares_t *s)
{
	if (!s)
		return;
	free(s->rows);
	s->rows = NULL;
	s->n = 0;
}
