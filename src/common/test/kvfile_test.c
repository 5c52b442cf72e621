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
#include <sys/stat.h>
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

/* Slurm's own syntax: blanks around '=', an empty value, Include. */
START_TEST(test_slurm_syntax)
{
	char dir[] = "/tmp/horae-kvinc.XXXXXX", main_path[96], sub[96],
	     cmd[128];
	seen_t s = { "" };
	horae_err_t err;
	FILE *f;

	_write("Policy = hmrf\n"
	       "Account= physics Share =2 Empty= Next=1\n"
	       "Quoted = \"a b\"\n");
	ck_assert_int_eq(kvfile_read(path, _collect, &s, &err), 0);
	ck_assert_str_eq(s.text, "1:Policy=[hmrf] 2:Account=[physics] "
				 "2:Share=[2] 2:Empty=[] 2:Next=[1] "
				 "3:Quoted=[a b] ");

	/* Include, relative to the including file, with wildcards. */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(main_path, sizeof(main_path), "%s/hmrf.conf", dir);
	f = fopen(main_path, "w");
	fputs("A=1\ninclude accounts.d/*.conf # the accounts\nZ=9\n", f);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/accounts.d", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/accounts.d/b.conf", dir);
	f = fopen(sub, "w");
	fputs("\nB=2\n", f);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/accounts.d/a.conf", dir);
	f = fopen(sub, "w");
	fputs("Include \"/dev/null\"\nAA=1\n", f);
	fclose(f);
	s.text[0] = '\0';
	ck_assert_msg(kvfile_read(main_path, _collect, &s, &err) == 0, "%s",
		      err.text);
	ck_assert_str_eq(s.text, "1:A=[1] 2:AA=[1] 2:B=[2] 3:Z=[9] ");

	/* An error in an included file names that file and its line. */
	snprintf(sub, sizeof(sub), "%s/accounts.d/b.conf", dir);
	f = fopen(sub, "w");
	fputs("B=2\nFail=now\n", f);
	fclose(f);
	ck_assert_int_eq(kvfile_read(main_path, _collect, &s, &err), -EINVAL);
	snprintf(cmd, sizeof(cmd), "%s:2: told to fail", sub);
	ck_assert_str_eq(err.text, cmd);

	/* A missing file, and a file that includes itself. */
	f = fopen(main_path, "w");
	fputs("Include nothere.conf\n", f);
	fclose(f);
	ck_assert_int_eq(kvfile_read(main_path, _collect, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, ":1: Include ") &&
			      strstr(err.text, "nothere.conf: no such file"),
		      "%s", err.text);
	f = fopen(main_path, "w");
	fputs("Include hmrf.conf\n", f);
	fclose(f);
	ck_assert_int_eq(kvfile_read(main_path, _collect, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, "more than 16 files deep"), "%s",
		      err.text);
	f = fopen(main_path, "w");
	fputs("Include\n", f);
	fclose(f);
	ck_assert_int_eq(kvfile_read(main_path, _collect, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, "'Include' is not Key=Value"), "%s",
		      err.text);

	/* A directory is not a configuration file. */
	ck_assert_int_eq(kvfile_read(dir, _collect, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, "is a directory"), "%s", err.text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
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
	{ "Window = tumbling:7-0\nPeriod = 00:30\nTimeout=UNLIMITED\n"
	  "ChargeHorizon=1-00:00:00\n", NULL },
	{ "Account=Physics Share=2\nAccount=physics Share=3\n",
	  ":2: Account=physics: the account appears twice (names are compared as Slurm stores them, in lower case)" },
	{ "Period=1-2-3\n",
	  ":1: Period=1-2-3: duration '1-2-3' is not Slurm's MM:SS, HH:MM:SS or D-HH[:MM[:SS]]" },
	{ "Policy=hmrf\nWindow=none policy=drf\n",
	  ":2: policy is set twice (first at " },
	{ "Account=physics Share=1 Share=2\n",
	  ":1: Account=physics: Share is set twice" },
	{ "ChargeHorizon=UNLIMITED\n",
	  ":1: ChargeHorizon=UNLIMITED: duration 'UNLIMITED' does not start with a number" },
};

START_TEST(test_hmrf_conf_read)
{
	hmrf_conf_t *c = hmrf_conf_create();
	horae_err_t err = { "" };
	char want[512];
	int rc;

	_write(confs[_i].text);
	rc = hmrf_conf_read(c, path, &err);
	if (!confs[_i].msg) {
		ck_assert_msg(rc == 0, "%s", err.text);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		snprintf(want, sizeof(want), "%s%s", path, confs[_i].msg);
		/* A key set twice: where it was first, line 1 here. */
		if (strstr(confs[_i].msg, "(first at "))
			snprintf(want + strlen(want),
				 sizeof(want) - strlen(want), "%s:1)", path);
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
	tcase_add_test(tc, test_slurm_syntax);
	tcase_add_loop_test(tc, test_errors, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_missing);
	tcase_add_loop_test(tc, test_hmrf_conf_read, 0,
			    sizeof(confs) / sizeof(confs[0]));
	suite_add_tcase(s, tc);
	return check_run(s);
}
