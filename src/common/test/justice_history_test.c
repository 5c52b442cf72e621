/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_history_test.c - Check tests of justice_history.c: Algorithm 1
 * on hand-computed histories, both smoothings, the bounded memory, JSON.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../justice_history.h"

/* A: 10 CPUs for 50 s of a 100-s window: needed 5 of 10, rate 0.5, given
 * all 10 (last 1, error -0.5).  B: 20 CPUs, 40 s of 200: 4 of 20, 0.2,
 * error -0.8.  C: asked 10, given 5, ran 900 CPU-s (180 s) against a
 * 100-s window and missed: it needed 9 of 10, rate 0.9, last 0.5, error
 * 0.4. */
static const justice_done_t A = { 10, 100, 500, 10, true, 0, false, 0 };
static const justice_done_t B = { 20, 200, 800, 20, true, 0, false, 0 };
static const justice_done_t C = { 10, 100, 900, 5, false, 0, false, 0 };

START_TEST(test_track)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(100, JUSTICE_SMOOTH_EQUAL, 0, &err);

	ck_assert_ptr_nonnull(h);
	ck_assert_double_eq(justice_history_correction(h), 0);
	ck_assert_int_eq(justice_history_track(h, &A, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 0.5, 1e-12);
	ck_assert_double_eq_tol(justice_history_correction(h), -0.5, 1e-12);
	ck_assert_int_eq(justice_history_track(h, &B, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 0.2, 1e-12);
	ck_assert_double_eq_tol(justice_history_max(h), 0.5, 1e-12);
	ck_assert_double_eq_tol(justice_history_last(h), 1, 1e-12);
	ck_assert(justice_history_last_success(h));
	ck_assert_double_eq_tol(justice_history_correction(h), -0.65, 1e-12);
	ck_assert_int_eq(justice_history_track(h, &C, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_max(h), 0.9, 1e-12);
	ck_assert_double_eq_tol(justice_history_last(h), 0.5, 1e-12);
	ck_assert(!justice_history_last_success(h));
	ck_assert_double_eq_tol(justice_history_correction(h), -0.3, 1e-12);
	ck_assert_int_eq(justice_history_count(h), 3);
	/* maxCPUs is capped by the cluster: 10 asked of 5 CPUs. */
	justice_history_destroy(&h);
	h = justice_history_create(10, JUSTICE_SMOOTH_EQUAL, 0, &err);
	ck_assert_int_eq(justice_history_track(h, &A, 5, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 1.0, 1e-12);
	ck_assert_double_eq_tol(justice_history_last(h), 2.0, 1e-12);
	justice_history_destroy(&h);
	ck_assert_ptr_null(h);
}
END_TEST

/* A rigid job Justice estimated at 4 of its 10 CPUs runs on all 10:
 * LastCPUFrac and the error are against the 4 (0.5 - 0.4), not the 10. */
START_TEST(test_allotted)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(10, JUSTICE_SMOOTH_EQUAL, 0, &err);
	justice_done_t a = A;

	a.allotted = 4;
	ck_assert_int_eq(justice_history_track(h, &a, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 0.5, 1e-12);
	ck_assert_double_eq_tol(justice_history_last(h), 0.4, 1e-12);
	ck_assert_double_eq_tol(justice_history_correction(h), 0.1, 1e-12);
	justice_history_destroy(&h);
}
END_TEST

/*
 * Cut short: 5 of 10 CPUs for the 60 s it had of a 100-s window (300
 * CPU-s) while its limit claimed 5 CPUs for 120 s (600): rate 0.6, not
 * 0.3, so the error (0.6 - 0.5) says it needed more than it got.  A claim
 * beyond the window counts as all of its CPUs (1); no claim, 1 too; a cut
 * job that ran more than it claimed counts what it ran.
 */
START_TEST(test_cut)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(10, JUSTICE_SMOOTH_EQUAL, 0, &err);
	justice_done_t c = { .requested = 10, .deadline = 100,
			     .comp_time = 300, .cpus = 5, .success = false,
			     .cut = true, .claim = 600 };

	ck_assert_int_eq(justice_history_track(h, &c, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_max(h), 0.6, 1e-12);
	ck_assert_double_eq_tol(justice_history_correction(h), 0.1, 1e-12);
	c.claim = 5000;
	ck_assert_int_eq(justice_history_track(h, &c, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_max(h), 1, 1e-12);
	c.claim = 0;
	ck_assert_int_eq(justice_history_track(h, &c, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_correction(h),
				(0.1 + 0.5 + 0.5) / 3, 1e-12);
	c.claim = 200;
	ck_assert_int_eq(justice_history_track(h, &c, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 0.3, 1e-12);
	/* Not cut: what it ran, whatever it claimed. */
	c.cut = false;
	c.claim = 600;
	c.comp_time = 100;
	ck_assert_int_eq(justice_history_track(h, &c, 100, &err), 0);
	ck_assert_double_eq_tol(justice_history_min(h), 0.1, 1e-12);
	justice_history_destroy(&h);
}
END_TEST

START_TEST(test_exp_smoothing)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(100, JUSTICE_SMOOTH_EXP, 0.5, &err);

	justice_history_track(h, &A, 100, &err);
	ck_assert_double_eq_tol(justice_history_correction(h), -0.5, 1e-12);
	justice_history_track(h, &B, 100, &err);
	ck_assert_double_eq_tol(justice_history_correction(h), -0.65, 1e-12);
	justice_history_track(h, &C, 100, &err);
	/* 0.5 x 0.4 + 0.5 x -0.65 */
	ck_assert_double_eq_tol(justice_history_correction(h), -0.125, 1e-12);
	justice_history_destroy(&h);
	ck_assert_ptr_null(
		justice_history_create(10, JUSTICE_SMOOTH_EXP, 0, &err));
	ck_assert(strstr(err.text, "0 < alpha <= 1"));
	ck_assert_ptr_null(
		justice_history_create(0, JUSTICE_SMOOTH_EQUAL, 0, &err));
	ck_assert(strstr(err.text, "history length 0"));
}
END_TEST

/* Only the last `length` jobs count: the minimum leaves with its job. */
START_TEST(test_bounded)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(2, JUSTICE_SMOOTH_EQUAL, 0, &err);
	/* rate 0.6, err -0.4 */
	justice_done_t D = { 10, 100, 600, 10, true, 0, false, 0 };

	justice_history_track(h, &A, 100, &err);
	justice_history_track(h, &B, 100, &err);
	justice_history_track(h, &C, 100, &err); /* A leaves */
	ck_assert_double_eq_tol(justice_history_min(h), 0.2, 1e-12);
	ck_assert_double_eq_tol(justice_history_max(h), 0.9, 1e-12);
	ck_assert_double_eq_tol(justice_history_correction(h), -0.2, 1e-12);
	justice_history_track(h, &D, 100, &err); /* B, the minimum, leaves */
	ck_assert_double_eq_tol(justice_history_min(h), 0.6, 1e-12);
	ck_assert_double_eq_tol(justice_history_max(h), 0.9, 1e-12);
	ck_assert_double_eq_tol(justice_history_correction(h), 0.0, 1e-12);
	ck_assert_int_eq(justice_history_count(h), 4);
	justice_history_destroy(&h);
}
END_TEST

START_TEST(test_bad_input)
{
	horae_err_t err;
	justice_history_t *h =
		justice_history_create(5, JUSTICE_SMOOTH_EQUAL, 0, &err);
	justice_done_t bad = A;

	bad.deadline = 0;
	ck_assert_int_eq(justice_history_track(h, &bad, 100, &err), -EINVAL);
	bad = A;
	bad.comp_time = NAN;
	ck_assert_int_eq(justice_history_track(h, &bad, 100, &err), -EINVAL);
	ck_assert_int_eq(justice_history_track(h, &A, 0, &err), -EINVAL);
	ck_assert(strstr(err.text, "capacity > 0"));
	bad = A;
	bad.allotted = -1;
	ck_assert_int_eq(justice_history_track(h, &bad, 100, &err), -EINVAL);
	bad = A;
	bad.claim = INFINITY;
	ck_assert_int_eq(justice_history_track(h, &bad, 100, &err), -EINVAL);
	ck_assert(strstr(err.text, "allotment and claim"));
	ck_assert_int_eq(justice_history_count(h), 0);
	justice_history_destroy(&h);
}
END_TEST

START_TEST(test_json)
{
	horae_err_t err;
	justice_history_t *h = justice_history_create(2, JUSTICE_SMOOTH_EXP,
						      0.25, &err),
			  *g;
	json_object *o;

	justice_history_track(h, &A, 100, &err);
	justice_history_track(h, &B, 100, &err);
	justice_history_track(h, &C, 100, &err);
	o = justice_history_to_json(h);
	g = justice_history_from_json(o, &err);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(justice_history_count(g), 3);
	ck_assert_double_eq(justice_history_min(g), justice_history_min(h));
	ck_assert_double_eq(justice_history_max(g), justice_history_max(h));
	ck_assert_double_eq(justice_history_last(g), justice_history_last(h));
	ck_assert_double_eq(justice_history_correction(g),
			    justice_history_correction(h));
	/* The rings continue where they were: the next job evicts B. */
	justice_history_track(g, &A, 100, &err);
	justice_history_track(h, &A, 100, &err);
	ck_assert_double_eq(justice_history_min(g), justice_history_min(h));
	json_object_put(o);
	o = json_tokener_parse("{\"length\":2,\"alpha\":1,\"count\":1,"
			       "\"last\":1,\"err_smooth\":0,"
			       "\"smoothing\":\"equal\",\"last_success\":true,"
			       "\"rate\":[0.5,0.2,0.1],\"error\":[0,0,0]}");
	ck_assert_ptr_null(justice_history_from_json(o, &err));
	ck_assert(strstr(err.text, "do not agree"));
	json_object_put(o);
	/* Found by fuzzing: out-of-range casts of length and count. */
	for (int k = 0; k < 3; k++) {
		static const char *const bad[] = { "3e9", "-1", "2" };
		static const char *const cnt[] = { "0", "0", "1e19" };
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"length\":%s,\"alpha\":1,\"count\":%s,"
			 "\"last\":0,\"err_smooth\":0,"
			 "\"smoothing\":\"equal\",\"last_success\":false,"
			 "\"rate\":[],\"error\":[]}",
			 bad[k], cnt[k]);
		o = json_tokener_parse(text);
		ck_assert_ptr_null(justice_history_from_json(o, &err));
		ck_assert_msg(strstr(err.text, "out of range"), "%s", err.text);
		json_object_put(o);
	}
	o = json_tokener_parse("{\"length\":2}");
	ck_assert_ptr_null(justice_history_from_json(o, &err));
	ck_assert(strstr(err.text, "missing or mistyped"));
	json_object_put(o);
	justice_history_destroy(&g);
	justice_history_destroy(&h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_history");
	TCase *tc = tcase_create("justice_history");

	tcase_add_test(tc, test_track);
	tcase_add_test(tc, test_allotted);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_exp_smoothing);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return check_run(s);
}
