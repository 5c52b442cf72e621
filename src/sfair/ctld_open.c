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
		"sfair: libslurm ended sfair (its message above) while reading %s for %s; nothing was changed%s\n",
		sfair_slurm_conf(), open_for,
		sfair_slurm_conf_remote() ?
			" (no slurm.conf on this host: set SLURM_CONF, or SLURM_CONF_SERVER=host[:port] for a configless cluster)" :
			"");
	fflush(stderr);
	_exit(2);
}

int sfair_ctld_open(const char *what)
{
	static bool registered, done;
	bool remote = sfair_slurm_conf_remote();

	if (done) {
		open_for = what;
		return 0;
	}
	/* libslurm ends the process when it finds no slurm.conf. */
	if (!remote && access(sfair_slurm_conf(), R_OK)) {
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
	/* NULL: libslurm's own search, which on a configless host fetches
	 * slurm.conf from slurmctld (SLURM_CONF_SERVER, DNS SRV). */
	slurm_init(remote ? NULL : sfair_slurm_conf());
	done = true;
	return 0;
}

void sfair_ctld_close(void)
{
	open_for = NULL;
}
