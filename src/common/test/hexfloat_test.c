/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hexfloat_test.c - Check tests of hexfloat.c: the text is printf's "%a"
 * text for chosen doubles (zeros, subnormals, the extremes, infinities
 * and NaNs) and for generated ones (every bit pattern equally likely, and
 * the magnitudes usage has), and strtod reads it back to the same bits.
 */
#include <check.h>

#include "check_run.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hexfloat.h"
#include "../rng.h"
#include "test_seed.h"

/* x through hexfloat_format and through printf: the same text, and its
 * length returned; a finite x read back by strtod to the same bits. */
static void _same(double x)
{
	char ours[HEXFLOAT_MAX], libc[64];
	size_t n = hexfloat_format(x, ours);
	double back;

	snprintf(libc, sizeof(libc), "%a", x);
	ck_assert_msg(!strcmp(ours, libc), "%s, printf %s", ours, libc);
	ck_assert_uint_eq(n, strlen(libc));
	ck_assert_uint_lt(n, HEXFLOAT_MAX);
	if (isfinite(x)) {
		back = strtod(ours, NULL);
		ck_assert(!memcmp(&back, &x, sizeof(x)));
	}
}

static double _from_bits(uint64_t bits)
{
	double x;

	memcpy(&x, &bits, sizeof(x));
	return x;
}

START_TEST(test_chosen)
{
	const double cases[] = {
		0.0,
		-0.0,
		1.0,
		-1.0,
		0.5,
		1.5,
		2.0,
		3.0,
		0.1,
		1e-300,
		1e300,
		57600.0,
		86400.0 * 7,
		1.0 / 3,
		DBL_MAX,
		-DBL_MAX,
		DBL_MIN,
		-DBL_MIN,
		DBL_MIN / 2,
		DBL_TRUE_MIN,
		-DBL_TRUE_MIN,
		DBL_EPSILON,
		1 + DBL_EPSILON,
		0x1.fffffffffffffp-1022,
		0x1p-1022,
		0x1p+1023,
		0x1.000000000000fp+0,
		0x1.0000000000001p+0,
		INFINITY,
		-INFINITY,
		NAN,
		-NAN,
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		_same(cases[i]);
}
END_TEST

/* Every bit pattern alike: mostly huge and tiny magnitudes, some
 * subnormals, NaNs. */
START_TEST(test_generated_bits)
{
	rng_t r;

	rng_seed(&r, gen_seed(11));
	for (int i = 0; i < 200000; i++)
		_same(_from_bits(rng_next(&r)));
	/* subnormals: the exponent field 0 */
	for (int i = 0; i < 20000; i++)
		_same(_from_bits(rng_next(&r) & 0x800fffffffffffffULL));
}
END_TEST

/* What a ledger holds: sums of CPU or megabyte seconds, whole and not,
 * and the same with few significant bits. */
START_TEST(test_generated_usage)
{
	rng_t r;

	rng_seed(&r, gen_seed(12));
	for (int i = 0; i < 200000; i++) {
		double x = rng_uniform(&r) * pow(10, (int)(rng_next(&r) % 16));

		_same(x);
		_same(floor(x));
		_same(ldexp(floor(ldexp(x, -20)), 20));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hexfloat");
	TCase *tc = tcase_create("as printf");

	tcase_add_test(tc, test_chosen);
	tcase_add_test(tc, test_generated_bits);
	tcase_add_test(tc, test_generated_usage);
	suite_add_tcase(s, tc);
	return check_run(s);
}
