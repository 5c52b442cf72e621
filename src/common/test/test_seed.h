/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_seed.h - the seed a generated case is drawn from.  Unset,
 * HORAE_TEST_SEED leaves every seed as written, so that every run draws
 * the same cases; set to a number N, every seed moves by N times a large
 * odd constant, so that a soak (testsuite/soak.sh) checks the same
 * properties on other cases.  Only for properties that must hold in every
 * case: a margin measured over fixed seeds keeps its seeds.
 */
#ifndef HORAE_TEST_SEED_H
#define HORAE_TEST_SEED_H

#include <stdint.h>
#include <stdlib.h>

static inline uint64_t gen_seed(uint64_t seed)
{
	const char *s = getenv("HORAE_TEST_SEED");

	if (!s || !*s)
		return seed;
	return seed + 0x9e3779b97f4a7c15ULL * strtoull(s, NULL, 10);
}

#endif /* HORAE_TEST_SEED_H */
