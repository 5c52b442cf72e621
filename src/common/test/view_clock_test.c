/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view_clock_test.c - Check tests of view_clock.c and of readers'
 * signatures: a view is due when new, when what its reader may see
 * changed, when its refresh boundary passed or the clock went back, and
 * not otherwise; checked on chosen cases, on generated readers period by
 * period (the bounds on a view's age, not the rule's formula), and on
 * readers that all start at once (the refreshes spread over the periods).
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../view_clock.h"
#include "test_seed.h"

START_TEST(test_signature)
{
	view_readers_t *r = view_readers_create();
	const view_reader_t *a, *b, *c, *op;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(view_readers_add(r, 1, "chem"), 0);
	ck_assert_int_eq(view_readers_add(r, 1, "bio"), 0);
	ck_assert_int_eq(view_readers_add(r, 2, "bio"), 0);
	ck_assert_int_eq(view_readers_add(r, 2, "chem"), 0);
	ck_assert_int_eq(view_readers_add(r, 3, "bio"), 0);
	ck_assert_int_eq(view_readers_add(r, 4, NULL), 0);
	a = view_readers_find(r, 1);
	b = view_readers_find(r, 2);
	c = view_readers_find(r, 3);
	op = view_readers_find(r, 4);
	/* The same accounts in another order: the same signature. */
	ck_assert_uint_eq(view_reader_signature(a), view_reader_signature(b));
	ck_assert_uint_ne(view_reader_signature(a), view_reader_signature(c));
	ck_assert_uint_ne(view_reader_signature(op), view_reader_signature(a));
	ck_assert_uint_eq(view_reader_signature(NULL), 0);
	/* One more account changes it. */
	uint64_t before = view_reader_signature(c);
	ck_assert_int_eq(view_readers_add(r, 3, "phys"), 0);
	ck_assert_uint_ne(view_reader_signature(view_readers_find(r, 3)),
			  before);
	view_readers_destroy(&r);
}
END_TEST

START_TEST(test_due)
{
	view_clock_t *c = view_clock_create();
	int refreshed = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert(view_clock_due(NULL, 1, 5, 100, 10));
	ck_assert(view_clock_due(c, 1, 5, 100, 10)); /* never published */
	ck_assert_int_eq(view_clock_mark(c, 1, 5, 100), 0);
	ck_assert(!view_clock_due(c, 1, 5, 100, 10));
	ck_assert(view_clock_due(c, 1, 6, 100.5, 10)); /* other accounts */
	ck_assert(view_clock_due(c, 1, 5, 99, 10)); /* the clock went back */
	ck_assert(view_clock_due(c, 2, 5, 100.5, 10)); /* another reader */
	ck_assert(view_clock_due(c, 1, 5, 100.5, 0)); /* no refresh period */
	ck_assert(view_clock_due(c, 1, 5, 110, 10)); /* a boundary passed */
	/* Asked each second from 100: refreshed once in every 10 s. */
	for (int t = 101; t <= 200; t++)
		if (view_clock_due(c, 1, 5, t, 10)) {
			ck_assert_int_eq(view_clock_mark(c, 1, 5, t), 0);
			refreshed++;
		}
	ck_assert_int_eq(refreshed, 10);
	ck_assert_int_eq(view_clock_mark(NULL, 1, 5, 100), -EINVAL);
	ck_assert_int_eq(view_clock_mark(c, -1, 5, 100), -EINVAL);
	view_clock_destroy(&c);
	ck_assert_ptr_null(c);
	view_clock_destroy(&c);
}
END_TEST

START_TEST(test_keep)
{
	view_clock_t *c = view_clock_create();
	view_readers_t *r = view_readers_create();

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(r);
	for (long uid = 1; uid <= 40; uid++)
		ck_assert_int_eq(view_clock_mark(c, uid, uid, 100), 0);
	for (long uid = 2; uid <= 40; uid += 2)
		ck_assert_int_eq(view_readers_add(r, uid, "a"), 0);
	ck_assert_int_eq(view_clock_keep(c, r), 0);
	/* Asked at the time they were marked: only the forgotten are due. */
	for (long uid = 1; uid <= 40; uid++)
		ck_assert_msg(view_clock_due(c, uid, uid, 100, 10) == (uid % 2),
			      "uid %ld", uid);
	ck_assert_int_eq(view_clock_keep(c, NULL), 0);
	for (long uid = 2; uid <= 40; uid += 2)
		ck_assert(view_clock_due(c, uid, uid, 100, 10));
	ck_assert_int_eq(view_clock_keep(NULL, r), 0);
	view_readers_destroy(&r);
	view_clock_destroy(&c);
}
END_TEST

#define UIDS 30
#define ACCTS 6

/* What the test knows of a uid's view: when it was last published, of
 * what, whether that was a refresh (not a first publication), and whether
 * the uid was a reader last period. */
typedef struct {
	double last;
	uint64_t sig;
	bool refreshed, present;
} seen_t;

/*
 * Periods of 30 s with a refresh every 300 s: each period a random set of
 * readers (each with random accounts, or an operator) comes, the due views
 * are published (marked), the absent are forgotten.  Checks: a reader new
 * or back, or seeing other accounts, is published that period; a view is
 * never older than 300 s plus a period; a refresh comes no sooner than
 * 300 s less a period after the refresh before it (the first one after a
 * view is made may come sooner: that is how views made at once spread).
 */
START_TEST(test_generated)
{
	unsigned int seed = (unsigned int)gen_seed(100 + _i);
	view_clock_t *c = view_clock_create();
	const double every = 300, period = 30;
	seen_t m[UIDS] = { 0 };
	char name[16];

	ck_assert_ptr_nonnull(c);
	for (int p = 0; p < 300; p++) {
		double now = 1000 + period * p;
		view_readers_t *r = view_readers_create();

		ck_assert_ptr_nonnull(r);
		for (int u = 0; u < UIDS; u++) {
			int pick = rand_r(&seed) % 40;

			if (pick == 0)
				continue; /* absent this period */
			if (pick == 1 && u % 7 == 0) {
				ck_assert_int_eq(view_readers_add(r, u, NULL),
						 0);
				continue;
			}
			/* Mostly the same accounts; now and then one more. */
			snprintf(name, sizeof(name), "acct%d", u % ACCTS);
			ck_assert_int_eq(view_readers_add(r, u, name), 0);
			if (rand_r(&seed) % 30 == 0) {
				snprintf(name, sizeof(name), "acct%d",
					 (u + 1) % ACCTS);
				ck_assert_int_eq(view_readers_add(r, u, name),
						 0);
			}
		}
		for (int u = 0; u < UIDS; u++) {
			const view_reader_t *v = view_readers_find(r, u);
			uint64_t sig = view_reader_signature(v);
			bool fresh, due;

			if (!v) {
				m[u].present = false;
				continue;
			}
			fresh = !m[u].present || m[u].sig != sig;
			due = view_clock_due(c, u, sig, now, every);
			if (fresh)
				ck_assert_msg(
					due,
					"seed %u period %d uid %d: new, not due",
					seed, p, u);
			else if (due && m[u].refreshed)
				ck_assert_msg(
					now - m[u].last > every - period,
					"seed %u period %d uid %d: refreshed %.0f s after the last",
					seed, p, u, now - m[u].last);
			else if (!due)
				ck_assert_msg(
					now - m[u].last < every,
					"seed %u period %d uid %d: %.0f s old and not due",
					seed, p, u, now - m[u].last);
			if (due) {
				ck_assert_int_eq(
					view_clock_mark(c, u, sig, now), 0);
				m[u].last = now;
				m[u].refreshed = !fresh;
			}
			m[u].sig = sig;
			m[u].present = true;
		}
		ck_assert_int_eq(view_clock_keep(c, r), 0);
		view_readers_destroy(&r);
	}
	view_clock_destroy(&c);
}
END_TEST

/*
 * 3,000 readers that all appear at once (slurmctld's start) with periods
 * of 30 s and a refresh every 300 s: after the first publication of all
 * of them, no period refreshes more than a fifth of them (a tenth on
 * average), and each is refreshed once in each 300 s.
 */
START_TEST(test_spread)
{
	enum { N = 3000 };
	view_clock_t *c = view_clock_create();
	view_readers_t *r = view_readers_create();
	int count[N] = { 0 }, most = 0, total = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(r);
	for (long u = 0; u < N; u++)
		ck_assert_int_eq(view_readers_add(r, 1000 + u, "a"), 0);
	for (int p = 0; p < 40; p++) {
		double now = 5000 + 30.0 * p;
		int here = 0;

		for (int i = 0; i < N; i++) {
			const view_reader_t *v = view_readers_get(r, i);
			long uid = view_reader_uid(v);
			uint64_t sig = view_reader_signature(v);

			if (!view_clock_due(c, uid, sig, now, 300))
				continue;
			ck_assert_int_eq(view_clock_mark(c, uid, sig, now), 0);
			if (p > 0) {
				here++;
				count[i]++;
			}
		}
		if (p == 0)
			continue;
		most = here > most ? here : most;
		total += here;
	}
	ck_assert_msg(most <= N / 5, "%d of %d refreshed in one period", most,
		      N);
	/* 39 periods after the first: 1,170 s, three or four refreshes each. */
	for (int i = 0; i < N; i++)
		ck_assert_msg(count[i] >= 3 && count[i] <= 4,
			      "reader %d refreshed %d times", i, count[i]);
	ck_assert_int_ge(total, 3 * N);
	view_readers_destroy(&r);
	view_clock_destroy(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view_clock");
	TCase *tc = tcase_create("view_clock");

	tcase_add_test(tc, test_signature);
	tcase_add_test(tc, test_due);
	tcase_add_test(tc, test_keep);
	tcase_add_loop_test(tc, test_generated, 0, 20);
	tcase_add_test(tc, test_spread);
	suite_add_tcase(s, tc);
	return check_run(s);
}
