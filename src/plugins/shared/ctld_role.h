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
 * Without a backup nothing changes: the state is read at start.  This
 * file says when this slurmctld took control; the core's ctld_hold.h
 * what a plugin then does with its state.
 */
#ifndef HORAE_CTLD_ROLE_H
#define HORAE_CTLD_ROLE_H

#include <stdbool.h>
#include <time.h>

#include "common/ctld_hold.h" /* what to do with the state: the rule */

/* True in slurmctld when slurm.conf names a backup controller, so that
 * state must follow control (false in any other program). */
bool ctld_role_follows_control(void);

/* When this slurmctld took control; 0 while it is not in control (a
 * standby backup, or one still starting or taking over). */
time_t ctld_role_control(void);

#endif /* HORAE_CTLD_ROLE_H */
