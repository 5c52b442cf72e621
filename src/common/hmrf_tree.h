/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_tree.h - accounts' contributions from an account hierarchy, as
 * slurmdbd's associations give it: each node's share is split among its
 * children in proportion to their raw shares, as Fair Tree splits it, the
 * children of an account being its sub-accounts and its users.  H-MRF
 * is per account, so an account's own jobs get the part of its share its
 * users hold; its sub-accounts get the rest.
 */
#ifndef HORAE_HMRF_TREE_H
#define HORAE_HMRF_TREE_H

#include <stdbool.h>

#include "err.h"

typedef struct hmrf_tree hmrf_tree_t;

/* An empty tree, or NULL with errno ENOMEM. */
hmrf_tree_t *hmrf_tree_create(void);

/* Free it and set *t to NULL.  NULL-safe. */
void hmrf_tree_destroy(hmrf_tree_t **t);

/*
 * Account account under parent (NULL or "": a root, as slurmdbd's "root"
 * is) with raw shares >= 0.  Returns 0, -EINVAL (no name, a negative or
 * non-finite share, the account given twice) or -ENOMEM.
 */
int hmrf_tree_add_account(hmrf_tree_t *t, const char *account,
			  const char *parent, double shares);

/* A user of account with raw shares >= 0.  Returns 0, -EINVAL or
 * -ENOMEM. */
int hmrf_tree_add_user(hmrf_tree_t *t, const char *account, double shares);

/*
 * Split the shares.  A parent that is not in the tree makes its child a
 * root's child; a loop is refused.  Returns 0 or -EINVAL with err naming
 * the account.
 */
int hmrf_tree_solve(hmrf_tree_t *t, horae_err_t *err);

/* Whether account was added as an account (not only through users). */
bool hmrf_tree_has(const hmrf_tree_t *t, const char *account);

/* Number of accounts, and account i's name (lent). */
int hmrf_tree_count(const hmrf_tree_t *t);
const char *hmrf_tree_name(const hmrf_tree_t *t, int i);

/*
 * The share of account's own jobs after hmrf_tree_solve(): 1 for a
 * root's own, the product of each level's part down the path.  An
 * account not in the tree is given unknown raw shares as a child of the
 * root (unknown / the root's children's shares).
 */
double hmrf_tree_share(const hmrf_tree_t *t, const char *account,
		       double unknown);

#endif /* HORAE_HMRF_TREE_H */
