/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_conf_test.c - Check tests of eunomia_conf.c: every key, the
 * Account lines with their own speed factors, and file errors with
 * PATH:LINE.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../eunomia_conf.h"

static char path[64];

static void _write(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/eunomia_conf_test.XXXXXX");
	ck_assert_int_ge(mkstemp(path), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_keys)
{
	eunomia_conf_t *c = eunomia_conf_create();
	horae_err_t err;

	ck_assert(!c->steer);
	ck_assert_int_eq(eunomia_conf_set(c, "placement", "best-fit", &err), 0);
	ck_assert(c->steer && c->placement == PLACE_BEST_FIT);
	ck_assert_int_eq(eunomia_conf_set(c, "Placement", "cons_tres", &err), 0);
	ck_assert(!c->steer);
	ck_assert_int_eq(eunomia_conf_set(c, "Placement", "eunomia", &err), 0);
	ck_assert(c->steer && c->placement == PLACE_EUNOMIA);
	ck_assert_int_eq(eunomia_conf_set(c, "Placement", "random", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Placement=random: unknown placement"));
	ck_assert(c->placement == PLACE_EUNOMIA);
	ck_assert_int_eq(eunomia_conf_set(c, "SpeedMap", "gen1:1,gen2:0", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "factor of 'gen2' must be greater than 0"));
	ck_assert_int_eq(eunomia_conf_set(c, "SpeedMap", "gen1:1,gen2:2", &err),
			 0);
	ck_assert_int_eq(eunomia_conf_set(c, "DefaultSpeed", "-1", &err),
			 -EINVAL);
	ck_assert_int_eq(eunomia_conf_set(c, "Speed", "1", &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown key 'Speed'"));
	ck_assert_int_eq(eunomia_conf_set(c, "Window", "weekly", &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Window=weekly"));
	ck_assert_int_eq(eunomia_conf_set(c, "Window", "tumbling:1h", &err), 0);
	ck_assert(c->window.kind == WINDOW_TUMBLING &&
		  c->window.length == 3600);
	ck_assert_int_eq(eunomia_conf_set(c, "Period", "0", &err), -EINVAL);
	ck_assert(strstr(err.text, "Period=0: must be greater than 0"));
	ck_assert_int_eq(eunomia_conf_set(c, "Period", "5s", &err), 0);
	ck_assert(c->period == 5);
	ck_assert_int_eq(eunomia_conf_set(c, "DefaultShare", "0", &err),
			 -EINVAL);
	ck_assert_int_eq(eunomia_conf_set(c, "DefaultShare", "2", &err), 0);
	ck_assert_int_eq(eunomia_conf_finish(c, &err), 0);
	ck_assert_double_eq(eunomia_conf_speed(c, "x", "gen2,ib"), 2);
	ck_assert_double_eq(eunomia_conf_speed(c, "x", "other"), 1);
	ck_assert_double_eq(eunomia_conf_share(c, "x"), 2);
	eunomia_conf_destroy(&c);
	ck_assert_ptr_null(c);
	eunomia_conf_destroy(NULL);
}
END_TEST

START_TEST(test_accounts)
{
	eunomia_conf_t *c = eunomia_conf_create();
	horae_err_t err;

	ck_assert_int_eq(eunomia_conf_set(c, "SpeedMap", "gen1:1,gen4:3", &err),
			 0);
	ck_assert_int_eq(eunomia_conf_add_account(c, "io", "2", "gen4:1.2",
						  &err),
			 0);
	ck_assert_int_eq(eunomia_conf_add_account(c, "cpu", NULL, NULL, &err),
			 0);
	ck_assert_int_eq(eunomia_conf_add_account(c, "io", "1", NULL, &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Account=io: the account appears twice"));
	ck_assert_int_eq(eunomia_conf_add_account(c, "x", "-1", NULL, &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Account=x: Share=-1"));
	ck_assert_int_eq(eunomia_conf_add_account(c, "x", NULL, "gen4:nan",
						  &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "Account=x: SpeedMap=gen4:nan"));
	ck_assert_int_eq(eunomia_conf_add_account(c, "", NULL, NULL, &err),
			 -EINVAL);
	ck_assert_int_eq(c->naccounts, 2);
	ck_assert_int_eq(eunomia_conf_finish(c, &err), 0);
	/* io's own factor for gen4; the cluster's for what it leaves out. */
	ck_assert_double_eq(eunomia_conf_speed(c, "io", "gen4"), 1.2);
	ck_assert_double_eq(eunomia_conf_speed(c, "io", "gen1"), 1);
	ck_assert_double_eq(eunomia_conf_speed(c, "cpu", "gen4"), 3);
	ck_assert_double_eq(eunomia_conf_speed(c, NULL, "gen4"), 3);
	ck_assert_double_eq(eunomia_conf_share(c, "io"), 2);
	ck_assert_double_eq(eunomia_conf_share(c, "cpu"), 1);
	/* Names as Slurm stores them: IO is io. */
	ck_assert_double_eq(eunomia_conf_share(c, "IO"), 2);
	ck_assert_int_eq(eunomia_conf_add_account(c, "Io", "1", NULL, &err),
			 -EINVAL);
	eunomia_conf_destroy(&c);
}
END_TEST

START_TEST(test_file)
{
	eunomia_conf_t *c = eunomia_conf_create();
	horae_err_t err;

	_write("# a comment\nPlacement=eunomia Period=10s\n"
	       "SpeedMap=gen1:1.0,gen2:1.5,gen3:2.0,gen4:3.0\n"
	       "Account=a4 Share=2 SpeedMap=gen4:2.5\n");
	ck_assert_int_eq(eunomia_conf_read(c, path, &err), 0);
	ck_assert(c->placement == PLACE_EUNOMIA && c->period == 10);
	ck_assert_double_eq(eunomia_conf_speed(c, "a4", "gen4"), 2.5);
	ck_assert_double_eq(eunomia_conf_speed(c, "a1", "gen3"), 2);
	unlink(path);
	eunomia_conf_destroy(&c);

	c = eunomia_conf_create();
	_write("Placement=eunomia\nAccount=a4 Speed=2\n");
	ck_assert_int_eq(eunomia_conf_read(c, path, &err), -EINVAL);
	ck_assert(strstr(err.text, ":2: Account=a4: unknown key 'Speed'"));
	ck_assert(!strncmp(err.text, path, strlen(path)));
	unlink(path);
	eunomia_conf_destroy(&c);

	c = eunomia_conf_create();
	_write("Window=sliding:1h\nWindowBucket=2h\n");
	ck_assert_int_eq(eunomia_conf_read(c, path, &err), -EINVAL);
	ck_assert(strstr(err.text, "WindowBucket=7200s is longer than the window"));
	unlink(path);
	eunomia_conf_destroy(&c);

	/* No file: the defaults, finished, and -ENOENT. */
	c = eunomia_conf_create();
	ck_assert_int_eq(eunomia_conf_read(c, "/nonexistent/eunomia.conf",
					   &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(c->speed);
	ck_assert_double_eq(eunomia_conf_speed(c, "a", "gen4"), 1);
	eunomia_conf_destroy(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eunomia_conf");
	TCase *tc = tcase_create("eunomia_conf");

	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_accounts);
	tcase_add_test(tc, test_file);
	suite_add_tcase(s, tc);
	return check_run(s);
}
