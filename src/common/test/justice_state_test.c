/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_state_test.c - Check tests of justice_state.c: the counts
 * survive their JSON form; a missing or negative count is refused with
 * its name and changes nothing.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../justice_state.h"
#include "../state.h"

START_TEST(test_round_trip)
{
	justice_counts_t c = { 10, 2, 3, 4, 1, 9 }, back = { 0 };
	json_object *o = justice_counts_to_json(&c);
	json_object *p = json_tokener_parse(json_object_to_json_string(o));
	horae_err_t err;

	ck_assert_int_eq(justice_counts_from_json(p, &back, &err), 0);
	ck_assert(!memcmp(&c, &back, sizeof(c)));
	json_object_put(o);
	json_object_put(p);
}
END_TEST

START_TEST(test_bad)
{
	justice_counts_t c = { 1, 1, 1, 1, 1, 1 };
	horae_err_t err;
	json_object *o = json_tokener_parse(
		"{\"admitted\":1,\"sized\":0,\"refused\":-2,\"dropped\":0,"
		"\"killed\":0,\"learnt\":0}");

	ck_assert_int_eq(justice_counts_from_json(o, &c, &err), -EINVAL);
	ck_assert(strstr(err.text, "'refused' missing or not a count"));
	ck_assert_int_eq(c.admitted, 1); /* untouched */
	json_object_put(o);
	o = json_tokener_parse("{\"admitted\":1}");
	ck_assert_int_eq(justice_counts_from_json(o, &c, &err), -EINVAL);
	ck_assert(strstr(err.text, "'sized'"));
	json_object_put(o);
	ck_assert_int_eq(justice_counts_from_json(NULL, &c, &err), -EINVAL);
}
END_TEST

/* A file of this version loads as it is; one of version 1 (no records)
 * still loads, saying so; another kind or a future version does not. */
START_TEST(test_load_versions)
{
	char dir[] = "/tmp/horae-justice-state-test.XXXXXX", path[128];
	json_object *doc = json_tokener_parse("{\"counts\":{}}"), *back;
	horae_err_t warn, err;
	int version = -1;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/horae_justice.state", dir);
	ck_assert_int_eq(justice_state_load(path, &back, &version, &warn, &err),
			 -ENOENT);
	ck_assert_int_eq(state_save(path, JUSTICE_STATE_KIND, 1, doc, &err),
			 0);
	ck_assert_int_eq(justice_state_load(path, &back, &version, &warn, &err),
			 0);
	ck_assert_int_eq(version, 1);
	ck_assert_str_eq(warn.text, "");
	json_object_put(back);
	ck_assert_int_eq(state_save(path, JUSTICE_STATE_KIND,
				    JUSTICE_STATE_VERSION, doc, &err),
			 0);
	ck_assert_int_eq(justice_state_load(path, &back, &version, &warn, &err),
			 0);
	ck_assert_int_eq(version, JUSTICE_STATE_VERSION);
	json_object_put(back);
	/* Both snapshots (PATH and PATH.old) of a version not read. */
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(state_save(path, JUSTICE_STATE_KIND,
					    JUSTICE_STATE_VERSION + 1, doc,
					    &err),
				 0);
	ck_assert_int_eq(justice_state_load(path, &back, &version, &warn, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.text, "version"), "%s", err.text);
	json_object_put(doc);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_state");
	TCase *tc = tcase_create("justice_state");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_load_versions);
	suite_add_tcase(s, tc);
	return check_run(s);
}
