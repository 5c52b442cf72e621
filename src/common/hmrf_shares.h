/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_shares.h - the view priority/hmrf publishes each period for sfair:
 * the cluster's capacity, and per account its contribution (weight), fair
 * share of every TRES, and its dominant and aggregate shares of what the
 * cluster offered in the window, as one JSON document (written with
 * state.h's atomic writer, kind HMRF_SHARES_KIND), and the reading side.
 *
 * Version 2 carries what the shares are worked out from (each account's
 * weight, whether it counts in the weight sum, its window sums; the weight
 * sum), in hexadecimal floats, and the reader works them out: for a
 * thousand accounts, printf's decimal of version 1's shares cost more
 * than the rest of the publication.  Version 1 (the shares themselves, in
 * decimal) is still read.
 */
#ifndef HORAE_HMRF_SHARES_H
#define HORAE_HMRF_SHARES_H

#include <stdbool.h>

#include <json-c/json.h>

#include "err.h"
#include "tres.h"

#define HMRF_SHARES_KIND "horae-hmrf-shares"
#define HMRF_SHARES_VERSION 2
#define HMRF_SHARES_OLDEST 1 /* the oldest version read */

typedef struct hmrf_share_in {
	const char *name;
	double weight;	 /* contribution, > 0 */
	bool counted;	 /* in the weight sum: demand or an Account line */
	tres_vec_t used; /* TRES x s in the window */
	tres_vec_t ns;	 /* non-sharing allocation in the window, TRES x s */
	double last_start; /* its last job start, s since the epoch; 0: none */
} hmrf_share_in_t;

typedef struct hmrf_share_row {
	char name[128];
	double weight;
	double contribution; /* weight / weight sum; 0 when not counted */
	tres_vec_t fair;     /* fair share of each TRES (TRES units) */
	double dominant;     /* max_j used_j / (R_j x span) */
	double aggregate;    /* sum_j used_j / (R_j x span) / ntres */
	/* The books' window sums at the view's time, which the plugin
	 * publishes each Period while it saves the whole window less often
	 * (horae_hmrf.conf(5), SaveInterval): absent (has_usage false) in a
	 * version 1 view from a build before those sums. */
	bool has_usage;
	tres_vec_t used;   /* TRES x s in the window */
	tres_vec_t ns;	   /* non-sharing allocation, TRES x s */
	double last_start; /* 0: none */
} hmrf_share_row_t;

typedef struct hmrf_shares {
	double at;	     /* when computed, s since the epoch */
	double span;	     /* s of the window filled so far */
	int ntres;
	tres_vec_t capacity; /* R */
	int n;
	hmrf_share_row_t *rows;
	bool has_usage; /* every row has its window sums */
} hmrf_shares_t;

/*
 * The document for n accounts at time at over span seconds of window,
 * capacity R of ntres TRES.  Shares of a TRES the cluster lacks, or with
 * span <= 0, are 0.  NULL when out of memory.
 */
json_object *hmrf_shares_to_json(double at, double span, int ntres,
				 const tres_vec_t *capacity,
				 const hmrf_share_in_t *in, int n);

/*
 * Read a document of format version (HMRF_SHARES_OLDEST to
 * HMRF_SHARES_VERSION; hmrf_shares_to_json makes the newest) into *out
 * (rows allocated; free with hmrf_shares_free), each row's shares worked
 * out from its weight and sums as hmrf_shares_to_json's version 1 wrote
 * them.  Returns 0, or -EINVAL with err naming the missing or mistyped
 * field or the version, or -ENOMEM; *out untouched on failure.
 */
int hmrf_shares_from_json(json_object *doc, int version, hmrf_shares_t *out,
			  horae_err_t *err);

/* The row of account name, or NULL. */
const hmrf_share_row_t *hmrf_shares_find(const hmrf_shares_t *s,
					 const char *name);

void hmrf_shares_free(hmrf_shares_t *s);

#endif /* HORAE_HMRF_SHARES_H */
