/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * psdsf.c - PSDSF and rPSDSF picks.  See psdsf.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psdsf.h"

/* A candidate pair: its criterion K and per-server share. */
typedef struct pick {
	double k, share;
	int user, node;
} pick_t;

static bool _vec_ok(const tres_vec_t *v)
{
	for (int r = 0; r < TRES_MAX; r++)
		if (!(v->v[r] >= 0) || !isfinite(v->v[r]))
			return false;
	return true;
}

static int _check(const psdsf_user_t *u, int nu, const tres_vec_t *capacity,
		  const tres_vec_t *idle, int nn)
{
	if (nu < 0 || nn < 0 || (nu && !u) || (nn && (!capacity || !idle)))
		return -EINVAL;
	for (int n = 0; n < nu; n++) {
		if (!(u[n].weight > 0) || !isfinite(u[n].weight) ||
		    !(u[n].tasks >= 0) || !isfinite(u[n].tasks) ||
		    !_vec_ok(&u[n].demand))
			return -EINVAL;
		if (u[n].active && tres_is_zero(&u[n].demand))
			return -EINVAL;
	}
	for (int i = 0; i < nn; i++)
		if (!_vec_ok(&capacity[i]) || !_vec_ok(&idle[i]))
			return -EINVAL;
	return 0;
}

/* Score user n on node i into *p; false when the pair is no candidate. */
static bool _score(const psdsf_user_t *u, int n, const tres_vec_t *capacity,
		   const tres_vec_t *idle, const bool *eligible, int nn, int i,
		   bool residual, pick_t *p)
{
	const tres_vec_t *d = &u[n].demand;
	const tres_vec_t *c = residual ? &idle[i] : &capacity[i];
	double s = 0;

	if (!u[n].active || (eligible && !eligible[(size_t)n * nn + i]) ||
	    !tres_fits(d, &idle[i]))
		return false;
	for (int r = 0; r < TRES_MAX; r++)
		if (d->v[r] > 0)
			s = fmax(s, d->v[r] / c->v[r]);
	if (!isfinite(s))
		return false;
	p->k = u[n].tasks / u[n].weight * s;
	p->share = s;
	p->user = n;
	p->node = i;
	return true;
}

/* Candidates come in (user, node) order, so a tie keeps the earlier. */
static bool _better(const pick_t *p, const pick_t *best, bool have)
{
	if (!have)
		return true;
	/* Candidates come in (user, node) order, so a tie keeps the first:
	 * the lower user, then the lower node, as the paper's figures
	 * need (psdsf.h). */
	return p->k < best->k;
}

int psdsf_pick(const psdsf_user_t *u, int nu, const tres_vec_t *capacity,
	       const tres_vec_t *idle, const bool *eligible, int nn,
	       bool residual, int *user, int *node)
{
	pick_t best = { 0 }, p;
	bool have = false;

	if (!user || !node || _check(u, nu, capacity, idle, nn))
		return -EINVAL;
	for (int n = 0; n < nu; n++) {
		for (int i = 0; i < nn; i++) {
			if (!_score(u, n, capacity, idle, eligible, nn, i,
				    residual, &p))
				continue;
			if (_better(&p, &best, have)) {
				best = p;
				have = true;
			}
		}
	}
	if (!have)
		return -ENOENT;
	*user = best.user;
	*node = best.node;
	return 0;
}

int psdsf_pick_user(const psdsf_user_t *u, int nu, const tres_vec_t *capacity,
		    const tres_vec_t *idle, const bool *eligible, int nn,
		    int node, bool residual, int *user)
{
	pick_t best = { 0 }, p;
	bool have = false;

	if (!user || node < 0 || node >= nn ||
	    _check(u, nu, capacity, idle, nn))
		return -EINVAL;
	for (int n = 0; n < nu; n++) {
		if (!_score(u, n, capacity, idle, eligible, nn, node, residual,
			    &p))
			continue;
		if (_better(&p, &best, have)) {
			best = p;
			have = true;
		}
	}
	if (!have)
		return -ENOENT;
	*user = best.user;
	return 0;
}

/* --- passes --------------------------------------------------------------- */

/* Levels of idle resources per slot that a pass keeps node sets of:
 * more than none, then from the slot's largest capacity over
 * 2^(PSDSF_LEVELS - 2) up to that capacity, doubling. */
#define PSDSF_LEVELS 8

/*
 * What a pass knows of one user.  When valid, (best_k, best_i) is its best
 * pair now: the smallest K, ties to the lower node (best_i -1: none).
 * s_lb is at most its share on every node where it is a candidate now
 * (INFINITY: there is none), so that a x s_lb bounds its K from below
 * whatever a is; it is kept through the changes that invalidate best.
 */
typedef struct puser {
	psdsf_user_t u;
	double a; /* tasks / weight, the first factor of K */
	int slot[TRES_MAX], nslot; /* the slots its demand uses */
	int lev[TRES_MAX]; /* per slot used, its level in psdsf_pass.open */
	bool *elig; /* nn entries, in psdsf_pass.elig */
	bool valid;
	double best_k, s_lb;
	int best_i;
} puser_t;

struct psdsf_pass {
	int nu, nn;
	bool residual;
	int nnan; /* users whose a is not finite: K may be NaN */
	puser_t *u;
	tres_vec_t *cap, *idle;
	tres_vec_t cmax; /* per slot, at least every node's c (see _s_bound) */
	bool cnegz[TRES_MAX]; /* some node's c in the slot is -0 */
	bool *elig; /* nu x nn */
	int *cand; /* nu: psdsf_pass_pick's users to rescan */
	/*
	 * Which nodes may fit a demand, for _rescan() to look at only
	 * those: for slot r and level k, a row of nw words with bit i set
	 * when node i has at least thr[r][k] of the slot idle (level 0:
	 * more than none).  A user's level in a slot is the highest whose
	 * threshold its demand there reaches (puser_t.lev); a node whose
	 * bit is clear there has less idle than the demand and is no
	 * candidate.  Rows are kept only for the slots some user has
	 * demanded (used).
	 */
	uint64_t *open;
	int nw;
	double thr[TRES_MAX][PSDSF_LEVELS];
	bool used[TRES_MAX];
};

/* Slot r, level k's row of p->open. */
static inline uint64_t *_row(const psdsf_pass_t *p, int r, int k)
{
	return &p->open[((size_t)r * PSDSF_LEVELS + k) * p->nw];
}

/* How many of slot r's levels amount x reaches. */
static int _levels_of(const psdsf_pass_t *p, int r, double x)
{
	int k = x > 0;

	while (k < PSDSF_LEVELS && p->thr[r][k] > 0 && x >= p->thr[r][k])
		k++;
	return k;
}

/* Node i's bits in slot r's rows, from its idle amount x. */
static void _open_slot(psdsf_pass_t *p, int r, int i, double x)
{
	uint64_t bit = (uint64_t)1 << (i % 64);
	int reach = _levels_of(p, r, x);

	for (int k = 0; k < PSDSF_LEVELS; k++) {
		uint64_t *w = _row(p, r, k) + i / 64;

		*w = k < reach ? *w | bit : *w & ~bit;
	}
}

/* Node i's bits in p->open from its idle vector. */
static void _open_set(psdsf_pass_t *p, int i, const tres_vec_t *idle)
{
	for (int r = 0; r < TRES_MAX; r++)
		if (p->used[r])
			_open_slot(p, r, i, idle->v[r]);
}

/* Slot r is demanded: its rows from every node's idle amount. */
static void _open_use(psdsf_pass_t *p, int r)
{
	if (p->used[r])
		return;
	p->used[r] = true;
	for (int i = 0; i < p->nn; i++)
		_open_slot(p, r, i, p->idle[i].v[r]);
}

/*
 * A lower bound of user pu's share on every node: its demand over the
 * largest c of each slot it uses (a larger divisor never gives a larger
 * quotient).  INFINITY when no node has any of a slot it demands: it is
 * then a candidate nowhere.  A slot where some node's c is -0 is left
 * out: the share there divides by -0, which _pshare's maximum drops.
 */
static double _s_bound(const psdsf_pass_t *p, const puser_t *pu)
{
	double m = 0, x;

	for (int j = 0; j < pu->nslot; j++) {
		int r = pu->slot[j];

		if (p->cnegz[r])
			continue;
		x = pu->u.demand.v[r] / p->cmax.v[r];
		m = x > m ? x : m;
	}
	return m;
}

/* Slot r of some node's c is now x (never NaN: _vec_ok).  A comparison,
 * not fmax, a call into libm: this runs per slot at every placement. */
static void _c_seen(psdsf_pass_t *p, int r, double x)
{
	p->cmax.v[r] = x > p->cmax.v[r] ? x : p->cmax.v[r];
	if (x == 0 && signbit(x))
		p->cnegz[r] = true;
}

/* Load *u as user n's state; its best is unknown. */
static void _puser_load(psdsf_pass_t *p, int n, const psdsf_user_t *u,
			const bool *eligible)
{
	puser_t *pu = &p->u[n];

	if (!isfinite(pu->a))
		p->nnan--;
	pu->u = *u;
	pu->a = u->tasks / u->weight;
	if (!isfinite(pu->a))
		p->nnan++;
	pu->nslot = 0;
	for (int r = 0; r < TRES_MAX; r++)
		if (u->demand.v[r] > 0) {
			pu->slot[pu->nslot] = r;
			/* The highest level its demand reaches: a node
			 * below it has less idle than the demand. */
			pu->lev[pu->nslot++] =
				_levels_of(p, r, u->demand.v[r]) - 1;
			_open_use(p, r);
		}
	for (int i = 0; i < p->nn; i++)
		pu->elig[i] = !eligible || eligible[i];
	pu->valid = false;
	pu->s_lb = _s_bound(p, pu);
	pu->best_i = -1;
}

/*
 * User pu's share on node i into *s; false when the pair is no candidate.
 * As _score(): a demand slot of 0 fits any idle slot (they are >= 0), so
 * only the slots the demand uses are looked at.
 */
static inline bool _pshare(const psdsf_pass_t *p, const puser_t *pu, int i,
			   double *s)
{
	const double *d = pu->u.demand.v, *idle = p->idle[i].v;
	const double *c = p->residual ? idle : p->cap[i].v;
	double m = 0;

	if (!pu->elig[i])
		return false;
	for (int j = 0; j < pu->nslot; j++) {
		int r = pu->slot[j];
		double x;

		if (d[r] > idle[r])
			return false;
		x = d[r] / c[r];
		/* fmax, inline (a call into libm otherwise, in the
		 * innermost loop): a NaN (0 / 0) leaves m as it is. */
		m = x > m ? x : m;
	}
	if (!isfinite(m))
		return false;
	*s = m;
	return true;
}

/* Node i in user pu's rescan: its best so far in *bk, *bi, *lb. */
static inline void _rescan_node(const psdsf_pass_t *p, const puser_t *pu, int i,
				double *bk, int *bi, double *lb)
{
	double s, k;

	if (!_pshare(p, pu, i, &s))
		return;
	k = pu->a * s;
	if (*bi < 0 || k < *bk) {
		*bk = k;
		*bi = i;
	}
	*lb = s < *lb ? s : *lb; /* fmin: s is finite */
}

/*
 * Recompute user pu's best pair and s_lb over every node.  Only the nodes
 * with enough idle in every slot of its demand, as far as p->open's
 * levels tell, can be candidates; they are visited in the order of their
 * index, as a walk over all would, so that ties go to the same node.
 */
static void _rescan(const psdsf_pass_t *p, puser_t *pu)
{
	double bk = INFINITY, lb = INFINITY;
	int bi = -1;

	if (!pu->u.active)
		goto out;
	if (!pu->nslot) {
		for (int i = 0; i < p->nn; i++)
			_rescan_node(p, pu, i, &bk, &bi, &lb);
		goto out;
	}
	for (int w = 0; w < p->nw; w++) {
		uint64_t m = _row(p, pu->slot[0], pu->lev[0])[w];

		for (int j = 1; m && j < pu->nslot; j++)
			m &= _row(p, pu->slot[j], pu->lev[j])[w];
		for (; m; m &= m - 1)
			_rescan_node(p, pu, w * 64 + __builtin_ctzll(m), &bk,
				     &bi, &lb);
	}
out:
	pu->best_k = bk;
	pu->best_i = bi;
	pu->s_lb = lb;
	pu->valid = true;
}

psdsf_pass_t *psdsf_pass_create(const psdsf_user_t *u, int nu,
				const tres_vec_t *capacity,
				const tres_vec_t *idle, const bool *eligible,
				int nn, bool residual)
{
	psdsf_pass_t *p;

	if (_check(u, nu, capacity, idle, nn)) {
		errno = EINVAL;
		return NULL;
	}
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->nu = nu;
	p->nn = nn;
	p->residual = residual;
	p->u = calloc(nu ? nu : 1, sizeof(*p->u));
	p->cap = calloc(nn ? nn : 1, sizeof(*p->cap));
	p->idle = calloc(nn ? nn : 1, sizeof(*p->idle));
	p->elig = calloc((size_t)nu * nn + 1, sizeof(*p->elig));
	p->cand = calloc(nu ? nu : 1, sizeof(*p->cand));
	p->nw = (nn + 63) / 64;
	p->open = calloc((size_t)TRES_MAX * PSDSF_LEVELS * p->nw + 1,
			 sizeof(*p->open));
	if (!p->u || !p->cap || !p->idle || !p->elig || !p->cand || !p->open) {
		psdsf_pass_destroy(&p);
		errno = ENOMEM;
		return NULL;
	}
	if (nn) {
		memcpy(p->cap, capacity, nn * sizeof(*p->cap));
		memcpy(p->idle, idle, nn * sizeof(*p->idle));
	}
	for (int i = 0; i < nn; i++)
		for (int r = 0; r < TRES_MAX; r++)
			_c_seen(p, r,
				residual ? idle[i].v[r] : capacity[i].v[r]);
	/* The levels' thresholds, from each slot's largest capacity (one
	 * of 0, when that is not finite, is not used). */
	for (int r = 0; r < TRES_MAX; r++) {
		double top = 0;

		for (int i = 0; i < nn; i++)
			top = capacity[i].v[r] > top ? capacity[i].v[r] : top;
		p->thr[r][0] = 0;
		for (int k = PSDSF_LEVELS - 1; k > 0; k--) {
			p->thr[r][k] = isfinite(top) ? top : 0;
			top /= 2;
		}
	}
	for (int n = 0; n < nu; n++) {
		p->u[n].elig = p->elig + (size_t)n * nn;
		_puser_load(p, n, &u[n],
			    eligible ? eligible + (size_t)n * nn : NULL);
	}
	return p;
}

void psdsf_pass_destroy(psdsf_pass_t **pass)
{
	psdsf_pass_t *p;

	if (!pass || !(p = *pass))
		return;
	free(p->u);
	free(p->cap);
	free(p->idle);
	free(p->elig);
	free(p->cand);
	free(p->open);
	free(p);
	*pass = NULL;
}

/* (k, n, i) before (bk, bn, bi)?  bn -1: nothing yet. */
static inline bool _before(double k, int n, int i, double bk, int bn, int bi)
{
	if (bn < 0 || k < bk)
		return true;
	return k == bk && (n < bn || (n == bn && i < bi));
}

/* psdsf_pick()'s own loop, for when some K may be NaN. */
static int _pass_pick_all(const psdsf_pass_t *p, int *user, int *node)
{
	double s, k, bk = 0;
	int bn = -1, bi = -1;

	for (int n = 0; n < p->nu; n++) {
		const puser_t *pu = &p->u[n];

		for (int i = 0; pu->u.active && i < p->nn; i++) {
			if (!_pshare(p, pu, i, &s))
				continue;
			k = pu->a * s;
			if (bn < 0 || k < bk) {
				bk = k;
				bn = n;
				bi = i;
			}
		}
	}
	if (bn < 0)
		return -ENOENT;
	*user = bn;
	*node = bi;
	return 0;
}

/*
 * The smallest (K, user, node): first over the users whose best pair is
 * known, then over the others in the order of their lower bounds, each
 * recomputed only while its bound could still beat the best so far.  One
 * walk over the users finds both; a rescan changes only its own user and
 * the best only gets smaller, so the others are taken from that list, the
 * smallest (bound, user) first, and a user whose bound no longer beats
 * the best is dropped from it for good.
 */
int psdsf_pass_pick(psdsf_pass_t *p, int *user, int *node)
{
	double bk = 0;
	int bn = -1, bi = -1, nc = 0;

	if (!p || !user || !node)
		return -EINVAL;
	if (p->nnan)
		return _pass_pick_all(p, user, node);
	for (int n = 0; n < p->nu; n++) {
		const puser_t *pu = &p->u[n];

		if (!pu->u.active)
			continue;
		if (!pu->valid) {
			if (pu->s_lb < INFINITY)
				p->cand[nc++] = n;
		} else if (pu->best_i >= 0 &&
			   _before(pu->best_k, n, pu->best_i, bk, bn, bi)) {
			bk = pu->best_k;
			bn = n;
			bi = pu->best_i;
		}
	}
	while (nc) {
		double lb, mlb = 0;
		int m = -1, mj = -1;
		puser_t *pu;

		for (int j = 0; j < nc; j++) {
			int n = p->cand[j];

			pu = &p->u[n];
			lb = pu->a * pu->s_lb;
			if (!_before(lb, n, -1, bk, bn, bi)) {
				/* nor will it: the best only gets smaller */
				p->cand[j--] = p->cand[--nc];
				continue;
			}
			if (m < 0 || lb < mlb || (lb == mlb && n < m)) {
				m = n;
				mlb = lb;
				mj = j;
			}
		}
		if (m < 0)
			break;
		/* Still at mj: a drop after it moves only the last entry. */
		p->cand[mj] = p->cand[--nc];
		pu = &p->u[m];
		_rescan(p, pu);
		if (pu->best_i >= 0 &&
		    _before(pu->best_k, m, pu->best_i, bk, bn, bi)) {
			bk = pu->best_k;
			bn = m;
			bi = pu->best_i;
		}
	}
	if (bn < 0)
		return -ENOENT;
	*user = bn;
	*node = bi;
	return 0;
}

int psdsf_pass_pick_user(psdsf_pass_t *p, int node, int *user)
{
	double s, k, bk = 0;
	int bn = -1;

	if (!p || !user || node < 0 || node >= p->nn)
		return -EINVAL;
	for (int n = 0; n < p->nu; n++) {
		const puser_t *pu = &p->u[n];

		if (!pu->u.active || !_pshare(p, pu, node, &s))
			continue;
		k = pu->a * s;
		if (bn < 0 || k < bk) {
			bk = k;
			bn = n;
		}
	}
	if (bn < 0)
		return -ENOENT;
	*user = bn;
	return 0;
}

/*
 * Only node i changed: a user's best stays valid unless it was on i and i
 * got worse; s_lb takes i's new share.
 */
int psdsf_pass_set_idle(psdsf_pass_t *p, int node, const tres_vec_t *idle)
{
	double s, k;
	bool cand;

	if (!p || !idle || node < 0 || node >= p->nn || !_vec_ok(idle))
		return -EINVAL;
	p->idle[node] = *idle;
	_open_set(p, node, idle);
	for (int r = 0; p->residual && r < TRES_MAX; r++)
		_c_seen(p, r, idle->v[r]);
	for (int n = 0; n < p->nu; n++) {
		puser_t *pu = &p->u[n];

		if (!pu->u.active || (!pu->valid && pu->s_lb == 0))
			continue;
		cand = _pshare(p, pu, node, &s);
		if (cand)
			pu->s_lb = fmin(pu->s_lb, s);
		if (!pu->valid)
			continue;
		k = cand ? pu->a * s : 0;
		if (pu->best_i == node) {
			if (cand && !(k > pu->best_k))
				pu->best_k = k;
			else
				pu->valid = false;
		} else if (cand && (pu->best_i < 0 || k < pu->best_k ||
				    (k == pu->best_k && node < pu->best_i))) {
			pu->best_k = k;
			pu->best_i = node;
		}
	}
	return 0;
}

int psdsf_pass_set_tasks(psdsf_pass_t *p, int user, double tasks)
{
	puser_t *pu;
	double a;

	if (!p || user < 0 || user >= p->nu || !(tasks >= 0) ||
	    !isfinite(tasks))
		return -EINVAL;
	pu = &p->u[user];
	a = tasks / pu->u.weight;
	pu->u.tasks = tasks;
	if (a == pu->a)
		return 0;
	if (!isfinite(pu->a))
		p->nnan--;
	if (!isfinite(a))
		p->nnan++;
	pu->a = a;
	pu->valid = false;
	return 0;
}

int psdsf_pass_set_user(psdsf_pass_t *p, int user, const psdsf_user_t *u,
			const bool *eligible)
{
	if (!p || !u || user < 0 || user >= p->nu ||
	    _check(u, 1, NULL, NULL, 0))
		return -EINVAL;
	_puser_load(p, user, u, eligible);
	return 0;
}
