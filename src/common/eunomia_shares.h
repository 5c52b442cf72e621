/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_shares.h - the progress shares select/eunomia publishes each
 * period for sfair: per account its weight, accumulated progress, own
 * monopoly, progress share and the fair progress share, as one JSON
 * document (written with state.h's atomic writer, kind
 * EUNOMIA_SHARES_KIND), and the reading side.
 */
#ifndef HORAE_EUNOMIA_SHARES_H
#define HORAE_EUNOMIA_SHARES_H

#include <json-c/json.h>

#include "err.h"
#include "eunomia.h"

#define EUNOMIA_SHARES_KIND "horae-eunomia-shares"
#define EUNOMIA_SHARES_VERSION 1

typedef struct eunomia_share_row {
	char name[128];
	double weight, progress, share;
	int active; /* 1: has jobs or progress in the window */
} eunomia_share_row_t;

typedef struct eunomia_shares {
	double at;	 /* when it was computed, s since the epoch */
	double monopoly; /* the common monopoly over the window */
	double fair;	 /* the fair progress share */
	int n;
	eunomia_share_row_t *rows;
} eunomia_shares_t;

/*
 * The document for n accounts (names[i] for accts[i]) at time at: every
 * share computed by eunomia.c.  NULL when out of memory.
 */
json_object *eunomia_shares_to_json(double at, double monopoly,
				    const eunomia_account_t *accts,
				    const char *const *names, int n);

/*
 * Read a document made by eunomia_shares_to_json into *out (rows
 * allocated; free with eunomia_shares_free).  Returns 0, or -EINVAL with
 * err naming the missing or mistyped field, or -ENOMEM; *out untouched
 * on failure.
 */
int eunomia_shares_from_json(json_object *doc, eunomia_shares_t *out,
			     horae_err_t *err);

/* The row of account name, or NULL. */
const eunomia_share_row_t *eunomia_shares_find(const eunomia_shares_t *s,
					       const char *name);

void eunomia_shares_free(eunomia_shares_t *s);

#endif /* HORAE_EUNOMIA_SHARES_H */
