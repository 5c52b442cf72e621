/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_submit_justice.c - job_submit/justice: deadline-aware admission
 * control (Justice, justice-deadline-admission.md).  Slurm's entry points
 * and the period thread; the policy is in src/common (justice.c,
 * justice_history.c), the translation of job records in justice_jobs.c.
 *
 * Jobs submitted with a deadline (sbatch --deadline) are estimated from
 * the jobs that finished before them and refused when they cannot make
 * it, or admitted, a node range sized to just enough nodes.  Every Period
 * the plugin learns from deadline jobs that finished, drops pending ones
 * that can no longer make it, terminates late running ones above
 * KillAbove CPUs and sets the urgency of the rest as their site factor.
 *
 * Locks, in this order: slurmctld's (job_submit and job_modify are called
 * with at least the config, job, node and partition read locks; the
 * thread takes the config, partition and federation read locks and the
 * job and node write locks, as slurmctld's time-limit check does), then
 * our mutex.  The state file is written with no lock held.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "ctld_role.h"
#include "horae_compat.h"
#include "justice_ctx.h"
#include "justice_jobs.h"
#include "periodic.h"

#pragma weak verify_lock

const char plugin_name[] = "Horae Justice deadline-aware admission control";
const char plugin_type[] = "job_submit/justice";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* Set by slurmctld -i: start even if saved state cannot be read. */
extern bool ignore_state_errors __attribute__((weak));

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static justice_ctx_t *ctx;
static periodic_t *ticker;
/* slurm_conf.last_update when justice.conf was last read. */
static time_t conf_read_at;
/* Since when ctx is held (ctld_role.h); with a backup controller ctx
 * exists only while this slurmctld is in control, and until then the
 * settings wait here. */
static time_t held = CTLD_HELD_ALWAYS;
static justice_conf_t standby_conf;

static void _describe(const justice_conf_t *conf, const char *path,
		      bool missing);
static int _reread(justice_conf_t *conf);

/* As slurmctld's own time-limit check: terminating a job deallocates its
 * nodes, which needs the node write lock. */
static const slurmctld_lock_t job_write_lock = {
	.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
	.part = READ_LOCK, .fed = READ_LOCK };

static void _save(json_object *snap, char *path)
{
	justice_ctx_save(path, snap);
	json_object_put(snap);
	xfree(path);
}

/*
 * With a backup controller: read the state when this slurmctld has taken
 * control, drop it unsaved once control has passed on (the controller in
 * charge writes it now).  Mutex held.
 */
static void _follow_control_locked(void)
{
	bool start_empty = &ignore_state_errors && ignore_state_errors;
	time_t control = ctld_role_control();

	for (;;) {
		switch (ctld_hold_next(&held, control)) {
		case CTLD_DROP:
			info("%s: control has passed to another slurmctld: leaving the learnt history and records to it",
			     plugin_type);
			standby_conf = ctx->conf;
			justice_ctx_destroy(&ctx);
			continue;
		case CTLD_READ:
			if (slurm_conf.last_update != conf_read_at) {
				conf_read_at = slurm_conf.last_update;
				_reread(&standby_conf);
			}
			info("%s: taking control: reading the learnt history and records",
			     plugin_type);
			ctx = justice_ctx_create(&standby_conf,
						 slurm_conf.state_save_location,
						 start_empty);
			if (!ctx)
				fatal("%s: cannot take control: see the errors above",
				      plugin_type);
			held = control;
			return;
		default:
			return;
		}
	}
}

static void _tick(void *arg)
{
	json_object *snap;
	char *path;

	lock_slurmctld(job_write_lock);
	slurm_mutex_lock(&mutex);
	_follow_control_locked();
	if (!ctx) {
		slurm_mutex_unlock(&mutex);
		unlock_slurmctld(job_write_lock);
		return;
	}
	/* Slurm 22.05 tells a job_submit plugin nothing of scontrol
	 * reconfigure: slurmctld's config time moving on says it (in
	 * whole seconds: a reconfigure in the same second as the last
	 * goes unseen). */
	if (slurm_conf.last_update != conf_read_at) {
		conf_read_at = slurm_conf.last_update;
		_reread(&ctx->conf);
	}
	justice_period(ctx, time(NULL));
	snap = justice_ctx_snapshot(ctx);
	path = xstrdup(ctx->state_path);
	slurm_mutex_unlock(&mutex);
	unlock_slurmctld(job_write_lock);
	_save(snap, path);
}

static double _period(void *arg)
{
	double period;

	slurm_mutex_lock(&mutex);
	period = ctx ? ctx->conf.period : standby_conf.period;
	slurm_mutex_unlock(&mutex);
	return period;
}

static void _describe(const justice_conf_t *conf, const char *path,
		      bool missing)
{
	info("%s: policy %s, history of %d jobs, bootstrap %ld jobs, period %.0fs, kill above %.0f CPUs, elastic sizing %s, urgency %.0f by %s order (%s%s)",
	     plugin_type, justice_policy_name(conf->policy),
	     conf->history_length, conf->bootstrap, conf->period,
	     conf->kill_above, conf->elastic ? "on" : "off",
	     conf->urgency_weight,
	     conf->order == JUSTICE_ORDER_DEADLINE ? "deadline" : "justice",
	     path, missing ? ": not found, defaults" : "");
}

/* justice.conf; a bad file stops slurmctld. */
static void _read_conf(justice_conf_t *conf)
{
	char *path = get_extra_conf_path("justice.conf");
	horae_err_t err;
	int rc;

	justice_conf_init(conf);
	rc = justice_conf_read(conf, path, &err);
	if (rc && rc != -ENOENT)
		fatal("%s: %s", plugin_type, err.text);
	_describe(conf, path, rc == -ENOENT);
	xfree(path);
}

/*
 * At reconfigure: justice.conf again into *conf (the settings in force);
 * a bad file is logged with file:line and changes nothing.  The history's
 * length and smoothing shape the history already learnt: a change of
 * them waits for a restart.  Called with the plugin's mutex held.
 */
static int _reread(justice_conf_t *conf)
{
	char *path = get_extra_conf_path("justice.conf");
	justice_conf_t next;
	horae_err_t err;
	int rc;

	justice_conf_init(&next);
	rc = justice_conf_read(&next, path, &err);
	if (rc && rc != -ENOENT) {
		error("%s: reconfigure: %s; the settings in force stay",
		      plugin_type, err.text);
		goto out;
	}
	if (next.history_length != conf->history_length ||
	    next.smoothing != conf->smoothing || next.alpha != conf->alpha) {
		info("%s: reconfigure: HistoryLength and Smoothing change when slurmctld restarts",
		     plugin_type);
		next.history_length = conf->history_length;
		next.smoothing = conf->smoothing;
		next.alpha = conf->alpha;
	}
	*conf = next;
	info("%s: reconfigure: %s read again", plugin_type, path);
	_describe(conf, path, rc == -ENOENT);
	rc = 0;
out:
	xfree(path);
	return rc;
}

int init(void)
{
	justice_conf_t conf;
	bool start_empty = &ignore_state_errors && ignore_state_errors;

	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	_read_conf(&conf);
	conf_read_at = slurm_conf.last_update;
	if (ctld_role_follows_control()) {
		/* Read when this slurmctld takes control. */
		standby_conf = conf;
		held = CTLD_HELD_NONE;
	} else {
		ctx = justice_ctx_create(&conf, slurm_conf.state_save_location,
					 start_empty);
		if (!ctx)
			fatal("%s: cannot start: see the errors above",
			      plugin_type);
	}
	ticker = periodic_start("justice", _tick, _period, NULL);
	return SLURM_SUCCESS;
}

int fini(void)
{
	json_object *snap;
	char *path;

	periodic_stop(&ticker);
	slurm_mutex_lock(&mutex);
	if (held != CTLD_HELD_ALWAYS && ctx &&
	    ctld_hold_next(&held, ctld_role_control()) == CTLD_DROP)
		justice_ctx_destroy(&ctx);
	if (!ctx) {
		slurm_mutex_unlock(&mutex);
		return SLURM_SUCCESS;
	}
	snap = justice_ctx_snapshot(ctx);
	path = xstrdup(ctx->state_path);
	justice_ctx_destroy(&ctx);
	slurm_mutex_unlock(&mutex);
	_save(snap, path);
	return SLURM_SUCCESS;
}

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid,
		      char **err_msg)
{
	int rc;

	HORAE_ASSERT_LOCK(CONF_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(JOB_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(PART_LOCK, READ_LOCK);
	slurm_mutex_lock(&mutex);
	_follow_control_locked();
	rc = ctx ? justice_submit(ctx, job_desc, submit_uid, err_msg) :
		   SLURM_SUCCESS;
	slurm_mutex_unlock(&mutex);
	return rc;
}

/*
 * Slurm before 23.02 calls job_modify with three arguments: declaring a
 * fourth there would read whatever that register holds as err_msg.  The
 * signature follows the Slurm built against; without err_msg a refusal
 * is only logged (and scontrol update reports its error code).
 */
#if HORAE_JOB_MODIFY_ERR_MSG
extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,
		      uint32_t submit_uid, char **err_msg)
#else
extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,
		      uint32_t submit_uid)
#endif
{
#if !HORAE_JOB_MODIFY_ERR_MSG
	char **err_msg = NULL;
#endif
	int rc;

	HORAE_ASSERT_LOCK(CONF_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(JOB_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(PART_LOCK, READ_LOCK);
	slurm_mutex_lock(&mutex);
	_follow_control_locked();
	rc = ctx ? justice_modify(ctx, job_desc, job_ptr, err_msg) :
		   SLURM_SUCCESS;
	slurm_mutex_unlock(&mutex);
	return rc;
}
