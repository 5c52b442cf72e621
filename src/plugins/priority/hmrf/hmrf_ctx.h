/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_ctx.h - what priority/hmrf holds while slurmctld runs: its
 * configuration, the TRES it charges and where slurmctld keeps them, H-MRF's
 * books (core hmrf_books, which own every charging and ranking rule and the
 * persistent state), and the factor a new job of each account would get.
 * Guarded by the plugin's mutex; see priority_hmrf.c for the lock order.
 */
#ifndef HORAE_HMRF_CTX_H
#define HORAE_HMRF_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <json-c/json.h>

#include "common/hmrf_conf.h"
#include "common/hmrf_books.h"
#include "common/hmrf_tree.h"
#include "common/prio.h"
#include "common/tres.h"

typedef struct hmrf_ctx {
	hmrf_conf_t *conf;
	tres_layout_t *layout;
	hmrf_books_t *books;
	double *next_factor;  /* per account */
	double *next_eunomia; /* per account: the Eunomia factor of its next job */
	int next_cap;
	char *state_path;     /* StateSaveLocation/horae_hmrf.state */
	double saved_at;      /* charged_until of the loaded state */
	double last_save;     /* when the state was last saved; 0: not yet */
	long saved_reader;    /* who could read it (views_file_reader()) */
	bool recover;	      /* first recalculation after a restart */
	prio_weights_t weights; /* eunomia: 0 unless the factor is on */
	int tres_pos[TRES_MAX];	/* slot -> slurmctld TRES index, -1: none */
	tres_vec_t capacity;	/* what the cluster has */
	bool tres_known;
	char *shares_path;	/* StateSaveLocation/horae_hmrf.shares */
	json_object *shares;	/* the last recalculation's view, unpublished */
	/* slurmdbd's associations, read at each recalculation; NULL: the
	 * contributions are hmrf.conf's */
	hmrf_tree_t *tree;
	/* No saved usage: the window before this is asked of slurmdbd
	 * (hmrf_seed.h); 0 once done or not wanted. */
	double seed_to;
	int seed_tries;
	/* association id -> account index (a cache for
	 * hmrf_ctx_job_account; see there) */
	struct hmrf_by_assoc *by_assoc;
	uint32_t by_assoc_cap;
	uint32_t walk; /* the recalculation under way (hmrf_ctx_new_walk) */
	/* what a recalculation works in, kept between them (hmrf_recalc.c) */
	struct hmrf_scratch *scratch;
} hmrf_ctx_t;

/*
 * Create the context: take conf (owned from now on), load the saved state
 * from state_dir, or start empty when there is none.  When the saved state
 * and its fallback are both unreadable, returns NULL after logging both
 * reasons, unless start_empty (slurmctld -i) is set.
 */
hmrf_ctx_t *hmrf_ctx_create(hmrf_conf_t *conf, const char *state_dir,
			    bool start_empty);

/* Free the context and set *ctx to NULL.  NULL-safe. */
void hmrf_ctx_destroy(hmrf_ctx_t **ctx);

/* Index of account name (NULL: the default account), adding it if new;
 * -1 when out of memory. */
int hmrf_ctx_account(hmrf_ctx_t *ctx, const char *name);

/*
 * hmrf_ctx_account for a job of association assoc_id (0: none) whose
 * account is name: the association's account index is remembered.  A
 * remembered index is used only when its account has that name (a job's
 * account and association change together, but the name decides), which
 * is checked on the first job of the association in each recalculation;
 * later jobs of it in the same one are not checked again (an association
 * does not change its account, and the books none of their names, under
 * the job write lock the walk holds).
 */
int hmrf_ctx_job_account(hmrf_ctx_t *ctx, uint32_t assoc_id,
			 const char *name);

/* A recalculation's walk starts or ends: every remembered association is
 * checked again on its next job (hmrf_ctx_job_account). */
void hmrf_ctx_new_walk(hmrf_ctx_t *ctx);

/* An account's contribution: its part of slurmdbd's association tree
 * when there is one, else its Account line or DefaultShare. */
double hmrf_ctx_share(const hmrf_ctx_t *ctx, const char *name);

/* Whether an account is configured (an association, or an Account line):
 * it counts in the weight sum even without demand. */
bool hmrf_ctx_configured(const hmrf_ctx_t *ctx, const char *name);

/* Take a new configuration at reconfigure; keeps what needs a restart. */
void hmrf_ctx_reconfig(hmrf_ctx_t *ctx, hmrf_conf_t *conf);

/* A copy of the state to save once the locks are released (caller owns
 * it), or NULL when out of memory. */
hmrf_state_t *hmrf_ctx_snapshot(const hmrf_ctx_t *ctx);

/* Serialise and write a snapshot (not consumed); logs failures.  Returns
 * 0 or -errno.  Call it with no lock held: it is the slow part. */
int hmrf_ctx_save(const char *path, const hmrf_state_t *snap);

#endif /* HORAE_HMRF_CTX_H */
