/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_recalc.c - the Slurm side of H-MRF: job records in, priorities out.
 * Every rule about what is charged to whom and when, and the ranking, is
 * in the core's books (hmrf_books.c) and prio.c; this file only tells the
 * books what slurmctld's records say and writes back what they decide.
 * Locks: see hmrf_recalc.h.
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
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "common/eunomia.h"
#include "common/hmrf_books.h"
#include "hmrf_eunomia.h"
#include "hmrf_assoc.h"
#include "hmrf_recalc.h"
#include "hmrf_usage.h"
#include "horae_compat.h"
#include "scratch_map.h"

#pragma weak verify_lock
#pragma weak verify_assoc_lock

extern const char plugin_type[];

/* A pending job as the recalculation reads it, once: the job record is
 * not read again until its priority is written. */
typedef struct pending {
	job_record_t *job_ptr;
	double eligible;
	uint32_t job_id;
	size_t visit; /* its place in the walk, and its row of the table */
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

/* Whether a node can give anything now: up and not drained (a draining
 * node still serves the jobs it runs), nor powered down or not yet made. */
static bool _in_service(const node_record_t *node_ptr)
{
	if (IS_NODE_DOWN(node_ptr) || IS_NODE_FUTURE(node_ptr) ||
	    IS_NODE_POWERED_DOWN(node_ptr))
		return false;
	if (IS_NODE_DRAIN(node_ptr) || IS_NODE_FAIL(node_ptr))
		return IS_NODE_ALLOCATED(node_ptr) || IS_NODE_MIXED(node_ptr) ||
		       IS_NODE_COMPLETING(node_ptr);
	return true;
}

/*
 * What the nodes have of each TRES charged, in one walk: those in service
 * give the capacity the books share out (hmrf_books_set_capacity), so that
 * time when nodes are down or drained gives no account an entitlement the
 * cluster could not have given; all of them, what the ranking divides by
 * where none is in service (hmrf_books_set_configured).  Needs the node
 * read lock.
 */
static void _capacity(const hmrf_ctx_t *ctx, tres_vec_t *in_service,
		      tres_vec_t *all)
{
	int n = tres_layout_count(ctx->layout);
	node_record_t *node_ptr;

	tres_zero(in_service);
	tres_zero(all);
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		bool serves;

		if (!node_ptr->name)
			continue;
		serves = _in_service(node_ptr);
		for (int k = 0; k < n; k++) {
			int p = ctx->tres_pos[k];
			double have = 0;

			if (p == TRES_ARRAY_NODE)
				have = 1;
			else if (p >= 0 && p < (int)g_tres_count &&
				 node_ptr->tres_cnt)
				have = (double)node_ptr->tres_cnt[p];
			all->v[k] += have;
			if (serves)
				in_service->v[k] += have;
		}
	}
}

/* The n charged TRES of cnt, slurmctld's TRES counts (ncnt of them), in
 * out[0..n-1]. */
static void _amounts(const hmrf_ctx_t *ctx, const uint64_t *cnt, uint32_t ncnt,
		     double *out, int n)
{
	for (int i = 0; i < n; i++) {
		int p = ctx->tres_pos[i];

		out[i] = 0;
		if (cnt && p >= 0 && (uint32_t)p < ncnt &&
		    cnt[p] != NO_CONSUME_VAL64 && cnt[p] != INFINITE64 &&
		    cnt[p] != NO_VAL64)
			out[i] = (double)cnt[p];
	}
}

/* The charged TRES of cnt, slurmctld's TRES counts (ncnt of them). */
static tres_vec_t _vec_n(const hmrf_ctx_t *ctx, const uint64_t *cnt,
			 uint32_t ncnt)
{
	int n = tres_layout_count(ctx->layout);
	tres_vec_t v;

	tres_zero(&v);
	_amounts(ctx, cnt, ncnt, v.v, n);
	return v;
}

/* The same of a job record's TRES array, which has all of slurmctld's. */
static tres_vec_t _vec(const hmrf_ctx_t *ctx, const uint64_t *cnt)
{
	return _vec_n(ctx, cnt, UINT32_MAX);
}

/* The job's time limit (else its partition's), s; INFINITY for none: the
 * books count it up to their charge horizon. */
static double _duration(const job_record_t *job_ptr)
{
	uint32_t lim = job_ptr->time_limit;

	if ((lim == NO_VAL || lim == INFINITE) && job_ptr->part_ptr)
		lim = job_ptr->part_ptr->max_time;
	if (lim == NO_VAL || lim == INFINITE)
		return INFINITY;
	return lim * 60.0;
}

static double _eligible(const job_record_t *job_ptr)
{
	if (job_ptr->details->begin_time)
		return (double)job_ptr->details->begin_time;
	return (double)job_ptr->details->submit_time;
}

void hmrf_job_end_usage(job_record_t *job_ptr, double charged)
{
	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	if (!job_ptr->start_time || !job_ptr->end_time)
		return;
	/* Slurm's association and QOS usage, up to its end, once. */
	hmrf_usage_charge(job_ptr, charged, (double)job_ptr->end_time, true);
}

void hmrf_job_end_books(hmrf_ctx_t *ctx, const hmrf_end_t *end)
{
	tres_vec_t alloc;
	int acct;

	if (!end->start || !end->end)
		return;
	acct = hmrf_ctx_job_account(ctx, end->assoc_id, end->account);
	if (acct < 0)
		return;
	alloc = _vec_n(ctx, end->tres, end->ntres);
	if (hmrf_books_ended(ctx->books, end->job_id, acct, &alloc,
			     (double)end->start, (double)end->end))
		error("%s: cannot charge JobId=%u over [%ld, %ld]", plugin_type,
		      end->job_id, (long)end->start, (long)end->end);
}

hmrf_end_t hmrf_end_of(const job_record_t *job_ptr)
{
	hmrf_end_t end = { .job_id = job_ptr->job_id,
			   .assoc_id = job_ptr->assoc_id,
			   .account = job_ptr->account,
			   .tres = job_ptr->tres_alloc_cnt,
			   .ntres = job_ptr->tres_alloc_cnt ?
					    slurmctld_tres_cnt :
					    0,
			   .start = job_ptr->start_time,
			   .end = job_ptr->end_time };

	return end;
}

/* hmrf_job_priority with the job's eligible time (when it has details)
 * and the cluster's CPUs already known. */
static uint32_t _priority(const prio_weights_t *w, double cluster_cpus,
			  job_record_t *job_ptr, double factor, double eunomia,
			  time_t now, double eligible)
{
	job_details_t *d = job_ptr->details;
	prio_input_t in = { .hmrf = factor, .eunomia = eunomia };
	prio_factors_t f;
	uint32_t prio;

	if (d) {
		in.eligible_for =
			(double)now > eligible ? (double)now - eligible : 0;
		in.cpus =
			job_ptr->total_cpus ? job_ptr->total_cpus : d->min_cpus;
		in.nice = (int)d->nice - NICE_OFFSET;
	}
	in.cluster_cpus = cluster_cpus;
	if (job_ptr->part_ptr)
		in.part = job_ptr->part_ptr->norm_priority;
	if (job_ptr->qos_ptr && job_ptr->qos_ptr->usage)
		in.qos = job_ptr->qos_ptr->usage->norm_priority;
	in.site = (int)job_ptr->site_factor - NICE_OFFSET;
	prio = prio_compute(w, &in, &f);
	if (!job_ptr->prio_factors)
		job_ptr->prio_factors = xmalloc(sizeof(*job_ptr->prio_factors));
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

uint32_t hmrf_job_priority(const prio_weights_t *w, double cluster_cpus,
			   job_record_t *job_ptr, double factor, double eunomia,
			   time_t now)
{
	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	return _priority(w, cluster_cpus, job_ptr, factor, eunomia, now,
			 job_ptr->details ? _eligible(job_ptr) : 0);
}

double hmrf_cluster_cpus(const hmrf_ctx_t *ctx)
{
	int cpu = tres_layout_find(ctx->layout, "cpu");

	return cpu >= 0 ? ctx->capacity.v[cpu] : 0;
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
	__builtin_prefetch(&job_ptr->assoc_id);
	__builtin_prefetch(&job_ptr->details);
	__builtin_prefetch(&job_ptr->job_id);
	__builtin_prefetch(&job_ptr->job_state);
	__builtin_prefetch(&job_ptr->priority);
	__builtin_prefetch(&job_ptr->start_time);
	__builtin_prefetch(&job_ptr->time_limit);
	__builtin_prefetch(&job_ptr->tres_req_cnt);
}

/* And the one the readers' listing reads (PrivateData=usage). */
static void _fetch_reader(const job_record_t *job_ptr)
{
	__builtin_prefetch(&job_ptr->user_id);
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

/* The fields _still_pending and _priority read and write (addresses
 * only: the record may have been freed since the gather). */
static void _fetch_priority(const job_record_t *job_ptr)
{
	__builtin_prefetch(&job_ptr->job_id);
	__builtin_prefetch(&job_ptr->job_state);
	__builtin_prefetch(&job_ptr->details);
	__builtin_prefetch(&job_ptr->prio_factors);
	__builtin_prefetch(&job_ptr->direct_set_prio);
	__builtin_prefetch(&job_ptr->part_ptr);
	__builtin_prefetch(&job_ptr->priority, 1);
	__builtin_prefetch(&job_ptr->site_factor);
	__builtin_prefetch(&job_ptr->total_cpus);
}

/* What they point to, once the record is known to be the job's. */
static void _fetch_priority_targets(const job_record_t *job_ptr)
{
	if (job_ptr->details)
		__builtin_prefetch(&job_ptr->details->nice);
	if (job_ptr->prio_factors)
		__builtin_prefetch(job_ptr->prio_factors, 1);
}

/* A job the gather found running, or ended with its end not charged yet:
 * Slurm's usage is charged for it in the write's hold (hmrf_recalc_charge),
 * for the gather holds only read locks.  Its record is known by its id
 * and start (and end): between the holds it may have ended, been purged,
 * or requeued and started again. */
typedef struct noted_charge {
	job_record_t *job_ptr;
	uint32_t job_id;
	time_t start, end;
	bool ended;
} noted_charge_t;

/*
 * The arrays a recalculation works in, kept from one to the next so that
 * a recalculation neither allocates nor zeroes them again (they follow
 * the queue's length, _room), each in a mapping of its own
 * (scratch_map.h).  Nothing in them outlives a recalculation.
 */
struct hmrf_scratch {
	pending_t *pend;
	/* The jobs as the ranking reads them (hmrf_job_table_t), per
	 * pending job, in the order seen, then in pend's order (_order),
	 * then a probe per idle account (_rank): its account, and its
	 * duration and the ntres charged TRES in a row of amounts. */
	int *account;
	double *amounts;
	int ntres;
	size_t *order;
	size_t *byvisit;
	double *fac, *efac, *dur;
	job_record_t **pend_ptr;
	bool *has_jobs;
	/* Under PrivateData=usage, each job's user and account index as
	 * the walk met them, a run of the same pair noted once
	 * (hmrf_recalc_readers). */
	uint32_t *reader_uid;
	int *reader_account;
	size_t nreaders;
	bool readers; /* the last walk noted them, not listed since */
	/* the Slurm usage the walk found to charge (hmrf_recalc_charge) */
	noted_charge_t *charges;
	size_t ncharges;
	bool charging; /* they are this gather's, not charged yet */
	/* what the gather hands the ranking, and the ranking the write */
	double now;
	double charged; /* the books' last charge before this gather */
	size_t npend; /* pending jobs in pend, fac, efac, byvisit */
	int nacct;
	bool accounts; /* nacct: the accounts known, contributions set */
	bool gathered; /* the walk is done, the books not closed yet */
	bool ordered; /* pend is sorted, the table follows it (_order) */
	bool eunomia; /* efac holds the Eunomia factors (_eunomia_factors) */
	bool prepared; /* and has_jobs set, efac too (_prepare) */
	bool ranked; /* fac, efac and byvisit hold this recalculation's */
	/* how many each has room for */
	size_t pend_cap, account_cap, amounts_cap, order_cap, byvisit_cap,
		fac_cap, efac_cap, dur_cap, pend_ptr_cap, has_jobs_cap,
		reader_uid_cap, reader_account_cap, charges_cap;
};

void hmrf_recalc_scratch_destroy(struct hmrf_scratch **scratch)
{
	struct hmrf_scratch *s;

	if (!scratch || !(s = *scratch))
		return;
	scratch_map_free((void **)&s->pend);
	scratch_map_free((void **)&s->account);
	scratch_map_free((void **)&s->amounts);
	scratch_map_free((void **)&s->order);
	scratch_map_free((void **)&s->byvisit);
	scratch_map_free((void **)&s->fac);
	scratch_map_free((void **)&s->efac);
	scratch_map_free((void **)&s->dur);
	scratch_map_free((void **)&s->pend_ptr);
	scratch_map_free((void **)&s->has_jobs);
	scratch_map_free((void **)&s->reader_uid);
	scratch_map_free((void **)&s->reader_account);
	scratch_map_free((void **)&s->charges);
	xfree(*scratch);
}

/* Room for n elements, and an eighth more so that a queue that grows
 * slowly does not make the arrays again at every recalculation. */
static size_t _want(size_t n)
{
	return n < 1024 ? 1024 : n + n / 8;
}

/* Below this many bytes an array is kept however short the queue. */
#define HMRF_ROOM_SMALL (1 << 20)

/*
 * Room for n elements of size in *p, which has room for *cap: kept when
 * it is enough and not twice too much (so that what slurmctld holds
 * follows the queue down as well as up) or small, else made again.  Each
 * array is a mapping of its own (scratch_map.h): one let go goes back to
 * the system, not to an arena where it would stay resident.
 */
static void _room(void **p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap && (n > *cap / 2 || *cap * size <= HMRF_ROOM_SMALL))
		return;
	scratch_map_free(p); /* nothing in it is kept */
	*p = scratch_map_alloc(_want(n) * size);
	*cap = scratch_map_size(*p) / size;
}

/* Room for n in scratch array s->f. */
#define ROOM(s, f, n) \
	_room((void **)&(s)->f, &(s)->f##_cap, (n), sizeof(*(s)->f))

/* Room for n elements of size in *p, keeping what it holds. */
static void _room_keep(void **p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return;
	*p = scratch_map_grow(*p, _want(n) * size);
	*cap = scratch_map_size(*p) / size;
}

typedef struct recalc {
	hmrf_ctx_t *ctx;
	struct hmrf_scratch *s;
	double now;
	double charged; /* the books' last charge: Slurm's usage from here */
	pending_t *pend; /* s->pend */
	int *account; /* s->account */
	double *amounts; /* s->amounts */
	size_t npend;
	bool readers; /* note each job's user (PrivateData=usage) */
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

/* The pending jobs cannot outnumber the jobs in job_list: the walk made
 * room for that many (_walk). */
static void _add_pending(recalc_t *r, int a, job_record_t *job_ptr)
{
	pending_t *p = &r->pend[r->npend];
	int ntres = r->s->ntres;
	double *row = &r->amounts[r->npend * (ntres + 1)];

	r->account[r->npend] = a;
	row[0] = _duration(job_ptr);
	/* Its TRES straight into its row of the table, the row then
	 * counted (no vector of every TRES slot made per job). */
	_amounts(r->ctx, job_ptr->tres_req_cnt, UINT32_MAX, row + 1, ntres);
	p->job_ptr = job_ptr;
	p->eligible = _eligible(job_ptr);
	p->job_id = job_ptr->job_id;
	p->visit = r->npend++;
	hmrf_books_waiting_row(r->ctx->books, a, row + 1, ntres, p->eligible);
}

/* Note that uid may read account a's part, unless the last job noted
 * the same pair; the walk made room for a pair per job (_walk). */
static void _note_reader(struct hmrf_scratch *s, uint32_t uid, int a)
{
	size_t n = s->nreaders;

	if (n && s->reader_uid[n - 1] == uid && s->reader_account[n - 1] == a)
		return;
	s->reader_uid[n] = uid;
	s->reader_account[n] = a;
	s->nreaders++;
}

/* Note a job whose Slurm usage the write's hold charges. */
static void _note_charge(struct hmrf_scratch *s, job_record_t *job_ptr,
			 bool ended)
{
	noted_charge_t *c;

	_room_keep((void **)&s->charges, &s->charges_cap, s->ncharges + 1,
		   sizeof(*s->charges));
	c = &s->charges[s->ncharges++];
	c->job_ptr = job_ptr;
	c->job_id = job_ptr->job_id;
	c->start = job_ptr->start_time;
	c->end = job_ptr->end_time;
	c->ended = ended;
}

/*
 * The one walk over job_list: every account that appears gets an index,
 * in the order of the list; the books are told what runs (since when),
 * what ended (when) and what waits, and the pending jobs are noted with
 * what the ranking needs of them.
 */
static void _visit(recalc_t *r, job_record_t *job_ptr)
{
	hmrf_ctx_t *ctx = r->ctx;
	int a = hmrf_ctx_job_account(ctx, job_ptr->assoc_id, job_ptr->account);
	tres_vec_t v;

	if (a < 0)
		return;
	if (r->readers)
		_note_reader(r->s, job_ptr->user_id, a);
	if (IS_JOB_RUNNING(job_ptr)) {
		v = _vec(ctx, job_ptr->tres_alloc_cnt);
		if (hmrf_books_running(ctx->books, a, &v,
				       (double)job_ptr->start_time,
				       _duration(job_ptr)))
			error("%s: cannot charge %pJ", plugin_type, job_ptr);
		_note_charge(r->s, job_ptr, false);
	} else if (job_ptr->start_time && job_ptr->end_time &&
		   (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))) {
		/* Ended since the last recalculation (or, after a restart,
		 * while slurmctld was down): its record says when.  Slurm's
		 * usage was charged at its end (and marked so), unless
		 * that was while slurmctld was down or slurmctld did not
		 * tell the plugin (without AccountingStorageEnforce=limits):
		 * then in the write's hold. */
		if ((double)job_ptr->end_time > r->charged &&
		    job_ptr->end_time_exp != (time_t)NO_VAL)
			_note_charge(r->s, job_ptr, true);
		v = _vec(ctx, job_ptr->tres_alloc_cnt);
		if (hmrf_books_ended(ctx->books, job_ptr->job_id, a, &v,
				     (double)job_ptr->start_time,
				     (double)job_ptr->end_time))
			error("%s: cannot charge %pJ", plugin_type, job_ptr);
	} else if (_rankable(job_ptr)) {
		_add_pending(r, a, job_ptr);
	}
}

/* The jobs in flight in the walk (_walk_one): a job is asked for when
 * the list gives it, what it points to HMRF_AHEAD jobs later, and it is
 * visited 2 x HMRF_AHEAD jobs later. */
#define HMRF_WALK_RING (2 * HMRF_AHEAD)

typedef struct walk {
	recalc_t *r;
	job_record_t *ring[HMRF_WALK_RING];
	size_t n, cap; /* jobs the list gave; how many it can hold */
} walk_t;

/*
 * One job of job_list, in its order: the walk follows the list's links
 * (each one a wait for memory) while the records of the jobs given
 * before it come in, so that neither waits for the other.  The job given
 * 2 x HMRF_AHEAD before this one is visited first: its place in the ring
 * is this one's.
 */
static int _walk_one(void *x, void *arg)
{
	walk_t *w = arg;
	job_record_t *job_ptr = x;
	size_t n = w->n;

	if (n == w->cap)
		return -1; /* cannot happen under the job lock */
	if (n >= HMRF_WALK_RING)
		_visit(w->r, w->ring[n % HMRF_WALK_RING]);
	w->ring[n % HMRF_WALK_RING] = job_ptr;
	_fetch_visited(job_ptr);
	if (w->r->readers)
		_fetch_reader(job_ptr);
	if (n >= HMRF_AHEAD)
		_fetch_visited_targets(
			w->ring[(n - HMRF_AHEAD) % HMRF_WALK_RING]);
	w->n++;
	return 0;
}

/* _visit every job in job_list's order, fetching records ahead. */
static void _walk(recalc_t *r)
{
	struct hmrf_scratch *s = r->s;
	walk_t w = { .r = r, .cap = list_count(job_list) };

	ROOM(s, pend, w.cap + 1);
	s->ntres = tres_layout_count(r->ctx->layout);
	ROOM(s, account, w.cap + 1);
	ROOM(s, amounts, (w.cap + 1) * (s->ntres + 1));
	s->nreaders = 0;
	if (r->readers) {
		ROOM(s, reader_uid, w.cap + 1);
		ROOM(s, reader_account, w.cap + 1);
	} else if (s->reader_uid_cap) { /* PrivateData no longer hides usage */
		scratch_map_free((void **)&s->reader_uid);
		scratch_map_free((void **)&s->reader_account);
		s->reader_uid_cap = s->reader_account_cap = 0;
	}
	r->pend = s->pend;
	r->account = s->account;
	r->amounts = s->amounts;
	s->ncharges = 0;
	list_for_each_ro(job_list, _walk_one, &w);
	/* the last ones given, still in the ring */
	for (size_t k = w.n > HMRF_WALK_RING ? w.n - HMRF_WALK_RING : 0;
	     k < w.n; k++)
		_visit(r, w.ring[k % HMRF_WALK_RING]);
}

/* Configured accounts count even without jobs: the associations whose own
 * jobs have a share, else the Account lines.  After the jobs' accounts, so
 * that indices follow the job list first.  Then every account's
 * contribution, and whether it is configured, go to the books.  Returns
 * how many accounts the books have. */
static int _intern_configured(hmrf_ctx_t *ctx)
{
	int nacct;

	for (int i = 0; i < hmrf_tree_count(ctx->tree); i++) {
		const char *name = hmrf_tree_name(ctx->tree, i);

		if (hmrf_ctx_share(ctx, name) > 0)
			hmrf_ctx_account(ctx, name);
	}
	for (int i = 0; !ctx->tree && i < ctx->conf->naccounts; i++)
		hmrf_ctx_account(ctx, ctx->conf->accounts[i].name);
	nacct = hmrf_books_count(ctx->books);
	for (int a = 0; a < nacct; a++) {
		const char *name = hmrf_books_name(ctx->books, a);
		double w = hmrf_ctx_share(ctx, name);

		if (hmrf_books_set_weight(ctx->books, a, w,
					  hmrf_ctx_configured(ctx, name)))
			error("%s: account %s has contribution %g; counted as 1",
			      plugin_type, name, w);
	}
	return nacct;
}

/* Whether the pending jobs are in _by_eligible's order already: job_list
 * holds jobs in the order they were submitted, which is mostly it. */
static bool _in_order(const pending_t *pend, size_t npend)
{
	for (size_t i = 1; i < npend; i++)
		if (_by_eligible(&pend[i - 1], &pend[i]) > 0)
			return false;
	return true;
}

/*
 * Put the table in pend[]'s order: the job seen at v goes where its pend
 * entry is.  In place, a cycle at a time, with byvisit as the map (left
 * as the identity; _rank fills it again).
 */
static void _follow_pend(struct hmrf_scratch *s)
{
	size_t *to = s->byvisit, w = (size_t)s->ntres + 1;
	double row[TRES_MAX + 1];

	for (size_t i = 0; i < s->npend; i++)
		to[s->pend[i].visit] = i;
	for (size_t v = 0; v < s->npend; v++) {
		while (to[v] != v) {
			size_t d = to[v];
			int a = s->account[d];

			s->account[d] = s->account[v];
			s->account[v] = a;
			memcpy(row, &s->amounts[d * w], w * sizeof(*row));
			memcpy(&s->amounts[d * w], &s->amounts[v * w],
			       w * sizeof(*row));
			memcpy(&s->amounts[v * w], row, w * sizeof(*row));
			to[v] = to[d];
			to[d] = d;
		}
	}
}

/*
 * The pending jobs in _by_eligible's order, each with its TRES and
 * duration for the ranking.  Reads only the scratch arrays: no job
 * record, so that without the Eunomia weight it runs with slurmctld's
 * locks let go (hmrf_recalc_rank).
 */
static void _order(struct hmrf_scratch *s)
{
	if (s->ordered)
		return;
	ROOM(s, byvisit, s->npend + 1);
	if (!_in_order(s->pend, s->npend)) {
		qsort(s->pend, s->npend, sizeof(*s->pend), _by_eligible);
		_follow_pend(s);
	}
	s->ordered = true;
}

/* The ordered jobs' accounts, which accounts have jobs, and the Eunomia
 * factors 0 unless _eunomia_factors set them: what _rank reads.  After
 * hmrf_recalc_close (nacct). */
static void _prepare(struct hmrf_scratch *s)
{
	size_t n = s->npend + s->nacct + 1;

	_order(s);
	/* the walk's rows are kept; the probes come after them */
	_room_keep((void **)&s->account, &s->account_cap, n,
		   sizeof(*s->account));
	_room_keep((void **)&s->amounts, &s->amounts_cap, n * (s->ntres + 1),
		   sizeof(*s->amounts));
	ROOM(s, order, n);
	ROOM(s, fac, s->npend + 1);
	ROOM(s, has_jobs, (size_t)s->nacct + 1);
	memset(s->has_jobs, 0, s->nacct * sizeof(bool));
	for (size_t i = 0; i < s->npend; i++)
		s->has_jobs[s->account[i]] = true;
	if (!s->eunomia) {
		ROOM(s, efac, s->npend + 1);
		memset(s->efac, 0, s->npend * sizeof(double));
	}
	s->prepared = true;
}

/* With the Eunomia weight, each ordered job's Eunomia factor, which
 * reads the job records and the nodes: under the locks. */
static void _eunomia_factors(hmrf_ctx_t *ctx, struct hmrf_scratch *s)
{
	_order(s);
	ROOM(s, efac, s->npend + 1);
	ROOM(s, dur, s->npend + 1);
	ROOM(s, pend_ptr, s->npend + 1);
	for (size_t i = 0; i < s->npend; i++) {
		s->pend_ptr[i] = s->pend[i].job_ptr;
		s->dur[i] = eunomia_charge_span(s->amounts[i * (s->ntres + 1)],
						hmrf_books_horizon(ctx->books),
						ctx->conf->period);
	}
	hmrf_eunomia_factors(ctx, s->pend_ptr, s->npend, s->dur, s->efac);
}

/*
 * The jobs ranked by the books, each pending job's H-MRF factor from its
 * place, and each account's factor for its next job.  Reads only the
 * books and the scratch arrays: no job record.
 */
static int _rank(struct hmrf_scratch *s, hmrf_ctx_t *ctx)
{
	size_t njobs = s->npend, done = 0, w = (size_t)s->ntres + 1;
	hmrf_job_table_t table = { .account = s->account,
				   .amounts = s->amounts,
				   .ntres = s->ntres };
	horae_err_t err;

	/* A zero-size probe per idle account finds where its next job
	 * goes. */
	for (int a = 0; a < s->nacct; a++) {
		if (s->has_jobs[a])
			continue;
		s->account[njobs] = a;
		memset(&s->amounts[njobs++ * w], 0, w * sizeof(double));
	}
	table.n = njobs;
	if (hmrf_books_rank_table(ctx->books, &table, s->order, &err)) {
		error("%s: ranking failed: %s", plugin_type, err.text);
		return -1;
	}
	for (size_t k = 0; k < njobs; k++) {
		size_t j = s->order[k];
		int a = s->account[j];
		double f = prio_rank_factor(done, s->npend);

		if (j >= s->npend) {
			ctx->next_factor[a] = f;
			continue;
		}
		ctx->next_factor[a] = prio_rank_factor(++done, s->npend);
		s->fac[j] = f;
	}
	/* The job records in the order the walk met them, not in rank
	 * order: that is close to the order they sit in memory. */
	for (size_t j = 0; j < s->npend; j++)
		s->byvisit[s->pend[j].visit] = j;
	return 0;
}

/*
 * Whether the job the gather saw is still in slurmctld's table, the same
 * record, and still waits: between the two holds of the locks it may have
 * started, ended, been cancelled and purged (its record freed).  The
 * record is read only once find_job_record() has returned it.
 */
static bool _still_pending(const pending_t *p)
{
	job_record_t *job_ptr = find_job_record(p->job_id);

	return job_ptr == p->job_ptr && _rankable(job_ptr);
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

/* The accounts the books know after the walk, and their contributions
 * from the associations as they are now: assoc_mgr's association lock. */
static void _accounts(hmrf_ctx_t *ctx, struct hmrf_scratch *s)
{
	if (s->accounts)
		return;
	_refresh_tree(ctx);
	s->nacct = _intern_configured(ctx);
	s->accounts = true;
}

int hmrf_recalc_gather(hmrf_ctx_t *ctx, time_t now)
{
	recalc_t r = { .ctx = ctx, .now = (double)now };
	struct hmrf_scratch *s;
	tres_vec_t cap, all;

	HORAE_ASSERT_LOCK(JOB_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(NODE_LOCK, READ_LOCK);
	HORAE_ASSERT_LOCK(PART_LOCK, READ_LOCK);
	if (!job_list)
		return -ENOENT;
	if (!ctx->scratch)
		ctx->scratch = xmalloc(sizeof(*ctx->scratch));
	s = r.s = ctx->scratch;
	s->ranked = s->prepared = s->ordered = s->eunomia = false;
	s->accounts = false;
	r.readers = views_private();
	hmrf_tres_refresh(ctx);
	_capacity(ctx, &cap, &all);
	hmrf_books_set_configured(ctx->books, &all);
	hmrf_books_set_capacity(ctx->books, &cap);
	r.charged = hmrf_books_charged_until(ctx->books);
	hmrf_books_begin(ctx->books, r.now);
	hmrf_ctx_new_walk(ctx);
	_walk(&r);
	hmrf_ctx_new_walk(ctx); /* a job's end, after, checks again */
	s->readers = r.readers;
	s->npend = r.npend;
	s->now = r.now;
	s->charged = r.charged;
	s->charging = true;
	/* The Eunomia factors read the job records, in the jobs' order, and
	 * give every account a probe: with that weight the accounts are
	 * known and the jobs put in order here, else once slurmctld's locks
	 * are let go (hmrf_recalc_close, hmrf_recalc_rank). */
	if (ctx->weights.eunomia > 0) {
		_accounts(ctx, s);
		_eunomia_factors(ctx, s);
		s->eunomia = true;
	}
	s->gathered = true;
	return 0;
}

void hmrf_recalc_close(hmrf_ctx_t *ctx)
{
	struct hmrf_scratch *s = ctx->scratch;

	xassert(!verify_assoc_lock || verify_assoc_lock(ASSOC_LOCK, READ_LOCK));
	if (!s || !s->gathered)
		return;
	_accounts(ctx, s);
	if (hmrf_books_close(ctx->books))
		error("%s: the books did not close the recalculation",
		      plugin_type);
	ctx->recover = false;
	s->gathered = false;
}

void hmrf_recalc_rank(hmrf_ctx_t *ctx)
{
	struct hmrf_scratch *s = ctx->scratch;

	/* Only on books closed since this recalculation's gather. */
	if (!s || s->gathered || !s->accounts)
		return;
	if (!s->prepared)
		_prepare(s);
	s->ranked = !_rank(s, ctx);
	/* The view sfair shows, as the books count it. */
	json_object_put(ctx->shares);
	ctx->shares = hmrf_books_view(ctx->books);
}

view_readers_t *hmrf_recalc_readers(hmrf_ctx_t *ctx)
{
	struct hmrf_scratch *s = ctx->scratch;
	view_readers_t *r;

	if (!s || !s->readers)
		return NULL;
	s->readers = false;
	if (!(r = views_readers_begin()))
		return NULL;
	for (size_t i = 0; i < s->nreaders; i++)
		views_readers_job(
			r, s->reader_uid[i],
			hmrf_books_name(ctx->books, s->reader_account[i]));
	return r;
}

/*
 * Whether the job noted at the gather may be charged now: the same record,
 * started at the same time (not requeued and started again since), and
 * its end not charged meanwhile (priority_p_job_end charges it from where
 * Slurm's usage was last charged, which covers the gather's part too).  A
 * job whose record was purged between the holds is not charged: purged
 * MinJobAge after its end, it either had its end charged then (with
 * AccountingStorageEnforce=limits) or ended while its record could be
 * purged before any gather saw it (without), as a job whose MinJobAge is
 * shorter than the Period does.
 */
static bool _chargeable(const noted_charge_t *c)
{
	job_record_t *job_ptr = find_job_record(c->job_id);

	if (job_ptr != c->job_ptr || job_ptr->start_time != c->start ||
	    job_ptr->end_time_exp == (time_t)NO_VAL)
		return false;
	return !c->ended ||
	       (job_ptr->end_time == c->end &&
		(IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)));
}

void hmrf_recalc_charge(hmrf_ctx_t *ctx)
{
	struct hmrf_scratch *s = ctx->scratch;

	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	if (!s || !s->charging)
		return;
	hmrf_usage_advance(s->charged, s->now);
	for (size_t i = 0; job_list && i < s->ncharges; i++) {
		const noted_charge_t *c = &s->charges[i];

		/* An end charged here is marked charged here too. */
		if (_chargeable(c))
			hmrf_usage_charge(c->job_ptr, s->charged, s->now,
					  c->ended);
	}
	hmrf_usage_publish(ctx->books);
	s->ncharges = 0;
	s->charging = false;
}

/* How far ahead of the job being written the write checks a job
 * (_still_pending), and the size of the ring that keeps the answers. */
#define HMRF_CHECK_AHEAD 4
#define HMRF_CHECK_RING 8 /* a power of two > HMRF_CHECK_AHEAD */

/*
 * Job v of the write (in byvisit's order) if the gather's record is still
 * the job's and it still waits (_still_pending), else NULL; and, once
 * that is known, what the record points to asked for.
 */
static job_record_t *_checked(const struct hmrf_scratch *s, size_t v)
{
	const pending_t *p = &s->pend[s->byvisit[v]];

	if (!_still_pending(p))
		return NULL;
	_fetch_priority_targets(p->job_ptr);
	return p->job_ptr;
}

void hmrf_recalc_write(hmrf_ctx_t *ctx)
{
	struct hmrf_scratch *s = ctx->scratch;
	double cpus = hmrf_cluster_cpus(ctx);
	job_record_t *ring[HMRF_CHECK_RING];
	size_t n;

	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	HORAE_ASSERT_LOCK(PART_LOCK, READ_LOCK);
	xassert(!verify_assoc_lock || verify_assoc_lock(QOS_LOCK, READ_LOCK));
	if (!s || !s->ranked || !job_list)
		return;
	n = s->npend;
	/* Each job is checked HMRF_CHECK_AHEAD jobs before it is written,
	 * all in this one hold: nothing else changes the jobs meanwhile,
	 * and the records it points to are on their way by its turn. */
	for (size_t v = 0; v < n && v < HMRF_CHECK_AHEAD; v++)
		ring[v] = _checked(s, v);
	for (size_t v = 0; v < n; v++) {
		size_t j = s->byvisit[v];
		const pending_t *p = &s->pend[j];
		job_record_t *job_ptr = ring[v % HMRF_CHECK_RING];

		/* Only an address: a prefetch reads nothing and cannot
		 * fault, even on a record freed since the gather. */
		if (v + HMRF_AHEAD < n)
			_fetch_priority(
				s->pend[s->byvisit[v + HMRF_AHEAD]].job_ptr);
		if (v + HMRF_CHECK_AHEAD < n)
			ring[(v + HMRF_CHECK_AHEAD) % HMRF_CHECK_RING] =
				_checked(s, v + HMRF_CHECK_AHEAD);
		if (!job_ptr)
			continue;
		if (!job_ptr->direct_set_prio)
			job_ptr->priority = _priority(
				&ctx->weights, cpus, job_ptr, s->fac[j],
				s->efac[j], (time_t)s->now, p->eligible);
	}
	s->ranked = false;
	last_job_update = (time_t)s->now;
}
