/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_books.h - Eunomia's books: the one place that decides how much
 * progress is charged to which account and when, over which span each
 * account's monopoly is measured, and that ranks pending jobs and works
 * out the placement gaps from it.
 *
 * select/eunomia and horae-sim both drive this object; neither keeps a
 * rule of its own about charging progress.  The books own the accounts
 * (names, weights), the progress ledger over the window, the running jobs
 * (id -> account, progress rate, charged up to, paused), up to when
 * progress has been charged, when the books started (or that they were
 * recovered from a saved state), and each account's monopoly rate.
 *
 * Monopoly rates are given, not computed: the adapter tells the books
 * what the whole cluster would deliver per second to one account alone
 * (eunomia_books_set_monopoly_rate) and at the cluster's own speed factors
 * (eunomia_books_set_common_rate).  Speeds come from node features through
 * the account's line of eunomia.conf in select/eunomia and from the trace
 * in horae-sim, and which nodes are in service is Slurm's to say; the sum
 * is the one number both agree on, and keeping node descriptions here
 * would copy the node table the adapter already walks.
 *
 * Rules (each in one function in eunomia_books.c):
 * - A running job is charged its rate x the time it was not paused, from
 *   when it started (eunomia_books_start) or, for a job first seen in a
 *   sync (eunomia_books_running), from max(its start, the last charge): a
 *   job seen running at a restart was charged up to the saved state.
 * - After a restart, a job that ran and ended while nobody charged it is
 *   charged from max(its start, the saved charge) to its end, once, until
 *   eunomia_books_recovered() (eunomia_books_ran).
 * - Charging moves the ledger's clock forward, never back.
 * - The monopoly span is now - max(the window's start, when the books
 *   started); the start is saved with the state, and a state saved
 *   without it (by select/eunomia before these books) has none, so only
 *   the window bounds it; without either (or shorter than 1 s) it is 1 s.
 * - An account is active (counts in the fair share) when it has a running
 *   job, progress in the window, or the adapter says it waits.
 * - An account's own monopoly is its monopoly rate x the span (0 while its
 *   rate is unknown: the common one counts); the common monopoly is the
 *   common rate x the span.
 *
 * Functions returning int return 0 or a negative errno and change nothing
 * on failure.  Not thread-safe: the caller serialises access.
 */
#ifndef HORAE_EUNOMIA_BOOKS_H
#define HORAE_EUNOMIA_BOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "err.h"
#include "eunomia.h"
#include "window.h"

typedef struct eunomia_books eunomia_books_t;

/* The saved state's format: the same document select/eunomia wrote
 * through hmrf_state ("tres":"progress"), so either version reads the
 * other's files. */
#define EUNOMIA_STATE_KIND "horae-eunomia"
#define EUNOMIA_STATE_VERSION 1

/*
 * Empty books over window w (bucket: a sliding window's bucket, 0 for
 * L/64), started and charged up to now.  Returns NULL with errno EINVAL
 * (err names the bad setting) or ENOMEM.
 */
eunomia_books_t *eunomia_books_create(const window_spec_t *w, double bucket,
				      double now, horae_err_t *err);

/*
 * Books from eunomia_books_to_json() output (or a state select/eunomia
 * saved before these books existed), recovered: charged up to the saved
 * time, started when the state says (no known start when it does not).  Returns NULL with errno EINVAL (err names
 * what is wrong), ESTALE (the state holds progress over another window or
 * bucket than w and bucket; err says which) or ENOMEM.
 */
eunomia_books_t *eunomia_books_from_json(json_object *doc,
					 const window_spec_t *w, double bucket,
					 horae_err_t *err);

/* Free the books and set *b to NULL.  NULL-safe. */
void eunomia_books_destroy(eunomia_books_t **b);

/*
 * The persistent part (accounts, progress ledger, charged up to, started
 * at) as a new JSON document the caller owns, or NULL with errno ENOMEM.
 */
json_object *eunomia_books_to_json(const eunomia_books_t *b);

/* Index of account name, adding it (weight 1) if new: >= 0, -EINVAL or
 * -ENOMEM. */
int eunomia_books_account(eunomia_books_t *b, const char *name);

/* Number of accounts, and the name of account a (lent; NULL if out of
 * range). */
int eunomia_books_count(const eunomia_books_t *b);
const char *eunomia_books_name(const eunomia_books_t *b, int a);

/* Account a's weight (> 0, finite).  Returns 0 or -EINVAL. */
int eunomia_books_set_weight(eunomia_books_t *b, int a, double weight);

/*
 * What the whole cluster would deliver per second to account a alone
 * (rate > 0), or at the cluster's own speed factors (common); 0 forgets
 * it (unknown).  Returns 0 or -EINVAL (not finite, negative, no account).
 */
int eunomia_books_set_monopoly_rate(eunomia_books_t *b, int a, double rate);
int eunomia_books_set_common_rate(eunomia_books_t *b, double rate);

/* Forget every monopoly rate (the nodes changed). */
void eunomia_books_forget_rates(eunomia_books_t *b);

/* Account a's monopoly rate and the common one; 0 while unknown. */
double eunomia_books_monopoly_rate(const eunomia_books_t *b, int a);
double eunomia_books_common_rate(const eunomia_books_t *b);

/* Whether account a waits for resources (counts as active).  Returns 0 or
 * -EINVAL. */
int eunomia_books_set_waiting(eunomia_books_t *b, int a, bool waiting);

/*
 * Job id of account a started at start, making rate progress per second
 * (paused: suspended).  It is charged from start.  Returns 0, -EEXIST (id
 * already runs; nothing changed), -EINVAL or -ENOMEM.
 */
int eunomia_books_start(eunomia_books_t *b, uint32_t id, int a, double rate,
			double start, bool paused);

/*
 * A sync saw job id of account a running since start: if new, it is
 * tracked and charged from max(start, the last charge).  Returns 1 when
 * it was new, 0 when it was already tracked, or -EINVAL / -ENOMEM.
 */
int eunomia_books_running(eunomia_books_t *b, uint32_t id, int a, double rate,
			  double start, bool paused);

/* Whether job id is tracked. */
bool eunomia_books_tracked(const eunomia_books_t *b, uint32_t id);

/*
 * Job id ended at end: charged up to end and forgotten.  Returns 0,
 * -ENOENT (not tracked) or -EINVAL.
 */
int eunomia_books_end(eunomia_books_t *b, uint32_t id, double end);

/*
 * Job id was suspended (paused) or resumed at now; or now makes rate
 * progress per second (a resize).  Charged up to now at what it was.
 * Returns 0, -ENOENT or -EINVAL.
 */
int eunomia_books_pause(eunomia_books_t *b, uint32_t id, bool paused,
			double now);
int eunomia_books_resize(eunomia_books_t *b, uint32_t id, double rate,
			 double now);

/* Whether the books were recovered and eunomia_books_recovered() was not
 * called yet; and the time the saved state was charged up to (the
 * creation time for new books). */
bool eunomia_books_recovering(const eunomia_books_t *b);
double eunomia_books_saved_at(const eunomia_books_t *b);

/*
 * While recovering: a job of account a that ran over [start, end] at rate
 * and ended is charged from max(start, saved at) to min(end, now).
 * Returns 1 when something was charged, 0 when nothing was due (not
 * recovering, ended before the saved state), or -EINVAL.
 */
int eunomia_books_ran(eunomia_books_t *b, int a, double rate, double start,
		      double end, double now);

/* The first sync after a restart is done: eunomia_books_ran charges
 * nothing from now on. */
void eunomia_books_recovered(eunomia_books_t *b);

/*
 * Charge every running job up to now and move the ledger there (a now
 * before the last charge counts as the last charge).  Returns 0 or
 * -EINVAL (now not finite).
 */
int eunomia_books_charge(eunomia_books_t *b, double now);

/* Up to when progress is charged. */
double eunomia_books_charged_until(const eunomia_books_t *b);

/* The span the monopoly is measured over at now, s (>= 1). */
double eunomia_books_span(const eunomia_books_t *b, double now);

/*
 * Charge to now and fill out[0..count-1] (count = eunomia_books_count())
 * with every account's weight, progress, own monopoly and activity, and
 * *monopoly with the common monopoly (0 while the common rate is
 * unknown).  Returns 0, -EINVAL (now not finite, a NULL argument) or
 * -ERANGE (n < count); nothing changed on failure.
 */
int eunomia_books_accounts(eunomia_books_t *b, double now,
			   eunomia_account_t *out, int n, double *monopoly);

/*
 * Charge to now and fill gap[0..count-1] with each account's gap to the
 * fair progress share (eunomia_gap).  Returns 0, -EINVAL, -ERANGE (n <
 * count) or -ENOMEM.
 */
int eunomia_books_gaps(eunomia_books_t *b, double now, double *gap, int n);

/*
 * Charge to now and rank jobs[] (eunomia_rank) by the books: order[k] is
 * the index of the k-th job.  Returns 0, -EINVAL (err says what: a bad
 * job, the common rate unknown; nothing charged), or -ENOMEM; order
 * untouched on failure.
 */
int eunomia_books_rank(eunomia_books_t *b, double now,
		       const eunomia_job_t *jobs, size_t njobs, size_t *order,
		       horae_err_t *err);

/*
 * The same, one job at a time (eunomia_ranker_create, with its count):
 * charges to now as eunomia_books_rank does, then the ranker keeps the
 * order it saw.  Returns NULL with errno EINVAL (err says what; nothing
 * charged) or ENOMEM.
 */
eunomia_ranker_t *eunomia_books_ranker(eunomia_books_t *b, double now,
				       const eunomia_job_t *jobs,
				       const size_t *count, size_t njobs,
				       horae_err_t *err);

#endif /* HORAE_EUNOMIA_BOOKS_H */
