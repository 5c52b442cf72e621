/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.c - name table: an array of names plus an open-addressing hash of
 * their indices, grown at 50% load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "state.h"

struct names {
	char **name;	/* by index */
	int count, cap;
	int *slot;	/* hash slots: index + 1, 0 = empty */
	size_t nslots;	/* power of two */
};

names_t *names_create(void)
{
	names_t *n = calloc(1, sizeof(*n));

	if (!n || !(n->slot = calloc(16, sizeof(*n->slot)))) {
		free(n);
		errno = ENOMEM;
		return NULL;
	}
	n->nslots = 16;
	return n;
}

void names_destroy(names_t **n)
{
	if (!n || !*n)
		return;
	for (int i = 0; i < (*n)->count; i++)
		free((*n)->name[i]);
	free((*n)->name);
	free((*n)->slot);
	free(*n);
	*n = NULL;
}

static size_t _home(const names_t *n, const char *name)
{
	return state_hash(name, strlen(name)) & (n->nslots - 1);
}

int names_find(const names_t *n, const char *name)
{
	size_t s;

	if (!n || !name)
		return -ENOENT;
	for (s = _home(n, name); n->slot[s]; s = (s + 1) & (n->nslots - 1))
		if (!strcmp(n->name[n->slot[s] - 1], name))
			return n->slot[s] - 1;
	return -ENOENT;
}

static int _rehash(names_t *n, size_t nslots)
{
	int *slot = calloc(nslots, sizeof(*slot));
	size_t s;

	if (!slot)
		return -ENOMEM;
	free(n->slot);
	n->slot = slot;
	n->nslots = nslots;
	for (int i = 0; i < n->count; i++) {
		for (s = _home(n, n->name[i]); n->slot[s];
		     s = (s + 1) & (nslots - 1))
			;
		n->slot[s] = i + 1;
	}
	return 0;
}

int names_intern(names_t *n, const char *name)
{
	char **names, *copy;
	size_t s;
	int i;

	if (!n || !name)
		return -EINVAL;
	i = names_find(n, name);
	if (i >= 0)
		return i;
	if ((size_t)(n->count + 1) * 2 > n->nslots &&
	    _rehash(n, n->nslots * 2))
		return -ENOMEM;
	if (n->count == n->cap) {
		names = realloc(n->name, (n->cap ? n->cap * 2 : 16) *
						 sizeof(*names));
		if (!names)
			return -ENOMEM;
		n->name = names;
		n->cap = n->cap ? n->cap * 2 : 16;
	}
	if (!(copy = strdup(name)))
		return -ENOMEM;
	n->name[n->count] = copy;
	for (s = _home(n, name); n->slot[s]; s = (s + 1) & (n->nslots - 1))
		;
	n->slot[s] = ++n->count;
	return n->count - 1;
}

const char *names_get(const names_t *n, int i)
{
	if (!n || i < 0 || i >= n->count)
		return NULL;
	return n->name[i];
}

int names_count(const names_t *n)
{
	return n ? n->count : 0;
}
