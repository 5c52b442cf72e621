/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger.h - per-account accumulated TRES usage (TRES x seconds) over a
 * time window: none, tumbling or sliding (see window.h).
 *
 * Accounts are dense indices 0..n-1 that the caller owns (acct.h maps
 * names to them).  The ledger has a clock: charging an interval that ends
 * later moves it forward, and ledger_advance() moves it explicitly; what
 * leaves the window as the clock moves is forgotten.
 *
 * Memory is bounded: none and tumbling keep one vector per account; sliding
 * keeps ceil(L/G)+1 buckets of G seconds per account and the sum of its
 * whole buckets inside the window (so that reading a window sum costs the
 * same however many buckets it has), never per-job history.  Error bound
 * of a sliding window: usage is assumed uniform within a bucket, so the
 * oldest bucket, which straddles now - L, is counted in proportion to its
 * part inside the window; the error is at most what the account used in
 * that one bucket (at most G x its largest rate), and zero when the window
 * start falls on a bucket boundary.
 */
#ifndef HORAE_LEDGER_H
#define HORAE_LEDGER_H

#include <json-c/json.h>

#include "err.h"
#include "tres.h"
#include "window.h"

typedef struct ledger ledger_t;

/* Most buckets one sliding window may keep per account. */
#define LEDGER_MAX_BUCKETS 4096

/*
 * Create an empty ledger of ntres TRES (1..TRES_MAX) over window w, its
 * clock at now.  bucket is the bucket length G of a sliding window (0 for
 * the default, L/64); it is ignored for other windows.
 * Returns the ledger, or NULL with errno EINVAL (explained in err: bad
 * ntres, a bucket <= 0 or longer than L, more than LEDGER_MAX_BUCKETS
 * buckets) or ENOMEM.  Destroy with ledger_destroy().
 */
ledger_t *ledger_create(const window_spec_t *w, double bucket, int ntres,
			double now, horae_err_t *err);

/* Free the ledger and set *l to NULL.  NULL-safe. */
void ledger_destroy(ledger_t **l);

/*
 * Make room for accounts 0..n-1 (new accounts start with no usage).
 * Returns 0, -EINVAL (n < 0) or -ENOMEM (the ledger is unchanged).
 */
int ledger_grow(ledger_t *l, int n);

/* Number of accounts the ledger has room for. */
int ledger_count(const ledger_t *l);

/*
 * Add rate (TRES per second) held over [t0, t1] to account acct, counting
 * only the part inside the window.  Moves the clock to t1 if t1 is later.
 * Returns 0, or -EINVAL (unknown account, t1 < t0, non-finite times) with
 * nothing changed.
 */
int ledger_charge(ledger_t *l, int acct, const tres_vec_t *rate, double t0,
		  double t1);

/*
 * Move the clock to now, forgetting what leaves the window.  A now before
 * the clock is ignored (the clock never goes back).  Returns 0 or -EINVAL.
 */
int ledger_advance(ledger_t *l, double now);

/*
 * Accumulated usage of account acct inside the window ending at the clock.
 * Returns 0 or -EINVAL (unknown account); *out is untouched on failure.
 */
int ledger_usage(const ledger_t *l, int acct, tres_vec_t *out);

/* The clock, and the start of the window it ends (-INFINITY for none). */
double ledger_now(const ledger_t *l);
double ledger_window_start(const ledger_t *l);

/* The window and the bucket length in use. */
const window_spec_t *ledger_window(const ledger_t *l);
double ledger_bucket(const ledger_t *l);

/*
 * Serialise the ledger (window, bucket, clock, and per account a string of
 * its non-zero slots, "slot:value,..." with each value as C's "%a"
 * writes it: exact) as a new JSON object the caller owns.  Returns NULL
 * with errno ENOMEM.
 */
json_object *ledger_to_json(const ledger_t *l);

/* A copy of the ledger (the caller owns it), or NULL with errno ENOMEM. */
ledger_t *ledger_dup(const ledger_t *l);

/*
 * A copy holding only accounts idx[0..n-1] of l, in that order (account
 * k of the copy is idx[k] of l).  Returns NULL with errno EINVAL (an index
 * out of range) or ENOMEM.
 */
ledger_t *ledger_select(const ledger_t *l, const int *idx, int n);

/*
 * A copy with ntres slots where slot i holds slot from[i] of l (from[i]
 * < 0: a new slot, empty), every bucket kept: the same usage under
 * another TRES list.  Returns NULL with errno EINVAL (ntres out of
 * 1..TRES_MAX, an index out of range) or ENOMEM.
 */
ledger_t *ledger_remap(const ledger_t *l, const int *from, int ntres);

/*
 * Build a ledger from ledger_to_json() output.  Returns it, or NULL with
 * errno EINVAL and err naming the first field that is missing or wrong.
 */
ledger_t *ledger_from_json(json_object *obj, horae_err_t *err);

#endif /* HORAE_LEDGER_H */
