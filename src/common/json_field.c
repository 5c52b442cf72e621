/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_field.c - one field of a JSON object, its type checked.
 */
#include <errno.h>
#include <math.h>

#include "json_field.h"

int json_field(json_object *o, const char *key, json_type type,
	       json_object **out, const char *what, horae_err_t *err)
{
	if (!o || !json_object_object_get_ex(o, key, out) ||
	    (!json_object_is_type(*out, type) &&
	     !(type == json_type_double &&
	       json_object_is_type(*out, json_type_int))))
		return err_set(err, -EINVAL,
			       "%s: field '%s' missing or of the wrong type",
			       what, key);
	return 0;
}

bool json_number(json_object *v, double *out)
{
	double x;

	if (!v || (!json_object_is_type(v, json_type_double) &&
		   !json_object_is_type(v, json_type_int)))
		return false;
	x = json_object_get_double(v);
	if (!isfinite(x))
		return false;
	*out = x;
	return true;
}

json_object *json_number_new(double v)
{
	return json_object_new_double(isfinite(v) ? v : 0);
}

int json_field_double(json_object *o, const char *key, double *out,
		      const char *what, horae_err_t *err)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_number(v, out))
		return err_set(err, -EINVAL,
			       "%s: field '%s' missing or not a finite number",
			       what, key);
	return 0;
}
