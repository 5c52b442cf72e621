/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_state.h - what job_submit/justice saves besides its history
 * (justice_history.h): the file's kind and version, and its counts of
 * admitted, sized, refused, dropped, killed and learnt-from jobs, with
 * their JSON form.  The plugin writes them; sfair reads them.
 *
 * Version 2 adds each waiting or running deadline job's record
 * (justice_records.h) as "records", and the admissions still waiting for
 * their job id as "pending"; a version 1 file has neither and loads with
 * none.
 */
#ifndef HORAE_JUSTICE_STATE_H
#define HORAE_JUSTICE_STATE_H

#include <json-c/json.h>

#include "err.h"

#define JUSTICE_STATE_KIND "horae-justice"
#define JUSTICE_STATE_VERSION 2
/* The oldest version still read. */
#define JUSTICE_STATE_VERSION_MIN 1

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

/*
 * state_load() of Justice's state file at path, of this version or, when
 * no snapshot of it is good, of an older one down to
 * JUSTICE_STATE_VERSION_MIN; *version says which.  Returns as
 * state_load(): 0 with *doc (caller owns it), -ENOENT when there is no
 * snapshot, or -EINVAL with err as this version's attempt explains it.
 */
int justice_state_load(const char *path, json_object **doc, int *version,
		       horae_err_t *warn, horae_err_t *err);

#endif /* HORAE_JUSTICE_STATE_H */
