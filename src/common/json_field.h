/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_field.h - one field of a JSON object, its type checked, for the
 * readers of the documents the plugins write (state files and published
 * views).
 */
#ifndef HORAE_JSON_FIELD_H
#define HORAE_JSON_FIELD_H

#include <stdbool.h>

#include <json-c/json.h>

#include "err.h"

/*
 * The field key of o into *out (a borrowed reference).  A json_type_double
 * field also accepts an integer.  Returns 0, or -EINVAL with err as
 * "WHAT: field 'KEY' missing or of the wrong type".
 */
int json_field(json_object *o, const char *key, json_type type,
	       json_object **out, const char *what, horae_err_t *err);

/*
 * A number field (integer or double, finite) of o into *out; *out
 * untouched on failure, with err as "WHAT: field 'KEY' missing or not a
 * finite number".
 */
int json_field_double(json_object *o, const char *key, double *out,
		      const char *what, horae_err_t *err);

/*
 * The one reader of a JSON number: v (an element or a member already
 * found) is an integer or a double and finite.  json-c's getters coerce
 * strings and booleans to numbers, so every reader of a number goes
 * through this.  Returns true with *out set, or false with *out untouched.
 */
bool json_number(json_object *v, double *out);

/* The one writer of a number: a double, 0 for a non-finite value (JSON has
 * no infinity).  A new reference, or NULL when out of memory. */
json_object *json_number_new(double v);

#endif /* HORAE_JSON_FIELD_H */
