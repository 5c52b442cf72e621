/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_state_test.c - Check tests of justice_state.c: the counts
 * survive their JSON form; a missing or negative count is refused with
 * its name and changes nothing.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <string.h>

#include "../justice_state.h"

START_TEST(test_round_trip)
{
	justice_counts_t c = { 10, 2, 3, 4, 1, 9 }, back = { 0 };
	json_object *o = justice_counts_to_json(&c);
	json_object *p = json_tokener_parse(json_object_to_json_string(o));
	horae_err_t err;

	ck_assert_int_eq(justice_counts_from_json(p, &back, &err), 0);
	ck_assert(!memcmp(&c, &back, sizeof(c)));
	json_object_put(o);
	json_object_put(p);
}
END_TEST

START_TEST(test_bad)
{
	justice_counts_t c = { 1, 1, 1, 1, 1, 1 };
	horae_err_t err;
	json_object *o = json_tokener_parse(
		"{\"admitted\":1,\"sized\":0,\"refused\":-2,\"dropped\":0,"
		"\"killed\":0,\"learnt\":0}");

	ck_assert_int_eq(justice_counts_from_json(o, &c, &err), -EINVAL);
	ck_assert(strstr(err.text, "'refused' missing or not a count"));
	ck_assert_int_eq(c.admitted, 1); /* untouched */
	json_object_put(o);
	o = json_tokener_parse("{\"admitted\":1}");
	ck_assert_int_eq(justice_counts_from_json(o, &c, &err), -EINVAL);
	ck_assert(strstr(err.text, "'sized'"));
	json_object_put(o);
	ck_assert_int_eq(justice_counts_from_json(NULL, &c, &err), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_state");
	TCase *tc = tcase_create("justice_state");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return check_run(s);
}
