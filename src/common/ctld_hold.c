/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_hold.c - see ctld_hold.h.
 */
#include "ctld_hold.h"

ctld_action_t ctld_hold_next(time_t *held, time_t control)
{
	if (*held == CTLD_HELD_ALWAYS)
		return CTLD_KEEP;
	if (*held == CTLD_HELD_TAKING) {
		if (control)
			*held = control;
		return CTLD_KEEP;
	}
	if (*held != CTLD_HELD_NONE) {
		if (*held == control)
			return CTLD_KEEP;
		*held = CTLD_HELD_NONE;
		return CTLD_DROP;
	}
	return control ? CTLD_READ : CTLD_IDLE;
}
