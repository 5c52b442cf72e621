/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_trace_test.c - Check tests of sim_trace.c: the errno contract, a
 * good trace with every member and every default, one bad trace per error
 * message (the file and the member named), stdin, and round trips through
 * sim_trace_write_json().
 */
#include <check.h>

#include "../../../src/common/test/check_run.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim_trace.h"
#include "sim_trace_eq.h"

/* path of test/data's file name, in a static buffer. */
static const char *_data(const char *name)
{
	static char path[4096];
	const char *dir = getenv("SIM_TEST_DATA");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "test/data", name);
	return path;
}

/* A new temporary file (suffix .json) holding text; the caller unlinks
 * it. */
static char *_tmp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);
	FILE *f;
	int fd;

	ck_assert_ptr_nonnull(path);
	snprintf(path, 4096, "%s/sim_trace_test_XXXXXX.json",
		 dir ? dir : "/tmp");
	fd = mkstemps(path, 5);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* Write t, read it back, and compare. */
static void _round_trip(const sim_trace_t *t)
{
	char *path = _tmp("");
	sim_trace_t back;
	horae_err_t err;

	ck_assert_msg(sim_trace_write_json(t, path, &err) == 0, "%s", err.text);
	ck_assert_msg(sim_trace_read_json(path, &back, &err) == 0, "%s",
		      err.text);
	ck_assert(sim_trace_eq(t, &back));
	sim_trace_free(&back);
	unlink(path);
	free(path);
}

START_TEST(test_badargs)
{
	sim_trace_t t, before;
	horae_err_t err;

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_eq(sim_trace_read_json(NULL, &t, &err), -EINVAL);
	ck_assert_int_eq(sim_trace_read_json(_data("good.json"), NULL, &err),
			 -EINVAL);
	ck_assert_int_eq(sim_trace_read_json("/nonexistent/t.json", &t, &err),
			 -ENOENT);
	ck_assert_msg(strstr(err.text, "/nonexistent/t.json: cannot open"),
		      "%s", err.text);
	/* Failures leave *out alone. */
	ck_assert_mem_eq(&t, &before, sizeof(t));
	/* err may be NULL. */
	ck_assert_int_eq(sim_trace_read_json(NULL, &t, NULL), -EINVAL);

	ck_assert_int_eq(sim_trace_write_json(NULL, "x.json", &err), -EINVAL);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(sim_trace_write_json(&t, "x.json", &err), -EINVAL);
	ck_assert_int_eq(sim_trace_read_json(_data("good.json"), &t, &err), 0);
	ck_assert_int_eq(sim_trace_write_json(&t, NULL, &err), -EINVAL);
	ck_assert_int_eq(sim_trace_write_json(&t, "/nonexistent/x.json", &err),
			 -ENOENT);
	ck_assert(strstr(err.text, "/nonexistent/x.json: cannot write"));
	t.jobs[0].account = 9;
	ck_assert_int_eq(sim_trace_write_json(&t, "x.json", &err), -EINVAL);
	ck_assert(strstr(err.text, "account 9 is not in the trace"));
	sim_trace_free(&t);
	ck_assert_ptr_null(t.layout);
	ck_assert_ptr_null(t.jobs);
	sim_trace_free(&t); /* twice is fine */
	sim_trace_free(NULL);
}
END_TEST

START_TEST(test_good)
{
	sim_trace_t t;
	horae_err_t err;
	const sim_job_t *j;

	ck_assert_msg(sim_trace_read_json(_data("good.json"), &t, &err) == 0,
		      "%s", err.text);
	ck_assert_int_eq(tres_layout_count(t.layout), 3);
	ck_assert_str_eq(tres_layout_name(t.layout, 2), "gres/gpu");

	/* A count expands into name + index; speed defaults to 1. */
	ck_assert_int_eq(t.nnodes, 4);
	ck_assert_str_eq(t.nodes[0].name, "gen1-1");
	ck_assert_str_eq(t.nodes[2].name, "gen1-3");
	ck_assert_str_eq(t.nodes[3].name, "fast");
	ck_assert_double_eq(t.nodes[1].capacity.v[0], 4);
	ck_assert_double_eq(t.nodes[1].capacity.v[1], 4096);
	ck_assert_double_eq(t.nodes[1].speed, 1.0);
	ck_assert_str_eq(t.nodes[1].features, "gen1");
	ck_assert_double_eq(t.nodes[3].capacity.v[2], 2);
	ck_assert_double_eq(t.nodes[3].speed, 2.5);
	ck_assert_str_eq(t.nodes[3].features, "gen4,gpu");

	/* Listed accounts first, then those jobs name, weight 1. */
	ck_assert_int_eq(t.naccounts, 3);
	ck_assert_str_eq(t.accounts[0].name, "a1");
	ck_assert_double_eq(t.accounts[0].weight, 2);
	ck_assert_double_eq(t.accounts[1].weight, 1);
	ck_assert_str_eq(t.accounts[2].name, "b9");
	ck_assert_double_eq(t.accounts[2].weight, 1);

	/* Sorted by submit, then id: 2, 4 at 0; 3, 7 at 10. */
	ck_assert_uint_eq(t.njobs, 4);
	ck_assert_int_eq(t.jobs[0].id, 2);
	ck_assert_int_eq(t.jobs[1].id, 4);
	ck_assert_int_eq(t.jobs[2].id, 3);
	ck_assert_int_eq(t.jobs[3].id, 7);

	j = &t.jobs[0];
	ck_assert_int_eq(j->account, 2);
	ck_assert_double_eq(j->submit, 0);
	ck_assert_int_eq(j->tasks, 2);
	ck_assert_int_eq(j->min_tasks, 2);
	ck_assert_double_eq(j->demand.v[2], 1);
	ck_assert_double_eq(j->work, 0.5);
	ck_assert_str_eq(j->constraint, "gpu");
	ck_assert(!j->moldable);
	ck_assert_double_eq(j->deadline, 0);

	j = &t.jobs[1]; /* every default */
	ck_assert_int_eq(j->account, 0);
	ck_assert_double_eq(j->submit, 0);
	ck_assert_int_eq(j->min_tasks, 4);
	ck_assert_double_eq(j->demand.v[0], 0);
	ck_assert_double_eq(j->demand.v[1], 1024);
	ck_assert_str_eq(j->constraint, "");

	j = &t.jobs[2];
	ck_assert_double_eq(j->demand.v[1], 512);
	ck_assert_double_eq(j->deadline, 0);

	j = &t.jobs[3];
	ck_assert_int_eq(j->tasks, 1000);
	ck_assert_int_eq(j->min_tasks, 500);
	ck_assert(j->moldable);
	ck_assert_double_eq(j->deadline, 120);
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_defaults)
{
	char *path = _tmp("{ \"version\": 1, \"nodes\": [ { \"name\": \"n\", "
			  "\"tres\": \"cpu=1\" } ], \"jobs\": [] }");
	sim_trace_t t;
	horae_err_t err;

	ck_assert_msg(sim_trace_read_json(path, &t, &err) == 0, "%s", err.text);
	/* Layout cpu,mem; a count of 1 keeps the name; no jobs is fine. */
	ck_assert_int_eq(tres_layout_count(t.layout), 2);
	ck_assert_str_eq(tres_layout_name(t.layout, 1), "mem");
	ck_assert_int_eq(t.nnodes, 1);
	ck_assert_str_eq(t.nodes[0].name, "n");
	ck_assert_str_eq(t.nodes[0].features, "");
	ck_assert_int_eq(t.naccounts, 0);
	ck_assert_uint_eq(t.njobs, 0);
	_round_trip(&t);
	sim_trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

#define NODE "{ \"name\": \"n\", \"tres\": \"cpu=4,mem=4G\" }"
#define HEAD "{ \"version\": 1, "
#define NODES "\"nodes\": [ " NODE " ], "
#define JOB                                                              \
	"{ \"account\": \"a\", \"tasks\": 4, \"task_tres\": \"cpu=1\", " \
	"\"work\": 1"
/* A trace with one node and the job JOB + s + "}". */
#define ONE_JOB(s) HEAD NODES "\"jobs\": [ " JOB s " } ] }"

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "[]", "the trace must be a JSON object" },
	{ HEAD NODES "\"accounts\": [ { \"name\": \"a\", \"weight\": 1e308 }, "
		     "{ \"name\": \"b\", \"weight\": 1e308 } ], \"jobs\": [] }",
	  "accounts[1].weight: the weights so far sum to more than" },
	/* JSON that json-c would take and a reader should not. */
	{ HEAD NODES "\"jobs\": [], }", "line 1: a comma before '}'" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\" }, ], "
	       "\"jobs\": [] }",
	  "line 1: a comma before ']'" },
	{ "{ 'version': 1, " NODES "\"jobs\": [] }",
	  "line 1: a key in single quotes" },
	{ HEAD NODES "\"jobs\": [], \"tres\": 'cpu' }",
	  "line 1: a string in single quotes" },
	{ HEAD "\"tres\": \"cpu\",\n\"tres\": \"cpu,mem\", " NODES
	       "\"jobs\": [] }",
	  "line 2: key \"tres\" given twice in one object (first on line 1)" },
	{ HEAD NODES "\"jobs\": [] /* never ends }",
	  "line 1: a comment that never ends" },
	{ "", "line 1: not valid JSON" },
	{ "{\n\"version\": 1,\n\"nodes\": [ {", "line 3: not valid JSON" },
	{ HEAD NODES "\"jobs\": [] }\n}", "line 2: text after the JSON" },
	{ "{ " NODES "\"jobs\": [] }", "missing member 'version'" },
	{ "{ \"version\": 2, " NODES "\"jobs\": [] }", "version: must be 1" },
	{ "{ \"version\": \"1\", " NODES "\"jobs\": [] }",
	  "version: must be 1" },
	{ HEAD NODES "\"jobs\": [], \"job\": [] }", "unknown member 'job'" },
	{ HEAD "\"tres\": \"cpu,,mem\", " NODES "\"jobs\": [] }",
	  "tres: TRES list 'cpu,,mem': empty name" },
	{ HEAD "\"tres\": 5, " NODES "\"jobs\": [] }",
	  "tres: must be a string" },
	{ HEAD "\"jobs\": [] }", "missing member 'nodes'" },
	{ HEAD "\"nodes\": [], \"jobs\": [] }",
	  "nodes: must list at least one node" },
	{ HEAD "\"nodes\": {}, \"jobs\": [] }", "nodes: must be an array" },
	{ HEAD "\"nodes\": [ 1 ], \"jobs\": [] }",
	  "nodes[0]: must be an object" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"sped\": 2 } ], \"jobs\": [] }",
	  "nodes[0]: unknown member 'sped'" },
	{ HEAD "\"nodes\": [ { \"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "nodes[0]: missing member 'name'" },
	{ HEAD "\"nodes\": [ { \"name\": \"a b\", \"tres\": \"cpu=1\" } ], "
	       "\"jobs\": [] }",
	  "nodes[0].name: 'a b' is not a name" },
	{ HEAD "\"nodes\": [ { \"name\": \"n,1\", \"tres\": \"cpu=1\" } ], "
	       "\"jobs\": [] }",
	  "nodes[0].name: 'n,1' is not a name" },
	{ HEAD
	  "\"nodes\": [ { \"name\": \"" /* 64 characters */
	  "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
	  "\", \"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "is longer than 63 characters" },
	{ HEAD "\"nodes\": [ { \"name\": \""
	       "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
	       "\", \"count\": 100, \"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "and an index up to 100 are longer than 63 characters" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"count\": 0, "
	       "\"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "nodes[0].count: must be an integer from 1 to 200000" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"count\": 2.0, "
	       "\"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "nodes[0].count: must be an integer from 1 to 200000" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"count\": 10, "
	       "\"tres\": \"cpu=1\" }, { \"name\": \"m\", \"count\": 200000, "
	       "\"tres\": \"cpu=1\" } ], \"jobs\": [] }",
	  "nodes[1]: more than 200000 nodes in all" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\" } ], \"jobs\": [] }",
	  "nodes[0]: missing member 'tres'" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"gpu=1\" } ], "
	       "\"jobs\": [] }",
	  "nodes[0].tres: TRES string 'gpu=1': unknown TRES 'gpu'" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"\" } ], "
	       "\"jobs\": [] }",
	  "nodes[0].tres: '' is nothing" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"speed\": 0 } ], \"jobs\": [] }",
	  "nodes[0].speed: must be a number > 0" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"speed\": \"fast\" } ], \"jobs\": [] }",
	  "nodes[0].speed: must be a number > 0" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"speed\": NaN } ], \"jobs\": [] }",
	  "nodes[0].speed: must be a number > 0" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"features\": \"a,,b\" } ], \"jobs\": [] }",
	  "nodes[0].features: 'a,,b' is not a comma-separated list of names" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"tres\": \"cpu=1\", "
	       "\"features\": [ \"a\" ] } ], \"jobs\": [] }",
	  "nodes[0].features: must be a string" },
	{ HEAD "\"nodes\": [ { \"name\": \"n\", \"count\": 2, "
	       "\"tres\": \"cpu=1\" }, { \"name\": \"n2\", \"tres\": \"cpu=1\" "
	       "} ], \"jobs\": [] }",
	  "nodes[1]: node name 'n2' appears twice (also nodes[0])" },
	{ HEAD NODES "\"accounts\": {}, \"jobs\": [] }",
	  "accounts: must be an array" },
	{ HEAD NODES "\"accounts\": [ { \"name\": \"a\", \"weight\": -1 } ], "
		     "\"jobs\": [] }",
	  "accounts[0].weight: must be a number > 0" },
	{ HEAD NODES "\"accounts\": [ { \"name\": \"a\" }, { \"name\": \"a\" } "
		     "], \"jobs\": [] }",
	  "accounts[1].name: account 'a' appears twice" },
	{ HEAD NODES "\"accounts\": [ { \"name\": \"a\", \"share\": 1 } ], "
		     "\"jobs\": [] }",
	  "accounts[0]: unknown member 'share'" },
	{ HEAD NODES "\"accounts\": [ { \"weight\": 1 } ], \"jobs\": [] }",
	  "accounts[0]: missing member 'name'" },
	{ HEAD NODES "\"accounts\": [] }", "missing member 'jobs'" },
	{ HEAD NODES "\"jobs\": [ " JOB " }, " JOB " }, " JOB " }, " JOB
		     ", \"taks\": 3 } ] }",
	  "jobs[3]: unknown member 'taks'" },
	{ HEAD NODES "\"jobs\": [ 5 ] }", "jobs[0]: must be an object" },
	{ ONE_JOB(", \"id\": 0"), "jobs[0].id: must be an integer >= 1" },
	{ HEAD NODES "\"jobs\": [ " JOB " }, " JOB ", \"id\": 1 } ] }",
	  "jobs[1]: id 1 appears twice (also jobs[0])" },
	{ HEAD NODES "\"jobs\": [ { \"tasks\": 1, \"task_tres\": \"cpu=1\", "
		     "\"work\": 1 } ] }",
	  "jobs[0]: missing member 'account'" },
	{ HEAD NODES "\"jobs\": [ { \"account\": 5, \"tasks\": 1, "
		     "\"task_tres\": \"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0].account: must be a string" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0].account: '' is not a name" },
	{ ONE_JOB(", \"submit\": -1"),
	  "jobs[0].submit: must be a number >= 0" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"task_tres\": "
		     "\"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0]: missing member 'tasks'" },
	{ HEAD NODES "\"jobs\": [ " JOB " }, " JOB " }, " JOB " }, "
		     "{ \"account\": \"a\", \"tasks\": 0, \"task_tres\": "
		     "\"cpu=1\", \"work\": 1 } ] }",
	  "jobs[3].tasks: must be an integer >= 1" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": \"5\", "
		     "\"task_tres\": \"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0].tasks: must be an integer >= 1" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": null, "
		     "\"task_tres\": \"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0].tasks: must be an integer >= 1" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 3000000000, "
		     "\"task_tres\": \"cpu=1\", \"work\": 1 } ] }",
	  "jobs[0].tasks: must be at most 2147483647" },
	{ ONE_JOB(", \"min_tasks\": 0"),
	  "jobs[0].min_tasks: must be an integer from 1 to 4" },
	{ ONE_JOB(", \"min_tasks\": 5"),
	  "jobs[0].min_tasks: must be an integer from 1 to 4" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"work\": 1 } ] }",
	  "jobs[0]: missing member 'task_tres'" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=x\", \"work\": 1 } ] }",
	  "jobs[0].task_tres: TRES string 'cpu=x': value of 'cpu'" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=0\", \"work\": 1 } ] }",
	  "jobs[0].task_tres: 'cpu=0' is nothing" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=1\" } ] }",
	  "jobs[0]: missing member 'work'" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=1\", \"work\": 0 } ] }",
	  "jobs[0].work: must be a number > 0" },
	{ HEAD NODES "\"jobs\": [ { \"account\": \"a\", \"tasks\": 1, "
		     "\"task_tres\": \"cpu=1\", \"work\": 1e400 } ] }",
	  "jobs[0].work: must be a number > 0" },
	{ ONE_JOB(", \"moldable\": \"yes\""),
	  "jobs[0].moldable: must be true or false" },
	{ ONE_JOB(", \"submit\": 10, \"deadline\": 5"),
	  "jobs[0].deadline: must be 0 (none) or later than submit (10)" },
	{ ONE_JOB(", \"submit\": 10, \"deadline\": 10"),
	  "jobs[0].deadline: must be 0 (none) or later than submit (10)" },
	{ ONE_JOB(", \"deadline\": -1"),
	  "jobs[0].deadline: must be a number >= 0" },
	{ ONE_JOB(", \"constraint\": \"gen9\""),
	  "jobs[0].constraint: no node has feature 'gen9'" },
	{ ONE_JOB(", \"constraint\": \"a,b\""),
	  "jobs[0].constraint: 'a,b' is not a feature name" },
	{ HEAD NODES
	  "\"jobs\": [ { \"id\": 9, \"account\": \"a\", "
	  "\"tasks\": 1, \"task_tres\": \"cpu=8\", \"work\": 1 } ] }",
	  "jobs[0]: job 9: a task (cpu=8) fits on no node" },
	{ HEAD "\"nodes\": [ { \"name\": \"big\", \"tres\": \"cpu=8\", "
	       "\"features\": \"gen1\" }, { \"name\": \"fast\", \"tres\": "
	       "\"cpu=2\", \"features\": \"ib,gen4\" } ], \"jobs\": [ { "
	       "\"account\": \"a\", \"tasks\": 1, \"task_tres\": \"cpu=4\", "
	       "\"work\": 1, \"constraint\": \"gen4\" } ] }",
	  "jobs[0]: job 1: a task (cpu=4) fits on no node with feature 'gen4'" },
};

START_TEST(test_bad)
{
	char *path = _tmp(bad[_i].text);
	sim_trace_t t, before;
	horae_err_t err = { "" };
	size_t n = strlen(path);

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_eq(sim_trace_read_json(path, &t, &err), -EINVAL);
	/* The file first, then where, then what. */
	ck_assert_msg(!strncmp(err.text, path, n) && err.text[n] == ':',
		      "'%s' does not start with the file", err.text);
	ck_assert_msg(strstr(err.text, bad[_i].msg), "'%s' lacks '%s'",
		      err.text, bad[_i].msg);
	ck_assert_mem_eq(&t, &before, sizeof(t));
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_stdin)
{
	sim_trace_t t;
	horae_err_t err;

	ck_assert_ptr_nonnull(freopen(_data("good.json"), "r", stdin));
	ck_assert_msg(sim_trace_read_json("-", &t, &err) == 0, "%s", err.text);
	ck_assert_uint_eq(t.njobs, 4);
	sim_trace_free(&t);
	/* Errors name stdin. */
	ck_assert_ptr_nonnull(freopen("/dev/null", "r", stdin));
	ck_assert_int_eq(sim_trace_read_json("-", &t, &err), -EINVAL);
	ck_assert_msg(strstr(err.text, "stdin: line 1: not valid JSON"), "%s",
		      err.text);
}
END_TEST

START_TEST(test_round_trip_good)
{
	sim_trace_t t;
	horae_err_t err;

	ck_assert_int_eq(sim_trace_read_json(_data("good.json"), &t, &err), 0);
	_round_trip(&t);
	sim_trace_free(&t);
}
END_TEST

/* Numbers no short decimal gives still come back exactly. */
START_TEST(test_round_trip_exact)
{
	char *path = _tmp(HEAD "\"tres\": \"cpu,mem,gres/gpu\", " NODES
			       "\"jobs\": [ " JOB " } ] }");
	sim_trace_t t;
	horae_err_t err;

	ck_assert_int_eq(sim_trace_read_json(path, &t, &err), 0);
	t.nodes[0].speed = 1.0 / 3;
	t.nodes[0].capacity.v[0] = 4.0 / 3 + 1;
	t.nodes[0].capacity.v[1] = 1e6 / 7;
	t.nodes[0].capacity.v[2] = 2;
	snprintf(t.nodes[0].features, sizeof(t.nodes[0].features), "a,b\\c");
	t.jobs[0].submit = 0.1 + 0.2;
	t.jobs[0].work = 1e-9 / 3;
	t.jobs[0].deadline = 1e300;
	t.jobs[0].demand.v[1] = 2.0 / 3;
	t.jobs[0].min_tasks = 2;
	t.jobs[0].moldable = true;
	t.accounts[0].weight = 0.7;
	_round_trip(&t);
	sim_trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_write_stdout)
{
	char *path = _tmp("");
	sim_trace_t t, back;
	horae_err_t err;

	ck_assert_int_eq(sim_trace_read_json(_data("good.json"), &t, &err), 0);
	ck_assert_ptr_nonnull(freopen(path, "w", stdout));
	ck_assert_int_eq(sim_trace_write_json(&t, "-", &err), 0);
	fflush(stdout);
	ck_assert_int_eq(sim_trace_read_json(path, &back, &err), 0);
	ck_assert(sim_trace_eq(&t, &back));
	sim_trace_free(&t);
	sim_trace_free(&back);
	unlink(path);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_trace");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_stdin);
	suite_add_tcase(s, tc);
	tc = tcase_create("write");
	tcase_add_test(tc, test_round_trip_good);
	tcase_add_test(tc, test_round_trip_exact);
	tcase_add_test(tc, test_write_stdout);
	suite_add_tcase(s, tc);
	return check_run(s);
}
