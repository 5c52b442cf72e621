/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_state.c - libFuzzer target for the state files and the documents
 * they carry: state.h's checksummed envelope and the readers of what the
 * plugins save and publish (hmrf_state_from_json, which reads two ledgers
 * with ledger_from_json; eunomia_books_from_json;
 * justice_history_from_json and justice_counts_from_json;
 * eunomia_shares_from_json; hmrf_shares_from_json).
 *
 * Each input is used twice.  As a whole file it goes to state_load (which
 * only reads from a path: the scratch file) under each kind a plugin
 * saves that its first line names (the last kind when it names none),
 * and a document that loads goes to its readers, as sfair and the plugins
 * do.  A mutated file almost never keeps its checksum, so the body (what
 * follows the first newline, or all of an input without one) is also
 * parsed as JSON and handed to every reader directly: that is what
 * state_load would return for it under a matching header.
 */
#define _GNU_SOURCE /* memmem */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "eunomia_books.h"
#include "eunomia_shares.h"
#include "hmrf_shares.h"
#include "hmrf_state.h"
#include "justice_history.h"
#include "justice_records.h"
#include "justice_state.h"
#include "ledger.h"
#include "state.h"

#include "fuzz_util.h"

static void _hmrf_state(json_object *doc)
{
	hmrf_state_t *st = hmrf_state_from_json(doc, NULL);

	/* What was accepted must save again, as the plugin will. */
	if (st)
		json_object_put(hmrf_state_to_json(st));
	hmrf_state_destroy(&st);
}

/* select/eunomia's books, under the window their own ledger names (so the
 * reader gets past the window check), and the old reader of that kind. */
static void _eunomia_state(json_object *doc)
{
	window_spec_t w = { .kind = WINDOW_NONE };
	eunomia_account_t acct[64];
	eunomia_books_t *b;
	double bucket = 0, mono;
	json_object *u;
	ledger_t *l;

	if (json_object_is_type(doc, json_type_object) &&
	    json_object_object_get_ex(doc, "usage", &u) &&
	    (l = ledger_from_json(u, NULL))) {
		w = *ledger_window(l);
		bucket = ledger_bucket(l);
		ledger_destroy(&l);
	}
	b = eunomia_books_from_json(doc, &w, bucket, NULL);
	if (b) {
		eunomia_books_accounts(b, eunomia_books_charged_until(b), acct,
				       64, &mono);
		json_object_put(eunomia_books_to_json(b));
	}
	eunomia_books_destroy(&b);
	_hmrf_state(doc);
}

static void _ledger(json_object *doc)
{
	ledger_t *l = ledger_from_json(doc, NULL);
	tres_vec_t use;

	for (int i = 0; l && i < ledger_count(l); i++)
		ledger_usage(l, i, &use);
	if (l)
		json_object_put(ledger_to_json(l));
	ledger_destroy(&l);
}

static void _justice(json_object *doc)
{
	justice_history_t *h = NULL;
	justice_counts_t counts;
	json_object *v;

	if (json_object_object_get_ex(doc, "history", &v))
		h = justice_history_from_json(v, NULL);
	justice_history_destroy(&h);
	if (json_object_object_get_ex(doc, "counts", &v))
		justice_counts_from_json(v, &counts, NULL);
	/* The reader of the history on its own, as in the tests. */
	h = justice_history_from_json(doc, NULL);
	if (h) {
		justice_history_correction(h);
		json_object_put(justice_history_to_json(h));
	}
	justice_history_destroy(&h);
	justice_counts_from_json(doc, &counts, NULL);
	if (json_object_object_get_ex(doc, "records", &v)) {
		justice_records_t *r = justice_records_from_json(v, NULL);

		json_object_put(justice_records_to_json(r));
		justice_records_destroy(&r);
	}
}

static void _eunomia_shares(json_object *doc)
{
	eunomia_shares_t s;

	if (!eunomia_shares_from_json(doc, &s, NULL))
		eunomia_shares_free(&s);
}

static void _hmrf_shares_as(json_object *doc, int version)
{
	hmrf_shares_t s;

	if (!hmrf_shares_from_json(doc, version, &s, NULL))
		hmrf_shares_free(&s);
}

static void _hmrf_shares_oldest(json_object *doc)
{
	_hmrf_shares_as(doc, HMRF_SHARES_OLDEST);
}

static void _hmrf_shares(json_object *doc)
{
	_hmrf_shares_as(doc, HMRF_SHARES_VERSION);
}

static const struct {
	const char *kind;
	int version;
	void (*read)(json_object *doc);
} kinds[] = {
	{ HMRF_STATE_KIND, HMRF_STATE_VERSION, _hmrf_state },
	{ EUNOMIA_STATE_KIND, EUNOMIA_STATE_VERSION, _eunomia_state },
	{ JUSTICE_STATE_KIND, JUSTICE_STATE_VERSION, _justice },
	{ JUSTICE_STATE_KIND, JUSTICE_STATE_VERSION_MIN, _justice },
	{ EUNOMIA_SHARES_KIND, EUNOMIA_SHARES_VERSION, _eunomia_shares },
	{ HMRF_SHARES_KIND, HMRF_SHARES_OLDEST, _hmrf_shares_oldest },
	{ HMRF_SHARES_KIND, HMRF_SHARES_VERSION, _hmrf_shares },
};

/* Whether the header line (the input up to its first newline) names kind:
 * loading under a kind the file does not name only repeats the same
 * "holds X, not Y" refusal, at the cost of three more opens. */
static bool _names(const uint8_t *data, size_t size, const char *kind)
{
	const uint8_t *nl = memchr(data, '\n', size);

	if (nl)
		size = (size_t)(nl - data);
	return memmem(data, size, kind, strlen(kind)) != NULL;
}

static void _envelope(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	horae_err_t warn, err;
	json_object *doc;
	bool tried = false;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!_names(data, size, kinds[i].kind) &&
		    (tried || i < sizeof(kinds) / sizeof(kinds[0]) - 1))
			continue;
		tried = true;
		doc = NULL;
		if (state_load(path, kinds[i].kind, kinds[i].version, &doc,
			       &warn, &err))
			continue;
		kinds[i].read(doc);
		json_object_put(doc);
	}
}

static void _body(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	char *body;
	json_object *doc, *v;

	if (nl) {
		size -= (size_t)(nl + 1 - data);
		data = nl + 1;
	}
	body = fuzz_strndup(data, size);
	doc = json_tokener_parse(body);
	free(body);
	if (!doc)
		return;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (i != 1) /* the same reader as kinds[0] */
			kinds[i].read(doc);
	_ledger(doc);
	if (json_object_object_get_ex(doc, "usage", &v))
		_ledger(v);
	json_object_put(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_envelope(data, size);
	_body(data, size);
	return 0;
}
