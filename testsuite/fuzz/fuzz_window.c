/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_window.c - libFuzzer target for windows and durations (window.h):
 * the input goes to window_parse and to duration_parse; a window that
 * parses is formatted, parsed again and checked against a bucket, so the
 * code that follows a successful parse runs on what the parser accepted.
 */
#include <stdint.h>
#include <stdlib.h>

#include "window.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_strndup(data, size), buf[64];
	window_spec_t w, back;
	horae_err_t err;
	double s;

	if (!duration_parse(in, &s, &err))
		window_check_bucket(&(window_spec_t){ WINDOW_SLIDING, s }, 0,
				    &err);
	if (!window_parse(in, &w, &err)) {
		window_start(&w, 1.7e9);
		window_check_bucket(&w, 0, &err);
		window_check_bucket(&w, 60, &err);
		if (!window_format(&w, buf, sizeof(buf)))
			window_parse(buf, &back, &err);
	}
	free(in);
	return 0;
}
