/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_ends.h - the ends of jobs that came while the books were busy.
 *
 * slurmctld calls priority_p_job_end() with its job write lock held; while
 * the recalculation ranks, the plugin's mutex is held for tens of
 * milliseconds at 50,000 jobs, and waiting for it there would hold the job
 * lock (every submission, query and scheduling pass) as long.  So a job
 * end that finds the mutex taken charges Slurm's usage at once and leaves
 * its end here, copied out of the job record; the books take it before
 * anything else reads them (hmrf_ends_drain): before the next gather,
 * after the ranking, at the next job end that gets the mutex.  The books
 * charge a job's end once (its id), so a job the next walk also finds
 * ended is not charged twice.
 *
 * The queue has a lock of its own, taken last (after the plugin's mutex).
 */
#ifndef HORAE_HMRF_ENDS_H
#define HORAE_HMRF_ENDS_H

#include "hmrf_ctx.h"
#include "hmrf_recalc.h"

typedef struct hmrf_ends hmrf_ends_t;

/* An empty queue. */
hmrf_ends_t *hmrf_ends_create(void);

/* Free the queue and what is left in it; set *q to NULL.  NULL-safe. */
void hmrf_ends_destroy(hmrf_ends_t **q);

/* Keep a copy of end.  Any thread; no other lock needed. */
void hmrf_ends_push(hmrf_ends_t *q, const hmrf_end_t *end);

/* Charge every kept end to ctx's books, oldest first, and forget them.
 * The plugin's mutex held and ctx->tres_known; returns how many. */
size_t hmrf_ends_drain(hmrf_ends_t *q, hmrf_ctx_t *ctx);

#endif /* HORAE_HMRF_ENDS_H */
