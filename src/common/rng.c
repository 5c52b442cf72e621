/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng.c - xoshiro256** seeded through splitmix64.  See rng.h.  The
 * generator follows the reference code of Blackman and Vigna
 * (prng.di.unimi.it, public domain).
 */
#include "rng.h"

static uint64_t _splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t _rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(rng_t *r, uint64_t seed)
{
	/* splitmix64 never gives four zero words, the one state
	 * xoshiro cannot leave. */
	for (int i = 0; i < 4; i++)
		r->s[i] = _splitmix64(&seed);
}

uint64_t rng_next(rng_t *r)
{
	uint64_t *s = r->s;
	uint64_t out = _rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = _rotl(s[3], 45);
	return out;
}

double rng_uniform(rng_t *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(rng_t *r, uint64_t n)
{
	/* 2^64 mod n: the draws below it would favour the small results. */
	uint64_t floor, x;

	if (n < 2)
		return 0;
	floor = -n % n;
	do {
		x = rng_next(r);
	} while (x < floor);
	return x % n;
}

void rng_shuffle(rng_t *r, size_t *a, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(r, i);
		size_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}
