/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place_rrr_test.c - Check tests of place_rrr.c: the errno contract and
 * the no-fit case that draws nothing; the same sequence for the same
 * seed; a node that does not fit is never returned; each round draws a
 * new order, so each call gives a node uniform over those that fit,
 * independently of the call before (the same node twice in a row as
 * often as any other pair).
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../place_rrr.h"

#define N 7

static void _fill(bool *fits, size_t n, bool v)
{
	for (size_t i = 0; i < n; i++)
		fits[i] = v;
}

START_TEST(test_badargs)
{
	place_rrr_t *r, *fresh, *null = NULL;
	bool fits[N];

	errno = 0;
	ck_assert_ptr_null(place_rrr_create(0, 1));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(place_rrr_create(SIZE_MAX, 1));
	ck_assert_int_eq(errno, EINVAL);
	place_rrr_destroy(NULL);
	place_rrr_destroy(&null);

	r = place_rrr_create(N, 9);
	fresh = place_rrr_create(N, 9);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(fresh);
	_fill(fits, N, true);
	ck_assert_int_eq(place_rrr_next(NULL, fits), -EINVAL);
	ck_assert_int_eq(place_rrr_next(r, NULL), -EINVAL);
	/* Nothing fits: -1, drawing nothing. */
	_fill(fits, N, false);
	ck_assert_int_eq(place_rrr_next(r, fits), -1);
	ck_assert_int_eq(place_rrr_next(r, fits), -1);
	_fill(fits, N, true);
	for (int k = 0; k < 3 * N; k++)
		ck_assert_int_eq(place_rrr_next(r, fits),
				 place_rrr_next(fresh, fits));
	place_rrr_destroy(&r);
	ck_assert_ptr_null(r);
	place_rrr_destroy(&fresh);
}
END_TEST

/* Counts of each node over draws calls with fits; checks every node given
 * fits. */
static void _count(place_rrr_t *r, const bool *fits, int draws, int cnt[N],
		   int pairs[N][N])
{
	int prev = -1;

	memset(cnt, 0, N * sizeof(int));
	if (pairs)
		memset(pairs, 0, N * N * sizeof(int));
	for (int k = 0; k < draws; k++) {
		int i = place_rrr_next(r, fits);

		ck_assert_int_ge(i, 0);
		ck_assert_int_lt(i, N);
		ck_assert_msg(fits[i], "node %d does not fit", i);
		cnt[i]++;
		if (pairs && prev >= 0)
			pairs[prev][i]++;
		prev = i;
	}
}

/*
 * Each call is a round of its own: over 70,000 calls every node comes
 * 10,000 times give or take 4% (about ten standard deviations), and each
 * of the 49 ordered pairs of consecutive nodes, the same node twice
 * included, about 1,428 times (10%, four standard deviations): one order
 * kept for n calls would never repeat a node within a round.
 */
START_TEST(test_uniform)
{
	place_rrr_t *r = place_rrr_create(N, 42);
	static int pairs[N][N];
	bool fits[N];
	int cnt[N], draws = 10000 * N;
	double pair = (double)(draws - 1) / (N * N);

	ck_assert_ptr_nonnull(r);
	_fill(fits, N, true);
	_count(r, fits, draws, cnt, pairs);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(abs(cnt[i] - 10000) < 400, "node %d: %d", i,
			      cnt[i]);
		for (int j = 0; j < N; j++)
			ck_assert_msg(fabs(pairs[i][j] - pair) < 0.1 * pair,
				      "%d then %d: %d times", i, j,
				      pairs[i][j]);
	}
	place_rrr_destroy(&r);

	/* One node: always it. */
	r = place_rrr_create(1, 42);
	ck_assert_ptr_nonnull(r);
	for (int k = 0; k < 5; k++)
		ck_assert_int_eq(place_rrr_next(r, fits), 0);
	place_rrr_destroy(&r);
}
END_TEST

START_TEST(test_reproducible)
{
	place_rrr_t *a = place_rrr_create(N, 1234);
	place_rrr_t *b = place_rrr_create(N, 1234);
	place_rrr_t *c = place_rrr_create(N, 1235);
	bool fits[N];
	int differ = 0;

	ck_assert(a && b && c);
	_fill(fits, N, true);
	for (int k = 0; k < 20 * N; k++) {
		int i = place_rrr_next(a, fits);

		ck_assert_int_eq(i, place_rrr_next(b, fits));
		differ += i != place_rrr_next(c, fits);
	}
	ck_assert_int_gt(differ, 0);
	place_rrr_destroy(&a);
	place_rrr_destroy(&b);
	place_rrr_destroy(&c);
}
END_TEST

/* The nodes that do not fit are never given; the others share the calls
 * evenly (12,000 each of 36,000, within 4%). */
START_TEST(test_only_fitting)
{
	place_rrr_t *r = place_rrr_create(N, 5);
	bool fits[N];
	int cnt[N];

	ck_assert_ptr_nonnull(r);
	_fill(fits, N, false);
	fits[1] = fits[4] = fits[6] = true;
	_count(r, fits, 36000, cnt, NULL);
	for (int i = 0; i < N; i++) {
		if (!fits[i])
			ck_assert_int_eq(cnt[i], 0);
		else
			ck_assert_msg(abs(cnt[i] - 12000) < 480, "node %d: %d",
				      i, cnt[i]);
	}
	/* A single node that fits is returned whatever the order. */
	_fill(fits, N, false);
	fits[3] = true;
	for (int k = 0; k < 50; k++)
		ck_assert_int_eq(place_rrr_next(r, fits), 3);
	place_rrr_destroy(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("place_rrr");
	TCase *tc = tcase_create("place_rrr");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_uniform);
	tcase_add_test(tc, test_reproducible);
	tcase_add_test(tc, test_only_fitting);
	suite_add_tcase(s, tc);
	return check_run(s);
}
