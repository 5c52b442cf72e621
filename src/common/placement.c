/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.c - node scoring for placement.  See placement.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "placement.h"

static const char *const names[] = {
	[PLACE_FIRST_FIT] = "first-fit", [PLACE_BEST_FIT] = "best-fit",
	[PLACE_AFFINITY] = "affinity",	 [PLACE_RPSDSF] = "rpsdsf",
	[PLACE_EUNOMIA] = "eunomia",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

int place_policy_parse(const char *str, place_policy_t *out, horae_err_t *err)
{
	for (size_t i = 0; str && out && i < NNAMES; i++) {
		if (!strcmp(str, names[i])) {
			*out = (place_policy_t)i;
			return 0;
		}
	}
	return err_set(err, -EINVAL,
		       "unknown placement '%s' (use first-fit, best-fit, affinity, rpsdsf or eunomia)",
		       str ? str : "");
}

const char *place_policy_name(place_policy_t policy)
{
	return (size_t)policy < NNAMES ? names[policy] : "unknown";
}

/* The reference resource of DRFH's H: the first one the task demands. */
static int _ref(const tres_vec_t *d)
{
	for (int r = 0; r < TRES_MAX; r++)
		if (d->v[r] > 0)
			return r;
	return -1;
}

static double _share(const tres_vec_t *v, const tres_vec_t *cap, int r)
{
	return cap->v[r] > 0 ? v->v[r] / cap->v[r] : 0;
}

/*
 * Best-fit's terms that depend on the request alone, worked out once per
 * call however many nodes it scores: the reference resource, the task's
 * share of it, and each resource's share over that one.  The node's
 * terms are then what _best_fit_node divides; every term is the same
 * expression, in the same order, as if the request's were worked out
 * for each node: the scores are the same to the last bit.
 */
typedef struct best_fit_req {
	int ref; /* -1: the task demands nothing */
	int nres; /* how many resources the cluster has */
	int res[TRES_MAX]; /* which */
	double d1; /* the task's share of ref */
	double dn[TRES_MAX]; /* its share of res[i], over d1 */
} best_fit_req_t;

static void _best_fit_req(const place_request_t *q, best_fit_req_t *b)
{
	b->ref = _ref(&q->demand);
	b->nres = 0;
	if (b->ref < 0)
		return;
	b->d1 = _share(&q->demand, &q->capacity, b->ref);
	for (int r = 0; r < TRES_MAX; r++) {
		if (!(q->capacity.v[r] > 0))
			continue;
		b->res[b->nres] = r;
		b->dn[b->nres++] =
			b->d1 > 0 ?
				_share(&q->demand, &q->capacity, r) / b->d1 :
				0;
	}
}

static double _best_fit_node(const place_request_t *q, const best_fit_req_t *b,
			     const place_node_t *node)
{
	double c1, h = 0;

	if (b->ref < 0)
		return 0;
	c1 = _share(&node->idle, &q->capacity, b->ref);
	if (b->d1 <= 0 || c1 <= 0)
		return INFINITY;
	for (int i = 0; i < b->nres; i++)
		h += fabs(b->dn[i] -
			  _share(&node->idle, &q->capacity, b->res[i]) / c1);
	return h;
}

static double _affinity(const place_request_t *q, const place_node_t *node)
{
	double dot = 0;

	for (int r = 0; r < TRES_MAX; r++)
		dot += _share(&q->demand, &q->capacity, r) *
		       _share(&node->idle, &q->capacity, r);
	return -dot;
}

static double _rpsdsf(const place_request_t *q, const place_node_t *node)
{
	double s = 0;

	for (int r = 0; r < TRES_MAX; r++)
		if (q->demand.v[r] > 0)
			s = fmax(s, q->demand.v[r] / node->idle.v[r]);
	return s;
}

/* Speed decides; best-fit, scaled below one speed step, breaks ties. */
static double _eunomia(const place_request_t *q, const best_fit_req_t *b,
		       const place_node_t *node)
{
	double tie = _best_fit_node(q, b, node);

	tie = isfinite(tie) ? tie / (1.0 + tie) * 1e-3 : 1e-3;
	if (q->progress_gap < 0)
		return node->speed + tie;
	return -node->speed + tie;
}

/* place_score for req's demand alone; 1 when it fits on some node. */
static bool _score(place_policy_t policy, const place_request_t *req,
		   const place_node_t *nodes, size_t n, double *scores)
{
	best_fit_req_t bf;
	bool fits = false;

	if (policy == PLACE_BEST_FIT || policy == PLACE_EUNOMIA)
		_best_fit_req(req, &bf);
	for (size_t i = 0; i < n; i++) {
		const place_node_t *node = &nodes[i];

		if (!tres_fits(&req->demand, &node->idle)) {
			scores[i] = INFINITY;
			continue;
		}
		switch (policy) {
		case PLACE_FIRST_FIT:
			scores[i] = (double)i;
			break;
		case PLACE_BEST_FIT:
			scores[i] = _best_fit_node(req, &bf, node);
			break;
		case PLACE_AFFINITY:
			scores[i] = _affinity(req, node);
			break;
		case PLACE_RPSDSF:
			scores[i] = _rpsdsf(req, node);
			break;
		case PLACE_EUNOMIA:
			scores[i] = _eunomia(req, &bf, node);
			break;
		}
		fits = true;
	}
	return fits;
}

int place_score(place_policy_t policy, const place_request_t *req,
		const place_node_t *nodes, size_t n, double *scores,
		horae_err_t *err)
{
	place_request_t one;

	if (!req || (n && (!nodes || !scores)))
		return err_set(err, -EINVAL, "placement: missing arguments");
	if ((size_t)policy >= NNAMES)
		return err_set(err, -EINVAL, "placement: unknown policy %d",
			       (int)policy);
	if (_score(policy, req, nodes, n, scores) || tres_is_zero(&req->task))
		return 0;
	/* Fits on no node: a spread job's nodes, ranked for one task. */
	one = *req;
	one.demand = req->task;
	tres_zero(&one.task);
	_score(policy, &one, nodes, n, scores);
	return 0;
}

unsigned place_rank_group(size_t i, size_t distinct)
{
	size_t width, r;
	unsigned g;

	if (!distinct)
		distinct = 1;
	if (i < distinct)
		return i < 255 ? (unsigned)i : 255;
	g = distinct < 255 ? (unsigned)distinct : 255;
	for (r = i - distinct, width = distinct; r >= width && g < 255;
	     r -= width, width *= 2)
		g++;
	return g;
}

int place_best(const double *scores, size_t n)
{
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (isfinite(scores[i]) && (best < 0 || scores[i] < scores[best]))
			best = (int)i;
	return best;
}

int place_best_match(const place_request_t *req, const place_node_t *nodes,
		     size_t n)
{
	int best = -1;
	double h, low = INFINITY;
	best_fit_req_t bf;

	if (!req || (n && !nodes))
		return -EINVAL;
	_best_fit_req(req, &bf);
	for (size_t i = 0; i < n; i++) {
		h = _best_fit_node(req, &bf, &nodes[i]);
		if (h < low) {
			low = h;
			best = (int)i;
		}
	}
	if (best >= 0 && !tres_fits(&req->demand, &nodes[best].idle))
		return -1;
	return best;
}
