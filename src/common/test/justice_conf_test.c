/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_conf_test.c - Check tests of justice_conf.c: every key, bad
 * values, file errors with PATH:LINE.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../justice_conf.h"

START_TEST(test_keys)
{
	justice_conf_t c;
	horae_err_t err;

	justice_conf_init(&c);
	ck_assert_int_eq(c.policy, JUSTICE_POLICY_JUSTICE);
	ck_assert_int_eq(c.bootstrap, 10);
	ck_assert_int_eq(justice_conf_set(&c, "policy", "reactive-fs", &err),
			 0);
	ck_assert_int_eq(c.policy, JUSTICE_POLICY_REACTIVE_FS);
	ck_assert_int_eq(justice_conf_set(&c, "Policy", "oracle", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "only the simulator has"));
	ck_assert_int_eq(c.policy, JUSTICE_POLICY_REACTIVE_FS);
	ck_assert_int_eq(justice_conf_set(&c, "Smoothing", "exp:0.3", &err), 0);
	ck_assert(c.smoothing == JUSTICE_SMOOTH_EXP && c.alpha == 0.3);
	ck_assert_int_eq(justice_conf_set(&c, "Smoothing", "exp:2", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "at most 1"));
	ck_assert_int_eq(justice_conf_set(&c, "Smoothing", "kalman", &err),
			 -EINVAL);
	ck_assert_int_eq(justice_conf_set(&c, "Smoothing", "equal", &err), 0);
	ck_assert(c.smoothing == JUSTICE_SMOOTH_EQUAL);
	ck_assert_int_eq(justice_conf_set(&c, "HistoryLength", "2.5", &err),
			 -EINVAL);
	ck_assert_int_eq(justice_conf_set(&c, "HistoryLength", "0", &err),
			 -EINVAL);
	ck_assert_int_eq(justice_conf_set(&c, "HistoryLength", "50", &err), 0);
	ck_assert_int_eq(c.history_length, 50);
	ck_assert_int_eq(justice_conf_set(&c, "Bootstrap", "-1", &err),
			 -EINVAL);
	/* Found by fuzzing: (long)1e33 is undefined. */
	ck_assert_int_eq(justice_conf_set(&c, "Bootstrap", "1e33", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Bootstrap=1e33: a whole number up to"));
	ck_assert_int_eq(justice_conf_set(&c, "Bootstrap", "2.5", &err),
			 -EINVAL);
	ck_assert_int_eq(justice_conf_set(&c, "Period", "10s", &err), 0);
	ck_assert(c.period == 10);
	ck_assert_int_eq(justice_conf_set(&c, "KillAbove", "8", &err), 0);
	ck_assert_int_eq(justice_conf_set(&c, "Elastic", "maybe", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Elastic=maybe: use yes or no"));
	ck_assert_int_eq(justice_conf_set(&c, "Elastic", "no", &err), 0);
	ck_assert(!c.elastic);
	ck_assert_int_eq(justice_conf_set(&c, "UrgencyWeight", "x", &err),
			 -EINVAL);
	ck_assert_int_eq(justice_conf_set(&c, "UrgencyWeight", "1000000", &err),
			 0);
	ck_assert(c.urgency_weight == 1000000);
	ck_assert_int_eq(justice_conf_set(&c, "UrgencyWeight", "3e9", &err),
			 -EINVAL);
	ck_assert(strstr(err.text,
			 "UrgencyWeight=3e9: must be at most 2147483647"));
	ck_assert(c.urgency_weight == 1000000);
	ck_assert_int_eq(c.order, JUSTICE_ORDER_JUSTICE);
	ck_assert_int_eq(justice_conf_set(&c, "Order", "deadline", &err), 0);
	ck_assert_int_eq(c.order, JUSTICE_ORDER_DEADLINE);
	ck_assert_int_eq(justice_conf_set(&c, "Order", "edf", &err), -EINVAL);
	ck_assert(strstr(err.text, "Order=edf: use justice or deadline"));
	ck_assert_int_eq(c.order, JUSTICE_ORDER_DEADLINE);
	ck_assert_int_eq(justice_conf_set(&c, "Deadline", "1", &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown key 'Deadline'"));
}
END_TEST

START_TEST(test_file)
{
	char path[] = "/tmp/justice_conf_test.XXXXXX";
	justice_conf_t c;
	horae_err_t err;
	FILE *f;

	ck_assert_int_ge(mkstemp(path), 0);
	f = fopen(path, "w");
	fputs("# Justice\nBootstrap=5 Period=5s\nKillAbove=many\n", f);
	fclose(f);
	justice_conf_init(&c);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), -EINVAL);
	ck_assert(strstr(err.text, ":3: KillAbove=many: not a number"));
	ck_assert(!strncmp(err.text, path, strlen(path)));
	/* Failure leaves c as it was. */
	ck_assert_int_eq(c.bootstrap, 10);

	/* A key set twice: the later one would silently win. */
	f = fopen(path, "w");
	fputs("Period=5s\nBootstrap=5\nperiod = 00:10\n", f);
	fclose(f);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, ":3: period is set twice (first at ") &&
			      strstr(err.text, ":1)"),
		      "%s", err.text);

	/* A history too short ever to end the bootstrap. */
	f = fopen(path, "w");
	fputs("HistoryLength=20\nBootstrap=50\n", f);
	fclose(f);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, ":2: Bootstrap=50 is above HistoryLength=20"),
		      "%s", err.text);
	f = fopen(path, "w");
	fputs("Bootstrap=50\n# the history\nHistoryLength = 20\n", f);
	fclose(f);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, ":3: Bootstrap=50 is above HistoryLength=20"),
		      "%s", err.text);
	ck_assert_int_eq(c.bootstrap, 10);
	f = fopen(path, "w");
	fputs("HistoryLength=50\nBootstrap=50\nPeriod = 1-00:00:00\n", f);
	fclose(f);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), 0);
	ck_assert_int_eq(c.bootstrap, 50);
	ck_assert_double_eq(c.period, 86400);

	unlink(path);
	justice_conf_init(&c);
	ck_assert_int_eq(justice_conf_read(&c, path, &err), -ENOENT);
	ck_assert_int_eq(c.bootstrap, 10);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_conf");
	TCase *tc = tcase_create("justice_conf");

	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_file);
	suite_add_tcase(s, tc);
	return check_run(s);
}
