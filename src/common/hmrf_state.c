/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_state.c - priority/hmrf's persistent state and its JSON form.
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hmrf_state_impl.h"
#include "json_field.h"
#include "ledger_doc.h"

hmrf_state_t *hmrf_state_create(const window_spec_t *w, double bucket,
				 const char *tres, double now,
				 horae_err_t *err)
{
	hmrf_state_t *st = calloc(1, sizeof(*st));
	tres_layout_t *layout;
	int ntres;

	if (!st) {
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	layout = tres ? tres_layout_create(tres, err) : NULL;
	if (!layout || strlen(tres) >= sizeof(st->tres)) {
		tres_layout_destroy(&layout);
		free(st);
		errno = EINVAL;
		return NULL;
	}
	ntres = tres_layout_count(layout);
	tres_layout_destroy(&layout);
	snprintf(st->tres, sizeof(st->tres), "%s", tres);
	st->charged_until = now;
	st->usage = ledger_create(w, bucket, ntres, now, err);
	if (st->usage)
		st->ns = ledger_create(w, bucket, ntres, now, err);
	if (st->ns)
		st->names = names_create();
	if (!st->names) {
		int e = errno;

		hmrf_state_destroy(&st);
		errno = e;
		return NULL;
	}
	return st;
}

void hmrf_state_destroy(hmrf_state_t **st)
{
	if (!st || !*st)
		return;
	names_destroy(&(*st)->names);
	ledger_destroy(&(*st)->usage);
	ledger_destroy(&(*st)->ns);
	free((*st)->last_start);
	free(*st);
	*st = NULL;
}

/* Room for n accounts everywhere. */
static int _grow(hmrf_state_t *st, int n)
{
	double *ls;

	if (ledger_grow(st->usage, n) || ledger_grow(st->ns, n))
		return -ENOMEM;
	ls = realloc(st->last_start, (size_t)n * sizeof(*ls));
	if (!ls)
		return -ENOMEM;
	for (int i = names_count(st->names); i < n; i++)
		ls[i] = 0;
	st->last_start = ls;
	return 0;
}

int hmrf_state_account(hmrf_state_t *st, const char *name)
{
	int i, n;

	if (!st || !name)
		return -EINVAL;
	i = names_find(st->names, name);
	if (i >= 0)
		return i;
	n = names_count(st->names);
	/* Grow first, so that a failure leaves no half-added account. */
	if (_grow(st, n + 1))
		return -ENOMEM;
	return names_intern(st->names, name);
}

hmrf_state_t *hmrf_state_dup(const hmrf_state_t *st)
{
	hmrf_state_t *c = calloc(1, sizeof(*c));
	int n = names_count(st->names);

	if (!c)
		goto nomem;
	memcpy(c->tres, st->tres, sizeof(c->tres));
	c->charged_until = st->charged_until;
	c->names = names_create();
	c->usage = ledger_dup(st->usage);
	c->ns = ledger_dup(st->ns);
	c->last_start = malloc((n ? n : 1) * sizeof(double));
	if (!c->names || !c->usage || !c->ns || !c->last_start)
		goto nomem;
	for (int i = 0; i < n; i++)
		if (names_intern(c->names, names_get(st->names, i)) != i)
			goto nomem;
	memcpy(c->last_start, st->last_start, n * sizeof(double));
	return c;
nomem:
	hmrf_state_destroy(&c);
	errno = ENOMEM;
	return NULL;
}

int hmrf_state_retres(hmrf_state_t **st, const char *tres, horae_err_t *err)
{
	tres_layout_t *to = NULL, *from = NULL;
	int map[TRES_MAX], n, rc = 0;
	ledger_t *usage = NULL, *ns = NULL;

	if (!st || !*st || !tres)
		return err_set(err, -EINVAL, "retres: missing arguments");
	if (strlen(tres) >= sizeof((*st)->tres))
		return err_set(err, -EINVAL, "TRES list too long");
	if (!(to = tres_layout_create(tres, err)) ||
	    !(from = tres_layout_create((*st)->tres, err))) {
		rc = -EINVAL;
		goto cleanup;
	}
	n = tres_layout_count(to);
	for (int i = 0; i < n; i++)
		map[i] = tres_layout_find(from, tres_layout_name(to, i));
	usage = ledger_remap((*st)->usage, map, n);
	ns = ledger_remap((*st)->ns, map, n);
	if (!usage || !ns) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	ledger_destroy(&(*st)->usage);
	ledger_destroy(&(*st)->ns);
	(*st)->usage = usage;
	(*st)->ns = ns;
	usage = ns = NULL;
	snprintf((*st)->tres, sizeof((*st)->tres), "%s", tres);
cleanup:
	ledger_destroy(&usage);
	ledger_destroy(&ns);
	tres_layout_destroy(&to);
	tres_layout_destroy(&from);
	return rc;
}

/* A deep copy holding st's accounts idx[0..k) (ascending), in that
 * order; NULL with errno ENOMEM. */
static hmrf_state_t *_pick(const hmrf_state_t *st, const int *idx, int k)
{
	hmrf_state_t *c = calloc(1, sizeof(*c));

	if (!c)
		goto nomem;
	memcpy(c->tres, st->tres, sizeof(c->tres));
	c->charged_until = st->charged_until;
	c->names = names_create();
	c->usage = ledger_select(st->usage, idx, k);
	c->ns = ledger_select(st->ns, idx, k);
	c->last_start = malloc((k ? k : 1) * sizeof(double));
	if (!c->names || !c->usage || !c->ns || !c->last_start)
		goto nomem;
	for (int j = 0; j < k; j++) {
		if (names_intern(c->names, names_get(st->names, idx[j])) != j)
			goto nomem;
		c->last_start[j] = st->last_start[idx[j]];
	}
	return c;
nomem:
	hmrf_state_destroy(&c);
	errno = ENOMEM;
	return NULL;
}

hmrf_state_t *hmrf_state_select(const hmrf_state_t *st,
				bool (*keep)(const char *name, void *arg),
				void *arg)
{
	int n = names_count(st->names), k = 0;
	int *idx = malloc((n ? n : 1) * sizeof(int));
	hmrf_state_t *c;

	if (!idx) {
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (keep(names_get(st->names, i), arg))
			idx[k++] = i;
	c = _pick(st, idx, k);
	free(idx);
	return c;
}

hmrf_state_t *hmrf_state_select_reader(const hmrf_state_t *st,
				       const view_reader_t *v)
{
	int n = st && v ? names_count(st->names) : 0, k;
	int *idx;
	hmrf_state_t *c;

	if (!st || !v) {
		errno = EINVAL;
		return NULL;
	}
	if (!(idx = malloc((n ? n : 1) * sizeof(int)))) {
		errno = ENOMEM;
		return NULL;
	}
	k = view_reader_pick(v, st->names, idx);
	c = _pick(st, idx, k);
	free(idx);
	return c;
}

json_object *hmrf_state_to_json(const hmrf_state_t *st)
{
	const ledger_doc_t d = {
		.tres = st->tres,
		.charged_until = st->charged_until,
		.since = NAN,
		.names = st->names,
		.last_start = st->last_start,
		.usage = st->usage,
		.nonsharing = st->ns,
	};

	return ledger_doc_to_json(&d);
}

static int _load_names(hmrf_state_t *st, json_object *names, json_object *ls,
		       horae_err_t *err)
{
	size_t n = json_object_array_length(names);
	json_object *v;

	if (json_object_array_length(ls) != n)
		return err_set(err, -EINVAL,
			       "'last_start' has %zu entries for %zu accounts",
			       json_object_array_length(ls), n);
	if ((size_t)ledger_count(st->usage) != n ||
	    (size_t)ledger_count(st->ns) != n)
		return err_set(err, -EINVAL,
			       "ledgers hold %d and %d accounts, not %zu",
			       ledger_count(st->usage), ledger_count(st->ns), n);
	st->last_start = calloc(n ? n : 1, sizeof(double));
	if (!st->last_start)
		return err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		v = json_object_array_get_idx(names, i);
		if (!json_object_is_type(v, json_type_string))
			return err_set(err, -EINVAL,
				       "'accounts[%zu]' is not a string", i);
		if (names_intern(st->names, json_object_get_string(v)) !=
		    (int)i)
			return err_set(err, -EINVAL,
				       "'accounts[%zu]' ('%s') appears twice",
				       i, json_object_get_string(v));
		v = json_object_array_get_idx(ls, i);
		if (!json_number(v, &st->last_start[i]))
			return err_set(err, -EINVAL,
				       "'last_start[%zu]' is not a finite number",
				       i);
	}
	return 0;
}

hmrf_state_t *hmrf_state_from_json(json_object *doc, horae_err_t *err)
{
	json_object *names, *ls, *usage, *ns, *cu, *tres;
	horae_err_t lerr;
	hmrf_state_t *st = calloc(1, sizeof(*st));

	if (!st || !(st->names = names_create())) {
		err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "accounts", &names) ||
	    !json_object_is_type(names, json_type_array) ||
	    !json_object_object_get_ex(doc, "last_start", &ls) ||
	    !json_object_is_type(ls, json_type_array) ||
	    !json_object_object_get_ex(doc, "usage", &usage) ||
	    !json_object_object_get_ex(doc, "nonsharing", &ns) ||
	    !json_object_object_get_ex(doc, "tres", &tres) ||
	    !json_object_is_type(tres, json_type_string) ||
	    json_object_get_string_len(tres) >= (int)sizeof(st->tres) ||
	    !json_object_object_get_ex(doc, "charged_until", &cu) ||
	    !json_number(cu, &st->charged_until)) {
		err_set(err, -EINVAL,
			"missing or mistyped accounts, last_start, usage, nonsharing, tres or charged_until");
		goto fail;
	}
	snprintf(st->tres, sizeof(st->tres), "%s", json_object_get_string(tres));
	if (!(st->usage = ledger_from_json(usage, &lerr))) {
		err_set(err, -EINVAL, "usage: %s", lerr.text);
		goto fail;
	}
	if (!(st->ns = ledger_from_json(ns, &lerr))) {
		err_set(err, -EINVAL, "nonsharing: %s", lerr.text);
		goto fail;
	}
	if (_load_names(st, names, ls, err))
		goto fail;
	return st;
fail:
	hmrf_state_destroy(&st);
	errno = EINVAL;
	return NULL;
}

const char *hmrf_state_tres(const hmrf_state_t *st)
{
	return st->tres;
}

const names_t *hmrf_state_names(const hmrf_state_t *st)
{
	return st->names;
}

const ledger_t *hmrf_state_usage(const hmrf_state_t *st)
{
	return st->usage;
}

const ledger_t *hmrf_state_ns(const hmrf_state_t *st)
{
	return st->ns;
}

double hmrf_state_last_start(const hmrf_state_t *st, int a)
{
	if (!st->last_start || a < 0 || a >= names_count(st->names))
		return 0;
	return st->last_start[a];
}

double hmrf_state_charged_until(const hmrf_state_t *st)
{
	return st->charged_until;
}

int hmrf_state_advance(hmrf_state_t *st, double now)
{
	if (!isfinite(now))
		return -EINVAL;
	if (ledger_advance(st->usage, now) || ledger_advance(st->ns, now))
		return -EINVAL;
	return 0;
}
