/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_vec.h - the two-resource vectors the core's tests build their
 * cases from: slot 0 CPUs, slot 1 memory, the rest zero.
 */
#ifndef HORAE_TEST_VEC_H
#define HORAE_TEST_VEC_H

#include "../tres.h"

static inline tres_vec_t _v(double cpu, double mem)
{
	tres_vec_t v;

	tres_zero(&v);
	v.v[0] = cpu;
	v.v[1] = mem;
	return v;
}

#endif /* HORAE_TEST_VEC_H */
