/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_config.h - sfair --check-config: Horae's configuration files
 * checked without a daemon, by the readers the plugins use and with their
 * messages ("PATH:LINE: what is wrong").
 */
#ifndef HORAE_SFAIR_CHECK_CONFIG_H
#define HORAE_SFAIR_CHECK_CONFIG_H

/*
 * Check file ("" for hmrf.conf, eunomia.conf and justice.conf beside
 * slurm.conf).  A named file is read as kind ("hmrf", "eunomia" or
 * "justice"), or, with kind NULL, as the file its name ends with
 * (hmrf.conf, eunomia.conf, justice.conf); a name that tells nothing
 * without a kind is refused.  Prints OK lines on stdout and errors on
 * stderr; returns the exit status: 0 when every file is good (or, unnamed,
 * missing: the plugin then uses its defaults), 1 for a bad or missing
 * named file, 2 for a kind that is unknown or missing, or out of memory.
 */
int sfair_check_config(const char *file, const char *kind);

#endif /* HORAE_SFAIR_CHECK_CONFIG_H */
