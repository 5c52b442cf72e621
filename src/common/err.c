/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.c - filling the core's error buffer.  See err.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

int err_set(horae_err_t *err, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return rc;
}

void err_clear(horae_err_t *err)
{
	if (err)
		err->text[0] = '\0';
}
