/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_field_test.c - Check tests of json_field.c: the one reader and
 * writer of JSON numbers, and typed fields, with json-c's coercions
 * (strings, booleans, null read as numbers) refused.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../json_field.h"

START_TEST(test_badargs)
{
	json_object *o = json_object_new_object(), *v;
	horae_err_t err;
	double x = 7;

	ck_assert(!json_number(NULL, &x));
	ck_assert_double_eq(x, 7);
	ck_assert_int_eq(json_field(NULL, "a", json_type_int, &v, "doc", &err),
			 -EINVAL);
	ck_assert_int_eq(json_field_double(NULL, "a", &x, "doc", &err),
			 -EINVAL);
	ck_assert_int_eq(json_field_double(o, "a", &x, "doc", &err), -EINVAL);
	ck_assert_str_eq(err.text,
			 "doc: field 'a' missing or not a finite number");
	ck_assert_double_eq(x, 7);
	json_object_put(o);
}
END_TEST

/* Each JSON value, and whether it reads as a number. */
static const struct {
	const char *json;
	bool number;
	double value;
} cases[] = {
	{ "1", true, 1 },
	{ "-2.5", true, -2.5 },
	{ "0", true, 0 },
	{ "1e300", true, 1e300 },
	{ "\"3\"", false, 0 },
	{ "true", false, 0 },
	{ "null", false, 0 },
	{ "[1]", false, 0 },
	{ "{\"a\":1}", false, 0 },
	{ "\"nan\"", false, 0 },
	{ "1e999", false, 0 }, /* json-c reads it as infinity */
};

START_TEST(test_number)
{
	json_object *v = json_tokener_parse(cases[_i].json);
	double x = 42;
	bool ok = json_number(v, &x);

	ck_assert_msg(ok == cases[_i].number, "%s", cases[_i].json);
	ck_assert_double_eq(x, ok ? cases[_i].value : 42);
	json_object_put(v);
}
END_TEST

START_TEST(test_field)
{
	json_object *o = json_tokener_parse(
		"{\"n\": 3, \"d\": 1.5, \"s\": \"x\", \"b\": true}");
	json_object *v;
	horae_err_t err;
	double x = 0;

	ck_assert_int_eq(json_field_double(o, "n", &x, "doc", &err), 0);
	ck_assert_double_eq(x, 3);
	ck_assert_int_eq(json_field_double(o, "d", &x, "doc", &err), 0);
	ck_assert_double_eq(x, 1.5);
	ck_assert_int_eq(json_field_double(o, "s", &x, "doc", &err), -EINVAL);
	ck_assert_int_eq(json_field_double(o, "b", &x, "doc", &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "'b'"));
	ck_assert_double_eq(x, 1.5);
	ck_assert_int_eq(json_field(o, "s", json_type_string, &v, "doc", &err),
			 0);
	ck_assert_str_eq(json_object_get_string(v), "x");
	ck_assert_int_eq(json_field(o, "s", json_type_int, &v, "doc", &err),
			 -EINVAL);
	/* An integer serves where a double is asked for. */
	ck_assert_int_eq(json_field(o, "n", json_type_double, &v, "doc", &err),
			 0);
	json_object_put(o);
}
END_TEST

START_TEST(test_writer)
{
	json_object *v = json_number_new(2.5), *w = json_number_new(INFINITY);
	json_object *n = json_number_new(NAN);
	double x;

	ck_assert(json_number(v, &x));
	ck_assert_double_eq(x, 2.5);
	ck_assert(json_number(w, &x));
	ck_assert_double_eq(x, 0);
	ck_assert(json_number(n, &x));
	ck_assert_double_eq(x, 0);
	json_object_put(v);
	json_object_put(w);
	json_object_put(n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json_field");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("numbers");
	tcase_add_loop_test(tc, test_number, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_field);
	tcase_add_test(tc, test_writer);
	suite_add_tcase(s, tc);
	return check_run(s);
}
