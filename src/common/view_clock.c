/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view_clock.c - when each reader's view is published again: see
 * view_clock.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "names.h"
#include "view_clock.h"

struct view_clock {
	names_t *uids; /* "uid" -> index into last and sig */
	double *last;
	uint64_t *sig;
	int cap;
};

view_clock_t *view_clock_create(void)
{
	view_clock_t *c = calloc(1, sizeof(*c));

	if (!c || !(c->uids = names_create())) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void view_clock_destroy(view_clock_t **c)
{
	if (!c || !*c)
		return;
	names_destroy(&(*c)->uids);
	free((*c)->last);
	free((*c)->sig);
	free(*c);
	*c = NULL;
}

static void _key(long uid, char *key, size_t len)
{
	snprintf(key, len, "%ld", uid);
}

/* Where in each `every` seconds uid's refresh falls: a fraction of it
 * drawn from the uid, so that views made together (all of them when
 * slurmctld starts) are refreshed apart. */
static double _phase(long uid, double every)
{
	uint64_t h = (uint64_t)uid * 0x9e3779b97f4a7c15ULL;

	return (double)(h >> 11) / 9007199254740992.0 * every;
}

bool view_clock_due(const view_clock_t *c, long uid, uint64_t sig, double now,
		    double every)
{
	double last, phase;
	char key[32];
	int i;

	if (!c || !(every > 0))
		return true;
	_key(uid, key, sizeof(key));
	i = names_find(c->uids, key);
	if (i < 0 || c->sig[i] != sig)
		return true;
	last = c->last[i];
	if (now < last)
		return true;
	/* Refreshed when the uid's own boundary, every `every` seconds,
	 * passed since the last publication. */
	phase = _phase(uid, every);
	return floor((now + phase) / every) != floor((last + phase) / every);
}

/* Room for n entries; 0 or -ENOMEM (nothing changed). */
static int _room(view_clock_t *c, int n)
{
	int cap = c->cap ? c->cap : 16;
	double *last;
	uint64_t *sig;

	if (n <= c->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	last = realloc(c->last, cap * sizeof(*last));
	if (!last)
		return -ENOMEM;
	c->last = last;
	sig = realloc(c->sig, cap * sizeof(*sig));
	if (!sig)
		return -ENOMEM;
	c->sig = sig;
	c->cap = cap;
	return 0;
}

int view_clock_mark(view_clock_t *c, long uid, uint64_t sig, double now)
{
	char key[32];
	int i, n;

	if (!c || uid < 0)
		return -EINVAL;
	_key(uid, key, sizeof(key));
	i = names_find(c->uids, key);
	if (i < 0) {
		n = names_count(c->uids);
		if (_room(c, n + 1))
			return -ENOMEM;
		i = names_intern(c->uids, key);
		if (i < 0)
			return -ENOMEM;
	}
	c->last[i] = now;
	c->sig[i] = sig;
	return 0;
}

int view_clock_keep(view_clock_t *c, const view_readers_t *readers)
{
	view_clock_t *k;
	int n;

	if (!c)
		return 0;
	k = view_clock_create();
	if (!k)
		return -ENOMEM;
	n = names_count(c->uids);
	for (int i = 0; i < n; i++) {
		const char *key = names_get(c->uids, i);

		if (!view_readers_find(readers, strtol(key, NULL, 10)))
			continue;
		if (view_clock_mark(k, strtol(key, NULL, 10), c->sig[i],
				    c->last[i])) {
			view_clock_destroy(&k);
			return -ENOMEM;
		}
	}
	names_destroy(&c->uids);
	free(c->last);
	free(c->sig);
	*c = *k;
	free(k);
	return 0;
}
