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
#include <stdio.h>
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

/* The text json-c gives v, and json_number_new's, the same. */
static void _same_text(double v)
{
	json_object *a = json_object_new_double(v), *b = json_number_new(v);
	char want[64];

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (int f = 0; f < 2; f++) {
		int flags =
			f ? JSON_C_TO_STRING_NOZERO : JSON_C_TO_STRING_PLAIN;

		snprintf(want, sizeof(want), "%s",
			 json_object_to_json_string_ext(a, flags));
		ck_assert_msg(
			!strcmp(want, json_object_to_json_string_ext(b, flags)),
			"%.17g: json-c %s, json_number_new %s", v, want,
			json_object_to_json_string_ext(b, flags));
	}
	json_object_put(a);
	json_object_put(b);
}

/*
 * json_number_new writes the text json-c would, on whole numbers (its
 * fast path) of every magnitude to past 1e15 and both signs, on -0, and
 * on fractions, tiny and huge values (json-c's own printer); generated
 * as well as chosen.
 */
START_TEST(test_writer_text)
{
	static const double chosen[] = { 0,
					 -0.0,
					 1,
					 -1,
					 9,
					 10,
					 256,
					 1795849499,
					 999999999999999,
					 -999999999999999,
					 1e15,
					 -1e15,
					 1e15 + 2,
					 1e16,
					 1e17,
					 1e300,
					 0.5,
					 -0.25,
					 0.1,
					 1.0 / 3,
					 4.9e-324,
					 2.2250738585072014e-308,
					 9007199254740993.0,
					 123456.5 };
	unsigned long long x = 88172645463325252ULL;

	for (size_t i = 0; i < sizeof(chosen) / sizeof(chosen[0]); i++)
		_same_text(chosen[i]);
	for (int i = 0; i < 20000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (i % 4) {
		case 0: /* whole, up to 18 digits */
			v = (double)(long long)(x % 1000000000000000000ULL);
			v /= (double)(1ULL << (x >> 58));
			v = trunc(v);
			break;
		case 1: /* whole, small */
			v = (double)(x % 100000);
			break;
		case 2: /* any bit pattern that is finite */
			memcpy(&v, &x, sizeof(v));
			if (!isfinite(v))
				v = 1;
			break;
		default: /* a fraction */
			v = (double)(x % 1000000) / 1024.0;
			break;
		}
		if (x & 1)
			v = -v;
		_same_text(v);
	}
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
	tcase_add_test(tc, test_writer_text);
	suite_add_tcase(s, tc);
	return check_run(s);
}
