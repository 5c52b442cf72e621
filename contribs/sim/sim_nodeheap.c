/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_nodeheap.c - an indexed binary min-heap of nodes by score.  See
 * sim_nodeheap.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sim_nodeheap.h"

struct sim_nodeheap {
	int nn;
	const double *score;
	int *h; /* the heap: nodes */
	int *pos; /* per node: its place in h, or -1 */
	size_t len;
};

sim_nodeheap_t *sim_nodeheap_create(int nn, const double *score)
{
	sim_nodeheap_t *h;

	if (nn < 0 || (nn && !score)) {
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->nn = nn;
	h->score = score;
	h->h = malloc((nn ? nn : 1) * sizeof(*h->h));
	h->pos = malloc((nn ? nn : 1) * sizeof(*h->pos));
	if (!h->h || !h->pos) {
		sim_nodeheap_destroy(&h);
		errno = ENOMEM;
		return NULL;
	}
	for (int n = 0; n < nn; n++)
		h->pos[n] = -1;
	return h;
}

void sim_nodeheap_destroy(sim_nodeheap_t **hp)
{
	sim_nodeheap_t *h = hp ? *hp : NULL;

	if (!h)
		return;
	free(h->h);
	free(h->pos);
	free(h);
	*hp = NULL;
}

/* Node a before node b? */
static inline bool _before(const sim_nodeheap_t *h, int a, int b)
{
	double x = h->score[a], y = h->score[b];
	bool fx = isfinite(x), fy = isfinite(y);

	if (fx != fy)
		return fx;
	if (fx && x != y)
		return x < y;
	return a < b;
}

static inline void _put(sim_nodeheap_t *h, size_t i, int n)
{
	h->h[i] = n;
	h->pos[n] = (int)i;
}

static void _up(sim_nodeheap_t *h, size_t i)
{
	int n = h->h[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!_before(h, n, h->h[parent]))
			break;
		_put(h, i, h->h[parent]);
		i = parent;
	}
	_put(h, i, n);
}

static void _down(sim_nodeheap_t *h, size_t i)
{
	int n = h->h[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, c;

		if (l >= h->len)
			break;
		c = r < h->len && _before(h, h->h[r], h->h[l]) ? r : l;
		if (!_before(h, h->h[c], n))
			break;
		_put(h, i, h->h[c]);
		i = c;
	}
	_put(h, i, n);
}

static void _clear(sim_nodeheap_t *h)
{
	for (size_t i = 0; i < h->len; i++)
		h->pos[h->h[i]] = -1;
	h->len = 0;
}

int sim_nodeheap_build(sim_nodeheap_t *h, const int *nodes, size_t m)
{
	_clear(h);
	for (size_t i = 0; i < m; i++) {
		int n = nodes[i];

		if (n < 0 || n >= h->nn || h->pos[n] >= 0) {
			_clear(h);
			return -EINVAL;
		}
		_put(h, h->len++, n);
	}
	for (size_t i = h->len / 2; i-- > 0;)
		_down(h, i);
	return 0;
}

int sim_nodeheap_set(sim_nodeheap_t *h, int n)
{
	size_t i;

	if (n < 0 || n >= h->nn)
		return -EINVAL;
	if (h->pos[n] < 0) {
		_put(h, h->len++, n);
		_up(h, h->len - 1);
		return 0;
	}
	i = (size_t)h->pos[n];
	_up(h, i);
	if ((size_t)h->pos[n] == i)
		_down(h, i);
	return 0;
}

int sim_nodeheap_remove(sim_nodeheap_t *h, int n)
{
	size_t i;
	int last;

	if (n < 0 || n >= h->nn)
		return -EINVAL;
	if (h->pos[n] < 0)
		return 0;
	i = (size_t)h->pos[n];
	h->pos[n] = -1;
	last = h->h[--h->len];
	if (i == h->len)
		return 0;
	_put(h, i, last);
	_up(h, i);
	if (h->h[i] == last)
		_down(h, i);
	return 0;
}

int sim_nodeheap_top(const sim_nodeheap_t *h)
{
	return h->len ? h->h[0] : -1;
}

size_t sim_nodeheap_len(const sim_nodeheap_t *h)
{
	return h->len;
}

bool sim_nodeheap_has(const sim_nodeheap_t *h, int n)
{
	return n >= 0 && n < h->nn && h->pos[n] >= 0;
}
