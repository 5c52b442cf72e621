/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_progress.c - select/eunomia's progress accounting.  See
 * eunomia_progress.h.  What is charged to whom and when, the monopoly
 * span, the shares, the fair share and the gap are the core's
 * (eunomia_books.c, eunomia.c); this file turns job and node records into
 * progress rates and events for the books, and keeps the locks, the state
 * file and what is published.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/hostlist.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "common/eunomia.h"
#include "common/eunomia_books.h"
#include "common/eunomia_shares.h"
#include "common/state.h"
#include "ctld_role.h"
#include "eunomia_progress.h"
#include "horae_compat.h"
#include "ledger_file.h"
#include "views.h"

/*
 * The node table is slurmctld's and libslurmfull's; a program on plain
 * libslurm (whose slurm_init() loads the select plugin) has none, and a
 * strong reference to data fails the plugin's load there.  Only
 * slurmctld's threads reach the code that reads it.
 */
#pragma weak node_record_count
#pragma weak node_record_table_ptr
#pragma weak verify_lock
#pragma weak job_list
#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld
#pragma weak find_node_record

extern const char plugin_type[];

struct eunomia_progress {
	pthread_mutex_t mutex;
	eunomia_conf_t *conf;
	/* Every rule about what is charged to whom and when, and the span of
	 * the monopoly: the core's (eunomia_books.h).  This file only turns
	 * job and node records into rates and events. */
	eunomia_books_t *books;
	char *state_path;
	char *shares_path; /* the published progress shares, for sfair */
	double *gap;	   /* per account, valid while gap_at == now */
	int gap_cap;
	double gap_at;
	bool gap_dirty;
	/* Since when this slurmctld holds the books (ctld_role.h): only
	 * then are they charged, saved and published. */
	time_t held;
};

/* --- accounts and speeds ------------------------------------------------ */

/* Each account's weight from the configuration's Account lines. */
static void _weigh_locked(eunomia_progress_t *p, int a)
{
	const char *name = eunomia_books_name(p->books, a);

	if (eunomia_books_set_weight(p->books, a,
				     eunomia_conf_share(p->conf, name)))
		error("%s: account %s: share %g is not positive; ignored",
		      plugin_type, name, eunomia_conf_share(p->conf, name));
}

static void _weigh_all_locked(eunomia_progress_t *p)
{
	for (int a = 0; a < eunomia_books_count(p->books); a++)
		_weigh_locked(p, a);
}

static int _account(eunomia_progress_t *p, const char *name)
{
	int n = eunomia_books_count(p->books);
	int a = eunomia_books_account(p->books, name ? name : "");

	if (a >= n)
		_weigh_locked(p, a);
	return a < 0 ? -1 : a;
}

static double _speed(eunomia_progress_t *p, const char *account,
		     const node_record_t *node_ptr)
{
	return eunomia_conf_speed(p->conf, account, node_ptr->features);
}

/* The progress per second the whole cluster gives account a alone, told
 * to the books.  Walks the node table: only where slurmctld holds its node
 * lock. */
static double _mono_rate(eunomia_progress_t *p, int a)
{
	const char *name = eunomia_books_name(p->books, a);
	double r = eunomia_books_monopoly_rate(p->books, a);
	node_record_t *node_ptr;

	if (r > 0)
		return r;
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		r += node_ptr->cpus_efctv * _speed(p, name, node_ptr);
	eunomia_books_set_monopoly_rate(p->books, a, r);
	return r;
}

/* The same at the cluster's own factors (no account line). */
static double _common_rate(eunomia_progress_t *p)
{
	double r = eunomia_books_common_rate(p->books);
	node_record_t *node_ptr;

	if (r > 0)
		return r;
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		r += node_ptr->cpus_efctv *
		     speed_of(p->conf->speed, node_ptr->features);
	eunomia_books_set_common_rate(p->books, r);
	return r;
}

/*
 * What a running job makes per second: its CPUs on each node x speed.
 * Right after slurmctld has read its job state (at a restart, or a backup
 * taking over: job_init) neither the job nor its resources have a node
 * bitmap yet; the job's node list names the same nodes, in the same
 * order.
 */
static double _job_rate(eunomia_progress_t *p, job_record_t *job_ptr)
{
	job_resources_t *r = job_ptr->job_resrcs;
	node_record_t *node_ptr;
	/* hostlist_t is a pointer type before 23.11, the struct after. */
	struct hostlist *hl;
	char *host;
	double rate = 0;
	int k = 0;

	if (!r || !r->cpus)
		goto fallback;
	if (r->node_bitmap) {
		for (int i = 0, n = MIN(node_record_count,
					(int)bit_size(r->node_bitmap));
		     i < n && k < (int)r->nhosts; i++) {
			if (!bit_test(r->node_bitmap, i) ||
			    !(node_ptr = node_record_table_ptr[i]))
				continue;
			rate += r->cpus[k++] *
				_speed(p, job_ptr->account, node_ptr);
		}
	} else if (job_ptr->nodes && find_node_record &&
		   (hl = hostlist_create(job_ptr->nodes))) {
		while (k < (int)r->nhosts && (host = hostlist_shift(hl))) {
			if ((node_ptr = find_node_record(host)))
				rate += r->cpus[k] *
					_speed(p, job_ptr->account, node_ptr);
			k++;
			free(host);
		}
		hostlist_destroy(hl);
	}
	if (rate > 0)
		return rate;
fallback:
	/* No per-node record (a job that ended while slurmctld was down):
	 * its CPUs at the account's average speed. */
	{
		int a = _account(p, job_ptr->account);
		double cpus = 0;

		for (int i = 0; (node_ptr = next_node(&i)); i++)
			cpus += node_ptr->cpus_efctv;
		if (a < 0 || cpus <= 0)
			return 0;
		return job_ptr->total_cpus * _mono_rate(p, a) / cpus;
	}
}

/* Fill the monopoly-rate caches the period thread publishes from (it may
 * not walk the node table); slurmctld holds its node lock here. */
static void _cache_rates_locked(eunomia_progress_t *p)
{
	_common_rate(p);
	for (int a = 0; a < eunomia_books_count(p->books); a++)
		_mono_rate(p, a);
}

/* --- create, destroy, configuration ------------------------------------ */

/* The state to save (a new document; NULL: out of memory) and where. */
static json_object *_snapshot_locked(eunomia_progress_t *p, char **path)
{
	*path = xstrdup(p->state_path);
	return eunomia_books_to_json(p->books);
}

static void _save(json_object *snap, char *path)
{
	ledger_file_write(path, EUNOMIA_STATE_KIND, EUNOMIA_STATE_VERSION, snap,
			  STATE_READER_NONE);
	xfree(path);
}

/* Every account's weight, progress, own monopoly and activity, charged
 * to now; *monopoly the common one.  The caller frees the array. */
static eunomia_account_t *_accounts_at(eunomia_progress_t *p, double now,
				       double *monopoly)
{
	int n = eunomia_books_count(p->books);
	eunomia_account_t *acct = xcalloc(n ? n : 1, sizeof(*acct));

	if (eunomia_books_accounts(p->books, now, acct, n, monopoly)) {
		error("%s: cannot read the progress of %d accounts at %.0f",
		      plugin_type, n, now);
		xfree(acct);
	}
	return acct;
}

/* The same from the node table as it is now: slurmctld's node lock held
 * (job_test, the hmrf recalculation). */
static eunomia_account_t *_accounts_nodes_locked(eunomia_progress_t *p,
						 double now, double *monopoly)
{
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	_cache_rates_locked(p);
	return _accounts_at(p, now, monopoly);
}

/* The same without slurmctld's node lock (the period thread): only the
 * rates already known (an account's unknown own rate counts as 0); NULL
 * while the common rate is not known yet. */
static eunomia_account_t *_accounts_cached_locked(eunomia_progress_t *p,
						  double now,
						  double *monopoly)
{
	if (!(eunomia_books_common_rate(p->books) > 0))
		return NULL;
	return _accounts_at(p, now, monopoly);
}

/* The progress shares for sfair, computed now (our lock held, not
 * slurmctld's: cached rates only).  NULL until the rates are known. */
static json_object *_shares_locked(eunomia_progress_t *p, double now)
{
	int n = eunomia_books_count(p->books);
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	eunomia_account_t *acct;
	json_object *doc;
	double mono;

	if (!(acct = _accounts_cached_locked(p, now, &mono))) {
		xfree(names);
		return NULL;
	}
	for (int a = 0; a < n; a++)
		names[a] = eunomia_books_name(p->books, a);
	doc = eunomia_shares_to_json(now, mono, acct, names, n);
	xfree(names);
	xfree(acct);
	return doc;
}

/* Publish doc (consumed; NULL: nothing to publish yet) next to the
 * state file, readable as PrivateData says, and when views each user's
 * part of it (views.h) for the readers begun from the period's walk
 * (consumed; NULL without PrivateData=usage: the views go), refreshed
 * every VIEW_REFRESH_PERIODS periods of period seconds; no lock held. */
static void _publish(json_object *doc, const char *path, bool views,
		     double period, view_readers_t *readers)
{
	view_rows_t *rows;
	horae_err_t err;

	if (!doc) {
		view_readers_destroy(&readers);
		return;
	}
	/* Made again each period from the books, which are saved durably:
	 * published without fsync (state_publish). */
	if (state_publish(path, EUNOMIA_SHARES_KIND, EUNOMIA_SHARES_VERSION,
			  doc, views_file_reader(), &err))
		error("%s: %s", plugin_type, err.text);
	readers = views_readers_finish(readers);
	rows = readers ? view_rows_create(doc) : NULL;
	if (readers && !rows)
		error("%s: cannot publish the views of the shares (PrivateData=usage): %m",
		      plugin_type);
	else if (views && (readers || !views_private()))
		views_publish(slurm_conf.state_save_location,
			      "horae_eunomia.shares", EUNOMIA_SHARES_KIND,
			      EUNOMIA_SHARES_VERSION,
			      VIEW_REFRESH_PERIODS * period, views_cut_accounts,
			      rows, readers);
	view_rows_destroy(&rows);
	view_readers_destroy(&readers);
	json_object_put(doc);
}

/* The saved books, or NULL: *unreadable says whether a state was there
 * and could not be read (a window changed since is no such failure: the
 * history restarts, as the log says). */
static eunomia_books_t *_load(eunomia_progress_t *p, bool *unreadable)
{
	json_object *doc = ledger_file_read(p->state_path, EUNOMIA_STATE_KIND,
					    EUNOMIA_STATE_VERSION, unreadable);
	eunomia_books_t *b;
	horae_err_t err;

	if (!doc)
		return NULL;
	b = eunomia_books_from_json(doc, &p->conf->window, p->conf->bucket,
				    &err);
	json_object_put(doc);
	if (!b && errno == ESTALE) {
		error("%s: %s: %s; the configuration asks for another window, so the history restarts empty",
		      plugin_type, p->state_path, err.text);
	} else if (!b) {
		error("%s: %s: %s", plugin_type, p->state_path, err.text);
		*unreadable = true;
	}
	return b;
}

/* b as p's books (replacing what it had), weighed. */
static void _install_locked(eunomia_progress_t *p, eunomia_books_t *b)
{
	eunomia_books_destroy(&p->books);
	p->books = b;
	_weigh_all_locked(p);
	p->gap_dirty = true;
}

/* Empty books for p's window, weighed: 0, or -1 after logging why. */
static int _empty_books_locked(eunomia_progress_t *p)
{
	horae_err_t err;
	eunomia_books_t *b = eunomia_books_create(
		&p->conf->window, p->conf->bucket, (double)time(NULL), &err);

	if (!b) {
		error("%s: %s", plugin_type, err.text);
		return -1;
	}
	_install_locked(p, b);
	return 0;
}

/* Read the saved books into p (replacing what it had), or start empty
 * books when none are saved; -1 after logging why when they are there
 * and unreadable and not start_empty, or out of memory.  Mutex held or
 * not yet shared. */
static int _read_books_locked(eunomia_progress_t *p, bool start_empty)
{
	eunomia_books_t *b;
	bool unreadable;

	b = _load(p, &unreadable);
	if (unreadable && !start_empty) {
		error("%s: refusing to start without the accounted progress; fix or remove %s (and .old), or start slurmctld with -i to start with none",
		      plugin_type, p->state_path);
		return -1;
	}
	if (!b)
		return _empty_books_locked(p);
	info("%s: loaded the progress of %d accounts charged up to %.0f",
	     plugin_type, eunomia_books_count(b), eunomia_books_saved_at(b));
	_install_locked(p, b);
	return 0;
}

eunomia_progress_t *eunomia_progress_create(eunomia_conf_t *conf,
					    const char *state_dir,
					    bool start_empty, bool standby)
{
	eunomia_progress_t *p = xmalloc(sizeof(*p));

	slurm_mutex_init(&p->mutex);
	p->conf = conf;
	p->state_path = xstrdup_printf("%s/horae_eunomia.state", state_dir);
	p->shares_path = xstrdup_printf("%s/horae_eunomia.shares", state_dir);
	/* A standby has empty books until its slurmctld takes control. */
	p->held = standby ? CTLD_HELD_NONE : CTLD_HELD_ALWAYS;
	if (standby ? _empty_books_locked(p) :
		      _read_books_locked(p, start_empty))
		goto fail;
	return p;
fail:
	eunomia_books_destroy(&p->books);
	xfree(p->state_path);
	xfree(p->shares_path);
	slurm_mutex_destroy(&p->mutex);
	eunomia_conf_destroy(&p->conf);
	xfree(p);
	return NULL;
}

int eunomia_progress_take(eunomia_progress_t *p, bool start_empty)
{
	int rc = 0;

	slurm_mutex_lock(&p->mutex);
	if (p->held != CTLD_HELD_ALWAYS) {
		if ((rc = _read_books_locked(p, start_empty)) == 0) {
			p->held = CTLD_HELD_TAKING;
			info("%s: taking control: the progress accounted so far read from %s",
			     plugin_type, p->state_path);
		}
	}
	slurm_mutex_unlock(&p->mutex);
	return rc;
}

/* Whether this slurmctld holds the books now (mutex held): a standby
 * does not; one whose control has passed on gives them up, unsaved. */
static bool _holds_locked(eunomia_progress_t *p)
{
	switch (ctld_hold_next(&p->held, ctld_role_control())) {
	case CTLD_KEEP:
		return true;
	case CTLD_DROP:
		info("%s: control has passed to another slurmctld: leaving the accounted progress to it",
		     plugin_type);
		return false;
	default:
		/* Read only when taking control (job_init), where the
		 * job list comes with it. */
		return false;
	}
}

static void _tick(eunomia_progress_t *p, bool views);

void eunomia_progress_destroy(eunomia_progress_t **pp)
{
	eunomia_progress_t *p;

	if (!pp || !(p = *pp))
		return;
	_tick(p, false); /* charges and saves one last time, if held */
	eunomia_books_destroy(&p->books);
	eunomia_conf_destroy(&p->conf);
	xfree(p->state_path);
	xfree(p->shares_path);
	xfree(p->gap);
	slurm_mutex_destroy(&p->mutex);
	xfree(p);
	*pp = NULL;
}

void eunomia_progress_reconfig(eunomia_progress_t *p, eunomia_conf_t *conf)
{
	slurm_mutex_lock(&p->mutex);
	if (conf->window.kind != p->conf->window.kind ||
	    conf->window.length != p->conf->window.length ||
	    conf->bucket != p->conf->bucket) {
		error("%s: Window and WindowBucket changes take effect when slurmctld restarts; keeping them as they were",
		      plugin_type);
		conf->window = p->conf->window;
		conf->bucket = p->conf->bucket;
	}
	eunomia_conf_destroy(&p->conf);
	p->conf = conf;
	_weigh_all_locked(p);
	eunomia_books_forget_rates(p->books);
	p->gap_dirty = true;
	/* slurmctld holds its node write lock here: refill the caches, or
	 * the period thread publishes nothing until the next job starts. */
	_cache_rates_locked(p);
	slurm_mutex_unlock(&p->mutex);
}

const eunomia_conf_t *eunomia_progress_conf(eunomia_progress_t *p)
{
	return p->conf;
}

double eunomia_progress_period(eunomia_progress_t *p)
{
	double period;

	slurm_mutex_lock(&p->mutex);
	period = p->conf->period;
	slurm_mutex_unlock(&p->mutex);
	return period;
}

void eunomia_progress_nodes_changed(eunomia_progress_t *p)
{
	slurm_mutex_lock(&p->mutex);
	eunomia_books_forget_rates(p->books);
	p->gap_dirty = true;
	/* slurmctld holds its node write lock here: refill the caches, or
	 * the period thread publishes nothing until the next job starts. */
	_cache_rates_locked(p);
	slurm_mutex_unlock(&p->mutex);
}

/* --- job events ---------------------------------------------------------- */

/* A job that ran and ended while slurmctld was down, after the saved
 * state: the books charge it up to its end.  Returns whether it was one. */
static bool _recover_ended(eunomia_progress_t *p, job_record_t *job_ptr,
			   double now)
{
	int a;

	if (!job_ptr->start_time ||
	    !(IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) ||
	    !((double)job_ptr->end_time > eunomia_books_saved_at(p->books)) ||
	    (a = _account(p, job_ptr->account)) < 0)
		return false;
	eunomia_books_ran(p->books, a, _job_rate(p, job_ptr),
			  (double)job_ptr->start_time,
			  (double)job_ptr->end_time, now);
	return true;
}

void eunomia_progress_sync(eunomia_progress_t *p, list_t *jobs)
{
	double now = (double)time(NULL);
	bool recover;
	list_itr_t *it;
	job_record_t *job_ptr;
	int a, n = 0, recovered = 0;

	if (!jobs)
		return;
	slurm_mutex_lock(&p->mutex);
	recover = eunomia_books_recovering(p->books);
	it = list_iterator_create(jobs);
	while ((job_ptr = list_next(it))) {
		if ((IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) &&
		    job_ptr->start_time) {
			if (eunomia_books_tracked(p->books, job_ptr->job_id) ||
			    (a = _account(p, job_ptr->account)) < 0)
				continue;
			/* Charged from its start or the last charge. */
			if (eunomia_books_running(p->books, job_ptr->job_id, a,
						  _job_rate(p, job_ptr),
						  (double)job_ptr->start_time,
						  IS_JOB_SUSPENDED(job_ptr)) ==
			    1)
				n++;
		} else if (recover && _recover_ended(p, job_ptr, now)) {
			recovered++;
		}
	}
	list_iterator_destroy(it);
	_cache_rates_locked(p);
	if (recover && (n || recovered))
		info("%s: progress of %d running jobs charged from %.0f, of %d jobs that ended meanwhile up to their end",
		     plugin_type, n, eunomia_books_saved_at(p->books),
		     recovered);
	eunomia_books_recovered(p->books);
	p->gap_dirty = true;
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_begin(eunomia_progress_t *p, job_record_t *job_ptr)
{
	double start = job_ptr->start_time ? (double)job_ptr->start_time :
					     (double)time(NULL);
	int a;

	slurm_mutex_lock(&p->mutex);
	if (!eunomia_books_tracked(p->books, job_ptr->job_id) &&
	    (a = _account(p, job_ptr->account)) >= 0 &&
	    eunomia_books_start(p->books, job_ptr->job_id, a,
				_job_rate(p, job_ptr), start,
				IS_JOB_SUSPENDED(job_ptr)))
		error("%s: cannot track %pJ's progress", plugin_type, job_ptr);
	_cache_rates_locked(p);
	p->gap_dirty = true;
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_end(eunomia_progress_t *p, job_record_t *job_ptr)
{
	double now = (double)time(NULL);
	double end = job_ptr->end_time ? fmin((double)job_ptr->end_time, now) :
					 now;

	slurm_mutex_lock(&p->mutex);
	if (!eunomia_books_end(p->books, job_ptr->job_id, end))
		p->gap_dirty = true;
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_pause(eunomia_progress_t *p, job_record_t *job_ptr,
			    bool paused)
{
	slurm_mutex_lock(&p->mutex);
	if (!eunomia_books_pause(p->books, job_ptr->job_id, paused,
				 (double)time(NULL)))
		p->gap_dirty = true;
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_resized(eunomia_progress_t *p, job_record_t *job_ptr)
{
	slurm_mutex_lock(&p->mutex);
	if (eunomia_books_tracked(p->books, job_ptr->job_id) &&
	    !eunomia_books_resize(p->books, job_ptr->job_id,
				  _job_rate(p, job_ptr), (double)time(NULL)))
		p->gap_dirty = true;
	slurm_mutex_unlock(&p->mutex);
}

/* --- the period ---------------------------------------------------------- */

/*
 * The accounts with a pending job (they count in the fair progress
 * share, as horae-sim tells the books at every pass), a run of jobs of
 * the same account noted once, and under PrivateData=usage each job's
 * user as a reader of its account (r, views.h): one walk of job_list,
 * under the job read lock, without the mutex.  The names are the
 * records': valid while the job read lock is held.
 */
typedef struct waiting {
	const char **name;
	size_t n, cap;
} waiting_t;

static void _walk_jobs(waiting_t *w, view_readers_t *r)
{
	list_itr_t *it;
	job_record_t *job_ptr;

	HORAE_ASSERT_LOCK(JOB_LOCK, READ_LOCK);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		views_readers_job(r, job_ptr->user_id, job_ptr->account);
		if (!IS_JOB_PENDING(job_ptr))
			continue;
		if (w->n && !xstrcmp(w->name[w->n - 1], job_ptr->account))
			continue;
		if (w->n == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 64;
			xrecalloc(w->name, w->cap, sizeof(*w->name));
		}
		w->name[w->n++] = job_ptr->account;
	}
	list_iterator_destroy(it);
}

/* Tell the books which accounts wait: the mutex held. */
static void _waiting_locked(eunomia_progress_t *p, const waiting_t *w)
{
	int a, n = eunomia_books_count(p->books);

	for (a = 0; a < n; a++)
		eunomia_books_set_waiting(p->books, a, false);
	for (size_t i = 0; i < w->n; i++)
		if ((a = _account(p, w->name[i])) >= 0)
			eunomia_books_set_waiting(p->books, a, true);
}

/* Charge, save and publish; the waiting accounts and the users' views
 * (which take slurmctld's locks) only from the period thread, never at
 * shutdown. */
static void _tick(eunomia_progress_t *p, bool views)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	double now = (double)time(NULL);
	json_object *snap, *shares;
	view_readers_t *readers = views ? views_readers_begin() : NULL;
	waiting_t w = { 0 };
	double period;
	bool walk = views && job_list && lock_slurmctld;
	char *path;

	if (walk) {
		lock_slurmctld(job_read);
		_walk_jobs(&w, readers);
	}
	slurm_mutex_lock(&p->mutex);
	if (!_holds_locked(p)) {
		slurm_mutex_unlock(&p->mutex);
		if (walk)
			unlock_slurmctld(job_read);
		xfree(w.name);
		view_readers_destroy(&readers);
		return;
	}
	if (walk)
		_waiting_locked(p, &w);
	eunomia_books_charge(p->books, now);
	p->gap_dirty = true;
	snap = _snapshot_locked(p, &path);
	shares = _shares_locked(p, now);
	period = p->conf->period;
	slurm_mutex_unlock(&p->mutex);
	if (walk)
		unlock_slurmctld(job_read);
	xfree(w.name);
	_save(snap, path);
	_publish(shares, p->shares_path, views, period, readers);
}

void eunomia_progress_tick(eunomia_progress_t *p)
{
	_tick(p, true);
}

void eunomia_progress_save(eunomia_progress_t *p)
{
	_tick(p, false);
}

/* --- shares ---------------------------------------------------------------- */

double eunomia_progress_gap(eunomia_progress_t *p, const char *account)
{
	double now = (double)time(NULL), gap = 0;
	int a, n;

	slurm_mutex_lock(&p->mutex);
	a = _account(p, account);
	n = eunomia_books_count(p->books);
	if (a >= 0 && (p->gap_dirty || p->gap_at != now || a >= p->gap_cap)) {
		HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
		_cache_rates_locked(p);
		if (n > p->gap_cap) {
			xrecalloc(p->gap, n, sizeof(double));
			p->gap_cap = n;
		}
		if (eunomia_books_gaps(p->books, now, p->gap, p->gap_cap))
			memset(p->gap, 0, p->gap_cap * sizeof(double));
		p->gap_at = now;
		p->gap_dirty = false;
	}
	if (a >= 0)
		gap = p->gap[a];
	slurm_mutex_unlock(&p->mutex);
	return gap;
}

double eunomia_progress_speed(eunomia_progress_t *p, const char *account,
			      const node_record_t *node_ptr)
{
	double s;

	slurm_mutex_lock(&p->mutex);
	s = _speed(p, account, node_ptr);
	slurm_mutex_unlock(&p->mutex);
	return s;
}

void eunomia_progress_export(eunomia_progress_t *p, progress_info_t *out)
{
	double now = (double)time(NULL);

	slurm_mutex_lock(&p->mutex);
	out->acct = _accounts_nodes_locked(p, now, &out->monopoly);
	out->count = out->acct ? eunomia_books_count(p->books) : 0;
	out->default_weight = p->conf->default_share;
	out->name = xcalloc(out->count ? out->count : 1, sizeof(char *));
	for (int a = 0; a < out->count; a++)
		out->name[a] = xstrdup(eunomia_books_name(p->books, a));
	slurm_mutex_unlock(&p->mutex);
}

/* The largest factor among the features a pending job asks for ("gen4",
 * "gen3|gen4", "gen4&ib"), or 0 when it asks for none the map knows. */
static double _constraint_speed(eunomia_progress_t *p, const char *account,
				const char *features)
{
	char *list, *c;
	double s;

	if (!features || !features[0])
		return 0;
	list = xstrdup(features);
	for (c = list; *c; c++)
		if (strchr("|&[]()*", *c))
			*c = ',';
	s = eunomia_conf_speed(p->conf, account, list);
	xfree(list);
	/* Nothing named in the map: the default speed, i.e. no information. */
	return s;
}

double eunomia_progress_job_rate(eunomia_progress_t *p,
				 job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	double cpus, speed = 0, mono = 0, total = 0, rate;
	node_record_t *node_ptr;
	int a;

	slurm_mutex_lock(&p->mutex);
	cpus = d && d->min_cpus ? d->min_cpus : 1;
	if (d && d->features && d->features[0])
		speed = _constraint_speed(p, job_ptr->account, d->features);
	if (!(speed > 0)) {
		a = _account(p, job_ptr->account);
		for (int i = 0; (node_ptr = next_node(&i)); i++)
			total += node_ptr->cpus_efctv;
		mono = a >= 0 ? _mono_rate(p, a) : 0;
	}
	rate = eunomia_expected_rate(cpus, speed, mono, total);
	slurm_mutex_unlock(&p->mutex);
	return rate;
}
