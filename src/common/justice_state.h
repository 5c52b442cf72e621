/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_state.h - what job_submit/justice saves besides its history
 * (justice_history.h): the file's kind and version, and its counts of
 * admitted, sized, refused, dropped, killed and learnt-from jobs, with
 * their JSON form.  The plugin writes them; sfair reads them.
 */
#ifndef HORAE_JUSTICE_STATE_H
#define HORAE_JUSTICE_STATE_H

#include <json-c/json.h>

#include "err.h"

#define JUSTICE_STATE_KIND "horae-justice"
#define JUSTICE_STATE_VERSION 1

typedef struct justice_counts {
	long admitted, sized, refused, dropped, killed, learnt;
} justice_counts_t;

/* The counts as a JSON object; NULL when out of memory. */
json_object *justice_counts_to_json(const justice_counts_t *c);

/*
 * Read counts from obj.  Returns 0, or -EINVAL with err naming the
 * missing or mistyped count; *out untouched on failure.
 */
int justice_counts_from_json(json_object *obj, justice_counts_t *out,
			     horae_err_t *err);

#endif /* HORAE_JUSTICE_STATE_H */
