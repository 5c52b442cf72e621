/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_mark_test.c - Check tests of justice_mark.c: the errno contract;
 * the case that lost a job (one still COMPLETING when a later one is
 * learnt from); on generated job streams with random completion delays and
 * restarts, every job is learnt from exactly once, checked against a
 * plain set of the ids learnt; the cap; the JSON round trip, old state
 * files without seen_end, and bad JSON refused with the field named.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../justice_mark.h"
#include "../rng.h"

START_TEST(test_badargs)
{
	horae_err_t err;
	json_object *doc = json_object_new_object();

	justice_mark_destroy(NULL);
	ck_assert(!justice_mark_seen(NULL, 1, 0));
	ck_assert_int_eq(justice_mark_learnt(NULL, 1, 0), -EINVAL);
	justice_mark_waiting(NULL, 0);
	ck_assert_int_eq(justice_mark_close(NULL), -EINVAL);
	ck_assert_uint_eq(justice_mark_count(NULL), 0);
	ck_assert_int_eq(justice_mark_to_json(NULL, doc), -EINVAL);
	errno = 0;
	ck_assert_ptr_null(justice_mark_from_json(NULL, &err));
	ck_assert_int_eq(errno, EINVAL);
	json_object_put(doc);
}
END_TEST

/* Jobs 4 and 5 end at 100 and 101; 4 is still completing when 5 is learnt
 * from.  The old mark moved to 101 and never learnt from 4. */
START_TEST(test_completing_job_is_not_lost)
{
	justice_mark_t *m = justice_mark_create(50);

	justice_mark_waiting(m, 100);
	ck_assert(!justice_mark_seen(m, 5, 101));
	ck_assert_int_eq(justice_mark_learnt(m, 5, 101), 0);
	ck_assert_int_eq(justice_mark_close(m), 0);
	ck_assert(justice_mark_time(m) <= 100);
	ck_assert(!justice_mark_seen(m, 4, 100));
	ck_assert(justice_mark_seen(m, 5, 101));
	/* Next period: 4 is done. */
	ck_assert_int_eq(justice_mark_learnt(m, 4, 100), 0);
	ck_assert_int_eq(justice_mark_close(m), 0);
	ck_assert(justice_mark_time(m) == 101);
	ck_assert(justice_mark_seen(m, 4, 100));
	ck_assert(justice_mark_seen(m, 5, 101));
	ck_assert(!justice_mark_seen(m, 6, 101));
	ck_assert_uint_eq(justice_mark_count(m), 1);
	/* A job that ended before the mark was created is taken as seen. */
	ck_assert(justice_mark_seen(m, 3, 49));
	justice_mark_destroy(&m);
	ck_assert_ptr_null(m);
}
END_TEST

/* A restart between periods: the mark goes through its JSON. */
static justice_mark_t *_restart(justice_mark_t *m)
{
	json_object *doc = json_object_new_object();
	justice_mark_t *back;
	horae_err_t err;

	ck_assert_int_eq(justice_mark_to_json(m, doc), 0);
	back = justice_mark_from_json(doc, &err);
	ck_assert_msg(back, "%s", err.text);
	ck_assert(justice_mark_time(back) == justice_mark_time(m));
	ck_assert_uint_eq(justice_mark_count(back), justice_mark_count(m));
	json_object_put(doc);
	justice_mark_destroy(&m);
	return back;
}

#define NJOBS 400

/*
 * Generated streams: jobs end at random seconds (several in one second),
 * each stays completing for a random delay (mostly short, some long); a
 * period every second or few sees the job list as slurmctld would (ended
 * jobs, completing or not, for MinJobAge) and learns from each learnable
 * job the mark has not seen.  The model is a plain array of how often
 * each job was learnt from: exactly once, by the end.
 */
START_TEST(test_each_job_learnt_once)
{
	rng_t r, *rng = &r;
	double end[NJOBS], done[NJOBS];
	int times[NJOBS] = { 0 };
	justice_mark_t *m = justice_mark_create(0);
	double now = 0;

	rng_seed(rng, gen_seed(0x5eed0000u + (uint64_t)_i));
	for (int j = 0; j < NJOBS; j++) {
		end[j] = 1 + floor(rng_uniform(rng) * 300);
		done[j] = end[j] + (rng_uniform(rng) < 0.2 ?
					    floor(rng_uniform(rng) * 40) :
					    floor(rng_uniform(rng) * 3));
	}
	while (now < 400) {
		now += 1 + floor(rng_uniform(rng) * 4);
		for (int j = 0; j < NJOBS; j++) {
			/* MinJobAge 300 s: gone from the list after. */
			if (end[j] > now || now > done[j] + 300)
				continue;
			if (done[j] > now) {
				justice_mark_waiting(m, end[j]);
				continue;
			}
			if (justice_mark_seen(m, (uint32_t)j + 1, end[j]))
				continue;
			ck_assert_int_eq(justice_mark_learnt(
						 m, (uint32_t)j + 1, end[j]),
					 0);
			times[j]++;
		}
		ck_assert_int_eq(justice_mark_close(m), 0);
		ck_assert_uint_le(justice_mark_count(m), JUSTICE_MARK_MAX);
		if (rng_uniform(rng) < 0.1)
			m = _restart(m);
	}
	for (int j = 0; j < NJOBS; j++)
		ck_assert_msg(times[j] == 1,
			      "seed %d: job %d (end %.0f, done %.0f) learnt from %d times",
			      _i, j + 1, end[j], done[j], times[j]);
	justice_mark_destroy(&m);
}
END_TEST

/* More ids than the cap: the time moves past the oldest, whose jobs
 * count as seen; none is learnt from twice. */
START_TEST(test_cap)
{
	justice_mark_t *m = justice_mark_create(0);
	uint32_t n = JUSTICE_MARK_MAX + 10;

	justice_mark_waiting(m, 1); /* holds the time at 1 */
	for (uint32_t i = 1; i <= n; i++)
		ck_assert_int_eq(justice_mark_learnt(m, i, 1 + i), 0);
	ck_assert_int_eq(justice_mark_close(m), 0);
	ck_assert_uint_eq(justice_mark_count(m), JUSTICE_MARK_MAX);
	ck_assert(justice_mark_time(m) > 11 && justice_mark_time(m) <= 12);
	for (uint32_t i = 1; i <= n; i++)
		ck_assert_msg(justice_mark_seen(m, i, 1 + i), "job %u", i);
	justice_mark_destroy(&m);
}
END_TEST

START_TEST(test_old_state)
{
	const char *text = "{\"seen_time\":100,\"seen\":[7,3]}";
	json_object *doc = json_tokener_parse(text);
	horae_err_t err;
	justice_mark_t *m = justice_mark_from_json(doc, &err);

	ck_assert_msg(m, "%s", err.text);
	ck_assert(justice_mark_seen(m, 7, 100));
	ck_assert(justice_mark_seen(m, 3, 100));
	ck_assert(!justice_mark_seen(m, 4, 100));
	ck_assert(justice_mark_seen(m, 4, 99));
	justice_mark_destroy(&m);
	json_object_put(doc);
}
END_TEST

static const struct {
	const char *json, *text;
} bad_json[] = {
	{ "{\"seen\":[]}", "seen_time: missing" },
	{ "{\"seen_time\":\"x\",\"seen\":[]}", "seen_time: missing" },
	{ "{\"seen_time\":1}", "seen: missing" },
	{ "{\"seen_time\":1,\"seen\":{}}", "seen: missing" },
	{ "{\"seen_time\":1,\"seen\":[0]}", "seen[0]: not a job id" },
	{ "{\"seen_time\":1,\"seen\":[1,\"2\"]}", "seen[1]: not a job id" },
	{ "{\"seen_time\":1,\"seen\":[4294967296]}", "seen[0]: not a job id" },
	{ "{\"seen_time\":1,\"seen\":[1,1]}", "seen: job id 1 twice" },
	{ "{\"seen_time\":1,\"seen\":[1],\"seen_end\":[]}",
	  "seen_end: not an array as long as seen's (1)" },
	{ "{\"seen_time\":5,\"seen\":[1],\"seen_end\":[4]}",
	  "seen_end[0]: not a time at or after seen_time" },
	{ "{\"seen_time\":5,\"seen\":[1],\"seen_end\":[null]}",
	  "seen_end[0]: not a time" },
};

START_TEST(test_bad_json)
{
	json_object *doc = json_tokener_parse(bad_json[_i].json);
	horae_err_t err = { "" };

	ck_assert_ptr_nonnull(doc);
	errno = 0;
	ck_assert_ptr_null(justice_mark_from_json(doc, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(err.text, bad_json[_i].text), "case %d: '%s'",
		      _i, err.text);
	json_object_put(doc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("justice_mark");
	TCase *tc = tcase_create("errno contract");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("behaviour");
	tcase_add_test(tc, test_completing_job_is_not_lost);
	tcase_add_test(tc, test_cap);
	suite_add_tcase(s, tc);
	tc = tcase_create("generated streams");
	tcase_add_loop_test(tc, test_each_job_learnt_once, 0, 50);
	suite_add_tcase(s, tc);
	tc = tcase_create("JSON");
	tcase_add_test(tc, test_old_state);
	tcase_add_loop_test(tc, test_bad_json, 0,
			    sizeof(bad_json) / sizeof(bad_json[0]));
	suite_add_tcase(s, tc);
	return check_run(s);
}
