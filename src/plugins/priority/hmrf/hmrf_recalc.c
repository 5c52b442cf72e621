/*
 * hmrf_recalc.c - the Slurm side of H-MRF: job records in, priorities out.
 * All policy is in the core (hmrf.c, prio.c); this file only gathers the
 * numbers it needs and writes back what it decides.  Locks: see
 * hmrf_recalc.h.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "common/hmrf.h"
#include "common/hmrf_shares.h"
#include "hmrf_eunomia.h"
#include "hmrf_assoc.h"
#include "hmrf_recalc.h"

extern const char plugin_type[];

/* A job's virtual charge lasts at most this without a window. */
#define HMRF_HORIZON_NO_WINDOW (7 * 86400.0)

/* A pending job as the recalculation reads it, once: the job record is
 * not read again until its priority is written. */
typedef struct pending {
	job_record_t *job_ptr;
	double eligible;
	double duration;
	uint32_t job_id;
	int account;
	size_t visit; /* its demand in recalc_t.ptres */
} pending_t;

void hmrf_tres_refresh(hmrf_ctx_t *ctx)
{
	int n = tres_layout_count(ctx->layout);

	tres_zero(&ctx->capacity);
	for (int i = 0; i < n; i++) {
		char *type = xstrdup(tres_layout_name(ctx->layout, i));
		char *name = strchr(type, '/');
		slurmdb_tres_rec_t rec = { 0 };
		int pos;

		if (name)
			*name++ = '\0';
		rec.type = type;
		rec.name = name;
		pos = assoc_mgr_find_tres_pos(&rec, true);
		ctx->tres_pos[i] = pos;
		if (pos >= 0 && pos < (int)g_tres_count && assoc_mgr_tres_array)
			ctx->capacity.v[i] = assoc_mgr_tres_array[pos]->count;
		xfree(type);
	}
	ctx->tres_known = true;
}

static tres_vec_t _vec(const hmrf_ctx_t *ctx, const uint64_t *cnt)
{
	int n = tres_layout_count(ctx->layout);
	tres_vec_t v;

	tres_zero(&v);
	for (int i = 0; cnt && i < n; i++) {
		int p = ctx->tres_pos[i];

		if (p >= 0 && cnt[p] != NO_CONSUME_VAL64 &&
		    cnt[p] != INFINITE64 && cnt[p] != NO_VAL64)
			v.v[i] = (double)cnt[p];
	}
	return v;
}

/* The most a pending job's expected run counts: ChargeHorizon, else the
 * window length (a job cannot count for more than the window). */
static double _horizon(const hmrf_ctx_t *ctx)
{
	if (ctx->conf->horizon > 0)
		return ctx->conf->horizon;
	return ctx->conf->window.kind == WINDOW_NONE ? HMRF_HORIZON_NO_WINDOW :
						       ctx->conf->window.length;
}

static double _duration(const hmrf_ctx_t *ctx, const job_record_t *job_ptr)
{
	uint32_t lim = job_ptr->time_limit;

	if ((lim == NO_VAL || lim == INFINITE) && job_ptr->part_ptr)
		lim = job_ptr->part_ptr->max_time;
	if (lim == NO_VAL || lim == INFINITE)
		return _horizon(ctx);
	return fmin(lim * 60.0, _horizon(ctx));
}

static double _eligible(const job_record_t *job_ptr)
{
	if (job_ptr->details->begin_time)
		return (double)job_ptr->details->begin_time;
	return (double)job_ptr->details->submit_time;
}

/* Charge job_ptr's allocation over [max(start, from), to]. */
static void _charge(hmrf_ctx_t *ctx, int acct, job_record_t *job_ptr,
		    double from, double to)
{
	tres_vec_t alloc = _vec(ctx, job_ptr->tres_alloc_cnt);
	double t0 = fmax((double)job_ptr->start_time, from);

	if (to > t0 && ledger_charge(ctx->st->usage, acct, &alloc, t0, to))
		error("%s: cannot charge %pJ over [%.0f, %.0f]", plugin_type,
		      job_ptr, t0, to);
}

void hmrf_job_end(hmrf_ctx_t *ctx, job_record_t *job_ptr)
{
	int acct;

	if (!job_ptr->start_time || !job_ptr->end_time)
		return;
	acct = hmrf_ctx_account(ctx, job_ptr->account);
	if (acct < 0)
		return;
	if (!ctx->tres_known)
		hmrf_tres_refresh(ctx);
	_charge(ctx, acct, job_ptr, ctx->st->charged_until,
		(double)job_ptr->end_time);
	if (ctx->nended == ctx->ended_cap) {
		ctx->ended_cap = ctx->ended_cap ? 2 * ctx->ended_cap : 64;
		xrecalloc(ctx->ended, ctx->ended_cap, sizeof(*ctx->ended));
	}
	ctx->ended[ctx->nended++] = job_ptr->job_id;
}

static int _id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether hmrf_job_end charged job_ptr since the last recalculation. */
static bool _charged_at_end(const hmrf_ctx_t *ctx, const job_record_t *job_ptr)
{
	return ctx->nended && bsearch(&job_ptr->job_id, ctx->ended,
				      ctx->nended, sizeof(*ctx->ended),
				      _id_cmp);
}

/* hmrf_job_priority with the job's eligible time (when it has details)
 * and the layout's cpu slot already known. */
static uint32_t _priority(hmrf_ctx_t *ctx, job_record_t *job_ptr,
			  double factor, double eunomia, time_t now,
			  double eligible, int cpu)
{
	struct job_details *d = job_ptr->details;
	prio_input_t in = { .hmrf = factor, .eunomia = eunomia };
	prio_factors_t f;
	uint32_t prio;

	if (d) {
		in.eligible_for = fmax(0, (double)now - eligible);
		in.cpus = job_ptr->total_cpus ? job_ptr->total_cpus :
						d->min_cpus;
		in.nice = (int)d->nice - NICE_OFFSET;
	}
	in.cluster_cpus = cpu >= 0 ? ctx->capacity.v[cpu] : 0;
	if (job_ptr->part_ptr)
		in.part = job_ptr->part_ptr->norm_priority;
	if (job_ptr->qos_ptr && job_ptr->qos_ptr->usage)
		in.qos = job_ptr->qos_ptr->usage->norm_priority;
	in.site = (int)job_ptr->site_factor - NICE_OFFSET;
	prio = prio_compute(&ctx->weights, &in, &f);
	if (!job_ptr->prio_factors)
		job_ptr->prio_factors =
			xmalloc(sizeof(priority_factors_object_t));
	job_ptr->prio_factors->priority_fs = f.hmrf;
	job_ptr->prio_factors->priority_age = f.age;
	job_ptr->prio_factors->priority_js = f.size;
	job_ptr->prio_factors->priority_part = f.part;
	job_ptr->prio_factors->priority_qos = f.qos;
	job_ptr->prio_factors->priority_assoc = f.eunomia;
	job_ptr->prio_factors->priority_site = job_ptr->site_factor;
	job_ptr->prio_factors->nice = d ? d->nice : NICE_OFFSET;
	return prio;
}

uint32_t hmrf_job_priority(hmrf_ctx_t *ctx, job_record_t *job_ptr,
			   double factor, double eunomia, time_t now)
{
	return _priority(ctx, job_ptr, factor, eunomia, now,
			 job_ptr->details ? _eligible(job_ptr) : 0,
			 tres_layout_find(ctx->layout, "cpu"));
}

/* --- one recalculation -------------------------------------------------- */

/*
 * Job records lie scattered over slurmctld's heap, and waiting for them
 * to come from memory is most of a recalculation.  The walks below ask
 * for the parts of a record they will read this many jobs ahead, and for
 * what those parts point to half as far ahead, once they are there.
 */
#define HMRF_AHEAD 8

/* The fields _visit reads. */
static void _fetch_visited(const job_record_t *job_ptr)
{
	__builtin_prefetch(&job_ptr->account);
	__builtin_prefetch(&job_ptr->details);
	__builtin_prefetch(&job_ptr->job_id);
	__builtin_prefetch(&job_ptr->job_state);
	__builtin_prefetch(&job_ptr->priority);
	__builtin_prefetch(&job_ptr->start_time);
	__builtin_prefetch(&job_ptr->time_limit);
	__builtin_prefetch(&job_ptr->tres_req_cnt);
}

static void _fetch_visited_targets(const job_record_t *job_ptr)
{
	__builtin_prefetch(job_ptr->account);
	__builtin_prefetch(job_ptr->tres_req_cnt);
	if (job_ptr->details) {
		__builtin_prefetch(&job_ptr->details->begin_time);
		__builtin_prefetch(&job_ptr->details->submit_time);
	}
}

/* The fields _priority reads and writes. */
static void _fetch_priority(const job_record_t *job_ptr)
{
	__builtin_prefetch(&job_ptr->direct_set_prio);
	__builtin_prefetch(&job_ptr->part_ptr);
	__builtin_prefetch(&job_ptr->priority, 1);
	__builtin_prefetch(&job_ptr->site_factor);
	__builtin_prefetch(&job_ptr->total_cpus);
}

static void _fetch_priority_targets(const job_record_t *job_ptr)
{
	if (job_ptr->details) {
		__builtin_prefetch(&job_ptr->details->min_cpus);
		__builtin_prefetch(&job_ptr->details->nice);
	}
	__builtin_prefetch(job_ptr->prio_factors, 1);
}

typedef struct recalc {
	hmrf_ctx_t *ctx;
	double now, from;
	int nacct, acap; /* accounts seen; room in the arrays below */
	tres_vec_t *running, *demand;
	double *earliest; /* per account: earliest eligible pending job */
	pending_t *pend;
	tres_vec_t *ptres; /* per pending job, in the order seen */
	size_t npend, pcap;
} recalc_t;

static int _by_eligible(const void *a, const void *b)
{
	const pending_t *x = a, *y = b;

	if (x->eligible != y->eligible)
		return x->eligible < y->eligible ? -1 : 1;
	return x->job_id < y->job_id ? -1 : 1;
}

static bool _rankable(const job_record_t *job_ptr)
{
	return IS_JOB_PENDING(job_ptr) && !IS_JOB_REVOKED(job_ptr) &&
	       job_ptr->priority != 0 && job_ptr->details;
}

/* Room for n accounts in the per-account arrays; new ones start empty. */
static void _grow_accounts(recalc_t *r, int n)
{
	int cap = r->acap ? r->acap : 64;

	if (n <= r->acap)
		return;
	while (cap < n)
		cap *= 2;
	xrecalloc(r->running, cap, sizeof(*r->running));
	xrecalloc(r->demand, cap, sizeof(*r->demand));
	xrecalloc(r->earliest, cap, sizeof(*r->earliest));
	for (int a = r->acap; a < cap; a++)
		r->earliest[a] = INFINITY;
	r->acap = cap;
}

/* Room for one more pending job. */
static void _grow_pending(recalc_t *r)
{
	if (r->npend < r->pcap)
		return;
	r->pcap = r->pcap ? 2 * r->pcap : 1024;
	xrecalloc(r->pend, r->pcap, sizeof(*r->pend));
	xrecalloc(r->ptres, r->pcap, sizeof(*r->ptres));
}

static void _add_pending(recalc_t *r, int a, job_record_t *job_ptr)
{
	pending_t *p;

	_grow_pending(r);
	p = &r->pend[r->npend];
	r->ptres[r->npend] = _vec(r->ctx, job_ptr->tres_req_cnt);
	tres_add(&r->demand[a], &r->ptres[r->npend]);
	p->job_ptr = job_ptr;
	p->eligible = _eligible(job_ptr);
	p->duration = _duration(r->ctx, job_ptr);
	p->job_id = job_ptr->job_id;
	p->account = a;
	p->visit = r->npend++;
	r->earliest[a] = fmin(r->earliest[a], p->eligible);
}

/*
 * The one walk over job_list: every account that appears gets an index,
 * in the order of the list; running jobs and jobs that ended are charged,
 * pending ones noted with what the ranking needs of them.
 */
static void _visit(recalc_t *r, job_record_t *job_ptr)
{
	hmrf_ctx_t *ctx = r->ctx;
	int a = hmrf_ctx_account(ctx, job_ptr->account);
	tres_vec_t v;

	if (a < 0)
		return;
	_grow_accounts(r, a + 1);
	if (IS_JOB_RUNNING(job_ptr)) {
		_charge(ctx, a, job_ptr, r->from, r->now);
		v = _vec(ctx, job_ptr->tres_alloc_cnt);
		tres_add(&r->running[a], &v);
		tres_add(&r->demand[a], &v);
		if ((double)job_ptr->start_time > ctx->st->last_start[a])
			ctx->st->last_start[a] = (double)job_ptr->start_time;
	} else if (job_ptr->start_time &&
		   (double)job_ptr->end_time > r->from &&
		   (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) &&
		   !_charged_at_end(ctx, job_ptr)) {
		/* Ended since the last recalculation (or, after a restart,
		 * while slurmctld was down): its record says when. */
		_charge(ctx, a, job_ptr, r->from, (double)job_ptr->end_time);
	} else if (_rankable(job_ptr)) {
		_add_pending(r, a, job_ptr);
	}
}

typedef struct job_array {
	job_record_t **job;
	size_t n, cap;
} job_array_t;

static int _collect(void *x, void *arg)
{
	job_array_t *all = arg;

	if (all->n == all->cap)
		return -1; /* cannot happen under the job lock */
	all->job[all->n++] = x;
	return 0;
}

/* _visit every job in job_list's order, fetching records ahead. */
static void _walk(recalc_t *r)
{
	job_array_t all = { .cap = list_count(job_list) };

	all.job = xcalloc(all.cap + 1, sizeof(*all.job));
	list_for_each_ro(job_list, _collect, &all);
	for (size_t i = 0; i < all.n; i++) {
		if (i + 2 * HMRF_AHEAD < all.n)
			_fetch_visited(all.job[i + 2 * HMRF_AHEAD]);
		if (i + HMRF_AHEAD < all.n)
			_fetch_visited_targets(all.job[i + HMRF_AHEAD]);
		_visit(r, all.job[i]);
	}
	xfree(all.job);
}

/* Configured accounts count even without jobs: the associations whose own
 * jobs have a share, else the Account lines.  After the jobs' accounts, so
 * that indices follow the job list first. */
static void _intern_configured(recalc_t *r)
{
	for (int i = 0; i < hmrf_tree_count(r->ctx->tree); i++) {
		const char *name = hmrf_tree_name(r->ctx->tree, i);

		if (hmrf_ctx_share(r->ctx, name) > 0)
			hmrf_ctx_account(r->ctx, name);
	}
	for (int i = 0; !r->ctx->tree && i < r->ctx->conf->naccounts; i++)
		hmrf_ctx_account(r->ctx, r->ctx->conf->accounts[i].name);
	r->nacct = names_count(r->ctx->st->names);
	_grow_accounts(r, r->nacct);
}

/* Does account a count in the weight sum: demand now, or an association
 * or Account line. */
static bool _counted(const recalc_t *r, int a, const char *name)
{
	return !tres_is_zero(&r->demand[a]) ||
	       hmrf_ctx_configured(r->ctx, name);
}

/*
 * The non-sharing allocation of every account with demand, its fair share
 * being its part of the shares of the accounts with an Account line or
 * with jobs (horae-hmrf.conf(5)).
 */
static void _charge_nonsharing(recalc_t *r)
{
	hmrf_ctx_t *ctx = r->ctx;
	double wsum = 0;
	tres_vec_t share, ns;

	for (int a = 0; a < r->nacct; a++) {
		const char *name = names_get(ctx->st->names, a);

		if (_counted(r, a, name))
			wsum += hmrf_ctx_share(ctx, name);
	}
	if (wsum <= 0 || r->now <= r->from)
		return;
	for (int a = 0; a < r->nacct; a++) {
		if (tres_is_zero(&r->demand[a]))
			continue;
		hmrf_fair_share(&ctx->capacity,
				hmrf_ctx_share(ctx,
					       names_get(ctx->st->names, a)),
				wsum, &share);
		hmrf_nonsharing(&r->demand[a], &share, &ns);
		ledger_charge(ctx->st->ns, a, &ns, r->from, r->now);
	}
}

static void _rank_and_set(recalc_t *r)
{
	hmrf_ctx_t *ctx = r->ctx;
	hmrf_params_t p = { .policy = ctx->conf->policy, .now = r->now,
			    .timeout = ctx->conf->timeout,
			    .horizon = _horizon(ctx),
			    .borrow_limit = ctx->conf->borrow_limit };
	hmrf_account_t *acct = xcalloc(r->nacct, sizeof(*acct));
	hmrf_job_t *jobs = xcalloc(r->npend + r->nacct, sizeof(*jobs));
	size_t *order = xcalloc(r->npend + r->nacct, sizeof(*order));
	size_t *byvisit = NULL;
	job_record_t **pend = NULL;
	double *dur = NULL, *efac = NULL, *fac = NULL;
	size_t njobs = 0, done = 0;
	bool *has_jobs = xcalloc(r->nacct, sizeof(bool));
	int cpu = tres_layout_find(ctx->layout, "cpu");
	horae_err_t err;

	p.capacity = ctx->capacity;
	/* The borrow limit compares with a share held for this long; without
	 * a window there is no such span, and no limit. */
	p.elapsed = ctx->conf->window.kind == WINDOW_NONE ?
			    INFINITY :
			    fmin(r->now - ledger_window_start(ctx->st->usage),
				 ctx->conf->window.length);
	for (int a = 0; a < r->nacct; a++) {
		acct[a].weight = hmrf_ctx_share(ctx,
						names_get(ctx->st->names, a));
		ledger_usage(ctx->st->usage, a, &acct[a].used);
		ledger_usage(ctx->st->ns, a, &acct[a].ns);
		acct[a].running = r->running[a];
		if (isfinite(r->earliest[a]))
			acct[a].waiting_since = fmax(ctx->st->last_start[a],
						     r->earliest[a]);
	}
	qsort(r->pend, r->npend, sizeof(*r->pend), _by_eligible);
	for (size_t i = 0; i < r->npend; i++) {
		const pending_t *pj = &r->pend[i];

		jobs[njobs].account = pj->account;
		jobs[njobs].tres = r->ptres[pj->visit];
		jobs[njobs++].duration = pj->duration;
		has_jobs[pj->account] = true;
	}
	efac = xcalloc(r->npend + 1, sizeof(double));
	if (ctx->weights.eunomia > 0) {
		pend = xcalloc(r->npend + 1, sizeof(*pend));
		dur = xcalloc(r->npend + 1, sizeof(double));
		for (size_t i = 0; i < r->npend; i++) {
			pend[i] = r->pend[i].job_ptr;
			dur[i] = jobs[i].duration;
		}
		hmrf_eunomia_factors(ctx, pend, r->npend, dur, efac);
	}
	/* A zero-size probe per idle account finds where its next job goes. */
	for (int a = 0; a < r->nacct; a++)
		if (!has_jobs[a])
			jobs[njobs++].account = a;
	if (hmrf_rank(&p, acct, r->nacct, jobs, njobs, order, &err)) {
		error("%s: ranking failed: %s", plugin_type, err.text);
		goto cleanup;
	}
	fac = xcalloc(r->npend + 1, sizeof(double));
	for (size_t k = 0; k < njobs; k++) {
		size_t j = order[k];
		int a = jobs[j].account;
		double f = prio_rank_factor(done, r->npend);

		if (j >= r->npend) {
			ctx->next_factor[a] = f;
			continue;
		}
		ctx->next_factor[a] = prio_rank_factor(++done, r->npend);
		fac[j] = f;
	}
	/* The job records in the order the walk met them, not in rank
	 * order: that is close to the order they sit in memory. */
	byvisit = xcalloc(r->npend + 1, sizeof(*byvisit));
	for (size_t j = 0; j < r->npend; j++)
		byvisit[r->pend[j].visit] = j;
	for (size_t v = 0; v < r->npend; v++) {
		size_t j = byvisit[v];
		job_record_t *job_ptr = r->pend[j].job_ptr;

		if (v + 2 * HMRF_AHEAD < r->npend)
			_fetch_priority(
				r->pend[byvisit[v + 2 * HMRF_AHEAD]].job_ptr);
		if (v + HMRF_AHEAD < r->npend)
			_fetch_priority_targets(
				r->pend[byvisit[v + HMRF_AHEAD]].job_ptr);

		if (!job_ptr->direct_set_prio)
			job_ptr->priority = _priority(ctx, job_ptr, fac[j],
						      efac[j], (time_t)r->now,
						      r->pend[j].eligible, cpu);
	}
	last_job_update = (time_t)r->now;
cleanup:
	xfree(acct);
	xfree(jobs);
	xfree(order);
	xfree(has_jobs);
	xfree(pend);
	xfree(dur);
	xfree(efac);
	xfree(fac);
	xfree(byvisit);
}

/*
 * The view sfair shows: every account's contribution and fair share as
 * _charge_nonsharing counts them (demand or an Account line), and its
 * dominant and aggregate shares of what the window offered (none without
 * a window).
 */
static void _view(recalc_t *r)
{
	hmrf_ctx_t *ctx = r->ctx;
	hmrf_share_in_t *in = xcalloc(r->nacct ? r->nacct : 1, sizeof(*in));
	double start = ledger_window_start(ctx->st->usage);
	/* Window=none has no span to share out: shares are left at 0. */
	double span = isfinite(start) ? r->now - start : 0;

	for (int a = 0; a < r->nacct; a++) {
		in[a].name = names_get(ctx->st->names, a);
		in[a].weight = hmrf_ctx_share(ctx, in[a].name);
		in[a].counted = _counted(r, a, in[a].name);
		ledger_usage(ctx->st->usage, a, &in[a].used);
	}
	json_object_put(ctx->shares);
	ctx->shares = hmrf_shares_to_json(r->now, span,
					  tres_layout_count(ctx->layout),
					  &ctx->capacity, in, r->nacct);
	xfree(in);
}

/*
 * Contributions from slurmdbd's associations as they are now, so that a
 * sacctmgr change counts from this recalculation on; said in the log when
 * their source changes.
 */
static void _refresh_tree(hmrf_ctx_t *ctx)
{
	bool had = ctx->tree != NULL;

	hmrf_tree_destroy(&ctx->tree);
	ctx->tree = hmrf_assoc_tree();
	if (ctx->tree && !had)
		info("%s: contributions from slurmdbd's associations (%d accounts, split as Fair Tree splits)%s",
		     plugin_type, hmrf_tree_count(ctx->tree),
		     ctx->conf->naccounts ?
			     "; the Account lines of hmrf.conf are not used" :
			     "");
	else if (!ctx->tree && had)
		info("%s: no associations: contributions from hmrf.conf",
		     plugin_type);
}

void hmrf_recalc(hmrf_ctx_t *ctx, time_t now)
{
	recalc_t r = { .ctx = ctx, .now = (double)now };

	if (!job_list)
		return;
	hmrf_tres_refresh(ctx);
	_refresh_tree(ctx);
	r.from = ctx->st->charged_until;
	if (r.now < r.from)
		r.now = r.from; /* the clock went back: charge nothing */
	if (ctx->nended)
		qsort(ctx->ended, ctx->nended, sizeof(*ctx->ended), _id_cmp);
	_walk(&r);
	_intern_configured(&r);
	ledger_advance(ctx->st->usage, r.now);
	ledger_advance(ctx->st->ns, r.now);
	_charge_nonsharing(&r);
	ctx->st->charged_until = r.now;
	ctx->nended = 0;
	ctx->recover = false;
	_rank_and_set(&r);
	_view(&r);
	xfree(r.running);
	xfree(r.demand);
	xfree(r.earliest);
	xfree(r.pend);
	xfree(r.ptres);
}
