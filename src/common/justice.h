/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice.h - Justice's estimate and admission (Algorithms 2 and 3 of
 * justice-deadline-admission.md), and the baselines it is compared with.
 *
 * ESTIMATE_REQ for a job of at most maxCPUs = min(requested, capacity)
 * CPUs, deadline window D and q seconds queued (or, at submission, that
 * cannot start for q seconds, as with a later --begin):
 *   fraction = (LastCPUFrac + (LastSuccess ? MinCPUFrac : MaxCPUFrac)) / 2
 *   fraction = validate(fraction + smoothed error) to [MinCPUFrac, 1]
 *   fraction = fraction x D / (D - q)              (queue stretch)
 *   reqCPUs  = max(ceil(fraction x maxCPUs), 1)
 * during a bootstrap (fewer than `bootstrap` jobs learnt, and always
 * fewer than 2) reqCPUs = maxCPUs and every job is admitted.  A job is
 * infeasible when reqCPUs > maxCPUs (or q >= D); then the estimate says
 * what would be feasible: the CPUs it would need, and the earliest
 * deadline (from submission) it could meet, D' = q / (1 - f) with f the
 * fraction before the stretch.  Feasible jobs compete by priority
 * reqCPUs / TTD (TTD = D - q) in the paper's heap, with the policy of its
 * evaluation: jobs with few CPUs and much time to their deadline first,
 * i.e. the smallest value first (justice_order).
 *
 * A job with a size range is sized for size_cpus, not fewer CPUs than its
 * own time limit claims in the time it has (claim / TTD): the estimate is
 * one fraction for all jobs, and a range sized below what the job itself
 * says it may need is cut at its deadline with its work undone (the
 * claim only ever adds CPUs, within the range; admission and priority
 * stay the estimate's).
 *
 * Baselines: baseline-fs knows nothing of deadlines (every job feasible,
 * reqCPUs = maxCPUs); reactive-fs admits every job and kills one once its
 * deadline has passed; oracle knows each job's exact need (the caller
 * passes it) and admits exactly the jobs that can make it.
 */
#ifndef HORAE_JUSTICE_H
#define HORAE_JUSTICE_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "justice_history.h"

typedef enum justice_policy {
	JUSTICE_POLICY_JUSTICE = 0,
	JUSTICE_POLICY_BASELINE_FS,
	JUSTICE_POLICY_REACTIVE_FS,
	JUSTICE_POLICY_ORACLE,
} justice_policy_t;

/* Parse "justice", "baseline-fs", "reactive-fs", "oracle"; 0 or -EINVAL. */
int justice_policy_parse(const char *s, justice_policy_t *out,
			 horae_err_t *err);
const char *justice_policy_name(justice_policy_t p);

typedef struct justice_params {
	justice_policy_t policy;
	double capacity; /* CPUs of the cluster */
	long bootstrap;	 /* jobs to learn from before admission control */
} justice_params_t;

typedef struct justice_request {
	double requested; /* the most CPUs the job may use */
	double deadline;  /* window D, s: deadline - submission */
	double queued;	  /* q, s: time since submission (or to its start) */
	double need;	  /* oracle only: CPUs x s it will run at any size */
	/* The most the job may run from q if it starts then, when the
	 * scheduler cuts it short of its deadline (Slurm: the whole minutes
	 * left); 0: until the deadline. */
	double run_cap;
	/* A job with a size range: the CPU x s its own time limit claims at
	 * the bottom of the range (the limit x its CPUs there: Slurm may
	 * start it so and ends it at its limit); 0: none. */
	double claim;
} justice_request_t;

typedef enum justice_verdict {
	JUSTICE_BOOTSTRAP = 0, /* admitted: still learning */
	JUSTICE_FEASIBLE,
	JUSTICE_INFEASIBLE,
} justice_verdict_t;

typedef struct justice_estimate {
	justice_verdict_t verdict;
	double max_cpus;      /* min(requested, capacity) */
	double fraction;      /* after correction, validation and stretch */
	double req_cpus;      /* reqCPUs */
	double ttd;	      /* D - q */
	double priority;      /* reqCPUs / TTD (0 when infeasible) */
	/* The CPUs to size a range for: reqCPUs, or more when the claim
	 * spread over the time the job has needs more, at most max_cpus. */
	double size_cpus;
	/* Infeasible: what would be feasible. */
	double cpus_needed;   /* reqCPUs it would need (may exceed max_cpus) */
	double deadline_ok;   /* earliest window D' it could meet; INFINITY
			       * when none (f = 1) */
} justice_estimate_t;

/*
 * The fraction of its CPUs Justice now expects a job to need over its
 * whole window (CALCULATE_ALLOC_FRACTION and CORRECT_ALLOC_FRACTION,
 * validated to [MinCPUFrac, 1]), before the queue stretch; NAN with no
 * history.
 */
double justice_fraction(const justice_history_t *h);

/*
 * Estimate and judge one job against history h (may be NULL: nothing
 * learnt).  Returns 0, or -EINVAL (a window, size or capacity <= 0 or
 * non-finite, q < 0) with err and *out untouched.
 */
int justice_estimate(const justice_history_t *h, const justice_params_t *p,
		     const justice_request_t *r, justice_estimate_t *out,
		     horae_err_t *err);

/*
 * How long a deadline job starting left seconds before its deadline may
 * run under Slurm, which sets its limit to the whole minutes left
 * (job_scheduler.c, deadline_time_limit): a request's run_cap.  At least
 * 1 s.  A time left within a microsecond below a whole minute counts as
 * that minute (floating-point rounding, not time Slurm would cut).
 */
double justice_run_cap(double left);

/*
 * Size an elastic job: the fewest units of per_unit CPUs (a node, a task)
 * that give req_cpus, within [min_units, max_units].  The plugin sizes
 * node ranges with it, the simulator task counts.  per_unit must be > 0
 * (otherwise min_units).
 */
long justice_size(double req_cpus, double per_unit, long min_units,
		  long max_units);

/*
 * CREATE_OFFERS: given feasible jobs' reqCPUs in priority order
 * (justice_order) and free CPUs, offer each job its
 * reqCPUs while they last; a job that does not fit gets 0 and later
 * smaller ones may still fit.  offers[i] receives what job i gets.
 * Returns the CPUs left.
 */
double justice_offers(const double *req_cpus, size_t n, double free_cpus,
		      double *offers);

/* Which admitted job goes first.  The paper's priority policy is
 * pluggable; it reports that its choices, shortest time to deadline
 * among them, perform alike. */
typedef enum justice_order_kind {
	JUSTICE_ORDER_JUSTICE = 0, /* smallest reqCPUs / TTD first */
	JUSTICE_ORDER_DEADLINE,	   /* shortest TTD first */
} justice_order_kind_t;

/*
 * Order n estimates by priority, smallest reqCPUs/TTD first (ties: lower
 * index first; infeasible ones last) into order[].  Returns 0 or -ENOMEM.
 */
int justice_order(const justice_estimate_t *est, size_t n, size_t *order);

/* The same by kind (JUSTICE_ORDER_DEADLINE: shortest TTD first). */
int justice_order_by(const justice_estimate_t *est, size_t n,
		     justice_order_kind_t kind, size_t *order);

/* reactive-fs and the plugin's period: should a running job of size cpus
 * be killed at now, past its deadline?  Only when it is past the deadline
 * and larger than kill_above CPUs (smaller ones finish, and teach). */
bool justice_kill_late(double now, double deadline, double cpus,
		       double kill_above);

#endif /* HORAE_JUSTICE_H */
