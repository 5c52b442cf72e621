/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_tree_test.c - Check tests of hmrf_tree.c: Fair Tree's split on
 * hand-computed hierarchies (sub-accounts beside users, the root's own
 * users), accounts outside the tree, loops and bad input refused.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../hmrf_tree.h"

#define EPS 1e-12

/* root: physics 2, chem 1, bio 1 and the user root 0 (slurmdbd's
 * defaults give root 1; 0 keeps the arithmetic plain here). */
static hmrf_tree_t *_flat(void)
{
	hmrf_tree_t *t = hmrf_tree_create();

	ck_assert_int_eq(hmrf_tree_add_account(t, "root", NULL, 1), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "physics", "root", 2), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "chem", "root", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "bio", "root", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_user(t, "physics", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_user(t, "chem", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_user(t, "bio", 5), 0);
	return t;
}

START_TEST(test_flat)
{
	hmrf_tree_t *t = _flat();

	ck_assert_int_eq(hmrf_tree_solve(t, NULL), 0);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "physics", 1), 0.5, EPS);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "chem", 1), 0.25, EPS);
	/* Users' shares split users, not accounts. */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "bio", 1), 0.25, EPS);
	/* The root has no users: its own jobs get nothing. */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "root", 1), 0, EPS);
	/* Not in the tree: one more child of the root with 1 share. */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "other", 1), 0.25, EPS);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "other", 2), 0.5, EPS);
	ck_assert_int_eq(hmrf_tree_count(t), 4);
	ck_assert(hmrf_tree_has(t, "chem"));
	ck_assert(!hmrf_tree_has(t, "other"));
	hmrf_tree_destroy(&t);
	ck_assert_ptr_null(t);
}
END_TEST

/* physics splits between its users (4) and theory (1) and exp (3); the
 * root's user holds 4 beside the top accounts' 4. */
START_TEST(test_nested)
{
	hmrf_tree_t *t = _flat();

	ck_assert_int_eq(hmrf_tree_add_account(t, "theory", "physics", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "exp", "physics", 3), 0);
	ck_assert_int_eq(hmrf_tree_add_user(t, "physics", 3), 0); /* now 4 */
	ck_assert_int_eq(hmrf_tree_add_user(t, "exp", 2), 0);
	ck_assert_int_eq(hmrf_tree_add_user(t, "root", 4), 0);
	ck_assert_int_eq(hmrf_tree_solve(t, NULL), 0);
	/* root: 8 = 4 (users) + 2 + 1 + 1 */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "root", 1), 0.5, EPS);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "chem", 1), 0.125, EPS);
	/* physics 0.25, split 4 : 1 : 3 */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "physics", 1), 0.125, EPS);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "theory", 1), 0.03125, EPS);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "exp", 1), 0.09375, EPS);
	/* The parts add up to the whole. */
	double sum = 0;
	for (int i = 0; i < hmrf_tree_count(t); i++)
		sum += hmrf_tree_share(t, hmrf_tree_name(t, i), 1);
	ck_assert_double_eq_tol(sum, 1, EPS);
	/* A change is seen at the next solve. */
	ck_assert_int_eq(hmrf_tree_add_user(t, "chem", 0), 0);
	hmrf_tree_destroy(&t);
}
END_TEST

START_TEST(test_orphans_and_loops)
{
	hmrf_tree_t *t = hmrf_tree_create();
	horae_err_t err;

	/* A parent never given: its child hangs from the root. */
	ck_assert_int_eq(hmrf_tree_add_account(t, "a", "gone", 1), 0);
	ck_assert_int_eq(hmrf_tree_solve(t, NULL), 0);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "a", 1), 1, EPS);
	/* Named only by a user: not in the hierarchy. */
	ck_assert_int_eq(hmrf_tree_add_user(t, "u", 1), 0);
	ck_assert_int_eq(hmrf_tree_solve(t, NULL), 0);
	ck_assert_double_eq_tol(hmrf_tree_share(t, "u", 3), 3, EPS);
	ck_assert(!hmrf_tree_has(t, "u"));
	hmrf_tree_destroy(&t);

	t = hmrf_tree_create();
	ck_assert_int_eq(hmrf_tree_add_account(t, "x", "y", 1), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "y", "x", 1), 0);
	ck_assert_int_eq(hmrf_tree_solve(t, &err), -EINVAL);
	ck_assert(strstr(err.text, "loop"));
	/* Not solved: every account is unknown. */
	ck_assert_double_eq_tol(hmrf_tree_share(t, "x", 2), 2, EPS);
	hmrf_tree_destroy(&t);
}
END_TEST

START_TEST(test_badargs)
{
	hmrf_tree_t *t = hmrf_tree_create();

	ck_assert_int_eq(hmrf_tree_add_account(t, NULL, NULL, 1), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_account(t, "", NULL, 1), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_account(t, "a", NULL, -1), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_account(t, "a", NULL, NAN), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_account(t, "a", NULL, 1), 0);
	ck_assert_int_eq(hmrf_tree_add_account(t, "a", NULL, 1), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_user(t, "a", -2), -EINVAL);
	ck_assert_int_eq(hmrf_tree_add_user(NULL, "a", 1), -EINVAL);
	ck_assert_double_eq(hmrf_tree_share(NULL, "a", 7), 7);
	hmrf_tree_destroy(&t);
	hmrf_tree_destroy(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf_tree");
	TCase *tc = tcase_create("hmrf_tree");

	tcase_add_test(tc, test_flat);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_orphans_and_loops);
	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	return check_run(s);
}
