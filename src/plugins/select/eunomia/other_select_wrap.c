/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * other_select_wrap.c - compile Slurm's own src/plugins/select/other code
 * (from the matching Slurm source tree) into select/eunomia.  It loads
 * select/cons_tres as the "other" plugin whose work we pass everything to.
 */
#include "config.h"

#include "src/plugins/select/other/other_select.c"
