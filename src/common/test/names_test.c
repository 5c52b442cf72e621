/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names_test.c - Check tests of names.c: the errno contract, stable dense
 * indices, and many names through several growths.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../names.h"

START_TEST(test_badargs)
{
	names_t *n = names_create();

	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(names_intern(n, NULL), -EINVAL);
	ck_assert_int_eq(names_intern(NULL, "a"), -EINVAL);
	ck_assert_int_eq(names_find(n, "a"), -ENOENT);
	ck_assert_int_eq(names_find(NULL, "a"), -ENOENT);
	ck_assert_ptr_null(names_get(n, 0));
	ck_assert_ptr_null(names_get(n, -1));
	ck_assert_int_eq(names_count(NULL), 0);
	names_destroy(&n);
	ck_assert_ptr_null(n);
	names_destroy(NULL);
}
END_TEST

START_TEST(test_indices)
{
	names_t *n = names_create();

	ck_assert_int_eq(names_intern(n, "physics"), 0);
	ck_assert_int_eq(names_intern(n, "chem"), 1);
	ck_assert_int_eq(names_intern(n, "physics"), 0);
	ck_assert_int_eq(names_intern(n, ""), 2);
	ck_assert_int_eq(names_find(n, "chem"), 1);
	ck_assert_str_eq(names_get(n, 1), "chem");
	ck_assert_int_eq(names_count(n), 3);
	names_destroy(&n);
}
END_TEST

START_TEST(test_many)
{
	names_t *n = names_create();
	char buf[32];

	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof(buf), "acct%d", i);
		ck_assert_int_eq(names_intern(n, buf), i);
	}
	for (int i = 0; i < 20000; i += 7) {
		snprintf(buf, sizeof(buf), "acct%d", i);
		ck_assert_int_eq(names_find(n, buf), i);
		ck_assert_str_eq(names_get(n, i), buf);
	}
	ck_assert_int_eq(names_find(n, "acct20000"), -ENOENT);
	ck_assert_int_eq(names_count(n), 20000);
	names_destroy(&n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_indices);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	return check_run(s);
}
