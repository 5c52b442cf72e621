/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gen_test.c - Check tests of sim_gen.c: the errno contract, every
 * generator's trace valid (it survives a JSON round trip, whose reader
 * checks everything), the fixed examples' exact contents, and the justice
 * stream: reproducible per seed, deadlines at multiples in [1.5, 3] of the
 * run time, sizes, elasticity and offered load as documented.
 */
#include <check.h>

#include "../../../src/common/test/check_run.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim_gen.h"
#include "sim_trace_eq.h"

static void _gen(const char *name, const sim_gen_opts_t *o, sim_trace_t *t)
{
	horae_err_t err;

	ck_assert_msg(sim_gen(name, o, t, &err) == 0, "%s: %s", name, err.text);
}

/* The vector "cpu=C,mem=M" in layout cpu,mem (M in MB). */
static void _assert_cm(const tres_vec_t *v, double cpu, double mem)
{
	ck_assert_double_eq(v->v[0], cpu);
	ck_assert_double_eq_tol(v->v[1], mem, 1e-9);
	for (int i = 2; i < TRES_MAX; i++)
		ck_assert_double_eq(v->v[i], 0);
}

START_TEST(test_badargs)
{
	sim_gen_opts_t o = { 0 };
	sim_trace_t t, before;
	horae_err_t err;

	memset(&t, 0x5a, sizeof(t));
	before = t;
	ck_assert_int_eq(sim_gen(NULL, NULL, &t, &err), -EINVAL);
	ck_assert_int_eq(sim_gen("justice", NULL, NULL, &err), -EINVAL);
	ck_assert_int_eq(sim_gen("x", NULL, &t, &err), -EINVAL);
	ck_assert_str_eq(
		err.text,
		"unknown generator 'x' (use hmrf-table1, hmrf-example4, eunomia-micro, "
		"psdsf-example, drfh-fig1, drfh-dynamic, justice)");
	ck_assert_int_eq(sim_gen("Justice", NULL, &t, NULL), -EINVAL);
	/* Fixed examples take no stream options. */
	o.jobs = 10;
	ck_assert_int_eq(sim_gen("hmrf-table1", &o, &t, &err), -EINVAL);
	ck_assert(strstr(err.text, "'hmrf-table1' is a fixed example"));
	o.jobs = 0;
	o.load = 2;
	ck_assert_int_eq(sim_gen("drfh-dynamic", &o, &t, &err), -EINVAL);
	o.load = -1;
	ck_assert_int_eq(sim_gen("justice", &o, &t, &err), -EINVAL);
	ck_assert(strstr(err.text, "load -1: must be a number > 0"));
	o.load = NAN;
	ck_assert_int_eq(sim_gen("justice", &o, &t, &err), -EINVAL);
	o.load = INFINITY;
	ck_assert_int_eq(sim_gen("justice", &o, &t, &err), -EINVAL);
	o.load = 0;
	o.jobs = 20000000;
	ck_assert_int_eq(sim_gen("justice", &o, &t, &err), -EINVAL);
	ck_assert(strstr(err.text, "20000000 jobs: at most 10000000"));
	ck_assert_mem_eq(&t, &before, sizeof(t));
}
END_TEST

/* Every generator makes a trace the JSON reader accepts and gives back. */
START_TEST(test_names)
{
	const char *const *names = sim_gen_names();
	const char *dir = getenv("TMPDIR");
	char path[4096];
	sim_trace_t t, back;
	horae_err_t err;
	int n = 0, fd;

	snprintf(path, sizeof(path), "%s/sim_gen_test_XXXXXX.json",
		 dir ? dir : "/tmp");
	fd = mkstemps(path, 5);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (; names[n]; n++) {
		_gen(names[n], NULL, &t);
		ck_assert_msg(sim_trace_write_json(&t, path, &err) == 0, "%s",
			      err.text);
		ck_assert_msg(sim_trace_read_json(path, &back, &err) == 0,
			      "%s: %s", names[n], err.text);
		ck_assert_msg(sim_trace_eq(&t, &back), "%s changed", names[n]);
		sim_trace_free(&t);
		sim_trace_free(&back);
	}
	ck_assert_int_eq(n, 7);
	unlink(path);
}
END_TEST

START_TEST(test_hmrf_table1)
{
	static const int a[4] = { 30, 20, 27, 10 }, b[4] = { 4, 24, 8, 30 };
	sim_trace_t t;

	_gen("hmrf-table1", NULL, &t);
	ck_assert_int_eq(tres_layout_count(t.layout), 2);
	ck_assert_str_eq(tres_layout_name(t.layout, 0), "cpu");
	ck_assert_str_eq(tres_layout_name(t.layout, 1), "mem");
	ck_assert_int_eq(t.nnodes, 1);
	_assert_cm(&t.nodes[0].capacity, 100, 100 * 1024);
	ck_assert_double_eq(t.nodes[0].speed, 1);
	ck_assert_int_eq(t.naccounts, 2);
	ck_assert_str_eq(t.accounts[0].name, "A");
	ck_assert_str_eq(t.accounts[1].name, "B");
	ck_assert_double_eq(t.accounts[0].weight, 1);
	ck_assert_double_eq(t.accounts[1].weight, 1);
	ck_assert_uint_eq(t.njobs, 8);
	for (int s = 0; s < 4; s++) {
		const sim_job_t *ja = &t.jobs[2 * s], *jb = &t.jobs[2 * s + 1];

		ck_assert_int_eq(ja->id, 2 * s + 1);
		ck_assert_int_eq(jb->id, 2 * s + 2);
		ck_assert_int_eq(ja->account, 0);
		ck_assert_int_eq(jb->account, 1);
		ck_assert_double_eq(ja->submit, s);
		ck_assert_double_eq(jb->submit, s);
		ck_assert_int_eq(ja->tasks, a[s]);
		ck_assert_int_eq(jb->tasks, b[s]);
		ck_assert_int_eq(ja->min_tasks, a[s]);
		ck_assert_int_eq(jb->min_tasks, b[s]);
		_assert_cm(&ja->demand, 1, 4 * 1024);
		_assert_cm(&jb->demand, 4, 1024);
		ck_assert_double_eq(ja->work, 1);
		ck_assert_double_eq(jb->work, 1);
		ck_assert(!ja->moldable && !jb->moldable);
		ck_assert(!ja->constraint[0] && !jb->constraint[0]);
		ck_assert_double_eq(ja->deadline, 0);
		ck_assert_double_eq(jb->deadline, 0);
	}
	sim_trace_free(&t);
}
END_TEST

/* Example 4: A 15 then 60 tasks <1 CPU, 2 GB>, B 80 then 30 <1, 1 GB>. */
START_TEST(test_hmrf_example4)
{
	static const int acct[4] = { 0, 1, 0, 1 }, tasks[4] = { 15, 80, 60, 30 };
	static const double mem[4] = { 2, 1, 2, 1 }, submit[4] = { 0, 0, 1, 1 };
	sim_trace_t t;

	_gen("hmrf-example4", NULL, &t);
	ck_assert_int_eq(t.nnodes, 1);
	_assert_cm(&t.nodes[0].capacity, 100, 100 * 1024);
	ck_assert_int_eq(t.naccounts, 2);
	ck_assert_uint_eq(t.njobs, 4);
	for (int j = 0; j < 4; j++) {
		ck_assert_int_eq(t.jobs[j].account, acct[j]);
		ck_assert_int_eq(t.jobs[j].tasks, tasks[j]);
		ck_assert_double_eq(t.jobs[j].submit, submit[j]);
		ck_assert_double_eq(t.jobs[j].work, 1);
		_assert_cm(&t.jobs[j].demand, 1, mem[j] * 1024);
	}
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_eunomia_micro)
{
	static const double speed[4] = { 1.0, 1.5, 2.0, 3.0 };
	sim_trace_t t;
	char name[16];

	_gen("eunomia-micro", NULL, &t);
	ck_assert_int_eq(t.nnodes, 20);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "gen%d-%d", i / 5 + 1, i % 5 + 1);
		ck_assert_str_eq(t.nodes[i].name, name);
		ck_assert_double_eq(t.nodes[i].speed, speed[i / 5]);
		snprintf(name, sizeof(name), "gen%d", i / 5 + 1);
		ck_assert_str_eq(t.nodes[i].features, name);
		_assert_cm(&t.nodes[i].capacity, 4, 4 * 1024);
	}
	ck_assert_int_eq(t.naccounts, 4);
	ck_assert_uint_eq(t.njobs, 4);
	for (int j = 0; j < 4; j++) {
		ck_assert_int_eq(t.jobs[j].id, j + 1);
		ck_assert_int_eq(t.jobs[j].account, j);
		ck_assert_double_eq(t.jobs[j].submit, 0);
		ck_assert_int_eq(t.jobs[j].tasks, 1000);
		ck_assert_double_eq(t.jobs[j].work, 2);
		_assert_cm(&t.jobs[j].demand, 1, 1024);
		ck_assert_str_eq(t.jobs[j].constraint, j == 3 ? "gen4" : "");
	}
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_psdsf_example)
{
	sim_trace_t t;

	_gen("psdsf-example", NULL, &t);
	ck_assert_int_eq(t.nnodes, 2);
	_assert_cm(&t.nodes[0].capacity, 100, 30 * 1024);
	_assert_cm(&t.nodes[1].capacity, 30, 100 * 1024);
	ck_assert_int_eq(t.naccounts, 2);
	ck_assert_uint_eq(t.njobs, 2);
	_assert_cm(&t.jobs[0].demand, 5, 1024);
	_assert_cm(&t.jobs[1].demand, 1, 5 * 1024);
	/* More tasks than fit even alone: (100/5 + 30/5) = 26 < 100. */
	ck_assert_int_eq(t.jobs[0].tasks, 100);
	ck_assert_int_eq(t.jobs[1].tasks, 100);
	ck_assert_double_eq(t.jobs[0].work, 1000);
	ck_assert_int_ne(t.jobs[0].account, t.jobs[1].account);
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_drfh_fig1)
{
	sim_trace_t t;

	_gen("drfh-fig1", NULL, &t);
	ck_assert_int_eq(t.nnodes, 2);
	_assert_cm(&t.nodes[0].capacity, 2, 12 * 1024);
	_assert_cm(&t.nodes[1].capacity, 12, 2 * 1024);
	ck_assert_str_eq(t.accounts[0].name, "u1");
	ck_assert_str_eq(t.accounts[1].name, "u2");
	_assert_cm(&t.jobs[0].demand, 0.2, 1024);
	_assert_cm(&t.jobs[1].demand, 1, 0.2 * 1024);
	ck_assert_int_eq(t.jobs[0].tasks, 100);
	ck_assert_double_eq(t.jobs[1].work, 1000);
	sim_trace_free(&t);
}
END_TEST

/* Tasks of demand d packed into every node alone, each node as full as
 * it goes. */
static int _pack(const sim_trace_t *t, const tres_vec_t *d)
{
	int n = 0;

	for (int i = 0; i < t->nnodes; i++) {
		tres_vec_t used;

		tres_zero(&used);
		for (;;) {
			tres_add(&used, d);
			if (!tres_fits(&used, &t->nodes[i].capacity))
				break;
			n++;
		}
	}
	return n;
}

START_TEST(test_drfh_dynamic)
{
	sim_trace_t t;
	tres_vec_t total;
	int n;

	_gen("drfh-dynamic", NULL, &t);
	/* 100 servers of 52.75 CPU and 51.32 memory units (100 CPUs and
	 * 100 GB a unit). */
	ck_assert_int_eq(t.nnodes, 100);
	tres_zero(&total);
	for (int i = 0; i < t.nnodes; i++)
		tres_add(&total, &t.nodes[i].capacity);
	ck_assert_double_eq_tol(total.v[0], 5275, 1e-9);
	ck_assert_double_eq_tol(total.v[1], 5132 * 1024, 1e-6);
	/* Users join at 0, 200 and 500 s with the paper's demands. */
	ck_assert_uint_eq(t.njobs, 3);
	ck_assert_double_eq(t.jobs[0].submit, 0);
	ck_assert_double_eq(t.jobs[1].submit, 200);
	ck_assert_double_eq(t.jobs[2].submit, 500);
	_assert_cm(&t.jobs[0].demand, 20, 30 * 1024);
	_assert_cm(&t.jobs[1].demand, 50, 10 * 1024);
	_assert_cm(&t.jobs[2].demand, 10, 30 * 1024);
	/* User 1 alone holds 40% of the CPUs and 62% of the memory. */
	n = _pack(&t, &t.jobs[0].demand);
	ck_assert_int_eq(n, 107);
	ck_assert_int_eq((int)(100 * n * 20 / total.v[0]), 40);
	ck_assert_int_eq((int)(100 * n * 30 * 1024 / total.v[1]), 62);
	sim_trace_free(&t);
}
END_TEST

START_TEST(test_justice_seed)
{
	sim_gen_opts_t o = { .seed = 42 };
	sim_trace_t a, b, c;

	_gen("justice", &o, &a);
	_gen("justice", &o, &b);
	ck_assert(sim_trace_eq(&a, &b));
	o.seed = 43;
	_gen("justice", &o, &c);
	ck_assert(!sim_trace_eq(&a, &c));
	sim_trace_free(&c);
	/* 0 is a seed like the others, and NULL options mean seed 0. */
	o.seed = 0;
	_gen("justice", &o, &c);
	ck_assert(!sim_trace_eq(&a, &c));
	sim_trace_free(&b);
	_gen("justice", NULL, &b);
	ck_assert(sim_trace_eq(&b, &c));
	sim_trace_free(&a);
	sim_trace_free(&b);
	sim_trace_free(&c);
}
END_TEST

START_TEST(test_justice_stream)
{
	sim_gen_opts_t o = { .seed = 7 };
	sim_trace_t t;
	size_t single = 0, small = 0, elastic = 0;
	double cpus = 0, work = 0, last;

	_gen("justice", &o, &t);
	ck_assert_uint_eq(t.njobs, 200);
	sim_trace_free(&t);

	o.jobs = 5000;
	o.load = 1.5;
	_gen("justice", &o, &t);
	ck_assert_uint_eq(t.njobs, 5000);
	ck_assert_int_eq(tres_layout_count(t.layout), 1);
	for (int i = 0; i < t.nnodes; i++)
		cpus += t.nodes[i].capacity.v[0];
	ck_assert_double_eq(cpus, 32);
	ck_assert_double_eq(t.jobs[0].submit, 0);
	for (size_t i = 0; i < t.njobs; i++) {
		const sim_job_t *j = &t.jobs[i];
		double run = j->work / j->tasks;
		double m = (j->deadline - j->submit) / run;

		ck_assert_int_eq(j->id, (long)i + 1);
		ck_assert(i == 0 || j->submit >= t.jobs[i - 1].submit);
		ck_assert(j->moldable);
		ck_assert_int_ge(j->tasks, 1);
		ck_assert_int_le(j->tasks, 16);
		ck_assert_int_ge(j->min_tasks, 1);
		ck_assert_int_le(j->min_tasks, j->tasks);
		ck_assert_double_eq(j->demand.v[0], 1);
		ck_assert(run >= 30 && run <= 600);
		ck_assert_msg(m >= 1.5 - 1e-9 && m <= 3 + 1e-9,
			      "job %ld: deadline at %g x its run time", j->id,
			      m);
		single += j->tasks == 1;
		small += j->tasks < 10;
		elastic += j->min_tasks < j->tasks;
		work += j->work;
	}
	/* 60% single tasks, 75% under 10; some elastic. */
	ck_assert_msg(single > 2800 && single < 3200, "%zu single", single);
	ck_assert_msg(small > 3550 && small < 3950, "%zu small", small);
	ck_assert_msg(elastic > 300 && elastic < 900, "%zu elastic", elastic);
	/* Offered load: the work over the span and the CPUs. */
	last = t.jobs[t.njobs - 1].submit;
	ck_assert_double_eq_tol(work / (last * cpus), 1.5, 0.1);
	sim_trace_free(&t);

	o.load = 3;
	_gen("justice", &o, &t);
	last = t.jobs[t.njobs - 1].submit;
	ck_assert_double_eq_tol(work / (last * cpus), 3, 0.2);
	sim_trace_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_gen");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("generators");
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_hmrf_table1);
	tcase_add_test(tc, test_hmrf_example4);
	tcase_add_test(tc, test_eunomia_micro);
	tcase_add_test(tc, test_psdsf_example);
	tcase_add_test(tc, test_drfh_fig1);
	tcase_add_test(tc, test_drfh_dynamic);
	tcase_add_test(tc, test_justice_seed);
	tcase_add_test(tc, test_justice_stream);
	suite_add_tcase(s, tc);
	return check_run(s);
}
