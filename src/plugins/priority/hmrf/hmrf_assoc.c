/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_assoc.c - see hmrf_assoc.h.
 */
#include "config.h"

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "horae_compat.h"

#include "hmrf_assoc.h"

extern const char plugin_type[];

/* A raw share as sacctmgr set it: "parent" and unset count as 1, the
 * default of a new association. */
static double _raw(uint32_t shares)
{
	return shares == SLURMDB_FS_USE_PARENT || shares == NO_VAL ?
		       1 :
		       (double)shares;
}

hmrf_tree_t *hmrf_assoc_tree(void)
{
	hmrf_tree_t *t;
	list_itr_t *it;
	slurmdb_assoc_rec_t *a;
	horae_err_t err;
	int n = 0, rc = 0;

	if (!assoc_mgr_assoc_list || !list_count(assoc_mgr_assoc_list))
		return NULL;
	if (!(t = hmrf_tree_create())) {
		error("%s: out of memory reading the associations",
		      plugin_type);
		return NULL;
	}
	it = list_iterator_create(assoc_mgr_assoc_list);
	while (!rc && (a = list_next(it))) {
		if (!a->acct)
			continue;
		if (a->user)
			rc = hmrf_tree_add_user(t, a->acct,
						_raw(a->shares_raw));
		else if ((rc = hmrf_tree_add_account(t, a->acct, a->parent_acct,
						     _raw(a->shares_raw))) ==
			 -EINVAL)
			rc = 0; /* the same account twice: a partition's */
		n += !a->user;
	}
	list_iterator_destroy(it);
	if (rc || hmrf_tree_solve(t, &err)) {
		error("%s: the associations give no account tree (%s); shares come from hmrf.conf meanwhile",
		      plugin_type, rc ? "out of memory" : err.text);
		hmrf_tree_destroy(&t);
		return NULL;
	}
	if (!n)
		hmrf_tree_destroy(&t); /* users only: nothing to split */
	return t;
}
