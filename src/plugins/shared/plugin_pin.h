/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin_pin.h - keep a plugin's shared object, and so its static data,
 * in memory after Slurm unloads it.
 *
 * From 23.11 a reconfigure starts a new slurmctld; when that one cannot
 * start, the old one resumes, and in doing so ends and loads its priority
 * plugin again (dlclose, dlopen: controller.c's main loop).  A plugin that
 * must carry something across that, such as the settings in force when the
 * admin's new file is the reason the new slurmctld failed, pins itself.
 */
#ifndef HORAE_PLUGIN_PIN_H
#define HORAE_PLUGIN_PIN_H

#include <stdbool.h>

/* Mark the shared object holding this code RTLD_NODELETE; false when it
 * cannot be found (static data then goes with the next dlclose). */
bool plugin_pin(void);

#endif /* HORAE_PLUGIN_PIN_H */
