/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_test.c - Check tests of eunomia.c: progress shares (Eunomia's
 * Fig. 1: Alice's share 2/8, 3/8, 4/8 as Machine 2's CPUs are given), the
 * fair progress share, and the online order.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../eunomia.h"

/* Eunomia Fig. 1: machines 1, 2 of 2 CPUs at speed 1, machine 3 of 2 CPUs
 * at speed 2; Alice may use machines 1-2, Bob 2-3.  Either, alone and
 * unconstrained, would get 2*1 + 2*1 + 2*2 = 8 per unit of time. */
START_TEST(test_eunomia_fig1)
{
	const double monopoly = 8;
	double alice = 2 * 1, bob = 2 * 2; /* Fig. 1c: M1 to Alice, M3 to Bob */
	double want[] = { 2.0 / 8, 3.0 / 8, 4.0 / 8 };

	ck_assert_double_eq_tol(eunomia_progress_share(alice, monopoly, 1),
				want[0], 1e-12);
	ck_assert_double_eq_tol(eunomia_progress_share(bob, monopoly, 1), 0.5,
				1e-12);
	/* Machine 2's CPUs go, one at a time, to the lowest progress share
	 * whose constraints machine 2 meets (both): Alice twice. */
	for (int cpu = 0; cpu < 2; cpu++) {
		double sa = eunomia_progress_share(alice, monopoly, 1);
		double sb = eunomia_progress_share(bob, monopoly, 1);

		ck_assert(sa < sb);
		alice += 1 * 1;
		ck_assert_double_eq_tol(
			eunomia_progress_share(alice, monopoly, 1),
			want[cpu + 1], 1e-12);
	}
	ck_assert_double_eq(eunomia_progress_share(alice, monopoly, 1),
			    eunomia_progress_share(bob, monopoly, 1));
	/* Weights divide; nonsense gives 0, not a division by zero. */
	ck_assert_double_eq(eunomia_progress_share(4, 8, 2), 0.25);
	ck_assert_double_eq(eunomia_progress_share(4, 0, 1), 0);
	ck_assert_double_eq(eunomia_gap(0.25, 0.5), 0.5);
	ck_assert_double_eq(eunomia_gap(0.75, 0.5), -0.5);
	ck_assert_double_eq(eunomia_gap(0.75, 0), 0);
}
END_TEST

/* Online order: runnable jobs first; lowest progress share first, with
 * each pick charged before the next. */
START_TEST(test_eunomia_rank)
{
	eunomia_account_t a[3] = { { 1, 20, 0, true }, { 1, 10, 0, true },
				   { 2, 30, 0, true } };
	eunomia_job_t j[5] = {
		{ 0, 1, 10, true },  { 1, 1, 10, true }, { 1, 1, 10, true },
		{ 2, 1, 10, true },  { 1, 1, 10, false },
	};
	size_t order[5] = { 9, 9, 9, 9, 9 };
	horae_err_t err;

	/* Shares per weight: a0 20, a1 10, a2 15 (30 / 2).  a1 first (10),
	 * then a2 (15) and a1 again (20 after its first pick, ties with a0:
	 * lower index first: a0), then a1; the non-runnable job last. */
	ck_assert_int_eq(eunomia_rank(a, 3, 100, j, 5, order, &err), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 3);
	ck_assert_uint_eq(order[2], 0);
	ck_assert_uint_eq(order[3], 2);
	ck_assert_uint_eq(order[4], 4);
	ck_assert_int_eq(eunomia_rank(a, 3, 0, j, 5, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "monopoly progress 0 must be > 0"));
}
END_TEST

/* The fair share splits what active accounts got by weight; an account's
 * own monopoly (its own speed factors) counts in its share. */
START_TEST(test_eunomia_fair_share)
{
	/* Micro-benchmark at equal shares: 4 accounts, 15 each of 60. */
	eunomia_account_t a[5] = {
		{ 1, 15, 0, true }, { 1, 15, 0, true }, { 1, 15, 0, true },
		{ 1, 15, 0, true }, { 1, 0, 0, false },
	};
	double fair = eunomia_fair_share(a, 5, 60);

	ck_assert_double_eq_tol(fair, 0.25, 1e-12);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(
							    &a[i], 60),
						    fair),
					0, 1e-12);
	/* TSF's outcome: account 3 (pinned to speed 3) 24 of 60, the others
	 * 12: it is above fair by 60%, they are below by 20%. */
	a[0].progress = a[1].progress = a[2].progress = 12;
	a[3].progress = 24;
	fair = eunomia_fair_share(a, 5, 60);
	ck_assert_double_eq_tol(fair, 0.25, 1e-12);
	ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(&a[3], 60),
					    fair),
				-0.6, 1e-12);
	ck_assert_double_eq_tol(eunomia_gap(eunomia_account_share(&a[0], 60),
					    fair),
				0.2, 1e-12);
	/* Weight 2 holds twice the progress at the same share. */
	a[0].weight = 2;
	a[0].progress = 48;
	ck_assert_double_eq_tol(eunomia_account_share(&a[0], 60),
				eunomia_account_share(&a[3], 60), 1e-12);
	/* An account whose own factors make the cluster worth 30 to it. */
	a[4].monopoly = 30;
	a[4].progress = 6;
	ck_assert_double_eq_tol(eunomia_account_share(&a[4], 60), 0.2, 1e-12);
	/* Nobody active: no fair share; nonsense weights are skipped. */
	for (int i = 0; i < 5; i++)
		a[i].active = false;
	ck_assert_double_eq(eunomia_fair_share(a, 5, 60), 0);
	ck_assert_double_eq(eunomia_fair_share(NULL, 0, 60), 0);
}
END_TEST

/* An account's own monopoly changes its place in the order. */
START_TEST(test_eunomia_rank_own_monopoly)
{
	/* Equal progress; account 1's factors make the cluster worth half as
	 * much to it, so its share is twice account 0's: 0 goes first. */
	eunomia_account_t a[2] = { { 1, 10, 0, true }, { 1, 10, 50, true } };
	eunomia_job_t j[2] = { { 1, 1, 1, true }, { 0, 1, 1, true } };
	size_t order[2];
	horae_err_t err;

	ck_assert_int_eq(eunomia_rank(a, 2, 100, j, 2, order, &err), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 0);
	a[1].monopoly = 0;
	a[0].progress = 11;
	ck_assert_int_eq(eunomia_rank(a, 2, 100, j, 2, order, &err), 0);
	ck_assert_uint_eq(order[0], 0);
}
END_TEST

/* A pending job's expected rate: its constraint's speed, else the
 * account's average over the cluster, else speed 1. */
START_TEST(test_eunomia_expected_rate)
{
	/* Pinned to gen4 (3.0): 2 CPUs make 6 a second. */
	ck_assert_double_eq(eunomia_expected_rate(2, 3.0, 60, 32), 6);
	/* Unconstrained on the micro-benchmark cluster: 60 / 32 a CPU. */
	ck_assert_double_eq_tol(eunomia_expected_rate(1, 0, 60, 32), 1.875,
				1e-12);
	/* Nothing known: speed 1. */
	ck_assert_double_eq(eunomia_expected_rate(4, 0, 0, 32), 4);
	ck_assert_double_eq(eunomia_expected_rate(4, NAN, 60, 0), 4);
	ck_assert_double_eq(eunomia_expected_rate(0, 3.0, 60, 32), 0);
	ck_assert_double_eq(eunomia_expected_rate(-1, 3.0, 60, 32), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia");
	TCase *tc = tcase_create("eunomia");

	tcase_add_test(tc, test_eunomia_fig1);
	tcase_add_test(tc, test_eunomia_rank);
	tcase_add_test(tc, test_eunomia_fair_share);
	tcase_add_test(tc, test_eunomia_rank_own_monopoly);
	tcase_add_test(tc, test_eunomia_expected_rate);
	suite_add_tcase(s, tc);
	return check_run(s);
}
