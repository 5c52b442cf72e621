/*
 * place_rrr.h - randomized round-robin (RRR) server selection, the Mesos
 * default that psdsf-progressive-filling.md pairs with DRF, TSF and PSDSF:
 * servers are taken in round-robin fashion, the order randomly permuted in
 * each round.  A round is a permutation of the nodes drawn from a seeded
 * rng (rng.h), so a seed gives the same sequence everywhere.
 */
#ifndef HORAE_PLACE_RRR_H
#define HORAE_PLACE_RRR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct place_rrr place_rrr_t;

/*
 * A selector over nodes 0..nnodes-1 whose first round is already drawn
 * from seed.  Returns it, or NULL with errno set: EINVAL (nnodes is 0 or
 * above INT_MAX), ENOMEM.  The caller owns it: place_rrr_destroy().
 */
place_rrr_t *place_rrr_create(size_t nnodes, uint64_t seed);

/* Free r and set *r to NULL.  NULL-safe (r or *r). */
void place_rrr_destroy(place_rrr_t **r);

/*
 * The next node of the current round for which fits[node] is true
 * (fits has nnodes entries).  The positions of the round it passes over,
 * the returned one included, are used up: a node skipped because it did
 * not fit comes back only in a later round.  When the round runs out a new
 * permutation is drawn and the search goes on in it.
 * Returns the node (>= 0); -1 when no node fits, leaving the round as it
 * was; -EINVAL when r or fits is NULL.
 */
int place_rrr_next(place_rrr_t *r, const bool *fits);

#endif /* HORAE_PLACE_RRR_H */
