/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_doc_test.c - Check tests of ledger_doc.c: every field of the
 * document in its place, "since" only when finite, last_start 0 when not
 * given, and the ledgers read back as they were.
 */
#include <check.h>

#include "check_run.h"
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "../ledger.h"
#include "../ledger_doc.h"
#include "../names.h"

static json_object *_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no '%s'", key);
	return v;
}

START_TEST(test_fields)
{
	window_spec_t w = { WINDOW_NONE, 0 };
	ledger_t *u = ledger_create(&w, 0, 2, 100, NULL);
	ledger_t *ns = ledger_create(&w, 0, 2, 100, NULL);
	names_t *n = names_create();
	const double ls[] = { 40, 0 };
	tres_vec_t rate = { .v = { 2, 1 } }, got;
	ledger_doc_t d = { "cpu,mem", 150, NAN, n, ls, u, ns };
	json_object *doc, *a;
	ledger_t *back;

	ck_assert_int_eq(names_intern(n, "physics"), 0);
	ck_assert_int_eq(names_intern(n, "chem"), 1);
	ck_assert_int_eq(ledger_grow(u, 2), 0);
	ck_assert_int_eq(ledger_grow(ns, 2), 0);
	ck_assert_int_eq(ledger_charge(u, 0, &rate, 100, 150), 0);
	doc = ledger_doc_to_json(&d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_object_get_string(_get(doc, "tres")), "cpu,mem");
	ck_assert_double_eq(json_object_get_double(_get(doc, "charged_until")),
			    150);
	ck_assert(!json_object_object_get_ex(doc, "since", NULL));
	a = _get(doc, "accounts");
	ck_assert_int_eq(json_object_array_length(a), 2);
	ck_assert_str_eq(
		json_object_get_string(json_object_array_get_idx(a, 1)),
		"chem");
	a = _get(doc, "last_start");
	ck_assert_double_eq(
		json_object_get_double(json_object_array_get_idx(a, 0)), 40);
	back = ledger_from_json(_get(doc, "usage"), NULL);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(ledger_usage(back, 0, &got), 0);
	ck_assert_double_eq(got.v[0], 100);
	ck_assert_double_eq(got.v[1], 50);
	ledger_destroy(&back);
	back = ledger_from_json(_get(doc, "nonsharing"), NULL);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(ledger_usage(back, 0, &got), 0);
	ck_assert_double_eq(got.v[0], 0);
	ledger_destroy(&back);
	json_object_put(doc);

	/* since when finite; last_start all 0 when not given */
	d.since = 20;
	d.last_start = NULL;
	doc = ledger_doc_to_json(&d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_double_eq(json_object_get_double(_get(doc, "since")), 20);
	a = _get(doc, "last_start");
	ck_assert_int_eq(json_object_array_length(a), 2);
	ck_assert_double_eq(
		json_object_get_double(json_object_array_get_idx(a, 0)), 0);
	json_object_put(doc);
	names_destroy(&n);
	ledger_destroy(&u);
	ledger_destroy(&ns);
}
END_TEST

START_TEST(test_no_accounts)
{
	window_spec_t w = { WINDOW_TUMBLING, 3600 };
	ledger_t *u = ledger_create(&w, 0, 1, 0, NULL);
	names_t *n = names_create();
	ledger_doc_t d = { "progress", 0, NAN, n, NULL, u, u };
	json_object *doc = ledger_doc_to_json(&d);

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(json_object_array_length(_get(doc, "accounts")), 0);
	ck_assert_int_eq(json_object_array_length(_get(doc, "last_start")), 0);
	json_object_put(doc);
	names_destroy(&n);
	ledger_destroy(&u);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ledger_doc");
	TCase *tc = tcase_create("ledger_doc");

	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_no_accounts);
	suite_add_tcase(s, tc);
	return check_run(s);
}
