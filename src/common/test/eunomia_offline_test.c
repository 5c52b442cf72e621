/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_offline_test.c - Check tests of eunomia_offline.c: Eunomia's
 * Fig. 1 (Alice and Bob end at 4/8 each) and its micro-benchmark (20
 * machines of 4 cores, five each of speed 1.0, 1.5, 2.0, 3.0; four users of
 * 1000 one-core tasks, user 4 constrained to the speed-3.0 machines): the
 * offline LP gives the four users equal progress shares, 1/4 each.
 */
#include <check.h>

#include "check_run.h"
#include "test_vec.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../eunomia_offline.h"

START_TEST(test_badargs)
{
	tres_vec_t cap = _v(1, 1), d = _v(1, 1);
	double w = 0, t = 1, pr = 1, x = 7, s = 7;
	bool ok = true;
	eunomia_problem_t p = { 1, 1, &cap, &d, &w, &t, &pr, &ok };
	horae_err_t err;

	ck_assert_int_eq(eunomia_offline(NULL, &x, &s, &err), -EINVAL);
	ck_assert_int_eq(eunomia_offline(&p, &x, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "user 0 has weight 0"));
	w = 1;
	d = _v(0, 0);
	ck_assert_int_eq(eunomia_offline(&p, &x, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "demand nothing"));
	ck_assert_double_eq(x, 7);
	ck_assert_double_eq(s, 7);
}
END_TEST

START_TEST(test_fig1)
{
	tres_vec_t cap[3] = { _v(2, 2), _v(2, 2), _v(2, 2) };
	tres_vec_t d[2] = { _v(1, 1), _v(1, 1) };
	double w[2] = { 1, 1 }, t[2] = { INFINITY, INFINITY };
	double speed[2 * 3] = { 1, 1, 2, 1, 1, 2 };
	bool allowed[2 * 3] = { true, true, false, false, true, true };
	eunomia_problem_t p = { 2, 3, cap, d, w, t, speed, allowed };
	double x[6], share[2];
	horae_err_t err;

	ck_assert_msg(eunomia_offline(&p, x, share, &err) == 0, "%s", err.text);
	ck_assert_double_eq_tol(share[0], 0.5, 1e-6);
	ck_assert_double_eq_tol(share[1], 0.5, 1e-6);
	/* Alice holds machines 1 and 2, Bob machine 3 (Fig. 1d). */
	ck_assert_double_eq_tol(x[0] + x[1], 4, 1e-6);
	ck_assert_double_eq_tol(x[5], 2, 1e-6);
	ck_assert_double_eq_tol(x[2] + x[3], 0, 1e-6);
}
END_TEST

START_TEST(test_micro_benchmark)
{
	enum { M = 20, N = 4 };
	const double speeds[4] = { 1.0, 1.5, 2.0, 3.0 };
	tres_vec_t cap[M], d[N];
	double w[N], t[N], speed[N * M], x[N * M], share[N];
	bool allowed[N * M];
	eunomia_problem_t p = { N, M, cap, d, w, t, speed, allowed };
	horae_err_t err;
	double on_fast = 0;

	for (int m = 0; m < M; m++)
		cap[m] = _v(4, 4);
	for (int i = 0; i < N; i++) {
		d[i] = _v(1, 1);
		w[i] = 1;
		t[i] = 1000;
		for (int m = 0; m < M; m++) {
			speed[i * M + m] = speeds[m / 5];
			allowed[i * M + m] = i < 3 || m >= 15;
		}
	}
	ck_assert_msg(eunomia_offline(&p, x, share, &err) == 0, "%s", err.text);
	for (int i = 0; i < N; i++)
		ck_assert_msg(fabs(share[i] - 0.25) < 1e-6,
			      "user %d: progress share %g, want 0.25", i + 1,
			      share[i]);
	/* User 4 gets 0.25 x 150 = 37.5 progress on the speed-3 machines. */
	for (int m = 15; m < M; m++)
		on_fast += x[3 * M + m];
	ck_assert_double_eq_tol(on_fast * 3.0, 37.5, 1e-6);
}
END_TEST

/* Weights: 2:1 contributions end at equal weighted shares, the first
 * user getting twice the progress. */
START_TEST(test_weights)
{
	tres_vec_t cap[1] = { _v(9, 9) }, d[2] = { _v(1, 1), _v(1, 1) };
	double w[2] = { 2, 1 }, t[2] = { INFINITY, INFINITY };
	double speed[2] = { 1, 1 }, x[2], share[2];
	bool allowed[2] = { true, true };
	eunomia_problem_t p = { 2, 1, cap, d, w, t, speed, allowed };

	ck_assert_int_eq(eunomia_offline(&p, x, share, NULL), 0);
	ck_assert_double_eq_tol(x[0], 6, 1e-6);
	ck_assert_double_eq_tol(x[1], 3, 1e-6);
	ck_assert_double_eq_tol(share[0], share[1], 1e-6);
}
END_TEST

/* A user with few tasks saturates early; the others share the rest. */
START_TEST(test_saturation)
{
	tres_vec_t cap[1] = { _v(10, 10) }, d[3] = { _v(1, 1), _v(1, 1), _v(1, 1) };
	double w[3] = { 1, 1, 1 }, t[3] = { 1, INFINITY, INFINITY };
	double speed[3] = { 1, 1, 1 }, x[3], share[3];
	bool allowed[3] = { true, true, true };
	eunomia_problem_t p = { 3, 1, cap, d, w, t, speed, allowed };

	ck_assert_int_eq(eunomia_offline(&p, x, share, NULL), 0);
	ck_assert_double_eq_tol(x[0], 1, 1e-6);
	ck_assert_double_eq_tol(x[1], 4.5, 1e-6);
	ck_assert_double_eq_tol(x[2], 4.5, 1e-6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia_offline");
	TCase *tc = tcase_create("offline");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_fig1);
	tcase_add_test(tc, test_micro_benchmark);
	tcase_add_test(tc, test_weights);
	tcase_add_test(tc, test_saturation);
	suite_add_tcase(s, tc);
	return check_run(s);
}
