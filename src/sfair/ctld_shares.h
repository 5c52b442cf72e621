/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_shares.h - what slurmctld itself says of the associations, over
 * sshare's RPC (REQUEST_SHARE_INFO), for sfair where the plugins' files
 * are not (a login node) or when asked (--ctld, -u, -a, -M).
 *
 * Under priority/hmrf these are the association usages the plugin keeps
 * as priority/multifactor does (decayed by PriorityDecayHalfLife, reset
 * by PriorityUsageResetPeriod) and H-MRF's standing of each association's
 * account as its fair-share factor.  PrivateData=usage is slurmctld's to
 * apply: it sends a user only what the user may see.
 *
 * Plain structs: the Slurm records are translated in ctld_shares.c, the
 * only file of sfair built against Slurm's internal headers.
 */
#ifndef HORAE_SFAIR_CTLD_SHARES_H
#define HORAE_SFAIR_CTLD_SHARES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sfair_assoc {
	char *account;
	char *user; /* NULL: the account's own association */
	char *parent; /* the parent account, NULL for a user's */
	char *partition; /* NULL: all partitions */
	uint32_t raw_shares;
	double norm_shares;
	double raw_usage; /* billing TRES x s, decayed */
	double norm_usage; /* over the root's */
	double efctv_usage;
	double fair_share; /* the plugin's fs_factor */
	double *tres_usage; /* per TRES, TRES x s, decayed; ntres of them */
} sfair_assoc_t;

typedef struct sfair_assocs {
	char *cluster; /* -M's cluster, or NULL for slurm.conf's */
	int ntres;
	char **tres; /* "cpu", "mem", "gres/gpu", ... */
	sfair_assoc_t *rows;
	int nrows;
} sfair_assocs_t;

typedef struct sfair_assocs_query {
	const char *accounts; /* comma-separated; NULL: all */
	const char *users; /* comma-separated; NULL: none, unless all */
	bool all_users; /* -a: every user's association too */
	const char *cluster; /* -M: NULL for slurm.conf's own */
} sfair_assocs_query_t;

/*
 * Ask slurmctld (through the slurm.conf sfair_slurm_conf() names, or -M's
 * cluster as slurmdbd knows it) for the associations q selects: the
 * accounts' own associations, without the root's, and the users' ones q
 * asks for.  Returns 0 with *out filled (free with sfair_assocs_free()),
 * or 2 with the reason printed on stderr and *out empty.
 */
int sfair_assocs_load(const sfair_assocs_query_t *q, sfair_assocs_t *out);

void sfair_assocs_free(sfair_assocs_t *a);

#endif /* HORAE_SFAIR_CTLD_SHARES_H */
