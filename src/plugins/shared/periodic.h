/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * periodic.h - a slurmctld thread that calls a function now and then
 * every period seconds until stopped; the plugins' recalculation and
 * charging loops.
 */
#ifndef HORAE_PERIODIC_H
#define HORAE_PERIODIC_H

typedef struct periodic periodic_t;

/*
 * Start a thread named name (at most 15 characters are kept: what top -H
 * and /proc/PID/task/TID/comm show) that calls fn(arg) at once and then every period(arg)
 * seconds (asked again after each call, so a reconfigure takes effect).
 * fn takes whatever locks it needs.  Returns the handle (never NULL: out
 * of memory is fatal in Slurm's allocator).
 */
periodic_t *periodic_start(const char *name, void (*fn)(void *),
			   double (*period)(void *), void *arg);

/* Wake the thread, wait for it to end and free the handle; *p = NULL.
 * fn is not called again.  NULL-safe. */
void periodic_stop(periodic_t **p);

#endif /* HORAE_PERIODIC_H */
