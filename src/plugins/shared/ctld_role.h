/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_role.h - whether this slurmctld is the one in control, for the
 * plugins whose state Slurm neither loads nor saves at a takeover.
 *
 * With a backup controller (more than one SlurmctldHost) the controllers
 * share StateSaveLocation.  slurmctld loads its select and job_submit
 * plugins when the process starts, also in a backup standing by, and
 * never unloads them when control passes; the priority plugin it loads
 * only in control.  So select/eunomia and job_submit/justice hold their
 * state only while their slurmctld is in control: they read it when
 * their slurmctld takes control (a backup taking over, or a primary
 * taking control back), and never write it once control has passed on,
 * so that a standby never overwrites what the controller in charge saves.
 * Without a backup nothing changes: the state is read at start.
 */
#ifndef HORAE_CTLD_ROLE_H
#define HORAE_CTLD_ROLE_H

#include <stdbool.h>
#include <time.h>

/* Held since start, no backup configured: never given up. */
#define CTLD_HELD_ALWAYS ((time_t)-2)
/* Read while slurmctld takes control (read_slurm_conf), before it says
 * it is in control. */
#define CTLD_HELD_TAKING ((time_t)-1)
/* Not held: a standby, or control given up. */
#define CTLD_HELD_NONE ((time_t)0)

/* True in slurmctld when slurm.conf names a backup controller, so that
 * state must follow control (false in any other program). */
bool ctld_role_follows_control(void);

/* When this slurmctld took control; 0 while it is not in control (a
 * standby backup, or one still starting or taking over). */
time_t ctld_role_control(void);

/*
 * What a plugin that holds its state since held (CTLD_HELD_*, or the
 * control time it was read for) must do now, in control since control
 * (ctld_role_control()): CTLD_KEEP (act on it; *held may move from
 * TAKING to control), CTLD_READ (in control, the state not held for this
 * control: read it, then set *held to control), CTLD_DROP (held, but
 * control has passed on: drop it unsaved, *held becomes NONE; then, if
 * in control again, read), CTLD_IDLE (not held, not in control: do
 * nothing).
 */
typedef enum {
	CTLD_KEEP,
	CTLD_READ,
	CTLD_DROP,
	CTLD_IDLE,
} ctld_action_t;

ctld_action_t ctld_role_next(time_t *held, time_t control);

#endif /* HORAE_CTLD_ROLE_H */
