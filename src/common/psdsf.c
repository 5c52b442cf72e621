/*
 * psdsf.c - PSDSF and rPSDSF picks.  See psdsf.h.
 */
#include <errno.h>
#include <math.h>

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
