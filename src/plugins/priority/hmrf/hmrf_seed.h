/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_seed.h - a start without saved usage (the first with priority/hmrf,
 * or slurmctld -i after its state was lost) on a cluster with slurmdbd:
 * the window's usage is rebuilt from the jobs slurmdbd recorded, so that
 * switching to priority/hmrf, or losing its state file, keeps the
 * history.  Asked once, with no lock held; retried each period while
 * slurmdbd does not answer.
 */
#ifndef HORAE_HMRF_SEED_H
#define HORAE_HMRF_SEED_H

#include <pthread.h>

#include "hmrf_ctx.h"

/*
 * If ctx still wants its history (ctx->seed_to > 0), ask slurmdbd for the
 * jobs that ran in the window before ctx->seed_to and charge them.  Takes
 * mutex and the assoc_mgr TRES read lock as it needs them; call with no
 * lock held.
 */
void hmrf_seed(hmrf_ctx_t *ctx, pthread_mutex_t *mutex);

#endif /* HORAE_HMRF_SEED_H */
