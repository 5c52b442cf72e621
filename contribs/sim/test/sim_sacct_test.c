/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_sacct_test.c - a site's history as sacct and scontrol print it:
 * test/data/sacct.txt and nodes.txt (hand-written in their formats), and
 * bad files written here.
 */
#define _GNU_SOURCE /* asprintf */
#include <check.h>

#include "../../../src/common/test/check_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim_trace.h"

static char *_data(const char *name)
{
	const char *dir = getenv("SIM_TEST_DATA");
	char *p = NULL;

	ck_assert_int_ge(asprintf(&p, "%s/%s", dir ? dir : "test/data", name),
			 0);
	return p;
}

static char *_tmp(const char *text)
{
	char *p = strdup("/tmp/sim_sacct_test_XXXXXX");
	int fd = mkstemp(p);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return p;
}

static const sim_job_t *_find(const sim_trace_t *t, long id)
{
	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].id == id)
			return &t->jobs[i];
	return NULL;
}

/* A node whose features the map names twice takes the largest factor,
 * as select/eunomia's SpeedMap does (eunomia.conf(5)); horae-sim took
 * the first the map named. */
START_TEST(test_speed_largest)
{
	char *jobs = _data("sacct.txt"), *nodes = _data("nodes.txt");
	sim_sacct_opts_t o = { .nodes_path = nodes,
			       .speed_map = "gpu:2,gen4:3" };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_str_eq(t.nodes[1].features, "gen4,gpu");
	ck_assert_double_eq(t.nodes[1].speed, 3);
	ck_assert_double_eq(t.nodes[0].speed, 1);
	sim_trace_free(&t);
	free(jobs);
	free(nodes);
}
END_TEST

START_TEST(test_good)
{
	char *jobs = _data("sacct.txt"), *nodes = _data("nodes.txt");
	sim_sacct_opts_t o = { .nodes_path = nodes,
			       .speed_map = "gen1:1,gen4:3" };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;
	const sim_job_t *j;
	int chem;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	/* Nodes: CPUs, memory (MB), GPUs of typed Gres, features, speeds. */
	ck_assert_int_eq(t.nnodes, 2);
	ck_assert_str_eq(t.nodes[1].name, "n4");
	ck_assert_double_eq(t.nodes[1].capacity.v[0], 4);
	ck_assert_double_eq(t.nodes[1].capacity.v[1], 8000);
	ck_assert_double_eq(t.nodes[1].capacity.v[2], 2);
	ck_assert_str_eq(t.nodes[1].features, "gen4,gpu");
	ck_assert_double_eq(t.nodes[0].speed, 1);
	ck_assert_double_eq(t.nodes[1].speed, 3);
	/* 8 records: 3 replayed, each left out counted with its first. */
	ck_assert_uint_eq(st.records, 8);
	ck_assert_uint_eq(st.jobs, 3);
	ck_assert_uint_eq(t.njobs, 3);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NEVER_RAN].count, 2);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NEVER_RAN].line, 4);
	ck_assert_str_eq(st.skip[SIM_SACCT_NEVER_RAN].job, "103");
	ck_assert_uint_eq(st.skip[SIM_SACCT_RUNNING].count, 1);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NO_TIME].count, 1);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NO_NODE].count, 1);
	ck_assert_str_eq(st.skip[SIM_SACCT_NO_NODE].job, "108");
	ck_assert_uint_eq(st.skip[SIM_SACCT_CONSTRAINT].count, 1);
	/* Job 102: 4 CPUs, 4G and 2 GPUs -> 4 tasks of 1 CPU, 1024 MB,
	 * half a GPU; 30 s; on gen4; submitted 10 s after the first. */
	ck_assert_ptr_nonnull(j = _find(&t, 102));
	ck_assert_int_eq(j->tasks, 4);
	ck_assert_int_eq(j->min_tasks, 4);
	ck_assert_double_eq(j->demand.v[0], 1);
	ck_assert_double_eq(j->demand.v[1], 1024);
	ck_assert_double_eq(j->demand.v[2], 0.5);
	ck_assert_double_eq(j->work, 30);
	ck_assert_double_eq(j->submit, 10);
	ck_assert_str_eq(j->constraint, "gen4");
	chem = j->account;
	ck_assert_str_eq(t.accounts[chem].name, "chem");
	ck_assert_double_eq(t.accounts[chem].weight, 1);
	/* Job 106's "gen1&gen4" is not replayed; it runs unconstrained. */
	ck_assert_ptr_nonnull(j = _find(&t, 106));
	ck_assert_str_eq(j->constraint, "");
	ck_assert_double_eq(j->work, 120);
	/* Sorted by submission; time 0 is the first's. */
	ck_assert_int_eq(t.jobs[0].id, 101);
	ck_assert_double_eq(t.jobs[0].submit, 0);
	sim_trace_free(&t);
	free(jobs);
	free(nodes);
}
END_TEST

static const struct {
	const char *jobs, *msg;
} bad[] = {
	{ "", "empty: no header line" },
	{ "JobIDRaw|Account|Submit|Start|End|State\n",
	  "the header has no AllocTRES column" },
	{ "JobIDRaw Account\n", "not a sacct -P header" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES|Constraints\n"
	  "1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1|a|b\n",
	  ":2: 9 fields; the header has 8: a field holds the delimiter '|'" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES\n"
	  "1|a|2026-11-25T10:00:00|2026-11-25|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1\n",
	  ":2: Start '2026-11-25' is not a time" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES\n"
	  "x1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1\n",
	  ":2: JobID 'x1' is not a job number" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES\n"
	  "1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1,mem=-5M\n",
	  ":2: AllocTRES 'cpu=1,mem=-5M'" },
	{ "JobID|Account|Submit|Start|End|State|AllocTRES\n"
	  "7_1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1\n",
	  ":2: JobID '7_1': array tasks and heterogeneous job components "
	  "share a JobID; write the file with JobIDRaw" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES\n"
	  "7|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1\n"
	  "7|a|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:00:09|"
	  "COMPLETED|cpu=1\n",
	  ":3: job 7 appears twice (also line 2)" },
	{ "JobIDRaw|Account|Submit|Start|End|State|AllocTRES\n"
	  "1|a|2026-11-25T10:00:00|Unknown|Unknown|PENDING|\n",
	  "no job to replay (1 records, none that started and ended)" },
};

START_TEST(test_bad)
{
	char *nodes = _data("nodes.txt"), *jobs = _tmp(bad[_i].jobs);
	sim_sacct_opts_t o = { .nodes_path = nodes };
	sim_trace_t t, before;
	horae_err_t err = { "" };

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_lt(sim_trace_read_sacct(jobs, &o, &t, NULL, &err), 0);
	ck_assert_msg(!strncmp(err.text, jobs, strlen(jobs)),
		      "'%s' does not start with the file", err.text);
	ck_assert_msg(strstr(err.text, bad[_i].msg), "'%s' lacks '%s'",
		      err.text, bad[_i].msg);
	ck_assert_mem_eq(&t, &before, sizeof(t));
	unlink(jobs);
	free(jobs);
	free(nodes);
}
END_TEST

/* Another delimiter (sacct -P --delimiter=';') holds a constraint a|b;
 * without the nodes, or with a bad speed map, nothing is read. */
START_TEST(test_delimiter_and_options)
{
	char *nodes = _data("nodes.txt");
	char *jobs = _tmp("JobIDRaw;Account;Submit;Start;End;State;AllocTRES;"
			  "Constraints\n"
			  "1;a;2026-11-25T10:00:00;2026-11-25T10:00:00;"
			  "2026-11-25T10:00:09;COMPLETED;cpu=1;gen1|gen4\n");
	sim_sacct_opts_t o = { .nodes_path = nodes };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_uint_eq(t.njobs, 1);
	ck_assert_uint_eq(st.skip[SIM_SACCT_CONSTRAINT].count, 1);
	sim_trace_free(&t);
	o.nodes_path = NULL;
	ck_assert_int_eq(sim_trace_read_sacct(jobs, &o, &t, &st, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.text, "the nodes are needed too"), "%s",
		      err.text);
	o.nodes_path = nodes;
	o.speed_map = "gen1=2";
	ck_assert_int_eq(sim_trace_read_sacct(jobs, &o, &t, &st, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.text, "'gen1=2' is not feature:factor"), "%s",
		      err.text);
	o.speed_map = "gen1:0";
	ck_assert_int_eq(sim_trace_read_sacct(jobs, &o, &t, &st, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.text, "factor of 'gen1' must be greater than 0"), "%s",
		      err.text);
	unlink(jobs);
	free(jobs);
	free(nodes);
}
END_TEST

/* A Deadline column (optional): each job's deadline, relative like its
 * submission; None is no deadline; one not after Submit is refused. */
START_TEST(test_deadline)
{
	char *nodes = _data("nodes.txt");
	char *jobs = _tmp("JobIDRaw|Account|Submit|Start|End|State|AllocTRES|"
			  "Deadline\n"
			  "1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:09|COMPLETED|cpu=1|"
			  "2026-11-25T10:05:00\n"
			  "2|a|2026-11-25T10:00:30|2026-11-25T10:00:30|"
			  "2026-11-25T10:00:39|COMPLETED|cpu=1|None\n");
	char *bad_jobs = _tmp("JobIDRaw|Account|Submit|Start|End|State|"
			      "AllocTRES|Deadline\n"
			      "1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			      "2026-11-25T10:00:09|COMPLETED|cpu=1|"
			      "2026-11-25T09:00:00\n");
	sim_sacct_opts_t o = { .nodes_path = nodes };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_uint_eq(t.njobs, 2);
	ck_assert_double_eq(_find(&t, 1)->deadline, 300);
	ck_assert_double_eq(_find(&t, 2)->deadline, 0);
	sim_trace_free(&t);
	ck_assert_int_eq(sim_trace_read_sacct(bad_jobs, &o, &t, &st, &err),
			 -EINVAL);
	ck_assert_msg(
		strstr(err.text, ":2: job 1: Deadline is not after Submit"),
		"%s", err.text);
	unlink(jobs);
	unlink(bad_jobs);
	free(jobs);
	free(bad_jobs);
	free(nodes);
}
END_TEST

/* A NodeList column, with a speed map: a job's time becomes work at
 * speed 1 by its slowest node (n1 speed 1, n4 speed 3); a list of nodes
 * not given, or not of the form name[1-3,5], is replayed as run and
 * counted; without a speed map the list is not read. */
START_TEST(test_nodelist)
{
	char *nodes = _data("nodes.txt");
	char *jobs = _tmp("JobIDRaw|Account|Submit|Start|End|State|AllocTRES|"
			  "NodeList\n"
			  "1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:10|COMPLETED|cpu=1|n4\n"
			  "2|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:10|COMPLETED|cpu=2|n[1,4]\n"
			  "3|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:10|COMPLETED|cpu=1|n9\n"
			  "4|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:10|COMPLETED|cpu=1|n[4-4]\n"
			  "5|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
			  "2026-11-25T10:00:10|COMPLETED|cpu=1|n[4\n");
	sim_sacct_opts_t o = { .nodes_path = nodes,
			       .speed_map = "gen1:1,gen4:3" };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_uint_eq(t.njobs, 5);
	ck_assert_double_eq(_find(&t, 1)->work, 30);
	ck_assert_double_eq(_find(&t, 2)->work, 10);
	ck_assert_double_eq(_find(&t, 3)->work, 10);
	ck_assert_double_eq(_find(&t, 4)->work, 30);
	ck_assert_double_eq(_find(&t, 5)->work, 10);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NODELIST].count, 2);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NODELIST].line, 4);
	sim_trace_free(&t);
	o.speed_map = NULL;
	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_double_eq(_find(&t, 1)->work, 10);
	ck_assert_uint_eq(st.skip[SIM_SACCT_NODELIST].count, 0);
	sim_trace_free(&t);
	unlink(jobs);
	free(jobs);
	free(nodes);
}
END_TEST

/* An Eligible column: a job held or waiting on a dependency joins the
 * replay's queue when it became eligible, never after it started. */
START_TEST(test_eligible)
{
	char *nodes = _data("nodes.txt");
	char *jobs = _tmp(
		"JobIDRaw|Account|Submit|Eligible|Start|End|State|"
		"AllocTRES\n"
		"1|a|2026-11-25T10:00:00|2026-11-25T10:00:00|"
		"2026-11-25T10:00:00|2026-11-25T10:00:10|COMPLETED|cpu=1\n"
		"2|a|2026-11-25T10:00:00|2026-11-25T10:00:10|"
		"2026-11-25T10:00:12|2026-11-25T10:00:20|COMPLETED|cpu=1\n"
		"3|a|2026-11-25T10:00:00|2026-11-25T10:00:50|"
		"2026-11-25T10:00:30|2026-11-25T10:00:40|COMPLETED|cpu=1\n"
		"4|a|2026-11-25T10:00:05|Unknown|"
		"2026-11-25T10:00:30|2026-11-25T10:00:40|COMPLETED|cpu=1\n");
	sim_sacct_opts_t o = { .nodes_path = nodes };
	sim_sacct_stats_t st;
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_sacct(jobs, &o, &t, &st, &err) == 0, "%s",
		      err.text);
	ck_assert_uint_eq(t.njobs, 4);
	ck_assert_double_eq(_find(&t, 1)->submit, 0);
	ck_assert_double_eq(_find(&t, 2)->submit, 10);
	ck_assert_double_eq(_find(&t, 3)->submit, 30);
	ck_assert_double_eq(_find(&t, 4)->submit, 5);
	sim_trace_free(&t);
	unlink(jobs);
	free(jobs);
	free(nodes);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_sacct");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_speed_largest);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_delimiter_and_options);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_nodelist);
	tcase_add_test(tc, test_eligible);
	suite_add_tcase(s, tc);
	return check_run(s);
}
