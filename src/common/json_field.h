/*
 * json_field.h - one field of a JSON object, its type checked, for the
 * readers of the documents the plugins write (state files and published
 * views).
 */
#ifndef HORAE_JSON_FIELD_H
#define HORAE_JSON_FIELD_H

#include <json-c/json.h>

#include "err.h"

/*
 * The field key of o into *out (a borrowed reference).  A json_type_double
 * field also accepts an integer.  Returns 0, or -EINVAL with err as
 * "WHAT: field 'KEY' missing or of the wrong type".
 */
int json_field(json_object *o, const char *key, json_type type,
	       json_object **out, const char *what, horae_err_t *err);

/* A number field (integer or double) of o into *out; *out untouched on
 * failure, with err as json_field's. */
int json_field_double(json_object *o, const char *key, double *out,
		      const char *what, horae_err_t *err);

#endif /* HORAE_JSON_FIELD_H */
