/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_eunomia_conf.c - libFuzzer target for eunomia.conf
 * (eunomia_conf.h): the input is the file, read by eunomia_conf_read
 * through the scratch file (the reader only takes a path).  A file that
 * reads is asked for each account's share and for a node's speed, so the
 * speed maps it built are walked too.
 */
#include <stdint.h>

#include "eunomia_conf.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	eunomia_conf_t *c = eunomia_conf_create();
	horae_err_t err;

	if (!c)
		abort();
	if (!eunomia_conf_read(c, path, &err)) {
		for (int i = 0; i < c->naccounts; i++) {
			eunomia_conf_share(c, c->accounts[i].name);
			eunomia_conf_speed(c, c->accounts[i].name,
					   "gen1,gen2,gen4,ib");
		}
		eunomia_conf_speed(c, "no-such-account", "gen1");
	}
	eunomia_conf_destroy(&c);
	return 0;
}
