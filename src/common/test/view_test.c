/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view_test.c - Check tests of view.c: readers and their accounts, an
 * operator who sees everything, and a document cut to one reader.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../view.h"

START_TEST(test_readers)
{
	view_readers_t *r = view_readers_create();
	const view_reader_t *u1, *op;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(view_readers_add(r, -1, "a"), -EINVAL);
	ck_assert_int_eq(view_readers_add(NULL, 1, "a"), -EINVAL);
	ck_assert_int_eq(view_readers_add(r, 1001, "a1"), 0);
	ck_assert_int_eq(view_readers_add(r, 1001, "a1"), 0);
	ck_assert_int_eq(view_readers_add(r, 1002, "a2"), 0);
	ck_assert_int_eq(view_readers_add(r, 1001, "a3"), 0);
	ck_assert_int_eq(view_readers_add(r, 7, NULL), 0);
	ck_assert_int_eq(view_readers_count(r), 3);
	ck_assert_int_eq(view_reader_uid(view_readers_get(r, 0)), 1001);
	ck_assert_int_eq(view_reader_uid(view_readers_get(r, 2)), 7);
	ck_assert_ptr_null(view_readers_get(r, 3));
	ck_assert_ptr_null(view_readers_find(r, 1003));
	u1 = view_readers_find(r, 1001);
	ck_assert(view_reader_keeps("a1", (void *)u1));
	ck_assert(view_reader_keeps("a3", (void *)u1));
	ck_assert(!view_reader_keeps("a2", (void *)u1));
	ck_assert(!view_reader_keeps("a", (void *)u1));
	ck_assert(!view_reader_keeps(NULL, (void *)u1));
	op = view_readers_find(r, 7);
	ck_assert(view_reader_keeps("a2", (void *)op));
	ck_assert(view_reader_keeps("anything", (void *)op));
	view_readers_destroy(&r);
	ck_assert_ptr_null(r);
	view_readers_destroy(NULL);
}
END_TEST

START_TEST(test_many_readers)
{
	view_readers_t *r = view_readers_create();
	char acct[32];

	for (long uid = 0; uid < 5000; uid++) {
		snprintf(acct, sizeof(acct), "a%ld", uid % 17);
		ck_assert_int_eq(view_readers_add(r, uid, acct), 0);
	}
	ck_assert_int_eq(view_readers_count(r), 5000);
	ck_assert(view_reader_keeps("a3", (void *)view_readers_find(r, 20)));
	ck_assert(!view_reader_keeps("a4", (void *)view_readers_find(r, 20)));
	view_readers_destroy(&r);
}
END_TEST

START_TEST(test_select_accounts)
{
	const char *text =
		"{\"at\":10,\"fair_share\":0.5,\"accounts\":["
		"{\"account\":\"a1\",\"progress\":1},"
		"{\"account\":\"a2\",\"progress\":2},"
		"{\"progress\":3},"
		"{\"account\":\"a3\",\"progress\":4}]}";
	json_object *doc = json_tokener_parse(text), *cut, *rows, *v;
	view_readers_t *r = view_readers_create();

	ck_assert_int_eq(view_readers_add(r, 1, "a3"), 0);
	ck_assert_int_eq(view_readers_add(r, 1, "a1"), 0);
	cut = view_select_accounts(doc, view_reader_keeps,
				   (void *)view_readers_find(r, 1));
	ck_assert_ptr_nonnull(cut);
	ck_assert(json_object_object_get_ex(cut, "at", &v));
	ck_assert_int_eq(json_object_get_int(v), 10);
	ck_assert(json_object_object_get_ex(cut, "fair_share", &v));
	ck_assert(json_object_object_get_ex(cut, "accounts", &rows));
	ck_assert_int_eq(json_object_array_length(rows), 2);
	ck_assert(json_object_object_get_ex(
		json_object_array_get_idx(rows, 1), "account", &v));
	ck_assert_str_eq(json_object_get_string(v), "a3");
	/* The original is untouched. */
	ck_assert(json_object_object_get_ex(doc, "accounts", &rows));
	ck_assert_int_eq(json_object_array_length(rows), 4);
	json_object_put(cut);
	json_object_put(doc);
	doc = json_tokener_parse("{\"accounts\":{}}");
	ck_assert_ptr_null(view_select_accounts(doc, view_reader_keeps, NULL));
	ck_assert_int_eq(errno, EINVAL);
	json_object_put(doc);
	view_readers_destroy(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");

	tcase_add_test(tc, test_readers);
	tcase_add_test(tc, test_many_readers);
	tcase_add_test(tc, test_select_accounts);
	suite_add_tcase(s, tc);
	return check_run(s);
}
