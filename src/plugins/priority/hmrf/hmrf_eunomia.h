/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_eunomia.h - priority/hmrf's Eunomia factor: the pending jobs in
 * Eunomia's online order (lowest progress share first, each pick charged
 * before the next; core eunomia_rank), with the progress shares that
 * select/eunomia accounts (progress_info.h).  Its weight is
 * PriorityWeightAssoc, so sprio shows it in the ASSOC column.
 *
 * Called with the locks of hmrf_recalc.h; select/eunomia takes its own
 * mutex after ours.
 */
#ifndef HORAE_HMRF_EUNOMIA_H
#define HORAE_HMRF_EUNOMIA_H

#include <stdbool.h>
#include <stddef.h>

#include "src/slurmctld/slurmctld.h"

#include "hmrf_ctx.h"

/* SelectType is select/eunomia, which accounts progress. */
bool hmrf_eunomia_available(void);

/*
 * The Eunomia factor of each of the npend pending jobs into factor[] (job
 * i expected to run duration[i] seconds), and of the next job of every
 * account into ctx->next_eunomia.  When select/eunomia cannot answer,
 * every factor is 1 (no effect on the order) and the reason is logged
 * once.
 */
void hmrf_eunomia_factors(hmrf_ctx_t *ctx, job_record_t **pend, size_t npend,
			  const double *duration, double *factor);

#endif /* HORAE_HMRF_EUNOMIA_H */
