/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_history.h - what Justice learns from finished jobs (Algorithm 1
 * of justice-deadline-admission.md, TRACK_JOB), in bounded memory.
 *
 * For each finished deadline job:
 *   deadlineCPUs = compTime / deadline      CPUs it needed to finish just
 *                                           in time over its window
 *   maxCPUs      = min(requested, capacity)
 *   minReqRate   = deadlineCPUs / maxCPUs   the fraction it needed
 *   LastCPUFrac  = CPUs Justice allotted it / maxCPUs,
 *   LastSuccess  = met its deadline
 *   error        = minReqRate - LastCPUFrac
 * In the paper Justice allots every job its CPUs, so LastCPUFrac is both
 * what it got and what Justice estimated.  A batch system runs a job of
 * fixed size at the size it asked for: there `allotted` is Justice's
 * estimate (reqCPUs), so that the error list measures Justice's estimates
 * and not the sizes users chose (with 1, every rigid job would pull the
 * correction down by 1 - minReqRate).
 *
 * A job cut short (ended by a time limit or killed at its deadline before
 * its work was done; in the paper such a job runs to its end) ran less
 * than it needed: its compTime is taken as the larger of what it ran and
 * what its time limit claimed (`claim`, CPUs x limit), at most all of its
 * CPUs over the window (minReqRate <= 1, the paper's bound); with no
 * claim, minReqRate = 1.  Learnt from what it ran, a miss would look like
 * a job that needed less than it got and make Justice bolder after every
 * miss, the opposite of what the paper's correction is for.
 * MinCPUFrac and MaxCPUFrac are the least and largest minReqRate.  Only the
 * last `length` jobs are kept (the paper keeps all): the minimum, maximum
 * and the error average are over those.  The error list is averaged with
 * equal weights or by exponential smoothing (newest weighs alpha).
 */
#ifndef HORAE_JUSTICE_HISTORY_H
#define HORAE_JUSTICE_HISTORY_H

#include <stdbool.h>

#include <json-c/json.h>

#include "err.h"

#define JUSTICE_HISTORY_MAX 1000000

typedef enum justice_smoothing {
	JUSTICE_SMOOTH_EQUAL = 0, /* mean of the kept errors */
	JUSTICE_SMOOTH_EXP,	  /* s = alpha e + (1 - alpha) s, oldest first */
} justice_smoothing_t;

/* One finished job, as TRACK_JOB takes it. */
typedef struct justice_done {
	double requested; /* requestedTasks: the CPUs it asked for (most) */
	double deadline;  /* its deadline window, s: deadline - submission,
			   * or the shorter one a scheduler's cut left it */
	double comp_time; /* CPU x s it ran */
	double cpus;	  /* CPUs it was given */
	bool success;	  /* ended by its deadline */
	double allotted;  /* CPUs Justice allotted (its reqCPUs); 0: cpus */
	bool cut;	  /* ended before its work was done */
	double claim;	  /* cut: CPU x s its time limit claimed; 0: unknown */
} justice_done_t;

typedef struct justice_history justice_history_t;

/*
 * An empty history of at most length jobs (1..JUSTICE_HISTORY_MAX) with
 * the given smoothing (alpha in (0, 1] for JUSTICE_SMOOTH_EXP).  NULL with
 * errno EINVAL (err says what) or ENOMEM.
 */
justice_history_t *justice_history_create(int length, justice_smoothing_t s,
					  double alpha, horae_err_t *err);

/* Free it and set *h to NULL.  NULL-safe. */
void justice_history_destroy(justice_history_t **h);

/*
 * TRACK_JOB: learn from job on a cluster of capacity CPUs.  Returns 0, or
 * -EINVAL (a window, size or capacity <= 0, or non-finite) with err and
 * nothing learnt.
 */
int justice_history_track(justice_history_t *h, const justice_done_t *job,
			  double capacity, horae_err_t *err);

/* Jobs learnt from since creation (not capped by length). */
long justice_history_count(const justice_history_t *h);

/* MinCPUFrac, MaxCPUFrac, LastCPUFrac (0 with no history). */
double justice_history_min(const justice_history_t *h);
double justice_history_max(const justice_history_t *h);
double justice_history_last(const justice_history_t *h);
bool justice_history_last_success(const justice_history_t *h);

/* The smoothed average of the kept error list (0 with no history). */
double justice_history_correction(const justice_history_t *h);

/* Serialise (a new object the caller owns; NULL with errno ENOMEM). */
json_object *justice_history_to_json(const justice_history_t *h);

/* Rebuild from justice_history_to_json() output; NULL with errno EINVAL
 * and err naming the field that is wrong, or ENOMEM. */
justice_history_t *justice_history_from_json(json_object *obj,
					     horae_err_t *err);

#endif /* HORAE_JUSTICE_HISTORY_H */
