/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_state_test.c - Check tests of hmrf_state.c: accounts and ledgers
 * survive a save and load through state.h unchanged; broken documents are
 * refused with the field named; one reader's part of the state, found
 * by the reader's accounts as by asking of every account (generated).
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../hmrf_state_impl.h"
#include "../rng.h"
#include "../state.h"
#include "../view.h"
#include "test_seed.h"

START_TEST(test_roundtrip_through_file)
{
	window_spec_t w = { WINDOW_SLIDING, 3600 };
	hmrf_state_t *st = hmrf_state_create(&w, 60, "cpu,mem,node,gres/gpu", 1000, NULL), *back;
	char dir[] = "/tmp/horae-hmrf-state.XXXXXX", path[64];
	json_object *doc, *loaded;
	tres_vec_t r, a, b;
	horae_err_t err, warn;

	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/hmrf", dir);
	ck_assert_int_eq(hmrf_state_account(st, "physics"), 0);
	ck_assert_int_eq(hmrf_state_account(st, "chem"), 1);
	ck_assert_int_eq(hmrf_state_account(st, "physics"), 0);
	tres_zero(&r);
	r.v[0] = 8;
	r.v[1] = 16000;
	ck_assert_int_eq(ledger_charge(st->usage, 1, &r, 1000, 1600), 0);
	ck_assert_int_eq(ledger_charge(st->ns, 0, &r, 1200, 1600), 0);
	st->last_start[1] = 1000;
	st->charged_until = 1600;

	/* A copy serialises exactly like the original. */
	hmrf_state_t *copy = hmrf_state_dup(st);
	json_object *d1 = hmrf_state_to_json(st), *d2 = hmrf_state_to_json(copy);
	ck_assert_str_eq(json_object_to_json_string(d1),
			 json_object_to_json_string(d2));
	json_object_put(d1);
	json_object_put(d2);
	hmrf_state_destroy(&copy);

	doc = hmrf_state_to_json(st);
	ck_assert_int_eq(state_save(path, HMRF_STATE_KIND, HMRF_STATE_VERSION,
				    doc, &err), 0);
	ck_assert_int_eq(state_load(path, HMRF_STATE_KIND, HMRF_STATE_VERSION,
				    &loaded, &warn, &err), 0);
	back = hmrf_state_from_json(loaded, &err);
	ck_assert_msg(back, "%s", err.text);
	ck_assert_int_eq(names_find(back->names, "chem"), 1);
	ck_assert_double_eq(back->last_start[1], 1000);
	ck_assert_double_eq(back->charged_until, 1600);
	ck_assert_str_eq(back->tres, "cpu,mem,node,gres/gpu");
	for (int i = 0; i < 2; i++) {
		ledger_usage(st->usage, i, &a);
		ledger_usage(back->usage, i, &b);
		ck_assert_mem_eq(&a, &b, sizeof(a));
		ledger_usage(st->ns, i, &a);
		ledger_usage(back->ns, i, &b);
		ck_assert_mem_eq(&a, &b, sizeof(a));
	}
	/* A loaded state takes new accounts like a fresh one. */
	ck_assert_int_eq(hmrf_state_account(back, "bio"), 2);
	ck_assert_double_eq(back->last_start[2], 0);
	json_object_put(doc);
	json_object_put(loaded);
	hmrf_state_destroy(&st);
	hmrf_state_destroy(&back);
	ck_assert_ptr_null(back);
	hmrf_state_destroy(NULL);
	ck_assert_int_eq(system("rm -rf /tmp/horae-hmrf-state.*"), 0);
}
END_TEST

START_TEST(test_bad_documents)
{
	window_spec_t w = { WINDOW_NONE, 0 };
	hmrf_state_t *st = hmrf_state_create(&w, 0, "cpu,mem", 0, NULL);
	json_object *doc;
	horae_err_t err;

	hmrf_state_account(st, "a");
	hmrf_state_account(st, "b");
	doc = hmrf_state_to_json(st);
	/* Names and ledgers disagree. */
	json_object_array_del_idx(
		json_object_object_get(doc, "accounts"), 1, 1);
	json_object_array_del_idx(
		json_object_object_get(doc, "last_start"), 1, 1);
	ck_assert_ptr_null(hmrf_state_from_json(doc, &err));
	ck_assert_msg(strstr(err.text, "ledgers hold 2 and 2 accounts, not 1"),
		      "%s", err.text);
	json_object_put(doc);

	doc = hmrf_state_to_json(st);
	json_object_object_del(doc, "usage");
	ck_assert_ptr_null(hmrf_state_from_json(doc, &err));
	ck_assert(strstr(err.text, "missing or mistyped"));
	json_object_put(doc);

	doc = hmrf_state_to_json(st);
	json_object_array_put_idx(json_object_object_get(doc, "accounts"), 1,
				  json_object_new_string("a"));
	ck_assert_ptr_null(hmrf_state_from_json(doc, &err));
	ck_assert(strstr(err.text, "'accounts[1]' ('a') appears twice"));
	json_object_put(doc);
	hmrf_state_destroy(&st);
}
END_TEST

static bool _only(const char *name, void *arg)
{
	return strstr((const char *)arg, name) != NULL;
}

/* One reader's part: the kept accounts with their own ledgers, in order;
 * an index out of range is refused. */
/*
 * The default Tres lost "node" (issue 19): a state saved under the old
 * list keeps cpu, mem and gres/gpu usage in every bucket of a sliding
 * window, drops node; a TRES new to the list starts empty.
 */
START_TEST(test_retres)
{
	window_spec_t w = { WINDOW_SLIDING, 3600 };
	hmrf_state_t *st = hmrf_state_create(&w, 60, "cpu,mem,node,gres/gpu",
					     0, NULL);
	hmrf_state_t *keep;
	tres_vec_t r, u, n;
	horae_err_t err;

	ck_assert_int_eq(hmrf_state_account(st, "a"), 0);
	tres_zero(&r);
	r.v[0] = 2;	/* cpu */
	r.v[1] = 1000; /* mem */
	r.v[2] = 1;	/* node */
	r.v[3] = 4;	/* gres/gpu */
	ck_assert_int_eq(ledger_charge(st->usage, 0, &r, 0, 100), 0);
	ck_assert_int_eq(ledger_charge(st->usage, 0, &r, 1000, 1100), 0);
	ck_assert_int_eq(ledger_charge(st->ns, 0, &r, 0, 50), 0);
	keep = st;
	ck_assert_int_eq(hmrf_state_retres(&st, "cpu,bogus!", &err), -EINVAL);
	ck_assert_ptr_eq(st, keep); /* untouched */
	ck_assert_str_eq(st->tres, "cpu,mem,node,gres/gpu");
	ck_assert_int_eq(hmrf_state_retres(&st, "cpu,mem,gres/gpu,energy",
					   &err),
			 0);
	ck_assert_str_eq(st->tres, "cpu,mem,gres/gpu,energy");
	ck_assert_int_eq(ledger_usage(st->usage, 0, &u), 0);
	ck_assert_double_eq(u.v[0], 2 * 200);
	ck_assert_double_eq(u.v[1], 1000 * 200);
	ck_assert_double_eq(u.v[2], 4 * 200);
	ck_assert_double_eq(u.v[3], 0);
	ck_assert_int_eq(ledger_usage(st->ns, 0, &n), 0);
	ck_assert_double_eq(n.v[2], 4 * 50);
	/* The window still slides: by 3800 the first 100 s have left it. */
	ck_assert_int_eq(ledger_advance(st->usage, 3800), 0);
	ck_assert_int_eq(ledger_usage(st->usage, 0, &u), 0);
	ck_assert_double_eq(u.v[0], 2 * 100);
	hmrf_state_destroy(&st);
}
END_TEST

START_TEST(test_select)
{
	window_spec_t w = { WINDOW_SLIDING, 3600 };
	hmrf_state_t *st = hmrf_state_create(&w, 60, "cpu,mem", 1000, NULL), *v;
	tres_vec_t r, u;
	int bad[] = { 3 };

	ck_assert_int_eq(hmrf_state_account(st, "physics"), 0);
	ck_assert_int_eq(hmrf_state_account(st, "chem"), 1);
	ck_assert_int_eq(hmrf_state_account(st, "bio"), 2);
	tres_zero(&r);
	for (int a = 0; a < 3; a++) {
		r.v[0] = a + 1;
		ck_assert_int_eq(ledger_charge(st->usage, a, &r, 1000, 1100), 0);
		ck_assert_int_eq(ledger_charge(st->ns, a, &r, 1000, 1010), 0);
		st->last_start[a] = 1000 + a;
	}
	st->charged_until = 1100;
	v = hmrf_state_select(st, _only, "physics,bio");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(names_count(v->names), 2);
	ck_assert_str_eq(names_get(v->names, 0), "physics");
	ck_assert_str_eq(names_get(v->names, 1), "bio");
	ck_assert_int_eq(names_find(v->names, "chem"), -ENOENT);
	ck_assert_int_eq(ledger_usage(v->usage, 1, &u), 0);
	ck_assert_double_eq_tol(u.v[0], 300, 1e-9);
	ck_assert_int_eq(ledger_usage(v->ns, 1, &u), 0);
	ck_assert_double_eq_tol(u.v[0], 30, 1e-9);
	ck_assert_double_eq(v->last_start[1], 1002);
	ck_assert_double_eq(v->charged_until, 1100);
	ck_assert_int_eq(ledger_count(v->usage), 2);
	hmrf_state_destroy(&v);
	v = hmrf_state_select(st, _only, "");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(names_count(v->names), 0);
	hmrf_state_destroy(&v);
	ck_assert_ptr_null(ledger_select(st->usage, bad, 1));
	ck_assert_int_eq(errno, EINVAL);
	hmrf_state_destroy(&st);
}
END_TEST

/* hmrf_state_select_reader() gives what hmrf_state_select() with
 * view_reader_keeps gives, the same document, over 200 generated states
 * of up to 40 accounts (some charged) and readers of up to 6 accounts of
 * a0..a59 (one in ten an operator). */
START_TEST(test_select_reader_generated)
{
	window_spec_t w = { WINDOW_SLIDING, 3600 };
	rng_t g;
	char name[16];

	rng_seed(&g, gen_seed(7401));
	for (int c = 0; c < 200; c++) {
		hmrf_state_t *st = hmrf_state_create(&w, 60, "cpu,mem", 1000,
						     NULL);
		view_readers_t *r = view_readers_create();
		int n = (int)rng_below(&g, 41), m = (int)rng_below(&g, 7);
		hmrf_state_t *a, *b;
		json_object *ja, *jb;
		tres_vec_t v;

		ck_assert_ptr_nonnull(st);
		tres_zero(&v);
		for (int i = 0; i < n; i++) {
			int k;

			snprintf(name, sizeof(name), "a%d",
				 (int)rng_below(&g, 60));
			k = hmrf_state_account(st, name);
			ck_assert_int_ge(k, 0);
			v.v[0] = 1 + (double)rng_below(&g, 8);
			ck_assert_int_eq(ledger_charge(st->usage, k, &v, 1000,
						       1000 + 60 * (i + 1)),
					 0);
			st->last_start[k] = 1000 + i;
		}
		ck_assert_int_eq(view_readers_add(r, 1, "never-named"), 0);
		if (!rng_below(&g, 10))
			ck_assert_int_eq(view_readers_add(r, 1, NULL), 0);
		for (int i = 0; i < m; i++) {
			snprintf(name, sizeof(name), "a%d",
				 (int)rng_below(&g, 60));
			ck_assert_int_eq(view_readers_add(r, 1, name), 0);
		}
		a = hmrf_state_select_reader(st, view_readers_find(r, 1));
		b = hmrf_state_select(st, view_reader_keeps,
				      (void *)view_readers_find(r, 1));
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ja = hmrf_state_to_json(a);
		jb = hmrf_state_to_json(b);
		ck_assert_str_eq(json_object_to_json_string(ja),
				 json_object_to_json_string(jb));
		json_object_put(ja);
		json_object_put(jb);
		hmrf_state_destroy(&a);
		hmrf_state_destroy(&b);
		view_readers_destroy(&r);
		hmrf_state_destroy(&st);
	}
	ck_assert_ptr_null(hmrf_state_select_reader(NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* What readers see through the accessors is what the books wrote; a
 * reader's advance drops what the window has dropped by then. */
START_TEST(test_accessors_and_advance)
{
	window_spec_t w = { WINDOW_TUMBLING, 3600 };
	hmrf_state_t *st = hmrf_state_create(&w, 0, "cpu,mem", 1000, NULL);
	tres_vec_t r, u;

	ck_assert_ptr_nonnull(st);
	ck_assert_str_eq(hmrf_state_tres(st), "cpu,mem");
	ck_assert_int_eq(hmrf_state_account(st, "physics"), 0);
	tres_zero(&r);
	r.v[0] = 2;
	ck_assert_int_eq(ledger_charge(st->usage, 0, &r, 1000, 1600), 0);
	ck_assert_int_eq(ledger_charge(st->ns, 0, &r, 1000, 1300), 0);
	st->last_start[0] = 1200;
	st->charged_until = 1600;
	ck_assert_ptr_eq(hmrf_state_usage(st), st->usage);
	ck_assert_ptr_eq(hmrf_state_ns(st), st->ns);
	ck_assert_ptr_eq(hmrf_state_names(st), st->names);
	ck_assert_double_eq(hmrf_state_last_start(st, 0), 1200);
	ck_assert_double_eq(hmrf_state_last_start(st, 1), 0);
	ck_assert_double_eq(hmrf_state_last_start(st, -1), 0);
	ck_assert_double_eq(hmrf_state_charged_until(st), 1600);

	/* Not a time: nothing changes.  An earlier time: nothing changes. */
	ck_assert_int_eq(hmrf_state_advance(st, NAN), -EINVAL);
	ck_assert_int_eq(hmrf_state_advance(st, 1500), 0);
	ledger_usage(hmrf_state_usage(st), 0, &u);
	ck_assert_double_eq(u.v[0], 1200);
	ledger_usage(hmrf_state_ns(st), 0, &u);
	ck_assert_double_eq(u.v[0], 600);
	/* Past the tumbling boundary at 3600 both ledgers start again. */
	ck_assert_int_eq(hmrf_state_advance(st, 3700), 0);
	ledger_usage(hmrf_state_usage(st), 0, &u);
	ck_assert_double_eq(u.v[0], 0);
	ledger_usage(hmrf_state_ns(st), 0, &u);
	ck_assert_double_eq(u.v[0], 0);
	hmrf_state_destroy(&st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf_state");
	TCase *tc = tcase_create("hmrf_state");

	tcase_add_test(tc, test_roundtrip_through_file);
	tcase_add_test(tc, test_bad_documents);
	tcase_add_test(tc, test_select);
	tcase_add_test(tc, test_select_reader_generated);
	tcase_add_test(tc, test_retres);
	tcase_add_test(tc, test_accessors_and_advance);
	suite_add_tcase(s, tc);
	return check_run(s);
}
