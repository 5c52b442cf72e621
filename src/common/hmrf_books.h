/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_books.h - H-MRF's books: the one place that decides what is charged
 * to which account and when, and that ranks pending jobs from it.
 *
 * priority/hmrf, horae-sim and the unit tests' step models all drive this
 * object; none of them keeps a rule of its own about charging or ranking.
 * The books own the accounts (names, weights, which ones count in the
 * weight sum), the usage and non-sharing ledgers over the window, each
 * account's last job start (the starvation clock), up to when usage has
 * been charged, the charge horizon, the elapsed span the borrow limit
 * compares with, and each account's non-sharing rate for the step being
 * decided.  How H-MRF is read from the paper: shared/DESIGN.md, horae(7).
 *
 * A pass at time now:
 *
 *	hmrf_books_begin(b, now);
 *	for every account with work:
 *		hmrf_books_running(b, a, tres, start, span); (what it holds)
 *		hmrf_books_ended(b, id, a, tres, start, end);
 *		hmrf_books_waiting(b, a, tres, eligible); (what it asks)
 *	hmrf_books_close(b);
 *	hmrf_books_rank(b, jobs, n, order, err);
 *
 * Rules (each in one function below):
 * - A running allocation is charged from max(its start, the last charge) to
 *   now; an ended one to its end, once (hmrf_books_ended remembers the ids
 *   it charged since the last close).
 * - The non-sharing allocation of an account over [last charge, now] is its
 *   demand (what it holds plus what it waits for, as given in this pass)
 *   scaled down until it fits in its fair share; the weight sum counts the
 *   accounts with demand or with a configured weight.
 * - A job's expected usage counts at most the charge horizon: ChargeHorizon
 *   when set, else the window length, else 7 days.
 * - An account waits since max(its last job start, its earliest eligible
 *   waiting job); past the timeout it goes first.
 * - The borrow limit compares with a share held for min(now - window start,
 *   window length); without a window there is no limit.
 * - Beta includes the step being decided (hmrf.h, hmrf_rank).
 *
 * Not thread-safe: the caller serialises access.
 */
#ifndef HORAE_HMRF_BOOKS_H
#define HORAE_HMRF_BOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "err.h"
#include "hmrf.h"
#include "hmrf_state.h"
#include "window.h"

typedef struct hmrf_books hmrf_books_t;

/* A job's expected usage counts at most this without a window, s. */
#define HMRF_BOOKS_HORIZON_NO_WINDOW (7 * 86400.0)

typedef struct hmrf_books_conf {
	hmrf_policy_t policy;
	window_spec_t window;
	double bucket;	     /* sliding window bucket, s (0: L/64) */
	const char *tres;    /* what the ledger slots mean: "cpu,mem,..." */
	double timeout;	     /* starvation guard, s; 0: off */
	double horizon;	     /* ChargeHorizon, s; 0: see above */
	double borrow_limit; /* 0: none; else fraction above the fair share */
} hmrf_books_conf_t;

/*
 * Empty books, charged up to now.  Returns NULL with errno EINVAL (err
 * names the bad setting) or ENOMEM.
 */
hmrf_books_t *hmrf_books_create(const hmrf_books_conf_t *conf, double now,
				horae_err_t *err);

/*
 * Books over a state loaded from a file (taken over: the books own and
 * free it, also on failure).  The state's TRES list must be conf's and its
 * window conf's.  Returns NULL with errno EINVAL (err says what differs)
 * or ENOMEM.
 */
hmrf_books_t *hmrf_books_adopt(const hmrf_books_conf_t *conf,
			       hmrf_state_t *st, horae_err_t *err);

/* Free the books and set *b to NULL.  NULL-safe. */
void hmrf_books_destroy(hmrf_books_t **b);

/*
 * Take the settings a reconfigure may change (policy, timeout, horizon,
 * borrow limit); the window and the TRES stay.  Returns 0 or -EINVAL
 * (nothing changed).
 */
int hmrf_books_reconfig(hmrf_books_t *b, const hmrf_books_conf_t *conf);

/* Index of account name, adding it if new: >= 0, -EINVAL or -ENOMEM. */
int hmrf_books_account(hmrf_books_t *b, const char *name);

/* Index of account name (as written: Slurm's names are lower case), or
 * -ENOENT when the books do not know it. */
int hmrf_books_find(const hmrf_books_t *b, const char *name);

/* Number of accounts, and the name of account a (NULL if out of range). */
int hmrf_books_count(const hmrf_books_t *b);
const char *hmrf_books_name(const hmrf_books_t *b, int a);

/*
 * Account a's contribution (> 0, finite); configured: it counts in the
 * weight sum even without demand (an association or an Account line).
 * An account whose weight was never set has weight 1 and is not
 * configured.  Returns 0 or -EINVAL (nothing changed).
 */
int hmrf_books_set_weight(hmrf_books_t *b, int a, double weight,
			  bool configured);

/* What the cluster has (R).  Returns 0 or -EINVAL (a negative amount). */
int hmrf_books_set_capacity(hmrf_books_t *b, const tres_vec_t *capacity);

/*
 * What the cluster has when all of it is in service.  The ranking divides
 * each TRES by the capacity in service, or by this one where none of that
 * TRES is in service (every node drained or down): the order then stays
 * the order of the accounts' standing, and the first pass after the nodes
 * come back starts the jobs it would have started with them in service
 * (H-MRF's ranking takes the step's entitlement over this capacity too).
 * Shares and the entitlement charged keep the capacity in service.  Not
 * set: 0, the ranking divides by the capacity in service alone.  Returns 0
 * or -EINVAL (a negative amount); nothing changes on failure.
 */
int hmrf_books_set_configured(hmrf_books_t *b, const tres_vec_t *configured);

/*
 * Open a pass at now: forget the last pass's holdings and demand.  A now
 * before the last charge is taken as the last charge (the clock never
 * goes back).  Returns 0 or -EINVAL (now not finite).
 */
int hmrf_books_begin(hmrf_books_t *b, double now);

/*
 * Account a holds tres since start (-INFINITY: since before the last
 * charge, start unknown), for at most span s from start (the job's time
 * limit; INFINITY: none): charged from max(start, last charge) to now;
 * counted in its holdings and demand; start is its latest job start if
 * later.  What it has left of its charge span (min(span, horizon) from
 * its start) times tres is added to the account's running_left, which
 * caps what the ranking projects of it (hmrf_rank); nothing when start is
 * unknown (hmrf_books_task tells it then).  Returns 0 or -EINVAL (no open
 * pass, unknown account, span NaN or < 0; nothing changed).
 */
int hmrf_books_running(hmrf_books_t *b, int a, const tres_vec_t *tres,
		       double start, double span);

/*
 * For a caller that tells the books what runs account by account, with
 * start -INFINITY (horae-sim): a task of account a holds tres from start
 * to end (INFINITY: not known to end), for at most span, as in
 * hmrf_books_running.  At every close until its end, what it has left of
 * its charge span (the horizon as it was at the call) is added to the
 * account's running_left, as hmrf_books_running adds it for a job it is
 * given with its start; a caller uses one or the other for a job.  May be
 * called outside a pass.  *id (id may be NULL) names the task for
 * hmrf_books_task_end; 0 when it is not kept, having nothing left.
 * Returns 0 (also for a task with nothing left), -EINVAL (unknown
 * account, start not finite, span NaN or < 0, end NaN or before start) or
 * -ENOMEM; nothing changed on failure (*id untouched).
 */
int hmrf_books_task(hmrf_books_t *b, int a, const tres_vec_t *tres,
		    double start, double span, double end, uint64_t *id);

/*
 * Task id of hmrf_books_task ended now, before the end it was told with
 * (stopped: a job killed at its deadline): from the next close on it
 * counts in no account's running_left, as a job that is no longer given
 * to hmrf_books_running.  Returns 0 (also for id 0 and for a task that has
 * already ended or retired: any id whose place now holds another task
 * or none) or -EINVAL (no books, or an id of a place these books never
 * gave; nothing changed).
 */
int hmrf_books_task_end(hmrf_books_t *b, uint64_t id);

/*
 * Job id of account a held tres over [start, end] and has ended: charged
 * from max(start, last charge) to end, once; a second call with the same
 * id before the next close charges nothing (id 0: no such check).  May be
 * called outside a pass.  Returns 0 (also when nothing was left to charge)
 * or -EINVAL.
 */
int hmrf_books_ended(hmrf_books_t *b, uint32_t id, int a,
		     const tres_vec_t *tres, double start, double end);

/*
 * Account a waits for tres, eligible since eligible: counted in its
 * demand, and its earliest eligible time kept for the starvation clock.
 * Returns 0 or -EINVAL.
 */
int hmrf_books_waiting(hmrf_books_t *b, int a, const tres_vec_t *tres,
		       double eligible);

/*
 * The same for a row of n amounts, the first n TRES (the rest 0), as a
 * job table holds them (hmrf_job_table_t): what the plugins' walks have
 * at hand, without a whole vector made for each job.  n is 0 to
 * TRES_MAX.  Returns 0 or -EINVAL (nothing counted).
 */
int hmrf_books_waiting_row(hmrf_books_t *b, int a, const double *tres, int n,
			   double eligible);

/*
 * Account a's latest job start is at least t (the starvation clock of a
 * caller that reports starts as they happen).  Returns 0 or -EINVAL.
 */
int hmrf_books_started(hmrf_books_t *b, int a, double t);

/*
 * Close the pass: move the ledgers to now, charge each account's
 * non-sharing allocation over [last charge, now], keep it as the rate of
 * the step to be decided, and mark everything charged up to now.
 * Returns 0 or -EINVAL (no open pass).
 */
int hmrf_books_close(hmrf_books_t *b);

/*
 * Rank jobs[] (account, tres, expected duration: > 0, INFINITY for none;
 * it is clipped to the charge horizon) with the last closed pass's books:
 * order[k] is the index of the k-th job.  jobs[] is not changed.  Returns
 * 0, -EINVAL (err names the bad job; order untouched) or -ENOMEM.
 */
int hmrf_books_rank(const hmrf_books_t *b, const hmrf_job_t *jobs,
		    size_t njobs, size_t *order, horae_err_t *err);

/* The same over jobs given as a table (hmrf_rank_table). */
int hmrf_books_rank_table(const hmrf_books_t *b, const hmrf_job_table_t *jobs,
			  size_t *order, horae_err_t *err);

/*
 * The same ranking one job at a time (hmrf_ranker_create, with its count
 * and its errors; jobs[] stays as it is until hmrf_ranker_destroy).  The
 * ranker works on the books as they are now: what changes them later
 * does not change its order.
 */
hmrf_ranker_t *hmrf_books_ranker(const hmrf_books_t *b,
				 const hmrf_job_t *jobs, const size_t *count,
				 size_t njobs, horae_err_t *err);

/*
 * Each account's standing in H-MRF's order now, as a factor in (0, 1]:
 * 1 - place / n, place being where the account would be served if every
 * one of the n accounts asked for one small job now (1 for the account
 * H-MRF serves first).  What priority/hmrf shows as an association's
 * fair-share factor (sshare's FairShare).  factor[] has room for
 * hmrf_books_count() values.  Returns 0, -EINVAL or -ENOMEM (factor
 * untouched).
 */
int hmrf_books_standing(const hmrf_books_t *b, double *factor);

/*
 * Account a as the last closed pass left it, the way hmrf_rank() takes it
 * (weight, usage, non-sharing integral and rate, holdings, waiting since).
 * Returns 0 or -EINVAL.
 */
int hmrf_books_get(const hmrf_books_t *b, int a, hmrf_account_t *out);

/* Whether account a counts in the weight sum in the last closed pass. */
bool hmrf_books_counted(const hmrf_books_t *b, int a);

/* The charge horizon, s, and the time usage is charged up to. */
double hmrf_books_horizon(const hmrf_books_t *b);
double hmrf_books_charged_until(const hmrf_books_t *b);

/*
 * The view sfair shows (hmrf_shares.h) as of the last closed pass: a new
 * JSON document the caller owns, or NULL with errno ENOMEM.
 */
json_object *hmrf_books_view(const hmrf_books_t *b);

/*
 * What to ask of an accounting database when there is no saved usage:
 * the span [*from, to] whose usage belongs in the window ending at to.
 * Returns 0, or -ENOENT when the window keeps no history (none).
 */
int hmrf_books_seed_span(const hmrf_books_t *b, double to, double *from);

/*
 * A job the accounting database recorded for account a, run over [start,
 * end] (end 0: still running at to): charged over its part inside [from,
 * to] as hmrf_books_seed_span() gave them.  Returns 1 when something was
 * charged, 0 when nothing fell inside, or -EINVAL.
 */
int hmrf_books_seed(hmrf_books_t *b, int a, const tres_vec_t *tres,
		    double start, double end, double from, double to);

/* The persistent part (to save), read-only; and a deep copy of it. */
const hmrf_state_t *hmrf_books_state(const hmrf_books_t *b);
hmrf_state_t *hmrf_books_snapshot(const hmrf_books_t *b);

#endif /* HORAE_HMRF_BOOKS_H */
