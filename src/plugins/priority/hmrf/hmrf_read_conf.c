/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_read_conf.c - hmrf.conf, found where Slurm keeps its other plugin
 * configuration files (get_extra_conf_path).
 *
 * The file is read by the core (hmrf_conf_read, kvfile.c), not by Slurm's
 * s_p parser: in Slurm 22.05 s_p_parse_file() names no line when a key is
 * unknown or a value is refused, and an admin needs "file:line: what is
 * wrong".  The core reader takes the same syntax (case-insensitive keys,
 * several pairs to a line, '#' comments, quotes, '\' continuations), and
 * sfair --check-config gives the very same messages without a daemon.
 */
#include "config.h"

#include <errno.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/read_config.h"

#include "hmrf_read_conf.h"

extern const char plugin_type[];

hmrf_conf_t *hmrf_read_conf(char **path)
{
	hmrf_conf_t *conf = hmrf_conf_create();
	horae_err_t err;
	int rc;

	*path = get_extra_conf_path("hmrf.conf");
	if (!conf) {
		error("%s: out of memory", plugin_type);
		return NULL;
	}
	rc = hmrf_conf_read(conf, *path, &err);
	if (rc == -ENOENT) {
		info("%s: no %s: using the defaults", plugin_type, *path);
		rc = hmrf_conf_finish(conf, &err);
	}
	if (rc) {
		error("%s: %s", plugin_type, err.text);
		hmrf_conf_destroy(&conf);
	}
	return conf;
}
