/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_ctx.c - job_submit/justice's context and state file.  See
 * justice_ctx.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/state.h"
#include "justice_ctx.h"

extern const char plugin_type[];

/* The records of a version 2 document; a version 1 document has none (its
 * jobs' facts were in their AdminComment, which Justice no longer reads:
 * they count as jobs Justice knows nothing of, see justice_jobs.c). */
static bool _records_from_json(justice_ctx_t *ctx, json_object *doc,
			       int version, horae_err_t *err)
{
	json_object *r, *p;
	horae_err_t e;

	if (version < 2) {
		ctx->records = justice_records_create();
		ctx->pending = justice_records_create();
		if (!ctx->records || !ctx->pending) {
			err_set(err, -ENOMEM, "out of memory");
			return false;
		}
		return true;
	}
	if (!json_object_object_get_ex(doc, "records", &r) ||
	    !json_object_object_get_ex(doc, "pending", &p)) {
		err_set(err, -EINVAL, "missing records or pending");
		return false;
	}
	if (!(ctx->records = justice_records_from_json(r, err)))
		return false;
	if (!(ctx->pending = justice_records_from_json(p, &e))) {
		err_set(err, -EINVAL, "pending %s", e.text);
		return false;
	}
	/* Serials go on from the newest kept. */
	for (size_t i = 0; i < justice_records_count(ctx->pending); i++)
		ctx->next_serial = justice_records_at(ctx->pending, i)->key;
	return true;
}

/* Fill ctx from a saved document; false with err on a bad one. */
static bool _from_json(justice_ctx_t *ctx, json_object *doc, int version,
		       horae_err_t *err)
{
	json_object *h, *c;

	if (!json_object_object_get_ex(doc, "history", &h) ||
	    !json_object_object_get_ex(doc, "counts", &c)) {
		err_set(err, -EINVAL, "missing history or counts");
		return false;
	}
	if (!(ctx->hist = justice_history_from_json(h, err)))
		return false;
	if (justice_counts_from_json(c, &ctx->counts, err))
		return false;
	if (!_records_from_json(ctx, doc, version, err))
		return false;
	if (!(ctx->mark = justice_mark_from_json(doc, err)))
		return false;
	return true;
}

static bool _load(justice_ctx_t *ctx, bool *unreadable)
{
	json_object *doc = NULL;
	horae_err_t warn, err;
	int rc, version;

	*unreadable = false;
	rc = justice_state_load(ctx->state_path, &doc, &version, &warn, &err);
	if (rc == -ENOENT) {
		info("%s: no saved history in %s: learning from scratch",
		     plugin_type, ctx->state_path);
		return false;
	}
	if (rc) {
		error("%s: %s", plugin_type, err.text);
		*unreadable = true;
		return false;
	}
	if (warn.text[0])
		error("%s: %s", plugin_type, warn.text);
	if (version < JUSTICE_STATE_VERSION)
		info("%s: %s is of version %d: it has no job records; jobs admitted before are treated as jobs Justice knows nothing of",
		     plugin_type, ctx->state_path, version);
	if (!_from_json(ctx, doc, version, &err)) {
		error("%s: %s: %s", plugin_type, ctx->state_path, err.text);
		justice_history_destroy(&ctx->hist);
		justice_records_destroy(&ctx->records);
		justice_records_destroy(&ctx->pending);
		justice_mark_destroy(&ctx->mark);
		memset(&ctx->counts, 0, sizeof(ctx->counts));
		*unreadable = true;
	}
	json_object_put(doc);
	return ctx->hist != NULL;
}

justice_ctx_t *justice_ctx_create(const justice_conf_t *conf,
				  const char *state_dir, bool start_empty)
{
	justice_ctx_t *ctx = xmalloc(sizeof(*ctx));
	horae_err_t err;
	bool unreadable;

	ctx->conf = *conf;
	ctx->state_path = xstrdup_printf("%s/horae_justice.state", state_dir);
	if (_load(ctx, &unreadable)) {
		info("%s: loaded a history of %ld finished jobs (%ld learnt from) and the records of %zu deadline jobs (%zu awaiting their job id)",
		     plugin_type, justice_history_count(ctx->hist),
		     ctx->counts.learnt,
		     justice_records_count(ctx->records) +
			     justice_records_count(ctx->pending),
		     justice_records_count(ctx->pending));
		return ctx;
	}
	if (unreadable && !start_empty) {
		error("%s: refusing to start without the learnt history; fix or remove %s (and .old), or start slurmctld with -i to start with none",
		      plugin_type, ctx->state_path);
		justice_ctx_destroy(&ctx);
		return NULL;
	}
	ctx->hist = justice_history_create(conf->history_length,
					   conf->smoothing, conf->alpha, &err);
	if (ctx->hist && (!(ctx->records = justice_records_create()) ||
			  !(ctx->pending = justice_records_create())))
		err_set(&err, -ENOMEM, "out of memory");
	if (!ctx->hist || !ctx->records || !ctx->pending) {
		error("%s: %s", plugin_type, err.text);
		justice_ctx_destroy(&ctx);
		return NULL;
	}
	if (!(ctx->mark = justice_mark_create((double)time(NULL)))) {
		error("%s: out of memory", plugin_type);
		justice_ctx_destroy(&ctx);
		return NULL;
	}
	return ctx;
}

void justice_ctx_destroy(justice_ctx_t **ctx)
{
	if (!ctx || !*ctx)
		return;
	justice_history_destroy(&(*ctx)->hist);
	justice_records_destroy(&(*ctx)->records);
	justice_records_destroy(&(*ctx)->pending);
	justice_mark_destroy(&(*ctx)->mark);
	xfree((*ctx)->state_path);
	xfree(*ctx);
}

json_object *justice_ctx_snapshot(const justice_ctx_t *ctx)
{
	json_object *doc = json_object_new_object();
	json_object *c = justice_counts_to_json(&ctx->counts);
	json_object *h = justice_history_to_json(ctx->hist);
	json_object *r = justice_records_to_json(ctx->records);
	json_object *p = justice_records_to_json(ctx->pending);

	if (!doc || !c || !h || !r || !p ||
	    justice_mark_to_json(ctx->mark, doc)) {
		json_object_put(doc);
		json_object_put(c);
		json_object_put(h);
		json_object_put(r);
		json_object_put(p);
		return NULL;
	}
	json_object_object_add(doc, "history", h);
	json_object_object_add(doc, "counts", c);
	json_object_object_add(doc, "records", r);
	json_object_object_add(doc, "pending", p);
	return doc;
}

void justice_ctx_save(const char *path, json_object *snap)
{
	horae_err_t err;

	if (!snap)
		error("%s: cannot save state: out of memory", plugin_type);
	/* Readable by all: sfair -D shows the learnt fractions and counts,
	 * which are the cluster's, not any account's usage. */
	else if (state_save_shared(path, JUSTICE_STATE_KIND,
				   JUSTICE_STATE_VERSION, snap,
				   STATE_READER_ALL, &err))
		error("%s: cannot save state: %s", plugin_type, err.text);
}
