/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap_test.c - Check tests of heap.h: ints and structs come out in
 * order against qsort on generated inputs, ties broken by the caller,
 * pushes and pops interleaved, a re-keyed top sifted down.
 */
#include <check.h>

#include "check_run.h"
#include "test_seed.h"
#include <stdlib.h>

#include "../heap.h"
#include "../rng.h"

static bool _int_before(const void *a, const void *b, void *arg)
{
	(void)arg;
	return *(const int *)a < *(const int *)b;
}

static int _int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* Generated arrays of up to 500 ints with many ties: popped in order. */
START_TEST(test_ints_sorted)
{
	for (int seed = 1; seed <= 200; seed++) {
		rng_t r;
		int in[500], sorted[500], h[500], out;
		size_t n, len = 0;

		rng_seed(&r, gen_seed((uint64_t)seed));
		n = (size_t)rng_below(&r, 500) + 1;
		for (size_t i = 0; i < n; i++)
			in[i] = sorted[i] = (int)rng_below(&r, 50);
		qsort(sorted, n, sizeof(int), _int_cmp);
		for (size_t i = 0; i < n; i++)
			heap_push(h, sizeof(int), &len, &in[i], _int_before,
				  NULL);
		ck_assert_uint_eq(len, n);
		for (size_t i = 0; i < n; i++) {
			heap_pop(h, sizeof(int), &len, &out, _int_before, NULL);
			ck_assert_int_eq(out, sorted[i]);
		}
		ck_assert_uint_eq(len, 0);
	}
}
END_TEST

typedef struct ev {
	double t;
	int id;
} ev_t;

/* Ties on t broken by id: a total order, so the order is exact. */
static bool _ev_before(const void *a, const void *b, void *arg)
{
	const ev_t *x = a, *y = b;

	(void)arg;
	return x->t != y->t ? x->t < y->t : x->id < y->id;
}

/* Pushes and pops interleaved, as a simulator's event queue runs. */
START_TEST(test_interleaved_structs)
{
	rng_t r;
	ev_t h[2000], e, last = { -1, -1 };
	size_t len = 0;
	int id = 0, popped = 0;

	rng_seed(&r, gen_seed(7));
	for (int step = 0; step < 4000; step++) {
		if (len < 2000 && (len == 0 || rng_below(&r, 3))) {
			/* never earlier than what already came out */
			e.t = (last.t < 0 ? 0 : last.t) +
			      (double)rng_below(&r, 20);
			e.id = id++;
			heap_push(h, sizeof(e), &len, &e, _ev_before, NULL);
		} else {
			heap_pop(h, sizeof(e), &len, &e, _ev_before, NULL);
			ck_assert(!_ev_before(&e, &last, NULL));
			last = e;
			popped++;
		}
	}
	ck_assert_int_gt(popped, 1000);
}
END_TEST

/* The top re-keyed larger and sifted down: the next smallest comes up. */
START_TEST(test_rekey_top)
{
	int len_vals[] = { 5, 3, 9, 1, 7 }, out;
	int arr[5];
	size_t len = 0;

	for (int i = 0; i < 5; i++)
		heap_push(arr, sizeof(int), &len, &len_vals[i], _int_before,
			  NULL);
	ck_assert_int_eq(arr[0], 1);
	arr[0] = 8;
	heap_sift_down(arr, sizeof(int), len, 0, _int_before, NULL);
	ck_assert_int_eq(arr[0], 3);
	heap_pop(arr, sizeof(int), &len, &out, _int_before, NULL);
	ck_assert_int_eq(out, 3);
	ck_assert_int_eq(arr[0], 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("heap");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_ints_sorted);
	tcase_add_test(tc, test_interleaved_structs);
	tcase_add_test(tc, test_rekey_top);
	suite_add_tcase(s, tc);
	return check_run(s);
}
