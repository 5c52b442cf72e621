/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_state.h - everything priority/hmrf must remember across restarts:
 * the accounts, their windowed usage and non-sharing ledgers, when each
 * last had a job start, and up to when usage has been charged.  Saved and
 * loaded through state.h as format "horae-hmrf", version 1.
 */
#ifndef HORAE_HMRF_STATE_H
#define HORAE_HMRF_STATE_H

#include <stdbool.h>

#include <json-c/json.h>

#include "err.h"
#include "ledger.h"
#include "names.h"
#include "view.h"

#define HMRF_STATE_KIND "horae-hmrf"
#define HMRF_STATE_VERSION 1

/*
 * Opaque: the books (hmrf_books.h) are the only writers of a live state;
 * everyone else reads it through the accessors below, and changes only a
 * copy of its own (a snapshot, a loaded file).
 */
typedef struct hmrf_state hmrf_state_t;

/*
 * Empty state over window w (bucket as in ledger_create) for the TRES
 * list tres (as in tres_layout_create), charged up to now.  Returns NULL
 * with errno (EINVAL explained in err, ENOMEM).
 */
hmrf_state_t *hmrf_state_create(const window_spec_t *w, double bucket,
				 const char *tres, double now,
				 horae_err_t *err);

/* Free it and set *st to NULL.  NULL-safe. */
void hmrf_state_destroy(hmrf_state_t **st);

/*
 * Index of account name, adding it (and room in the ledgers) if new.
 * Returns the index, -EINVAL, or -ENOMEM (nothing changed).
 */
int hmrf_state_account(hmrf_state_t *st, const char *name);

/* A deep copy (cheap: memory copies), or NULL with errno ENOMEM. */
hmrf_state_t *hmrf_state_dup(const hmrf_state_t *st);

/*
 * A deep copy holding only the accounts for which keep(name, arg) is
 * true, in the same order: what one reader may see.  Returns NULL with
 * errno ENOMEM.
 */
hmrf_state_t *hmrf_state_select(const hmrf_state_t *st,
				bool (*keep)(const char *name, void *arg),
				void *arg);

/*
 * What hmrf_state_select(st, view_reader_keeps, v) returns, each of v's
 * accounts found by name rather than every account asked about
 * (view_reader_pick()): the part of st one reader may see, at the cost of
 * that reader's accounts.  Returns NULL with errno EINVAL (an argument
 * NULL) or ENOMEM.
 */
hmrf_state_t *hmrf_state_select_reader(const hmrf_state_t *st,
				       const view_reader_t *v);

/*
 * The same usage under another TRES list: each TRES in both keeps its
 * usage and non-sharing allocation, a new one starts empty, one no longer
 * listed is dropped.  *st is replaced on success and untouched on
 * failure.  Returns 0, -EINVAL (tres is not a TRES list; err says why) or
 * -ENOMEM.
 */
int hmrf_state_retres(hmrf_state_t **st, const char *tres, horae_err_t *err);

/* The TRES list the ledger slots stand for ("cpu,mem,..."). */
const char *hmrf_state_tres(const hmrf_state_t *st);

/* The accounts, in ledger order. */
const names_t *hmrf_state_names(const hmrf_state_t *st);

/* Allocated TRES x s, and non-sharing allocation TRES x s, per account. */
const ledger_t *hmrf_state_usage(const hmrf_state_t *st);
const ledger_t *hmrf_state_ns(const hmrf_state_t *st);

/* When account a last had a job start; 0 if never or a is out of range. */
double hmrf_state_last_start(const hmrf_state_t *st, int a);

/* Up to when the usage of running jobs has been charged. */
double hmrf_state_charged_until(const hmrf_state_t *st);

/*
 * Move both ledgers' windows on to now (a reader's view of a saved state
 * at a later time: what a tumbling or sliding window has dropped by then
 * is dropped).  A time at or before the ledgers' own changes nothing.
 * Returns 0 or -EINVAL (now is not a finite time; both unchanged).
 */
int hmrf_state_advance(hmrf_state_t *st, double now);

/* A new JSON document the caller owns; NULL with errno ENOMEM. */
json_object *hmrf_state_to_json(const hmrf_state_t *st);

/*
 * State from hmrf_state_to_json() output.  Returns NULL with errno EINVAL
 * and err naming what is wrong.
 */
hmrf_state_t *hmrf_state_from_json(json_object *doc, horae_err_t *err);

#endif /* HORAE_HMRF_STATE_H */
