/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng.h - a seeded, portable pseudo-random number generator for the
 * policies that draw at random (randomized round robin) and for
 * reproducible tests and simulations: xoshiro256** (Blackman and Vigna),
 * its state filled from one 64-bit seed through splitmix64, so that a seed
 * gives the same sequence on every platform and compiler.
 *
 * rng_t is a plain value: put it on the stack or in a struct, copy it to
 * fork a sequence, no create/destroy.  Not for anything that needs to be
 * unpredictable.  Every function takes a valid rng_t (never NULL) that
 * rng_seed() has filled; none of them sets errno.
 */
#ifndef HORAE_RNG_H
#define HORAE_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rng {
	uint64_t s[4];
} rng_t;

/* Fill r from seed (any value, 0 included). */
void rng_seed(rng_t *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t rng_next(rng_t *r);

/* A uniform double in [0, 1) with 53 random bits; draws one value. */
double rng_uniform(rng_t *r);

/*
 * A uniform integer in [0, n), without modulo bias (rejection of the
 * draws below 2^64 mod n).  0 when n is 0 or 1, drawing nothing.
 */
uint64_t rng_below(rng_t *r, uint64_t n);

/*
 * Shuffle a[0..n) in place (Fisher-Yates, n - 1 draws of rng_below()).
 * Nothing happens when n < 2 (a may then be NULL).
 */
void rng_shuffle(rng_t *r, size_t *a, size_t n);

#endif /* HORAE_RNG_H */
