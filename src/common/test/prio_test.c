/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prio_test.c - Check tests of prio.c: the weighted sum, clamping, and
 * the rank factor.
 */
#include <check.h>
#include <math.h>

#include "check_run.h"
#include <stdint.h>
#include <stdlib.h>

#include "../prio.h"

START_TEST(test_rank_factor)
{
	ck_assert_double_eq(prio_rank_factor(0, 4), 1.0);
	ck_assert_double_eq(prio_rank_factor(3, 4), 0.25);
	ck_assert_double_eq(prio_rank_factor(0, 0), 1.0);
}
END_TEST

START_TEST(test_sum)
{
	prio_weights_t w = { .hmrf = 1000, .age = 100, .size = 10, .part = 5,
			     .qos = 2, .max_age = 3600 };
	prio_input_t in = { .hmrf = 0.5, .eligible_for = 1800, .cpus = 4,
			    .cluster_cpus = 16, .part = 1, .qos = 0.5 };
	prio_factors_t f;

	/* 500 + 50 + 2.5 + 5 + 1 = 558.5 -> 559 (rounded) */
	ck_assert_uint_eq(prio_compute(&w, &in, &f), 559);
	ck_assert_double_eq(f.hmrf, 500);
	ck_assert_double_eq(f.age, 50);
	ck_assert_double_eq(f.size, 2.5);
	/* Nice lowers it; favor_small inverts the size factor. */
	in.nice = 100;
	w.favor_small = true;
	ck_assert_uint_eq(prio_compute(&w, &in, &f), 500 + 50 + 7.5 + 5 + 1 -
							  100 + 0.5);
	/* The Eunomia factor adds its weight times its place. */
	w.eunomia = 400;
	in.eunomia = 0.25;
	ck_assert_uint_eq(prio_compute(&w, &in, &f), 500 + 50 + 7.5 + 5 + 1 -
							  100 + 0.5 + 100);
	ck_assert_double_eq(f.eunomia, 100);
	in.eunomia = 7; /* clamped to 1 */
	prio_compute(&w, &in, &f);
	ck_assert_double_eq(f.eunomia, 400);
}
END_TEST

START_TEST(test_clamps)
{
	prio_weights_t w = { .hmrf = 1000, .age = 1000, .max_age = 60 };
	prio_input_t in = { .hmrf = 7, .eligible_for = 1e9 };
	prio_factors_t f;

	ck_assert_uint_eq(prio_compute(&w, &in, &f), 2000);
	in.site = 30;
	ck_assert_uint_eq(prio_compute(&w, &in, NULL), 2030);
	in.site = 0;
	in.nice = 5000; /* never 0: that means held */
	ck_assert_uint_eq(prio_compute(&w, &in, NULL), 1);
	w.hmrf = 1e12;
	in.nice = 0;
	ck_assert_uint_eq(prio_compute(&w, &in, NULL), UINT32_MAX - 1);
	w.max_age = 0; /* no age factor without a max age */
	prio_compute(&w, &in, &f);
	ck_assert_double_eq(f.age, 0);
}
END_TEST

/* The rule, written out apart from prio.c: within [0, 1], and 0 for a
 * value that is no number (NaN, either infinity). */
static double _model_unit(double x)
{
	if (!isfinite(x) || x < 0)
		return 0;
	if (x > 1)
		return 1;
	return x;
}

/* Each factor's input is clamped by that rule, checked factor by factor
 * on the edges. */
START_TEST(test_unit_edges)
{
	static const double x[] = {
		NAN,  -INFINITY, -2.5, -0.0, 0.0,   1e-300,
		0.25, 0.999,	 1.0,  1.5,  1e300, INFINITY
	};
	prio_weights_t w = {
		.hmrf = 1000, .part = 100, .qos = 10, .eunomia = 1
	};

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
		double want = _model_unit(x[i]);
		prio_input_t in = {
			.hmrf = x[i], .part = x[i], .qos = x[i], .eunomia = x[i]
		};
		prio_factors_t f;

		prio_compute(&w, &in, &f);
		ck_assert_msg(f.hmrf == 1000 * want && f.part == 100 * want &&
				      f.qos == 10 * want && f.eunomia == want,
			      "input %g: factors %g %g %g %g, want %g x weight",
			      x[i], f.hmrf, f.part, f.qos, f.eunomia, want);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("prio");
	TCase *tc = tcase_create("prio");

	tcase_add_test(tc, test_rank_factor);
	tcase_add_test(tc, test_sum);
	tcase_add_test(tc, test_clamps);
	tcase_add_test(tc, test_unit_edges);
	suite_add_tcase(s, tc);
	return check_run(s);
}
