/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.c - readers and the part of a document each may see.  See view.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "state.h"
#include "view.h"

struct view_reader {
	long uid;
	bool all; /* an operator: every account */
	names_t *accounts;
};

struct view_readers {
	names_t *uids; /* "uid" -> index into reader */
	view_reader_t *reader;
	int count, cap;
};

view_readers_t *view_readers_create(void)
{
	view_readers_t *r = calloc(1, sizeof(*r));

	if (!r || !(r->uids = names_create())) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void view_readers_destroy(view_readers_t **r)
{
	if (!r || !*r)
		return;
	for (int i = 0; i < (*r)->count; i++)
		names_destroy(&(*r)->reader[i].accounts);
	free((*r)->reader);
	names_destroy(&(*r)->uids);
	free(*r);
	*r = NULL;
}

/* Index of uid's reader, made if new; -ENOMEM. */
static int _reader(view_readers_t *r, long uid)
{
	char key[32];
	int i;

	snprintf(key, sizeof(key), "%ld", uid);
	i = names_find(r->uids, key);
	if (i >= 0)
		return i;
	if (r->count == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		view_reader_t *p = realloc(r->reader, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->reader = p;
		r->cap = cap;
	}
	r->reader[r->count] = (view_reader_t){ .uid = uid };
	if (!(r->reader[r->count].accounts = names_create()))
		return -ENOMEM;
	i = names_intern(r->uids, key);
	if (i < 0) {
		names_destroy(&r->reader[r->count].accounts);
		return i;
	}
	r->count++;
	return i;
}

int view_readers_add(view_readers_t *r, long uid, const char *account)
{
	int i;

	if (!r || uid < 0)
		return -EINVAL;
	i = _reader(r, uid);
	if (i < 0)
		return i;
	if (!account) {
		r->reader[i].all = true;
		return 0;
	}
	return names_intern(r->reader[i].accounts, account) < 0 ? -ENOMEM : 0;
}

int view_readers_count(const view_readers_t *r)
{
	return r ? r->count : 0;
}

const view_reader_t *view_readers_get(const view_readers_t *r, int i)
{
	return r && i >= 0 && i < r->count ? &r->reader[i] : NULL;
}

const view_reader_t *view_readers_find(const view_readers_t *r, long uid)
{
	char key[32];
	int i;

	if (!r)
		return NULL;
	snprintf(key, sizeof(key), "%ld", uid);
	i = names_find(r->uids, key);
	return i >= 0 ? &r->reader[i] : NULL;
}

long view_reader_uid(const view_reader_t *v)
{
	return v ? v->uid : -1;
}

uint64_t view_reader_signature(const view_reader_t *v)
{
	uint64_t sig;
	int n;

	if (!v)
		return 0;
	if (v->all)
		return UINT64_MAX;
	/* A sum, so the order the accounts came in does not count. */
	n = names_count(v->accounts);
	sig = (uint64_t)n * 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < n; i++) {
		const char *name = names_get(v->accounts, i);

		sig += state_hash(name, strlen(name));
	}
	return sig == UINT64_MAX ? 1 : sig;
}

bool view_reader_keeps(const char *account, void *reader)
{
	const view_reader_t *v = reader;

	if (!v || !account)
		return false;
	return v->all || names_find(v->accounts, account) >= 0;
}

json_object *view_select_accounts(json_object *doc,
				  bool (*keep)(const char *account, void *arg),
				  void *arg)
{
	json_object *rows, *out, *kept;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "accounts", &rows) ||
	    !json_object_is_type(rows, json_type_array)) {
		errno = EINVAL;
		return NULL;
	}
	out = json_object_new_object();
	kept = json_object_new_array();
	if (!out || !kept)
		goto nomem;
	json_object_object_foreach(doc, key, val)
	{
		if (!strcmp(key, "accounts"))
			continue;
		if (json_object_object_add(out, key, json_object_get(val))) {
			json_object_put(val);
			goto nomem;
		}
	}
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i), *name;

		if (!json_object_object_get_ex(row, "account", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    !keep(json_object_get_string(name), arg))
			continue;
		if (json_object_array_add(kept, json_object_get(row))) {
			json_object_put(row);
			goto nomem;
		}
	}
	if (json_object_object_add(out, "accounts", kept))
		goto nomem;
	return out;
nomem:
	json_object_put(kept);
	json_object_put(out);
	errno = ENOMEM;
	return NULL;
}
