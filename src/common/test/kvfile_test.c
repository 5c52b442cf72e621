/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kvfile_test.c - Check tests of kvfile.c (pairs, comments, quotes,
 * continuations, line numbers, errors as PATH:LINE) and of
 * hmrf_conf_read(), which reports bad settings the same way.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../hmrf_conf.h"
#include "../kvfile.h"

static char path[64];

static void _write(const char *text)
{
	FILE *f;

	strcpy(path, "/tmp/horae-kvfile.XXXXXX");
	ck_assert_int_ge(mkstemp(path), 0);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void _teardown(void)
{
	unlink(path);
}

typedef struct seen {
	char text[1024];
} seen_t;

static int _collect(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	seen_t *s = arg;
	char buf[256];

	for (int i = 0; i < l->npairs; i++) {
		snprintf(buf, sizeof(buf), "%d:%s=[%s] ", l->number, l->key[i],
			 l->value[i]);
		strcat(s->text, buf);
	}
	if (!strcasecmp(l->key[0], "Fail"))
		return err_set(err, -EINVAL, "told to fail");
	return 0;
}

START_TEST(test_syntax)
{
	seen_t s = { "" };
	horae_err_t err;

	_write("# a comment\n"
	       "\n"
	       "Policy=hmrf   # trailing comment\n"
	       "Account=physics Share=2\n"
	       "Name=\"two words # not a comment\" Next=x\n"
	       "Long=a \\\n"
	       "  More=b\n"
	       "Last=z");
	ck_assert_int_eq(kvfile_read(path, _collect, &s, &err), 0);
	ck_assert_str_eq(s.text,
			 "3:Policy=[hmrf] 4:Account=[physics] 4:Share=[2] "
			 "5:Name=[two words # not a comment] 5:Next=[x] "
			 "6:Long=[a] 6:More=[b] 8:Last=[z] ");
}
END_TEST

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "Policy=hmrf\nwindow\n", ":2: 'window' is not Key=Value" },
	{ "=value\n", ":1: '=value' is not Key=Value" },
	{ "A=1\n\nName=\"open\n", ":3: Name=: the quoted value has no closing quote" },
	{ "A=1\nFail=now\n", ":2: told to fail" },
};

START_TEST(test_errors)
{
	seen_t s = { "" };
	horae_err_t err;
	char want[128];

	_write(bad[_i].text);
	ck_assert_int_eq(kvfile_read(path, _collect, &s, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s%s", path, bad[_i].msg);
	ck_assert_msg(!strcmp(err.text, want), "got '%s', want '%s'", err.text,
		      want);
}
END_TEST

START_TEST(test_missing)
{
	horae_err_t err;
	seen_t s = { "" };

	ck_assert_int_eq(kvfile_read("/nonexistent/hmrf.conf", _collect, &s,
				     &err), -ENOENT);
	ck_assert(strstr(err.text, "/nonexistent/hmrf.conf"));
	strcpy(path, "/nonexistent");
}
END_TEST

static const struct {
	const char *text, *msg; /* msg NULL: valid */
} confs[] = {
	{ "Policy=lt-drf\nWindow=tumbling:1d # daily\nAccount=physics Share=2\n",
	  NULL },
	{ "policy=hmrf window=sliding:7d period=10s\n", NULL },
	{ "Policy=hmrf\nColour=blue\n", ":2: unknown key 'Colour'" },
	{ "Window=sliding:1d\nPeriod=10s\nAccount=physics Share=-1\n",
	  ":3: Account=physics: Share=-1: must be greater than 0" },
	{ "Window=weekly\n",
	  ":1: Window=weekly: window 'weekly': expected none, tumbling:LENGTH or sliding:LENGTH" },
	{ "Account=physics Shares=2\n",
	  ":1: Account=physics: unknown key 'Shares' (an Account line takes Share=NUMBER)" },
	{ "Window=sliding:1h\nWindowBucket=2h\n",
	  ": WindowBucket=7200s is longer than the window (3600s)" },
};

START_TEST(test_hmrf_conf_read)
{
	hmrf_conf_t *c = hmrf_conf_create();
	horae_err_t err = { "" };
	char want[256];
	int rc;

	_write(confs[_i].text);
	rc = hmrf_conf_read(c, path, &err);
	if (!confs[_i].msg) {
		ck_assert_msg(rc == 0, "%s", err.text);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		snprintf(want, sizeof(want), "%s%s", path, confs[_i].msg);
		ck_assert_msg(!strcmp(err.text, want), "got '%s', want '%s'",
			      err.text, want);
	}
	hmrf_conf_destroy(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kvfile");
	TCase *tc = tcase_create("kvfile");

	tcase_add_checked_fixture(tc, NULL, _teardown);
	tcase_add_test(tc, test_syntax);
	tcase_add_loop_test(tc, test_errors, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_missing);
	tcase_add_loop_test(tc, test_hmrf_conf_read, 0,
			    sizeof(confs) / sizeof(confs[0]));
	suite_add_tcase(s, tc);
	return check_run(s);
}
