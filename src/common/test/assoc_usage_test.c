/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_usage_test.c - Check tests of assoc_usage.c: degenerate inputs;
 * the decay's half-life and that decaying twice is decaying once over the
 * sum; reset boundaries on a table of local times (TZ=UTC and a zone with
 * summer time), and against an independent model that walks the calendar
 * hour by hour on 2,000 generated spans; the seconds a job is charged.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "../assoc_usage.h"
#include "../rng.h"

/* 2026-11-23 00:00:00 UTC, a Monday. */
#define MON 1795392000.0
#define H 3600.0
#define D 86400.0

/* UsageFactor and billing in a charge, as multifactor charges: 2 CPUs
 * billed 2 each (4), 10 s, UsageFactor 2: 20 s charged, raw 80 (t0019
 * measures the same on a cluster under both plugins). */
START_TEST(test_charge)
{
	assoc_charge_t c;

	ck_assert_double_eq(assoc_usage_factor(2), 2);
	ck_assert_double_eq(assoc_usage_factor(0), 0);
	ck_assert_double_eq(assoc_usage_factor(-1), 1); /* unset */
	ck_assert_double_eq(assoc_usage_factor(NAN), 1);
	ck_assert_double_eq(assoc_usage_factor(INFINITY), 1);
	c = assoc_usage_charge(10, assoc_usage_factor(2), 4);
	ck_assert_double_eq(c.secs, 20);
	ck_assert_double_eq(c.raw, 80);
	c = assoc_usage_charge(10, assoc_usage_factor(-1), 2);
	ck_assert_double_eq(c.secs, 10);
	ck_assert_double_eq(c.raw, 20);
	c = assoc_usage_charge(10, assoc_usage_factor(0), 2); /* free QOS */
	ck_assert_double_eq(c.secs, 0);
	ck_assert_double_eq(c.raw, 0);
}
END_TEST

START_TEST(test_degenerate)
{
	ck_assert_double_eq(assoc_usage_decay(0, 100), 1);
	ck_assert_double_eq(assoc_usage_decay(-5, 100), 1);
	ck_assert_double_eq(assoc_usage_decay(H, 0), 1);
	ck_assert_double_eq(assoc_usage_decay(H, -1), 1);
	ck_assert_double_eq(assoc_usage_decay(NAN, 10), 1);
	ck_assert_double_eq(assoc_usage_decay(H, INFINITY), 1);
	ck_assert(!assoc_usage_reset_due(ASSOC_USAGE_RESET_NONE, 0, 1e9));
	ck_assert(!assoc_usage_reset_due(ASSOC_USAGE_RESET_DAILY, MON + H,
					 MON - H));
	ck_assert(!assoc_usage_reset_due(ASSOC_USAGE_RESET_DAILY, NAN, MON));
	ck_assert(!assoc_usage_reset_due(99, MON - H, MON + H));
	ck_assert_double_eq(assoc_usage_seconds(100, 50, 0, 200), 0);
}
END_TEST

START_TEST(test_decay)
{
	rng_t r;

	ck_assert_double_eq_tol(assoc_usage_decay(H, H), 0.5, 1e-15);
	ck_assert_double_eq_tol(assoc_usage_decay(7 * D, 14 * D), 0.25,
				1e-15);
	rng_seed(&r, gen_seed(19));
	for (int i = 0; i < 1000; i++) {
		double hl = 1 + rng_uniform(&r) * 30 * D;
		double a = rng_uniform(&r) * 10 * D, b = rng_uniform(&r) * D;

		ck_assert_double_eq_tol(assoc_usage_decay(hl, a) *
						assoc_usage_decay(hl, b),
					assoc_usage_decay(hl, a + b), 1e-12);
	}
}
END_TEST

static const struct {
	assoc_usage_reset_t r;
	double from, to;
	bool due;
} resets[] = {
	{ ASSOC_USAGE_RESET_DAILY, MON - H, MON, true },
	{ ASSOC_USAGE_RESET_DAILY, MON, MON + H, false }, /* (from, to] */
	{ ASSOC_USAGE_RESET_DAILY, MON + H, MON + 23 * H, false },
	{ ASSOC_USAGE_RESET_DAILY, MON + H, MON + 25 * H, true },
	/* Slurm's week starts on Sunday: MON - D, MON + 6 D. */
	{ ASSOC_USAGE_RESET_WEEKLY, MON - D - H, MON - D, true },
	{ ASSOC_USAGE_RESET_WEEKLY, MON - H, MON + H, false },
	{ ASSOC_USAGE_RESET_WEEKLY, MON - D + 1, MON + 5 * D, false },
	{ ASSOC_USAGE_RESET_WEEKLY, MON + 5 * D, MON + 6 * D, true },
	/* 2026-12-01 00:00 UTC = MON + 8 days */
	{ ASSOC_USAGE_RESET_MONTHLY, MON + 7 * D, MON + 8 * D, true },
	{ ASSOC_USAGE_RESET_MONTHLY, MON + 8 * D + 1, MON + 30 * D, false },
	{ ASSOC_USAGE_RESET_QUARTERLY, MON + 7 * D, MON + 8 * D, false },
	/* 2027-01-01 00:00 UTC = MON + 39 days */
	{ ASSOC_USAGE_RESET_QUARTERLY, MON + 38 * D, MON + 39 * D, true },
	{ ASSOC_USAGE_RESET_YEARLY, MON + 38 * D, MON + 39 * D, true },
	{ ASSOC_USAGE_RESET_YEARLY, MON + 39 * D, MON + 200 * D, false },
};

START_TEST(test_reset_table)
{
	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_msg(assoc_usage_reset_due(resets[_i].r, resets[_i].from,
					    resets[_i].to) == resets[_i].due,
		      "case %d: kind %d (%.0f, %.0f] should%s be due", _i,
		      resets[_i].r, resets[_i].from, resets[_i].to,
		      resets[_i].due ? "" : " not");
}
END_TEST

/* The model: walk (from, to] hour by hour (every boundary is on the hour,
 * in any zone this test uses) and look at the calendar. */
static bool _model(assoc_usage_reset_t r, double from, double to)
{
	for (double t = ceil(from / H) * H; t <= to; t += H) {
		time_t s = (time_t)t;
		struct tm tm;

		if (t <= from)
			continue;
		localtime_r(&s, &tm);
		if (tm.tm_hour || tm.tm_min || tm.tm_sec)
			continue;
		if (r == ASSOC_USAGE_RESET_DAILY ||
		    (r == ASSOC_USAGE_RESET_WEEKLY && tm.tm_wday == 0) ||
		    (r == ASSOC_USAGE_RESET_MONTHLY && tm.tm_mday == 1) ||
		    (r == ASSOC_USAGE_RESET_QUARTERLY && tm.tm_mday == 1 &&
		     tm.tm_mon % 3 == 0) ||
		    (r == ASSOC_USAGE_RESET_YEARLY && tm.tm_mday == 1 &&
		     tm.tm_mon == 0))
			return true;
	}
	return false;
}

START_TEST(test_reset_model)
{
	static const char *zones[] = { "UTC", "Europe/Berlin" };
	rng_t r;
	int due = 0;

	rng_seed(&r, gen_seed(7));
	for (int z = 0; z < 2; z++) {
		setenv("TZ", zones[z], 1);
		tzset();
		for (int i = 0; i < 1000; i++) {
			assoc_usage_reset_t k = 1 + (int)rng_below(&r, 5);
			double from = MON + rng_uniform(&r) * 400 * D;
			/* spans of minutes to weeks, most shorter than the
			 * period, so both answers come up often */
			double to = from + pow(10, rng_uniform(&r) * 3.2) * 600;
			bool want = _model(k, from, to);

			due += want;
			ck_assert_msg(assoc_usage_reset_due(k, from, to) ==
					      want,
				      "%s kind %d (%.0f, %.0f]: model says %d",
				      zones[z], k, from, to, want);
		}
	}
	/* Both answers were tried. */
	ck_assert_int_gt(due, 100);
	ck_assert_int_lt(due, 1900);
	setenv("TZ", "UTC", 1);
	tzset();
}
END_TEST

START_TEST(test_seconds)
{
	/* Running since 100, charged up to 150, now 200: 50 s. */
	ck_assert_double_eq(assoc_usage_seconds(100, 0, 150, 200), 50);
	ck_assert_double_eq(assoc_usage_seconds(100, INFINITY, 150, 200), 50);
	/* Started after the last charge: from its start. */
	ck_assert_double_eq(assoc_usage_seconds(170, 0, 150, 200), 30);
	/* Ended: up to its end, and nothing once charged past it. */
	ck_assert_double_eq(assoc_usage_seconds(100, 180, 150, 200), 30);
	ck_assert_double_eq(assoc_usage_seconds(100, 180, 190, 200), 0);
	/* Its end in the future of now (a clock step): up to now. */
	ck_assert_double_eq(assoc_usage_seconds(100, 300, 150, 200), 50);
}
END_TEST

START_TEST(test_reserved)
{
	/* A 60-s limit from 100 (ends at 160). */
	ck_assert_double_eq(assoc_usage_reserved(160, 100, 20, false), 20);
	ck_assert_double_eq(assoc_usage_reserved(160, 150, 20, false), 10);
	ck_assert_double_eq(assoc_usage_reserved(160, 170, 20, false), 0);
	/* Ended at 130 after charges up to 120: the last 40 s go back. */
	ck_assert_double_eq(assoc_usage_reserved(160, 120, 10, true), 40);
	ck_assert_double_eq(assoc_usage_reserved(160, 100, -1, false), 0);
	ck_assert_double_eq(assoc_usage_reserved(NAN, 100, 10, true), 0);
}
END_TEST

/* Charged pass by pass and at its end, a job gives back exactly what was
 * reserved for it, whatever the passes: generated runs. */
START_TEST(test_reserved_adds_up)
{
	rng_t r;

	rng_seed(&r, gen_seed(23));
	for (int i = 0; i < 500; i++) {
		double start = rng_uniform(&r) * 1000;
		double limit = 60 * (1 + (double)rng_below(&r, 100));
		double end = start + rng_uniform(&r) * 1.5 * limit;
		double charged = start - rng_uniform(&r) * 100, given = 0;

		for (double t = charged + 1 + rng_uniform(&r) * 90; t < end;
		     t += 1 + rng_uniform(&r) * 90) {
			double secs = assoc_usage_seconds(start, 0, charged,
							  t);

			given += assoc_usage_reserved(start + limit,
						      fmax(start, charged),
						      secs, false);
			charged = t;
		}
		given += assoc_usage_reserved(start + limit,
					      fmax(start, charged), 0, true);
		ck_assert_double_eq_tol(given, limit, 1e-6);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("assoc_usage");
	TCase *tc = tcase_create("assoc_usage");

	tcase_add_test(tc, test_degenerate);
	tcase_add_test(tc, test_charge);
	tcase_add_test(tc, test_decay);
	tcase_add_loop_test(tc, test_reset_table, 0,
			    sizeof(resets) / sizeof(resets[0]));
	tcase_add_test(tc, test_reset_model);
	tcase_add_test(tc, test_seconds);
	tcase_add_test(tc, test_reserved);
	tcase_add_test(tc, test_reserved_adds_up);
	suite_add_tcase(s, tc);
	return check_run(s);
}
