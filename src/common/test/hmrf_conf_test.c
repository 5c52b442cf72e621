/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_conf_test.c - Check tests of hmrf_conf.c: defaults, every key with
 * good and bad values, accounts, and the cross-key checks.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../hmrf_conf.h"

START_TEST(test_defaults)
{
	hmrf_conf_t *c = hmrf_conf_create();
	horae_err_t err;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->policy, HMRF_POLICY_HMRF);
	ck_assert_int_eq(c->window.kind, WINDOW_SLIDING);
	ck_assert_double_eq(c->window.length, 7 * 86400);
	ck_assert_double_eq(c->period, 30);
	ck_assert_double_eq(c->save_interval, 300);
	ck_assert_str_eq(c->tres, "cpu,mem,gres/gpu");
	ck_assert_int_eq(hmrf_conf_finish(c, &err), 0);
	/* The starvation timeout defaults to the window length. */
	ck_assert_double_eq(c->timeout, 7 * 86400);
	ck_assert_double_eq(hmrf_conf_share(c, "anyone"), 1);
	hmrf_conf_destroy(&c);
	ck_assert_ptr_null(c);
	hmrf_conf_destroy(NULL);
}
END_TEST

static const struct {
	const char *key, *value;
	const char *msg; /* NULL: accepted */
} cases[] = {
	{ "Policy", "lt-drf", NULL },
	{ "policy", "drf", NULL },
	{ "Policy", "fifo", "Policy=fifo: unknown policy 'fifo'" },
	{ "Window", "tumbling:1d", NULL },
	{ "Window", "none", NULL },
	{ "Window", "weekly", "Window=weekly: window 'weekly': expected none" },
	{ "Window", "sliding:-1d", "does not start with a number" },
	{ "WindowBucket", "1h", NULL },
	{ "WindowBucket", "1 hour", "unknown unit" },
	{ "Timeout", "0", NULL },
	{ "Timeout", "2h", NULL },
	{ "Timeout", "soon", "Timeout=soon: duration 'soon'" },
	{ "Period", "10s", NULL },
	{ "Period", "0", "Period=0: must be greater than 0" },
	{ "SaveInterval", "10m", NULL },
	{ "SaveInterval", "0", NULL },
	{ "SaveInterval", "often", "SaveInterval=often: duration 'often'" },
	{ "ChargeHorizon", "10m", NULL },
	{ "ChargeHorizon", "-1", "does not start with a number" },
	{ "BorrowLimit", "0.5", NULL },
	{ "BorrowLimit", "-0.5", "BorrowLimit=-0.5: must be at least 0" },
	{ "DefaultShare", "2", NULL },
	{ "DefaultShare", "0", "DefaultShare=0: must be greater than 0" },
	{ "DefaultShare", "-3", "must be greater than 0" },
	{ "DefaultShare", "lots", "DefaultShare=lots: not a number" },
	{ "PriorityWeight", "100000", NULL },
	{ "PriorityWeight", "1.5", "must be a whole number" },
	{ "Tres", "cpu,mem", NULL },
	{ "Tres", "cpu,,mem", "Tres=cpu,,mem: TRES list 'cpu,,mem': empty name" },
	{ "Colour", "blue", "unknown key 'Colour'" },
};

START_TEST(test_keys)
{
	hmrf_conf_t *c = hmrf_conf_create(), before;
	horae_err_t err = { "" };
	int rc;

	before = *c;
	rc = hmrf_conf_set(c, cases[_i].key, cases[_i].value, &err);
	if (!cases[_i].msg) {
		ck_assert_msg(rc == 0, "%s=%s: %s", cases[_i].key,
			      cases[_i].value, err.text);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_msg(strstr(err.text, cases[_i].msg), "'%s' lacks '%s'",
			      err.text, cases[_i].msg);
		ck_assert_mem_eq(&before, c, sizeof(before)); /* unchanged */
	}
	hmrf_conf_destroy(&c);
}
END_TEST

/* The whole state is saved every SaveInterval, but at least as often as
 * MinJobAge and never more often than each Period. */
START_TEST(test_save_every)
{
	hmrf_conf_t *c = hmrf_conf_create();

	ck_assert_double_eq(hmrf_conf_save_every(c, 0), 300);
	ck_assert_double_eq(hmrf_conf_save_every(c, 600), 300);
	ck_assert_double_eq(hmrf_conf_save_every(c, 120), 120);
	ck_assert_double_eq(hmrf_conf_save_every(c, 2), 30); /* Period */
	c->save_interval = 0;
	ck_assert_double_eq(hmrf_conf_save_every(c, 300), 30);
	c->save_interval = 3600;
	c->period = 1;
	ck_assert_double_eq(hmrf_conf_save_every(c, 300), 300);
	ck_assert_double_eq(hmrf_conf_save_every(c, -1), 3600);
	hmrf_conf_destroy(&c);
}
END_TEST

/* Due once the interval has passed (less half a Period), at the first
 * save, and when the clock went back. */
START_TEST(test_save_due)
{
	hmrf_conf_t *c = hmrf_conf_create(); /* 300 s, Period 30 s */

	ck_assert(hmrf_conf_save_due(c, 0, 0, 1000));
	ck_assert(!hmrf_conf_save_due(c, 0, 1000, 1030));
	ck_assert(!hmrf_conf_save_due(c, 0, 1000, 1284.9));
	ck_assert(hmrf_conf_save_due(c, 0, 1000, 1285));
	ck_assert(hmrf_conf_save_due(c, 0, 1000, 999));
	/* MinJobAge 60 bounds it */
	ck_assert(!hmrf_conf_save_due(c, 60, 1000, 1044.9));
	ck_assert(hmrf_conf_save_due(c, 60, 1000, 1045));
	/* SaveInterval=0: each Period, a recalculation a little early too */
	c->save_interval = 0;
	ck_assert(hmrf_conf_save_due(c, 0, 1000, 1015));
	ck_assert(!hmrf_conf_save_due(c, 0, 1000, 1014));
	hmrf_conf_destroy(&c);
}
END_TEST

START_TEST(test_accounts)
{
	hmrf_conf_t *c = hmrf_conf_create();
	horae_err_t err;

	ck_assert_int_eq(hmrf_conf_add_account(c, "physics", "2", &err), 0);
	ck_assert_int_eq(hmrf_conf_add_account(c, "chem", "0.5", &err), 0);
	ck_assert_double_eq(hmrf_conf_share(c, "physics"), 2);
	ck_assert_double_eq(hmrf_conf_share(c, "chem"), 0.5);
	ck_assert_double_eq(hmrf_conf_share(c, "bio"), 1);
	ck_assert_int_eq(hmrf_conf_add_account(c, "physics", "1", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Account=physics: the account appears twice"));
	ck_assert_int_eq(hmrf_conf_add_account(c, "bio", "-1", &err), -EINVAL);
	ck_assert(strstr(err.text, "Account=bio: Share=-1: must be greater than 0"));
	ck_assert_int_eq(hmrf_conf_add_account(c, "bio", NULL, &err), -EINVAL);
	ck_assert(strstr(err.text, "needs Share=NUMBER"));
	ck_assert_int_eq(hmrf_conf_add_account(c, "", "1", &err), -EINVAL);
	ck_assert_int_eq(c->naccounts, 2);
	/* Slurm stores account names in lower case: Physics is physics. */
	ck_assert_int_eq(hmrf_conf_add_account(c, "Physics", "1", &err),
			 -EINVAL);
	ck_assert_int_eq(hmrf_conf_add_account(c, "Bio", "3", &err), 0);
	ck_assert_str_eq(c->accounts[2].name, "bio");
	ck_assert_double_eq(hmrf_conf_share(c, "bio"), 3);
	ck_assert_double_eq(hmrf_conf_share(c, "BIO"), 3);
	ck_assert(hmrf_conf_has_account(c, "bio"));
	hmrf_conf_destroy(&c);
}
END_TEST

START_TEST(test_finish)
{
	hmrf_conf_t *c = hmrf_conf_create();
	horae_err_t err;

	ck_assert_int_eq(hmrf_conf_set(c, "Window", "sliding:1h", &err), 0);
	ck_assert_int_eq(hmrf_conf_set(c, "WindowBucket", "2h", &err), 0);
	ck_assert_int_eq(hmrf_conf_finish(c, &err), -EINVAL);
	ck_assert(strstr(err.text, "longer than the window"));
	ck_assert_int_eq(hmrf_conf_set(c, "WindowBucket", "0.1s", &err), 0);
	ck_assert_int_eq(hmrf_conf_finish(c, &err), -EINVAL);
	ck_assert(strstr(err.text, "at most 4095"));
	ck_assert_int_eq(hmrf_conf_set(c, "WindowBucket", "1m", &err), 0);
	ck_assert_int_eq(hmrf_conf_finish(c, &err), 0);
	ck_assert_double_eq(c->timeout, 3600);
	hmrf_conf_destroy(&c);

	c = hmrf_conf_create();
	ck_assert_int_eq(hmrf_conf_set(c, "Window", "none", &err), 0);
	ck_assert_int_eq(hmrf_conf_finish(c, &err), 0);
	ck_assert_double_eq(c->timeout, 0); /* no window: no default guard */
	hmrf_conf_destroy(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf_conf");
	TCase *tc = tcase_create("conf");

	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_keys, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_save_every);
	tcase_add_test(tc, test_save_due);
	tcase_add_test(tc, test_accounts);
	tcase_add_test(tc, test_finish);
	suite_add_tcase(s, tc);
	return check_run(s);
}
