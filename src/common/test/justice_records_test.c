/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_records_test.c - Check tests of justice_records.c: the errno
 * contract, put/get/remove/iterate in key order, prune by a set of live
 * ids and by age, the JSON round trip, and bad JSON refused with the
 * record and field named and nothing built.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <string.h>

#include "../justice_records.h"

/* An elastic job of 1-4 nodes of 2 CPUs, sized to 2. */
static justice_record_t _rec(uint32_t key)
{
	justice_record_t r = { .key = key,
			       .uid = 1000,
			       .submit = 1795326400,
			       .deadline = 1795326460,
			       .max_cpus = 8,
			       .elastic = true,
			       .min_nodes = 1,
			       .max_nodes = 4,
			       .per_node = 2,
			       .limit_min = 2,
			       .allotted = 3,
			       .sized_to = 2,
			       .updated = 1795326400 };
	return r;
}

/* --- the errno contract --------------------------------------------------- */

START_TEST(test_badargs)
{
	justice_records_t *t = justice_records_create();
	justice_record_t r = _rec(5);
	horae_err_t err;

	ck_assert_ptr_nonnull(t);
	justice_records_destroy(NULL);
	ck_assert_int_eq(justice_records_put(NULL, &r, &err), -EINVAL);
	ck_assert_int_eq(justice_records_put(t, NULL, &err), -EINVAL);
	ck_assert_ptr_null(justice_records_get(NULL, 5));
	ck_assert_int_eq(justice_records_remove(NULL, 5), -ENOENT);
	ck_assert_int_eq(justice_records_remove(t, 5), -ENOENT);
	ck_assert_uint_eq(justice_records_count(NULL), 0);
	ck_assert_ptr_null(justice_records_at(NULL, 0));
	ck_assert_ptr_null(justice_records_at(t, 0));
	ck_assert_int_eq(justice_records_prune(NULL, NULL, 0, 0), -EINVAL);
	ck_assert_int_eq(justice_records_prune(t, NULL, 3, 0), -EINVAL);
	errno = 0;
	ck_assert_ptr_null(justice_records_from_json(NULL, &err));
	ck_assert_int_eq(errno, EINVAL);
	justice_records_destroy(&t);
	ck_assert_ptr_null(t);
	justice_records_destroy(&t); /* NULL-safe twice */
}
END_TEST

/* Bad records: refused, naming the field, and the table unchanged. */
START_TEST(test_bad_records)
{
	justice_records_t *t = justice_records_create();
	justice_record_t r;
	horae_err_t err;
	struct {
		justice_record_t r;
		const char *text;
	} bad[8];
	int n = 0;

	r = _rec(0);
	bad[n].r = r, bad[n++].text = "key out of range";
	r = _rec(0xffffffffu);
	bad[n].r = r, bad[n++].text = "key out of range";
	r = _rec(3), r.max_cpus = 0;
	bad[n].r = r, bad[n++].text = "not a CPU count";
	r = _rec(3), r.allotted = 1.0 / 0.0;
	bad[n].r = r, bad[n++].text = "not a CPU count";
	r = _rec(3), r.min_nodes = 5;
	bad[n].r = r, bad[n++].text = "node range 5-4";
	r = _rec(3), r.sized_to = 9;
	bad[n].r = r, bad[n++].text = "sized_to 9 outside";
	r = _rec(3), r.deadline = 0;
	bad[n].r = r, bad[n++].text = "deadline";
	r = _rec(3), r.elastic = false, r.sized_to = 0,
	r.limit_min = 0xfffffffeu;
	bad[n].r = r, bad[n++].text = "limit_min out of range";
	r = _rec(7);
	ck_assert_int_eq(justice_records_put(t, &r, &err), 0);
	for (int i = 0; i < n; i++) {
		err.text[0] = 0;
		ck_assert_int_eq(justice_records_put(t, &bad[i].r, &err),
				 -EINVAL);
		ck_assert_msg(strstr(err.text, bad[i].text), "case %d: %s", i,
			      err.text);
	}
	ck_assert_uint_eq(justice_records_count(t), 1);
	ck_assert_double_eq(justice_records_get(t, 7)->allotted, 3);
	justice_records_destroy(&t);
}
END_TEST

/* --- behaviour ------------------------------------------------------------ */

START_TEST(test_put_get_remove)
{
	justice_records_t *t = justice_records_create();
	uint32_t keys[] = { 40, 7, 900, 12, 8 };
	justice_record_t r;
	const justice_record_t *g;

	for (size_t i = 0; i < 5; i++) {
		r = _rec(keys[i]);
		ck_assert_int_eq(justice_records_put(t, &r, NULL), 0);
	}
	ck_assert_uint_eq(justice_records_count(t), 5);
	/* Iterated in key order. */
	ck_assert_uint_eq(justice_records_at(t, 0)->key, 7);
	ck_assert_uint_eq(justice_records_at(t, 1)->key, 8);
	ck_assert_uint_eq(justice_records_at(t, 4)->key, 900);
	ck_assert_ptr_null(justice_records_at(t, 5));
	/* Replace: same key, new facts, no new record. */
	r = _rec(12);
	r.sized_to = 4;
	r.allotted = 7;
	ck_assert_int_eq(justice_records_put(t, &r, NULL), 0);
	ck_assert_uint_eq(justice_records_count(t), 5);
	g = justice_records_get(t, 12);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->sized_to, 4);
	ck_assert_double_eq(g->allotted, 7);
	ck_assert_ptr_null(justice_records_get(t, 13));
	ck_assert_int_eq(justice_records_remove(t, 12), 0);
	ck_assert_int_eq(justice_records_remove(t, 12), -ENOENT);
	ck_assert_ptr_null(justice_records_get(t, 12));
	ck_assert_uint_eq(justice_records_count(t), 4);
	ck_assert_uint_eq(justice_records_at(t, 2)->key, 40);
	/* A rigid job: no range. */
	r = _rec(1);
	r.elastic = false;
	r.min_nodes = r.max_nodes = 0;
	r.per_node = 0;
	r.sized_to = 0;
	ck_assert_int_eq(justice_records_put(t, &r, NULL), 0);
	ck_assert_uint_eq(justice_records_at(t, 0)->key, 1);
	justice_records_destroy(&t);
}
END_TEST

START_TEST(test_prune)
{
	justice_records_t *t = justice_records_create();
	uint32_t live[] = { 30, 10 }; /* unsorted on purpose */
	justice_record_t r;

	for (uint32_t k = 10; k <= 40; k += 10) {
		r = _rec(k);
		r.updated = 1000 + k;
		ck_assert_int_eq(justice_records_put(t, &r, NULL), 0);
	}
	/* No filter: nothing dropped. */
	ck_assert_int_eq(justice_records_prune(t, NULL, 0, 0), 0);
	ck_assert_int_eq(justice_records_prune(t, live, 2, 0), 2);
	ck_assert_uint_eq(justice_records_count(t), 2);
	ck_assert_ptr_nonnull(justice_records_get(t, 10));
	ck_assert_ptr_nonnull(justice_records_get(t, 30));
	/* By age: 10 was updated at 1010, 30 at 1030. */
	ck_assert_int_eq(justice_records_prune(t, NULL, 0, 1020), 1);
	ck_assert_ptr_null(justice_records_get(t, 10));
	/* An empty live set drops everything. */
	ck_assert_int_eq(justice_records_prune(t, live, 0, 0), 1);
	ck_assert_uint_eq(justice_records_count(t), 0);
	justice_records_destroy(&t);
}
END_TEST

/* --- round trip ----------------------------------------------------------- */

/* Field by field: memcmp would compare the struct's padding, which no
 * assignment sets (it failed once in CI for that alone). */
static void _assert_same(const justice_record_t *a, const justice_record_t *b)
{
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(a->key, b->key);
	ck_assert_uint_eq(a->uid, b->uid);
	ck_assert_int_eq(a->submit, b->submit);
	ck_assert_int_eq(a->deadline, b->deadline);
	ck_assert_double_eq(a->max_cpus, b->max_cpus);
	ck_assert_int_eq(a->elastic, b->elastic);
	ck_assert_uint_eq(a->min_nodes, b->min_nodes);
	ck_assert_uint_eq(a->max_nodes, b->max_nodes);
	ck_assert_double_eq(a->per_node, b->per_node);
	ck_assert_uint_eq(a->limit_min, b->limit_min);
	ck_assert_double_eq(a->allotted, b->allotted);
	ck_assert_uint_eq(a->sized_to, b->sized_to);
	ck_assert_int_eq(a->updated, b->updated);
}

START_TEST(test_round_trip)
{
	justice_records_t *t = justice_records_create(), *back;
	justice_record_t r = _rec(3), big = _rec(70000);
	json_object *o, *p;
	horae_err_t err;

	ck_assert_int_eq(justice_records_put(t, &big, NULL), 0);
	r.elastic = false;
	r.min_nodes = r.max_nodes = 0;
	r.per_node = 0;
	r.sized_to = 0;
	r.limit_min = 0;
	r.allotted = 0.5;
	ck_assert_int_eq(justice_records_put(t, &r, NULL), 0);
	o = justice_records_to_json(t);
	ck_assert_ptr_nonnull(o);
	p = json_tokener_parse(json_object_to_json_string(o));
	back = justice_records_from_json(p, &err);
	ck_assert_msg(back != NULL, "%s", err.text);
	ck_assert_uint_eq(justice_records_count(back), 2);
	for (size_t i = 0; i < 2; i++)
		_assert_same(justice_records_at(t, i),
			     justice_records_at(back, i));
	json_object_put(o);
	json_object_put(p);
	justice_records_destroy(&back);
	/* The empty table too. */
	justice_records_destroy(&t);
	t = justice_records_create();
	o = justice_records_to_json(t);
	ck_assert_str_eq(json_object_to_json_string(o), "[ ]");
	back = justice_records_from_json(o, &err);
	ck_assert_ptr_nonnull(back);
	ck_assert_uint_eq(justice_records_count(back), 0);
	json_object_put(o);
	justice_records_destroy(&back);
	justice_records_destroy(&t);
}
END_TEST

/* --- bad JSON ------------------------------------------------------------- */

#define GOOD                                                             \
	"\"key\":5,\"uid\":1000,\"submit\":100,\"deadline\":200,"        \
	"\"max_cpus\":8,\"min_nodes\":1,\"max_nodes\":4,\"per_node\":2," \
	"\"limit_min\":2,\"allotted\":3,\"sized_to\":2,\"updated\":100"

static const struct {
	const char *json;
	const char *text;
} bad_json[] = {
	{ "{}", "not an array" },
	{ "[1]", "record 0: not an object" },
	{ "[{" GOOD "}]", "record 0: field 'elastic'" },
	{ "[{" GOOD ",\"elastic\":\"yes\"}]", "record 0: field 'elastic'" },
	{ "[{" GOOD ",\"elastic\":true},{" GOOD ",\"elastic\":true}]",
	  "record 1: key 5 repeated" },
	{ "[{\"key\":\"5\",\"uid\":1}]",
	  "record 0: field 'key' missing or not an integer" },
	{ "[{\"key\":-5}]", "record 0: field 'key' = -5 out of range" },
	{ "[{\"key\":4294967295}]", "field 'key' = 4294967295 out of range" },
	{ "[{\"key\":5,\"uid\":1000,\"submit\":1.5}]",
	  "record 0: field 'submit' missing or not an integer" },
	{ "[{\"key\":5,\"uid\":1000,\"submit\":100,\"deadline\":200,"
	  "\"max_cpus\":\"8\"}]",
	  "record 0: field 'max_cpus'" },
	{ "[{\"key\":5,\"uid\":1000,\"submit\":100,\"deadline\":200,"
	  "\"max_cpus\":8,\"min_nodes\":3,\"max_nodes\":2,\"per_node\":2,"
	  "\"limit_min\":2,\"allotted\":3,\"sized_to\":0,\"updated\":100,"
	  "\"elastic\":true}]",
	  "node range 3-2 of 2 CPUs cannot be sized" },
	{ "[{\"key\":5,\"uid\":1000,\"submit\":100,\"deadline\":200,"
	  "\"max_cpus\":-1,\"min_nodes\":0,\"max_nodes\":0,\"per_node\":0,"
	  "\"limit_min\":0,\"allotted\":0,\"sized_to\":0,\"updated\":100,"
	  "\"elastic\":false}]",
	  "max_cpus, allotted or per_node not a CPU count" },
};

START_TEST(test_bad_json)
{
	json_object *o = json_tokener_parse(bad_json[_i].json);
	horae_err_t err = { { 0 } };

	ck_assert_ptr_nonnull(o);
	errno = 0;
	ck_assert_ptr_null(justice_records_from_json(o, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(err.text, bad_json[_i].text), "case %d: '%s'", _i,
		      err.text);
	json_object_put(o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_records");
	TCase *tc = tcase_create("errno contract");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_bad_records);
	suite_add_tcase(s, tc);
	tc = tcase_create("behaviour");
	tcase_add_test(tc, test_put_get_remove);
	tcase_add_test(tc, test_prune);
	suite_add_tcase(s, tc);
	tc = tcase_create("round trip");
	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad JSON");
	tcase_add_loop_test(tc, test_bad_json, 0,
			    sizeof(bad_json) / sizeof(bad_json[0]));
	suite_add_tcase(s, tc);
	return check_run(s);
}
