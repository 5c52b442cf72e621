/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_progress.c - select/eunomia's progress accounting.  See
 * eunomia_progress.h.  Shares, the fair share and the gap come from the
 * core (eunomia.c); this file gathers job and node records.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "common/eunomia.h"
#include "common/eunomia_shares.h"
#include "common/state.h"
#include "common/hmrf_state_impl.h" /* until eunomia_books */
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

extern const char plugin_type[];

typedef struct running {
	uint32_t job_id;
	int acct;
	double rate; /* progress per second */
	double from; /* charged up to here */
	bool paused;
} running_t;

struct eunomia_progress {
	pthread_mutex_t mutex;
	eunomia_conf_t *conf;
	hmrf_state_t *st;     /* names + the "progress" ledger */
	char *state_path;
	char *shares_path; /* the published progress shares, for sfair */
	double saved_at;      /* charged_until of the loaded state */
	bool recover;	      /* the first sync after a restart */
	double since;	      /* history starts here (-INFINITY: loaded) */
	running_t *run;
	int nrun, caprun;
	double *mono_rate;    /* per account: its speed x CPUs, 0: unknown */
	int mono_cap;
	double common_rate;   /* the same at the cluster's factors, 0: unknown */
	double *gap;	      /* per account, valid while gap_at == now */
	int gap_cap;
	double gap_at;
	bool gap_dirty;
};

/* --- accounts and speeds ------------------------------------------------ */

/* Room in the per-account caches for every known account (accounts also
 * come from a loaded state file, not only from _account). */
static void _grow_locked(eunomia_progress_t *p)
{
	int n = names_count(p->st->names);

	if (n > p->mono_cap) {
		xrecalloc(p->mono_rate, n, sizeof(double));
		p->mono_cap = n;
	}
}

static int _account(eunomia_progress_t *p, const char *name)
{
	int a = hmrf_state_account(p->st, name ? name : "");

	if (a < 0)
		return -1;
	_grow_locked(p);
	return a;
}

static double _speed(eunomia_progress_t *p, const char *account,
		     const node_record_t *node_ptr)
{
	return eunomia_conf_speed(p->conf, account, node_ptr->features);
}

/* The progress per second the whole cluster gives account a alone.  Walks
 * the node table: only where slurmctld holds its node lock. */
static double _mono_rate(eunomia_progress_t *p, int a)
{
	const char *name = names_get(p->st->names, a);
	node_record_t *node_ptr;

	_grow_locked(p);
	if (p->mono_rate[a] > 0)
		return p->mono_rate[a];
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		p->mono_rate[a] += node_ptr->cpus_efctv *
				   _speed(p, name, node_ptr);
	return p->mono_rate[a];
}

/* The same at the cluster's own factors (no account line). */
static double _common_rate(eunomia_progress_t *p)
{
	node_record_t *node_ptr;
	double r = 0;

	if (p->common_rate > 0)
		return p->common_rate;
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		r += node_ptr->cpus_efctv *
		     speed_of(p->conf->speed, node_ptr->features);
	p->common_rate = r;
	return r;
}

/* What a running job makes per second: its CPUs on each node x speed. */
static double _job_rate(eunomia_progress_t *p, job_record_t *job_ptr)
{
	job_resources_t *r = job_ptr->job_resrcs;
	node_record_t *node_ptr;
	double rate = 0;
	int k = 0;

	if (!r || !r->node_bitmap || !r->cpus)
		goto fallback;
	for (int i = 0, n = MIN(node_record_count, (int)bit_size(r->node_bitmap));
	     i < n && k < (int)r->nhosts; i++) {
		if (!bit_test(r->node_bitmap, i) ||
		    !(node_ptr = node_record_table_ptr[i]))
			continue;
		rate += r->cpus[k++] * _speed(p, job_ptr->account, node_ptr);
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

/* --- the table of running jobs ----------------------------------------- */

static running_t *_find(eunomia_progress_t *p, uint32_t job_id)
{
	for (int i = 0; i < p->nrun; i++)
		if (p->run[i].job_id == job_id)
			return &p->run[i];
	return NULL;
}

static void _charge(eunomia_progress_t *p, int acct, double rate, double t0,
		    double t1)
{
	tres_vec_t v;

	if (!(t1 > t0) || !(rate > 0))
		return;
	tres_zero(&v);
	v.v[0] = rate;
	if (ledger_charge(p->st->usage, acct, &v, t0, t1))
		error("%s: cannot charge account %s over [%.0f, %.0f]",
		      plugin_type, names_get(p->st->names, acct), t0, t1);
	p->gap_dirty = true;
}

static void _charge_run(eunomia_progress_t *p, running_t *r, double now)
{
	if (!r->paused)
		_charge(p, r->acct, r->rate, r->from, now);
	if (now > r->from)
		r->from = now;
}

static void _track(eunomia_progress_t *p, job_record_t *job_ptr, double from)
{
	running_t *r;
	int a = _account(p, job_ptr->account);

	if (a < 0 || _find(p, job_ptr->job_id))
		return;
	if (p->nrun == p->caprun) {
		p->caprun = p->caprun ? p->caprun * 2 : 64;
		xrecalloc(p->run, p->caprun, sizeof(running_t));
	}
	r = &p->run[p->nrun++];
	r->job_id = job_ptr->job_id;
	r->acct = a;
	r->rate = _job_rate(p, job_ptr);
	r->from = from;
	r->paused = IS_JOB_SUSPENDED(job_ptr);
	p->gap_dirty = true;
}

static void _untrack(eunomia_progress_t *p, running_t *r)
{
	*r = p->run[--p->nrun];
	p->gap_dirty = true;
}

/* --- create, destroy, configuration ------------------------------------ */

static hmrf_state_t *_snapshot_locked(eunomia_progress_t *p, char **path)
{
	*path = xstrdup(p->state_path);
	return hmrf_state_dup(p->st);
}

static void _save(hmrf_state_t *snap, char *path)
{
	if (snap)
		ledger_file_save(path, EUNOMIA_STATE_KIND, snap,
				 STATE_READER_NONE);
	else
		error("%s: cannot save state: out of memory", plugin_type);
	hmrf_state_destroy(&snap);
	xfree(path);
}

static eunomia_account_t *_accounts_cached_locked(eunomia_progress_t *p,
						  double now,
						  double *monopoly);

/* The progress shares for sfair, computed now (our lock held, not
 * slurmctld's: cached rates only).  NULL until the rates are known. */
static json_object *_shares_locked(eunomia_progress_t *p, double now)
{
	int n = names_count(p->st->names);
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	eunomia_account_t *acct;
	json_object *doc;
	double mono;

	if (!(acct = _accounts_cached_locked(p, now, &mono))) {
		xfree(names);
		return NULL;
	}
	for (int a = 0; a < n; a++)
		names[a] = names_get(p->st->names, a);
	doc = eunomia_shares_to_json(now, mono, acct, names, n);
	xfree(names);
	xfree(acct);
	return doc;
}

/* Publish doc (consumed; NULL: nothing to publish yet) next to the
 * state file, readable as PrivateData says, and under PrivateData=usage
 * each user's part of it (views.h) when views; no lock held. */
static void _publish(json_object *doc, const char *path, bool views)
{
	view_readers_t *readers;
	horae_err_t err;

	if (!doc)
		return;
	if (state_save_shared(path, EUNOMIA_SHARES_KIND,
			      EUNOMIA_SHARES_VERSION, doc, views_file_reader(),
			      &err))
		error("%s: %s", plugin_type, err.text);
	readers = views ? views_readers() : NULL;
	if (views)
		views_publish(slurm_conf.state_save_location, "horae_eunomia.shares",
			      EUNOMIA_SHARES_KIND, EUNOMIA_SHARES_VERSION,
			      views_cut_accounts, doc, readers);
	view_readers_destroy(&readers);
	json_object_put(doc);
}

eunomia_progress_t *eunomia_progress_create(eunomia_conf_t *conf,
					    const char *state_dir,
					    bool start_empty)
{
	eunomia_progress_t *p = xmalloc(sizeof(*p));
	double now = (double)time(NULL);
	horae_err_t err;
	bool unreadable;

	slurm_mutex_init(&p->mutex);
	p->conf = conf;
	p->state_path = xstrdup_printf("%s/horae_eunomia.state", state_dir);
	p->shares_path = xstrdup_printf("%s/horae_eunomia.shares", state_dir);
	p->st = ledger_file_load(p->state_path, EUNOMIA_STATE_KIND,
				 &conf->window, conf->bucket, "progress",
				 &unreadable);
	if (unreadable && !start_empty) {
		error("%s: refusing to start without the accounted progress; fix or remove %s (and .old), or start slurmctld with -i to start with none",
		      plugin_type, p->state_path);
		goto fail;
	}
	if (p->st) {
		p->saved_at = p->st->charged_until;
		p->recover = true;
		p->since = -INFINITY;
		info("%s: loaded the progress of %d accounts charged up to %.0f",
		     plugin_type, names_count(p->st->names), p->saved_at);
	} else {
		p->st = hmrf_state_create(&conf->window, conf->bucket,
					  "progress", now, &err);
		if (!p->st) {
			error("%s: %s", plugin_type, err.text);
			goto fail;
		}
		p->since = now;
	}
	p->gap_dirty = true;
	return p;
fail:
	xfree(p->state_path);
	xfree(p->shares_path);
	slurm_mutex_destroy(&p->mutex);
	eunomia_conf_destroy(&p->conf);
	xfree(p);
	return NULL;
}

static void _tick(eunomia_progress_t *p, bool views);
static void _cache_rates_locked(eunomia_progress_t *p);

void eunomia_progress_destroy(eunomia_progress_t **pp)
{
	eunomia_progress_t *p;
	hmrf_state_t *snap;
	char *path;

	if (!pp || !(p = *pp))
		return;
	_tick(p, false);
	slurm_mutex_lock(&p->mutex);
	snap = _snapshot_locked(p, &path);
	slurm_mutex_unlock(&p->mutex);
	_save(snap, path);
	hmrf_state_destroy(&p->st);
	eunomia_conf_destroy(&p->conf);
	xfree(p->state_path);
	xfree(p->shares_path);
	xfree(p->run);
	xfree(p->mono_rate);
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
	memset(p->mono_rate, 0, p->mono_cap * sizeof(double));
	p->common_rate = 0;
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
	memset(p->mono_rate, 0, p->mono_cap * sizeof(double));
	p->common_rate = 0;
	p->gap_dirty = true;
	/* slurmctld holds its node write lock here: refill the caches, or
	 * the period thread publishes nothing until the next job starts. */
	_cache_rates_locked(p);
	slurm_mutex_unlock(&p->mutex);
}

/* --- job events ---------------------------------------------------------- */

/* Fill the monopoly-rate caches the period thread publishes from (it may
 * not walk the node table); slurmctld holds its node lock here. */
static void _cache_rates_locked(eunomia_progress_t *p)
{
	int n = names_count(p->st->names);

	_common_rate(p);
	for (int a = 0; a < n; a++)
		_mono_rate(p, a);
}

void eunomia_progress_sync(eunomia_progress_t *p, List jobs)
{
	double now = (double)time(NULL), t0;
	ListIterator it;
	job_record_t *job_ptr;
	int a, n = 0, recovered = 0;

	if (!jobs)
		return;
	slurm_mutex_lock(&p->mutex);
	it = list_iterator_create(jobs);
	while ((job_ptr = list_next(it))) {
		if ((IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) &&
		    job_ptr->start_time) {
			t0 = fmax((double)job_ptr->start_time,
				  p->st->charged_until);
			if (!_find(p, job_ptr->job_id)) {
				_track(p, job_ptr, t0);
				n++;
			}
		} else if (p->recover && job_ptr->start_time &&
			   (double)job_ptr->end_time > p->saved_at &&
			   (IS_JOB_FINISHED(job_ptr) ||
			    IS_JOB_COMPLETING(job_ptr)) &&
			   (a = _account(p, job_ptr->account)) >= 0) {
			/* Ran while slurmctld was down: its record says how
			 * long. */
			t0 = fmax((double)job_ptr->start_time, p->saved_at);
			_charge(p, a, _job_rate(p, job_ptr), t0,
				fmin((double)job_ptr->end_time, now));
			recovered++;
		}
	}
	list_iterator_destroy(it);
	_cache_rates_locked(p);
	if (p->recover && (n || recovered))
		info("%s: progress of %d running jobs charged from %.0f, of %d jobs that ended meanwhile up to their end",
		     plugin_type, n, p->saved_at, recovered);
	p->recover = false;
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_begin(eunomia_progress_t *p, job_record_t *job_ptr)
{
	double start = job_ptr->start_time ? (double)job_ptr->start_time :
					     (double)time(NULL);

	slurm_mutex_lock(&p->mutex);
	_track(p, job_ptr, start);
	_cache_rates_locked(p);
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_end(eunomia_progress_t *p, job_record_t *job_ptr)
{
	double now = (double)time(NULL), end;
	running_t *r;

	slurm_mutex_lock(&p->mutex);
	if ((r = _find(p, job_ptr->job_id))) {
		end = job_ptr->end_time ? fmin((double)job_ptr->end_time, now) :
					  now;
		_charge_run(p, r, end);
		_untrack(p, r);
	}
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_pause(eunomia_progress_t *p, job_record_t *job_ptr,
			    bool paused)
{
	running_t *r;

	slurm_mutex_lock(&p->mutex);
	if ((r = _find(p, job_ptr->job_id))) {
		_charge_run(p, r, (double)time(NULL));
		r->paused = paused;
		p->gap_dirty = true;
	}
	slurm_mutex_unlock(&p->mutex);
}

void eunomia_progress_resized(eunomia_progress_t *p, job_record_t *job_ptr)
{
	running_t *r;

	slurm_mutex_lock(&p->mutex);
	if ((r = _find(p, job_ptr->job_id))) {
		_charge_run(p, r, (double)time(NULL));
		r->rate = _job_rate(p, job_ptr);
		p->gap_dirty = true;
	}
	slurm_mutex_unlock(&p->mutex);
}

/* --- the period ---------------------------------------------------------- */

static void _charge_all_locked(eunomia_progress_t *p, double now)
{
	if (now < p->st->charged_until)
		now = p->st->charged_until; /* the clock went back */
	for (int i = 0; i < p->nrun; i++)
		_charge_run(p, &p->run[i], now);
	ledger_advance(p->st->usage, now);
	p->st->charged_until = now;
}

/* Charge, save and publish; the users' views (which take slurmctld's
 * locks) only from the period thread, never at shutdown. */
static void _tick(eunomia_progress_t *p, bool views)
{
	double now = (double)time(NULL);
	hmrf_state_t *snap;
	json_object *shares;
	char *path;

	slurm_mutex_lock(&p->mutex);
	_charge_all_locked(p, now);
	snap = _snapshot_locked(p, &path);
	shares = _shares_locked(p, now);
	slurm_mutex_unlock(&p->mutex);
	_save(snap, path);
	_publish(shares, p->shares_path, views);
}

void eunomia_progress_tick(eunomia_progress_t *p)
{
	_tick(p, true);
}

/* --- shares ---------------------------------------------------------------- */

/* How long the window has been filling, for the monopoly denominators. */
static double _span(eunomia_progress_t *p, double now)
{
	double start = fmax(ledger_window_start(p->st->usage), p->since);

	return isfinite(start) && now - start > 1 ? now - start : 1;
}

/* Every account's weight, progress, own monopoly (own_rate[a] x the span)
 * and activity, charged to now; *monopoly the common one.  The caller
 * frees the array. */
static eunomia_account_t *_accounts_at(eunomia_progress_t *p, double now,
				       const double *own_rate,
				       double common_rate, double *monopoly)
{
	int n = names_count(p->st->names);
	eunomia_account_t *acct = xcalloc(n ? n : 1, sizeof(*acct));
	double span = _span(p, now);
	tres_vec_t used;

	_charge_all_locked(p, now);
	for (int a = 0; a < n; a++) {
		const char *name = names_get(p->st->names, a);

		acct[a].weight = eunomia_conf_share(p->conf, name);
		if (!ledger_usage(p->st->usage, a, &used))
			acct[a].progress = used.v[0];
		acct[a].monopoly = own_rate[a] * span;
		acct[a].active = acct[a].progress > 0;
	}
	for (int i = 0; i < p->nrun; i++)
		if (p->run[i].acct < n)
			acct[p->run[i].acct].active = true;
	*monopoly = common_rate * span;
	return acct;
}

/* The same from the node table as it is now: slurmctld's node lock held
 * (job_test, the hmrf recalculation). */
static eunomia_account_t *_accounts_nodes_locked(eunomia_progress_t *p,
						 double now, double *monopoly)
{
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	_grow_locked(p);
	for (int a = 0; a < names_count(p->st->names); a++)
		_mono_rate(p, a);
	return _accounts_at(p, now, p->mono_rate, _common_rate(p), monopoly);
}

/* The same without slurmctld's node lock (the period thread): only the
 * rates already known (an account's unknown own rate counts as 0); NULL
 * while the common rate is not known yet. */
static eunomia_account_t *_accounts_cached_locked(eunomia_progress_t *p,
						  double now,
						  double *monopoly)
{
	_grow_locked(p);
	if (!(p->common_rate > 0))
		return NULL;
	return _accounts_at(p, now, p->mono_rate, p->common_rate, monopoly);
}

double eunomia_progress_gap(eunomia_progress_t *p, const char *account)
{
	double now = (double)time(NULL), gap = 0, mono, fair;
	eunomia_account_t *acct;
	int a, n;

	slurm_mutex_lock(&p->mutex);
	a = _account(p, account);
	n = names_count(p->st->names);
	if (a >= 0 && (p->gap_dirty || p->gap_at != now || a >= p->gap_cap)) {
		acct = _accounts_nodes_locked(p, now, &mono);
		fair = eunomia_fair_share(acct, n, mono);
		if (n > p->gap_cap) {
			xrecalloc(p->gap, n, sizeof(double));
			p->gap_cap = n;
		}
		for (int i = 0; i < n; i++)
			p->gap[i] = eunomia_gap(
				eunomia_account_share(&acct[i], mono), fair);
		xfree(acct);
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
	out->count = names_count(p->st->names);
	out->default_weight = p->conf->default_share;
	out->name = xcalloc(out->count ? out->count : 1, sizeof(char *));
	for (int a = 0; a < out->count; a++)
		out->name[a] = xstrdup(names_get(p->st->names, a));
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
	struct job_details *d = job_ptr->details;
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
