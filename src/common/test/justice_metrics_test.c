/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_metrics_test.c - Check tests of justice_metrics.c on a small
 * hand-computed outcome.
 */
#include <check.h>

#include "check_run.h"

#include <math.h>

#include "../justice_metrics.h"

START_TEST(test_metrics)
{
	/* Two met (4 CPUs x 10 s, 2 x 20), one missed after 8 x 5, one
	 * dropped before it ran. */
	justice_outcome_t o[4] = {
		{ 4, 4, 10, true },
		{ 2, 4, 20, true },
		{ 8, 8, 5, false },
		{ 0, 2, 0, false },
	};
	justice_metrics_t m;
	double x[3] = { 1, 1, 1 };

	justice_metrics(o, 4, 10, 20, &m);
	ck_assert_uint_eq(m.jobs, 4);
	ck_assert_uint_eq(m.met, 2);
	ck_assert_double_eq_tol(m.sdr, 0.5, 1e-12);
	ck_assert_double_eq_tol(m.ptr, 80.0 / 120, 1e-12);
	ck_assert_double_eq_tol(m.wtr, 40.0 / 120, 1e-12);
	ck_assert_double_eq_tol(m.utilisation, 120.0 / 200, 1e-12);
	/* Equality over 4, 2, 8, 0: 14^2 / (4 x 84). */
	ck_assert_double_eq_tol(m.jain_equality, 196.0 / 336, 1e-12);
	/* Fairness over 1, 0.5, 1, 0: 2.5^2 / (4 x 2.25). */
	ck_assert_double_eq_tol(m.jain_fairness, 6.25 / 9, 1e-12);
	ck_assert_double_eq(justice_jain(x, 3), 1);
	ck_assert_double_eq(justice_jain(x, 0), 1);
	justice_metrics(o, 0, 0, 0, &m);
	ck_assert_double_eq(m.sdr, 0);
	ck_assert(isnan(m.utilisation));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_metrics");
	TCase *tc = tcase_create("justice_metrics");

	tcase_add_test(tc, test_metrics);
	suite_add_tcase(s, tc);
	return check_run(s);
}
