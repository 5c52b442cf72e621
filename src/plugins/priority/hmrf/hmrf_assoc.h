/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_assoc.h - contributions from slurmdbd's associations: the account
 * hierarchy and raw shares sacctmgr sets, read from assoc_mgr's copy, for
 * the core's Fair Tree split (hmrf_tree.h).
 */
#ifndef HORAE_HMRF_ASSOC_H
#define HORAE_HMRF_ASSOC_H

#include "common/hmrf_tree.h"

/*
 * The solved tree of this cluster's associations, or NULL when there are
 * none (no accounting: shares come from hmrf.conf) or they make no tree
 * (logged).  The caller holds assoc_mgr's assoc read lock and owns the
 * tree.
 */
hmrf_tree_t *hmrf_assoc_tree(void);

#endif /* HORAE_HMRF_ASSOC_H */
