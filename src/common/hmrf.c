/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf.c - H-MRF and its baselines: shares, beta, and ranking by virtual
 * progressive filling.  See hmrf.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "hmrf.h"

static const char *const policy_names[] = {
	[HMRF_POLICY_HMRF] = "hmrf",
	[HMRF_POLICY_DRF] = "drf",
	[HMRF_POLICY_AF] = "af",
	[HMRF_POLICY_LT_DRF] = "lt-drf",
	[HMRF_POLICY_LT_AF] = "lt-af",
};
#define NPOLICIES (sizeof(policy_names) / sizeof(policy_names[0]))

int hmrf_policy_parse(const char *str, hmrf_policy_t *out, horae_err_t *err)
{
	if (!str || !out)
		return err_set(err, -EINVAL, "policy is missing");
	for (size_t i = 0; i < NPOLICIES; i++) {
		if (!strcmp(str, policy_names[i])) {
			*out = (hmrf_policy_t)i;
			return 0;
		}
	}
	return err_set(err, -EINVAL,
		       "unknown policy '%s' (use hmrf, drf, af, lt-drf or lt-af)",
		       str);
}

const char *hmrf_policy_name(hmrf_policy_t policy)
{
	return (size_t)policy < NPOLICIES ? policy_names[policy] : "unknown";
}

void hmrf_fair_share(const tres_vec_t *capacity, double weight,
		     double weight_sum, tres_vec_t *out)
{
	*out = *capacity;
	tres_scale(out, weight / weight_sum);
}

void hmrf_nonsharing(const tres_vec_t *demand, const tres_vec_t *share,
		     tres_vec_t *out)
{
	double k = 1.0;

	for (int i = 0; i < TRES_MAX; i++) {
		if (demand->v[i] <= 0)
			continue;
		if (demand->v[i] > share->v[i])
			k = fmin(k, share->v[i] / demand->v[i]);
	}
	*out = *demand;
	tres_scale(out, k);
}

double hmrf_beta(const tres_vec_t *used, const tres_vec_t *ns)
{
	double beta = INFINITY;

	for (int i = 0; i < TRES_MAX; i++)
		if (ns->v[i] > 0)
			beta = fmin(beta, used->v[i] / ns->v[i]);
	return beta;
}

/*
 * Dominant and aggregate share over the first n slots, and the smaller or
 * larger of two numbers by comparison (a NaN argument is dropped, as fmin
 * and fmax drop it): the ranking's inner loops, which run once per job
 * ranked, over the slots in use only (hmrf_aggregate and hmrf_dominant
 * over all of them).  Slots past n hold 0 in every vector the ranking
 * reads, which no sum, minimum or maximum here counts.
 */
static inline double _min(double x, double y)
{
	return y < x ? y : x;
}

static inline double _max(double x, double y)
{
	return y > x ? y : x;
}

static double _aggregate_n(const tres_vec_t *used, const tres_vec_t *capacity,
			   double weight, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		if (capacity->v[i] > 0)
			sum += used->v[i] / capacity->v[i];
	return sum / weight;
}

static double _dominant_n(const tres_vec_t *used, const tres_vec_t *capacity,
			  double weight, int n)
{
	double dom = 0;

	for (int i = 0; i < n; i++)
		if (capacity->v[i] > 0)
			dom = _max(dom, used->v[i] / capacity->v[i]);
	return dom / weight;
}

/* _aggregate_n and _dominant_n at once, each quotient worked out once:
 * the same expressions, so the same values to the bit. */
static void _both_n(const tres_vec_t *used, const tres_vec_t *capacity,
		    double weight, int n, double *agg, double *dom)
{
	double sum = 0, max = 0;

	for (int i = 0; i < n; i++) {
		if (capacity->v[i] > 0) {
			double q = used->v[i] / capacity->v[i];

			sum += q;
			max = _max(max, q);
		}
	}
	*agg = sum / weight;
	*dom = max / weight;
}

double hmrf_aggregate(const tres_vec_t *used, const tres_vec_t *capacity,
		      double weight)
{
	return _aggregate_n(used, capacity, weight, TRES_MAX);
}

double hmrf_dominant(const tres_vec_t *used, const tres_vec_t *capacity,
		     double weight)
{
	return _dominant_n(used, capacity, weight, TRES_MAX);
}

/* --- ranking ------------------------------------------------------------ */

enum {
	CLASS_STARVING = 0, /* past the timeout */
	CLASS_LOSS,	    /* H-MRF: in sharing loss */
	CLASS_NORMAL,
	CLASS_OVER_LIMIT, /* past the borrow limit */
};

/* An account's key, as the heap holds it: the comparisons read it there,
 * without going through the account's index to another array. */
typedef struct rank_key {
	int cls;
	int a; /* the account, which decides ties */
	double k1, k2;
	double t1, t2; /* their tolerances, HMRF_TIE x |k| (_tolerate) */
} rank_key_t;

typedef struct rank_state {
	const hmrf_params_t *p;
	const hmrf_account_t *accts;
	tres_vec_t *used;    /* virtual copies */
	tres_vec_t *running;
	bool *starving;
	rank_key_t *heap; /* the accounts with jobs left, by their keys */
	size_t heap_len;
	double fair_aggregate; /* aggregate of an account at its share */
	int n; /* TRES slots in use: every vector is 0 from here on */
} rank_state_t;

/* Beta at the end of a step of span d (see hmrf_rank in hmrf.h): the
 * same as hmrf_beta() on used + r over ns + min(ns_rate x d, r + waiting x
 * d), r = min(running x d, running_left), in one pass (this runs once per
 * job ranked). */
static double _step_beta(const rank_state_t *st, int a, double d)
{
	const hmrf_account_t *acct = &st->accts[a];
	const double *used = st->used[a].v, *run = acct->running.v;
	const double *left = acct->running_left.v, *wait = acct->waiting.v;
	const double *ns = acct->ns.v, *rate = acct->ns_rate.v;
	double beta = INFINITY;

	for (int i = 0; i < st->n; i++) {
		double r = _min(run[i] * d, left[i]);
		double den = ns[i] + _min(rate[i] * d, r + wait[i] * d);

		if (den > 0)
			beta = _min(beta, (used[i] + r) / den);
	}
	return beta;
}

/* The key with the tolerances its comparisons use (see _order). */
static rank_key_t _tolerate(rank_key_t k)
{
	k.t1 = HMRF_TIE * fabs(k.k1);
	k.t2 = HMRF_TIE * fabs(k.k2);
	return k;
}

/* Key of account a, whose next job has span d (min(duration, horizon):
 * the step). */
static rank_key_t _key(const rank_state_t *st, int a, double d)
{
	const hmrf_params_t *p = st->p;
	const tres_vec_t *R = &p->capacity;
	double w = st->accts[a].weight, beta;
	rank_key_t k = { .cls = CLASS_NORMAL, .a = a };

	if (st->starving[a]) {
		k.cls = CLASS_STARVING;
		k.k1 = st->accts[a].waiting_since;
		return _tolerate(k);
	}
	switch (p->policy) {
	case HMRF_POLICY_HMRF:
		beta = _step_beta(st, a, d);
		if (beta < 1 - HMRF_TIE) {
			k.cls = CLASS_LOSS;
			k.k1 = beta;
			break;
		}
		_both_n(&st->used[a], R, w, st->n, &k.k1, &k.k2);
		break;
	case HMRF_POLICY_DRF:
		k.k1 = _dominant_n(&st->running[a], R, w, st->n);
		break;
	case HMRF_POLICY_AF:
		k.k1 = _aggregate_n(&st->running[a], R, w, st->n);
		break;
	case HMRF_POLICY_LT_DRF:
		k.k1 = _dominant_n(&st->used[a], R, w, st->n);
		break;
	case HMRF_POLICY_LT_AF:
		_both_n(&st->used[a], R, w, st->n, &k.k1, &k.k2);
		break;
	}
	if (p->borrow_limit > 0 &&
	    _aggregate_n(&st->used[a], R, w, st->n) >
		    (1 + p->borrow_limit) * st->fair_aggregate)
		k.cls = CLASS_OVER_LIMIT;
	return _tolerate(k);
}

/*
 * 1 when x is below y by more than rounding, -1 when above, 0 when they
 * agree to HMRF_TIE (relative; tx and ty are the tolerances of x and y,
 * worked out once per key): those are ties.  Usage and entitlements are sums of products in
 * floating point, so two accounts that are even in exact arithmetic, or a
 * sharing degree of exactly 1, come out a few units in the last place
 * apart depending on the order of the sums; without this, which account
 * goes first, or whether an account is in loss, would follow that noise.
 */
static int _order(double x, double tx, double y, double ty)
{
	double m = tx > ty ? tx : ty, d = y - x;

	if (m == INFINITY) /* an infinite key: exact */
		return x < y ? 1 : x > y ? -1 : 0;
	return d > m ? 1 : d < -m ? -1 : 0;
}

static inline __attribute__((always_inline)) bool
_before(const rank_key_t *x, const rank_key_t *y)
{
	int o;

	if (x->cls != y->cls)
		return x->cls < y->cls;
	if ((o = _order(x->k1, x->t1, y->k1, y->t1)) ||
	    (o = _order(x->k2, x->t2, y->k2, y->t2)))
		return o > 0;
	return x->a < y->a;
}

/* heap_before_fn over the heap's keys. */
static bool _heap_before(const void *a, const void *b, void *arg)
{
	(void)arg;
	return _before(a, b);
}

/* The jobs as the ranker reads them: hmrf_job_t's, or a table's rows
 * (hmrf_job_table_t). */
typedef struct job_src {
	const hmrf_job_t *jobs; /* NULL: the table */
	const int *account;
	const double *amounts;
	size_t stride; /* the table's doubles per job */
	int ntres;     /* TRES a job has: TRES_MAX for hmrf_job_t's */
	size_t n;
} job_src_t;

static job_src_t _src_jobs(const hmrf_job_t *jobs, size_t njobs)
{
	job_src_t src = { .jobs = jobs, .ntres = TRES_MAX, .n = njobs };

	return src;
}

static job_src_t _src_table(const hmrf_job_table_t *t)
{
	job_src_t src = { .account = t->account,
			  .amounts = t->amounts,
			  .stride = (size_t)t->ntres + 1,
			  .ntres = t->ntres,
			  .n = t->n };

	return src;
}

static inline int _src_account(const job_src_t *s, size_t j)
{
	return s->jobs ? s->jobs[j].account : s->account[j];
}

static inline double _src_duration(const job_src_t *s, size_t j)
{
	return s->jobs ? s->jobs[j].duration : s->amounts[j * s->stride];
}

static inline const double *_src_tres(const job_src_t *s, size_t j)
{
	return s->jobs ? s->jobs[j].tres.v : s->amounts + j * s->stride + 1;
}

/* The parameters and accounts; the jobs are checked as they are counted
 * (_count, _check_job). */
static int _check_input(const hmrf_params_t *p, const hmrf_account_t *accts,
			int nacct, const job_src_t *src, horae_err_t *err)
{
	if (!p || nacct < 0 || (nacct && !accts) ||
	    (src->n && !src->jobs && (!src->account || !src->amounts)))
		return err_set(err, -EINVAL, "rank: missing arguments");
	if (!(p->horizon >= 0) || !(p->timeout >= 0) ||
	    !(p->borrow_limit >= 0) || !isfinite(p->now))
		return err_set(err, -EINVAL,
			       "rank: horizon, timeout and borrow limit must be >= 0");
	for (int a = 0; a < nacct; a++)
		if (!(accts[a].weight > 0) || !isfinite(accts[a].weight))
			return err_set(err, -EINVAL,
				       "rank: account %d has weight %g; it must be > 0",
				       a, accts[a].weight);
	return 0;
}

/* Whether job j of jobs[] names an account, has a span, and (with count)
 * is given at least once. */
static int _check_job(const hmrf_params_t *p, int nacct,
		      const job_src_t *src, const size_t *count, size_t j,
		      horae_err_t *err)
{
	int account = _src_account(src, j);
	double duration = _src_duration(src, j);

	if (account < 0 || account >= nacct)
		return err_set(err, -EINVAL,
			       "rank: job %zu names account %d of %d", j,
			       account, nacct);
	if (!(duration >= 0) || !isfinite(fmin(duration, p->horizon)))
		return err_set(err, -EINVAL,
			       "rank: job %zu has duration %g; it must be >= 0, and finite without a horizon",
			       j, duration);
	if (count && !count[j])
		return err_set(err, -EINVAL,
			       "rank: job %zu is given 0 times; it must be 1 or more",
			       j);
	return 0;
}

static double _weight_sum(const hmrf_account_t *accts, int nacct)
{
	double sum = 0;

	for (int a = 0; a < nacct; a++)
		sum += accts[a].weight;
	return sum;
}

/*
 * How many jobs each account has, and the TRES slots the jobs use: one
 * pass over jobs[] that checks each job (_check_job) as it goes.  first
 * gets nacct + 1 entries: where each account's jobs begin in the grouped
 * order (_lay_out), and past the last.  On a bad job, -EINVAL (err names
 * it) and nothing kept; -ENOMEM.
 */
static int _count(const hmrf_params_t *p, const job_src_t *src,
		  const size_t *count, int nacct, size_t **first, int *slots,
		  horae_err_t *err)
{
	size_t *start = calloc((size_t)nacct + 1, sizeof(*start));
	int n = 0, rc;

	if (!start)
		return err_set(err, -ENOMEM, "out of memory");
	for (size_t j = 0; j < src->n; j++) {
		const double *tres = _src_tres(src, j);

		if ((rc = _check_job(p, nacct, src, count, j, err))) {
			free(start);
			return rc;
		}
		start[_src_account(src, j) + 1]++;
		/* past the last TRES not 0 (tres_slots), beyond the n
		 * known */
		for (int k = src->ntres; k > n; k--) {
			if (tres[k - 1] != 0) {
				n = k;
				break;
			}
		}
	}
	for (int a = 0; a < nacct; a++)
		start[a + 1] += start[a];
	*first = start;
	*slots = n;
	return 0;
}

static int _state_init(rank_state_t *st, const hmrf_params_t *p,
		       const hmrf_account_t *accts, int nacct)
{
	size_t n = nacct ? (size_t)nacct : 1;

	memset(st, 0, sizeof(*st));
	st->p = p;
	st->accts = accts;
	st->used = malloc(n * sizeof(*st->used));
	st->running = malloc(n * sizeof(*st->running));
	st->starving = calloc(n, sizeof(*st->starving));
	st->heap = malloc(n * sizeof(*st->heap));
	if (!st->used || !st->running || !st->starving || !st->heap)
		return -ENOMEM;
	for (int a = 0; a < nacct; a++) {
		st->used[a] = accts[a].used;
		st->running[a] = accts[a].running;
		st->starving[a] = p->timeout > 0 && accts[a].waiting_since > 0 &&
				  p->now - accts[a].waiting_since >= p->timeout;
	}
	/* An account that held its share R*w/W all along has this aggregate. */
	if (nacct) {
		int m = 0;

		for (int i = 0; i < TRES_MAX; i++)
			m += p->capacity.v[i] > 0;
		st->fair_aggregate = m * p->elapsed / _weight_sum(accts, nacct);
	}
	return 0;
}

static void _state_free(rank_state_t *st)
{
	free(st->used);
	free(st->running);
	free(st->starving);
	free(st->heap);
}

/*
 * The account at the top of the heap, keyed again (its key written there
 * by the caller), put in its place:
 * Floyd's sift, the hole taken down the path of the children that come
 * first (one comparison a level) and the account raised from there.  An
 * account just charged a job mostly belongs far down, where this takes
 * about half the comparisons of sinking it level by level; under a strict
 * order the heap gives the same accounts first either way.
 */
static void _sink_top(rank_state_t *st)
{
	rank_key_t *h = st->heap, top = h[0];
	size_t n = st->heap_len, i = 0, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && _before(&h[c + 1], &h[c]))
			c++;
		h[i] = h[c];
		i = c;
	}
	while (i > 0) {
		size_t up = (i - 1) / 2;

		if (!_before(&top, &h[up]))
			break;
		h[i] = h[up];
		i = up;
	}
	h[i] = top;
}

/* Charge a job to account a, virtually: job is its place in the
 * ranker's layout (its span, then its TRES). */
static void _charge(rank_state_t *st, int a, const double *job)
{
	double d = job[0], *used = st->used[a].v, *run = st->running[a].v;
	const double *tres = job + 1;

	for (int i = 0; i < st->n; i++) {
		used[i] += tres[i] * d;
		run[i] += tres[i];
	}
	st->starving[a] = false;
}

/* The slots in use, at least jobs (those the jobs use): past the last
 * one that is not 0 in the capacity, in any account's vectors or in any
 * job's, all hold 0. */
static int _slots_in_use(const hmrf_params_t *p, const hmrf_account_t *accts,
			 int nacct, int jobs)
{
	const tres_vec_t *v[6];
	int n = tres_slots(&p->capacity), k;

	if (jobs > n)
		n = jobs;
	for (int a = 0; a < nacct && n < TRES_MAX; a++) {
		v[0] = &accts[a].used;
		v[1] = &accts[a].running;
		v[2] = &accts[a].ns;
		v[3] = &accts[a].ns_rate;
		v[4] = &accts[a].running_left;
		v[5] = &accts[a].waiting;
		for (int i = 0; i < 6; i++)
			if ((k = tres_slots(v[i])) > n)
				n = k;
	}
	return n;
}

struct hmrf_ranker {
	hmrf_params_t p;	/* a copy: the caller's may go */
	hmrf_account_t *accts;	/* a copy, or NULL: lent by hmrf_rank */
	rank_state_t st;
	size_t *first, *byacct; /* jobs grouped by account (_lay_out) */
	double *lay;		/* what is read of them, in that order */
	size_t stride;		/* doubles a job has in lay */
	size_t *next;		/* each account's job being given */
	size_t *left;		/* how many times more it is given */
	size_t *count;		/* each job's repeats; NULL: once each */
	int given;		/* the account last given a job, or -1 */
};

void hmrf_ranker_destroy(hmrf_ranker_t **rp)
{
	hmrf_ranker_t *r = rp ? *rp : NULL;

	if (!r)
		return;
	_state_free(&r->st);
	free(r->accts);
	free(r->first);
	free(r->byacct);
	free(r->lay);
	free(r->next);
	free(r->left);
	free(r->count);
	free(r);
	*rp = NULL;
}

/* Where the job at place k of byacct lies in lay. */
static inline double *_laid(const hmrf_ranker_t *r, size_t k)
{
	return r->lay + k * r->stride;
}

/*
 * The jobs grouped by account, each group in input order (a counting
 * sort over _count's first), and in lay what the ranking reads of each,
 * in the same order: its span min(duration, horizon), then its n TRES.
 * The jobs lie far apart in memory, and each account's come up a
 * thousand places apart when there are a thousand accounts; laid out so,
 * an account's next job is beside its last, and a pass reads jobs[] in
 * its own order, which memory serves fastest.  Uses next as the cursor
 * and leaves it at first.
 */
static int _lay_out(hmrf_ranker_t *r, const job_src_t *src, int nacct)
{
	size_t n = (size_t)r->st.n, *at = r->next, njobs = src->n;
	/* what a job has of the n slots; the rest are 0 */
	size_t have = n < (size_t)src->ntres ? n : (size_t)src->ntres;

	r->stride = n + 1;
	r->byacct = malloc((njobs ? njobs : 1) * sizeof(*r->byacct));
	r->lay = malloc((njobs ? njobs : 1) * r->stride * sizeof(*r->lay));
	if (!r->byacct || !r->lay)
		return -ENOMEM;
	memcpy(at, r->first, ((size_t)nacct + 1) * sizeof(*at));
	for (size_t j = 0; j < njobs; j++) {
		size_t k = at[_src_account(src, j)]++;
		double *job = _laid(r, k);

		r->byacct[k] = j;
		job[0] = _min(_src_duration(src, j), r->p.horizon);
		memcpy(job + 1, _src_tres(src, j), have * sizeof(*job));
		if (have < n)
			memset(job + 1 + have, 0, (n - have) * sizeof(*job));
	}
	memcpy(at, r->first, ((size_t)nacct + 1) * sizeof(*at));
	return 0;
}

/* How many times job j is given. */
static inline size_t _repeats(const hmrf_ranker_t *r, size_t j)
{
	return r->count ? r->count[j] : 1;
}

/* The ranker over parameters and accounts _check_input passed; the jobs
 * it checks itself (_count).  With copy, over its own copy of the
 * accounts (hmrf_rank, which outlives its ranker, lends them).  NULL with
 * errno EINVAL (err says what) or ENOMEM. */
static hmrf_ranker_t *_ranker_new(const hmrf_params_t *p,
				  const hmrf_account_t *accts, int nacct,
				  const job_src_t *src, const size_t *count,
				  bool copy, horae_err_t *err)
{
	size_t njobs = src->n;
	size_t na = nacct > 0 ? (size_t)nacct : 1;
	const hmrf_account_t *acc = accts;
	hmrf_ranker_t *r = calloc(1, sizeof(*r));
	int rc = -ENOMEM, slots = 0;

	if (!r)
		goto nomem;
	r->p = *p;
	r->given = -1;
	r->next = malloc((na + 1) * sizeof(*r->next));
	r->left = malloc((na + 1) * sizeof(*r->left));
	if (!r->next || !r->left)
		goto nomem;
	if (copy) {
		if (!(r->accts = malloc(na * sizeof(*r->accts))))
			goto nomem;
		if (nacct)
			memcpy(r->accts, accts,
			       (size_t)nacct * sizeof(*r->accts));
		acc = r->accts;
	}
	if (count && njobs) {
		if (!(r->count = malloc(njobs * sizeof(*r->count))))
			goto nomem;
		memcpy(r->count, count, njobs * sizeof(*r->count));
	}
	if (_state_init(&r->st, &r->p, acc, nacct))
		goto nomem;
	if ((rc = _count(&r->p, src, count, nacct, &r->first, &slots, err)))
		goto fail;
	r->st.n = _slots_in_use(&r->p, acc, nacct, slots);
	if ((rc = _lay_out(r, src, nacct)))
		goto nomem;
	for (int a = 0; a < nacct; a++) {
		rank_key_t k;

		if (r->first[a] == r->first[a + 1])
			continue;
		r->left[a] = _repeats(r, r->byacct[r->next[a]]);
		k = _key(&r->st, a, _laid(r, r->next[a])[0]);
		heap_push(r->st.heap, sizeof(k), &r->st.heap_len, &k,
			  _heap_before, NULL);
	}
	return r;
nomem:
	err_set(err, -ENOMEM, "out of memory");
fail:
	hmrf_ranker_destroy(&r);
	errno = -rc;
	return NULL;
}

hmrf_ranker_t *hmrf_ranker_create(const hmrf_params_t *p,
				  const hmrf_account_t *accts, int nacct,
				  const hmrf_job_t *jobs, const size_t *count,
				  size_t njobs, horae_err_t *err)
{
	job_src_t src = _src_jobs(jobs, njobs);
	int rc = _check_input(p, accts, nacct, &src, err);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	return _ranker_new(p, accts, nacct, &src, count, true, err);
}

/* Charge the job account a (at the top of the heap) was last given, and
 * put a back in its place, keyed on what it is given next. */
static void _ranker_settle(hmrf_ranker_t *r, int a)
{
	rank_state_t *st = &r->st;
	rank_key_t gone;

	_charge(st, a, _laid(r, r->next[a]));
	if (!r->count || !--r->left[a]) {
		if (++r->next[a] == r->first[a + 1]) {
			heap_pop(st->heap, sizeof(gone), &st->heap_len, &gone,
				 _heap_before, NULL);
			return;
		}
		if (r->count)
			r->left[a] = r->count[r->byacct[r->next[a]]];
	}
	/* It is at the top: sinking puts it in its place. */
	st->heap[0] = _key(st, a, _laid(r, r->next[a])[0]);
	_sink_top(st);
}

int hmrf_ranker_next(hmrf_ranker_t *r, size_t *job)
{
	if (!r || !job)
		return -EINVAL;
	/* The last job given is charged now, so that hmrf_ranker_skip may
	 * still charge its repeats before its account is keyed again. */
	if (r->given >= 0)
		_ranker_settle(r, r->given);
	r->given = -1;
	if (!r->st.heap_len)
		return -ENOENT;
	r->given = r->st.heap[0].a;
	*job = r->byacct[r->next[r->given]];
	return 0;
}

int hmrf_ranker_skip(hmrf_ranker_t *r, size_t job)
{
	int a = r ? r->given : -1;

	if (a < 0 || r->byacct[r->next[a]] != job)
		return -EINVAL;
	/* Its repeats but the last, charged at once: the account's key only
	 * grows with them (the same job, more usage), so the other accounts
	 * are given, relative to one another and to this account's next
	 * job, what they would have been.  The last repeat still comes, with
	 * the key it would have had. */
	for (; r->count && r->left[a] > 2; r->left[a]--)
		_charge(&r->st, a, _laid(r, r->next[a]));
	return 0;
}

/* hmrf_rank over either kind of jobs. */
static int _rank_all(const hmrf_params_t *p, const hmrf_account_t *accts,
		     int nacct, const job_src_t *src, size_t *order,
		     horae_err_t *err)
{
	size_t *first, *byacct, *next, k = 0;
	hmrf_ranker_t *r;
	rank_state_t *st;
	rank_key_t gone;
	int rc, a;

	rc = _check_input(p, accts, nacct, src, err);
	if (rc)
		return rc;
	if (src->n && !order)
		return err_set(err, -EINVAL, "rank: missing arguments");
	r = _ranker_new(p, accts, nacct, src, NULL, false, err);
	if (!r)
		return -errno;
	/* The ranker's steps without repeats, its arrays in locals: the
	 * plugins rank every pending job each pass, and this loop is most
	 * of a recalculation. */
	st = &r->st;
	first = r->first;
	byacct = r->byacct;
	next = r->next;
	while (st->heap_len) {
		a = st->heap[0].a;
		order[k++] = byacct[next[a]];
		_charge(st, a, _laid(r, next[a]));
		if (++next[a] == first[a + 1]) {
			heap_pop(st->heap, sizeof(gone), &st->heap_len, &gone,
				 _heap_before, NULL);
			continue;
		}
		st->heap[0] = _key(st, a, _laid(r, next[a])[0]);
		_sink_top(st);
	}
	hmrf_ranker_destroy(&r);
	return 0;
}

int hmrf_rank(const hmrf_params_t *p, const hmrf_account_t *accts, int nacct,
	      const hmrf_job_t *jobs, size_t njobs, size_t *order,
	      horae_err_t *err)
{
	job_src_t src = _src_jobs(jobs, njobs);

	if (njobs && !jobs)
		return err_set(err, -EINVAL, "rank: missing arguments");
	return _rank_all(p, accts, nacct, &src, order, err);
}

int hmrf_rank_table(const hmrf_params_t *p, const hmrf_account_t *accts,
		    int nacct, const hmrf_job_table_t *jobs, size_t *order,
		    horae_err_t *err)
{
	job_src_t src;

	if (!jobs)
		return err_set(err, -EINVAL, "rank: missing arguments");
	if (jobs->ntres < 0 || jobs->ntres > TRES_MAX)
		return err_set(err, -EINVAL,
			       "rank: the job table has %d TRES; at most %d",
			       jobs->ntres, TRES_MAX);
	src = _src_table(jobs);
	return _rank_all(p, accts, nacct, &src, order, err);
}
