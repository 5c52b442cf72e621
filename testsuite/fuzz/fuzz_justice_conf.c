/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_justice_conf.c - libFuzzer target for justice.conf
 * (justice_conf.h): the input is the file, read by justice_conf_read
 * through the scratch file (the reader only takes a path).  A file that
 * reads must make a history: the limits justice_conf_read checks are
 * the ones justice_history_create relies on.
 */
#include <stdint.h>

#include "justice_conf.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	justice_history_t *h;
	justice_conf_t c;
	horae_err_t err;

	justice_conf_init(&c);
	if (justice_conf_read(&c, path, &err))
		return 0;
	h = justice_history_create(c.history_length, c.smoothing, c.alpha,
				   &err);
	if (!h)
		abort();
	justice_history_destroy(&h);
	return 0;
}
