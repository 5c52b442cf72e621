/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_ends.c - the ends of jobs that came while the books were busy.
 * See hmrf_ends.h.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/macros.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hmrf_ends.h"

struct hmrf_ends {
	pthread_mutex_t lock;
	hmrf_end_t *end; /* owned copies: account and tres xmalloc'd */
	size_t n, cap;
};

hmrf_ends_t *hmrf_ends_create(void)
{
	hmrf_ends_t *q = xmalloc(sizeof(*q));

	slurm_mutex_init(&q->lock);
	return q;
}

static void _free_end(hmrf_end_t *end)
{
	xfree(end->account);
	xfree(end->tres);
}

void hmrf_ends_destroy(hmrf_ends_t **q)
{
	if (!q || !*q)
		return;
	for (size_t i = 0; i < (*q)->n; i++)
		_free_end(&(*q)->end[i]);
	xfree((*q)->end);
	slurm_mutex_destroy(&(*q)->lock);
	xfree(*q);
}

void hmrf_ends_push(hmrf_ends_t *q, const hmrf_end_t *end)
{
	hmrf_end_t copy = *end;

	/* Copied before the lock: xmalloc does not fail (it aborts). */
	copy.account = xstrdup(end->account);
	copy.tres = NULL;
	if (end->tres && end->ntres) {
		uint64_t *t = xcalloc(end->ntres, sizeof(*t));

		memcpy(t, end->tres, end->ntres * sizeof(*t));
		copy.tres = t;
	} else {
		copy.ntres = 0;
	}
	slurm_mutex_lock(&q->lock);
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		xrecalloc(q->end, q->cap, sizeof(*q->end));
	}
	q->end[q->n++] = copy;
	slurm_mutex_unlock(&q->lock);
}

size_t hmrf_ends_drain(hmrf_ends_t *q, hmrf_ctx_t *ctx)
{
	hmrf_end_t *end;
	size_t n;

	/* Taken out under the queue's lock, charged outside it: a job end
	 * that pushes meanwhile does not wait for the books. */
	slurm_mutex_lock(&q->lock);
	end = q->end;
	n = q->n;
	q->end = NULL;
	q->n = q->cap = 0;
	slurm_mutex_unlock(&q->lock);
	for (size_t i = 0; i < n; i++) {
		hmrf_job_end_books(ctx, &end[i]);
		_free_end(&end[i]);
	}
	xfree(end);
	return n;
}
