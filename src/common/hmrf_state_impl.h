/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_state_impl.h - the inside of hmrf_state_t, for the two core modules
 * that write it (hmrf_state.c, hmrf_books.c) and the core's unit tests.
 * Everything else uses hmrf_state.h's accessors.
 */
#ifndef HORAE_HMRF_STATE_IMPL_H
#define HORAE_HMRF_STATE_IMPL_H

#include "hmrf_state.h"

struct hmrf_state {
	char tres[256];	      /* what the ledger slots mean: "cpu,mem,..." */
	names_t *names;
	ledger_t *usage;      /* allocated TRES x s */
	ledger_t *ns;	      /* non-sharing allocation TRES x s */
	double *last_start;   /* per account: last job start, 0 if none */
	double charged_until; /* usage of running jobs charged up to here */
};

#endif /* HORAE_HMRF_STATE_IMPL_H */
