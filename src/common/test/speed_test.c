/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * speed_test.c - Check tests of speed.c: maps, bad maps, node factors.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../speed.h"

START_TEST(test_good)
{
	horae_err_t err;
	speed_map_t *m = speed_map_create("gen1:1.0,gen2:1.5,gen4:3", 1.0, &err);

	ck_assert_msg(m, "%s", err.text);
	ck_assert_int_eq(speed_map_count(m), 3);
	ck_assert_double_eq(speed_of(m, "gen2"), 1.5);
	ck_assert_double_eq(speed_of(m, "ib,gen4"), 3.0);
	ck_assert_double_eq(speed_of(m, "gen1,gen4"), 3.0); /* the largest */
	ck_assert_double_eq(speed_of(m, "gpu"), 1.0);	    /* the default */
	ck_assert_double_eq(speed_of(m, NULL), 1.0);
	ck_assert_double_eq(speed_of_feature(m, "gen3"), 0);
	speed_map_destroy(&m);
	ck_assert_ptr_null(m);
	speed_map_destroy(NULL);

	m = speed_map_create("", 2.0, &err);
	ck_assert_ptr_nonnull(m);
	ck_assert_double_eq(speed_of(m, "gen1"), 2.0);
	speed_map_destroy(&m);
}
END_TEST

static const struct {
	const char *map, *msg;
} bad[] = {
	{ "gen1", "'gen1' is not feature:factor" },
	{ ":2", "':2' is not feature:factor" },
	{ "gen1:", "factor '' of 'gen1' is not a number" },
	{ "gen1:fast", "factor 'fast' of 'gen1' is not a number" },
	{ "gen1:0", "factor of 'gen1' must be greater than 0" },
	{ "gen1:nan", "factor 'nan' of 'gen1' is not a number" },
	{ "gen1:-1", "factor '-1' of 'gen1' is not a number" },
	{ "gen1:1,gen1:2", "feature 'gen1' appears twice" },
	{ "gen1:1,", "trailing comma" },
	{ "gen1:1,,gen2:2", "empty item" },
};

START_TEST(test_bad)
{
	horae_err_t err = { "" };

	ck_assert_ptr_null(speed_map_create(bad[_i].map, 1.0, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(err.text, bad[_i].msg), "'%s': '%s' lacks '%s'",
		      bad[_i].map, err.text, bad[_i].msg);
	ck_assert_msg(strstr(err.text, bad[_i].map), "map not quoted: %s",
		      err.text);
}
END_TEST

START_TEST(test_bad_default)
{
	horae_err_t err;

	ck_assert_ptr_null(speed_map_create("gen1:1", 0, &err));
	ck_assert_ptr_null(speed_map_create("gen1:1", NAN, &err));
	ck_assert_ptr_null(speed_map_create(NULL, 1, &err));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("speed");
	TCase *tc = tcase_create("speed");

	tcase_add_test(tc, test_good);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_bad_default);
	suite_add_tcase(s, tc);
	return check_run(s);
}
