/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.h - what one reader may see of the plugins' published documents,
 * for PrivateData=usage: each reader (a uid) sees the accounts it has
 * jobs or associations in, an operator sees every account.  Plain
 * structs; the plugins fill them from slurmctld and publish one view per
 * reader (state_publish()), sfair reads its own.
 */
#ifndef HORAE_VIEW_H
#define HORAE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "names.h"

typedef struct view_readers view_readers_t;
typedef struct view_reader view_reader_t;

/* No readers yet, or NULL with errno ENOMEM. */
view_readers_t *view_readers_create(void);

/* Free the set and set *r to NULL.  NULL-safe. */
void view_readers_destroy(view_readers_t **r);

/*
 * Let uid (>= 0) see account; account NULL lets it see every account (an
 * operator).  Adding twice is harmless.  Returns 0, -EINVAL (uid < 0, r
 * NULL), or -ENOMEM (the set is unchanged but for uid, now a reader).
 */
int view_readers_add(view_readers_t *r, long uid, const char *account);

/* Number of readers, and reader i (in the order first added); NULL when
 * out of range. */
int view_readers_count(const view_readers_t *r);
const view_reader_t *view_readers_get(const view_readers_t *r, int i);

/* The reader of uid, or NULL. */
const view_reader_t *view_readers_find(const view_readers_t *r, long uid);

long view_reader_uid(const view_reader_t *v);

/* What v may see, as a number that changes when it does (its accounts,
 * in whatever order they were added, or every account); 0 for NULL. */
uint64_t view_reader_signature(const view_reader_t *v);

/* Whether reader (a const view_reader_t *) may see account: the shape of
 * the keep callbacks of hmrf_state_select() and view_select_accounts(). */
bool view_reader_keeps(const char *account, void *reader);

/*
 * The indices of the names in `in` that v may see, ascending, in idx
 * (room for names_count(in)): every one for an operator, else each of v's
 * accounts that `in` has, found by name, so that a reader of a few
 * accounts costs as much among ten accounts as among ten thousand (asking
 * view_reader_keeps() of every name costs a lookup per name per reader).
 * Returns how many, or -EINVAL (an argument NULL).
 */
int view_reader_pick(const view_reader_t *v, const names_t *in, int *idx);

/*
 * A copy of doc (an object with an "accounts" array of objects whose
 * "account" is a string, as the shares documents are) with only the rows
 * keep(account, arg) accepts; the other fields are shared with doc (json-c
 * references).  Rows without a string "account" are left out.  Returns a
 * new reference, or NULL with errno EINVAL (doc not such an object) or
 * ENOMEM.
 */
json_object *view_select_accounts(json_object *doc,
				  bool (*keep)(const char *account, void *arg),
				  void *arg);

/*
 * The rows of a document as view_select_accounts() reads it, indexed by
 * their "account" once, so that each reader's rows are found by name
 * (view_rows_select()) rather than by asking of every row.  Holds a
 * reference to doc.  NULL with errno EINVAL (doc not such an object) or
 * ENOMEM.
 */
typedef struct view_rows view_rows_t;
view_rows_t *view_rows_create(json_object *doc);

/* Free it (and its reference to the document); *rows set to NULL.
 * NULL-safe. */
void view_rows_destroy(view_rows_t **rows);

/*
 * What view_select_accounts(doc, view_reader_keeps, v) returns, the same
 * rows in the same order, each of v's accounts looked up.  A new
 * reference, or NULL with errno EINVAL (an argument NULL) or ENOMEM.
 */
json_object *view_rows_select(const view_rows_t *rows, const view_reader_t *v);

#endif /* HORAE_VIEW_H */
