/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.c - readers and the part of a document each may see.  See view.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "state.h"
#include "view.h"

struct view_reader {
	long uid;
	bool all; /* an operator: every account */
	names_t *accounts;
	const char *last; /* the account last added, lent by accounts */
};

/*
 * The readers in the order first added, found by uid in an open-addressed
 * table (the plugins add a pair per job: a lookup each, where a user's
 * jobs do not come together).
 */
struct view_readers {
	int *slot; /* a reader's index + 1, or 0: free */
	size_t nslot; /* a power of two, more than twice count; 0: none */
	view_reader_t *reader;
	int count, cap;
	int last; /* the reader last added to, or -1 */
};

view_readers_t *view_readers_create(void)
{
	view_readers_t *r = calloc(1, sizeof(*r));

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->last = -1;
	return r;
}

void view_readers_destroy(view_readers_t **r)
{
	if (!r || !*r)
		return;
	for (int i = 0; i < (*r)->count; i++)
		names_destroy(&(*r)->reader[i].accounts);
	free((*r)->reader);
	free((*r)->slot);
	free(*r);
	*r = NULL;
}

/* The slot of uid: its reader's, else the free one it would take. */
static size_t _slot(const view_readers_t *r, long uid)
{
	size_t mask = r->nslot - 1;
	size_t s = (size_t)(((uint64_t)uid * 0x9E3779B97F4A7C15ULL) >> 32) &
		   mask;

	while (r->slot[s] && r->reader[r->slot[s] - 1].uid != uid)
		s = (s + 1) & mask;
	return s;
}

/* Room in the table for one reader more; -ENOMEM (nothing changed). */
static int _room(view_readers_t *r)
{
	size_t n = r->nslot ? r->nslot : 64;
	int *slot;

	while (n <= 2 * (size_t)(r->count + 1))
		n *= 2;
	if (n == r->nslot)
		return 0;
	if (!(slot = calloc(n, sizeof(*slot))))
		return -ENOMEM;
	free(r->slot);
	r->slot = slot;
	r->nslot = n;
	for (int i = 0; i < r->count; i++)
		r->slot[_slot(r, r->reader[i].uid)] = i + 1;
	return 0;
}

/* Index of uid's reader, made if new; -ENOMEM (nothing changed). */
static int _reader(view_readers_t *r, long uid)
{
	size_t s;

	if (r->nslot && r->slot[s = _slot(r, uid)])
		return r->slot[s] - 1;
	if (_room(r))
		return -ENOMEM;
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
	r->slot[_slot(r, uid)] = r->count + 1;
	return r->count++;
}

int view_readers_add(view_readers_t *r, long uid, const char *account)
{
	view_reader_t *v;
	int i, j;

	if (!r || uid < 0)
		return -EINVAL;
	/* A user's jobs mostly come together: the last reader is known
	 * again without a lookup. */
	if (r->last >= 0 && r->reader[r->last].uid == uid)
		i = r->last;
	else if ((i = _reader(r, uid)) < 0)
		return i;
	r->last = i;
	v = &r->reader[i];
	if (!account) {
		v->all = true;
		return 0;
	}
	/* and mostly in one account: known again without a lookup */
	if (v->last && !strcmp(account, v->last))
		return 0;
	j = names_intern(v->accounts, account);
	if (j < 0)
		return -ENOMEM;
	/* lent by the table, which frees its names only when destroyed */
	v->last = names_get(v->accounts, j);
	return 0;
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
	size_t s;

	if (!r || !r->nslot || !r->slot[s = _slot(r, uid)])
		return NULL;
	return &r->reader[r->slot[s] - 1];
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

static int _by_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int view_reader_pick(const view_reader_t *v, const names_t *in, int *idx)
{
	int n, k = 0;

	if (!v || !in || !idx)
		return -EINVAL;
	n = names_count(in);
	if (v->all) {
		for (int i = 0; i < n; i++)
			idx[i] = i;
		return n;
	}
	/* v's accounts are distinct names, so are the indices found */
	for (int i = 0; i < names_count(v->accounts); i++) {
		int j = names_find(in, names_get(v->accounts, i));

		if (j >= 0)
			idx[k++] = j;
	}
	qsort(idx, (size_t)k, sizeof(*idx), _by_index);
	return k;
}

/* doc's "accounts" array, or NULL when doc is not an object with one. */
static json_object *_rows_of(json_object *doc)
{
	json_object *rows;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "accounts", &rows) ||
	    !json_object_is_type(rows, json_type_array))
		return NULL;
	return rows;
}

/* Row i's "account", or NULL when it has no string one. */
static const char *_row_account(json_object *rows, size_t i)
{
	json_object *row = json_object_array_get_idx(rows, i), *name;

	if (!json_object_object_get_ex(row, "account", &name) ||
	    !json_object_is_type(name, json_type_string))
		return NULL;
	return json_object_get_string(name);
}

/* A copy of doc with rows[pick[0..k)] (ascending) as its "accounts" and
 * its other fields shared; NULL with errno ENOMEM. */
static json_object *_cut(json_object *doc, json_object *rows, const int *pick,
			 size_t k)
{
	json_object *out = json_object_new_object();
	json_object *kept = json_object_new_array();

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
	for (size_t i = 0; i < k; i++) {
		json_object *row = json_object_array_get_idx(rows, pick[i]);

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

json_object *view_select_accounts(json_object *doc,
				  bool (*keep)(const char *account, void *arg),
				  void *arg)
{
	json_object *rows = _rows_of(doc), *out;
	size_t n, k = 0;
	int *pick;

	if (!rows) {
		errno = EINVAL;
		return NULL;
	}
	n = json_object_array_length(rows);
	if (!(pick = malloc((n ? n : 1) * sizeof(*pick)))) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const char *account = _row_account(rows, i);

		if (account && keep(account, arg))
			pick[k++] = (int)i;
	}
	out = _cut(doc, rows, pick, k);
	free(pick);
	return out;
}

struct view_rows {
	json_object *doc; /* a reference */
	json_object *rows; /* its "accounts" */
	names_t *names; /* the accounts the rows name */
	int *first; /* by name: its first row */
	int *next; /* by row: the next row of the same name, or -1 */
	int *named; /* the rows that name an account, ascending */
	int nnamed;
};

void view_rows_destroy(view_rows_t **rows)
{
	view_rows_t *r = rows ? *rows : NULL;

	if (!r)
		return;
	json_object_put(r->doc);
	names_destroy(&r->names);
	free(r->first);
	free(r->next);
	free(r->named);
	free(r);
	*rows = NULL;
}

view_rows_t *view_rows_create(json_object *doc)
{
	json_object *rows = _rows_of(doc);
	view_rows_t *r;
	size_t n;
	int *last = NULL;

	if (!rows) {
		errno = EINVAL;
		return NULL;
	}
	n = json_object_array_length(rows);
	if (n > (size_t)INT_MAX) {
		errno = ENOMEM;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	r->doc = json_object_get(doc);
	r->rows = rows;
	r->names = names_create();
	r->first = malloc((n ? n : 1) * sizeof(*r->first));
	r->next = malloc((n ? n : 1) * sizeof(*r->next));
	r->named = malloc((n ? n : 1) * sizeof(*r->named));
	last = malloc((n ? n : 1) * sizeof(*last));
	if (!r->names || !r->first || !r->next || !r->named || !last)
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		const char *account = _row_account(rows, i);
		int had = names_count(r->names), j;

		r->next[i] = -1;
		if (!account)
			continue;
		if ((j = names_intern(r->names, account)) < 0)
			goto nomem;
		if (j == had)
			r->first[j] = (int)i;
		else
			r->next[last[j]] = (int)i;
		last[j] = (int)i;
		r->named[r->nnamed++] = (int)i;
	}
	free(last);
	return r;
nomem:
	free(last);
	view_rows_destroy(&r);
	errno = ENOMEM;
	return NULL;
}

json_object *view_rows_select(const view_rows_t *rows, const view_reader_t *v)
{
	json_object *out;
	int *pick, k = 0;

	if (!rows || !v) {
		errno = EINVAL;
		return NULL;
	}
	if (v->all)
		return _cut(rows->doc, rows->rows, rows->named,
			    (size_t)rows->nnamed);
	if (!(pick = malloc((rows->nnamed ? rows->nnamed : 1) *
			    sizeof(*pick)))) {
		errno = ENOMEM;
		return NULL;
	}
	/* v's accounts are distinct, so are their rows */
	for (int i = 0; i < names_count(v->accounts); i++) {
		int j = names_find(rows->names, names_get(v->accounts, i));

		for (int row = j >= 0 ? rows->first[j] : -1; row >= 0;
		     row = rows->next[row])
			pick[k++] = row;
	}
	qsort(pick, (size_t)k, sizeof(*pick), _by_index);
	out = _cut(rows->doc, rows->rows, pick, (size_t)k);
	free(pick);
	return out;
}
