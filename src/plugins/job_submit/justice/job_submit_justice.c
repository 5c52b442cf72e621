/*
 * job_submit_justice.c - job_submit/justice: deadline-aware admission
 * control (Justice).
 *
 * STILL PASS-THROUGH: until the Justice core lands (issue 5), every job is
 * accepted unchanged; jobs that carry a deadline (sbatch --deadline) are
 * logged so that one can see the plugin receives them.  It says so at init.
 *
 * Locks: slurmctld calls job_submit() and job_modify() with the job write
 * lock held (and the node and partition read locks).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"

const char plugin_name[] = "Horae Justice deadline-aware admission control";
const char plugin_type[] = "job_submit/justice";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

int init(void)
{
	info("%s: loaded; STILL PASS-THROUGH: every job is admitted until the Justice policy is enabled",
	     plugin_type);
	return SLURM_SUCCESS;
}

int fini(void)
{
	return SLURM_SUCCESS;
}

/* Log a deadline the plugin saw; job is "new job" or "job 123". */
static void _log_deadline(const char *job, const char *account, uint32_t uid,
			  time_t deadline)
{
	char when[32];
	struct tm tm;

	if (!deadline || deadline == (time_t)NO_VAL)
		return;
	localtime_r(&deadline, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	info("%s: %s uid=%u account=%s deadline=%s (in %" PRId64 " s): admitted (pass-through)",
	     plugin_type, job, uid, account ? account : "(default)", when,
	     (int64_t)(deadline - time(NULL)));
}

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid,
		      char **err_msg)
{
	_log_deadline("new job", job_desc->account, submit_uid,
		      job_desc->deadline);
	return SLURM_SUCCESS;
}

extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,
		      uint32_t submit_uid, char **err_msg)
{
	char job[32];

	snprintf(job, sizeof(job), "job %u", job_ptr->job_id);
	_log_deadline(job, job_ptr->account, submit_uid, job_desc->deadline);
	return SLURM_SUCCESS;
}
