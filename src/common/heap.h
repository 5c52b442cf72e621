/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap.h - the one binary min-heap of the core and the simulator, over an
 * array of fixed-size elements the caller owns, ordered by the caller's
 * before(a, b, arg) ("a comes out first").  Header-only, static inline, so
 * that the comparison a caller passes is inlined where the heap runs on a
 * hot path (ranking 100,000 jobs, a simulator's event queue).
 *
 * The caller keeps the array, its length n and its room; heap_push needs
 * room for one more element.  Elements are at most HEAP_ELEM_MAX bytes.
 * Ties come out in no particular order: a caller that needs a total order
 * breaks them in before().
 */
#ifndef HORAE_HEAP_H
#define HORAE_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define HEAP_ELEM_MAX 64

typedef bool (*heap_before_fn)(const void *a, const void *b, void *arg);

static inline __attribute__((always_inline)) void *heap_at(void *base, size_t size, size_t i)
{
	return (char *)base + i * size;
}

static inline __attribute__((always_inline)) void heap_swap(void *base, size_t size, size_t i, size_t j)
{
	unsigned char tmp[HEAP_ELEM_MAX];

	memcpy(tmp, heap_at(base, size, i), size);
	memcpy(heap_at(base, size, i), heap_at(base, size, j), size);
	memcpy(heap_at(base, size, j), tmp, size);
}

/* Move element i up to its place (after it was added or moved earlier). */
static inline __attribute__((always_inline)) void heap_sift_up(void *base, size_t size, size_t i,
				heap_before_fn before, void *arg)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(heap_at(base, size, i),
			    heap_at(base, size, parent), arg))
			return;
		heap_swap(base, size, i, parent);
		i = parent;
	}
}

/* Move element i of n down to its place (after it was moved later). */
static inline __attribute__((always_inline)) void heap_sift_down(void *base, size_t size, size_t n,
				  size_t i, heap_before_fn before, void *arg)
{
	for (;;) {
		size_t best = i, l = 2 * i + 1, r = l + 1;

		if (l < n && before(heap_at(base, size, l),
				    heap_at(base, size, best), arg))
			best = l;
		if (r < n && before(heap_at(base, size, r),
				    heap_at(base, size, best), arg))
			best = r;
		if (best == i)
			return;
		heap_swap(base, size, i, best);
		i = best;
	}
}

/* Add elem (copied) to the heap of *n elements; there must be room. */
static inline __attribute__((always_inline)) void heap_push(void *base, size_t size, size_t *n,
			     const void *elem, heap_before_fn before, void *arg)
{
	memcpy(heap_at(base, size, *n), elem, size);
	heap_sift_up(base, size, (*n)++, before, arg);
}

/* Take the first element out of the heap of *n > 0 elements into out. */
static inline __attribute__((always_inline)) void heap_pop(void *base, size_t size, size_t *n, void *out,
			    heap_before_fn before, void *arg)
{
	memcpy(out, base, size);
	if (--*n) {
		memcpy(base, heap_at(base, size, *n), size);
		heap_sift_down(base, size, *n, 0, before, arg);
	}
}

#endif /* HORAE_HEAP_H */
