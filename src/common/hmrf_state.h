/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_state.h - everything priority/hmrf must remember across restarts:
 * the accounts, their windowed usage and non-sharing ledgers, when each
 * last had a job start, and up to when usage has been charged.  Saved and
 * loaded through state.h as format "horae-hmrf", version 1.
 */
#ifndef HORAE_HMRF_STATE_H
#define HORAE_HMRF_STATE_H

#include <stdbool.h>

#include <json-c/json.h>

#include "err.h"
#include "ledger.h"
#include "names.h"

#define HMRF_STATE_KIND "horae-hmrf"
#define HMRF_STATE_VERSION 1

typedef struct hmrf_state {
	char tres[256];	      /* what the ledger slots mean: "cpu,mem,..." */
	names_t *names;
	ledger_t *usage;      /* allocated TRES x s */
	ledger_t *ns;	      /* non-sharing allocation TRES x s */
	double *last_start;   /* per account: last job start, 0 if none */
	double charged_until; /* usage of running jobs charged up to here */
} hmrf_state_t;

/*
 * Empty state over window w (bucket as in ledger_create) for the TRES
 * list tres (as in tres_layout_create), charged up to now.  Returns NULL
 * with errno (EINVAL explained in err, ENOMEM).
 */
hmrf_state_t *hmrf_state_create(const window_spec_t *w, double bucket,
				 const char *tres, double now,
				 horae_err_t *err);

/* Free it and set *st to NULL.  NULL-safe. */
void hmrf_state_destroy(hmrf_state_t **st);

/*
 * Index of account name, adding it (and room in the ledgers) if new.
 * Returns the index, -EINVAL, or -ENOMEM (nothing changed).
 */
int hmrf_state_account(hmrf_state_t *st, const char *name);

/* A deep copy (cheap: memory copies), or NULL with errno ENOMEM. */
hmrf_state_t *hmrf_state_dup(const hmrf_state_t *st);

/*
 * A deep copy holding only the accounts for which keep(name, arg) is
 * true, in the same order: what one reader may see.  Returns NULL with
 * errno ENOMEM.
 */
hmrf_state_t *hmrf_state_select(const hmrf_state_t *st,
				bool (*keep)(const char *name, void *arg),
				void *arg);

/*
 * The same usage under another TRES list: each TRES in both keeps its
 * usage and non-sharing allocation, a new one starts empty, one no longer
 * listed is dropped.  *st is replaced on success and untouched on
 * failure.  Returns 0, -EINVAL (tres is not a TRES list; err says why) or
 * -ENOMEM.
 */
int hmrf_state_retres(hmrf_state_t **st, const char *tres, horae_err_t *err);

/* A new JSON document the caller owns; NULL with errno ENOMEM. */
json_object *hmrf_state_to_json(const hmrf_state_t *st);

/*
 * State from hmrf_state_to_json() output.  Returns NULL with errno EINVAL
 * and err naming what is wrong.
 */
hmrf_state_t *hmrf_state_from_json(json_object *doc, horae_err_t *err);

#endif /* HORAE_HMRF_STATE_H */
