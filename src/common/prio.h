/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prio.h - a job's priority as a documented weighted sum, multifactor
 * style, of factors in [0, 1]:
 *
 *   priority = W_hmrf * hmrf + W_age * age + W_size * size
 *            + W_part * partition + W_qos * qos + W_eunomia * eunomia
 *            + (site - NICE_OFFSET) - (nice - NICE_OFFSET)
 *
 *   hmrf       1 - rank / n: the job's place in the H-MRF order of the n
 *              pending jobs (1 for the first)
 *   age        time eligible / max_age, capped at 1
 *   size       cpus / cluster cpus (1 - that with favor_small)
 *   partition  the partition's normalised priority
 *   qos        the QOS's normalised priority
 *   eunomia    1 - rank / n: the job's place in the Eunomia order (lowest
 *              progress share first) of the n pending jobs
 *
 * The result is clamped to [1, UINT32_MAX - 1]: 0 means held in Slurm.
 */
#ifndef HORAE_PRIO_H
#define HORAE_PRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct prio_weights {
	double hmrf, age, size, part, qos, eunomia;
	double max_age;	  /* s; age reaches 1 here */
	bool favor_small; /* PriorityFavorSmall */
} prio_weights_t;

typedef struct prio_input {
	double hmrf;	     /* in [0, 1] */
	double eligible_for; /* s */
	double cpus, cluster_cpus;
	double part;	     /* in [0, 1] */
	double qos;	     /* in [0, 1] */
	double eunomia;	     /* in [0, 1] */
	int nice;	     /* nice - NICE_OFFSET: > 0 lowers priority */
	int site;	     /* site factor - NICE_OFFSET, added as is */
} prio_input_t;

/* The factors, each already multiplied by its weight (as sprio shows). */
typedef struct prio_factors {
	double hmrf, age, size, part, qos, eunomia;
} prio_factors_t;

/* The H-MRF factor of place rank (0-based) among n jobs: 1 - rank/n. */
double prio_rank_factor(size_t rank, size_t n);

/*
 * The priority of a job; if out is not NULL it receives the weighted
 * factors.  Inputs outside [0, 1] are clamped.
 */
uint32_t prio_compute(const prio_weights_t *w, const prio_input_t *in,
		      prio_factors_t *out);

#endif /* HORAE_PRIO_H */
