/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prio.c - the weighted sum that turns factors into a Slurm priority.
 */
#include <math.h>

#include "prio.h"

/* x within [0, 1]; 0 for NaN and either infinity.  Comparisons, not
 * fmin and fmax: this runs several times per job per recalculation, and
 * those are calls into libm. */
static double _unit(double x)
{
	if (!(x > 0) || x == INFINITY)
		return 0.0;
	return x < 1 ? x : 1.0;
}

double prio_rank_factor(size_t rank, size_t n)
{
	return n ? 1.0 - (double)rank / (double)n : 1.0;
}

uint32_t prio_compute(const prio_weights_t *w, const prio_input_t *in,
		      prio_factors_t *out)
{
	prio_factors_t f;
	double size = in->cluster_cpus > 0 ? in->cpus / in->cluster_cpus : 0;
	double sum;

	size = _unit(size);
	f.hmrf = w->hmrf * _unit(in->hmrf);
	f.age = w->max_age > 0 ?
			w->age * _unit(in->eligible_for / w->max_age) : 0;
	f.size = w->size * (w->favor_small ? 1.0 - size : size);
	f.part = w->part * _unit(in->part);
	f.qos = w->qos * _unit(in->qos);
	f.eunomia = w->eunomia * _unit(in->eunomia);
	if (out)
		*out = f;
	sum = f.hmrf + f.age + f.size + f.part + f.qos + f.eunomia + in->site -
	      in->nice;
	if (!(sum >= 1))
		return 1;
	if (sum >= (double)UINT32_MAX - 1)
		return UINT32_MAX - 1;
	return (uint32_t)llround(sum);
}
