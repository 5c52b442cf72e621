/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf.h - long-term multi-resource fairness (H-MRF) and its baselines,
 * as pure functions: fair shares, the non-sharing allocation, the sharing
 * degree beta, and the ranking of pending jobs by virtual progressive
 * filling.  How we read the paper: shared/DESIGN.md, "H-MRF".
 *
 * Units: capacities and allocations are TRES vectors (tres.h); "used" and
 * "ns" are accumulated over the window in TRES x seconds (ledger.h).
 */
#ifndef HORAE_HMRF_H
#define HORAE_HMRF_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "tres.h"

typedef enum hmrf_policy {
	HMRF_POLICY_HMRF = 0, /* sharing loss first, then AF, then DRF */
	HMRF_POLICY_DRF,      /* memoryless dominant resource fairness */
	HMRF_POLICY_AF,	      /* memoryless asset fairness */
	HMRF_POLICY_LT_DRF,   /* DRF over accumulated usage */
	HMRF_POLICY_LT_AF,    /* AF over accumulated usage */
} hmrf_policy_t;

/*
 * Parse "hmrf", "drf", "af", "lt-drf" or "lt-af".  Returns 0, or -EINVAL
 * with err listing the valid names; *out is untouched on failure.
 */
int hmrf_policy_parse(const char *str, hmrf_policy_t *out, horae_err_t *err);

/* The name hmrf_policy_parse() reads, or "unknown". */
const char *hmrf_policy_name(hmrf_policy_t policy);

/* Fair share S_i = R * w_i / sum(w).  weight_sum must be > 0. */
void hmrf_fair_share(const tres_vec_t *capacity, double weight,
		     double weight_sum, tres_vec_t *out);

/*
 * Non-sharing allocation: demand scaled down uniformly until it fits in
 * share (Leontief: a job's resources come together), or demand itself when
 * it already fits.  A demand for a TRES the share lacks gives zero.
 */
void hmrf_nonsharing(const tres_vec_t *demand, const tres_vec_t *share,
		     tres_vec_t *out);

/*
 * Sharing degree beta = min over TRES with ns > 0 of used / ns; +INFINITY
 * when ns is zero (no demand yet means no loss).  beta < 1 is sharing loss.
 * Both integrals must cover the same span: hmrf_rank() adds the step being
 * decided to both (formula (2) and Algorithm 1 line 24 of the paper).
 */
double hmrf_beta(const tres_vec_t *used, const tres_vec_t *ns);

/* Weighted aggregate sum_j used_j / R_j / w (TRES the capacity lacks
 * are left out). */
double hmrf_aggregate(const tres_vec_t *used, const tres_vec_t *capacity,
		      double weight);

/* Weighted dominant share max_j used_j / R_j / w. */
double hmrf_dominant(const tres_vec_t *used, const tres_vec_t *capacity,
		     double weight);

/*
 * Keys of the ranking that agree to this relative tolerance are ties
 * (the lower account index goes first), and a sharing degree within it
 * of 1 is no loss: floating-point rounding does not decide.
 */
#define HMRF_TIE 1e-9

typedef struct hmrf_account {
	double weight;	       /* contribution w_i, > 0 */
	tres_vec_t used;       /* accumulated usage in the window, TRES x s */
	tres_vec_t ns;	       /* accumulated non-sharing allocation, TRES x s */
	tres_vec_t running;    /* TRES its jobs hold now */
	tres_vec_t running_left; /* TRES x s its running jobs have left of
				  * their charge span (see hmrf_rank) */
	tres_vec_t waiting;    /* TRES its pending jobs ask for */
	tres_vec_t ns_rate;    /* its non-sharing allocation now, TRES */
	double waiting_since;  /* pending without an allocation since; 0: no */
} hmrf_account_t;

typedef struct hmrf_params {
	hmrf_policy_t policy;
	tres_vec_t capacity; /* R: what the cluster (or partition) has */
	double now;
	double timeout;	     /* starvation guard in s; 0 turns it off */
	double horizon;	     /* a virtual charge lasts at most this, s */
	double elapsed;	     /* time the window has run, s (borrow limit) */
	double borrow_limit; /* 0: none; else fraction above the fair share */
} hmrf_params_t;

typedef struct hmrf_job {
	int account;	 /* index into the accounts */
	tres_vec_t tres; /* what the job holds while it runs */
	double duration; /* expected run time, s: >= 0 (INFINITY: unknown,
			  * taken as the horizon, which must then be finite) */
} hmrf_job_t;

/*
 * Rank the pending jobs in the order the policy would allocate them, by
 * virtual progressive filling: repeatedly take the account the policy
 * prefers, give it its next job (an account's jobs keep their order in
 * jobs[]), and charge that job to the account (tres x min(duration,
 * horizon) to used, tres to running) before the next choice.
 *
 * The preference, best first: accounts past the starvation timeout (the
 * longest waiting first, for one job); then by policy: H-MRF takes
 * accounts in sharing loss (beta < 1) lowest beta first, then the lowest
 * weighted aggregate, ties by the lowest weighted dominant share; DRF and
 * AF use running instead of used; LT-DRF the dominant share, LT-AF the
 * aggregate of used.  Accounts past the borrow limit come after all others.
 * Keys within HMRF_TIE (relative) of each other are ties; remaining ties
 * go to the lower account index.
 *
 * H-MRF's beta is taken at the end of the step being decided, as in the
 * paper: with d the charge span of the account's next job (min(duration,
 * horizon)), used + what its running jobs add in the step + the jobs
 * given so far in this ranking, over ns + its entitlement in the step.
 * Without the step, an account's entitlement for the allocation being
 * decided is missing from the denominator, and an account that falls
 * behind in this very step is not seen in loss.
 *
 * A running job adds its TRES over the step, but no more than it has
 * left of its own charge span (min(duration, horizon) from its start,
 * the span a job given here is charged for): per TRES, r = min(running x
 * d, running_left), running_left being the sum over the running jobs of
 * TRES x what each has left.  That is the sum of TRES x min(d, left)
 * when d is the whole horizon or no running job has less than d left,
 * and between that sum and running x d otherwise.  The entitlement in the
 * step is ns_rate x d, but no more than the demand that lasts through it:
 * min(ns_rate x d, r + waiting x d).  Without the cap a ranking taken
 * while jobs are about to end, whose order starts the jobs that take
 * their place, counts what they ran as still to come: when some have
 * ended and others not yet, the accounts of those not yet ended are held
 * back by a step they will not use, and the batches that follow swing
 * from one account to the other (hmrf_books_test's
 * test_batches_do_not_swing).
 *
 * order[k] receives the index in jobs[] of the k-th job (order has njobs
 * entries).  O(njobs log nacct).
 * Returns 0, -EINVAL (err names the bad account, job or parameter; order
 * is untouched), or -ENOMEM.
 */
int hmrf_rank(const hmrf_params_t *p, const hmrf_account_t *accts, int nacct,
	      const hmrf_job_t *jobs, size_t njobs, size_t *order,
	      horae_err_t *err);

/*
 * Jobs as a table, for a caller with many (the plugin ranks every pending
 * job each period): job j's account is account[j], and the doubles at
 * amounts + j * (ntres + 1) are its duration (as hmrf_job_t's) and then
 * its first ntres TRES; the rest are 0.  With the handful of TRES a site
 * charges, a job takes a few doubles here against hmrf_job_t's TRES_MAX.
 */
typedef struct hmrf_job_table {
	const int *account;
	const double *amounts;
	int ntres; /* 0..TRES_MAX */
	size_t n;
} hmrf_job_table_t;

/*
 * hmrf_rank over jobs given as a table: the same order, errors and
 * complexity as hmrf_rank over the same jobs as hmrf_job_t's.  Returns
 * 0, -EINVAL (also for ntres outside 0..TRES_MAX) or -ENOMEM.
 */
int hmrf_rank_table(const hmrf_params_t *p, const hmrf_account_t *accts,
		    int nacct, const hmrf_job_table_t *jobs, size_t *order,
		    horae_err_t *err);

/*
 * The same ranking, one job at a time, for a caller that may stop early
 * (the simulator stops a round once no job left can start).  count[j],
 * when count is not NULL, says how many times job j is given in a row
 * (>= 1): the sequence is hmrf_rank's over jobs[] with job j written
 * count[j] times, without the copies.
 *
 * hmrf_ranker_create checks its input as hmrf_rank does (and count) and
 * copies the parameters, the accounts and what it reads of jobs[], which
 * is read at creation only.  It returns NULL with errno EINVAL (err names
 * what is wrong) or ENOMEM.  hmrf_ranker_next puts the next job's index
 * in *job and returns 0, or -ENOENT once every job was given (or
 * -EINVAL on NULL arguments).  hmrf_ranker_destroy takes NULL and sets
 * *r to NULL.
 */
typedef struct hmrf_ranker hmrf_ranker_t;

hmrf_ranker_t *hmrf_ranker_create(const hmrf_params_t *p,
				  const hmrf_account_t *accts, int nacct,
				  const hmrf_job_t *jobs, const size_t *count,
				  size_t njobs, horae_err_t *err);
int hmrf_ranker_next(hmrf_ranker_t *r, size_t *job);
void hmrf_ranker_destroy(hmrf_ranker_t **r);

/*
 * The caller has no use for the rest of the repeats of the job just
 * given (it cannot start): charge all of them but the last now, so that
 * they are not given one by one.  The order of everything else given
 * stays as it would have been (an account's key only grows with more of
 * the same job); the last repeat is still given, and the caller skips it
 * too.  job must be the one hmrf_ranker_next gave last.  Returns 0, or
 * -EINVAL (nothing charged).
 */
int hmrf_ranker_skip(hmrf_ranker_t *r, size_t job);

#endif /* HORAE_HMRF_H */
