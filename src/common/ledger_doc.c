/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_doc.c - see ledger_doc.h.
 */
#include <errno.h>
#include <math.h>

#include "json_field.h"
#include "ledger_doc.h"

/* Add v to o under key; v is o's or freed.  0, or -1 when either is
 * NULL or the add failed. */
static int _add(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return -1;
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

/* Push v onto array a; v is a's or freed. */
static int _push(json_object *a, json_object *v)
{
	if (!v)
		return -1;
	if (json_object_array_add(a, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

json_object *ledger_doc_to_json(const ledger_doc_t *d)
{
	json_object *doc = json_object_new_object();
	json_object *names = json_object_new_array();
	json_object *ls = json_object_new_array();
	int n = names_count(d->names);

	if (!doc || _add(doc, "tres", json_object_new_string(d->tres)) ||
	    _add(doc, "charged_until", json_number_new(d->charged_until)) ||
	    (isfinite(d->since) &&
	     _add(doc, "since", json_number_new(d->since))))
		goto nomem;
	for (int i = 0; i < n; i++)
		if (_push(names,
			  json_object_new_string(names_get(d->names, i))) ||
		    _push(ls, json_number_new(d->last_start ? d->last_start[i] :
							      0)))
			goto nomem;
	if (_add(doc, "accounts", names)) {
		names = NULL;
		goto nomem;
	}
	names = NULL;
	if (_add(doc, "last_start", ls)) {
		ls = NULL;
		goto nomem;
	}
	ls = NULL;
	if (_add(doc, "usage", ledger_to_json(d->usage)) ||
	    _add(doc, "nonsharing", ledger_to_json(d->nonsharing)))
		goto nomem;
	return doc;
nomem:
	json_object_put(doc);
	json_object_put(names);
	json_object_put(ls);
	errno = ENOMEM;
	return NULL;
}
