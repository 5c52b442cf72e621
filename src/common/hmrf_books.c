/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_books.c - H-MRF's books: what is charged to whom and when, and the
 * ranking that follows from it.  See hmrf_books.h for the rules.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "hmrf_books.h"
#include "hmrf_state_impl.h"
#include "hmrf_shares.h"

/* Per account, what the current or last pass gathered. */
typedef struct pass_acct {
	double weight;	    /* contribution; 1 until set */
	bool configured;    /* counts in the weight sum without demand */
	bool counted;	    /* counted in the last closed pass */
	tres_vec_t running; /* what it holds */
	tres_vec_t running_left; /* what that has left of its charge spans,
				  * TRES x s (hmrf_books_running) */
	tres_vec_t waiting; /* what it waits for */
	/* Its tasks told by hmrf_books_task that have not retired: their
	 * TRES and the sum of TRES x the end of their charge span. */
	tres_vec_t live, live_x;
	size_t nlive;
	tres_vec_t demand;  /* what it holds and waits for */
	tres_vec_t ns_rate; /* its non-sharing allocation, last close */
	tres_vec_t rank_rate; /* the same over _rank_capacity: the step's
			       * entitlement the ranking takes */
	double earliest;    /* earliest eligible waiting job; INF: none */
	tres_vec_t used;    /* its usage in the window at the close */
	tres_vec_t ns;	    /* its non-sharing allocation, likewise */
} pass_acct_t;

/* A task of hmrf_books_task, and its place in the books' heap. */
typedef struct span_task {
	int a;
	double x; /* the end of its charge span */
	tres_vec_t tres;
	uint32_t gen; /* the place's use, in the task's id (_task_id) */
	bool ended;   /* hmrf_books_task_end: out of its account's sums */
} span_task_t;

typedef struct span_ent {
	double retire; /* its end or the end of its charge span, earlier */
	size_t task;   /* its place in tasks[] */
} span_ent_t;

struct hmrf_books {
	hmrf_books_conf_t conf;
	char tres[256];
	int ntres;
	hmrf_state_t *st;
	tres_vec_t capacity;
	tres_vec_t configured; /* the whole cluster; 0 when not set */
	pass_acct_t *acct;
	int cap;
	bool open;   /* between begin and close */
	double from; /* the pass charges [from, now] */
	double now;
	uint32_t *ended; /* ids charged by hmrf_books_ended since the close */
	size_t nended, ended_cap;
	/* hmrf_books_task's tasks, by when they retire (span_ent_t: a heap),
	 * each with its place in tasks[]; free[] the places not in use. */
	span_ent_t *heap;
	span_task_t *tasks;
	size_t *free;
	size_t nheap, ntasks, nfree, tasks_cap;
	/* Accounts below this have pass_acct_t.used and .ns as the ledgers
	 * say now: summing a sliding window is done once a close, not at
	 * each hmrf_books_get.  0 once anything is charged. */
	int nsums;
};

static int _check_conf(const hmrf_books_conf_t *c, horae_err_t *err)
{
	if (!c || !c->tres)
		return err_set(err, -EINVAL, "books: missing settings");
	if (!(c->timeout >= 0) || !(c->horizon >= 0) ||
	    !(c->borrow_limit >= 0) || !isfinite(c->horizon) ||
	    !isfinite(c->borrow_limit))
		return err_set(err, -EINVAL,
			       "books: timeout, horizon and borrow limit must be finite and >= 0");
	if (!hmrf_policy_name(c->policy) ||
	    !strcmp(hmrf_policy_name(c->policy), "unknown"))
		return err_set(err, -EINVAL, "books: unknown policy %d",
			       (int)c->policy);
	if (strlen(c->tres) >= sizeof(((hmrf_books_t *)0)->tres))
		return err_set(err, -EINVAL, "books: TRES list too long");
	return 0;
}

/* Room for n accounts in the pass table; new ones start empty. */
static int _grow(hmrf_books_t *b, int n)
{
	pass_acct_t *p;
	int cap = b->cap ? b->cap : 16;

	if (n <= b->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	p = realloc(b->acct, (size_t)cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + b->cap, 0, (size_t)(cap - b->cap) * sizeof(*p));
	for (int a = b->cap; a < cap; a++) {
		p[a].weight = 1;
		p[a].earliest = INFINITY;
	}
	b->acct = p;
	b->cap = cap;
	return 0;
}

/* Books over st, which they own from now on (freed on failure too). */
static hmrf_books_t *_new(const hmrf_books_conf_t *conf, hmrf_state_t *st,
			  int ntres, horae_err_t *err)
{
	hmrf_books_t *b = calloc(1, sizeof(*b));

	if (!b || _grow(b, names_count(st->names) ? names_count(st->names) :
						     1)) {
		free(b);
		hmrf_state_destroy(&st);
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	b->conf = *conf;
	snprintf(b->tres, sizeof(b->tres), "%s", conf->tres);
	b->conf.tres = b->tres;
	b->st = st;
	b->ntres = ntres;
	b->now = b->from = st->charged_until;
	return b;
}

static int _ntres(const char *tres, horae_err_t *err)
{
	tres_layout_t *layout = tres_layout_create(tres, err);
	int n;

	if (!layout)
		return -EINVAL;
	n = tres_layout_count(layout);
	tres_layout_destroy(&layout);
	return n;
}

hmrf_books_t *hmrf_books_create(const hmrf_books_conf_t *conf, double now,
				horae_err_t *err)
{
	hmrf_state_t *st;
	int rc = _check_conf(conf, err), ntres;

	if (!rc && !isfinite(now))
		rc = err_set(err, -EINVAL, "books: the time is not finite");
	if (rc || (ntres = _ntres(conf->tres, err)) < 0) {
		errno = EINVAL;
		return NULL;
	}
	st = hmrf_state_create(&conf->window, conf->bucket, conf->tres, now,
			       err);
	return st ? _new(conf, st, ntres, err) : NULL;
}

hmrf_books_t *hmrf_books_adopt(const hmrf_books_conf_t *conf,
			       hmrf_state_t *st, horae_err_t *err)
{
	int rc = _check_conf(conf, err), ntres = -1;

	if (!rc && !st)
		rc = err_set(err, -EINVAL, "books: no state to adopt");
	if (!rc && strcmp(st->tres, conf->tres))
		rc = err_set(err, -EINVAL,
			     "books: the state charges %s, the settings %s",
			     st->tres, conf->tres);
	if (!rc && (ntres = _ntres(conf->tres, err)) < 0)
		rc = -EINVAL;
	if (rc) {
		hmrf_state_destroy(&st);
		errno = EINVAL;
		return NULL;
	}
	return _new(conf, st, ntres, err);
}

void hmrf_books_destroy(hmrf_books_t **b)
{
	if (!b || !*b)
		return;
	hmrf_state_destroy(&(*b)->st);
	free((*b)->acct);
	free((*b)->ended);
	free((*b)->heap);
	free((*b)->tasks);
	free((*b)->free);
	free(*b);
	*b = NULL;
}

int hmrf_books_reconfig(hmrf_books_t *b, const hmrf_books_conf_t *conf)
{
	int rc;

	if (!b)
		return -EINVAL;
	if ((rc = _check_conf(conf, NULL)))
		return rc;
	b->conf.policy = conf->policy;
	b->conf.timeout = conf->timeout;
	b->conf.horizon = conf->horizon;
	b->conf.borrow_limit = conf->borrow_limit;
	return 0;
}

int hmrf_books_account(hmrf_books_t *b, const char *name)
{
	int a;

	if (!b || !name)
		return -EINVAL;
	a = names_find(b->st->names, name);
	if (a >= 0)
		return a;
	if (_grow(b, names_count(b->st->names) + 1))
		return -ENOMEM;
	return hmrf_state_account(b->st, name);
}

int hmrf_books_count(const hmrf_books_t *b)
{
	return b ? names_count(b->st->names) : 0;
}

const char *hmrf_books_name(const hmrf_books_t *b, int a)
{
	return b ? names_get(b->st->names, a) : NULL;
}

static bool _known(const hmrf_books_t *b, int a)
{
	return b && a >= 0 && a < names_count(b->st->names);
}

int hmrf_books_set_weight(hmrf_books_t *b, int a, double weight,
			  bool configured)
{
	if (!_known(b, a) || !(weight > 0) || !isfinite(weight))
		return -EINVAL;
	b->acct[a].weight = weight;
	b->acct[a].configured = configured;
	return 0;
}

/* An amount of each TRES: finite and not negative. */
static bool _amounts_ok(const tres_vec_t *v)
{
	if (!v)
		return false;
	for (int i = 0; i < TRES_MAX; i++)
		if (!(v->v[i] >= 0) || !isfinite(v->v[i]))
			return false;
	return true;
}

int hmrf_books_set_capacity(hmrf_books_t *b, const tres_vec_t *capacity)
{
	if (!b || !_amounts_ok(capacity))
		return -EINVAL;
	b->capacity = *capacity;
	return 0;
}

int hmrf_books_set_configured(hmrf_books_t *b, const tres_vec_t *configured)
{
	if (!b || !_amounts_ok(configured))
		return -EINVAL;
	b->configured = *configured;
	return 0;
}

/* What the ranking divides by: the capacity in service, or the configured
 * one where nothing of a TRES is in service. */
static tres_vec_t _rank_capacity(const hmrf_books_t *b)
{
	tres_vec_t r = b->capacity;

	for (int i = 0; i < TRES_MAX; i++)
		if (!(r.v[i] > 0))
			r.v[i] = b->configured.v[i];
	return r;
}

int hmrf_books_begin(hmrf_books_t *b, double now)
{
	if (!b || !isfinite(now))
		return -EINVAL;
	b->from = b->st->charged_until;
	b->now = fmax(now, b->from); /* the clock never goes back */
	b->nsums = 0;
	for (int a = 0; a < b->cap; a++) {
		tres_zero(&b->acct[a].running);
		tres_zero(&b->acct[a].running_left);
		tres_zero(&b->acct[a].waiting);
		tres_zero(&b->acct[a].demand);
		b->acct[a].earliest = INFINITY;
	}
	b->open = true;
	return 0;
}

static void _note_start(hmrf_books_t *b, int a, double start)
{
	if (isfinite(start) && start > b->st->last_start[a])
		b->st->last_start[a] = start;
}

/* The end of the charge span of a job that started at start and runs
 * for at most span (see hmrf_books_running). */
static double _span_end(const hmrf_books_t *b, double start, double span)
{
	return start + fmin(span, hmrf_books_horizon(b));
}

static bool _ent_before(const void *x, const void *y, void *arg)
{
	(void)arg;
	return ((const span_ent_t *)x)->retire <
	       ((const span_ent_t *)y)->retire;
}

/* Room for one more task of hmrf_books_task.  Returns 0 or -ENOMEM (the
 * arrays that grew stay valid). */
static int _task_room(hmrf_books_t *b)
{
	size_t cap = b->tasks_cap ? 2 * b->tasks_cap : 64;
	void *p;

	if (b->nfree || b->ntasks < b->tasks_cap)
		return 0;
	if (!(p = realloc(b->heap, cap * sizeof(*b->heap))))
		return -ENOMEM;
	b->heap = p;
	if (!(p = realloc(b->tasks, cap * sizeof(*b->tasks))))
		return -ENOMEM;
	b->tasks = p;
	if (!(p = realloc(b->free, cap * sizeof(*b->free))))
		return -ENOMEM;
	b->free = p;
	b->tasks_cap = cap;
	return 0;
}

/* The id of the task at place k of tasks[]: never 0. */
static uint64_t _task_id(const hmrf_books_t *b, size_t k)
{
	return (uint64_t)b->tasks[k].gen << 32 | (uint64_t)(k + 1);
}

/* Task t's TRES out of its account's sums of live tasks. */
static void _task_out(hmrf_books_t *b, const span_task_t *t)
{
	pass_acct_t *p = &b->acct[t->a];

	if (!--p->nlive) {
		tres_zero(&p->live);
		tres_zero(&p->live_x);
		return;
	}
	for (int i = 0; i < TRES_MAX; i++) {
		p->live.v[i] -= t->tres.v[i];
		p->live_x.v[i] -= t->tres.v[i] * t->x;
	}
}

int hmrf_books_task(hmrf_books_t *b, int a, const tres_vec_t *tres,
		    double start, double span, double end, uint64_t *id)
{
	pass_acct_t *p;
	span_ent_t e;
	double x;

	if (!b || !_known(b, a) || !tres || !isfinite(start) || !(span >= 0) ||
	    isnan(end) || end < start)
		return -EINVAL;
	x = _span_end(b, start, span);
	e.retire = fmin(end, x);
	if (!(e.retire > start) || !(e.retire > b->now)) {
		if (id)
			*id = 0;
		return 0; /* it never has any left, or no more */
	}
	if (_task_room(b))
		return -ENOMEM;
	if (b->nfree) {
		e.task = b->free[--b->nfree];
	} else {
		e.task = b->ntasks++;
		b->tasks[e.task].gen = 0;
	}
	b->tasks[e.task].a = a;
	b->tasks[e.task].x = x;
	b->tasks[e.task].tres = *tres;
	b->tasks[e.task].ended = false;
	if (id)
		*id = _task_id(b, e.task);
	heap_push(b->heap, sizeof(e), &b->nheap, &e, _ent_before, NULL);
	p = &b->acct[a];
	p->nlive++;
	for (int i = 0; i < TRES_MAX; i++) {
		p->live.v[i] += tres->v[i];
		p->live_x.v[i] += tres->v[i] * x;
	}
	return 0;
}

int hmrf_books_task_end(hmrf_books_t *b, uint64_t id)
{
	uint64_t k = (id & 0xffffffffu) - 1;
	span_task_t *t;

	if (!b || (id && k >= b->ntasks))
		return -EINVAL;
	if (!id)
		return 0;
	t = &b->tasks[k];
	if (t->gen != (uint32_t)(id >> 32) || t->ended)
		return 0; /* retired (the place perhaps reused), or ended */
	/* Out of the sums now; its place is freed when the heap retires
	 * it. */
	_task_out(b, t);
	t->ended = true;
	return 0;
}

/* What hmrf_books_task's tasks have left of their charge spans at now,
 * added to each account's running_left; those with none left retired. */
static void _tasks_left(hmrf_books_t *b)
{
	span_ent_t e;

	while (b->nheap && b->heap[0].retire <= b->now) {
		span_task_t *t;

		heap_pop(b->heap, sizeof(e), &b->nheap, &e, _ent_before, NULL);
		t = &b->tasks[e.task];
		b->free[b->nfree++] = e.task;
		if (!t->ended)
			_task_out(b, t);
		t->gen++; /* its id names no task from here */
	}
	for (int a = 0; a < b->cap; a++) {
		pass_acct_t *p = &b->acct[a];

		if (!p->nlive)
			continue;
		for (int i = 0; i < TRES_MAX; i++)
			p->running_left.v[i] +=
				fmax(0, p->live_x.v[i] - b->now * p->live.v[i]);
	}
}

int hmrf_books_running(hmrf_books_t *b, int a, const tres_vec_t *tres,
		       double start, double span)
{
	tres_vec_t left;
	double t0;

	if (!b || !b->open || !_known(b, a) || !tres || isnan(start) ||
	    !(span >= 0))
		return -EINVAL;
	t0 = fmax(start, b->from);
	if (b->now > t0 &&
	    ledger_charge(b->st->usage, a, tres, t0, b->now))
		return -EINVAL;
	left = *tres;
	tres_scale(&left, start == -INFINITY ?
				  0 :
				  fmax(0, _span_end(b, start, span) -
						  fmax(b->now, start)));
	tres_add(&b->acct[a].running, tres);
	tres_add(&b->acct[a].running_left, &left);
	tres_add(&b->acct[a].demand, tres);
	_note_start(b, a, start);
	return 0;
}

/* Whether id was charged at its end since the last close; else note it. */
static int _seen(hmrf_books_t *b, uint32_t id, bool *seen)
{
	size_t lo = 0, hi = b->nended;

	*seen = false;
	if (!id)
		return 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (b->ended[mid] == id) {
			*seen = true;
			return 0;
		}
		if (b->ended[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (b->nended == b->ended_cap) {
		size_t cap = b->ended_cap ? 2 * b->ended_cap : 64;
		uint32_t *p = realloc(b->ended, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->ended = p;
		b->ended_cap = cap;
	}
	memmove(b->ended + lo + 1, b->ended + lo,
		(b->nended - lo) * sizeof(*b->ended));
	b->ended[lo] = id;
	b->nended++;
	return 0;
}

int hmrf_books_ended(hmrf_books_t *b, uint32_t id, int a,
		     const tres_vec_t *tres, double start, double end)
{
	double t0;
	bool seen;
	int rc;

	if (!_known(b, a) || !tres || !isfinite(start) || !isfinite(end) ||
	    end < start)
		return -EINVAL;
	t0 = fmax(start, b->st->charged_until);
	if (!(end > t0))
		return 0;
	if ((rc = _seen(b, id, &seen)))
		return rc;
	if (seen)
		return 0;
	b->nsums = 0;
	if (ledger_charge(b->st->usage, a, tres, t0, end))
		return -EINVAL;
	_note_start(b, a, start);
	return 0;
}

int hmrf_books_waiting(hmrf_books_t *b, int a, const tres_vec_t *tres,
		       double eligible)
{
	if (!tres)
		return -EINVAL;
	return hmrf_books_waiting_row(b, a, tres->v, TRES_MAX, eligible);
}

int hmrf_books_waiting_row(hmrf_books_t *b, int a, const double *tres, int n,
			   double eligible)
{
	double *demand, *waiting;

	if (!b || !b->open || !_known(b, a) || n < 0 || n > TRES_MAX ||
	    (n && !tres) || isnan(eligible))
		return -EINVAL;
	demand = b->acct[a].demand.v;
	waiting = b->acct[a].waiting.v;
	for (int i = 0; i < n; i++) {
		demand[i] += tres[i];
		waiting[i] += tres[i];
	}
	if (eligible < b->acct[a].earliest)
		b->acct[a].earliest = eligible;
	return 0;
}

int hmrf_books_started(hmrf_books_t *b, int a, double t)
{
	if (!_known(b, a) || !isfinite(t))
		return -EINVAL;
	_note_start(b, a, t);
	return 0;
}

int hmrf_books_close(hmrf_books_t *b)
{
	int n;
	double wsum = 0;
	tres_vec_t share, rank;

	if (!b || !b->open)
		return -EINVAL;
	n = names_count(b->st->names);
	if (ledger_advance(b->st->usage, b->now) ||
	    ledger_advance(b->st->ns, b->now))
		return -EINVAL;
	for (int a = 0; a < n; a++) {
		pass_acct_t *p = &b->acct[a];

		p->counted = p->configured || !tres_is_zero(&p->demand);
		if (p->counted)
			wsum += p->weight;
	}
	rank = _rank_capacity(b);
	for (int a = 0; a < n; a++) {
		pass_acct_t *p = &b->acct[a];

		tres_zero(&p->ns_rate);
		tres_zero(&p->rank_rate);
		if (wsum <= 0 || tres_is_zero(&p->demand))
			continue;
		hmrf_fair_share(&b->capacity, p->weight, wsum, &share);
		hmrf_nonsharing(&p->demand, &share, &p->ns_rate);
		/* Entitlement counts the capacity in service; the ranking
		 * takes the step's over what it divides by, so that a pass
		 * right after every node comes back ranks as with them in
		 * service. */
		hmrf_fair_share(&rank, p->weight, wsum, &share);
		hmrf_nonsharing(&p->demand, &share, &p->rank_rate);
		if (b->now > b->from &&
		    ledger_charge(b->st->ns, a, &p->ns_rate, b->from, b->now))
			return -EINVAL;
	}
	_tasks_left(b);
	b->st->charged_until = b->now;
	b->nended = 0;
	b->open = false;
	for (int a = 0; a < n; a++) {
		ledger_usage(b->st->usage, a, &b->acct[a].used);
		ledger_usage(b->st->ns, a, &b->acct[a].ns);
	}
	b->nsums = n;
	return 0;
}

double hmrf_books_horizon(const hmrf_books_t *b)
{
	if (b->conf.horizon > 0)
		return b->conf.horizon;
	return b->conf.window.kind == WINDOW_NONE ?
		       HMRF_BOOKS_HORIZON_NO_WINDOW :
		       b->conf.window.length;
}

double hmrf_books_charged_until(const hmrf_books_t *b)
{
	return b->st->charged_until;
}

/* The span a fair share is held over, for the borrow limit. */
static double _elapsed(const hmrf_books_t *b)
{
	if (b->conf.window.kind == WINDOW_NONE)
		return INFINITY;
	return fmin(b->now - ledger_window_start(b->st->usage),
		    b->conf.window.length);
}

int hmrf_books_get(const hmrf_books_t *b, int a, hmrf_account_t *out)
{
	const pass_acct_t *p;

	if (!_known(b, a) || !out)
		return -EINVAL;
	p = &b->acct[a];
	memset(out, 0, sizeof(*out));
	out->weight = p->weight;
	if (a < b->nsums) {
		out->used = p->used;
		out->ns = p->ns;
	} else {
		ledger_usage(b->st->usage, a, &out->used);
		ledger_usage(b->st->ns, a, &out->ns);
	}
	out->running = p->running;
	out->running_left = p->running_left;
	out->waiting = p->waiting;
	out->ns_rate = p->ns_rate;
	if (isfinite(p->earliest))
		out->waiting_since = fmax(b->st->last_start[a], p->earliest);
	return 0;
}

bool hmrf_books_counted(const hmrf_books_t *b, int a)
{
	return _known(b, a) && b->acct[a].counted;
}

int hmrf_books_find(const hmrf_books_t *b, const char *name)
{
	return b ? names_find(b->st->names, name) : -ENOENT;
}

int hmrf_books_standing(const hmrf_books_t *b, double *factor)
{
	int n = b ? names_count(b->st->names) : 0;
	hmrf_job_t *probe;
	size_t *order;
	int rc = -ENOMEM;

	if (!b || !factor)
		return -EINVAL;
	if (!n)
		return 0;
	probe = calloc((size_t)n, sizeof(*probe));
	order = calloc((size_t)n, sizeof(*order));
	if (!probe || !order)
		goto out;
	for (int a = 0; a < n; a++) {
		/* A job too small to move anyone's books: a millionth of
		 * the cluster for a second. */
		probe[a].account = a;
		probe[a].tres = _rank_capacity(b);
		tres_scale(&probe[a].tres, 1e-6);
		probe[a].duration = 1;
	}
	rc = hmrf_books_rank(b, probe, (size_t)n, order, NULL);
	if (!rc)
		for (int k = 0; k < n; k++)
			factor[probe[order[k]].account] =
				1.0 - (double)k / n;
out:
	free(probe);
	free(order);
	return rc;
}

/* The ranking's parameters and accounts as the books hold them now;
 * *acct is the caller's to free.  Returns 0 or -ENOMEM. */
static int _rank_input(const hmrf_books_t *b, hmrf_params_t *p,
		       hmrf_account_t **acct, int *n)
{
	*n = names_count(b->st->names);
	*acct = malloc((*n ? (size_t)*n : 1) * sizeof(**acct));
	if (!*acct)
		return -ENOMEM;
	for (int a = 0; a < *n; a++) {
		hmrf_books_get(b, a, &(*acct)[a]);
		(*acct)[a].ns_rate = b->acct[a].rank_rate;
	}
	memset(p, 0, sizeof(*p));
	p->policy = b->conf.policy;
	p->capacity = _rank_capacity(b);
	p->now = b->now;
	p->timeout = b->conf.timeout;
	p->horizon = hmrf_books_horizon(b);
	p->elapsed = _elapsed(b);
	p->borrow_limit = b->conf.borrow_limit;
	return 0;
}

/* hmrf_rank over jobs[] or, when table is not NULL, hmrf_rank_table. */
static int _books_rank(const hmrf_books_t *b, const hmrf_job_t *jobs,
		       size_t njobs, const hmrf_job_table_t *table,
		       size_t *order, horae_err_t *err)
{
	hmrf_params_t p;
	hmrf_account_t *acct;
	int n, rc;

	if (!b)
		return err_set(err, -EINVAL, "rank: missing books");
	if (_rank_input(b, &p, &acct, &n))
		return err_set(err, -ENOMEM, "out of memory");
	rc = table ? hmrf_rank_table(&p, acct, n, table, order, err) :
		     hmrf_rank(&p, acct, n, jobs, njobs, order, err);
	free(acct);
	return rc;
}

int hmrf_books_rank(const hmrf_books_t *b, const hmrf_job_t *jobs,
		    size_t njobs, size_t *order, horae_err_t *err)
{
	return _books_rank(b, jobs, njobs, NULL, order, err);
}

int hmrf_books_rank_table(const hmrf_books_t *b, const hmrf_job_table_t *jobs,
			  size_t *order, horae_err_t *err)
{
	if (!jobs)
		return err_set(err, -EINVAL, "rank: missing arguments");
	return _books_rank(b, NULL, 0, jobs, order, err);
}

hmrf_ranker_t *hmrf_books_ranker(const hmrf_books_t *b,
				 const hmrf_job_t *jobs, const size_t *count,
				 size_t njobs, horae_err_t *err)
{
	hmrf_params_t p;
	hmrf_account_t *acct;
	hmrf_ranker_t *r;
	int n, e;

	if (!b) {
		err_set(err, -EINVAL, "rank: missing books");
		errno = EINVAL;
		return NULL;
	}
	if (_rank_input(b, &p, &acct, &n)) {
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	r = hmrf_ranker_create(&p, acct, n, jobs, count, njobs, err);
	e = errno;
	free(acct);
	errno = e;
	return r;
}

json_object *hmrf_books_view(const hmrf_books_t *b)
{
	int n = names_count(b->st->names);
	hmrf_share_in_t *in = calloc(n ? (size_t)n : 1, sizeof(*in));
	double start = ledger_window_start(b->st->usage);
	/* Window=none has no span to share out: shares are left at 0. */
	double span = isfinite(start) ? b->now - start : 0;
	json_object *doc;

	if (!in) {
		errno = ENOMEM;
		return NULL;
	}
	for (int a = 0; a < n; a++) {
		in[a].name = names_get(b->st->names, a);
		in[a].weight = b->acct[a].weight;
		in[a].counted = b->acct[a].counted;
		if (a < b->nsums) {
			in[a].used = b->acct[a].used;
			in[a].ns = b->acct[a].ns;
		} else {
			ledger_usage(b->st->usage, a, &in[a].used);
			ledger_usage(b->st->ns, a, &in[a].ns);
		}
		in[a].last_start = hmrf_state_last_start(b->st, a);
	}
	doc = hmrf_shares_to_json(b->now, span, b->ntres, &b->capacity, in,
				  n);
	free(in);
	return doc;
}

int hmrf_books_seed_span(const hmrf_books_t *b, double to, double *from)
{
	if (!b || !from || !isfinite(to))
		return -EINVAL;
	if (b->conf.window.kind == WINDOW_NONE)
		return -ENOENT;
	*from = b->conf.window.kind == WINDOW_SLIDING ?
			to - b->conf.window.length :
			ledger_window_start(b->st->usage);
	return 0;
}

int hmrf_books_seed(hmrf_books_t *b, int a, const tres_vec_t *tres,
		    double start, double end, double from, double to)
{
	double t0, t1;

	if (!_known(b, a) || !tres || !isfinite(start) || !isfinite(end) ||
	    !isfinite(from) || !isfinite(to))
		return -EINVAL;
	if (!(start > 0))
		return 0;
	t0 = fmax(start, from);
	t1 = fmin(end > 0 ? end : to, to);
	if (!(t1 > t0))
		return 0;
	b->nsums = 0;
	if (ledger_charge(b->st->usage, a, tres, t0, t1))
		return -EINVAL;
	return 1;
}

const hmrf_state_t *hmrf_books_state(const hmrf_books_t *b)
{
	return b ? b->st : NULL;
}

hmrf_state_t *hmrf_books_snapshot(const hmrf_books_t *b)
{
	return b ? hmrf_state_dup(b->st) : NULL;
}
