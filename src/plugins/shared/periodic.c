/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * periodic.c - see periodic.h.
 */
#include "config.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "src/common/macros.h"
#include "src/common/xmalloc.h"

#include "periodic.h"

struct periodic {
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	pthread_t thread;
	char name[16];
	bool stopping;
	void (*fn)(void *);
	double (*period)(void *);
	void *arg;
};

static void _deadline(struct timespec *until, double period)
{
	clock_gettime(CLOCK_REALTIME, until);
	until->tv_sec += (time_t)period;
	until->tv_nsec += (long)((period - (time_t)period) * 1e9);
	if (until->tv_nsec >= 1000000000L) {
		until->tv_sec++;
		until->tv_nsec -= 1000000000L;
	}
}

static void *_thread(void *data)
{
	periodic_t *p = data;
	struct timespec until;
	bool stop;

	/* Named, like slurmctld's own threads ("decay", "backfill"), for
	 * top -H, gdb and /proc/PID/task/TID/comm. */
	(void)prctl(PR_SET_NAME, p->name, 0, 0, 0);
	for (;;) {
		p->fn(p->arg);
		_deadline(&until, p->period(p->arg));
		slurm_mutex_lock(&p->mutex);
		while (!p->stopping &&
		       pthread_cond_timedwait(&p->wake, &p->mutex, &until) == 0)
			;
		stop = p->stopping;
		slurm_mutex_unlock(&p->mutex);
		if (stop)
			break;
	}
	return NULL;
}

periodic_t *periodic_start(const char *name, void (*fn)(void *),
			   double (*period)(void *), void *arg)
{
	periodic_t *p = xmalloc(sizeof(*p));

	snprintf(p->name, sizeof(p->name), "%s", name);
	slurm_mutex_init(&p->mutex);
	slurm_cond_init(&p->wake, NULL);
	p->fn = fn;
	p->period = period;
	p->arg = arg;
	slurm_thread_create(&p->thread, _thread, p);
	return p;
}

void periodic_stop(periodic_t **pp)
{
	periodic_t *p;

	if (!pp || !(p = *pp))
		return;
	slurm_mutex_lock(&p->mutex);
	p->stopping = true;
	slurm_cond_broadcast(&p->wake);
	slurm_mutex_unlock(&p->mutex);
	pthread_join(p->thread, NULL);
	slurm_mutex_destroy(&p->mutex);
	slurm_cond_destroy(&p->wake);
	xfree(p);
	*pp = NULL;
}
