/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window_test.c - Check tests of window.c: durations, window specs, bounds.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../window.h"

START_TEST(test_badargs)
{
	horae_err_t err;
	window_spec_t w;
	double s;
	char buf[4];

	ck_assert_int_eq(duration_parse(NULL, &s, &err), -EINVAL);
	ck_assert_int_eq(duration_parse("1", NULL, &err), -EINVAL);
	ck_assert_int_eq(window_parse(NULL, &w, &err), -EINVAL);
	ck_assert_int_eq(window_parse("none", NULL, &err), -EINVAL);
	ck_assert_int_eq(window_format(NULL, buf, sizeof(buf)), -EINVAL);
	w.kind = WINDOW_SLIDING;
	w.length = 604800;
	ck_assert_int_eq(window_format(&w, buf, sizeof(buf)), -ENOSPC);
}
END_TEST

static const struct {
	const char *str;
	double seconds; /* < 0: invalid */
	const char *msg;
} durations[] = {
	{ "90", 90, NULL },	    { "90s", 90, NULL },
	{ "30m", 1800, NULL },	    { "1.5h", 5400, NULL },
	{ "7d", 604800, NULL },	    { "2w", 1209600, NULL },
	{ "0", 0, NULL },	    { "", -1, "does not start with a number" },
	{ "-5m", -1, "does not start with a number" },
	{ "5x", -1, "unknown unit 'x'" },
	{ "5 m", -1, "unknown unit ' m'" },
	{ "0x10", -1, "not a number" },
	{ "1e400", -1, "not a number" },
	{ "m", -1, "does not start with a number" },
	/* Slurm's time format, as in slurm.conf's PriorityMaxAge=7-0. */
	{ "7-0", 604800, NULL },    { "1-00:00:00", 86400, NULL },
	{ "2-12", 216000, NULL },   { "1-02:30", 95400, NULL },
	{ "10:30", 630, NULL },	    { "01:02:03", 3723, NULL },
	{ "90:00", 5400, NULL },    { "0-0:0:5", 5, NULL },
	{ "1:2:3:4", -1, "not Slurm's MM:SS" },
	{ "1-2-3", -1, "not Slurm's MM:SS" },
	{ "1-", -1, "not Slurm's MM:SS" },
	{ "10:", -1, "not Slurm's MM:SS" },
	{ "10:3m", -1, "not Slurm's MM:SS" },
	{ "1.5-2", -1, "not Slurm's MM:SS" },
	{ "5", 5, NULL },
};

START_TEST(test_durations)
{
	horae_err_t err = { "" };
	double s = -7;
	int rc = duration_parse(durations[_i].str, &s, &err);

	if (durations[_i].seconds >= 0) {
		ck_assert_msg(rc == 0, "'%s': %s", durations[_i].str, err.text);
		ck_assert_double_eq(s, durations[_i].seconds);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_double_eq(s, -7);
		ck_assert_msg(strstr(err.text, durations[_i].msg),
			      "'%s': '%s' lacks '%s'", durations[_i].str,
			      err.text, durations[_i].msg);
	}
}
END_TEST

static const struct {
	const char *str;
	window_kind_t kind;
	double length;
	const char *msg; /* NULL: valid */
} windows[] = {
	{ "none", WINDOW_NONE, 0, NULL },
	{ "tumbling:1d", WINDOW_TUMBLING, 86400, NULL },
	{ "sliding:7d", WINDOW_SLIDING, 604800, NULL },
	{ "sliding:90", WINDOW_SLIDING, 90, NULL },
	{ "sliding", 0, 0, "needs a length, as in sliding:7d" },
	{ "tumbling:", 0, 0, "needs a length" },
	{ "sliding:0", 0, 0, "length must be greater than 0" },
	{ "sliding:7y", 0, 0, "unknown unit 'y'" },
	{ "hopping:1d", 0, 0, "expected none, tumbling:LENGTH or sliding:LENGTH" },
	{ "None", 0, 0, "expected none" },
	{ "", 0, 0, "expected none" },
};

START_TEST(test_windows)
{
	horae_err_t err = { "" };
	window_spec_t w = { WINDOW_SLIDING, 42 };
	int rc = window_parse(windows[_i].str, &w, &err);

	if (!windows[_i].msg) {
		ck_assert_msg(rc == 0, "'%s': %s", windows[_i].str, err.text);
		ck_assert_int_eq(w.kind, windows[_i].kind);
		ck_assert_double_eq(w.length, windows[_i].length);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_double_eq(w.length, 42); /* untouched */
		ck_assert_msg(strstr(err.text, windows[_i].msg),
			      "'%s': '%s' lacks '%s'", windows[_i].str,
			      err.text, windows[_i].msg);
		ck_assert_msg(strstr(err.text, windows[_i].str),
			      "'%s' is not quoted in '%s'", windows[_i].str,
			      err.text);
	}
}
END_TEST

START_TEST(test_format_roundtrip)
{
	const char *in[] = { "none", "tumbling:1d", "sliding:1.5h" };
	window_spec_t a, b;
	char buf[64];

	for (size_t i = 0; i < 3; i++) {
		ck_assert_int_eq(window_parse(in[i], &a, NULL), 0);
		ck_assert_int_eq(window_format(&a, buf, sizeof(buf)), 0);
		ck_assert_int_eq(window_parse(buf, &b, NULL), 0);
		ck_assert_int_eq(a.kind, b.kind);
		ck_assert_double_eq(a.length, b.length);
	}
}
END_TEST

START_TEST(test_start)
{
	window_spec_t none = { WINDOW_NONE, 0 };
	window_spec_t tumbling = { WINDOW_TUMBLING, 100 };
	window_spec_t sliding = { WINDOW_SLIDING, 100 };

	ck_assert(isinf(window_start(&none, 1234)));
	ck_assert_double_eq(window_start(&tumbling, 1234), 1200);
	ck_assert_double_eq(window_start(&tumbling, 1200), 1200);
	ck_assert_double_eq(window_start(&sliding, 1234), 1134);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_loop_test(tc, test_durations, 0,
			    sizeof(durations) / sizeof(durations[0]));
	tcase_add_loop_test(tc, test_windows, 0,
			    sizeof(windows) / sizeof(windows[0]));
	tcase_add_test(tc, test_format_roundtrip);
	suite_add_tcase(s, tc);
	tc = tcase_create("bounds");
	tcase_add_test(tc, test_start);
	suite_add_tcase(s, tc);

	return check_run(s);
}
