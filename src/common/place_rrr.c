/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place_rrr.c - randomized round-robin server selection.  See place_rrr.h.
 *
 * The round's order is drawn lazily, Fisher-Yates one position at a time:
 * position k takes a node drawn uniformly from those not yet drawn, so the
 * first fitting node costs as many draws as nodes tried before it, not n.
 * The array keeps whatever order the last round left; a Fisher-Yates pass
 * over any arrangement gives a uniform permutation.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "place_rrr.h"
#include "rng.h"

struct place_rrr {
	rng_t rng;
	size_t n;
	size_t *perm; /* the nodes 0..n-1 in some order */
};

place_rrr_t *place_rrr_create(size_t nnodes, uint64_t seed)
{
	place_rrr_t *r;

	if (!nnodes || nnodes > INT_MAX) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		goto enomem;
	r->perm = malloc(nnodes * sizeof(*r->perm));
	if (!r->perm)
		goto free_r;
	r->n = nnodes;
	for (size_t i = 0; i < nnodes; i++)
		r->perm[i] = i;
	rng_seed(&r->rng, seed);
	return r;
free_r:
	free(r);
enomem:
	errno = ENOMEM;
	return NULL;
}

void place_rrr_destroy(place_rrr_t **r)
{
	if (!r || !*r)
		return;
	free((*r)->perm);
	free(*r);
	*r = NULL;
}

int place_rrr_next(place_rrr_t *r, const bool *fits)
{
	size_t i;

	if (!r || !fits)
		return -EINVAL;
	for (i = 0; i < r->n && !fits[i]; i++)
		;
	if (i == r->n)
		return -1;
	/* Some node fits, so the round finds it before its order ends. */
	for (size_t k = 0;; k++) {
		size_t j = k + (size_t)rng_below(&r->rng, r->n - k);
		size_t node = r->perm[j];

		r->perm[j] = r->perm[k];
		r->perm[k] = node;
		if (fits[node])
			return (int)node;
	}
}
