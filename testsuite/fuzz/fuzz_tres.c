/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_tres.c - libFuzzer target for TRES strings (tres.h).  The input's
 * first line is a layout ("cpu,mem,node,gres/gpu") for tres_layout_create
 * and the rest a vector ("cpu=4,mem=4G") for tres_parse against it; an
 * input without a newline is a vector against the default layout.  A
 * vector that parses is formatted and parsed again, so tres_format's
 * buffer handling runs under the sanitizers too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tres.h"

#include "fuzz_util.h"

#define FUZZ_TRES_LAYOUT "cpu,mem,node,gres/gpu"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_strndup(data, size), *vec = strchr(in, '\n');
	const char *names = FUZZ_TRES_LAYOUT;
	char buf[TRES_MAX * (TRES_NAME_MAX + 32)];
	tres_layout_t *layout;
	tres_vec_t v, back;
	horae_err_t err;

	if (vec) {
		*vec++ = '\0';
		names = in;
	} else {
		vec = in;
	}
	layout = tres_layout_create(names, &err);
	if (!layout)
		goto free_in;
	for (int i = 0; i < tres_layout_count(layout); i++)
		tres_layout_find(layout, tres_layout_name(layout, i));
	if (tres_parse(layout, vec, &v, &err))
		goto free_layout;
	/* A short buffer too: the truncated prefix must stay in bounds. */
	tres_format(layout, &v, buf, 8);
	if (!tres_format(layout, &v, buf, sizeof(buf)))
		tres_parse(layout, buf, &back, &err);
free_layout:
	tres_layout_destroy(&layout);
free_in:
	free(in);
	return 0;
}
