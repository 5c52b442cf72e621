/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_next.c - the priority a job gets at submission.  See hmrf_next.h.
 */
#include "config.h"

#include <pthread.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/xmalloc.h"

#include "common/names.h"
#include "hmrf_next.h"
#include "hmrf_recalc.h"

extern const char plugin_type[];

/* One recalculation's published table; never changed once published. */
typedef struct table {
	names_t *names; /* the books' accounts, same indices */
	double *factor, *eunomia;
	prio_weights_t weights;
	double cluster_cpus;
} table_t;

struct hmrf_next {
	pthread_mutex_t lock;
	table_t *cur; /* never NULL */
};

static void _table_destroy(table_t **t)
{
	if (!*t)
		return;
	names_destroy(&(*t)->names);
	xfree((*t)->factor);
	xfree((*t)->eunomia);
	xfree(*t);
}

/* A copy of ctx's, or NULL when the names cannot be copied. */
static table_t *_table_create(const hmrf_ctx_t *ctx)
{
	table_t *t = xmalloc(sizeof(*t));
	int n = hmrf_books_count(ctx->books);

	t->weights = ctx->weights;
	t->cluster_cpus = hmrf_cluster_cpus(ctx);
	t->names = names_create();
	t->factor = xcalloc(n + 1, sizeof(double));
	t->eunomia = xcalloc(n + 1, sizeof(double));
	if (!t->names)
		goto fail;
	for (int a = 0; a < n; a++) {
		if (names_intern(t->names, hmrf_books_name(ctx->books, a)) != a)
			goto fail;
		t->factor[a] = a < ctx->next_cap ? ctx->next_factor[a] : 1.0;
		t->eunomia[a] = a < ctx->next_cap ? ctx->next_eunomia[a] : 1.0;
	}
	return t;
fail:
	_table_destroy(&t);
	return NULL;
}

hmrf_next_t *hmrf_next_create(const hmrf_ctx_t *ctx)
{
	hmrf_next_t *next;
	table_t *t = _table_create(ctx);

	if (!t)
		return NULL;
	next = xmalloc(sizeof(*next));
	slurm_mutex_init(&next->lock);
	next->cur = t;
	return next;
}

void hmrf_next_destroy(hmrf_next_t **next)
{
	if (!next || !*next)
		return;
	_table_destroy(&(*next)->cur);
	slurm_mutex_destroy(&(*next)->lock);
	xfree(*next);
}

void hmrf_next_publish(hmrf_next_t *next, const hmrf_ctx_t *ctx)
{
	table_t *t = _table_create(ctx), *old;

	if (!t) {
		error("%s: out of memory: new jobs keep the factors of an earlier recalculation",
		      plugin_type);
		return;
	}
	slurm_mutex_lock(&next->lock);
	old = next->cur;
	next->cur = t;
	slurm_mutex_unlock(&next->lock);
	_table_destroy(&old);
}

uint32_t hmrf_next_priority(hmrf_next_t *next, job_record_t *job_ptr,
			    time_t now)
{
	double factor = 1.0, eunomia = 1.0;
	uint32_t prio;
	table_t *t;
	int a;

	slurm_mutex_lock(&next->lock);
	t = next->cur;
	a = names_find(t->names, job_ptr->account ? job_ptr->account : "");
	if (a >= 0) {
		factor = t->factor[a];
		eunomia = t->eunomia[a];
	}
	prio = hmrf_job_priority(&t->weights, t->cluster_cpus, job_ptr, factor,
				 eunomia, now);
	slurm_mutex_unlock(&next->lock);
	return prio;
}
