/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_next.h - the priority a job gets at submission, between two
 * recalculations: its account's factor for its next job (where a job of
 * it would rank now), under the weights and the cluster size the last
 * recalculation used.
 *
 * slurmctld calls priority_p_set() with its job write lock held; the
 * books may be ranking then, under the plugin's mutex, for tens of
 * milliseconds at 50,000 jobs.  So the recalculation publishes what a
 * new job needs here, under a lock of its own held only to look one
 * account up or to swap in the next table, and priority_p_set() never
 * takes the plugin's mutex.  An account the books do not know yet gets
 * the factor of an account with no usage, 1, as hmrf_ctx_account gives
 * it; the next walk adds it to the books.
 *
 * Lock order: the plugin's mutex before this lock (hmrf_next_publish);
 * slurmctld's job write lock before it (hmrf_next_priority).
 */
#ifndef HORAE_HMRF_NEXT_H
#define HORAE_HMRF_NEXT_H

#include "src/slurmctld/slurmctld.h"

#include "hmrf_ctx.h"

typedef struct hmrf_next hmrf_next_t;

/* Published from ctx as it is (before any recalculation: every account's
 * factors 1), or NULL when out of memory. */
hmrf_next_t *hmrf_next_create(const hmrf_ctx_t *ctx);

/* Free it and set *next to NULL.  NULL-safe. */
void hmrf_next_destroy(hmrf_next_t **next);

/* Publish ctx's factors for each account's next job, its weights and the
 * cluster's CPUs.  The plugin's mutex held. */
void hmrf_next_publish(hmrf_next_t *next, const hmrf_ctx_t *ctx);

/* job_ptr's priority and factors from what was last published.  The job
 * write lock held; not the plugin's mutex. */
uint32_t hmrf_next_priority(hmrf_next_t *next, job_record_t *job_ptr,
			    time_t now);

#endif /* HORAE_HMRF_NEXT_H */
