/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_hmrf.c - priority/hmrf: long-term multi-resource fairness
 * (H-MRF) per account.  Slurm's entry points and the recalculation thread;
 * the policy is in src/common (hmrf.c, prio.c), the translation of job
 * records in hmrf_recalc.c.
 *
 * Locks, always in this order: slurmctld locks, then assoc_mgr locks, then
 * our mutex.  slurmctld holds the job write lock when it calls
 * priority_p_set() and priority_p_job_end().  The thread reads the jobs
 * with read locks alone: slurmctld's job, node and partition locks and
 * assoc_mgr's association, QOS and TRES locks; it lets slurmctld's go once
 * the jobs are read and assoc_mgr's once the books are closed, keeping the
 * mutex for the ranking; then it takes the job write and partition read
 * locks and assoc_mgr's association and QOS write and TRES read locks to
 * charge Slurm's usage (hmrf_usage.h), as priority_p_job_end does, and
 * write the priorities (_recalc_once).  State files are
 * written with no lock held.  So that slurmctld's job lock never waits
 * for a ranking, priority_p_set() does not take the mutex (hmrf_next.h)
 * and priority_p_job_end() only tries it (hmrf_ends.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "horae_compat.h"
#include HORAE_INC_PRIORITY
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "common/hmrf_shares.h"
#include "common/state.h"
#include "hmrf_ctx.h"
#include "hmrf_ends.h"
#include "hmrf_next.h"
#include "hmrf_read_conf.h"
#include "hmrf_usage.h"
#include "hmrf_recalc.h"
#include "hmrf_seed.h"
#include "periodic.h"
#include "plugin_pin.h"

#pragma weak verify_lock
#include "views.h"

const char plugin_name[] = "Horae H-MRF long-term multi-resource fairness";
const char plugin_type[] = "priority/hmrf";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* Set by slurmctld -i: start even if saved state cannot be read. */
extern bool ignore_state_errors __attribute__((weak));

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static periodic_t *ticker;
static hmrf_ctx_t *ctx;
/* What priority_p_set and priority_p_job_end use without the mutex:
 * a new job's factors, the ends that found the books busy (hmrf_next.h,
 * hmrf_ends.h), and the time up to which Slurm's usage is charged, from
 * which a job's end charges it (written where the recalculation charges
 * it, both under assoc_mgr's association write lock). */
static hmrf_next_t *next;
static hmrf_ends_t *ends;
static double usage_from;
/*
 * The settings in force when fini ran, for the init that follows in the
 * same process: from 23.11, when a reconfigure's new slurmctld cannot
 * start (an hmrf.conf the admin broke, say), the old one resumes and loads
 * this plugin again, which must then not stop it (plugin_pin.h).  NULL
 * unless the plugin is pinned; a new process starts with none.
 */
static hmrf_conf_t *in_force;

/* The gather's: it reads the jobs, nodes and partitions, and the
 * associations (contributions), QOS and TRES; it writes none of them
 * (hmrf_recalc.h). */
static const slurmctld_lock_t gather_lock = {
	.job = READ_LOCK, .node = READ_LOCK, .part = READ_LOCK };
static const assoc_mgr_lock_t gather_assoc_lock = {
	.assoc = READ_LOCK, .tres = READ_LOCK, .qos = READ_LOCK };
/* The recalculation, as a job's end does, charges association and QOS
 * usage (hmrf_usage.h). */
static const assoc_mgr_lock_t usage_lock = {
	.assoc = WRITE_LOCK, .tres = READ_LOCK, .qos = WRITE_LOCK };

/* Save a snapshot taken under the mutex; called with no lock held.
 * Returns 0 or -errno (logged). */
static int _save(hmrf_state_t *snap, char *path)
{
	int rc = -ENOMEM;

	if (snap && path)
		rc = hmrf_ctx_save(path, snap);
	else if (!snap)
		error("%s: cannot save state: out of memory", plugin_type);
	xfree(path);
	return rc;
}

/* Charge the ends that found the books busy; the mutex held. */
static void _drain_ends(const char *when)
{
	size_t n;

	if (!ctx->tres_known)
		return; /* kept for a hold that can read the TRES */
	n = hmrf_ends_drain(ends, ctx);
	if (n)
		log_flag(PRIO, "%s: %zu job end(s) that came during a recalculation charged to the books %s",
			 plugin_type, n, when);
}

/* One reader's part of the usage, for views_publish(). */
static json_object *_cut_state(void *snap, const view_reader_t *r)
{
	hmrf_state_t *part = hmrf_state_select_reader(snap, r);
	json_object *doc = part ? hmrf_state_to_json(part) : NULL;

	hmrf_state_destroy(&part);
	return doc;
}

/*
 * Publish what sfair reads: the view of the shares (readable as
 * PrivateData says) and, under PrivateData=usage, each user's part of the
 * usage and of the shares, refreshed every VIEW_REFRESH_PERIODS periods
 * (view_clock.h), for the readers begun from the gather's walk
 * (hmrf_recalc_readers, consumed).  Under PrivateData=usage without them
 * (no gather, or out of memory) the views are left as they are.  No lock
 * held; nothing reads these back.
 */
static void _publish(hmrf_state_t *snap, json_object *shares,
		     const char *shares_path, double period,
		     view_readers_t *readers)
{
	double every = VIEW_REFRESH_PERIODS * period;
	const char *dir = slurm_conf.state_save_location;
	horae_err_t err;

	/* Made again each recalculation from the state, which is saved
	 * durably: published without fsync (state_publish). */
	if (shares && state_publish(shares_path, HMRF_SHARES_KIND,
				    HMRF_SHARES_VERSION, shares,
				    views_file_reader(), &err))
		error("%s: %s", plugin_type, err.text);
	readers = views_readers_finish(readers);
	if (!readers && views_private())
		return;
	/* Without PrivateData=usage (readers NULL) the views go, and no
	 * snapshot was taken for them (_recalc_once). */
	if (snap || !readers)
		views_publish(dir, "horae_hmrf.state", HMRF_STATE_KIND,
			      HMRF_STATE_VERSION, every, _cut_state, snap,
			      readers);
	if (shares) {
		view_rows_t *rows = readers ? view_rows_create(shares) : NULL;

		if (readers && !rows)
			error("%s: cannot publish the views of the shares (PrivateData=usage): %m",
			      plugin_type);
		else
			views_publish(dir, "horae_hmrf.shares",
				      HMRF_SHARES_KIND, HMRF_SHARES_VERSION,
				      every, views_cut_accounts, rows,
				      readers);
		view_rows_destroy(&rows);
	}
	view_readers_destroy(&readers);
}

/*
 * Whether the whole state is to be saved now: when the core says it is
 * due (hmrf_conf_save_due: SaveInterval, MinJobAge), and when PrivateData
 * changed who may read the file (its mode).  Notes the save.  The mutex
 * held.
 */
static bool _save_due(double now)
{
	long reader = views_file_reader();

	if (!hmrf_conf_save_due(ctx->conf, (double)slurm_conf.min_job_age,
				ctx->last_save, now) &&
	    reader == ctx->saved_reader)
		return false;
	ctx->last_save = now;
	ctx->saved_reader = reader;
	return true;
}

/* The write: Slurm's usage charged (usage_lock), jobs, partitions (their
 * priority factor) and QOS (theirs) read, each job's priority written. */
static const slurmctld_lock_t prio_write_lock = {
	.job = WRITE_LOCK, .part = READ_LOCK };

/*
 * One recalculation in two holds of slurmctld's locks, the gather's with
 * read locks alone, with the closing of the books (assoc_mgr's read locks
 * and the mutex) and the ranking (the mutex alone) between them, and
 * Slurm's usage charged with the priorities' write (hmrf_recalc.h): the
 * locks are let go while the mutex stays held, so nothing reaches the
 * books between the gather and the ranking.
 */
static void _recalc_once(void)
{
	slurmctld_lock_t locks = gather_lock, wlocks = prio_write_lock;
	assoc_mgr_lock_t alocks = gather_assoc_lock, ulocks = usage_lock;
	hmrf_state_t *snap;
	view_readers_t *readers;
	json_object *shares;
	char *path, *shares_path;
	double period;
	long gather, close = 0, write = 0, rank, copy, save;
	bool saving;
	int rc;
	DEF_TIMERS;

	lock_slurmctld(locks);
	assoc_mgr_lock(&alocks);
	slurm_mutex_lock(&mutex);
	START_TIMER; /* the time the locks are held, not waited for */
	if (!ctx->tres_known)
		hmrf_tres_refresh(ctx);
	_drain_ends("before the gather");
	rc = hmrf_recalc_gather(ctx, time(NULL));
	unlock_slurmctld(locks);
	END_TIMER;
	gather = DELTA_TIMER;
	if (!rc) {
		START_TIMER;
		hmrf_recalc_close(ctx);
		END_TIMER;
		close = DELTA_TIMER;
	}
	assoc_mgr_unlock(&alocks);
	START_TIMER;
	if (!rc)
		hmrf_recalc_rank(ctx);
	END_TIMER;
	rank = DELTA_TIMER;
	START_TIMER;
	_drain_ends("after the ranking");
	hmrf_next_publish(next, ctx);
	saving = _save_due((double)time(NULL));
	/* Under PrivateData=usage each user's part of it is published
	 * (_publish) between saves too. */
	snap = saving || views_private() ? hmrf_ctx_snapshot(ctx) : NULL;
	path = saving ? xstrdup(ctx->state_path) : NULL;
	readers = hmrf_recalc_readers(ctx);
	shares = ctx->shares;
	ctx->shares = NULL;
	shares_path = xstrdup(ctx->shares_path);
	period = ctx->conf->period;
	slurm_mutex_unlock(&mutex);
	END_TIMER;
	copy = DELTA_TIMER;
	if (!rc) {
		lock_slurmctld(wlocks);
		assoc_mgr_lock(&ulocks);
		slurm_mutex_lock(&mutex);
		START_TIMER;
		hmrf_recalc_charge(ctx);
		usage_from = hmrf_books_charged_until(ctx->books);
		hmrf_recalc_write(ctx);
		slurm_mutex_unlock(&mutex);
		assoc_mgr_unlock(&ulocks);
		unlock_slurmctld(wlocks);
		END_TIMER;
		write = DELTA_TIMER;
	}
	START_TIMER;
	if (saving && _save(snap, path)) {
		/* Not saved (logged): again at the next recalculation. */
		slurm_mutex_lock(&mutex);
		ctx->last_save = 0;
		slurm_mutex_unlock(&mutex);
	}
	_publish(snap, shares, shares_path, period, readers);
	END_TIMER;
	save = DELTA_TIMER;
	log_flag(PRIO, "%s: recalculation took usec=%ld under slurmctld's locks, in two holds (gather usec=%ld with read locks, write usec=%ld with the job and association write locks); the books closed in usec=%ld under assoc_mgr's read locks alone; ranked in usec=%ld and the state copied in usec=%ld under the plugin's mutex alone; %s in usec=%ld with no lock",
		 plugin_type, gather + write, gather, write, close, rank, copy,
		 saving ? "saved and published" : "published", save);
	hmrf_state_destroy(&snap);
	json_object_put(shares);
	xfree(shares_path);
}

static void _tick(void *arg)
{
	hmrf_seed(ctx, &mutex);
	_recalc_once();
}

static double _period(void *arg)
{
	double period;

	slurm_mutex_lock(&mutex);
	period = ctx->conf->period;
	slurm_mutex_unlock(&mutex);
	return period;
}

/* Say once which of multifactor's settings H-MRF leaves aside. */
static void _log_unused(void)
{
	static const struct {
		uint16_t flag;
		const char *name;
	} flags[] = {
		{ PRIORITY_FLAGS_SIZE_RELATIVE, "SMALL_RELATIVE_TO_TIME" },
		{ PRIORITY_FLAGS_DEPTH_OBLIVIOUS, "DEPTH_OBLIVIOUS" },
		{ PRIORITY_FLAGS_CALCULATE_RUNNING, "CALCULATE_RUNNING" },
		{ PRIORITY_FLAGS_INCR_ONLY, "INCR_ONLY" },
		{ PRIORITY_FLAGS_NO_NORMAL_ASSOC, "NO_NORMAL_ASSOC" },
		{ PRIORITY_FLAGS_NO_NORMAL_PART, "NO_NORMAL_PART" },
		{ PRIORITY_FLAGS_NO_NORMAL_QOS, "NO_NORMAL_QOS" },
		{ PRIORITY_FLAGS_NO_NORMAL_TRES, "NO_NORMAL_TRES" },
	};
	char *unused = NULL;

	if (slurm_conf.priority_weight_tres && slurm_conf.priority_weight_tres[0])
		info("%s: PriorityWeightTRES=%s is not used: H-MRF weighs the TRES of Tres= in hmrf.conf by the cluster's capacity (horae-hmrf.conf(5))",
		     plugin_type, slurm_conf.priority_weight_tres);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (slurm_conf.priority_flags & flags[i].flag)
			xstrfmtcat(unused, "%s%s", unused ? "," : "",
				   flags[i].name);
	if (unused)
		info("%s: PriorityFlags %s are not used by H-MRF (MAX_TRES still sets what a job is billed)",
		     plugin_type, unused);
	xfree(unused);
}

int init(void)
{
	hmrf_conf_t *conf;
	char *path = NULL, win[64];
	bool start_empty = &ignore_state_errors && ignore_state_errors;

	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	conf = hmrf_read_conf(&path);
	if (!conf && in_force) {
		error("%s: slurmctld resumes after a failed reconfigure: %s is invalid, the settings in force stay",
		      plugin_type, path);
		conf = in_force;
		in_force = NULL;
	}
	if (!conf)
		fatal("%s: cannot start with an invalid %s", plugin_type, path);
	hmrf_conf_destroy(&in_force);
	ctx = hmrf_ctx_create(conf, slurm_conf.state_save_location,
			      start_empty);
	if (!ctx || !(next = hmrf_next_create(ctx)))
		fatal("%s: cannot start: see the errors above", plugin_type);
	ends = hmrf_ends_create();
	usage_from = hmrf_books_charged_until(ctx->books);
	window_format(&conf->window, win, sizeof(win));
	info("%s: policy %s, window %s, period %.0fs, TRES %s, %d configured accounts (%s)",
	     plugin_type, hmrf_policy_name(conf->policy), win, conf->period,
	     conf->tres, conf->naccounts, path);
	xfree(path);
	_log_unused();
	if (!HORAE_PRIO_THREAD_START)
		ticker = periodic_start("hmrf", _tick, _period, NULL);
	return SLURM_SUCCESS;
}

int fini(void)
{
	hmrf_state_t *snap;
	char *path;

	if (!ctx)
		return SLURM_SUCCESS;
	periodic_stop(&ticker);
	/* Jobs ran until now: charge them before the last save. */
	_recalc_once();
	slurm_mutex_lock(&mutex);
	_drain_ends("at shutdown");
	snap = hmrf_ctx_snapshot(ctx);
	path = xstrdup(ctx->state_path);
	if (plugin_pin()) {
		hmrf_conf_destroy(&in_force);
		in_force = ctx->conf;
		ctx->conf = NULL;
	}
	hmrf_ctx_destroy(&ctx);
	hmrf_next_destroy(&next);
	hmrf_ends_destroy(&ends);
	hmrf_usage_fini();
	views_fini();
	slurm_mutex_unlock(&mutex);
	_save(snap, path);
	hmrf_state_destroy(&snap);
	return SLURM_SUCCESS;
}

/* Called with the job write lock held: not the mutex (hmrf_next.h). */
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	if (job_ptr->direct_set_prio && job_ptr->priority > 1)
		return job_ptr->priority;
	if (!next)
		return last_prio > 1 ? last_prio - 1 : 1;
	return hmrf_next_priority(next, job_ptr, time(NULL));
}

extern void priority_p_reconfig(bool assoc_clear)
{
	char *path = NULL;
	hmrf_conf_t *conf;

	if (!ctx)
		return;
	conf = hmrf_read_conf(&path);
	if (!conf) {
		error("%s: keeping the previous configuration: %s is invalid",
		      plugin_type, path);
	} else {
		slurm_mutex_lock(&mutex);
		hmrf_ctx_reconfig(ctx, conf);
		hmrf_next_publish(next, ctx); /* the weights */
		slurm_mutex_unlock(&mutex);
		info("%s: reread %s", plugin_type, path);
	}
	xfree(path);
}

/* sshare asks for a user's usage when the recalculation left it unset:
 * its raw usage over root's, as hmrf_usage_publish() sets every one.
 * The caller holds assoc_mgr's association lock. */
extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	long double root = assoc_mgr_root_assoc && assoc_mgr_root_assoc->usage ?
				   assoc_mgr_root_assoc->usage->usage_raw :
				   0;

	if (!assoc || !assoc->usage)
		return;
	assoc->usage->usage_norm = root > 0 ? assoc->usage->usage_raw / root :
					      0;
	assoc->usage->usage_efctv = assoc->usage->usage_norm;
}

/*
 * The classic fair-share formula, 2^(-usage / shares), for what still asks
 * it: sshare without Fair Tree, a QOS's UsageThreshold.  H-MRF's own
 * standing of an association's account is its fs_factor (sshare's
 * FairShare under Fair Tree, the default), set by each recalculation.
 */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	if (!(shares_norm > 0))
		return 0.0;
	return (double)powl(2.0L, -usage_efctv / shares_norm);
}

#if HORAE_PRIO_LIST_HAS_REQ
static int _find_uint32(void *x, void *key)
{
	return *(uint32_t *)x == *(uint32_t *)key;
}

static bool _wanted(list_t *list, uint32_t id)
{
	return !list || !list_count(list) ||
	       list_find_first(list, _find_uint32, &id);
}

static bool _part_wanted(const char *partitions, const char *part)
{
	char *copy, *tok, *save = NULL;
	bool found = false;

	if (!partitions || !partitions[0])
		return true;
	if (!part)
		return false;
	copy = xstrdup(partitions);
	for (tok = strtok_r(copy, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save))
		found = !xstrcmp(tok, part);
	xfree(copy);
	return found;
}
#endif

#if HORAE_PRIO_FACTORS_SPLIT
#define _destroy_factors slurm_destroy_priority_factors_object
#else
/*
 * 22.05's slurm_destroy_priority_factors_object frees the TRES arrays and
 * the object, not the partition's name (multifactor lends it the
 * partition record's, which slurmctld reads after the locks are let go):
 * the copy each object here owns is freed here, or every sprio would leave
 * one string per pending job behind.
 */
static void _destroy_factors(void *x)
{
	priority_factors_object_t *obj = x;

	if (obj)
		xfree(obj->partition);
	slurm_destroy_priority_factors_object(obj);
}
#endif

/* sprio's object for a pending job: what it owns is freed by
 * _destroy_factors. */
static priority_factors_object_t *_factors(job_record_t *job_ptr)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	if (job_ptr->direct_set_prio) {
		obj->direct_prio = job_ptr->priority;
	} else {
#if HORAE_PRIO_FACTORS_SPLIT
		obj->prio_factors = xmalloc(sizeof(*obj->prio_factors));
		if (job_ptr->prio_factors)
			slurm_copy_priority_factors(obj->prio_factors,
						    job_ptr->prio_factors);
		else /* none yet: sprio shows site and nice less the offset */
			obj->prio_factors->priority_site =
				obj->prio_factors->nice = NICE_OFFSET;
#else
		if (job_ptr->prio_factors)
			slurm_copy_priority_factors_object(
				obj, job_ptr->prio_factors);
		else /* none yet: sprio shows site and nice less the offset */
			obj->priority_site = obj->nice = NICE_OFFSET;
		xfree(obj->partition); /* the cache's, copied: set below */
#endif
	}
	obj->job_id = job_ptr->job_id;
	obj->user_id = job_ptr->user_id;
	obj->partition = xstrdup(job_ptr->part_ptr ? job_ptr->part_ptr->name :
						     job_ptr->partition);
#if HORAE_PRIO_FACTORS_SPLIT
	/* sprio shows and filters these from 23.02 on. */
	obj->account = xstrdup(job_ptr->account);
	obj->qos = xstrdup(job_ptr->qos_ptr ? job_ptr->qos_ptr->name : NULL);
#endif
	return obj;
}

/*
 * sprio's list: the pending jobs the user may see.  Up to 23.11 the request
 * narrows it (jobs, users, partitions); from 23.02 slurmctld holds the job,
 * node and partition read locks and sprio narrows it itself.
 */
#if HORAE_PRIO_LIST_HAS_REQ
extern list_t *
priority_p_get_priority_factors_list(priority_factors_request_msg_t *req_msg,
				     uid_t uid)
#else
extern list_t *priority_p_get_priority_factors_list(uid_t uid)
#endif
{
#if !HORAE_PRIO_LIST_LOCKED
	slurmctld_lock_t locks = { .job = READ_LOCK, .node = READ_LOCK,
				   .part = READ_LOCK };
#endif
	list_t *ret_list = list_create(_destroy_factors);
	list_itr_t *itr;
	job_record_t *job_ptr;

#if HORAE_PRIO_LIST_LOCKED
	HORAE_ASSERT_LOCK(JOB_LOCK, READ_LOCK);
#else
	lock_slurmctld(locks);
#endif
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if (!IS_JOB_PENDING(job_ptr) || IS_JOB_REVOKED(job_ptr) ||
		    job_ptr->priority == 0)
			continue;
		if ((slurm_conf.private_data & PRIVATE_DATA_JOBS) &&
		    job_ptr->user_id != uid && !validate_operator(uid))
			continue;
#if HORAE_PRIO_LIST_HAS_REQ
		if (req_msg &&
		    (!_wanted(req_msg->job_id_list, job_ptr->job_id) ||
		     !_wanted(req_msg->uid_list, job_ptr->user_id) ||
		     !_part_wanted(req_msg->partitions, job_ptr->partition)))
			continue;
#endif
		list_append(ret_list, _factors(job_ptr));
	}
	list_iterator_destroy(itr);
#if !HORAE_PRIO_LIST_LOCKED
	unlock_slurmctld(locks);
#endif

	if (!list_count(ret_list))
		FREE_NULL_LIST(ret_list);
	return ret_list;
}

#if HORAE_PRIO_HAS_RECOVER
/*
 * After slurmctld recovered its jobs: H-MRF's priorities are absolute, so
 * no boost (priority/basic's business); the next recalculation sets every
 * pending job's priority and factors.
 */
extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	return 0;
}
#endif

#if HORAE_PRIO_THREAD_START
/* 23.11.6 on: the recalculation starts once slurmctld has read its state. */
extern void priority_p_thread_start(void)
{
	if (ctx && !ticker)
		ticker = periodic_start("hmrf", _tick, _period, NULL);
}
#endif

/*
 * Called with the job write lock held.  Slurm's usage is charged now, from
 * where it was last charged (usage_from: a recalculation charges it in
 * its write's hold, after the books closed); the books get the end now
 * too, unless they are busy (the mutex held: a ranking, most likely),
 * then later (hmrf_ends.h), so that the job lock does not wait for them.
 */
extern void priority_p_job_end(job_record_t *job_ptr)
{
	assoc_mgr_lock_t alocks = usage_lock;
	hmrf_end_t end;

	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	if (!ctx || !job_ptr->start_time || !job_ptr->end_time)
		return;
	end = hmrf_end_of(job_ptr);
	assoc_mgr_lock(&alocks);
	hmrf_job_end_usage(job_ptr, usage_from);
	if (!pthread_mutex_trylock(&mutex)) {
		if (!ctx->tres_known)
			hmrf_tres_refresh(ctx);
		_drain_ends("at a job's end");
		hmrf_job_end_books(ctx, &end);
		slurm_mutex_unlock(&mutex);
	} else {
		hmrf_ends_push(ends, &end);
	}
	assoc_mgr_unlock(&alocks);
}
