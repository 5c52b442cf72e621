/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia.h - Eunomia's progress shares.  Progress is allocated CPUs x
 * speed x time; an account's progress share is its accumulated progress
 * over (its weight x the progress the whole cluster would have delivered
 * to it alone, without placement constraints, over the same time):
 * s_i = x_i / (f_i w_i).  Equalising progress shares makes an account that
 * pins its jobs to fast nodes pay for the speed it gets.
 */
#ifndef HORAE_EUNOMIA_H
#define HORAE_EUNOMIA_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/*
 * Progress share of progress against monopoly (what the cluster would
 * have given the account alone) and weight; 0 when monopoly or weight is
 * not positive.
 */
double eunomia_progress_share(double progress, double monopoly,
			      double weight);

/*
 * How far share is below fair, relative to fair: > 0 below (placement
 * gives faster nodes), < 0 above (slower nodes), 0 at it or with no fair
 * share to compare with.
 */
double eunomia_gap(double share, double fair);

typedef struct eunomia_account {
	double weight;	 /* contribution w_i, > 0 */
	double progress; /* accumulated progress in the window (CPU x speed x s) */
	/* What the cluster would have delivered to this account alone over
	 * the same span at its own speed factors; 0: the common monopoly. */
	double monopoly;
	bool active;	 /* has jobs or progress: counts in the fair share */
} eunomia_account_t;

/* Progress share of one account against the common monopoly. */
double eunomia_account_share(const eunomia_account_t *a, double monopoly);

/*
 * The fair progress share: the share each active account would hold if
 * the progress the active accounts received were split by weight,
 * sum x_i / sum w_i f_i.  0 when no account is active.
 */
double eunomia_fair_share(const eunomia_account_t *accts, int nacct,
			  double monopoly);

/*
 * Expected progress per second of a pending job of cpus CPUs: cpus x the
 * speed of the nodes its constraint allows (constraint_speed, when it
 * names features of the speed map and is > 0), else cpus x the account's
 * average speed over the cluster, its monopoly rate over total_cpus (1
 * when either is not positive).  0 when cpus is not positive.
 */
double eunomia_expected_rate(double cpus, double constraint_speed,
			     double monopoly_rate, double total_cpus);

/*
 * How long a pending job's expected progress counts when the online order
 * is built (eunomia_job_t.duration): its expected run, but no longer than
 * horizon (when > 0) and no longer than period, the time until the order
 * is built again from the progress the accounts really received (when
 * > 0).  Online Eunomia gives each freed server to the account with the
 * lowest progress share whose constraints it meets; an order kept for a
 * period does the same when each job counts only for what it makes before
 * the next order.  Charging whole expected runs instead lets forecasts
 * outweigh real shares: an account that may run anywhere is then picked
 * as often as one pinned to the nodes it competes for, and takes more
 * than its share of them.  0 when run is not positive or not a number.
 */
double eunomia_charge_span(double run, double horizon, double period);

typedef struct eunomia_job {
	int account;
	double rate;	 /* progress per second while it runs: CPUs x speed */
	double duration; /* expected run time, s */
	bool runnable;	 /* the free nodes meet its constraints now */
} eunomia_job_t;

/*
 * Online Eunomia order: runnable jobs before the others; within each
 * group, the account with the lowest progress share first, each picked
 * job's rate x duration charged to its account before the next pick (an
 * account's jobs keep their order).  monopoly is the progress the whole
 * cluster would deliver to one account over the window, the denominator
 * of every share.  This is LT-AF over a single "progress" resource, so it
 * is hmrf_rank() underneath.  order receives njobs indices.
 * Returns 0, -EINVAL (err says what) or -ENOMEM; order untouched on
 * failure.
 */
int eunomia_rank(const eunomia_account_t *accts, int nacct, double monopoly,
		 const eunomia_job_t *jobs, size_t njobs, size_t *order,
		 horae_err_t *err);

/*
 * The same order one job at a time, for a caller that may stop early:
 * count[j], when count is not NULL, says how many times job j is given
 * in a row (>= 1), as hmrf_ranker_create (hmrf.h) does.  jobs[] is read
 * at creation only.  eunomia_ranker_create returns NULL with errno EINVAL
 * (err says what) or ENOMEM; eunomia_ranker_next gives the next job's
 * index and returns 0, or -ENOENT after the last; eunomia_ranker_destroy
 * takes NULL and sets *r to NULL.
 */
typedef struct eunomia_ranker eunomia_ranker_t;

eunomia_ranker_t *eunomia_ranker_create(const eunomia_account_t *accts,
					int nacct, double monopoly,
					const eunomia_job_t *jobs,
					const size_t *count, size_t njobs,
					horae_err_t *err);
int eunomia_ranker_next(eunomia_ranker_t *r, size_t *job);
void eunomia_ranker_destroy(eunomia_ranker_t **r);

/* hmrf_ranker_skip's: the rest of the repeats of job, the one given
 * last, charged but the last.  Returns 0 or -EINVAL. */
int eunomia_ranker_skip(eunomia_ranker_t *r, size_t job);

#endif /* HORAE_EUNOMIA_H */
