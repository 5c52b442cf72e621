/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_state.c - job_submit/justice's counts and their JSON form.
 */
#include <errno.h>
#include <stddef.h>

#include "justice_state.h"
#include "state.h"

static const struct {
	const char *name;
	size_t off;
} fields[] = {
	{ "admitted", offsetof(justice_counts_t, admitted) },
	{ "sized", offsetof(justice_counts_t, sized) },
	{ "refused", offsetof(justice_counts_t, refused) },
	{ "dropped", offsetof(justice_counts_t, dropped) },
	{ "killed", offsetof(justice_counts_t, killed) },
	{ "learnt", offsetof(justice_counts_t, learnt) },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

json_object *justice_counts_to_json(const justice_counts_t *c)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < NFIELDS; i++)
		json_object_object_add(
			o, fields[i].name,
			json_object_new_int64(
				*(const long *)((const char *)c + fields[i].off)));
	return o;
}

int justice_counts_from_json(json_object *obj, justice_counts_t *out,
			     horae_err_t *err)
{
	justice_counts_t c;
	json_object *v;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return err_set(err, -EINVAL, "counts: not an object");
	for (size_t i = 0; i < NFIELDS; i++) {
		if (!json_object_object_get_ex(obj, fields[i].name, &v) ||
		    !json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0)
			return err_set(err, -EINVAL,
				       "counts: '%s' missing or not a count",
				       fields[i].name);
		*(long *)((char *)&c + fields[i].off) =
			(long)json_object_get_int64(v);
	}
	*out = c;
	return 0;
}

int justice_state_load(const char *path, json_object **doc, int *version,
		       horae_err_t *warn, horae_err_t *err)
{
	horae_err_t first;
	int rc;

	rc = state_load(path, JUSTICE_STATE_KIND, JUSTICE_STATE_VERSION, doc,
			warn, &first);
	*version = JUSTICE_STATE_VERSION;
	if (rc != -EINVAL)
		goto done;
	for (int v = JUSTICE_STATE_VERSION - 1; v >= JUSTICE_STATE_VERSION_MIN;
	     v--) {
		if (!state_load(path, JUSTICE_STATE_KIND, v, doc, warn, NULL)) {
			*version = v;
			return 0;
		}
	}
done:
	if (rc && err)
		*err = first;
	return rc;
}
