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

#endif /* HORAE_VIEW_H */
