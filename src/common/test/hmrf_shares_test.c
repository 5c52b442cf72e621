/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_shares_test.c - Check tests of hmrf_shares.c: contributions and
 * fair shares split the capacity by weight among the counted accounts,
 * dominant and aggregate shares are fractions of what the window offered,
 * the document reads back with each account's window sums, one from an
 * older build (without them) reads too, and a damaged one is refused with
 * the field named.  On generated cases, the shares the reader works out
 * from version 2's weights and sums are those of a model written here
 * from their definitions, and a user's cut of the view keeps the
 * contributions of the whole.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../hmrf_shares.h"
#include "../rng.h"
#include "../view.h"
#include "test_seed.h"

/* 9 CPUs and 18 GB for 100 s; physics (weight 2) used 450 CPU-s and 450
 * GB-s, chem (1) 90 CPU-s and 720 GB-s; bio (1) has no demand and no
 * Account line. */
START_TEST(test_round_trip)
{
	tres_vec_t cap = { { 9, 18 } };
	hmrf_share_in_t in[3] = {
		{ "physics", 2, true, { { 450, 450 } }, { { 30, 60 } }, 990.5 },
		{ "chem", 1, true, { { 90, 720 } }, { { 0 } }, 0 },
		{ "bio", 1, false, { { 0, 0 } }, { { 0 } }, 0 },
	};
	json_object *doc = hmrf_shares_to_json(1000, 100, 2, &cap, in, 3);
	json_object *back;
	hmrf_shares_t s;
	const hmrf_share_row_t *r;
	horae_err_t err;

	ck_assert_ptr_nonnull(doc);
	back = json_tokener_parse(json_object_to_json_string(doc));
	ck_assert_int_eq(
		hmrf_shares_from_json(back, HMRF_SHARES_VERSION, &s, &err), 0);
	ck_assert_int_eq(s.ntres, 2);
	ck_assert_double_eq(s.capacity.v[1], 18);
	ck_assert_double_eq(s.span, 100);
	r = hmrf_shares_find(&s, "physics");
	ck_assert_double_eq_tol(r->contribution, 2.0 / 3, 1e-12);
	ck_assert_double_eq_tol(r->fair.v[0], 6, 1e-12);
	ck_assert_double_eq_tol(r->fair.v[1], 12, 1e-12);
	/* 450 / 900 CPU, 450 / 1800 mem: dominant 0.5, aggregate 0.375 */
	ck_assert_double_eq_tol(r->dominant, 0.5, 1e-12);
	ck_assert_double_eq_tol(r->aggregate, 0.375, 1e-12);
	/* the window sums, as given */
	ck_assert(s.has_usage && r->has_usage);
	ck_assert_double_eq(r->used.v[0], 450);
	ck_assert_double_eq(r->ns.v[1], 60);
	ck_assert_double_eq(r->last_start, 990.5);
	r = hmrf_shares_find(&s, "chem");
	ck_assert_double_eq_tol(r->contribution, 1.0 / 3, 1e-12);
	ck_assert_double_eq_tol(r->dominant, 0.4, 1e-12); /* 720 / 1800 */
	r = hmrf_shares_find(&s, "bio");
	ck_assert_double_eq(r->contribution, 0);
	ck_assert_double_eq(r->fair.v[0], 0);
	ck_assert_ptr_null(hmrf_shares_find(&s, "nobody"));
	hmrf_shares_free(&s);
	json_object_put(back);
	json_object_put(doc);
}
END_TEST

START_TEST(test_damaged)
{
	hmrf_shares_t s = { .n = 7 };
	horae_err_t err;
	json_object *doc = json_tokener_parse(
		"{\"at\":1,\"span\":10,\"ntres\":2,\"capacity\":[9],"
		"\"accounts\":[]}");

	ck_assert_int_eq(hmrf_shares_from_json(doc, 1, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "'capacity' has 1 values, not 2"));
	ck_assert_int_eq(s.n, 7); /* untouched */
	json_object_put(doc);
	doc = json_tokener_parse(
		"{\"at\":1,\"span\":10,\"ntres\":1,\"capacity\":[9],"
		"\"accounts\":[{\"account\":\"a\",\"weight\":1,"
		"\"contribution\":1,\"fair_share\":[9],"
		"\"dominant_share\":\"high\",\"aggregate_share\":0}]}");
	ck_assert_int_eq(hmrf_shares_from_json(doc, 1, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "'dominant_share' missing or not a finite number"));
	json_object_put(doc);
	/* An older build's row, without window sums: read, none claimed. */
	doc = json_tokener_parse(
		"{\"at\":1,\"span\":10,\"ntres\":1,\"capacity\":[9],"
		"\"accounts\":[{\"account\":\"a\",\"weight\":1,"
		"\"contribution\":1,\"fair_share\":[9],"
		"\"dominant_share\":0.5,\"aggregate_share\":0.5}]}");
	ck_assert_int_eq(hmrf_shares_from_json(doc, 1, &s, &err), 0);
	ck_assert(!s.has_usage && !s.rows[0].has_usage);
	hmrf_shares_free(&s);
	json_object_put(doc);
	/* Half of them: refused, the missing one named. */
	doc = json_tokener_parse(
		"{\"at\":1,\"span\":10,\"ntres\":1,\"capacity\":[9],"
		"\"accounts\":[{\"account\":\"a\",\"weight\":1,"
		"\"contribution\":1,\"fair_share\":[9],"
		"\"dominant_share\":0.5,\"aggregate_share\":0.5,"
		"\"used\":\"0x1p+2\",\"last_start\":0}]}");
	s.n = 7;
	ck_assert_int_eq(hmrf_shares_from_json(doc, 1, &s, &err), -EINVAL);
	ck_assert(strstr(err.text, "'ns'"));
	ck_assert_int_eq(s.n, 7);
	json_object_put(doc);
	/* A row short of a value, one too long, one not a number. */
	{
		static const char *bad[][2] = {
			{ "\"0x1p+2\"", "'used' value 2 is not a finite" },
			{ "\"1 2 3\"", "'used' has more than 2 values" },
			{ "\"1 inf\"", "'used' value 2 is not a finite" },
			{ "\"1,2\"", "'used' value 1 is not a finite" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char text[512];

			snprintf(text, sizeof(text),
				 "{\"at\":1,\"span\":10,\"ntres\":2,"
				 "\"capacity\":[9,9],\"accounts\":[{"
				 "\"account\":\"a\",\"weight\":1,"
				 "\"contribution\":1,\"fair_share\":[9,9],"
				 "\"dominant_share\":0.5,"
				 "\"aggregate_share\":0.5,\"used\":%s,"
				 "\"ns\":\"0 0\",\"last_start\":0}]}",
				 bad[i][0]);
			doc = json_tokener_parse(text);
			ck_assert_ptr_nonnull(doc);
			ck_assert_int_eq(
				hmrf_shares_from_json(doc, 1, &s, &err),
				-EINVAL);
			ck_assert_msg(strstr(err.text, bad[i][1]), "%s: %s",
				      bad[i][0], err.text);
			json_object_put(doc);
		}
	}
	/* No span yet: shares are 0, not NaN. */
	{
		tres_vec_t cap = { { 4 } };
		hmrf_share_in_t in = { "a", 1, true, { { 5 } }, { { 0 } },
				       0 };
		json_object *d = hmrf_shares_to_json(1, 0, 1, &cap, &in, 1);

		ck_assert_int_eq(
			hmrf_shares_from_json(d, HMRF_SHARES_VERSION, &s, &err),
			0);
		ck_assert_double_eq(s.rows[0].dominant, 0);
		hmrf_shares_free(&s);
		json_object_put(d);
	}
}
END_TEST

/* A value of the generated cases: 0 now and then, whole or not. */
static double _draw(rng_t *r, double scale)
{
	switch (rng_below(r, 4)) {
	case 0:
		return 0;
	case 1:
		return (double)rng_below(r, 1000);
	default:
		return rng_uniform(r) * scale;
	}
}

static bool _keep_odd(const char *account, void *arg)
{
	(void)arg;
	return (account[strlen(account) - 1] - '0') % 2;
}

/* Within rounding of the model's value. */
static void _near(double got, double want, const char *what, int c)
{
	ck_assert_msg(fabs(got - want) <= 1e-12 * fmax(1, fabs(want)),
		      "case %d: %s %.17g, the model %.17g", c, what, got, want);
}

START_TEST(test_generated)
{
	rng_t r;

	rng_seed(&r, gen_seed(0x5a4e5));
	for (int c = 0; c < 400; c++) {
		int ntres = 1 + (int)rng_below(&r, 4),
		    n = 1 + (int)rng_below(&r, 12);
		double span = rng_below(&r, 5) ? _draw(&r, 1e6) : 0, wsum = 0;
		hmrf_share_in_t in[12];
		char names[12][8];
		tres_vec_t cap;
		json_object *doc, *back, *cut;
		hmrf_shares_t s, part;
		horae_err_t err;
		int present = 0;

		tres_zero(&cap);
		for (int j = 0; j < ntres; j++) {
			cap.v[j] = rng_below(&r, 4) ? 1 + _draw(&r, 1e5) : 0;
			present += cap.v[j] > 0;
		}
		memset(in, 0, sizeof(in));
		for (int a = 0; a < n; a++) {
			snprintf(names[a], sizeof(names[a]), "a%d", a);
			in[a].name = names[a];
			in[a].weight = rng_below(&r, 2) ?
					       1 + (double)rng_below(&r, 4) :
					       rng_uniform(&r) * 3 + 1e-3;
			in[a].counted = rng_below(&r, 4) != 0;
			for (int j = 0; j < ntres; j++) {
				in[a].used.v[j] = _draw(&r, 1e9);
				in[a].ns.v[j] = _draw(&r, 1e9);
			}
			in[a].last_start = _draw(&r, 2e9);
			if (in[a].counted)
				wsum += in[a].weight;
		}
		doc = hmrf_shares_to_json(1e9, span, ntres, &cap, in, n);
		ck_assert_ptr_nonnull(doc);
		back = json_tokener_parse(json_object_to_json_string(doc));
		ck_assert_int_eq(hmrf_shares_from_json(
					 back, HMRF_SHARES_VERSION, &s, &err),
				 0);
		ck_assert_int_eq(s.n, n);
		ck_assert(s.has_usage);
		for (int a = 0; a < n; a++) {
			const hmrf_share_row_t *row = &s.rows[a];
			double k = in[a].counted ? in[a].weight / wsum : 0;
			double dom = 0, agg = 0;

			ck_assert_str_eq(row->name, names[a]);
			/* exact: what the plugin had */
			ck_assert(row->weight == in[a].weight);
			ck_assert(row->last_start == in[a].last_start);
			for (int j = 0; j < ntres; j++) {
				ck_assert(row->used.v[j] == in[a].used.v[j]);
				ck_assert(row->ns.v[j] == in[a].ns.v[j]);
			}
			_near(row->contribution, k, "contribution", c);
			for (int j = 0; j < ntres; j++) {
				double f = cap.v[j] * k;

				_near(row->fair.v[j], f, "fair share", c);
				if (cap.v[j] > 0 && span > 0) {
					double x = in[a].used.v[j] / cap.v[j] /
						   span;

					dom = fmax(dom, x);
					agg += x / present;
				}
			}
			_near(row->dominant, dom, "dominant share", c);
			_near(row->aggregate, agg, "aggregate share", c);
		}
		/* A user's cut: the contributions of the whole view. */
		cut = view_select_accounts(back, _keep_odd, NULL);
		ck_assert_ptr_nonnull(cut);
		ck_assert_int_eq(hmrf_shares_from_json(cut, HMRF_SHARES_VERSION,
						       &part, &err),
				 0);
		ck_assert_int_eq(part.n, n / 2);
		for (int i = 0; i < part.n; i++) {
			const hmrf_share_row_t *w =
				hmrf_shares_find(&s, part.rows[i].name);

			ck_assert(part.rows[i].contribution == w->contribution);
			ck_assert(part.rows[i].fair.v[0] == w->fair.v[0]);
		}
		hmrf_shares_free(&part);
		hmrf_shares_free(&s);
		json_object_put(cut);
		json_object_put(back);
		json_object_put(doc);
	}
}
END_TEST

/* Version 2's fields checked as version 1's are; a version out of range
 * refused by number. */
START_TEST(test_damaged_v2)
{
	/* the document's weight sum, the row's weight and counted */
	static const char *bad[][4] = {
		{ "\"weight_sum\":\"0x1p+0\"", "\"counted\":true",
		  "'weight' missing" },
		{ "\"weight_sum\":\"0x1p+0\"",
		  "\"weight\":\"-0x1p+0\",\"counted\":true",
		  "'weight' is negative" },
		{ "\"weight_sum\":\"0x1p+0\"",
		  "\"weight\":\"0x1p+0\",\"counted\":1",
		  "'counted' missing or of the wrong type" },
		{ "\"weight_sum\":1", "\"weight\":\"0x1p+0\",\"counted\":true",
		  "'weight_sum' missing or of the wrong type" },
		{ "\"other\":0", "\"weight\":\"0x1p+0\",\"counted\":true",
		  "'weight_sum' missing" },
	};
	hmrf_shares_t s = { .n = 7 };
	horae_err_t err;
	json_object *doc;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"at\":1,\"span\":10,\"ntres\":1,\"capacity\":[9],"
			 "%s,\"accounts\":[{\"account\":\"a\",%s,"
			 "\"used\":\"0\",\"ns\":\"0\",\"last_start\":0}]}",
			 bad[i][0], bad[i][1]);
		doc = json_tokener_parse(text);
		ck_assert_msg(doc != NULL, "%s", text);
		ck_assert_int_eq(hmrf_shares_from_json(doc, 2, &s, &err),
				 -EINVAL);
		ck_assert_msg(strstr(err.text, bad[i][2]), "%s: %s", text,
			      err.text);
		ck_assert_int_eq(s.n, 7);
		json_object_put(doc);
	}
	doc = json_tokener_parse("{}");
	ck_assert_int_eq(
		hmrf_shares_from_json(doc, HMRF_SHARES_VERSION + 1, &s, &err),
		-EINVAL);
	ck_assert(
		strstr(err.text, "format version 3, this build reads 1 to 2"));
	json_object_put(doc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf_shares");
	TCase *tc = tcase_create("hmrf_shares");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_damaged);
	tcase_add_test(tc, test_damaged_v2);
	tcase_add_test(tc, test_generated);
	suite_add_tcase(s, tc);
	return check_run(s);
}
