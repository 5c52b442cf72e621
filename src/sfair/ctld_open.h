/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_open.h - sfair's way into libslurm, for the requests that ask
 * slurmctld (--explain, slurmctld's view).  libslurm ends the process
 * with exit(1) on what it cannot take (no slurm.conf, a slurm.conf
 * without SlurmctldHost, ...); between open and close sfair turns that
 * into its own exit status 2 with a line that says so, after libslurm's
 * message.
 */
#ifndef HORAE_SFAIR_CTLD_OPEN_H
#define HORAE_SFAIR_CTLD_OPEN_H

/*
 * Initialise libslurm with the slurm.conf sfair_slurm_conf() names, for
 * what (said in messages: "--explain").  Returns 0, or 2 with the reason
 * printed when that file cannot be read.
 */
int sfair_ctld_open(const char *what);

/* Done with libslurm: an exit from here on is sfair's own again. */
void sfair_ctld_close(void);

#endif /* HORAE_SFAIR_CTLD_OPEN_H */
