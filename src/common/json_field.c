/*
 * json_field.c - one field of a JSON object, its type checked.
 */
#include <errno.h>

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

int json_field_double(json_object *o, const char *key, double *out,
		      const char *what, horae_err_t *err)
{
	json_object *v;
	int rc = json_field(o, key, json_type_double, &v, what, err);

	if (!rc)
		*out = json_object_get_double(v);
	return rc;
}
