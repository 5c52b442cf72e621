/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_doc.h - the JSON document of a set of per-account books, which
 * priority/hmrf's state (hmrf_state.c) and select/eunomia's progress
 * (eunomia_books.c) are both saved as:
 *
 *   { "tres": "cpu,mem,...", "charged_until": T, ["since": S,]
 *     "accounts": [names], "last_start": [T per account],
 *     "usage": ledger, "nonsharing": ledger }
 *
 * One writer, so that the two files cannot drift apart; each module
 * reads its own, with the checks its own fields need.
 */
#ifndef HORAE_LEDGER_DOC_H
#define HORAE_LEDGER_DOC_H

#include <json-c/json.h>

#include "ledger.h"
#include "names.h"

typedef struct ledger_doc {
	const char *tres; /* the TRES the ledgers count */
	double charged_until; /* charged up to here, s since the epoch */
	double since; /* written when finite; NAN: left out */
	const names_t *names; /* the accounts, in ledger order */
	const double *last_start; /* one per account; NULL: all 0 */
	const ledger_t *usage; /* the accounts' usage */
	const ledger_t *nonsharing; /* their non-sharing allocation */
} ledger_doc_t;

/* The document of d (a new object the caller owns), or NULL with errno
 * ENOMEM. */
json_object *ledger_doc_to_json(const ledger_doc_t *d);

#endif /* HORAE_LEDGER_DOC_H */
