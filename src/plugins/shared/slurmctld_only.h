/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmctld_only.h - the symbols of slurmctld's own (not libslurmfull's)
 * that Horae's plugins use, declared weak.
 *
 * Slurm's commands load plugins too: every select plugin up to 24.11, and
 * sshare the priority plugin from 24.05.  There these symbols do not
 * exist, and a plugin that refers to one strongly fails to load ("undefined
 * symbol: lock_slurmctld"; sshare then stops).  Weak, they resolve to NULL
 * there, where the plugins never use them (their init() returns at once
 * outside slurmctld), and to slurmctld's own in slurmctld.  One weak
 * reference is not enough: one strong reference in any file of a plugin
 * makes the symbol strong, so horae_compat.h includes this header for
 * every file, and build/t0202 loads each plugin as a command would.
 */
#ifndef HORAE_SLURMCTLD_ONLY_H
#define HORAE_SLURMCTLD_ONLY_H

#pragma weak acct_db_conn
#pragma weak build_cg_bitmap
#pragma weak calc_job_billable_tres
#pragma weak control_time
#pragma weak deallocate_nodes
#pragma weak find_job_record
#pragma weak find_node_record
#pragma weak job_completion_logger
#pragma weak job_list
#pragma weak job_set_req_tres
#pragma weak job_state_set
#pragma weak last_job_update
#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld
#pragma weak slurmctld_tres_cnt
#pragma weak srun_allocate_abort
#pragma weak validate_operator
#pragma weak verify_lock

#endif /* HORAE_SLURMCTLD_ONLY_H */
