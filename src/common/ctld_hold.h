/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_hold.h - the rule by which a plugin's state follows control of the
 * cluster when there is a backup controller: when a slurmctld reads the
 * state, when it acts on it (charges, saves, publishes), and when it must
 * drop it unsaved.  Plain numbers: the plugins learn from slurmctld when
 * it took control (src/plugins/shared/ctld_role.h) and ask here what to
 * do.
 *
 * held says since when the state is held: CTLD_HELD_ALWAYS (no backup:
 * read at start, never given up), CTLD_HELD_TAKING (read while slurmctld
 * takes control, before it says since when), CTLD_HELD_NONE (not held: a
 * standby, or given up), or the control time it was read for.  control
 * is when this slurmctld took control, 0 while it is not in control.
 */
#ifndef HORAE_CTLD_HOLD_H
#define HORAE_CTLD_HOLD_H

#include <time.h>

#define CTLD_HELD_ALWAYS ((time_t)-2)
#define CTLD_HELD_TAKING ((time_t)-1)
#define CTLD_HELD_NONE ((time_t)0)

typedef enum {
	CTLD_KEEP, /* act on the state */
	CTLD_READ, /* in control, not held for this control: read it, then
		    * set *held to control */
	CTLD_DROP, /* held, but control has passed on: drop it unsaved */
	CTLD_IDLE, /* not held, not in control: nothing */
} ctld_action_t;

/*
 * What to do now with state held since *held, this slurmctld in control
 * since control.  KEEP moves *held from TAKING to control once control is
 * known; DROP sets *held to NONE (if in control again, the next call
 * says READ).
 */
ctld_action_t ctld_hold_next(time_t *held, time_t control);

#endif /* HORAE_CTLD_HOLD_H */
