/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_role.c - whether this slurmctld is the one in control.  See
 * ctld_role.h.
 */
#include "config.h"

#include "slurm/slurm.h"

#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"

#include "ctld_role.h"

/*
 * slurmctld's own: 0 while standing by or starting, the time it took
 * control once in control (controller.c).  Weak: the plugins load in
 * programs that have none; there, and in a slurmctld without it, the
 * state is held from the start as without a backup.
 */
extern time_t control_time __attribute__((weak));

bool ctld_role_follows_control(void)
{
	return &control_time && running_in_slurmctld() &&
	       slurm_conf.control_cnt > 1;
}

time_t ctld_role_control(void)
{
	if (!&control_time)
		return 1;
	/* Written by slurmctld's main thread, read by ours. */
	return __atomic_load_n(&control_time, __ATOMIC_RELAXED);
}
