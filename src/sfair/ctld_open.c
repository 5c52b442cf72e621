/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_open.c - see ctld_open.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "ctld_open.h"
#include "slurm_conf.h"

static const char *open_for; /* non-NULL between open and close */

/* Run at exit(): only libslurm exits while open_for is set. */
static void _fatal_guard(void)
{
	if (!open_for)
		return;
	fprintf(stderr,
		"sfair: libslurm ended sfair (its message above) while reading %s for %s; nothing was changed\n",
		sfair_slurm_conf(), open_for);
	fflush(stderr);
	_exit(2);
}

int sfair_ctld_open(const char *what)
{
	static bool registered;

	/* libslurm ends the process when it finds no slurm.conf. */
	if (access(sfair_slurm_conf(), R_OK)) {
		fprintf(stderr,
			"sfair: %s asks slurmctld, and %s cannot be read here (%s): set SLURM_CONF to the cluster's slurm.conf\n",
			what, sfair_slurm_conf(), strerror(errno));
		return 2;
	}
	if (!registered && atexit(_fatal_guard)) {
		fprintf(stderr, "sfair: out of memory\n");
		return 2;
	}
	registered = true;
	open_for = what;
	slurm_init(sfair_slurm_conf());
	return 0;
}

void sfair_ctld_close(void)
{
	open_for = NULL;
}
