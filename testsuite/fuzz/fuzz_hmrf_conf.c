/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_hmrf_conf.c - libFuzzer target for hmrf.conf (hmrf_conf.h): the
 * input is the file, read by hmrf_conf_read (kvfile.h's line reader, then
 * every key, Account line and cross-key check), which only reads from a
 * path, so each input goes through the scratch file.  A file that reads
 * is queried for its accounts' shares.
 */
#include <stdint.h>

#include "hmrf_conf.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	hmrf_conf_t *conf = hmrf_conf_create();
	horae_err_t err;

	if (!conf)
		abort();
	if (!hmrf_conf_read(conf, path, &err)) {
		for (int i = 0; i < conf->naccounts; i++)
			hmrf_conf_share(conf, conf->accounts[i].name);
		hmrf_conf_share(conf, "no-such-account");
	}
	hmrf_conf_destroy(&conf);
	return 0;
}
