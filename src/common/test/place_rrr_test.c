/*
 * place_rrr_test.c - Check tests of place_rrr.c: the errno contract and
 * the no-fit case that consumes nothing; every node once per round; the
 * same sequence for the same seed; a node that never fits is never
 * returned; a node skipped in a round waits for the next one.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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
	/* Nothing fits: -1, and the round is as it was. */
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

/* Each block of n calls is one round: a permutation of the nodes. */
static void _check_rounds(place_rrr_t *r, const bool *fits, int n, int want,
			  int rounds, int first[N])
{
	for (int round = 0; round < rounds; round++) {
		bool seen[N] = { false };

		for (int k = 0; k < want; k++) {
			int i = place_rrr_next(r, fits);

			ck_assert_int_ge(i, 0);
			ck_assert_int_lt(i, n);
			ck_assert_msg(fits[i], "node %d does not fit", i);
			ck_assert_msg(!seen[i], "node %d twice in round %d", i,
				      round);
			seen[i] = true;
			if (round == 0 && first)
				first[k] = i;
		}
	}
}

START_TEST(test_rounds)
{
	place_rrr_t *r = place_rrr_create(N, 42);
	bool fits[N];
	int first[N], second[N];

	ck_assert_ptr_nonnull(r);
	_fill(fits, N, true);
	_check_rounds(r, fits, N, N, 1, first);
	_check_rounds(r, fits, N, N, 1, second);
	/* A new permutation each round (for this seed they differ). */
	ck_assert(memcmp(first, second, sizeof(first)));
	_check_rounds(r, fits, N, N, 50, NULL);
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

START_TEST(test_never_fits)
{
	place_rrr_t *r = place_rrr_create(N, 5);
	bool fits[N];

	ck_assert_ptr_nonnull(r);
	_fill(fits, N, true);
	fits[3] = false;
	/* Node 3's position is passed over in each round, so each round
	 * gives the other N - 1 nodes once. */
	_check_rounds(r, fits, N, N - 1, 100, NULL);
	place_rrr_destroy(&r);
}
END_TEST

/* A node passed over because it did not fit comes back in a later round
 * only; the positions in between are used up too. */
START_TEST(test_skipped_waits)
{
	place_rrr_t *r = place_rrr_create(N, 77);
	place_rrr_t *ref = place_rrr_create(N, 77);
	bool all[N], only[N];
	int p[N];

	ck_assert(r && ref);
	_fill(all, N, true);
	for (int k = 0; k < N; k++)
		p[k] = place_rrr_next(ref, all); /* the first round */
	_fill(only, N, false);
	only[p[2]] = true;
	ck_assert_int_eq(place_rrr_next(r, only), p[2]); /* uses p[0..2] */
	ck_assert_int_eq(place_rrr_next(r, all), p[3]);
	_fill(only, N, false);
	only[p[0]] = true;
	/* p[0] was used up this round: the rest of it goes, and p[0] comes
	 * from the next one. */
	ck_assert_int_eq(place_rrr_next(r, only), p[0]);
	/* ref, at the start of round 2, catches up by passing p[0] in it;
	 * from there both give the same nodes. */
	while (place_rrr_next(ref, all) != p[0])
		;
	for (int k = 0; k < 3 * N; k++)
		ck_assert_int_eq(place_rrr_next(r, all),
				 place_rrr_next(ref, all));
	place_rrr_destroy(&r);
	place_rrr_destroy(&ref);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("place_rrr");
	TCase *tc = tcase_create("place_rrr");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_rounds);
	tcase_add_test(tc, test_reproducible);
	tcase_add_test(tc, test_never_fits);
	tcase_add_test(tc, test_skipped_waits);
	suite_add_tcase(s, tc);
	return check_run(s);
}
