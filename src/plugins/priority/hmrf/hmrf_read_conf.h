/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_read_conf.h - find hmrf.conf beside slurm.conf and read it into a
 * validated hmrf_conf_t.
 */
#ifndef HORAE_HMRF_READ_CONF_H
#define HORAE_HMRF_READ_CONF_H

#include "common/hmrf_conf.h"

/*
 * Read the configuration.  A missing file gives the defaults.  On a bad
 * file, logs "priority/hmrf: PATH:LINE: what is wrong" and returns NULL.
 * *path receives the file's path (xfree it).
 */
hmrf_conf_t *hmrf_read_conf(char **path);

#endif /* HORAE_HMRF_READ_CONF_H */
