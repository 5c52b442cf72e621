/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_hold_test.c - Check tests of ctld_hold.c, as the lives of the two
 * controllers go: without a backup the state is always acted on; a
 * standby does nothing until it takes control, then reads once and acts;
 * a controller whose control passed on drops the state unsaved, once, and
 * reads it again when control comes back; state read while taking
 * control (before the time is known) is kept and bound to that control.
 */
#include <check.h>

#include "check_run.h"

#include "../ctld_hold.h"

START_TEST(test_no_backup)
{
	time_t held = CTLD_HELD_ALWAYS;

	/* Whatever slurmctld says of control: act, never give it up. */
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_KEEP);
	ck_assert_int_eq(ctld_hold_next(&held, 100), CTLD_KEEP);
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_KEEP);
	ck_assert(held == CTLD_HELD_ALWAYS);
}
END_TEST

START_TEST(test_standby_takes_over)
{
	time_t held = CTLD_HELD_NONE;

	/* Standing by: nothing, however often asked. */
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_IDLE);
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_IDLE);
	ck_assert(held == CTLD_HELD_NONE);
	/* In control since 500: read (the caller then holds it). */
	ck_assert_int_eq(ctld_hold_next(&held, 500), CTLD_READ);
	held = 500;
	ck_assert_int_eq(ctld_hold_next(&held, 500), CTLD_KEEP);
	ck_assert_int_eq(ctld_hold_next(&held, 500), CTLD_KEEP);
}
END_TEST

START_TEST(test_control_passes_and_returns)
{
	time_t held = 500;

	/* Control passed on (0 while standing by again): drop, once. */
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_DROP);
	ck_assert(held == CTLD_HELD_NONE);
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_IDLE);
	/* Control back, a new time: read again. */
	ck_assert_int_eq(ctld_hold_next(&held, 900), CTLD_READ);
	held = 900;
	ck_assert_int_eq(ctld_hold_next(&held, 900), CTLD_KEEP);
	/* Control lost and taken back between two calls: the state read
	 * for 900 is stale for 1200: drop, then read. */
	ck_assert_int_eq(ctld_hold_next(&held, 1200), CTLD_DROP);
	ck_assert_int_eq(ctld_hold_next(&held, 1200), CTLD_READ);
}
END_TEST

START_TEST(test_read_while_taking)
{
	time_t held = CTLD_HELD_TAKING;

	/* Read before slurmctld says it is in control: kept meanwhile. */
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_KEEP);
	ck_assert(held == CTLD_HELD_TAKING);
	/* Then bound to the control that follows, and kept with it. */
	ck_assert_int_eq(ctld_hold_next(&held, 700), CTLD_KEEP);
	ck_assert(held == 700);
	ck_assert_int_eq(ctld_hold_next(&held, 700), CTLD_KEEP);
	ck_assert_int_eq(ctld_hold_next(&held, 0), CTLD_DROP);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ctld_hold");
	TCase *tc = tcase_create("ctld_hold");

	tcase_add_test(tc, test_no_backup);
	tcase_add_test(tc, test_standby_takes_over);
	tcase_add_test(tc, test_control_passes_and_returns);
	tcase_add_test(tc, test_read_while_taking);
	suite_add_tcase(s, tc);
	return check_run(s);
}
