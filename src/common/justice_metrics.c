/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_metrics.c - see justice_metrics.h.
 */
#include <math.h>
#include <stdlib.h>

#include "justice_metrics.h"

double justice_jain(const double *x, size_t n)
{
	double s = 0, s2 = 0;

	for (size_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 1;
}

/* Running sums for Jain's index without a copy of the outcomes. */
typedef struct jain_sum {
	double s, s2;
} jain_sum_t;

static void _jain_add(jain_sum_t *j, double x)
{
	j->s += x;
	j->s2 += x * x;
}

static double _jain(const jain_sum_t *j, size_t n)
{
	return j->s2 > 0 ? j->s * j->s / (n * j->s2) : 1;
}

void justice_metrics(const justice_outcome_t *o, size_t n, double capacity,
		     double span, justice_metrics_t *out)
{
	double good = 0, bad = 0;
	jain_sum_t eq = { 0 }, fair = { 0 };

	*out = (justice_metrics_t){ .jobs = n };
	for (size_t i = 0; i < n; i++) {
		double t = o[i].cpus * o[i].run;

		if (o[i].met) {
			out->met++;
			good += t;
		} else {
			bad += t;
		}
		_jain_add(&eq, o[i].cpus);
		_jain_add(&fair, o[i].requested > 0 ?
					 fmin(1, o[i].cpus / o[i].requested) :
					 1);
	}
	out->sdr = n ? (double)out->met / n : 0;
	out->ptr = good + bad > 0 ? good / (good + bad) : 0;
	out->wtr = good + bad > 0 ? bad / (good + bad) : 0;
	out->utilisation = capacity > 0 && span > 0 ?
				   (good + bad) / (capacity * span) : NAN;
	out->jain_equality = _jain(&eq, n);
	out->jain_fairness = _jain(&fair, n);
}
