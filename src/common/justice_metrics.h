/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_metrics.h - the measures of justice-deadline-admission.md's
 * evaluation, over the outcome of a set of deadline jobs:
 *
 *   SDR  satisfied deadline ratio: jobs that completed by their deadline
 *        over all submitted jobs
 *   PTR  productive time ratio: time T of the successful jobs over the T
 *        of all jobs; WTR, wasted time ratio: T of the failed or dropped
 *        ones over the same.  T is the CPU time a job held (CPUs x run
 *        time; the paper's "runtime" on a cluster of many CPUs); a job
 *        dropped before it ran has T = 0
 *   utilisation  busy CPU time over capacity x the span of the workload
 *   Jain's index (sum F)^2 / (n sum F^2): of equality with F_i the CPUs a
 *        job was given, of "true" fairness with F_i = A_i / D_i (given
 *        over asked for, at most 1)
 */
#ifndef HORAE_JUSTICE_METRICS_H
#define HORAE_JUSTICE_METRICS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct justice_outcome {
	double cpus;	  /* A_i: CPUs it was given (0 if it never ran) */
	double requested; /* D_i: CPUs it asked for */
	double run;	  /* seconds it ran (0 if never) */
	bool met;	  /* completed by its deadline */
} justice_outcome_t;

typedef struct justice_metrics {
	size_t jobs, met;
	double sdr, ptr, wtr;
	double utilisation; /* NAN without capacity x span */
	double jain_equality, jain_fairness;
} justice_metrics_t;

/*
 * The measures of n outcomes on capacity CPUs over span seconds (either
 * may be 0: no utilisation).  Ratios of nothing are 0; Jain's index of no
 * jobs is 1.
 */
void justice_metrics(const justice_outcome_t *o, size_t n, double capacity,
		     double span, justice_metrics_t *out);

/* Jain's index of x[0..n): 1 for n = 0 or all zeros. */
double justice_jain(const double *x, size_t n);

#endif /* HORAE_JUSTICE_METRICS_H */
