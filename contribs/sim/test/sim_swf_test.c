/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_swf_test.c - Check tests of sim_swf.c: the errno contract, the
 * hand-written sample log (test/data/sample.swf) under every option, and
 * one bad log per error message (file and line named).
 */
#include <check.h>

#include "../../../src/common/test/check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim_trace.h"

static const char *_sample(void)
{
	static char path[4096];
	const char *dir = getenv("SIM_TEST_DATA");

	snprintf(path, sizeof(path), "%s/sample.swf", dir ? dir : "test/data");
	return path;
}

static char *_tmp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);
	FILE *f;
	int fd;

	ck_assert_ptr_nonnull(path);
	snprintf(path, 4096, "%s/sim_swf_test_XXXXXX.swf", dir ? dir : "/tmp");
	fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

static const sim_job_t *_job(const sim_trace_t *t, long id)
{
	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].id == id)
			return &t->jobs[i];
	ck_abort_msg("no job %ld", id);
	return NULL;
}

START_TEST(test_badargs)
{
	sim_swf_opts_t o = { .nodes = -1 };
	sim_trace_t t, before;
	horae_err_t err;
	size_t skipped = 77;

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_eq(sim_trace_read_swf(NULL, NULL, &t, &skipped, &err),
			 -EINVAL);
	ck_assert_int_eq(
		sim_trace_read_swf(_sample(), NULL, NULL, &skipped, &err),
		-EINVAL);
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 -EINVAL);
	ck_assert(strstr(err.text, "must be >= 0"));
	ck_assert_int_eq(sim_trace_read_swf("/nonexistent/x.swf", NULL, &t,
					    &skipped, &err),
			 -ENOENT);
	ck_assert(strstr(err.text, "/nonexistent/x.swf: cannot open"));
	ck_assert_mem_eq(&t, &before, sizeof(t));
	ck_assert_uint_eq(skipped, 77);
	/* opts, skipped and err may be NULL. */
	ck_assert_int_eq(sim_trace_read_swf(_sample(), NULL, &t, NULL, NULL),
			 0);
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_sample)
{
	sim_trace_t t;
	horae_err_t err;
	size_t skipped;
	static const long order[] = { 1, 2, 3, 5, 6, 8, 9, 10 };

	ck_assert_msg(sim_trace_read_swf(_sample(), NULL, &t, &skipped, &err) ==
			      0,
		      "%s", err.text);
	/* Jobs 4 (never ran) and 7 (size 0) are skipped. */
	ck_assert_uint_eq(skipped, 2);
	ck_assert_uint_eq(t.njobs, 8);
	/* MaxNodes 4 nodes of MaxProcs / MaxNodes = 4 CPUs. */
	ck_assert_int_eq(tres_layout_count(t.layout), 1);
	ck_assert_str_eq(tres_layout_name(t.layout, 0), "cpu");
	ck_assert_int_eq(t.nnodes, 4);
	ck_assert_str_eq(t.nodes[3].name, "n4");
	ck_assert_double_eq(t.nodes[3].capacity.v[0], 4);
	ck_assert_double_eq(t.nodes[3].speed, 1);
	/* Users in order of their first job, weight 1. */
	ck_assert_int_eq(t.naccounts, 4);
	ck_assert_str_eq(t.accounts[0].name, "u3");
	ck_assert_str_eq(t.accounts[1].name, "u5");
	ck_assert_str_eq(t.accounts[2].name, "u7");
	ck_assert_str_eq(t.accounts[3].name, "u9");
	ck_assert_double_eq(t.accounts[3].weight, 1);
	for (size_t i = 0; i < t.njobs; i++) {
		ck_assert_int_eq(t.jobs[i].id, order[i]);
		ck_assert_double_eq(t.jobs[i].demand.v[0], 1);
		ck_assert_int_eq(t.jobs[i].min_tasks, t.jobs[i].tasks);
		ck_assert(!t.jobs[i].moldable);
		ck_assert_double_eq(t.jobs[i].deadline, 0);
	}
	/* Submit times from the first job's (100). */
	ck_assert_double_eq(_job(&t, 1)->submit, 0);
	ck_assert_double_eq(_job(&t, 10)->submit, 900);
	ck_assert_double_eq(_job(&t, 1)->work, 3600);
	ck_assert_int_eq(_job(&t, 1)->account, 0);
	ck_assert_int_eq(_job(&t, 8)->account, 3);
	/* Allocated processors, or requested when unknown. */
	ck_assert_int_eq(_job(&t, 8)->tasks, 2);
	ck_assert_int_eq(_job(&t, 10)->tasks, 12);
	ck_assert_int_eq(_job(&t, 6)->tasks, 2);
	ck_assert_int_eq(_job(&t, 5)->tasks, 1);
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_options)
{
	sim_swf_opts_t o = { 0 };
	sim_trace_t t;
	horae_err_t err;
	size_t skipped;

	/* Requested processors (allocated when unknown); groups. */
	o.requested = true;
	o.by_group = true;
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 0);
	ck_assert_int_eq(_job(&t, 8)->tasks, 4);
	ck_assert_int_eq(_job(&t, 10)->tasks, 16);
	ck_assert_int_eq(_job(&t, 5)->tasks, 1);
	ck_assert_int_eq(t.naccounts, 3);
	ck_assert_str_eq(t.accounts[0].name, "g1");
	ck_assert_str_eq(t.accounts[2].name, "g3");
	sim_trace_free(&t);

	/* Our own cluster: 16 nodes of 1 CPU (the default). */
	memset(&o, 0, sizeof(o));
	o.nodes = 16;
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 0);
	ck_assert_int_eq(t.nnodes, 16);
	ck_assert_double_eq(t.nodes[0].capacity.v[0], 1);
	sim_trace_free(&t);

	/* MaxNodes nodes of cpus_per_node CPUs. */
	o.nodes = 0;
	o.cpus_per_node = 8;
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 0);
	ck_assert_int_eq(t.nnodes, 4);
	ck_assert_double_eq(t.nodes[0].capacity.v[0], 8);
	sim_trace_free(&t);

	/* The first jobs only (skipped ones do not count). */
	memset(&o, 0, sizeof(o));
	o.max_jobs = 4;
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 0);
	ck_assert_uint_eq(t.njobs, 4);
	ck_assert_uint_eq(skipped, 1);
	ck_assert_int_eq(t.jobs[3].id, 5);
	sim_trace_free(&t);

	/* A cluster smaller than a job. */
	o.max_jobs = 0;
	o.nodes = 2;
	o.cpus_per_node = 4;
	ck_assert_int_eq(sim_trace_read_swf(_sample(), &o, &t, &skipped, &err),
			 -EINVAL);
	ck_assert_msg(
		strstr(err.text,
		       "sample.swf:23: job 3 needs 16 processors; the cluster has 8"),
		"%s", err.text);
}
END_TEST

/* From MaxProcs alone: MaxProcs nodes of 1 CPU, or / cpus_per_node. */
START_TEST(test_maxprocs)
{
	char *path = _tmp("; MaxProcs: 8\n"
			  "7 50 0 10 3 -1 -1 3 10 -1 1 2 1 1 1 1 -1 -1\n"
			  "\n"
			  "  ; a comment among the jobs\n"
			  "5 20 0 10.5 1 -1 -1 1 10 -1 1 2 1 1 1 1 -1 -1\n");
	sim_swf_opts_t o = { .cpus_per_node = 2 };
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_swf(path, NULL, &t, NULL, &err) == 0, "%s",
		      err.text);
	ck_assert_int_eq(t.nnodes, 8);
	ck_assert_double_eq(t.nodes[0].capacity.v[0], 1);
	/* Sorted by submit; times from the earliest. */
	ck_assert_int_eq(t.jobs[0].id, 5);
	ck_assert_double_eq(t.jobs[0].submit, 0);
	ck_assert_double_eq(t.jobs[0].work, 10.5);
	ck_assert_double_eq(t.jobs[1].submit, 30);
	sim_trace_free(&t);
	ck_assert_int_eq(sim_trace_read_swf(path, &o, &t, NULL, &err), 0);
	ck_assert_int_eq(t.nnodes, 4);
	ck_assert_double_eq(t.nodes[0].capacity.v[0], 2);
	sim_trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

#define HDR "; MaxProcs: 4\n"
#define REST " -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"

static const struct {
	const char *text, *msg;
} bad[] = {
	{ HDR "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1\n",
	  ":2: 17 fields; an SWF job line has 18" },
	{ HDR "1 0 0 10 1" REST "2 0 0 10 1" REST "3 0 0 10 1 1" REST,
	  ":4: 19 fields; an SWF job line has 18" },
	{ HDR "1 0 0 abc 1" REST,
	  ":2: field 4 (run time) 'abc' is not a number" },
	{ HDR "1 0 0 nan 1" REST,
	  ":2: field 4 (run time) 'nan' is not a number" },
	{ HDR "1 0 0 0x10 1" REST,
	  ":2: field 4 (run time) '0x10' is not a number" },
	{ HDR "0 0 0 10 1" REST,
	  ":2: field 1 (job number) '0' must be a whole number >= 1" },
	{ HDR "1 -1 0 10 1" REST,
	  ":2: field 2 (submit time) '-1' must be >= 0" },
	{ HDR "1 0 0 10 1.5" REST,
	  ":2: 1.5 processors: must be a whole number" },
	{ HDR "1 0 0 10 8" REST,
	  ":2: job 1 needs 8 processors; the cluster has 4" },
	{ HDR "1 0 0 10 1" REST "1 5 0 10 1" REST,
	  ":3: job number 1 appears twice (also line 2)" },
	{ "1 0 0 10 1" REST, "no usable MaxNodes or MaxProcs in the header" },
	/* A header value that is not a count is named with its line. */
	{ "; MaxNodes: 0\n1 0 0 10 1" REST,
	  "line 1 has MaxNodes: 0, not a count; no usable MaxNodes" },
	{ "; MaxProcs: -4\n1 0 0 10 1" REST,
	  "line 1 has MaxProcs: -4, not a count; no usable" },
	{ "; MaxNodes: 300000\n1 0 0 10 1" REST,
	  "300000 nodes: at most 200000" },
};

START_TEST(test_bad)
{
	char *path = _tmp(bad[_i].text);
	sim_trace_t t, before;
	horae_err_t err = { "" };
	size_t n = strlen(path);

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_eq(sim_trace_read_swf(path, NULL, &t, NULL, &err),
			 -EINVAL);
	ck_assert_msg(!strncmp(err.text, path, n),
		      "'%s' does not name the file", err.text);
	ck_assert_msg(strstr(err.text, bad[_i].msg), "'%s' lacks '%s'",
		      err.text, bad[_i].msg);
	ck_assert_mem_eq(&t, &before, sizeof(t));
	unlink(path);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_swf");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_maxprocs);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return check_run(s);
}
