/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_field.c - one field of a JSON object, its type checked.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include <json-c/printbuf.h>

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

/*
 * json-c prints a double with "%.17g", and ".0" after it when that has
 * neither a point nor an exponent: a whole number of magnitude below
 * 1e15 comes out as its digits and ".0".  That is written here without
 * printf, several times faster (the shares and the state have many:
 * zeros, counts, times in seconds); anything else, and any flag that
 * changes json-c's text, goes to json-c's own printer.  The text is the
 * same either way (json_field_test).
 */
static int _print_number(json_object *jso, struct printbuf *pb, int level,
			 int flags)
{
	double d = json_object_get_double(jso);
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u;

	if ((flags & JSON_C_TO_STRING_NOZERO) || !(fabs(d) < 1e15) ||
	    d != trunc(d) || (d == 0 && signbit(d)))
		return json_object_double_to_json_string(jso, pb, level, flags);
	u = (uint64_t)fabs(d);
	*--p = '0';
	*--p = '.';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (d < 0)
		*--p = '-';
	return printbuf_memappend(pb, p, (int)(buf + sizeof(buf) - p));
}

json_object *json_number_new(double v)
{
	json_object *o = json_object_new_double(isfinite(v) ? v : 0);

	if (o)
		json_object_set_serializer(o, _print_number, NULL, NULL);
	return o;
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
