/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres_test.c - Check tests of tres.c: the errno contract, parsing good and
 * malformed strings, formatting, arithmetic and dominant shares.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../tres.h"

static tres_layout_t *layout;

static void _setup(void)
{
	horae_err_t err;

	layout = tres_layout_create("cpu,mem,node,gres/gpu", &err);
	ck_assert_msg(layout, "layout: %s", err.text);
}

static void _teardown(void)
{
	tres_layout_destroy(&layout);
	ck_assert_ptr_null(layout);
}

/* --- bad arguments and the errno contract ------------------------------- */

START_TEST(test_badargs)
{
	horae_err_t err;
	tres_vec_t v;
	char buf[8];

	errno = 0;
	ck_assert_ptr_null(tres_layout_create(NULL, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tres_parse(NULL, "cpu=1", &v, &err), -EINVAL);
	ck_assert_int_eq(tres_parse(layout, NULL, &v, &err), -EINVAL);
	ck_assert_int_eq(tres_parse(layout, "cpu=1", NULL, NULL), -EINVAL);
	ck_assert_int_eq(tres_format(layout, &v, buf, 0), -EINVAL);
	ck_assert_int_eq(tres_layout_find(layout, "license/x"), -ENOENT);
	ck_assert_ptr_null(tres_layout_name(layout, 4));
	ck_assert_ptr_null(tres_layout_name(layout, -1));
	ck_assert_int_eq(tres_layout_count(NULL), 0);
	tres_layout_destroy(NULL); /* NULL-safe */
}
END_TEST

START_TEST(test_parse_failure_changes_nothing)
{
	tres_vec_t v;

	tres_zero(&v);
	v.v[0] = 7;
	ck_assert_int_eq(tres_parse(layout, "cpu=4,mem=oops", &v, NULL),
			 -EINVAL);
	ck_assert(v.v[0] == 7 && v.v[1] == 0);
}
END_TEST

/* --- layouts ------------------------------------------------------------ */

static const struct {
	const char *list;
	const char *msg; /* NULL: valid */
} layouts[] = {
	{ "cpu", NULL },
	{ "cpu,mem,node,gres/gpu,license/matlab,fs/disk", NULL },
	{ "", "empty" },
	{ "cpu,,mem", "empty name at character 5" },
	{ "cpu,mem,", "trailing comma" },
	{ "cpu,mem,cpu", "'cpu' appears twice" },
	{ "cpu,MEM", "character 5 ('M') is not allowed" },
	{ "cpu mem", "character 4 (' ') is not allowed" },
	{ "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "more than 16 TRES" },
};

START_TEST(test_layouts)
{
	horae_err_t err = { "" };
	tres_layout_t *l = tres_layout_create(layouts[_i].list, &err);

	if (!layouts[_i].msg) {
		ck_assert_msg(l, "'%s' rejected: %s", layouts[_i].list,
			      err.text);
		ck_assert_int_eq(tres_layout_find(l, "cpu"), 0);
	} else {
		ck_assert_msg(!l, "'%s' accepted", layouts[_i].list);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(strstr(err.text, layouts[_i].msg),
			      "'%s': message '%s' lacks '%s'",
			      layouts[_i].list, err.text, layouts[_i].msg);
	}
	tres_layout_destroy(&l);
}
END_TEST

/* --- parsing ------------------------------------------------------------ */

static const struct {
	const char *str;
	double cpu, mem, node, gpu;
} good[] = {
	{ "", 0, 0, 0, 0 },
	{ "cpu=4", 4, 0, 0, 0 },
	{ "cpu=4,mem=4G,node=1,gres/gpu=2", 4, 4096, 1, 2 },
	{ "mem=512", 0, 512, 0, 0 },
	{ "mem=512M", 0, 512, 0, 0 },
	{ "mem=2048K", 0, 2, 0, 0 },
	{ "mem=1T", 0, 1048576, 0, 0 },
	{ "mem=1.5g", 0, 1536, 0, 0 },
	{ "gres/gpu=1K", 0, 0, 0, 1024 },
	{ "node=2,cpu=0.5", 0.5, 0, 2, 0 },
};

START_TEST(test_parse_good)
{
	horae_err_t err = { "" };
	tres_vec_t v;
	int rc = tres_parse(layout, good[_i].str, &v, &err);

	ck_assert_msg(rc == 0, "'%s': %s", good[_i].str, err.text);
	ck_assert_double_eq(v.v[0], good[_i].cpu);
	ck_assert_double_eq(v.v[1], good[_i].mem);
	ck_assert_double_eq(v.v[2], good[_i].node);
	ck_assert_double_eq(v.v[3], good[_i].gpu);
	for (int i = 4; i < TRES_MAX; i++)
		ck_assert_double_eq(v.v[i], 0);
}
END_TEST

static const struct {
	const char *str;
	const char *msg;
} bad[] = {
	{ "cpu", "item 'cpu' at character 1 has no '=value'" },
	{ "cpu=", "value of 'cpu' at character 1 is not a number" },
	{ "=4", "item '=4' at character 1 has no valid name" },
	{ "cpu=4,,mem=1", "empty item at character 7" },
	{ "cpu=4,", "trailing comma" },
	{ ",cpu=4", "empty item at character 1" },
	{ "cpu=abc", "value of 'cpu' at character 1 is not a number" },
	{ "cpu=4,mem=4X", "value of 'mem' at character 7 is not a number" },
	{ "cpu=4,mem=4GB", "value of 'mem' at character 7 is not a number" },
	{ "cpu=-1", "value of 'cpu' at character 1 is negative" },
	{ "mem=0x10", "value of 'mem' at character 1 is not a number" },
	{ "cpu=nan", "value of 'cpu' at character 1 is not a number" },
	{ "cpu=inf", "value of 'cpu' at character 1 is not a number" },
	{ "cpu=1e400", "negative or out of range" },
	{ "cpu=4,cpu=2", "'cpu' appears twice" },
	{ "gres/fpga=1", "unknown TRES 'gres/fpga' at character 1" },
	{ "cpu=4,license/x=1", "unknown TRES 'license/x' at character 7" },
};

START_TEST(test_parse_bad)
{
	horae_err_t err = { "" };
	tres_vec_t v;
	int rc = tres_parse(layout, bad[_i].str, &v, &err);

	ck_assert_msg(rc == -EINVAL, "'%s' accepted", bad[_i].str);
	ck_assert_msg(strstr(err.text, bad[_i].msg),
		      "'%s': message '%s' lacks '%s'", bad[_i].str, err.text,
		      bad[_i].msg);
	/* The message quotes the whole string so the admin can find it. */
	ck_assert_msg(strstr(err.text, bad[_i].str), "'%s' not quoted in '%s'",
		      bad[_i].str, err.text);
}
END_TEST

/* --- formatting --------------------------------------------------------- */

START_TEST(test_format_roundtrip)
{
	tres_vec_t v, w;
	char buf[128];

	ck_assert_int_eq(tres_parse(layout, "cpu=4,mem=4G,gres/gpu=2", &v,
				    NULL), 0);
	ck_assert_int_eq(tres_format(layout, &v, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "cpu=4,mem=4096M,gres/gpu=2");
	ck_assert_int_eq(tres_parse(layout, buf, &w, NULL), 0);
	ck_assert_mem_eq(&v, &w, sizeof(v));

	tres_zero(&v);
	ck_assert_int_eq(tres_format(layout, &v, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_format_nospace)
{
	tres_vec_t v;
	char buf[8];

	ck_assert_int_eq(tres_parse(layout, "cpu=4,mem=4G", &v, NULL), 0);
	ck_assert_int_eq(tres_format(layout, &v, buf, sizeof(buf)), -ENOSPC);
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
}
END_TEST

/* --- arithmetic --------------------------------------------------------- */

START_TEST(test_add_sub_scale)
{
	tres_vec_t a, b;

	tres_parse(layout, "cpu=4,mem=1000", &a, NULL);
	tres_parse(layout, "cpu=2,mem=3000,gres/gpu=1", &b, NULL);
	tres_add(&a, &b);
	ck_assert_double_eq(a.v[0], 6);
	ck_assert_double_eq(a.v[1], 4000);
	ck_assert_double_eq(a.v[3], 1);
	tres_scale(&a, 0.5);
	ck_assert_double_eq(a.v[0], 3);
	ck_assert_double_eq(a.v[1], 2000);
	tres_sub(&a, &b); /* mem 2000-3000 clips at zero */
	ck_assert_double_eq(a.v[0], 1);
	ck_assert_double_eq(a.v[1], 0);
	ck_assert_double_eq(a.v[3], 0);
	ck_assert(!tres_is_zero(&a));
	tres_zero(&a);
	ck_assert(tres_is_zero(&a));
}
END_TEST

START_TEST(test_fits)
{
	tres_vec_t cap, need;

	tres_parse(layout, "cpu=8,mem=16G,node=1", &cap, NULL);
	tres_parse(layout, "cpu=8,mem=16G", &need, NULL);
	ck_assert(tres_fits(&need, &cap));
	tres_parse(layout, "cpu=9", &need, NULL);
	ck_assert(!tres_fits(&need, &cap));
	tres_parse(layout, "gres/gpu=1", &need, NULL);
	ck_assert(!tres_fits(&need, &cap));
	tres_zero(&need);
	ck_assert(tres_fits(&need, &cap));
}
END_TEST

START_TEST(test_slots)
{
	tres_vec_t v;

	tres_zero(&v);
	ck_assert_int_eq(tres_slots(&v), 0);
	v.v[0] = 1;
	ck_assert_int_eq(tres_slots(&v), 1);
	v.v[5] = -2; /* not zero counts, whatever its sign */
	ck_assert_int_eq(tres_slots(&v), 6);
	v.v[TRES_MAX - 1] = 0.5;
	ck_assert_int_eq(tres_slots(&v), TRES_MAX);
}
END_TEST

START_TEST(test_dominant_share)
{
	tres_vec_t cap, use;
	int dom;

	/* DRF's example: 9 CPUs, 18 GB; <1 CPU, 4 GB> is memory-dominant. */
	tres_parse(layout, "cpu=9,mem=18G", &cap, NULL);
	tres_parse(layout, "cpu=1,mem=4G", &use, NULL);
	ck_assert_double_eq_tol(tres_dominant_share(&use, &cap, &dom),
				4.0 / 18.0, 1e-12);
	ck_assert_int_eq(dom, 1);
	tres_parse(layout, "cpu=3,mem=1G", &use, NULL);
	ck_assert_double_eq_tol(tres_dominant_share(&use, &cap, &dom),
				1.0 / 3.0, 1e-12);
	ck_assert_int_eq(dom, 0);

	tres_zero(&use);
	ck_assert_double_eq(tres_dominant_share(&use, &cap, &dom), 0);
	ck_assert_int_eq(dom, -1);

	/* Use of a resource the capacity lacks can never be satisfied. */
	tres_parse(layout, "gres/gpu=1", &use, NULL);
	ck_assert(isinf(tres_dominant_share(&use, &cap, &dom)));
	ck_assert_int_eq(dom, 3);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("tres");
	TCase *tc;

	tc = tcase_create("badargs");
	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_parse_failure_changes_nothing);
	suite_add_tcase(s, tc);

	tc = tcase_create("layout");
	tcase_add_loop_test(tc, test_layouts, 0,
			    sizeof(layouts) / sizeof(layouts[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_loop_test(tc, test_parse_good, 0,
			    sizeof(good) / sizeof(good[0]));
	tcase_add_loop_test(tc, test_parse_bad, 0,
			    sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_format_roundtrip);
	tcase_add_test(tc, test_format_nospace);
	suite_add_tcase(s, tc);

	tc = tcase_create("arith");
	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_add_sub_scale);
	tcase_add_test(tc, test_fits);
	tcase_add_test(tc, test_slots);
	tcase_add_test(tc, test_dominant_share);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(_suite());
}
