/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_tree.c - Fair Tree's split of shares down an account hierarchy.
 * See hmrf_tree.h.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hmrf_tree.h"
#include "names.h"

typedef struct node {
	char *parent;	 /* as given; resolved to up by solve */
	int up;		 /* parent's index, -1 for a root */
	double shares;	 /* raw, among its siblings */
	double users;	 /* its users' raw shares */
	double children; /* its sub-accounts' and users' raw shares */
	double weight;	 /* its share of the whole */
	double own;	 /* the part of weight its own jobs get */
	bool given;	 /* added as an account (not only through users) */
} node_t;

struct hmrf_tree {
	names_t *names;
	node_t *node;
	int cap;
	bool solved;
};

hmrf_tree_t *hmrf_tree_create(void)
{
	hmrf_tree_t *t = calloc(1, sizeof(*t));

	if (!t || !(t->names = names_create())) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void hmrf_tree_destroy(hmrf_tree_t **t)
{
	if (!t || !*t)
		return;
	for (int i = 0; i < names_count((*t)->names); i++)
		free((*t)->node[i].parent);
	free((*t)->node);
	names_destroy(&(*t)->names);
	free(*t);
	*t = NULL;
}

/* Index of account, added if new; -ENOMEM. */
static int _node(hmrf_tree_t *t, const char *account)
{
	int i = names_find(t->names, account), n = names_count(t->names);

	if (i >= 0)
		return i;
	if (n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		node_t *p = realloc(t->node, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->node = p;
		t->cap = cap;
	}
	i = names_intern(t->names, account);
	if (i < 0)
		return i;
	t->node[i] = (node_t){ .up = -1 };
	return i;
}

static bool _share_ok(double shares)
{
	return isfinite(shares) && shares >= 0;
}

int hmrf_tree_add_account(hmrf_tree_t *t, const char *account,
			  const char *parent, double shares)
{
	char *p = NULL;
	int i;

	if (!t || !account || !account[0] || !_share_ok(shares))
		return -EINVAL;
	i = names_find(t->names, account);
	if (i >= 0 && t->node[i].given)
		return -EINVAL;
	if (parent && parent[0] && !(p = strdup(parent)))
		return -ENOMEM;
	if ((i = _node(t, account)) < 0) {
		free(p);
		return i;
	}
	t->node[i].parent = p;
	t->node[i].shares = shares;
	t->node[i].given = true;
	t->solved = false;
	return 0;
}

int hmrf_tree_add_user(hmrf_tree_t *t, const char *account, double shares)
{
	int i;

	if (!t || !account || !account[0] || !_share_ok(shares))
		return -EINVAL;
	if ((i = _node(t, account)) < 0)
		return i;
	t->node[i].users += shares;
	t->solved = false;
	return 0;
}

/* weight of i, its ancestors' first; -EINVAL on a loop. */
static int _weigh(hmrf_tree_t *t, int i, int depth, horae_err_t *err)
{
	node_t *n = &t->node[i];
	node_t *up;
	int rc;

	if (n->weight >= 0)
		return 0;
	if (!n->given) { /* only users name it: not in the hierarchy */
		n->weight = 0;
		return 0;
	}
	if (depth > names_count(t->names))
		return err_set(err, -EINVAL,
			       "account %s: its parents make a loop",
			       names_get(t->names, i));
	if (n->up < 0) {
		n->weight = 1;
		return 0;
	}
	up = &t->node[n->up];
	if ((rc = _weigh(t, n->up, depth + 1, err)))
		return rc;
	n->weight = up->children > 0 ? up->weight * n->shares / up->children :
				       0;
	return 0;
}

int hmrf_tree_solve(hmrf_tree_t *t, horae_err_t *err)
{
	int n = names_count(t->names), rc;

	for (int i = 0; i < n; i++) {
		node_t *d = &t->node[i];

		d->up = d->parent ? names_find(t->names, d->parent) : -1;
		if (d->up >= 0 && !t->node[d->up].given)
			d->up = -1; /* a parent never given: a root's child */
		d->children = d->users;
		d->weight = -1;
	}
	for (int i = 0; i < n; i++)
		if (t->node[i].up >= 0)
			t->node[t->node[i].up].children += t->node[i].shares;
	for (int i = 0; i < n; i++) {
		node_t *d = &t->node[i];

		if ((rc = _weigh(t, i, 0, err)))
			return rc;
		d->own = d->children > 0 ? d->weight * d->users / d->children :
					   d->weight;
	}
	t->solved = true;
	return 0;
}

bool hmrf_tree_has(const hmrf_tree_t *t, const char *account)
{
	int i = t && account ? names_find(t->names, account) : -1;

	return i >= 0 && t->node[i].given;
}

int hmrf_tree_count(const hmrf_tree_t *t)
{
	return t ? names_count(t->names) : 0;
}

const char *hmrf_tree_name(const hmrf_tree_t *t, int i)
{
	return t ? names_get(t->names, i) : NULL;
}

double hmrf_tree_share(const hmrf_tree_t *t, const char *account,
		       double unknown)
{
	double roots = 0;
	int i, n;

	if (!t || !t->solved)
		return unknown;
	if (account && (i = names_find(t->names, account)) >= 0 &&
	    t->node[i].given)
		return t->node[i].own;
	/* As one more child of the root: relative to its children. */
	n = names_count(t->names);
	for (i = 0; i < n; i++)
		if (t->node[i].up < 0 && t->node[i].given)
			roots = fmax(roots, t->node[i].children);
	return roots > 0 ? unknown / roots : unknown;
}
