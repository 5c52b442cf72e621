/*
 * place_rrr.c - randomized round-robin server selection.  See place_rrr.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "place_rrr.h"
#include "rng.h"

struct place_rrr {
	rng_t rng;
	size_t n;
	size_t pos; /* next position of the round in perm */
	size_t *perm; /* the round: a permutation of 0..n-1 */
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
	rng_shuffle(&r->rng, r->perm, nnodes);
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
	/* Some node fits, so this ends within the next round. */
	for (;;) {
		if (r->pos == r->n) {
			rng_shuffle(&r->rng, r->perm, r->n);
			r->pos = 0;
		}
		i = r->perm[r->pos++];
		if (fits[i])
			return (int)i;
	}
}
