/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_file.c - see ledger_file.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/state.h"
#include "ledger_file.h"

extern const char plugin_type[];

static bool _same_window(const hmrf_state_t *st, const window_spec_t *w,
			 double bucket)
{
	const window_spec_t *sw = ledger_window(hmrf_state_usage(st));

	if (!bucket)
		bucket = w->length / 64;
	if (sw->kind != w->kind || sw->length != w->length)
		return false;
	return sw->kind != WINDOW_SLIDING || ledger_bucket(hmrf_state_usage(st)) == bucket;
}

json_object *ledger_file_read(const char *path, const char *kind,
			      int version, bool *fatal)
{
	json_object *doc = NULL;
	horae_err_t warn, err;
	int rc;

	*fatal = false;
	rc = state_load(path, kind, version, &doc, &warn, &err);
	if (rc == -ENOENT) {
		info("%s: no saved state in %s: starting from nothing",
		     plugin_type, path);
		return NULL;
	}
	if (rc) {
		error("%s: %s", plugin_type, err.text);
		*fatal = true;
		return NULL;
	}
	if (warn.text[0])
		error("%s: %s", plugin_type, warn.text);
	return doc;
}

hmrf_state_t *ledger_file_load(const char *path, const char *kind,
			       const window_spec_t *w, double bucket,
			       const char *tres, bool *fatal)
{
	json_object *doc;
	horae_err_t err;
	hmrf_state_t *st;
	char win[64];

	if (!(doc = ledger_file_read(path, kind, HMRF_STATE_VERSION, fatal)))
		return NULL;
	st = hmrf_state_from_json(doc, &err);
	json_object_put(doc);
	if (!st) {
		error("%s: %s: %s", plugin_type, path, err.text);
		*fatal = true;
		return NULL;
	}
	if (!_same_window(st, w, bucket)) {
		window_format(ledger_window(hmrf_state_usage(st)), win, sizeof(win));
		error("%s: %s holds usage over window %s; the configuration asks for another window, so the history restarts empty",
		      plugin_type, path, win);
		hmrf_state_destroy(&st);
		return NULL;
	}
	if (strcmp(hmrf_state_tres(st), tres)) {
		/* A changed TRES list (Tres=, or its default) keeps the usage
		 * of every TRES in both lists. */
		char *was = xstrdup(hmrf_state_tres(st));

		if (hmrf_state_retres(&st, tres, &err)) {
			error("%s: %s: the usage of %s cannot be kept under Tres=%s: %s; the history restarts empty",
			      plugin_type, path, was, tres, err.text);
			hmrf_state_destroy(&st);
		} else {
			info("%s: %s held usage of %s; kept for the TRES Tres=%s still lists",
			     plugin_type, path, was, tres);
		}
		xfree(was);
	}
	return st;
}

int ledger_file_write(const char *path, const char *kind, int version,
		      json_object *doc, long reader)
{
	horae_err_t err;
	int rc = -ENOMEM;

	if (!doc)
		error("%s: cannot save state: out of memory", plugin_type);
	else if ((rc = state_save_shared(path, kind, version, doc, reader,
					 &err)))
		error("%s: cannot save state: %s", plugin_type, err.text);
	json_object_put(doc);
	return rc;
}

int ledger_file_save(const char *path, const char *kind,
		     const hmrf_state_t *snap, long reader)
{
	return ledger_file_write(path, kind, HMRF_STATE_VERSION,
				 hmrf_state_to_json(snap), reader);
}
