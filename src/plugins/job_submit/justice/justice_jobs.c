/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_jobs.c - see justice_jobs.h.
 *
 * Where a job's facts live.  What Justice needs to know of a job after
 * admitting it (the most CPUs it may use, the node range it was admitted
 * with and its CPUs per node, its time limit at submission, what Justice
 * allotted it and the size it last gave it) is kept in the plugin's own
 * records (core justice_records, saved in its state file), never read
 * back from the job: the note Justice writes in the job's AdminComment is
 * for people, and an admin or another job_submit plugin may overwrite it.
 *
 * job_submit runs before slurmctld gives the job its id (Slurm 22.05
 * assigns it in job_allocate(), after the plugins, under the same job
 * write lock), so an admission is kept in ctx->pending under a serial
 * with the submitter's uid, the deadline, the time of admission and the
 * size Justice gave it.  The next job_modify of the job, or the next
 * period, before anything else, finds the job these match (same uid and
 * deadline, submitted within JUSTICE_ADOPT_SLACK s, and with the node
 * count Justice gave it) and files the facts under its job id; two jobs
 * alike in all of these took the same decision a moment apart, so which
 * gets which facts does not matter.  An admission no job matches (slurmctld
 * refused the job after the plugins) is dropped after JUSTICE_PENDING_TTL.
 * A task split off a job array gets a copy of the array's record.  A
 * record goes when its job has finished (after Justice learnt from it) or
 * has left slurmctld's job list.
 *
 * A job Justice has no record of (admitted before a state file of version
 * 1 was loaded, or while the table was full) is treated as one it knows
 * nothing of: it is never sized again, its time limit claims nothing, and
 * it is learnt from with what its job record says (its CPUs; allotted
 * unknown).  Its note is not read back.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "horae_compat.h"
#include HORAE_INC_SRUN_COMM

#include "common/justice.h"
#include "common/justice_records.h"
#include "common/prio.h"
#include "justice_jobs.h"

extern const char plugin_type[];

/* admin_comment of an admitted job: "justice: up to M CPUs ...". */
#define UPTO "justice: up to "

/* How far a job's submit time may be from its admission (s), and how long
 * an admission waits for its job before it is dropped. */
#define JUSTICE_ADOPT_SLACK 5
#define JUSTICE_PENDING_TTL 600

static double _capacity(void)
{
	node_record_t *node_ptr;
	double cpus = 0;

	for (int i = 0; (node_ptr = next_node(&i)); i++)
		cpus += node_ptr->cpus_efctv;
	return cpus;
}

static void _when(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static justice_params_t _params(const justice_ctx_t *ctx)
{
	justice_params_t p = { .policy = ctx->conf.policy,
			       .capacity = _capacity(),
			       .bootstrap = ctx->conf.bootstrap };
	return p;
}

/* --- submission ------------------------------------------------------------ */

typedef struct shape {
	double per_node;	/* CPUs per node of a node range */
	double requested;	/* the most CPUs it may use */
	bool elastic;		/* a node range Justice may size */
	uint32_t min_nodes, max_nodes;
} shape_t;

static uint32_t _u32(uint32_t v, uint32_t deflt)
{
	return v == NO_VAL ? deflt : v;
}

static uint16_t _u16(uint16_t v, uint16_t deflt)
{
	return v == NO_VAL16 ? deflt : v;
}

static shape_t _shape(const justice_ctx_t *ctx, const job_desc_msg_t *d)
{
	shape_t s = { 0 };
	double cpt = _u16(d->cpus_per_task, 1), tasks;

	s.per_node = _u16(d->ntasks_per_node, 1) * cpt;
	s.min_nodes = _u32(d->min_nodes, 1);
	s.max_nodes = _u32(d->max_nodes, s.min_nodes);
	s.elastic = ctx->conf.elastic && s.max_nodes > s.min_nodes;
	if (s.elastic) {
		s.requested = s.max_nodes * s.per_node;
	} else {
		tasks = _u32(d->num_tasks, 1) * cpt;
		s.requested = fmax(fmax(_u32(d->min_cpus, 1), tasks),
				   s.min_nodes * s.per_node);
	}
	return s;
}

static int _refuse(justice_ctx_t *ctx, char **err_msg, int rc,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int _refuse(justice_ctx_t *ctx, char **err_msg, int rc,
		   const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	info("%s: refused: %s", plugin_type, msg);
	if (err_msg) {
		xfree(*err_msg);
		*err_msg = xstrdup_printf("%s: %s", plugin_type, msg);
	}
	ctx->counts.refused++;
	return rc;
}

/*
 * The time slurmctld insists a deadline job has before its deadline: its
 * --time-min, else its time limit, else one minute (job_mgr.c sets
 * time_min = 1 for a deadline job without a limit); 0 with an unlimited
 * time limit.  Minutes.
 */
static uint32_t _slurm_minimum(const job_desc_msg_t *d)
{
	if (d->time_min != NO_VAL && d->time_min)
		return d->time_min;
	if (d->time_limit == INFINITE)
		return 0;
	if (d->time_limit != NO_VAL)
		return d->time_limit;
	return 1;
}

/* Checks that need no history: a deadline Slurm would throw away anyway. */
static int _sane(justice_ctx_t *ctx, const job_desc_msg_t *d, const shape_t *s,
		 time_t now, time_t start, char **err_msg)
{
	uint32_t lim = _slurm_minimum(d);
	char when[32];

	_when(d->deadline, when, sizeof(when));
	if (d->deadline <= now)
		return _refuse(ctx, err_msg, ESLURM_INVALID_TIME_VALUE,
			       "the deadline %s is not in the future", when);
	if (start >= d->deadline)
		return _refuse(ctx, err_msg, ESLURM_INVALID_TIME_VALUE,
			       "the deadline %s comes before the job may begin",
			       when);
	if (start + (time_t)lim * 60 > d->deadline)
		return _refuse(ctx, err_msg, ESLURM_INVALID_TIME_VALUE,
			       "the deadline %s is less than the job's %s (%u min) away from its earliest start; Slurm would cancel it",
			       when,
			       d->time_min != NO_VAL && d->time_min ?
				       "minimum time" :
			       d->time_limit != NO_VAL ? "time limit" :
							 "minimum time Slurm gives a deadline job without a time limit",
			       lim);
	if (s->min_nodes > s->max_nodes || !(s->requested > 0))
		return _refuse(ctx, err_msg, ESLURM_INVALID_NODE_COUNT,
			       "a job of %u to %u nodes cannot be sized",
			       s->min_nodes, s->max_nodes);
	return SLURM_SUCCESS;
}

/* Size a node range to the fewest nodes that give reqCPUs. */
static void _size(job_desc_msg_t *d, const shape_t *s, double req_cpus)
{
	uint32_t n = (uint32_t)justice_size(req_cpus, s->per_node, s->min_nodes,
					    s->max_nodes);

	d->min_nodes = d->max_nodes = n;
	if (d->min_cpus != NO_VAL)
		d->min_cpus = (uint32_t)(n * s->per_node);
	if (d->num_tasks != NO_VAL && d->ntasks_per_node != NO_VAL16)
		d->num_tasks = n * d->ntasks_per_node;
}

/* The note, for people (the facts are in the job's record): "justice: up
 * to M CPUs (A-B nodes of P); sized to N nodes for C CPUs; limit L min". */
#define SIZED "sized to "
#define FOR " nodes for "
/* The time limit the job was submitted with (slurmctld cuts it to the
 * minutes left to the deadline when the job starts).  Learning from a job
 * cut short takes it as what the job claimed. */
#define LIMIT "; limit "
/* Said when the claim, not the estimate, set the size. */
#define CLAIMED " (more: its time limit)"

/* The CPU x s a node range's time limit claims at its bottom. */
static double _claim(uint32_t limit_min, uint32_t lo, double per_node)
{
	return limit_min * 60.0 * lo * per_node;
}

static void _note(job_desc_msg_t *d, double max_cpus, const shape_t *s,
		  const char *what)
{
	char lim[32] = "";
	char *note;

	if (d->time_limit != NO_VAL && d->time_limit != INFINITE)
		snprintf(lim, sizeof(lim), LIMIT "%u min", d->time_limit);
	note = s->elastic ? xstrdup_printf(UPTO "%.0f CPUs (%u-%u nodes of %.0f); %s%s",
					   max_cpus, s->min_nodes, s->max_nodes,
					   s->per_node, what, lim) :
			    xstrdup_printf(UPTO "%.0f CPUs; %s%s", max_cpus,
					   what, lim);

	if (d->admin_comment) {
		xstrfmtcat(d->admin_comment, "; %s", note);
		xfree(note);
	} else {
		d->admin_comment = note;
	}
}

/* How long a deadline job starting at start may run (a job sized for
 * the seconds past the last whole minute would be ended short). */
static double _run_cap(time_t deadline, time_t start)
{
	return justice_run_cap(difftime(deadline, start));
}

/* The facts of a job Justice admitted (the caller sets key, uid and the
 * times of submission and update). */
static void _facts(justice_record_t *rec, const job_desc_msg_t *d,
		   const shape_t *s, const justice_estimate_t *e, bool sized)
{
	memset(rec, 0, sizeof(*rec));
	rec->deadline = d->deadline;
	rec->max_cpus = e->max_cpus;
	rec->elastic = s->elastic;
	if (s->elastic) {
		rec->min_nodes = s->min_nodes;
		rec->max_nodes = s->max_nodes;
		rec->per_node = s->per_node;
	}
	if (d->time_limit != NO_VAL && d->time_limit != INFINITE &&
	    d->time_limit <= JUSTICE_RECORD_U32_MAX)
		rec->limit_min = d->time_limit;
	if (e->verdict != JUSTICE_BOOTSTRAP)
		rec->allotted = e->req_cpus;
	if (sized)
		rec->sized_to = d->min_nodes;
}

/* Judge d; on admission, *rec (if not NULL) receives its facts. */
static int _judge(justice_ctx_t *ctx, job_desc_msg_t *d, time_t now,
		  time_t since, const char *who, char **err_msg,
		  justice_record_t *rec)
{
	shape_t s = _shape(ctx, d);
	justice_params_t p = _params(ctx);
	time_t start = d->begin_time > now ? d->begin_time : now;
	justice_request_t r = { .requested = s.requested,
				.deadline = (double)(d->deadline - since),
				.queued = (double)(start - since),
				.run_cap = _run_cap(d->deadline, start) };
	justice_estimate_t e;
	horae_err_t err;
	char when[32], ok[32], what[128];
	int rc;

	if (s.elastic && d->time_limit != NO_VAL && d->time_limit != INFINITE)
		r.claim = _claim(d->time_limit, s.min_nodes, s.per_node);

	if ((rc = _sane(ctx, d, &s, now, start, err_msg)))
		return rc;
	if (justice_estimate(ctx->hist, &p, &r, &e, &err))
		return _refuse(ctx, err_msg, ESLURM_INVALID_TIME_VALUE, "%s",
			       err.text);
	_when(d->deadline, when, sizeof(when));
	if (e.verdict == JUSTICE_INFEASIBLE) {
		if (isfinite(e.deadline_ok)) {
			time_t t = since + (time_t)ceil(e.deadline_ok);

			_when(t, ok, sizeof(ok));
		} else {
			snprintf(ok, sizeof(ok), "none");
		}
		return _refuse(ctx, err_msg, ESLURM_INVALID_TIME_VALUE,
			       "%s: deadline %s cannot be met: from %ld finished jobs Justice estimates it needs %.0f CPUs until then (%.0f%% of its %.0f, having to wait %lds), but it may use at most %.0f; feasible: a deadline at or after %s, or %.0f CPUs",
			       who, when, justice_history_count(ctx->hist),
			       e.cpus_needed, e.fraction * 100, e.max_cpus,
			       (long)(start - since), e.max_cpus, ok,
			       e.cpus_needed);
	}
	ctx->counts.admitted++;
	if (rec)
		_facts(rec, d, &s, &e, false);
	if (e.verdict == JUSTICE_BOOTSTRAP) {
		snprintf(what, sizeof(what),
			 "admitted while learning (%ld of %ld jobs)",
			 justice_history_count(ctx->hist), ctx->conf.bootstrap);
	} else if (s.elastic && e.size_cpus < s.requested) {
		_size(d, &s, e.size_cpus);
		ctx->counts.sized++;
		if (rec)
			rec->sized_to = d->min_nodes;
		snprintf(what, sizeof(what), SIZED "%u" FOR "%.0f CPUs%s",
			 d->min_nodes, e.req_cpus,
			 e.size_cpus > e.req_cpus ? CLAIMED : "");
	} else {
		snprintf(what, sizeof(what), "admitted, needs %.0f CPUs",
			 e.req_cpus);
	}
	_note(d, e.max_cpus, &s, what);
	info("%s: %s: deadline %s, up to %.0f CPUs: %s", plugin_type, who,
	     when, e.max_cpus, what);
	return SLURM_SUCCESS;
}

/* File rec in table; a failure costs only what Justice knows of the job. */
static void _keep(justice_records_t *table, const justice_record_t *rec,
		  const char *who)
{
	horae_err_t err;

	if (justice_records_put(table, rec, &err))
		error("%s: %s: not kept, Justice will know nothing of it: %s",
		      plugin_type, who, err.text);
}

int justice_submit(justice_ctx_t *ctx, job_desc_msg_t *desc, uint32_t uid,
		   char **err_msg)
{
	time_t now = time(NULL);
	justice_record_t rec;
	char who[64];
	int rc;

	if (!desc->deadline || desc->deadline == (time_t)NO_VAL)
		return SLURM_SUCCESS;
	snprintf(who, sizeof(who), "new job of uid %u", uid);
	rc = _judge(ctx, desc, now, now, who, err_msg, &rec);
	if (rc != SLURM_SUCCESS)
		return rc;
	rec.uid = uid;
	rec.submit = rec.updated = now;
	/* A job id given at submission (root's --jobid) is the key now. */
	if (HORAE_JOB_DESC_JOB_ID(desc) != NO_VAL &&
	    HORAE_JOB_DESC_JOB_ID(desc) &&
	    HORAE_JOB_DESC_JOB_ID(desc) <= JUSTICE_RECORD_U32_MAX) {
		rec.key = HORAE_JOB_DESC_JOB_ID(desc);
		_keep(ctx->records, &rec, who);
		return rc;
	}
	if (++ctx->next_serial > JUSTICE_RECORD_U32_MAX)
		ctx->next_serial = 1;
	rec.key = ctx->next_serial;
	_keep(ctx->pending, &rec, who);
	return rc;
}

/* A task split off a job array (a job of its own, with its own id; the
 * array's meta record keeps the array's id). */
static bool _split_task(const job_record_t *job_ptr)
{
	return job_ptr->array_task_id != NO_VAL && job_ptr->array_job_id &&
	       job_ptr->array_job_id != job_ptr->job_id;
}

/* Whether the admission rec is job_ptr's (see the top of this file). */
static bool _matches(const justice_record_t *rec, const job_record_t *job_ptr)
{
	const job_details_t *d = job_ptr->details;
	uint32_t lo = rec->sized_to ? rec->sized_to : rec->min_nodes;
	uint32_t hi = rec->sized_to ? rec->sized_to : rec->max_nodes;

	if (_split_task(job_ptr) || rec->uid != job_ptr->user_id ||
	    rec->deadline != (int64_t)job_ptr->deadline ||
	    llabs((long long)d->submit_time - (long long)rec->submit) >
		    JUSTICE_ADOPT_SLACK)
		return false;
	return !rec->elastic || (d->min_nodes == lo && d->max_nodes == hi);
}

/*
 * job_ptr's record: the one filed under its id, else the admission that
 * matches it, filed under its id now.  Lent until the table changes; NULL
 * when Justice knows nothing of the job.
 */
static const justice_record_t *_record(justice_ctx_t *ctx,
				       const job_record_t *job_ptr)
{
	const justice_record_t *rec = justice_records_get(ctx->records,
							  job_ptr->job_id);
	const job_record_t *meta;
	justice_record_t found;
	char who[32];

	if (rec || !job_ptr->deadline || !job_ptr->details)
		return rec;
	for (size_t i = 0; i < justice_records_count(ctx->pending); i++) {
		rec = justice_records_at(ctx->pending, i);
		if (!_matches(rec, job_ptr))
			continue;
		found = *rec;
		justice_records_remove(ctx->pending, found.key);
		found.key = job_ptr->job_id;
		snprintf(who, sizeof(who), "JobId=%u", job_ptr->job_id);
		_keep(ctx->records, &found, who);
		return justice_records_get(ctx->records, job_ptr->job_id);
	}
	/* A task split off a job array: the array's facts (its meta record
	 * keeps them until its last task has started and finished). */
	if (_split_task(job_ptr) &&
	    (meta = find_job_record(job_ptr->array_job_id)) &&
	    !_split_task(meta) && (rec = _record(ctx, meta))) {
		found = *rec;
		found.key = job_ptr->job_id;
		snprintf(who, sizeof(who), "JobId=%u", job_ptr->job_id);
		_keep(ctx->records, &found, who);
		return justice_records_get(ctx->records, job_ptr->job_id);
	}
	return NULL;
}

int justice_modify(justice_ctx_t *ctx, job_desc_msg_t *desc,
		   job_record_t *job_ptr, char **err_msg)
{
	job_desc_msg_t d;
	job_details_t *det = job_ptr->details;
	time_t now = time(NULL);
	char who[64];
	int rc;

	justice_record_t was = { 0 }, rec;
	const justice_record_t *r;
	bool known, new_range;

	if (!IS_JOB_PENDING(job_ptr) || !det)
		return SLURM_SUCCESS;
	r = _record(ctx, job_ptr);
	if ((known = r))
		was = *r;
	/* What the job will be after the change. */
	memset(&d, 0, sizeof(d));
	d.deadline = desc->deadline && desc->deadline != (time_t)NO_VAL ?
			     desc->deadline : job_ptr->deadline;
	if (!d.deadline)
		return SLURM_SUCCESS;
	if (desc->deadline == (time_t)NO_VAL && desc->min_nodes == NO_VAL &&
	    desc->max_nodes == NO_VAL && desc->min_cpus == NO_VAL &&
	    desc->num_tasks == NO_VAL && desc->time_limit == NO_VAL &&
	    desc->time_min == NO_VAL && desc->begin_time == 0)
		return SLURM_SUCCESS; /* nothing Justice looks at changes */
	d.min_nodes = _u32(desc->min_nodes, det->min_nodes);
	d.max_nodes = _u32(desc->max_nodes, det->max_nodes ? det->max_nodes :
							     d.min_nodes);
	d.min_cpus = _u32(desc->min_cpus, det->min_cpus);
	d.max_cpus = NO_VAL;
	d.num_tasks = _u32(desc->num_tasks, det->num_tasks);
	d.ntasks_per_node = det->ntasks_per_node ? det->ntasks_per_node :
						   NO_VAL16;
	d.cpus_per_task = det->cpus_per_task ? det->cpus_per_task : NO_VAL16;
	d.time_limit = _u32(desc->time_limit, job_ptr->time_limit);
	d.time_min = desc->time_min != NO_VAL ? desc->time_min :
		     job_ptr->time_min	      ? job_ptr->time_min :
						NO_VAL;
	d.begin_time = desc->begin_time ? desc->begin_time : det->begin_time;
	snprintf(who, sizeof(who), "JobId=%u", job_ptr->job_id);
	rc = _judge(ctx, &d, now, det->submit_time, who, err_msg, &rec);
	if (rc == SLURM_SUCCESS) {
		ctx->counts.admitted--; /* a change, not a new admission */
		/* A new node range is sized like a new job's. */
		new_range = desc->min_nodes != NO_VAL ||
			    desc->max_nodes != NO_VAL;
		if (new_range) {
			desc->min_nodes = d.min_nodes;
			desc->max_nodes = d.max_nodes;
		}
		/* Same range: the job's size now is Justice's (or the size it
		 * was admitted with), not a new request; its range, CPUs and
		 * the size it was given stay what they were. */
		if (known && !new_range) {
			rec.max_cpus = was.max_cpus;
			rec.elastic = was.elastic;
			rec.min_nodes = was.min_nodes;
			rec.max_nodes = was.max_nodes;
			rec.per_node = was.per_node;
			rec.sized_to = was.sized_to;
			if (!(rec.allotted > 0))
				rec.allotted = was.allotted;
		}
		rec.key = job_ptr->job_id;
		rec.uid = job_ptr->user_id;
		rec.submit = known ? was.submit : det->submit_time;
		rec.updated = now;
		_keep(ctx->records, &rec, who);
	}
	xfree(d.admin_comment);
	return rc;
}

/* --- the period -------------------------------------------------------- */

static bool _learnable(const job_record_t *job_ptr)
{
	uint32_t base = job_ptr->job_state & JOB_STATE_BASE;

	return job_ptr->deadline && job_ptr->details && job_ptr->start_time &&
	       job_ptr->end_time > job_ptr->start_time &&
	       IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr) &&
	       (base == JOB_COMPLETE || base == JOB_TIMEOUT ||
		base == JOB_FAILED || base == JOB_DEADLINE);
}

/* The most CPUs the job could have used: what Justice recorded at
 * admission, else what it asked for. */
static double _requested(const job_record_t *job_ptr,
			 const justice_record_t *rec)
{
	if (rec)
		return rec->max_cpus;
	return fmax(job_ptr->details->min_cpus, job_ptr->total_cpus);
}

static void _learn_one(justice_ctx_t *ctx, job_record_t *job_ptr,
		       double capacity)
{
	const justice_record_t *rec = _record(ctx, job_ptr);
	double run = difftime(job_ptr->end_time, job_ptr->start_time);
	double queued = difftime(job_ptr->start_time,
				 job_ptr->details->submit_time);
	uint32_t base = job_ptr->job_state & JOB_STATE_BASE;
	justice_done_t done = {
		.requested = _requested(job_ptr, rec),
		/* The window it had: slurmctld cut it at the whole minutes
		 * left when it started (the estimate uses the same). */
		.deadline = fmin(difftime(job_ptr->deadline,
					  job_ptr->details->submit_time),
				 queued + _run_cap(job_ptr->deadline,
						   job_ptr->start_time)),
		.comp_time = job_ptr->total_cpus * run,
		.cpus = job_ptr->total_cpus,
		/* TRACK_JOB's numCPUsAllocd: the reqCPUs Justice allotted at
		 * admission or when it last sized the job; 0: none. */
		.allotted = rec ? rec->allotted : 0,
		.success = base == JOB_COMPLETE &&
			   job_ptr->end_time <= job_ptr->deadline,
		/* Ended by its limit (slurmctld's cut to the deadline) or
		 * killed past the deadline: its work was not done. */
		.cut = base == JOB_TIMEOUT || base == JOB_DEADLINE,
		.claim = job_ptr->total_cpus * 60.0 *
			 (rec ? rec->limit_min : 0),
	};
	horae_err_t err;

	if (justice_history_track(ctx->hist, &done, capacity, &err)) {
		debug("%s: not learning from %pJ: %s", plugin_type, job_ptr,
		      err.text);
	} else {
		ctx->counts.learnt++;
		info("%s: learnt from %pJ (%s): %.0f CPU-s in a window of %.0f s, up to %.0f CPUs, allotted %.0f, claim %.0f CPU-s",
		     plugin_type, job_ptr, rec ? "recorded" : "no record",
		     done.comp_time, done.deadline, done.requested,
		     done.allotted, done.claim);
	}
	justice_records_remove(ctx->records, job_ptr->job_id);
}

/* Ended, but not learnable until it is done completing. */
static bool _learnable_later(const job_record_t *job_ptr)
{
	return job_ptr->deadline && job_ptr->details && job_ptr->start_time &&
	       job_ptr->end_time && IS_JOB_COMPLETING(job_ptr);
}

static void _learn(justice_ctx_t *ctx, double capacity)
{
	list_itr_t *it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	double end;

	while ((job_ptr = list_next(it))) {
		end = (double)job_ptr->end_time;
		if (_learnable_later(job_ptr)) {
			justice_mark_waiting(ctx->mark, end);
			continue;
		}
		if (!_learnable(job_ptr) ||
		    justice_mark_seen(ctx->mark, job_ptr->job_id, end))
			continue;
		/* Out of memory: learnt from again next period rather than
		 * lost. */
		if (justice_mark_learnt(ctx->mark, job_ptr->job_id, end))
			continue;
		_learn_one(ctx, job_ptr, capacity);
	}
	list_iterator_destroy(it);
	justice_mark_close(ctx->mark);
}

/* End job_ptr as slurmctld ends a job that cannot meet its deadline. */
static void _drop(job_record_t *job_ptr, time_t now, const char *why)
{
	last_job_update = now;
	HORAE_JOB_STATE_SET(job_ptr, JOB_DEADLINE);
	job_ptr->exit_code = 1;
	job_ptr->state_reason = FAIL_DEADLINE;
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup(why);
	job_ptr->start_time = now;
	job_ptr->end_time = now;
	srun_allocate_abort(job_ptr);
	job_completion_logger(job_ptr, false);
}

static void _kill(job_record_t *job_ptr, time_t now, const char *why)
{
	last_job_update = now;
	job_ptr->end_time = now;
	job_ptr->time_last_active = now;
	HORAE_JOB_STATE_SET(job_ptr, JOB_DEADLINE | JOB_COMPLETING);
	job_ptr->exit_code = 1;
	job_ptr->state_reason = FAIL_DEADLINE;
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup(why);
	build_cg_bitmap(job_ptr);
	job_completion_logger(job_ptr, false);
	deallocate_nodes(job_ptr, false, false, false);
}

/*
 * Justice's note on a job sized again, for people: it replaces the note
 * where the comment still has it (what an admin wrote before it stays);
 * a comment an admin replaced is theirs and stays as it is.  Only found,
 * never read: the facts are in the record.
 */
static void _renote(job_record_t *job_ptr, const justice_record_t *rec,
		    const justice_estimate_t *e, time_t now)
{
	const char *c = job_ptr->admin_comment ?
				strstr(job_ptr->admin_comment, UPTO) : NULL;
	char lim[32] = "";
	char *note;

	if (!c)
		return;
	if (rec->limit_min)
		snprintf(lim, sizeof(lim), LIMIT "%u min", rec->limit_min);
	note = xstrndup(job_ptr->admin_comment, c - job_ptr->admin_comment);
	xstrfmtcat(note, UPTO "%.0f CPUs (%u-%u nodes of %.0f); " SIZED "%u" FOR "%.0f CPUs%s, %ld s after submission%s",
		   rec->max_cpus, rec->min_nodes, rec->max_nodes,
		   rec->per_node, rec->sized_to, e->req_cpus,
		   e->size_cpus > e->req_cpus ? CLAIMED : "",
		   (long)difftime(now, job_ptr->details->submit_time), lim);
	xfree(job_ptr->admin_comment);
	job_ptr->admin_comment = note;
}

/*
 * Size a waiting elastic job again with the estimate of now, as Justice
 * computes each queued job's allocation anew until it starts (the paper:
 * "Justice recomputes the CPU allocation of each enqueued job"; once it
 * runs, it keeps it).  Only a job whose record has its range and whose
 * size is still the range or what Justice sized it to: a size a user set
 * later is theirs.
 */
static void _resize(justice_ctx_t *ctx, job_record_t *job_ptr,
		    const justice_record_t *r, const justice_estimate_t *e,
		    time_t now)
{
	job_details_t *d = job_ptr->details;
	justice_record_t rec;
	uint32_t lo, hi, n, was = d->min_nodes, to;
	double per_node;
	char who[32];

	if (e->verdict != JUSTICE_FEASIBLE || !r || !r->elastic)
		return;
	lo = r->min_nodes;
	hi = r->max_nodes;
	per_node = r->per_node;
	to = r->sized_to;
	if (!(d->min_nodes == lo && d->max_nodes == hi) &&
	    !(to && d->min_nodes == to && d->max_nodes == to))
		return;
	n = (uint32_t)justice_size(e->size_cpus, per_node, lo, hi);
	if (n == d->min_nodes && n == d->max_nodes)
		return;
	/* Never smaller than Justice sized it before: a job sized down from
	 * 2 nodes to 1 was seen to get every CPU of its one node while its
	 * batch script saw the tasks of one node (Slurm 22.05, cause not
	 * found); a size the job kept is one it was once estimated to need. */
	if (to && n < to)
		return;
	d->min_nodes = d->max_nodes = n;
	if (d->min_cpus)
		d->min_cpus = (uint32_t)(n * per_node);
	if (d->num_tasks && d->ntasks_per_node)
		d->num_tasks = n * d->ntasks_per_node;
	job_set_req_tres(job_ptr, false);
	rec = *r;
	rec.sized_to = n;
	rec.allotted = e->req_cpus;
	rec.updated = now;
	snprintf(who, sizeof(who), "JobId=%u", job_ptr->job_id);
	_keep(ctx->records, &rec, who);
	_renote(job_ptr, &rec, e, now);
	last_job_update = now;
	info("%s: %pJ sized again, %u to %u nodes, for %.0f CPUs", plugin_type,
	     job_ptr, was, n, e->req_cpus);
}

/* The claim of a waiting node range, from its recorded range and limit;
 * 0 when it has either not. */
static double _recorded_claim(const justice_record_t *rec)
{
	if (!rec || !rec->elastic || !rec->limit_min)
		return 0;
	return _claim(rec->limit_min, rec->min_nodes, rec->per_node);
}

/* Find the jobs of the admissions job_submit kept (before learning, which
 * needs them), and drop admissions no job took in JUSTICE_PENDING_TTL. */
static void _adopt(justice_ctx_t *ctx, time_t now)
{
	list_itr_t *it;
	job_record_t *job_ptr;

	if (justice_records_count(ctx->pending)) {
		it = list_iterator_create(job_list);
		while ((job_ptr = list_next(it)) &&
		       justice_records_count(ctx->pending))
			if (job_ptr->deadline && job_ptr->details)
				(void)_record(ctx, job_ptr);
		list_iterator_destroy(it);
	}
	if (justice_records_prune(ctx->pending, NULL, 0,
				  now - JUSTICE_PENDING_TTL) > 0)
		debug("%s: dropped admissions no job took", plugin_type);
}

/* Forget the jobs that finished (learnt from already) or left the job
 * list: keep the records of waiting, running and completing jobs. */
static void _forget(justice_ctx_t *ctx)
{
	size_t n = 0, cap = justice_records_count(ctx->records);
	uint32_t *live;
	list_itr_t *it;
	job_record_t *job_ptr;

	if (!cap)
		return;
	live = xcalloc(cap, sizeof(*live));
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)) && n < cap)
		if ((!IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) &&
		    justice_records_get(ctx->records, job_ptr->job_id))
			live[n++] = job_ptr->job_id;
	list_iterator_destroy(it);
	if (justice_records_prune(ctx->records, live, n, 0) < 0)
		error("%s: cannot drop the records of finished jobs: out of memory",
		      plugin_type);
	xfree(live);
}

void justice_period(justice_ctx_t *ctx, time_t now)
{
	justice_params_t p = _params(ctx);
	list_itr_t *it;
	job_record_t *job_ptr, **pend = NULL;
	justice_estimate_t *est = NULL;
	size_t npend = 0, cap = 0, *order = NULL;
	double kill_above = ctx->conf.policy == JUSTICE_POLICY_REACTIVE_FS ?
				    0 :
				    ctx->conf.kill_above;
	char why[256];

	if (!job_list)
		return;
	_adopt(ctx, now);
	_learn(ctx, p.capacity);
	_forget(ctx);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		job_details_t *d = job_ptr->details;
		const justice_record_t *rec;
		justice_request_t r;
		justice_estimate_t e;
		time_t since;

		if (!job_ptr->deadline || !d)
			continue;
		if (IS_JOB_RUNNING(job_ptr) && job_ptr->deadline < now &&
		    ctx->conf.policy != JUSTICE_POLICY_BASELINE_FS &&
		    justice_kill_late((double)now, (double)job_ptr->deadline,
				      job_ptr->total_cpus, kill_above)) {
			snprintf(why, sizeof(why),
				 "job_submit/justice: past its deadline with %u CPUs (more than KillAbove=%.0f)",
				 job_ptr->total_cpus, kill_above);
			info("%s: terminating %pJ: %s", plugin_type, job_ptr,
			     why);
			_kill(job_ptr, now, why);
			ctx->counts.killed++;
			continue;
		}
		if (!IS_JOB_PENDING(job_ptr) || job_ptr->priority == 0 ||
		    ctx->conf.policy != JUSTICE_POLICY_JUSTICE)
			continue;
		since = d->submit_time;
		rec = justice_records_get(ctx->records, job_ptr->job_id);
		r.requested = _requested(job_ptr, rec);
		r.deadline = difftime(job_ptr->deadline, since);
		r.queued = difftime(d->begin_time > now ? d->begin_time : now,
				    since);
		r.run_cap = _run_cap(job_ptr->deadline,
				     d->begin_time > now ? d->begin_time : now);
		r.need = 0;
		r.claim = _recorded_claim(rec);
		if (r.deadline <= 0 ||
		    justice_estimate(ctx->hist, &p, &r, &e, NULL))
			continue;
		if (e.verdict == JUSTICE_INFEASIBLE) {
			if (isfinite(e.cpus_needed))
				snprintf(why, sizeof(why),
					 "job_submit/justice: can no longer meet its deadline: needs %.0f CPUs of the %.0f it may use",
					 e.cpus_needed, e.max_cpus);
			else
				snprintf(why, sizeof(why),
					 "job_submit/justice: can no longer meet its deadline: it has passed");
			info("%s: dropping %pJ: %s", plugin_type, job_ptr, why);
			_drop(job_ptr, now, why);
			ctx->counts.dropped++;
			continue;
		}
		if (ctx->conf.elastic)
			_resize(ctx, job_ptr, rec, &e, now);
		if (npend == cap) {
			cap = cap ? cap * 2 : 64;
			xrecalloc(pend, cap, sizeof(*pend));
			xrecalloc(est, cap, sizeof(*est));
		}
		pend[npend] = job_ptr;
		est[npend++] = e;
	}
	list_iterator_destroy(it);
	/* Urgency of the admitted pending deadline jobs, in Justice's order,
	 * as their site factor (added by priority/hmrf and multifactor). */
	if (npend && ctx->conf.urgency_weight > 0) {
		order = xcalloc(npend, sizeof(*order));
		if (!justice_order_by(est, npend, ctx->conf.order, order))
			for (size_t k = 0; k < npend; k++)
				pend[order[k]]->site_factor =
					NICE_OFFSET +
					(uint32_t)lround(
						ctx->conf.urgency_weight *
						prio_rank_factor(k, npend));
		last_job_update = now;
	}
	xfree(order);
	xfree(pend);
	xfree(est);
}
