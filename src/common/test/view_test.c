/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view_test.c - Check tests of view.c: readers and their accounts, an
 * operator who sees everything, and a document cut to one reader; the
 * cuts that look a reader's accounts up (view_reader_pick,
 * view_rows_select) against asking view_reader_keeps() of every name or
 * row, on generated cases.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rng.h"
#include "../view.h"
#include "test_seed.h"

START_TEST(test_readers)
{
	view_readers_t *r = view_readers_create();
	const view_reader_t *u1, *op;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(view_readers_add(r, -1, "a"), -EINVAL);
	ck_assert_int_eq(view_readers_add(NULL, 1, "a"), -EINVAL);
	ck_assert_int_eq(view_readers_add(r, 1001, "a1"), 0);
	ck_assert_int_eq(view_readers_add(r, 1001, "a1"), 0);
	ck_assert_int_eq(view_readers_add(r, 1002, "a2"), 0);
	ck_assert_int_eq(view_readers_add(r, 1001, "a3"), 0);
	ck_assert_int_eq(view_readers_add(r, 7, NULL), 0);
	ck_assert_int_eq(view_readers_count(r), 3);
	ck_assert_int_eq(view_reader_uid(view_readers_get(r, 0)), 1001);
	ck_assert_int_eq(view_reader_uid(view_readers_get(r, 2)), 7);
	ck_assert_ptr_null(view_readers_get(r, 3));
	ck_assert_ptr_null(view_readers_find(r, 1003));
	u1 = view_readers_find(r, 1001);
	ck_assert(view_reader_keeps("a1", (void *)u1));
	ck_assert(view_reader_keeps("a3", (void *)u1));
	ck_assert(!view_reader_keeps("a2", (void *)u1));
	ck_assert(!view_reader_keeps("a", (void *)u1));
	ck_assert(!view_reader_keeps(NULL, (void *)u1));
	op = view_readers_find(r, 7);
	ck_assert(view_reader_keeps("a2", (void *)op));
	ck_assert(view_reader_keeps("anything", (void *)op));
	view_readers_destroy(&r);
	ck_assert_ptr_null(r);
	view_readers_destroy(NULL);
}
END_TEST

START_TEST(test_many_readers)
{
	view_readers_t *r = view_readers_create();
	char acct[32];

	for (long uid = 0; uid < 5000; uid++) {
		snprintf(acct, sizeof(acct), "a%ld", uid % 17);
		ck_assert_int_eq(view_readers_add(r, uid, acct), 0);
	}
	ck_assert_int_eq(view_readers_count(r), 5000);
	ck_assert(view_reader_keeps("a3", (void *)view_readers_find(r, 20)));
	ck_assert(!view_reader_keeps("a4", (void *)view_readers_find(r, 20)));
	view_readers_destroy(&r);
}
END_TEST

START_TEST(test_select_accounts)
{
	const char *text =
		"{\"at\":10,\"fair_share\":0.5,\"accounts\":["
		"{\"account\":\"a1\",\"progress\":1},"
		"{\"account\":\"a2\",\"progress\":2},"
		"{\"progress\":3},"
		"{\"account\":\"a3\",\"progress\":4}]}";
	json_object *doc = json_tokener_parse(text), *cut, *rows, *v;
	view_readers_t *r = view_readers_create();

	ck_assert_int_eq(view_readers_add(r, 1, "a3"), 0);
	ck_assert_int_eq(view_readers_add(r, 1, "a1"), 0);
	cut = view_select_accounts(doc, view_reader_keeps,
				   (void *)view_readers_find(r, 1));
	ck_assert_ptr_nonnull(cut);
	ck_assert(json_object_object_get_ex(cut, "at", &v));
	ck_assert_int_eq(json_object_get_int(v), 10);
	ck_assert(json_object_object_get_ex(cut, "fair_share", &v));
	ck_assert(json_object_object_get_ex(cut, "accounts", &rows));
	ck_assert_int_eq(json_object_array_length(rows), 2);
	ck_assert(json_object_object_get_ex(
		json_object_array_get_idx(rows, 1), "account", &v));
	ck_assert_str_eq(json_object_get_string(v), "a3");
	/* The original is untouched. */
	ck_assert(json_object_object_get_ex(doc, "accounts", &rows));
	ck_assert_int_eq(json_object_array_length(rows), 4);
	json_object_put(cut);
	json_object_put(doc);
	doc = json_tokener_parse("{\"accounts\":{}}");
	ck_assert_ptr_null(view_select_accounts(doc, view_reader_keeps, NULL));
	ck_assert_int_eq(errno, EINVAL);
	json_object_put(doc);
	view_readers_destroy(&r);
}
END_TEST

/* A reader of up to 8 accounts drawn from names a0..a{universe-1} (some
 * twice), or one in ten an operator, as uid 1 of r. */
static const view_reader_t *_gen_reader(view_readers_t *r, rng_t *g,
					int universe)
{
	char name[16];
	int n = (int)rng_below(g, 9);

	if (!rng_below(g, 10))
		ck_assert_int_eq(view_readers_add(r, 1, NULL), 0);
	/* a reader with no account at all is not one: uid 1 is made */
	ck_assert_int_eq(view_readers_add(r, 1, "never-named"), 0);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "a%d",
			 (int)rng_below(g, (uint64_t)universe));
		ck_assert_int_eq(view_readers_add(r, 1, name), 0);
		if (!rng_below(g, 4))
			ck_assert_int_eq(view_readers_add(r, 1, name), 0);
	}
	return view_readers_find(r, 1);
}

/* Readers made of pairs added in runs (the same pair again, the same user
 * with another account, an operator's NULL), as the plugins add a pair
 * per job, see what a plain table of the pairs says, over 200 generated
 * sequences of 300 pairs of 10 users and 10 accounts. */
START_TEST(test_readers_generated)
{
	rng_t g;
	char name[16];

	rng_seed(&g, gen_seed(7303));
	for (int c = 0; c < 200; c++) {
		view_readers_t *r = view_readers_create();
		bool sees[10][10] = { { false } }, all[10] = { false };
		bool is[10] = { false };
		int u = 0, a = 0, users = 0;

		for (int i = 0; i < 300; i++) {
			uint64_t step = rng_below(&g, 10);

			if (step >= 5) { /* the same pair again */
			} else if (step >= 3) {
				a = (int)rng_below(&g, 10);
			} else {
				u = (int)rng_below(&g, 10);
				a = (int)rng_below(&g, 10);
			}
			snprintf(name, sizeof(name), "a%d", a);
			if (!rng_below(&g, 50)) {
				ck_assert_int_eq(view_readers_add(r, u, NULL),
						 0);
				all[u] = true;
			} else {
				ck_assert_int_eq(view_readers_add(r, u, name),
						 0);
				sees[u][a] = true;
			}
			is[u] = true;
		}
		for (int x = 0; x < 10; x++) {
			const view_reader_t *v = view_readers_find(r, x);

			users += is[x];
			ck_assert_int_eq(v != NULL, is[x]);
			for (int y = 0; v && y < 10; y++) {
				snprintf(name, sizeof(name), "a%d", y);
				ck_assert_int_eq(view_reader_keeps(name,
								   (void *)v),
						 all[x] || sees[x][y]);
			}
		}
		ck_assert_int_eq(view_readers_count(r), users);
		view_readers_destroy(&r);
	}
}
END_TEST

/* Readers of many uids drawn from the whole range, each found again and
 * in the order first added, against a plain list of the uids added; uids
 * never added are not found (60 cases of up to 1,500 uids). */
START_TEST(test_readers_many_generated)
{
	rng_t g;

	rng_seed(&g, gen_seed(7307));
	for (int c = 0; c < 60; c++) {
		int npool = 1 + (int)rng_below(&g, 1500), nfirst = 0;
		long *pool = malloc(npool * sizeof(*pool));
		long *first = malloc(npool * sizeof(*first));
		view_readers_t *r = view_readers_create();

		ck_assert_ptr_nonnull(pool);
		ck_assert_ptr_nonnull(first);
		/* distinct uids: i in the low bits, the rest at random */
		for (int i = 0; i < npool; i++)
			pool[i] = (long)((rng_below(&g, 1 << 20) << 11) | i);
		for (int k = 0, n = 3 * npool; k < n; k++) {
			int i = (int)rng_below(&g, npool);
			bool seen = false;

			for (int j = 0; j < nfirst && !seen; j++)
				seen = first[j] == pool[i];
			if (!seen)
				first[nfirst++] = pool[i];
			ck_assert_int_eq(view_readers_add(r, pool[i], "a"), 0);
		}
		ck_assert_int_eq(view_readers_count(r), nfirst);
		for (int j = 0; j < nfirst; j++) {
			ck_assert_int_eq(view_reader_uid(view_readers_get(r, j)),
					 first[j]);
			ck_assert_ptr_eq(view_readers_find(r, first[j]),
					 view_readers_get(r, j));
		}
		for (int i = 0; i < npool; i++) {
			bool seen = false;

			for (int j = 0; j < nfirst && !seen; j++)
				seen = first[j] == pool[i];
			ck_assert_int_eq(view_readers_find(r, pool[i]) != NULL,
					 seen);
			/* the same low bits, never added */
			ck_assert_ptr_null(
				view_readers_find(r, pool[i] | (1L << 40)));
		}
		view_readers_destroy(&r);
		free(pool);
		free(first);
	}
}
END_TEST

/* view_reader_pick() gives the indices view_reader_keeps() accepts, in
 * order, over 300 tables of up to 60 names and readers drawn at random. */
START_TEST(test_pick_generated)
{
	rng_t g;
	char name[16];
	int idx[64], want[64];

	rng_seed(&g, gen_seed(7301));
	for (int c = 0; c < 300; c++) {
		names_t *in = names_create();
		view_readers_t *r = view_readers_create();
		int n = (int)rng_below(&g, 61), k, m = 0;
		const view_reader_t *v;

		/* up to n names, drawn from a0..a99 (repeats fold) */
		for (int i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "a%d",
				 (int)rng_below(&g, 100));
			ck_assert_int_ge(names_intern(in, name), 0);
		}
		v = _gen_reader(r, &g, 100);
		for (int i = 0; i < names_count(in); i++)
			if (view_reader_keeps(names_get(in, i), (void *)v))
				want[m++] = i;
		k = view_reader_pick(v, in, idx);
		ck_assert_int_eq(k, m);
		for (int i = 0; i < k; i++)
			ck_assert_int_eq(idx[i], want[i]);
		names_destroy(&in);
		view_readers_destroy(&r);
	}
	ck_assert_int_eq(view_reader_pick(NULL, NULL, idx), -EINVAL);
}
END_TEST

/* A shares-like document of up to 40 rows naming accounts of a0..a29,
 * some twice, some rows without an account or with a number for one. */
static json_object *_gen_doc(rng_t *g)
{
	json_object *doc = json_object_new_object();
	json_object *rows = json_object_new_array();
	int n = (int)rng_below(g, 41);
	char name[16];

	json_object_object_add(doc, "at", json_object_new_int(10));
	json_object_object_add(doc, "fair_share", json_object_new_double(0.5));
	for (int i = 0; i < n; i++) {
		json_object *row = json_object_new_object();
		uint64_t kind = rng_below(g, 20);

		snprintf(name, sizeof(name), "a%d", (int)rng_below(g, 30));
		if (kind == 0)
			json_object_object_add(row, "account",
					       json_object_new_int(3));
		else if (kind > 1)
			json_object_object_add(row, "account",
					       json_object_new_string(name));
		json_object_object_add(row, "row", json_object_new_int(i));
		json_object_array_add(rows, row);
	}
	json_object_object_add(doc, "accounts", rows);
	return doc;
}

/* view_rows_select() gives what view_select_accounts() with
 * view_reader_keeps gives, byte for byte, over 300 generated documents
 * and readers, several readers a document. */
START_TEST(test_rows_generated)
{
	rng_t g;

	rng_seed(&g, gen_seed(7302));
	for (int c = 0; c < 300; c++) {
		json_object *doc = _gen_doc(&g);
		view_rows_t *rows = view_rows_create(doc);

		ck_assert_ptr_nonnull(rows);
		for (int t = 0; t < 3; t++) {
			view_readers_t *r = view_readers_create();
			const view_reader_t *v = _gen_reader(r, &g, 30);
			json_object *a = view_rows_select(rows, v);
			json_object *b = view_select_accounts(
				doc, view_reader_keeps, (void *)v);

			ck_assert_ptr_nonnull(a);
			ck_assert_ptr_nonnull(b);
			ck_assert_str_eq(json_object_to_json_string(a),
					 json_object_to_json_string(b));
			json_object_put(a);
			json_object_put(b);
			view_readers_destroy(&r);
		}
		/* the index holds its own reference to the document */
		json_object_put(doc);
		view_rows_destroy(&rows);
		ck_assert_ptr_null(rows);
	}
}
END_TEST

START_TEST(test_rows_bad)
{
	json_object *doc = json_tokener_parse("{\"accounts\":{}}");
	view_readers_t *r = view_readers_create();
	view_rows_t *rows;

	ck_assert_ptr_null(view_rows_create(doc));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(view_rows_create(NULL));
	ck_assert_int_eq(errno, EINVAL);
	json_object_put(doc);
	doc = json_tokener_parse("{\"accounts\":[]}");
	rows = view_rows_create(doc);
	ck_assert_ptr_nonnull(rows);
	ck_assert_ptr_null(view_rows_select(rows, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(view_readers_add(r, 1, "a"), 0);
	ck_assert_ptr_null(view_rows_select(NULL, view_readers_find(r, 1)));
	ck_assert_int_eq(errno, EINVAL);
	view_rows_destroy(&rows);
	view_rows_destroy(&rows);
	view_rows_destroy(NULL);
	json_object_put(doc);
	view_readers_destroy(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");

	tcase_add_test(tc, test_readers);
	tcase_add_test(tc, test_many_readers);
	tcase_add_test(tc, test_select_accounts);
	tcase_add_test(tc, test_readers_generated);
	tcase_add_test(tc, test_readers_many_generated);
	tcase_add_test(tc, test_pick_generated);
	tcase_add_test(tc, test_rows_generated);
	tcase_add_test(tc, test_rows_bad);
	suite_add_tcase(s, tc);
	return check_run(s);
}
