/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_books.c - Eunomia's books: the progress charged to each account,
 * the span its monopoly is measured over, and the shares, gaps and order
 * that follow.  See eunomia_books.h for the rules.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eunomia_books.h"
#include "json_field.h"
#include "ledger_doc.h"
#include "ledger.h"
#include "names.h"

typedef struct running {
	uint32_t id;
	int acct;
	double rate; /* progress per second */
	double from; /* charged up to here */
	bool paused;
} running_t;

/* Per account. */
typedef struct acct {
	double weight;
	double mono_rate; /* its monopoly rate; 0: unknown */
	bool waiting;
} acct_t;

struct eunomia_books {
	names_t *names;
	ledger_t *progress;
	acct_t *acct;
	int cap;
	running_t *run;
	size_t nrun, caprun;
	double common_rate; /* 0: unknown */
	double charged; /* charged up to here */
	double since; /* history starts here; -INFINITY: recovered */
	double saved_at; /* charged up to this in the loaded state */
	bool recovering;
	eunomia_account_t *scratch; /* for gaps and rank */
	int scratch_cap;
};

/* --- accounts ------------------------------------------------------------- */

/* Room for n accounts; new ones have weight 1 and no rate. */
static int _grow(eunomia_books_t *b, int n)
{
	int cap = b->cap ? b->cap : 16;
	acct_t *p;

	if (n <= b->cap)
		return ledger_grow(b->progress, n);
	while (cap < n)
		cap *= 2;
	p = realloc(b->acct, (size_t)cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + b->cap, 0, (size_t)(cap - b->cap) * sizeof(*p));
	for (int a = b->cap; a < cap; a++)
		p[a].weight = 1;
	b->acct = p;
	b->cap = cap;
	return ledger_grow(b->progress, n);
}

static bool _valid(const eunomia_books_t *b, int a)
{
	return b && a >= 0 && a < names_count(b->names);
}

int eunomia_books_account(eunomia_books_t *b, const char *name)
{
	int i;

	if (!b || !name)
		return -EINVAL;
	if ((i = names_find(b->names, name)) >= 0)
		return i;
	/* Grow first, so that a failure leaves no half-added account. */
	if (_grow(b, names_count(b->names) + 1))
		return -ENOMEM;
	return names_intern(b->names, name);
}

int eunomia_books_count(const eunomia_books_t *b)
{
	return b ? names_count(b->names) : 0;
}

const char *eunomia_books_name(const eunomia_books_t *b, int a)
{
	return b ? names_get(b->names, a) : NULL;
}

int eunomia_books_set_weight(eunomia_books_t *b, int a, double weight)
{
	if (!_valid(b, a) || !(weight > 0) || !isfinite(weight))
		return -EINVAL;
	b->acct[a].weight = weight;
	return 0;
}

int eunomia_books_set_monopoly_rate(eunomia_books_t *b, int a, double rate)
{
	if (!_valid(b, a) || !(rate >= 0) || !isfinite(rate))
		return -EINVAL;
	b->acct[a].mono_rate = rate;
	return 0;
}

int eunomia_books_set_common_rate(eunomia_books_t *b, double rate)
{
	if (!b || !(rate >= 0) || !isfinite(rate))
		return -EINVAL;
	b->common_rate = rate;
	return 0;
}

void eunomia_books_forget_rates(eunomia_books_t *b)
{
	if (!b)
		return;
	for (int a = 0; a < b->cap; a++)
		b->acct[a].mono_rate = 0;
	b->common_rate = 0;
}

double eunomia_books_monopoly_rate(const eunomia_books_t *b, int a)
{
	return _valid(b, a) ? b->acct[a].mono_rate : 0;
}

double eunomia_books_common_rate(const eunomia_books_t *b)
{
	return b ? b->common_rate : 0;
}

int eunomia_books_set_waiting(eunomia_books_t *b, int a, bool waiting)
{
	if (!_valid(b, a))
		return -EINVAL;
	b->acct[a].waiting = waiting;
	return 0;
}

/* --- create, destroy, state ------------------------------------------------ */

static eunomia_books_t *_alloc(void)
{
	eunomia_books_t *b = calloc(1, sizeof(*b));

	if (b && !(b->names = names_create())) {
		free(b);
		b = NULL;
	}
	if (!b)
		errno = ENOMEM;
	return b;
}

eunomia_books_t *eunomia_books_create(const window_spec_t *w, double bucket,
				      double now, horae_err_t *err)
{
	eunomia_books_t *b;

	if (!w || !isfinite(now)) {
		err_set(err, -EINVAL, "eunomia books: missing window or time");
		errno = EINVAL;
		return NULL;
	}
	if (!(b = _alloc())) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (!(b->progress = ledger_create(w, bucket, 1, now, err))) {
		int e = errno;

		eunomia_books_destroy(&b);
		errno = e;
		return NULL;
	}
	b->charged = b->since = b->saved_at = now;
	return b;
}

void eunomia_books_destroy(eunomia_books_t **b)
{
	if (!b || !*b)
		return;
	names_destroy(&(*b)->names);
	ledger_destroy(&(*b)->progress);
	free((*b)->acct);
	free((*b)->run);
	free((*b)->scratch);
	free(*b);
	*b = NULL;
}

json_object *eunomia_books_to_json(const eunomia_books_t *b)
{
	ledger_doc_t d = {
		.tres = "progress",
		.charged_until = b->charged,
		/* Not in the first format: a reader before these books
		 * ignores it, and a state without it has no known start. */
		.since = b->since,
		.names = b->names,
		.last_start = NULL,
		.usage = b->progress,
	};
	json_object *doc = NULL;
	ledger_t *empty;

	/* The non-sharing ledger and last_start of H-MRF's state, empty:
	 * the format select/eunomia has always written, which older
	 * versions read back. */
	empty = ledger_create(ledger_window(b->progress),
			      ledger_bucket(b->progress), 1,
			      ledger_now(b->progress), NULL);
	if (empty && !ledger_grow(empty, names_count(b->names))) {
		d.nonsharing = empty;
		doc = ledger_doc_to_json(&d);
	}
	ledger_destroy(&empty);
	if (!doc)
		errno = ENOMEM;
	return doc;
}

/* The rule of the old loader: the same window, and for a sliding window
 * the same bucket (0: L/64). */
static int _same_window(const ledger_t *l, const window_spec_t *w,
			double bucket, horae_err_t *err)
{
	const window_spec_t *sw = ledger_window(l);
	char was[64] = "?", want[64] = "?";

	if (!bucket)
		bucket = w->length / 64;
	if (sw->kind == w->kind && sw->length == w->length &&
	    (sw->kind != WINDOW_SLIDING || ledger_bucket(l) == bucket))
		return 0;
	window_format(sw, was, sizeof(was));
	window_format(w, want, sizeof(want));
	return err_set(
		err, -ESTALE,
		"the state holds progress over window %s (bucket %g s), not %s (bucket %g s)",
		was, ledger_bucket(l), want, bucket);
}

static int _load_names(eunomia_books_t *b, json_object *names, horae_err_t *err)
{
	size_t n = json_object_array_length(names);

	if ((size_t)ledger_count(b->progress) != n)
		return err_set(err, -EINVAL,
			       "the progress ledger holds %d accounts, not %zu",
			       ledger_count(b->progress), n);
	if (_grow(b, (int)n))
		return err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(names, i);

		if (!json_object_is_type(v, json_type_string))
			return err_set(err, -EINVAL,
				       "'accounts[%zu]' is not a string", i);
		if (names_intern(b->names, json_object_get_string(v)) != (int)i)
			return err_set(err, -EINVAL,
				       "'accounts[%zu]' ('%s') appears twice",
				       i, json_object_get_string(v));
	}
	return 0;
}

eunomia_books_t *eunomia_books_from_json(json_object *doc,
					 const window_spec_t *w, double bucket,
					 horae_err_t *err)
{
	json_object *names, *usage, *cu, *tres, *since;
	eunomia_books_t *b = NULL;
	horae_err_t lerr;
	int rc = -EINVAL;

	if (!doc || !w) {
		err_set(err, -EINVAL, "eunomia books: missing arguments");
		goto fail;
	}
	if (!(b = _alloc())) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "accounts", &names) ||
	    !json_object_is_type(names, json_type_array) ||
	    !json_object_object_get_ex(doc, "usage", &usage) ||
	    !json_object_object_get_ex(doc, "charged_until", &cu) ||
	    !json_number(cu, &b->charged)) {
		err_set(err, -EINVAL,
			"missing or mistyped accounts, usage or charged_until");
		goto fail;
	}
	if (json_object_object_get_ex(doc, "tres", &tres) &&
	    (!json_object_is_type(tres, json_type_string) ||
	     strcmp(json_object_get_string(tres), "progress"))) {
		err_set(err, -EINVAL, "'tres' is not \"progress\"");
		goto fail;
	}
	b->since = -INFINITY;
	if (json_object_object_get_ex(doc, "since", &since) &&
	    (!json_number(since, &b->since) || b->since > b->charged)) {
		err_set(err, -EINVAL,
			"'since' is not a finite number up to charged_until");
		goto fail;
	}
	if (!(b->progress = ledger_from_json(usage, &lerr))) {
		err_set(err, -EINVAL, "usage: %s", lerr.text);
		goto fail;
	}
	if ((rc = _same_window(b->progress, w, bucket, err)) ||
	    (rc = _load_names(b, names, err)))
		goto fail;
	b->saved_at = b->charged;
	b->recovering = true;
	return b;
fail:
	eunomia_books_destroy(&b);
	errno = -rc;
	return NULL;
}

/* --- running jobs ------------------------------------------------------------ */

static running_t *_find(const eunomia_books_t *b, uint32_t id)
{
	for (size_t i = 0; i < b->nrun; i++)
		if (b->run[i].id == id)
			return &b->run[i];
	return NULL;
}

/* Charge rate over [t0, t1] to account a; nothing when either is empty. */
static void _charge(eunomia_books_t *b, int a, double rate, double t0,
		    double t1)
{
	tres_vec_t v;

	if (!(t1 > t0) || !(rate > 0))
		return;
	tres_zero(&v);
	v.v[0] = rate;
	/* Cannot fail: the account exists and the times are ordered and
	 * finite (checked where they came in). */
	ledger_charge(b->progress, a, &v, t0, t1);
}

/* A running job charged up to now, unless paused; never back. */
static void _charge_run(eunomia_books_t *b, running_t *r, double now)
{
	if (!r->paused)
		_charge(b, r->acct, r->rate, r->from, now);
	if (now > r->from)
		r->from = now;
}

static bool _rate_ok(double rate)
{
	return rate >= 0 && isfinite(rate);
}

static int _track(eunomia_books_t *b, uint32_t id, int a, double rate,
		  double from, bool paused)
{
	running_t *r;

	if (b->nrun == b->caprun) {
		size_t cap = b->caprun ? 2 * b->caprun : 64;

		if (!(r = realloc(b->run, cap * sizeof(*r))))
			return -ENOMEM;
		b->run = r;
		b->caprun = cap;
	}
	r = &b->run[b->nrun++];
	r->id = id;
	r->acct = a;
	r->rate = rate;
	r->from = from;
	r->paused = paused;
	return 0;
}

int eunomia_books_start(eunomia_books_t *b, uint32_t id, int a, double rate,
			double start, bool paused)
{
	if (!_valid(b, a) || !_rate_ok(rate) || !isfinite(start))
		return -EINVAL;
	if (_find(b, id))
		return -EEXIST;
	return _track(b, id, a, rate, start, paused);
}

int eunomia_books_running(eunomia_books_t *b, uint32_t id, int a, double rate,
			  double start, bool paused)
{
	int rc;

	if (!_valid(b, a) || !_rate_ok(rate) || isnan(start))
		return -EINVAL;
	if (_find(b, id))
		return 0;
	rc = _track(b, id, a, rate, fmax(start, b->charged), paused);
	return rc ? rc : 1;
}

bool eunomia_books_tracked(const eunomia_books_t *b, uint32_t id)
{
	return b && _find(b, id);
}

int eunomia_books_end(eunomia_books_t *b, uint32_t id, double end)
{
	running_t *r;

	if (!b || !isfinite(end))
		return -EINVAL;
	if (!(r = _find(b, id)))
		return -ENOENT;
	_charge_run(b, r, end);
	*r = b->run[--b->nrun];
	return 0;
}

int eunomia_books_pause(eunomia_books_t *b, uint32_t id, bool paused,
			double now)
{
	running_t *r;

	if (!b || !isfinite(now))
		return -EINVAL;
	if (!(r = _find(b, id)))
		return -ENOENT;
	_charge_run(b, r, now);
	r->paused = paused;
	return 0;
}

int eunomia_books_resize(eunomia_books_t *b, uint32_t id, double rate,
			 double now)
{
	running_t *r;

	if (!b || !isfinite(now) || !_rate_ok(rate))
		return -EINVAL;
	if (!(r = _find(b, id)))
		return -ENOENT;
	_charge_run(b, r, now);
	r->rate = rate;
	return 0;
}

/* --- recovery ---------------------------------------------------------------- */

bool eunomia_books_recovering(const eunomia_books_t *b)
{
	return b && b->recovering;
}

double eunomia_books_saved_at(const eunomia_books_t *b)
{
	return b ? b->saved_at : NAN;
}

int eunomia_books_ran(eunomia_books_t *b, int a, double rate, double start,
		      double end, double now)
{
	double t0, t1;

	if (!_valid(b, a) || !_rate_ok(rate) || isnan(start) ||
	    !isfinite(end) || !isfinite(now))
		return -EINVAL;
	if (!b->recovering || !(end > b->saved_at))
		return 0;
	t0 = fmax(start, b->saved_at);
	t1 = fmin(end, now);
	if (!(t1 > t0) || !(rate > 0))
		return 0;
	_charge(b, a, rate, t0, t1);
	return 1;
}

void eunomia_books_recovered(eunomia_books_t *b)
{
	if (b)
		b->recovering = false;
}

/* --- charging, span, shares ---------------------------------------------------- */

int eunomia_books_charge(eunomia_books_t *b, double now)
{
	if (!b || !isfinite(now))
		return -EINVAL;
	if (now < b->charged)
		now = b->charged; /* the clock went back */
	for (size_t i = 0; i < b->nrun; i++)
		_charge_run(b, &b->run[i], now);
	ledger_advance(b->progress, now);
	b->charged = now;
	return 0;
}

double eunomia_books_charged_until(const eunomia_books_t *b)
{
	return b ? b->charged : NAN;
}

double eunomia_books_span(const eunomia_books_t *b, double now)
{
	double start = fmax(ledger_window_start(b->progress), b->since);

	return isfinite(start) && now - start > 1 ? now - start : 1;
}

int eunomia_books_accounts(eunomia_books_t *b, double now,
			   eunomia_account_t *out, int n, double *monopoly)
{
	int count = eunomia_books_count(b);
	double span;
	tres_vec_t used;

	if (!b || (count && !out) || !monopoly || !isfinite(now))
		return -EINVAL;
	if (n < count)
		return -ERANGE;
	eunomia_books_charge(b, now);
	span = eunomia_books_span(b, now);
	for (int a = 0; a < count; a++) {
		out[a].weight = b->acct[a].weight;
		out[a].progress = 0;
		if (!ledger_usage(b->progress, a, &used))
			out[a].progress = used.v[0];
		out[a].monopoly = b->acct[a].mono_rate * span;
		out[a].active = out[a].progress > 0 || b->acct[a].waiting;
	}
	for (size_t i = 0; i < b->nrun; i++)
		out[b->run[i].acct].active = true;
	*monopoly = b->common_rate * span;
	return 0;
}

/* The accounts into the books' own scratch array. */
static int _scratch_accounts(eunomia_books_t *b, double now, double *mono)
{
	int n = eunomia_books_count(b);

	if (n > b->scratch_cap) {
		eunomia_account_t *p =
			realloc(b->scratch, (size_t)n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->scratch = p;
		b->scratch_cap = n;
	}
	return eunomia_books_accounts(b, now, b->scratch, b->scratch_cap, mono);
}

int eunomia_books_gaps(eunomia_books_t *b, double now, double *gap, int n)
{
	double mono, fair;
	int count = eunomia_books_count(b), rc;

	if (!b || (count && !gap) || !isfinite(now))
		return -EINVAL;
	if (n < count)
		return -ERANGE;
	if ((rc = _scratch_accounts(b, now, &mono)))
		return rc;
	fair = eunomia_fair_share(b->scratch, count, mono);
	for (int a = 0; a < count; a++)
		gap[a] = eunomia_gap(
			eunomia_account_share(&b->scratch[a], mono), fair);
	return 0;
}

/* What eunomia_rank would refuse, refused before anything is charged;
 * then the accounts' scratch copies at now, and their monopoly. */
static int _rank_prepare(eunomia_books_t *b, double now,
			 const eunomia_job_t *jobs, size_t njobs,
			 double *mono, horae_err_t *err)
{
	int rc;

	if (!(b->common_rate > 0))
		return err_set(err, -EINVAL,
			       "eunomia books: no monopoly rate to rank by");
	for (size_t j = 0; j < njobs; j++)
		if (jobs[j].account < 0 ||
		    jobs[j].account >= eunomia_books_count(b) ||
		    !(jobs[j].rate >= 0) || !isfinite(jobs[j].rate))
			return err_set(
				err, -EINVAL,
				"eunomia books: job %zu has account %d, rate %g",
				j, jobs[j].account, jobs[j].rate);
	if ((rc = _scratch_accounts(b, now, mono)))
		return err_set(err, rc, "eunomia books: %s",
			       rc == -ENOMEM ? "out of memory" :
					       "bad arguments");
	return 0;
}

int eunomia_books_rank(eunomia_books_t *b, double now,
		       const eunomia_job_t *jobs, size_t njobs, size_t *order,
		       horae_err_t *err)
{
	double mono;
	int rc;

	if (!b || !isfinite(now) || (njobs && (!jobs || !order)))
		return err_set(err, -EINVAL,
			       "eunomia books: missing arguments");
	if ((rc = _rank_prepare(b, now, jobs, njobs, &mono, err)))
		return rc;
	return eunomia_rank(b->scratch, eunomia_books_count(b), mono, jobs,
			    njobs, order, err);
}

eunomia_ranker_t *eunomia_books_ranker(eunomia_books_t *b, double now,
				       const eunomia_job_t *jobs,
				       const size_t *count, size_t njobs,
				       horae_err_t *err)
{
	double mono;
	int rc;

	if (!b || !isfinite(now) || (njobs && !jobs))
		rc = err_set(err, -EINVAL, "eunomia books: missing arguments");
	else
		rc = _rank_prepare(b, now, jobs, njobs, &mono, err);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	return eunomia_ranker_create(b->scratch, eunomia_books_count(b), mono,
				     jobs, count, njobs, err);
}
