/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_engine.c - the discrete-event loop of horae-sim (sim_engine.h).
 *
 * The engine keeps the clock, the nodes' idle resources, each account's
 * queue and books, and a heap of task ends; it asks the core for every
 * decision.  Idle amounts are snapped to a 1e-9 grid after each change so
 * that fractional demands (0.2 CPU x 10) fill a node exactly.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eunomia.h"
#include "eunomia_books.h"
#include "heap.h"
#include "hmrf.h"
#include "hmrf_books.h"
#include "justice.h"
#include "justice_history.h"
#include "place_rrr.h"
#include "placement.h"
#include "psdsf.h"
#include "sim_engine.h"
#include "sim_nodeheap.h"
#include "tsf.h"

#define EPS 1e-9
/* The most tasks of one account a pass ranks at once. */
#define RANK_MAX 65536
/* The deepest an account's queue is looked into in one pass. */
#define QUEUE_DEPTH 256

typedef struct ev {
	double t;
	int job;
	int task; /* -1: the job's deadline */
	bool begin; /* the task starts (after start_latency); else it ends */
} ev_t;

typedef struct jstate {
	bool arrived, final, blocked;
	int given, started, done, running;
	double task_work; /* per task, at speed 1 */
	double *task_start;
	/* Its tasks' ids in the books (hmrf_books_task), for a job that
	 * may be stopped at its deadline; else NULL. */
	uint64_t *task_id;
	int next; /* next job in its account's queue, -1 */
	int floor; /* first-fit, this round: no node below it fits */
	justice_estimate_t est; /* Justice's, this pass (deadline jobs) */
} jstate_t;

typedef struct acct {
	tres_vec_t running, pending;
	double running_tasks, pending_tasks;
	double rate; /* progress per second: CPUs x speed */
	double mono_tasks;
	int qhead, qtail;
	double gap; /* Eunomia placement gap, this pass */
} acct_t;

typedef struct sim {
	const sim_trace_t *t;
	const sim_config_t *c;
	sim_result_t *r;
	jstate_t *js;
	acct_t *ac;
	int na, nn, cpu;
	int nt; /* TRES slots in use: past them every vector holds 0 */
	tres_vec_t *idle;
	int *open, nopen;
	int *open_pos; /* position in open[], -1 */
	/* Some job's tasks ask for no CPU: a node is open while any of its
	 * TRES is idle, not only while a CPU is. */
	bool cpuless;
	tres_vec_t cap, idle_total;
	double total_cpus, total_rate;
	hmrf_books_t *books; /* H-MRF's, as priority/hmrf keeps them */
	eunomia_books_t *eb; /* Eunomia's, as select/eunomia keeps them */
	ev_t *heap;
	size_t nheap, heapcap;
	place_rrr_t *rrr;
	justice_history_t *hist;
	double now, charged, next_sample;
	size_t scap, ended;
	/* scratch: a round's entries, one a job, with the tasks to rank */
	size_t entcap;
	hmrf_job_t *hj;
	eunomia_job_t *ej;
	justice_estimate_t *je;
	int *ent_job;
	size_t *ent_cnt, *ent_left;
	tsf_job_t *tj;
	/* the order: a ranker, or one over entries (each given ent_cnt
	 * times in a row) */
	hmrf_ranker_t *hr;
	eunomia_ranker_t *er;
	tsf_ranker_t *tr;
	size_t *order;
	size_t it_k, it_n, it_rep;
	tsf_account_t *ta;
	eunomia_account_t *ea;
	double *gap;
	psdsf_user_t *pu;
	place_node_t *pn;
	double *score; /* place_score's, per candidate in pn */
	/* Each node's score for one request, kept while the node's idle
	 * TRES stay as they were (_choose_scored): a job's tasks, placed
	 * one after another, change one node each. */
	uint64_t *idle_ver; /* per node: bumped when its idle TRES change */
	uint64_t *sc_ver; /* per node: idle_ver when scored */
	uint64_t *sc_epoch_of; /* per node: sc_epoch when scored, 0: never */
	double *sc_score;
	uint64_t sc_epoch; /* bumped when the request changes */
	int sc_job; /* the request the scores are for: job, gap; -1: none */
	double sc_gap;
	int *cand; /* _choose_scored's candidates */
	/* The candidates of the request scored, by score: right for
	 * sc_epoch hp_epoch as the nodes were at change hp_chg (a change:
	 * one node's idle TRES; chg counts them, chg_node is the last). */
	sim_nodeheap_t *hp;
	uint64_t hp_epoch, hp_chg, chg;
	int chg_node;
	int *pidx;
	bool *fits;
	tres_vec_t *ocap, *oidle;
} sim_t;

void sim_config_init(sim_config_t *c)
{
	memset(c, 0, sizeof(*c));
	sim_policy_parse("hmrf", &c->policy, NULL);
	c->placement.dflt = true;
	c->admission.on = false;
	c->window.kind = WINDOW_NONE;
	c->bootstrap = 10;
	c->history = 1000;
	c->kill_above = 4;
	c->urgency_first = true;
}

const char *sim_job_status_name(sim_job_status_t s)
{
	static const char *const names[] = { "ended", "refused", "dropped",
					     "killed", "unfinished" };

	return (unsigned)s < 5 ? names[s] : "unknown";
}

/* --- small helpers ----------------------------------------------------- */

static void _snap(tres_vec_t *v)
{
	for (int i = 0; i < TRES_MAX; i++) {
		double x = round(v->v[i] * 1e9) / 1e9;

		v->v[i] = x < 0 ? 0 : x;
	}
}

/* Whether job may run on node.  Most jobs name no feature: that case is
 * answered here, without a call (it is asked for every open node of
 * every task placed). */
static inline bool _eligible(const sim_t *s, int job, int node)
{
	const char *want = s->t->jobs[job].constraint;

	return !want[0] || sim_has_feature(s->t->nodes[node].features, want);
}

/* tres_fits over the slots in use (the others hold 0 everywhere). */
static inline bool _fits(const sim_t *s, const tres_vec_t *need,
			 const tres_vec_t *avail)
{
	for (int i = 0; i < s->nt; i++)
		if (need->v[i] > avail->v[i])
			return false;
	return true;
}

/* How many tasks of d the idle total could hold at most. */
static double _fit_bound(const tres_vec_t *idle, const tres_vec_t *d)
{
	double b = INFINITY;

	for (int i = 0; i < TRES_MAX; i++)
		if (d->v[i] > 0)
			b = fmin(b, floor(idle->v[i] / d->v[i] + EPS));
	return isinf(b) ? RANK_MAX : b;
}

static bool _any_idle(const sim_t *s, int n, const tres_vec_t *idle)
{
	for (int i = 0; i < TRES_MAX; i++)
		if (s->t->nodes[n].capacity.v[i] > 0 && idle->v[i] > EPS)
			return true;
	return false;
}

/* The open nodes are those a task may still go to: with an idle CPU (the
 * common case, and cheap), or any idle TRES when a job asks for no CPU.
 * Whether node n, with idle as its idle TRES, is one. */
static bool _is_open(const sim_t *s, int n, const tres_vec_t *idle)
{
	return idle->v[s->cpu] > EPS || (s->cpuless && _any_idle(s, n, idle));
}

/* Node n's idle TRES have just changed. */
static void _idle_changed(sim_t *s, int n)
{
	s->idle_ver[n]++;
	s->chg++;
	s->chg_node = n;
}

static void _open_update(sim_t *s, int n)
{
	bool want = _is_open(s, n, &s->idle[n]);

	if (want && s->open_pos[n] < 0) {
		s->open_pos[n] = s->nopen;
		s->open[s->nopen++] = n;
	} else if (!want && s->open_pos[n] >= 0) {
		int k = s->open_pos[n], last = s->open[--s->nopen];

		s->open[k] = last;
		s->open_pos[last] = k;
		s->open_pos[n] = -1;
	}
}

static bool _justice(const sim_t *s)
{
	return s->c->admission.on &&
	       (s->c->admission.policy == JUSTICE_POLICY_JUSTICE ||
		s->c->admission.policy == JUSTICE_POLICY_ORACLE);
}

static double _cpt(const sim_t *s, const sim_job_t *job)
{
	return job->demand.v[s->cpu] > 0 ? job->demand.v[s->cpu] : 1;
}

/* --- the heap of events ------------------------------------------------ */

static bool _ev_less(const void *x, const void *y, void *arg)
{
	const ev_t *a = x, *b = y;

	(void)arg;

	if (a->t != b->t)
		return a->t < b->t;
	/* Tasks that end at a deadline end before it is checked, and
	 * before tasks begin. */
	if ((a->task < 0) != (b->task < 0))
		return b->task < 0;
	if (a->begin != b->begin)
		return b->begin;
	if (a->job != b->job)
		return a->job < b->job;
	return a->task < b->task;
}

static int _push_ev(sim_t *s, double t, int job, int task, bool begin)
{
	if (s->nheap == s->heapcap) {
		size_t n = s->heapcap ? 2 * s->heapcap : 1024;
		ev_t *h = realloc(s->heap, n * sizeof(*h));

		if (!h)
			return -ENOMEM;
		s->heap = h;
		s->heapcap = n;
	}
	heap_push(s->heap, sizeof(ev_t), &s->nheap,
		  &(ev_t){ t, job, task, begin }, _ev_less, NULL);
	return 0;
}

static int _push(sim_t *s, double t, int job, int task)
{
	return _push_ev(s, t, job, task, false);
}

static ev_t _pop(sim_t *s)
{
	ev_t top;

	heap_pop(s->heap, sizeof(ev_t), &s->nheap, &top, _ev_less, NULL);
	return top;
}

/* --- books ------------------------------------------------------------- */

/* The submit time of the first job in a's queue with tasks to start. */
static double _earliest(const sim_t *s, int a)
{
	for (int j = s->ac[a].qhead; j >= 0; j = s->js[j].next)
		if (!s->js[j].final && s->js[j].started < s->js[j].given)
			return s->t->jobs[j].submit;
	return INFINITY;
}

/*
 * Tell H-MRF's books what every account held and waited for over
 * [charged, t] (or, with t == charged, what it holds and waits for now,
 * before a ranking): the books charge it.
 */
static int _books_feed(sim_t *s, double t)
{
	hmrf_books_t *b = s->books;

	if (hmrf_books_begin(b, t))
		return -EINVAL;
	for (int a = 0; a < s->na; a++) {
		const acct_t *ac = &s->ac[a];

		if (!tres_is_zero(&ac->running) &&
		    hmrf_books_running(b, a, &ac->running, -INFINITY, INFINITY))
			return -EINVAL;
		if (!tres_is_zero(&ac->pending) &&
		    hmrf_books_waiting(b, a, &ac->pending, _earliest(s, a)))
			return -EINVAL;
	}
	return hmrf_books_close(b);
}

/* Charge what every account held over [charged, t] and move the clocks. */
static int _charge(sim_t *s, double t)
{
	double dt = t - s->charged;

	if (dt <= 0)
		return 0;
	if (_books_feed(s, t) || eunomia_books_charge(s->eb, t))
		return -EINVAL;
	for (int a = 0; a < s->na; a++) {
		acct_t *ac = &s->ac[a];

		for (int i = 0; i < TRES_MAX; i++)
			s->r->used.v[i] += ac->running.v[i] * dt;
	}
	s->charged = t;
	return 0;
}

/*
 * Account a's progress rate changed at now (a task started or ended):
 * Eunomia's books hold one entry per account (id a) while it runs
 * anything, at the sum of its tasks' rates.
 */
static int _progress_rate(sim_t *s, int a)
{
	const acct_t *ac = &s->ac[a];
	bool tracked = eunomia_books_tracked(s->eb, (uint32_t)a);

	if (ac->running_tasks > 0 && tracked)
		return eunomia_books_resize(s->eb, a, ac->rate, s->now);
	if (ac->running_tasks > 0)
		return eunomia_books_start(s->eb, a, a, ac->rate, s->now,
					   false);
	return tracked ? eunomia_books_end(s->eb, a, s->now) : 0;
}

static int _sample(sim_t *s, double t)
{
	double mono, fair;

	/* The books as charged (up to t, or to this instant's events when
	 * t is within EPS of them): progress and monopoly span both up to
	 * there, charging nothing new. */
	if (eunomia_books_accounts(s->eb, eunomia_books_charged_until(s->eb),
				   s->ea, s->na, &mono))
		return -EINVAL;
	fair = eunomia_fair_share(s->ea, s->na, mono);
	for (int a = 0; a < s->na; a++) {
		const acct_t *ac = &s->ac[a];
		double w = s->t->accounts[a].weight;
		sim_sample_t *x;
		hmrf_account_t h;
		tres_vec_t used, nsv;

		if (s->r->nsamples >= SIM_SAMPLES_MAX)
			return -E2BIG;
		if (s->r->nsamples == s->scap) {
			size_t n = s->scap ? 2 * s->scap : 256;
			sim_sample_t *p =
				realloc(s->r->samples, n * sizeof(*p));

			if (!p)
				return -ENOMEM;
			s->r->samples = p;
			s->scap = n;
		}
		x = &s->r->samples[s->r->nsamples++];
		hmrf_books_get(s->books, a, &h);
		used = h.used;
		nsv = h.ns;
		x->t = t;
		x->account = a;
		x->running_tasks = ac->running_tasks;
		x->pending_tasks = ac->pending_tasks;
		x->running = ac->running;
		x->used = used;
		x->aggregate = hmrf_aggregate(&used, &s->cap, w);
		x->dominant = hmrf_dominant(&used, &s->cap, w);
		x->share_now = hmrf_dominant(&ac->running, &s->cap, w);
		x->beta = hmrf_beta(&used, &nsv);
		x->running_left = h.running_left;
		x->progress_share = eunomia_account_share(&s->ea[a], mono);
		x->fair_progress = fair;
		x->task_share =
			ac->mono_tasks > 0 ?
				ac->running_tasks / (w * ac->mono_tasks) :
				0;
	}
	return 0;
}

/* --- jobs and tasks ---------------------------------------------------- */

static void _finish(sim_t *s, int j, sim_job_status_t st)
{
	jstate_t *js = &s->js[j];
	sim_job_result_t *jr = &s->r->jobs[j];
	const sim_job_t *job = &s->t->jobs[j];

	js->final = true;
	jr->status = st;
	jr->end = s->now;
	jr->met = st == SIM_JOB_ENDED && job->deadline > 0 &&
		  s->now <= job->deadline + EPS;
	s->ended++;
	if (st == SIM_JOB_ENDED && s->hist && job->deadline > 0) {
		justice_done_t d = {
			.requested = job->tasks * job->demand.v[s->cpu],
			.deadline = job->deadline - job->submit,
			.comp_time = jr->cpu_time,
			.cpus = jr->tasks * job->demand.v[s->cpu],
			.success = jr->met,
			/* What Justice allotted it, as the plugin learns
			 * (justice_history.h); it runs to its end here. */
			.allotted = js->est.verdict == JUSTICE_FEASIBLE ?
					    js->est.req_cpus :
					    0,
		};

		justice_history_track(s->hist, &d, s->total_cpus, NULL);
	}
}

/* Task k of job j leaves its node: the node, the account and the job's
 * CPU time are settled. */
static void _release(sim_t *s, int j, int k)
{
	jstate_t *js = &s->js[j];
	const sim_job_t *job = &s->t->jobs[j];
	sim_job_result_t *jr = &s->r->jobs[j];
	acct_t *ac = &s->ac[job->account];
	int n = jr->task_node[k];

	tres_add(&s->idle[n], &job->demand);
	_snap(&s->idle[n]);
	_idle_changed(s, n);
	tres_add(&s->idle_total, &job->demand);
	_snap(&s->idle_total);
	_open_update(s, n);
	tres_sub(&ac->running, &job->demand);
	_snap(&ac->running);
	ac->running_tasks--;
	ac->rate -= job->demand.v[s->cpu] * s->t->nodes[n].speed;
	if (ac->running_tasks < 0.5) { /* no drift once it runs nothing */
		ac->running_tasks = 0;
		ac->rate = 0;
	}
	(void)_progress_rate(s, job->account); /* an end cannot fail */
	jr->cpu_time += job->demand.v[s->cpu] * (s->now - js->task_start[k]);
	js->task_start[k] = NAN;
	js->running--;
}

/* Stop job j: its unstarted tasks leave the queue, running ones free
 * their nodes. */
static void _stop(sim_t *s, int j, sim_job_status_t st)
{
	jstate_t *js = &s->js[j];
	const sim_job_t *job = &s->t->jobs[j];
	acct_t *ac = &s->ac[job->account];
	tres_vec_t left = job->demand;

	tres_scale(&left, js->given - js->started);
	tres_sub(&ac->pending, &left);
	ac->pending_tasks -= js->given - js->started;
	_snap(&ac->pending);
	for (int k = 0; k < js->started; k++)
		if (s->r->jobs[j].task_node[k] >= 0 &&
		    !isnan(js->task_start[k])) {
			/* It has nothing left of its charge span from now,
			 * as a killed job leaves the plugin's walk. */
			if (js->task_id)
				(void)hmrf_books_task_end(s->books,
							  js->task_id[k]);
			_release(s, j, k);
		}
	_finish(s, j, st);
}

static int _begin_task(sim_t *s, int j, int k);

static int _task_end(sim_t *s, const ev_t *e)
{
	jstate_t *js = &s->js[e->job];
	const sim_job_t *job = &s->t->jobs[e->job];

	if (e->begin)
		return _begin_task(s, e->job, e->task);
	if (js->final)
		return 0;
	if (e->task < 0) { /* the deadline passed */
		double cpus = js->running * _cpt(s, job);

		if (s->c->admission.policy == JUSTICE_POLICY_REACTIVE_FS)
			_stop(s, e->job,
			      js->started ? SIM_JOB_KILLED : SIM_JOB_DROPPED);
		else if (_justice(s) && js->started &&
			 justice_kill_late(s->now + EPS, job->deadline, cpus,
					   s->c->kill_above))
			_stop(s, e->job, SIM_JOB_KILLED);
		return 0;
	}
	_release(s, e->job, e->task);
	js->done++;
	if (js->done == js->given)
		_finish(s, e->job, SIM_JOB_ENDED);
	return 0;
}

/* Task k of job j, placed on its node, starts running now: from here its
 * account holds it and it is no longer demand. */
static int _begin_task(sim_t *s, int j, int k)
{
	jstate_t *js = &s->js[j];
	const sim_job_t *job = &s->t->jobs[j];
	sim_job_result_t *jr = &s->r->jobs[j];
	acct_t *ac = &s->ac[job->account];
	double speed = s->t->nodes[jr->task_node[k]].speed;
	int rc;

	tres_add(&ac->running, &job->demand);
	tres_sub(&ac->pending, &job->demand);
	_snap(&ac->pending);
	ac->running_tasks++;
	ac->pending_tasks--;
	ac->rate += job->demand.v[s->cpu] * speed;
	if (_progress_rate(s, job->account))
		return -ENOMEM;
	hmrf_books_started(s->books, job->account, s->now);
	/* What it has left of its charge span, for the ranking, until the
	 * end it is started for (_stop ends one killed at its deadline
	 * sooner). */
	if ((rc = hmrf_books_task(s->books, job->account, &job->demand, s->now,
				  js->task_work, s->now + js->task_work / speed,
				  js->task_id ? &js->task_id[k] : NULL)))
		return rc;
	if (isnan(jr->start))
		jr->start = s->now;
	js->running++;
	js->task_start[k] = s->now;
	s->r->tasks_started++;
	return _push(s, s->now + js->task_work / speed, j, k);
}

/* The scheduler gives task k of job j node n: it holds the node from now
 * and begins now, or start_latency later. */
static int _start_task(sim_t *s, int j, int n)
{
	jstate_t *js = &s->js[j];
	const sim_job_t *job = &s->t->jobs[j];
	int k = js->started;

	tres_sub(&s->idle[n], &job->demand);
	_snap(&s->idle[n]);
	_idle_changed(s, n);
	tres_sub(&s->idle_total, &job->demand);
	_snap(&s->idle_total);
	_open_update(s, n);
	js->started++;
	s->r->jobs[j].task_node[k] = n;
	if (s->c->start_latency > 0)
		return _push_ev(s, s->now + s->c->start_latency, j, k, true);
	return _begin_task(s, j, k);
}

/* Justice's estimate for job j now, queued since its submission. */
static int _estimate(sim_t *s, int j, justice_estimate_t *e)
{
	const sim_job_t *job = &s->t->jobs[j];
	double cpt = _cpt(s, job);
	justice_params_t p = { .policy = s->c->admission.policy,
			       .capacity = s->total_cpus,
			       .bootstrap = s->c->bootstrap };
	justice_request_t q = {
		.requested = job->tasks * cpt,
		.deadline = job->deadline - job->submit,
		.queued = s->now - job->submit,
		.need = job->moldable ? job->work * cpt :
					job->work * job->tasks * cpt,
	};

	return justice_estimate(s->hist, &p, &q, e, NULL);
}

/* Size job j (no task started) to Justice's reqCPUs, within its range. */
static void _size(sim_t *s, int j, const justice_estimate_t *e)
{
	const sim_job_t *job = &s->t->jobs[j];
	jstate_t *js = &s->js[j];
	acct_t *ac = &s->ac[job->account];
	int old = js->given, want;
	tres_vec_t was = job->demand, now = job->demand;

	if (e->verdict != JUSTICE_FEASIBLE || job->min_tasks >= job->tasks)
		return;
	want = (int)justice_size(e->req_cpus, _cpt(s, job), job->min_tasks,
				 job->tasks);
	if (want == old)
		return;
	ac->pending_tasks += want - old;
	js->given = want;
	s->r->jobs[j].tasks = want;
	js->task_work = job->moldable ? job->work / want : job->work;
	tres_scale(&was, old);
	tres_scale(&now, want);
	tres_sub(&ac->pending, &was);
	tres_add(&ac->pending, &now);
	_snap(&ac->pending);
}

/* Admission at arrival: false when the job is refused. */
static bool _admit(sim_t *s, int j)
{
	justice_estimate_t e;

	if (!s->c->admission.on || s->t->jobs[j].deadline <= 0)
		return true;
	if (_estimate(s, j, &e))
		return true;
	return e.verdict != JUSTICE_INFEASIBLE;
}

static int _arrive(sim_t *s, int j)
{
	const sim_job_t *job = &s->t->jobs[j];
	jstate_t *js = &s->js[j];
	sim_job_result_t *jr = &s->r->jobs[j];
	acct_t *ac = &s->ac[job->account];
	/* Its deadline passing may stop it (_task_end): its tasks' ids in
	 * the books are kept for that. */
	bool stoppable = job->deadline > 0 && s->c->admission.on;
	tres_vec_t want;

	js->arrived = true;
	js->given = job->tasks;
	if (!_admit(s, j)) {
		jr->tasks = 0;
		_finish(s, j, SIM_JOB_REFUSED);
		return 0;
	}
	jr->tasks = js->given;
	js->task_work = job->moldable ? job->work / js->given : job->work;
	jr->task_node = malloc(job->tasks * sizeof(int));
	js->task_start = malloc(job->tasks * sizeof(double));
	if (stoppable)
		js->task_id = calloc(job->tasks, sizeof(uint64_t));
	if (!jr->task_node || !js->task_start || (stoppable && !js->task_id))
		return -ENOMEM;
	for (int k = 0; k < job->tasks; k++) {
		jr->task_node[k] = -1;
		js->task_start[k] = NAN;
	}
	want = job->demand;
	tres_scale(&want, js->given);
	tres_add(&ac->pending, &want);
	ac->pending_tasks += js->given;
	if (ac->mono_tasks == 0) {
		bool *el = s->fits;

		for (int n = 0; n < s->nn; n++) {
			el[n] = _eligible(s, j, n);
			s->ocap[n] = s->t->nodes[n].capacity;
		}
		tsf_monopoly_tasks(&job->demand, s->ocap,
				   s->c->policy.tsf_cluster ? NULL : el, s->nn,
				   &ac->mono_tasks);
	}
	js->next = -1;
	if (ac->qtail >= 0)
		s->js[ac->qtail].next = j;
	else
		ac->qhead = j;
	ac->qtail = j;
	if (stoppable)
		return _push(s, job->deadline, j, -1);
	return 0;
}

/*
 * Justice and the oracle, at every pass (Algorithm 2): each pending
 * deadline job is estimated again with the time it has waited; one that
 * can no longer make it is dropped, the others are sized to their
 * reqCPUs and ranked by Justice's priority.
 */
static void _justice_pass(sim_t *s)
{
	if (!_justice(s))
		return;
	for (int a = 0; a < s->na; a++) {
		for (int j = s->ac[a].qhead; j >= 0;) {
			int next = s->js[j].next;
			jstate_t *js = &s->js[j];

			if (!js->final && !js->started &&
			    s->t->jobs[j].deadline > 0 &&
			    !_estimate(s, j, &js->est)) {
				if (js->est.verdict == JUSTICE_INFEASIBLE)
					_stop(s, j, SIM_JOB_DROPPED);
				else
					_size(s, j, &js->est);
			}
			j = next;
		}
	}
}

/* --- one scheduling pass ----------------------------------------------- */

#define GROW(p)                                           \
	do {                                              \
		void *q = realloc((p), n * sizeof(*(p))); \
		if (!q)                                   \
			return -ENOMEM;                   \
		(p) = q;                                  \
	} while (0)

/* Room for n entries. */
static int _reserve(sim_t *s, size_t n)
{
	if (n <= s->entcap)
		return 0;
	n = n < 2 * s->entcap ? 2 * s->entcap : n;
	GROW(s->hj);
	GROW(s->tj);
	GROW(s->ej);
	GROW(s->je);
	GROW(s->ent_job);
	GROW(s->ent_cnt);
	GROW(s->ent_left);
	GROW(s->order);
	s->entcap = n;
	return 0;
}

#undef GROW

/* Unlink jobs with nothing left to start from the front of a's queue. */
static void _trim(sim_t *s, int a)
{
	acct_t *ac = &s->ac[a];
	int prev = -1;

	for (int j = ac->qhead; j >= 0;) {
		int next = s->js[j].next;

		if (s->js[j].final || s->js[j].started >= s->js[j].given) {
			if (prev < 0)
				ac->qhead = next;
			else
				s->js[prev].next = next;
			if (ac->qtail == j)
				ac->qtail = prev;
			s->js[j].next = -1;
		} else {
			prev = j;
		}
		j = next;
	}
}

static int _cmp_fifo(const void *x, const void *y, void *arg)
{
	const sim_t *s = arg;
	const sim_job_t *a = &s->t->jobs[s->ent_job[*(const size_t *)x]];
	const sim_job_t *b = &s->t->jobs[s->ent_job[*(const size_t *)y]];

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	if (a != b)
		return a < b ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/*
 * Collect the pending tasks worth ranking: one entry a job, with how many
 * of its tasks (ent_cnt; in the order, they come in a row, as the job's
 * tasks would one after the other).  Returns the entries or -errno.
 */
static long _collect(sim_t *s)
{
	size_t n = 0;

	for (int a = 0; a < s->na; a++) {
		double count = 0;
		int depth = 0;

		_trim(s, a);
		for (int j = s->ac[a].qhead; j >= 0 && depth < QUEUE_DEPTH;
		     j = s->js[j].next, depth++) {
			const sim_job_t *job = &s->t->jobs[j];
			jstate_t *js = &s->js[j];
			double b =
				fmin(_fit_bound(&s->idle_total, &job->demand),
				     RANK_MAX);
			double take = fmin(js->given - js->started, b - count);

			js->blocked = false;
			js->floor = 0;
			if (js->final || take <= 0)
				continue;
			count += take;
			if ((int)take < 1)
				continue;
			if (_reserve(s, n + 1))
				return -ENOMEM;
			s->ent_job[n] = j;
			s->ent_cnt[n] = (size_t)(int)take;
			s->hj[n].account = a;
			s->hj[n].tres = job->demand;
			s->hj[n].duration = js->task_work;
			s->tj[n].account = a;
			s->tj[n].tasks = 1;
			s->tj[n].duration = js->task_work;
			n++;
		}
	}
	return (long)n;
}

/* Drop the round's ranker, if any. */
static void _rank_done(sim_t *s)
{
	hmrf_ranker_destroy(&s->hr);
	eunomia_ranker_destroy(&s->er);
	tsf_ranker_destroy(&s->tr);
}

/*
 * The order of the round's n entries: a ranker that gives them one task
 * at a time (H-MRF and its baselines, TSF, Eunomia), so that the round
 * may stop early; or an order over the entries (FIFO, Justice: tasks of
 * one job are alike and tie, and ties keep their index order, so a job's
 * tasks come in a row).
 */
static int _rank(sim_t *s, size_t n)
{
	horae_err_t err;
	int rc = 0;

	s->it_k = s->it_rep = 0;
	s->it_n = n;
	/* Justice orders the jobs itself (its priority policy); jobs without
	 * a deadline come after, in the order they were collected.  Unless
	 * the ordering policy decides (urgency_first off). */
	if (_justice(s) && s->c->urgency_first) {
		for (size_t k = 0; k < n; k++) {
			const jstate_t *js = &s->js[s->ent_job[k]];

			if (s->t->jobs[s->ent_job[k]].deadline > 0)
				s->je[k] = js->est;
			else
				s->je[k].verdict = JUSTICE_INFEASIBLE;
		}
		return justice_order(s->je, n, s->order);
	}

	switch (s->c->policy.kind) {
	case SIM_ORDER_FIFO:
		for (size_t k = 0; k < n; k++)
			s->order[k] = k;
		qsort_r(s->order, n, sizeof(size_t), _cmp_fifo, s);
		return 0;
	case SIM_ORDER_HMRF:
		/* The books as they are now, after this instant's events. */
		rc = _books_feed(s, s->now);
		if (!rc && !(s->hr = hmrf_books_ranker(s->books, s->hj,
						       s->ent_cnt, n, &err)))
			rc = -errno;
		break;
	case SIM_ORDER_TSF:
		for (int a = 0; a < s->na; a++) {
			s->ta[a].weight = s->t->accounts[a].weight;
			s->ta[a].running = s->ac[a].running_tasks;
			s->ta[a].monopoly = s->ac[a].mono_tasks > 0 ?
						    s->ac[a].mono_tasks :
						    1;
		}
		if (!(s->tr = tsf_ranker_create(s->ta, s->na, s->tj,
						s->ent_cnt, n, &err)))
			rc = -errno;
		break;
	case SIM_ORDER_EUNOMIA: {
		for (size_t k = 0; k < n; k++) {
			const sim_job_t *job = &s->t->jobs[s->ent_job[k]];
			double cs = 0, cpus = job->demand.v[s->cpu];
			int m = 0;

			if (job->constraint[0]) {
				for (int i = 0; i < s->nn; i++)
					if (_eligible(s, s->ent_job[k], i))
						cs += s->t->nodes[i].speed, m++;
				cs = m ? cs / m : 0;
			}
			s->ej[k].account = s->hj[k].account;
			s->ej[k].rate = eunomia_expected_rate(
				cpus, cs, s->total_rate, s->total_cpus);
			s->ej[k].duration = cpus > 0 ?
						    s->hj[k].duration * cpus /
							    s->ej[k].rate :
						    s->hj[k].duration;
			s->ej[k].runnable = true;
		}
		if (!(s->er = eunomia_books_ranker(s->eb, s->now, s->ej,
						   s->ent_cnt, n, &err)))
			rc = -errno;
		break;
	}
	default:
		return -EINVAL;
	}
	return rc;
}

/* The round's next entry in its order.  Returns 0, -ENOENT after the
 * last, or -errno. */
static int _rank_next(sim_t *s, size_t *e)
{
	if (s->hr)
		return hmrf_ranker_next(s->hr, e);
	if (s->er)
		return eunomia_ranker_next(s->er, e);
	if (s->tr)
		return tsf_ranker_next(s->tr, e);
	/* Over the entries: each one ent_cnt times in a row. */
	if (s->it_k < s->it_n && s->it_rep == s->ent_cnt[s->order[s->it_k]]) {
		s->it_k++;
		s->it_rep = 0;
	}
	if (s->it_k >= s->it_n)
		return -ENOENT;
	s->it_rep++;
	*e = s->order[s->it_k];
	return 0;
}

/* Eunomia's books for this pass: which accounts wait (active with
 * nothing running and no progress yet), and the placement gaps. */
static int _eunomia_books(sim_t *s)
{
	for (int a = 0; a < s->na; a++)
		if (eunomia_books_set_waiting(s->eb, a, s->ac[a].qhead >= 0))
			return -EINVAL;
	if (eunomia_books_gaps(s->eb, s->now, s->gap, s->na))
		return -ENOMEM;
	for (int a = 0; a < s->na; a++)
		s->ac[a].gap = s->gap[a];
	return 0;
}

static int _cmp_int(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

/* Whether node n's kept score is for this request and its idle TRES
 * as they are. */
static bool _score_kept(const sim_t *s, int n)
{
	return s->sc_epoch_of[n] == s->sc_epoch &&
	       s->sc_ver[n] == s->idle_ver[n];
}

/* Score node n for request q into the kept scores, unless its score
 * there is still good.  Returns 0 or -1. */
static int _score_one(sim_t *s, int n, const place_request_t *q)
{
	if (_score_kept(s, n))
		return 0;
	s->pn[0].idle = s->idle[n];
	s->pn[0].speed = s->t->nodes[n].speed;
	if (place_score(s->c->placement.score, q, s->pn, 1, s->score, NULL))
		return -1;
	s->sc_epoch_of[n] = s->sc_epoch;
	s->sc_ver[n] = s->idle_ver[n];
	s->sc_score[n] = s->score[0];
	return 0;
}

/* Every candidate of job j scored (the open nodes that fit a task and
 * that it may run on), in the heap afresh.  Returns 0 or -1. */
static int _cand_rebuild(sim_t *s, int j, const place_request_t *q)
{
	const sim_job_t *job = &s->t->jobs[j];
	size_t m = 0, fresh = 0;

	for (int k = 0; k < s->nopen; k++) {
		int n = s->open[k];

		if (_fits(s, &job->demand, &s->idle[n]) && _eligible(s, j, n))
			s->cand[m++] = n;
	}
	for (size_t k = 0; k < m; k++) {
		int n = s->cand[k];

		if (_score_kept(s, n))
			continue;
		s->pidx[fresh] = n;
		s->pn[fresh].idle = s->idle[n];
		s->pn[fresh++].speed = s->t->nodes[n].speed;
	}
	/* The nodes not scored yet, in one call: what depends on the
	 * request alone is worked out once. */
	if (fresh &&
	    place_score(s->c->placement.score, q, s->pn, fresh, s->score, NULL))
		return -1;
	for (size_t k = 0; k < fresh; k++) {
		int n = s->pidx[k];

		s->sc_epoch_of[n] = s->sc_epoch;
		s->sc_ver[n] = s->idle_ver[n];
		s->sc_score[n] = s->score[k];
	}
	return sim_nodeheap_build(s->hp, s->cand, m) ? -1 : 0;
}

/* Node n alone changed since the heap was right for job j: in or out,
 * and in its place.  Returns 0 or -1. */
static int _cand_update(sim_t *s, int j, const place_request_t *q, int n)
{
	if (!(s->open_pos[n] >= 0 &&
	      _fits(s, &s->t->jobs[j].demand, &s->idle[n]) &&
	      _eligible(s, j, n)))
		return sim_nodeheap_remove(s->hp, n) ? -1 : 0;
	if (_score_one(s, n, q))
		return -1;
	return sim_nodeheap_set(s->hp, n) ? -1 : 0;
}

/*
 * The open node, among those that fit a task of job j, with the least
 * score, the lowest index among equal ones; -1 when none fits or none
 * scores finite, and a lone candidate whatever its score.  This is
 * place_best over the candidates sorted by index (as the Slurm plugins
 * see nodes), without sorting them: a node's score does not depend on the
 * other candidates (first-fit's would, the candidate's rank in that
 * order: _choose_first picks the lowest index instead).  A job's tasks
 * come one after another, each changing the node it is placed on, so the
 * scores are kept from one task to the next (on bench-sim's trace 95% of
 * them were reused) and the candidates in a heap by score: while only
 * one node has changed since, only that node is looked at again.
 */
static int _choose_scored(sim_t *s, int j, place_request_t *q)
{
	const sim_job_t *job = &s->t->jobs[j];
	int top, rc;

	q->progress_gap = s->ac[job->account].gap;
	/* A node's score depends on the request (the job's demand, the
	 * cluster's capacity, the account's gap) and on the node alone: the
	 * scores kept are good for the same job and gap, on nodes whose
	 * idle TRES have not changed since. */
	if (s->sc_job != j ||
	    memcmp(&s->sc_gap, &q->progress_gap, sizeof(double))) {
		s->sc_epoch++;
		s->sc_job = j;
		s->sc_gap = q->progress_gap;
	}
	if (s->hp_epoch == s->sc_epoch && s->hp_chg == s->chg)
		rc = 0;
	else if (s->hp_epoch == s->sc_epoch && s->hp_chg + 1 == s->chg)
		rc = _cand_update(s, j, q, s->chg_node);
	else
		rc = _cand_rebuild(s, j, q);
	if (rc) {
		s->hp_epoch = 0;
		return -1;
	}
	s->hp_epoch = s->sc_epoch;
	s->hp_chg = s->chg;
	top = sim_nodeheap_top(s->hp);
	if (sim_nodeheap_len(s->hp) <= 1)
		return top;
	return isfinite(s->sc_score[top]) ? top : -1;
}

/*
 * First-fit: the open node of the lowest index that fits a task of job j
 * and that it may run on, or -1 (what _choose_scored picks: first-fit's
 * scores all tie there, and the lowest index wins).  The nodes below the
 * last one it picked for j this round are not tried: they did not fit
 * then, and resources only shrink within a round.
 */
static int _choose_first(sim_t *s, int j)
{
	const tres_vec_t *d = &s->t->jobs[j].demand;
	int best = -1, floor = s->js[j].floor;

	for (int k = 0; k < s->nopen; k++) {
		int n = s->open[k];

		if (n < floor || (best >= 0 && n > best) ||
		    !_fits(s, d, &s->idle[n]) || !_eligible(s, j, n))
			continue;
		best = n;
	}
	if (best >= 0)
		s->js[j].floor = best;
	return best;
}

/* Best match's candidates for job j: the open nodes it may run on, fit
 * or not, by index in s->pidx and with their idle TRES and speed in
 * s->pn.  Returns how many. */
static size_t _match_candidates(sim_t *s, int j)
{
	size_t m = 0;

	for (int k = 0; k < s->nopen; k++) {
		int n = s->open[k];

		if (_eligible(s, j, n))
			s->pidx[m++] = n;
	}
	qsort(s->pidx, m, sizeof(int), _cmp_int);
	for (size_t k = 0; k < m; k++) {
		s->pn[k].idle = s->idle[s->pidx[k]];
		s->pn[k].speed = s->t->nodes[s->pidx[k]].speed;
	}
	return m;
}

/* The node the placement policy picks for a task of job j, or -1. */
static int _choose(sim_t *s, int j)
{
	const sim_job_t *job = &s->t->jobs[j];
	const sim_place_t *pl = &s->c->placement;
	place_request_t q = { .demand = job->demand, .capacity = s->cap };
	size_t m;

	if (pl->rrr) {
		bool any = false;

		for (int n = 0; n < s->nn; n++) {
			s->fits[n] = tres_fits(&job->demand, &s->idle[n]) &&
				     _eligible(s, j, n);
			any |= s->fits[n];
		}
		return any ? place_rrr_next(s->rrr, s->fits) : -1;
	}
	if (!pl->match && pl->score == PLACE_FIRST_FIT)
		return _choose_first(s, j);
	if (!pl->match)
		return _choose_scored(s, j, &q);
	if (!(m = _match_candidates(s, j)))
		return -1;
	m = place_best_match(&q, s->pn, m);
	return (int)m < 0 ? -1 : s->pidx[m];
}

/* Whether a task of job j fits, now, a node the placement may pick:
 * an open one, or any with rrr. */
static bool _fits_somewhere(const sim_t *s, int j)
{
	const tres_vec_t *d = &s->t->jobs[j].demand;
	int count = s->c->placement.rrr ? s->nn : s->nopen;

	for (int k = 0; k < count; k++) {
		int n = s->c->placement.rrr ? k : s->open[k];

		if (tres_fits(d, &s->idle[n]) && _eligible(s, j, n))
			return true;
	}
	return false;
}

/* How many tasks of job j the open nodes it may run on could hold. */
static double _gang_room(const sim_t *s, int j)
{
	const sim_job_t *job = &s->t->jobs[j];
	double room = 0;

	for (int k = 0; k < s->nopen && room < s->js[j].given; k++) {
		int n = s->open[k];

		if (_eligible(s, j, n))
			room += _fit_bound(&s->idle[n], &job->demand);
	}
	return room;
}

/*
 * Whether best match would start all `given` tasks of job j now.  It
 * takes, task after task, the open node that matches the task best, fit
 * or not, and waits when that one does not fit (_choose): so room on the
 * open nodes is not enough.  This plays _choose's picks on copies of the
 * open nodes' idle TRES, as _start_task would leave them.
 */
static bool _gang_best_match(sim_t *s, int j, int given)
{
	const sim_job_t *job = &s->t->jobs[j];
	place_request_t q = { .demand = job->demand, .capacity = s->cap };
	size_t m = _match_candidates(s, j);

	for (int t = 0; t < given; t++) {
		int b = m ? place_best_match(&q, s->pn, m) : -1;

		if (b < 0)
			return false;
		tres_sub(&s->pn[b].idle, &job->demand);
		_snap(&s->pn[b].idle);
		if (!_is_open(s, s->pidx[b], &s->pn[b].idle)) {
			/* It leaves the open nodes, as _open_update does. */
			memmove(&s->pidx[b], &s->pidx[b + 1],
				(m - b - 1) * sizeof(*s->pidx));
			memmove(&s->pn[b], &s->pn[b + 1],
				(m - b - 1) * sizeof(*s->pn));
			m--;
		}
	}
	return true;
}

/*
 * A moldable job runs on all the CPUs it was given at once (its work is
 * split over them): start all its tasks now, or none and block it.  The
 * tasks are alike, so they all fit exactly when the open nodes hold that
 * many of them; with best match, when its picks do (_gang_best_match).
 * Returns the tasks started, or -errno.
 */
static int _start_gang(sim_t *s, int j)
{
	int rc, given = s->js[j].given;

	if (_gang_room(s, j) < given ||
	    (s->c->placement.match && !_gang_best_match(s, j, given))) {
		s->js[j].blocked = true;
		return 0;
	}
	for (int k = 0; k < given; k++) {
		int node = _choose(s, j);

		if (node < 0)
			return -EINVAL; /* cannot happen: room was counted */
		if ((rc = _start_task(s, j, node)))
			return rc;
	}
	return given;
}

/*
 * Whether a round over the n entries collected would place nothing,
 * whatever their order: no job among them has room for its gang, or a
 * node that fits one of its tasks.  Resources only shrink within a round,
 * so such a round would only block its jobs; ranking it is skipped (its
 * ranking leaves nothing behind: H-MRF's books were fed at this instant
 * already, and Eunomia's gaps charged them).
 */
static bool _round_dead(sim_t *s, size_t n)
{
	tres_vec_t most = { { 0 } }, dead[8];
	int last = -1, ndead = 0;
	int count = s->c->placement.rrr ? s->nn : s->nopen;

	/* The most of each TRES any node has: what exceeds it fits none.
	 * Over the slots in use (past them every idle vector holds 0), and
	 * without fmax, a call into libm (idle TRES are never NaN). */
	for (int k = 0; k < count; k++) {
		int m = s->c->placement.rrr ? k : s->open[k];

		for (int i = 0; i < s->nt; i++) {
			double x = s->idle[m].v[i];

			most.v[i] = x > most.v[i] ? x : most.v[i];
		}
	}
	for (size_t k = 0; k < n; k++) {
		int j = s->ent_job[k];
		const sim_job_t *job = &s->t->jobs[j];
		bool known = false;

		if (j == last)
			continue;
		last = j;
		if (job->moldable && !s->js[j].started) {
			if (_gang_room(s, j) >= s->js[j].given)
				return false;
			continue;
		}
		if (!tres_fits(&job->demand, &most))
			continue;
		/* As much as a demand that fits no node fits none either. */
		for (int d = 0; d < ndead && !known; d++)
			known = tres_fits(&dead[d], &job->demand);
		if (known)
			continue;
		if (_fits_somewhere(s, j))
			return false;
		if (!job->constraint[0] && ndead < 8)
			dead[ndead++] = job->demand;
	}
	return true;
}

/* Entry e, just given, cannot use its other tasks: a ranker charges
 * them at once but the last (hmrf_ranker_skip); an order over entries
 * moves on to the next entry.  Returns 0 or -errno. */
static int _rank_skip(sim_t *s, size_t e)
{
	if (s->hr)
		return hmrf_ranker_skip(s->hr, e);
	if (s->er)
		return eunomia_ranker_skip(s->er, e);
	if (s->tr)
		return tsf_ranker_skip(s->tr, e);
	s->it_rep = s->ent_cnt[e];
	return 0;
}

/* Whether entry e's job has nothing more to try this round: its tasks
 * in the order all given, blocked, or all its tasks started. */
static bool _spent(const sim_t *s, size_t e)
{
	const jstate_t *js = &s->js[s->ent_job[e]];

	return !s->ent_left[e] || js->blocked || js->started >= js->given;
}

/*
 * One round: rank what is collected and start, in that order, each task
 * a node takes.  The round stops once every entry is spent: the rest of
 * the order would only be skipped (a job blocks for the round, and
 * resources only shrink within it), so ranking it is saved.
 */
static int _round(sim_t *s, size_t n, size_t *placed)
{
	size_t live = n, e;
	int rc;

	for (size_t k = 0; k < n; k++)
		s->ent_left[k] = s->ent_cnt[k];
	if ((rc = _rank(s, n)))
		return rc;
	while (live && !(rc = _rank_next(s, &e))) {
		int j = s->ent_job[e], node;

		if (_spent(s, e)) /* it was already: counted then */
			continue;
		s->ent_left[e]--;
		if (s->t->jobs[j].moldable && !s->js[j].started) {
			if ((rc = _start_gang(s, j)) < 0)
				return rc;
			*placed += rc;
			rc = 0;
		} else if ((node = _choose(s, j)) < 0) {
			s->js[j].blocked = true;
		} else {
			if ((rc = _start_task(s, j, node)))
				return rc;
			(*placed)++;
		}
		if (_spent(s, e)) {
			live--;
			/* Its other tasks would each be given, to no use. */
			if (s->ent_left[e] && (rc = _rank_skip(s, e)))
				return rc;
		}
	}
	return rc == -ENOENT ? 0 : rc;
}

static int _pass_ordered(sim_t *s)
{
	for (;;) {
		long n = _collect(s);
		size_t placed = 0;
		int rc;

		if (n <= 0)
			return (int)(n < 0 ? n : 0);
		if ((s->c->policy.kind == SIM_ORDER_EUNOMIA ||
		     s->c->placement.score == PLACE_EUNOMIA) &&
		    (rc = _eunomia_books(s)))
			return rc;
		if (_round_dead(s, n))
			return 0;
		rc = _round(s, (size_t)n, &placed);
		_rank_done(s);
		if (rc)
			return rc;
		if (!placed)
			return 0;
	}
}

/* The first job of a's queue with a task to start and not blocked. */
static int _head(sim_t *s, int a)
{
	_trim(s, a);
	for (int j = s->ac[a].qhead; j >= 0; j = s->js[j].next)
		if (!s->js[j].blocked && s->js[j].started < s->js[j].given)
			return j;
	return -1;
}

/* Account a's row of the joint pass: its head job, demand and where it
 * may run among the pass's nodes. */
static void _joint_row(sim_t *s, int a, int *head, int no)
{
	head[a] = _head(s, a);
	s->pu[a].weight = s->t->accounts[a].weight;
	s->pu[a].tasks = s->ac[a].running_tasks;
	s->pu[a].active = head[a] >= 0;
	if (head[a] >= 0)
		s->pu[a].demand = s->t->jobs[head[a]].demand;
	else
		tres_zero(&s->pu[a].demand);
	for (int k = 0; k < no; k++)
		s->fits[(size_t)a * no + k] =
			head[a] >= 0 &&
			_eligible(s, head[a], s->pidx[s->na + k]);
}

/* RRR: may some active account run a task on node k of the pass? */
static bool _joint_any(const sim_t *s, int k, int no)
{
	for (int a = 0; a < s->na; a++)
		if (s->pu[a].active && s->fits[(size_t)a * no + k] &&
		    tres_fits(&s->pu[a].demand, &s->oidle[k]))
			return true;
	return false;
}

/*
 * PSDSF and rPSDSF choose account and node together, over the nodes open
 * when the pass starts (placing only closes nodes).  The rows are built
 * once and kept up to date: a placement changes one node's idle
 * resources and one account's tasks (and its head job when that one has
 * started all its tasks).
 */
static int _pass_joint(sim_t *s)
{
	bool residual = s->c->policy.kind == SIM_ORDER_RPSDSF;
	int *head = s->pidx, *on = s->pidx + s->na, no = s->nopen;
	bool *f = NULL;
	bool any = false;
	psdsf_pass_t *pp;
	int rc = 0;

	for (int a = 0; a < s->na; a++)
		for (int j = s->ac[a].qhead; j >= 0; j = s->js[j].next)
			s->js[j].blocked = false;
	for (int k = 0; k < no; k++) {
		on[k] = s->open[k];
		s->ocap[k] = s->t->nodes[on[k]].capacity;
		s->oidle[k] = s->idle[on[k]];
	}
	for (int a = 0; a < s->na; a++) {
		_joint_row(s, a, head, no);
		any |= head[a] >= 0;
	}
	if (!any || !no)
		return 0;
	if (s->c->placement.rrr) {
		f = s->fits + (size_t)s->na * no;
		for (int n = 0; n < s->nn; n++)
			f[n] = false;
		for (int k = 0; k < no; k++)
			f[on[k]] = _joint_any(s, k, no);
	}
	pp = psdsf_pass_create(s->pu, s->na, s->ocap, s->oidle, s->fits, no,
			       residual);
	if (!pp)
		return -errno;
	for (;;) {
		int user = -1, node = -1, k;

		if (f) {
			node = place_rrr_next(s->rrr, f);
			if (node < 0)
				break;
			/* Its place among the pass's nodes (the open
			 * list reorders as nodes close). */
			for (k = 0; k < no && on[k] != node; k++)
				;
			rc = psdsf_pass_pick_user(pp, k, &user);
		} else {
			rc = psdsf_pass_pick(pp, &user, &k);
			if (!rc)
				node = on[k];
		}
		if (rc) {
			if (rc == -ENOENT)
				rc = 0;
			break;
		}
		if ((rc = _start_task(s, head[user], node)))
			break;
		s->oidle[k] = s->idle[node];
		s->pu[user].tasks = s->ac[user].running_tasks;
		if ((rc = psdsf_pass_set_idle(pp, k, &s->oidle[k])) ||
		    (rc = psdsf_pass_set_tasks(pp, user, s->pu[user].tasks)))
			break;
		if (s->js[head[user]].started >= s->js[head[user]].given) {
			_joint_row(s, user, head, no);
			rc = psdsf_pass_set_user(pp, user, &s->pu[user],
						 s->fits + (size_t)user * no);
			if (rc)
				break;
			if (f)
				for (int m = 0; m < no; m++)
					f[on[m]] = _joint_any(s, m, no);
		} else if (f) {
			f[node] = _joint_any(s, k, no);
		}
	}
	psdsf_pass_destroy(&pp);
	return rc;
}

static int _pass(sim_t *s)
{
	s->r->passes++;
	if (s->c->policy.kind == SIM_ORDER_PSDSF ||
	    s->c->policy.kind == SIM_ORDER_RPSDSF)
		return _pass_joint(s);
	return _pass_ordered(s);
}

/* --- set-up and the loop ----------------------------------------------- */

/* Eunomia's books over the trace's accounts (named by index, as H-MRF's)
 * and weights; the monopoly is the cluster's CPUs x speeds, one for all
 * accounts (the trace has no per-account speeds), measured from time 0. */
static int _eunomia_create(sim_t *s, horae_err_t *err)
{
	if (!(s->eb = eunomia_books_create(&s->c->window, s->c->bucket, 0,
					   err)))
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	for (int a = 0; a < s->na; a++) {
		char name[32];

		snprintf(name, sizeof(name), "%d", a);
		if (eunomia_books_account(s->eb, name) != a ||
		    eunomia_books_set_weight(s->eb, a,
					     s->t->accounts[a].weight))
			return err_set(err, -EINVAL,
				       "account %d: cannot keep its progress",
				       a);
	}
	if (eunomia_books_set_common_rate(s->eb, s->total_rate))
		return err_set(err, -EINVAL, "the nodes' speed sum is %g",
			       s->total_rate);
	return 0;
}

/* H-MRF's books over the trace's TRES, accounts and weights. */
static int _books_create(sim_t *s, horae_err_t *err)
{
	const sim_config_t *c = s->c;
	char tres[256] = "";
	hmrf_books_conf_t bc = { .policy = c->policy.hmrf,
				 .window = c->window,
				 .bucket = c->bucket,
				 .tres = tres,
				 .timeout = c->timeout,
				 .horizon = c->horizon,
				 .borrow_limit = c->borrow_limit };
	size_t len = 0;

	for (int i = 0; i < tres_layout_count(s->t->layout); i++) {
		int n = snprintf(tres + len, sizeof(tres) - len, "%s%s",
				 i ? "," : "",
				 tres_layout_name(s->t->layout, i));

		if (n < 0 || (size_t)n >= sizeof(tres) - len)
			return err_set(err, -EINVAL,
				       "the trace's TRES list is too long");
		len += (size_t)n;
	}
	if (!(s->books = hmrf_books_create(&bc, 0, err)))
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	for (int a = 0; a < s->na; a++) {
		char name[32];

		snprintf(name, sizeof(name), "%d", a);
		if (hmrf_books_account(s->books, name) != a ||
		    hmrf_books_set_weight(s->books, a,
					  s->t->accounts[a].weight, true))
			return err_set(err, -EINVAL,
				       "account %d has weight %g; it must be > 0",
				       a, s->t->accounts[a].weight);
	}
	return hmrf_books_set_capacity(s->books, &s->cap);
}

static int _setup(sim_t *s, const sim_trace_t *t, const sim_config_t *c,
		  horae_err_t *err)
{
	size_t scratch = (size_t)t->nnodes * (t->naccounts + 1) + 16;
	int rc;

	s->t = t;
	s->c = c;
	s->na = t->naccounts;
	s->nn = t->nnodes;
	s->cpu = tres_layout_find(t->layout, "cpu");
	if (s->cpu < 0)
		s->cpu = 0;
	if (s->nn <= 0 || s->na <= 0)
		return err_set(err, -EINVAL, "the trace has no %s",
			       s->nn <= 0 ? "nodes" : "accounts");
	if (!(c->start_latency >= 0) || !isfinite(c->start_latency))
		return err_set(err, -EINVAL,
			       "start latency %g s: it must be a time >= 0",
			       c->start_latency);
	if (c->start_latency > 0 && c->admission.on)
		return err_set(err, -EINVAL,
			       "a start latency is not modelled with admission control (Justice would have to stop tasks that hold nodes but have not begun)");
	s->r = calloc(1, sizeof(*s->r));
	s->js = calloc(t->njobs ? t->njobs : 1, sizeof(*s->js));
	s->ac = calloc(s->na, sizeof(*s->ac));
	s->idle = calloc(s->nn, sizeof(*s->idle));
	s->open = calloc(s->nn, sizeof(int));
	s->open_pos = calloc(s->nn, sizeof(int));
	s->ta = calloc(s->na, sizeof(*s->ta));
	s->ea = calloc(s->na, sizeof(*s->ea));
	s->gap = calloc(s->na, sizeof(*s->gap));
	s->pu = calloc(s->na, sizeof(*s->pu));
	s->pn = calloc(s->nn, sizeof(*s->pn));
	s->score = calloc(s->nn, sizeof(*s->score));
	s->idle_ver = calloc(s->nn, sizeof(*s->idle_ver));
	s->sc_ver = calloc(s->nn, sizeof(*s->sc_ver));
	s->sc_epoch_of = calloc(s->nn, sizeof(*s->sc_epoch_of));
	s->sc_score = calloc(s->nn, sizeof(*s->sc_score));
	s->cand = calloc(s->nn, sizeof(*s->cand));
	s->hp = sim_nodeheap_create(s->nn, s->sc_score);
	s->sc_job = -1;
	s->pidx = calloc(s->nn + s->na, sizeof(int));
	s->fits = calloc(scratch, sizeof(bool));
	s->ocap = calloc(s->nn, sizeof(tres_vec_t));
	s->oidle = calloc(s->nn, sizeof(tres_vec_t));
	if (!s->r || !s->js || !s->ac || !s->idle || !s->open || !s->open_pos ||
	    !s->ta || !s->ea || !s->gap || !s->pu || !s->pn || !s->score ||
	    !s->idle_ver || !s->sc_ver || !s->sc_epoch_of || !s->sc_score ||
	    !s->cand || !s->hp || !s->pidx || !s->fits || !s->ocap || !s->oidle)
		return -ENOMEM;
	s->r->njobs = t->njobs;
	s->r->jobs = calloc(t->njobs ? t->njobs : 1, sizeof(*s->r->jobs));
	if (!s->r->jobs)
		return -ENOMEM;
	for (size_t j = 0; j < t->njobs; j++) {
		sim_job_result_t *jr = &s->r->jobs[j];

		jr->id = t->jobs[j].id;
		jr->account = t->jobs[j].account;
		jr->submit = t->jobs[j].submit;
		jr->start = jr->end = NAN;
		jr->status = SIM_JOB_UNFINISHED;
		s->js[j].next = -1;
	}
	for (int a = 0; a < s->na; a++) {
		s->ac[a].qhead = s->ac[a].qtail = -1;
	}
	for (size_t j = 0; j < t->njobs && !s->cpuless; j++)
		s->cpuless = !(t->jobs[j].demand.v[s->cpu] > 0);
	for (int n = 0; n < s->nn; n++)
		if (tres_slots(&t->nodes[n].capacity) > s->nt)
			s->nt = tres_slots(&t->nodes[n].capacity);
	for (size_t j = 0; j < t->njobs; j++)
		if (tres_slots(&t->jobs[j].demand) > s->nt)
			s->nt = tres_slots(&t->jobs[j].demand);
	for (int n = 0; n < s->nn; n++) {
		s->idle[n] = t->nodes[n].capacity;
		tres_add(&s->cap, &t->nodes[n].capacity);
		s->total_cpus += t->nodes[n].capacity.v[s->cpu];
		s->total_rate +=
			t->nodes[n].capacity.v[s->cpu] * t->nodes[n].speed;
		s->open_pos[n] = -1;
		_open_update(s, n);
	}
	s->idle_total = s->cap;
	s->r->capacity = s->cap;
	if ((rc = _books_create(s, err)))
		return rc;
	if ((rc = _eunomia_create(s, err)))
		return rc;
	if (c->placement.rrr && !(s->rrr = place_rrr_create(s->nn, c->seed)))
		return -ENOMEM;
	if (c->admission.on &&
	    !(s->hist = justice_history_create(c->history, JUSTICE_SMOOTH_EQUAL,
					       1, err)))
		return -EINVAL;
	s->next_sample = c->sample > 0 ? 0 : INFINITY;
	return 0;
}

static void _teardown(sim_t *s)
{
	if (s->js)
		for (size_t j = 0; j < s->t->njobs; j++) {
			free(s->js[j].task_start);
			free(s->js[j].task_id);
		}
	free(s->js);
	free(s->ac);
	free(s->idle);
	free(s->open);
	free(s->open_pos);
	free(s->heap);
	free(s->hj);
	free(s->tj);
	free(s->ej);
	free(s->je);
	free(s->ent_job);
	free(s->ent_cnt);
	free(s->ent_left);
	free(s->order);
	_rank_done(s);
	free(s->ta);
	free(s->ea);
	free(s->gap);
	free(s->pu);
	free(s->pn);
	free(s->score);
	free(s->idle_ver);
	free(s->sc_ver);
	free(s->sc_epoch_of);
	free(s->sc_score);
	sim_nodeheap_destroy(&s->hp);
	free(s->cand);
	free(s->pidx);
	free(s->fits);
	free(s->ocap);
	free(s->oidle);
	hmrf_books_destroy(&s->books);
	eunomia_books_destroy(&s->eb);
	place_rrr_destroy(&s->rrr);
	justice_history_destroy(&s->hist);
}

static int _loop(sim_t *s)
{
	const sim_trace_t *t = s->t;
	size_t next = 0, iter = 0;
	int rc;

	for (;;) {
		double ta = next < t->njobs ? t->jobs[next].submit : INFINITY;
		double te = s->nheap ? s->heap[0].t : INFINITY;
		double now = fmin(ta, te);
		bool stop =
			isinf(now) || (s->c->until > 0 && now > s->c->until);
		double to = !stop	    ? now :
			    s->c->until > 0 ? s->c->until :
					      s->now;

		while (s->next_sample < to - EPS ||
		       (stop && s->next_sample <= to + EPS)) {
			if ((rc = _charge(s, s->next_sample)) ||
			    (rc = _sample(s, s->next_sample)))
				return rc;
			s->next_sample += s->c->sample;
		}
		if ((rc = _charge(s, to)))
			return rc;
		s->now = to;
		if (stop)
			break;
		while (s->nheap && s->heap[0].t <= now + EPS) {
			ev_t e = _pop(s);

			if ((rc = _task_end(s, &e)))
				return rc;
		}
		while (next < t->njobs && t->jobs[next].submit <= now + EPS)
			if ((rc = _arrive(s, (int)next++)))
				return rc;
		_justice_pass(s);
		if ((rc = _pass(s)))
			return rc;
		if (s->next_sample <= now + EPS) {
			if ((rc = _sample(s, s->next_sample)))
				return rc;
			s->next_sample += s->c->sample;
		}
		s->r->makespan = now;
		if (s->c->progress && t->njobs && ++iter % 1024 == 0)
			s->c->progress((double)s->ended / t->njobs,
				       s->c->progress_arg);
	}
	return 0;
}

int sim_run(const sim_trace_t *t, const sim_config_t *c, sim_result_t **out,
	    horae_err_t *err)
{
	sim_t s = { 0 };
	bool looped = false;
	int rc;

	if (!t || !c || !out)
		return err_set(err, -EINVAL, "sim_run: missing argument");
	rc = _setup(&s, t, c, err);
	if (!rc) {
		rc = _loop(&s);
		looped = true;
	}
	if (!rc && c->progress)
		c->progress(1.0, c->progress_arg);
	_teardown(&s);
	if (rc) {
		if (rc == -ENOMEM)
			err_set(err, rc, "out of memory");
		else if (rc == -E2BIG)
			err_set(err, rc,
				"a sample every %g s makes more than %zu "
				"samples (accounts x sample times) by t=%g s: "
				"sample less often",
				c->sample, SIM_SAMPLES_MAX, s.next_sample);
		else if (looped) /* _setup said what was wrong */
			err_set(err, rc,
				"the simulation stopped at t=%g s: %s (a fault "
				"of horae-sim's: please report it)",
				s.now, strerror(-rc));
		sim_result_destroy(&s.r);
		return rc;
	}
	*out = s.r;
	return 0;
}

void sim_result_destroy(sim_result_t **r)
{
	if (!r || !*r)
		return;
	for (size_t j = 0; j < (*r)->njobs && (*r)->jobs; j++)
		free((*r)->jobs[j].task_node);
	free((*r)->jobs);
	free((*r)->samples);
	free(*r);
	*r = NULL;
}
