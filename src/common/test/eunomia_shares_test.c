/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_shares_test.c - Check tests of eunomia_shares.c: the published
 * document carries eunomia.c's shares (Eunomia's Fig. 1 outcome) and
 * reads back; a damaged document is refused with the field named.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <string.h>

#include "../eunomia_shares.h"

/* Fig. 1c: Alice 2, Bob 4 of a monopoly of 8: shares 2/8 and 4/8; the fair
 * share splits their 6 by weight: 3/8. */
START_TEST(test_round_trip)
{
	eunomia_account_t a[3] = { { 1, 2, 0, true },
				   { 1, 4, 0, true },
				   { 2, 0, 0, false } };
	const char *names[3] = { "alice", "bob", "idle" };
	json_object *doc = eunomia_shares_to_json(1000, 8, a, names, 3);
	json_object *back;
	eunomia_shares_t s;
	const eunomia_share_row_t *r;
	horae_err_t err;

	ck_assert_ptr_nonnull(doc);
	/* Through text, as sfair reads it. */
	back = json_tokener_parse(json_object_to_json_string(doc));
	ck_assert_int_eq(eunomia_shares_from_json(back, &s, &err), 0);
	ck_assert_double_eq(s.at, 1000);
	ck_assert_double_eq(s.monopoly, 8);
	ck_assert_double_eq_tol(s.fair, 3.0 / 8, 1e-12);
	ck_assert_int_eq(s.n, 3);
	r = eunomia_shares_find(&s, "alice");
	ck_assert_ptr_nonnull(r);
	ck_assert_double_eq_tol(r->share, 2.0 / 8, 1e-12);
	ck_assert_int_eq(r->active, 1);
	r = eunomia_shares_find(&s, "bob");
	ck_assert_double_eq_tol(r->share, 4.0 / 8, 1e-12);
	ck_assert_double_eq(r->progress, 4);
	r = eunomia_shares_find(&s, "idle");
	ck_assert_double_eq(r->weight, 2);
	ck_assert_int_eq(r->active, 0);
	ck_assert_ptr_null(eunomia_shares_find(&s, "carol"));
	eunomia_shares_free(&s);
	json_object_put(back);
	json_object_put(doc);
}
END_TEST

START_TEST(test_damaged)
{
	eunomia_shares_t s = { .n = 42 };
	horae_err_t err;
	json_object *doc = json_tokener_parse(
		"{\"at\":1,\"monopoly\":8,\"fair_share\":0.5,"
		"\"accounts\":[{\"account\":\"a\",\"weight\":1,"
		"\"progress\":\"x\",\"share\":0,\"active\":true}]}");

	ck_assert_int_eq(eunomia_shares_from_json(doc, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "field 'progress' missing or not a finite number"));
	ck_assert_int_eq(s.n, 42); /* untouched */
	json_object_put(doc);
	doc = json_tokener_parse("{\"at\":1}");
	ck_assert_int_eq(eunomia_shares_from_json(doc, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "'monopoly'"));
	json_object_put(doc);
	ck_assert_int_eq(eunomia_shares_from_json(NULL, &s, &err), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia_shares");
	TCase *tc = tcase_create("eunomia_shares");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_damaged);
	suite_add_tcase(s, tc);
	return check_run(s);
}
