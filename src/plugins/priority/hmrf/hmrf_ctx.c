/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_ctx.c - priority/hmrf's context: configuration, state file, and
 * the per-account factor of new jobs.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hmrf_ctx.h"
#include "hmrf_eunomia.h"
#include "hmrf_recalc.h"
#include "ledger_file.h"
#include "views.h"

extern const char plugin_type[];

/* PriorityWeight=0 and no PriorityWeightFairshare: this weight. */
#define HMRF_DEFAULT_WEIGHT 100000

static void _set_weights(hmrf_ctx_t *ctx)
{
	prio_weights_t *w = &ctx->weights;

	w->hmrf = ctx->conf->weight ? ctx->conf->weight :
		  slurm_conf.priority_weight_fs ?
					      slurm_conf.priority_weight_fs :
					      HMRF_DEFAULT_WEIGHT;
	w->age = slurm_conf.priority_weight_age;
	w->size = slurm_conf.priority_weight_js;
	w->part = slurm_conf.priority_weight_part;
	w->qos = slurm_conf.priority_weight_qos;
	/* The Eunomia factor needs select/eunomia's progress shares; its
	 * weight is PriorityWeightAssoc, whose column sprio shows. */
	w->eunomia = hmrf_eunomia_available() ?
			     slurm_conf.priority_weight_assoc : 0;
	w->max_age = slurm_conf.priority_max_age;
	w->favor_small = slurm_conf.priority_favor_small;
}

/* The settings the books take from hmrf.conf. */
static hmrf_books_conf_t _books_conf(const hmrf_conf_t *conf)
{
	hmrf_books_conf_t c = { .policy = conf->policy,
				.window = conf->window,
				.bucket = conf->bucket,
				.tres = conf->tres,
				.timeout = conf->timeout,
				.horizon = conf->horizon,
				.borrow_limit = conf->borrow_limit };

	return c;
}

hmrf_ctx_t *hmrf_ctx_create(hmrf_conf_t *conf, const char *state_dir,
			    bool start_empty)
{
	hmrf_ctx_t *ctx = xmalloc(sizeof(*ctx));
	horae_err_t err;
	bool fatal;
	double now = (double)time(NULL);
	hmrf_books_conf_t bc = _books_conf(conf);
	hmrf_state_t *st;

	ctx->conf = conf;
	ctx->state_path = xstrdup_printf("%s/horae_hmrf.state", state_dir);
	ctx->shares_path = xstrdup_printf("%s/horae_hmrf.shares", state_dir);
	ctx->layout = tres_layout_create(conf->tres, &err);
	if (!ctx->layout) {
		error("%s: Tres=%s: %s", plugin_type, conf->tres, err.text);
		goto fail;
	}
	st = ledger_file_load(ctx->state_path, HMRF_STATE_KIND, &conf->window,
			      conf->bucket, conf->tres, &fatal);
	if (fatal && !start_empty) {
		error("%s: refusing to start without the accounted usage; fix or remove %s (and .old), or start slurmctld with -i to start with no usage",
		      plugin_type, ctx->state_path);
		hmrf_state_destroy(&st);
		goto fail;
	}
	if (st) {
		ctx->saved_at = hmrf_state_charged_until(st);
		ctx->recover = true;
		ctx->books = hmrf_books_adopt(&bc, st, &err);
		if (!ctx->books) {
			error("%s: %s: %s", plugin_type, ctx->state_path,
			      err.text);
			goto fail;
		}
		info("%s: loaded usage of %d accounts charged up to %.0f",
		     plugin_type, hmrf_books_count(ctx->books), ctx->saved_at);
	} else {
		ctx->books = hmrf_books_create(&bc, now, &err);
		if (!ctx->books) {
			error("%s: %s", plugin_type, err.text);
			goto fail;
		}
		/* Window=none has no start to rebuild from. */
		if (conf->window.kind != WINDOW_NONE)
			ctx->seed_to = now;
	}
	_set_weights(ctx);
	return ctx;
fail:
	hmrf_ctx_destroy(&ctx);
	return NULL;
}

void hmrf_ctx_destroy(hmrf_ctx_t **ctx)
{
	if (!ctx || !*ctx)
		return;
	hmrf_conf_destroy(&(*ctx)->conf);
	tres_layout_destroy(&(*ctx)->layout);
	hmrf_books_destroy(&(*ctx)->books);
	xfree((*ctx)->next_factor);
	xfree((*ctx)->next_eunomia);
	xfree((*ctx)->state_path);
	xfree((*ctx)->shares_path);
	json_object_put((*ctx)->shares);
	hmrf_tree_destroy(&(*ctx)->tree);
	xfree((*ctx)->by_assoc);
	hmrf_recalc_scratch_destroy(&(*ctx)->scratch);
	xfree(*ctx);
}

double hmrf_ctx_share(const hmrf_ctx_t *ctx, const char *name)
{
	/* DefaultShare, as one more child of the root, for an account
	 * slurmdbd does not know (no AccountingStorageEnforce). */
	return ctx->tree ? hmrf_tree_share(ctx->tree, name,
					   ctx->conf->default_share) :
			   hmrf_conf_share(ctx->conf, name);
}

bool hmrf_ctx_configured(const hmrf_ctx_t *ctx, const char *name)
{
	return ctx->tree ? hmrf_tree_has(ctx->tree, name) :
			   hmrf_conf_has_account(ctx->conf, name);
}

int hmrf_ctx_account(hmrf_ctx_t *ctx, const char *name)
{
	int i = hmrf_books_account(ctx->books, name ? name : "");

	if (i < 0)
		return -1;
	if (i >= ctx->next_cap) {
		int cap = ctx->next_cap ? ctx->next_cap * 2 : 64;

		while (cap <= i)
			cap *= 2;
		xrecalloc(ctx->next_factor, cap, sizeof(double));
		xrecalloc(ctx->next_eunomia, cap, sizeof(double));
		for (int k = ctx->next_cap; k < cap; k++)
			ctx->next_factor[k] = ctx->next_eunomia[k] = 1.0;
		ctx->next_cap = cap;
	}
	return i;
}

static void _books_reconfig(hmrf_ctx_t *ctx)
{
	hmrf_books_conf_t bc = _books_conf(ctx->conf);

	/* hmrf_conf_read checked these settings: this cannot fail. */
	if (hmrf_books_reconfig(ctx->books, &bc))
		error("%s: the books refused the new settings", plugin_type);
}

void hmrf_ctx_reconfig(hmrf_ctx_t *ctx, hmrf_conf_t *conf)
{
	if (conf->window.kind != ctx->conf->window.kind ||
	    conf->window.length != ctx->conf->window.length ||
	    conf->bucket != ctx->conf->bucket ||
	    strcmp(conf->tres, ctx->conf->tres)) {
		error("%s: Window, WindowBucket and Tres changes take effect when slurmctld restarts; keeping Window and Tres as they were",
		      plugin_type);
		conf->window = ctx->conf->window;
		conf->bucket = ctx->conf->bucket;
		memcpy(conf->tres, ctx->conf->tres, sizeof(conf->tres));
	}
	hmrf_conf_destroy(&ctx->conf);
	ctx->conf = conf;
	_books_reconfig(ctx);
	_set_weights(ctx);
}

hmrf_state_t *hmrf_ctx_snapshot(const hmrf_ctx_t *ctx)
{
	return hmrf_books_snapshot(ctx->books);
}

int hmrf_ctx_save(const char *path, const hmrf_state_t *snap)
{
	return ledger_file_save(path, HMRF_STATE_KIND, snap,
				views_file_reader());
}

/* Association ids past this are looked up by name each time. */
#define HMRF_BY_ASSOC_MAX (1u << 22)

struct hmrf_by_assoc {
	int acct; /* 1 + account index, 0: not known */
	uint32_t walk; /* when its name was last checked */
};

void hmrf_ctx_new_walk(hmrf_ctx_t *ctx)
{
	/* Wrapping round skips 0, the walk of entries made before the
	 * first recalculation. */
	if (!++ctx->walk)
		ctx->walk = 1;
}

int hmrf_ctx_job_account(hmrf_ctx_t *ctx, uint32_t assoc_id, const char *name)
{
	struct hmrf_by_assoc *e = NULL;
	const char *known;
	int a;

	if (!name)
		name = "";
	if (assoc_id && assoc_id < ctx->by_assoc_cap) {
		e = &ctx->by_assoc[assoc_id];
		a = e->acct - 1;
		if (a >= 0 && e->walk == ctx->walk)
			return a;
		if (a >= 0 && (known = hmrf_books_name(ctx->books, a)) &&
		    !strcmp(known, name)) {
			e->walk = ctx->walk;
			return a;
		}
	}
	a = hmrf_ctx_account(ctx, name);
	if (a < 0 || !assoc_id || assoc_id >= HMRF_BY_ASSOC_MAX)
		return a;
	if (assoc_id >= ctx->by_assoc_cap) {
		uint32_t cap = ctx->by_assoc_cap ? ctx->by_assoc_cap : 1024;

		while (cap <= assoc_id)
			cap *= 2;
		xrecalloc(ctx->by_assoc, cap, sizeof(*ctx->by_assoc));
		ctx->by_assoc_cap = cap;
	}
	ctx->by_assoc[assoc_id].acct = a + 1;
	ctx->by_assoc[assoc_id].walk = ctx->walk;
	return a;
}
