/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_conf.h - the settings of job_submit/justice (justice.conf),
 * read like hmrf.conf (kvfile.h) with "PATH:LINE: what is wrong" errors.
 * See horae-justice.conf(5).
 *
 *   Policy=justice        justice | baseline-fs | reactive-fs (justice.h;
 *                         oracle needs each job's exact need, which only
 *                         the simulator has, and is refused)
 *   HistoryLength=1000    finished jobs the estimate learns from
 *   Smoothing=equal       equal | exp:ALPHA (0 < ALPHA <= 1)
 *   Bootstrap=10          jobs to learn from before refusing any
 *   Period=30s            pending jobs re-checked, late ones killed
 *   KillAbove=4           running jobs past their deadline that hold more
 *                         CPUs than this are terminated
 *   Elastic=yes           size jobs with a node range to just enough
 *   UrgencyWeight=1000    weight of the urgency factor (site factor)
 *   Order=justice         justice (fewest CPUs per s left first) |
 *                         deadline (shortest time to deadline first)
 */
#ifndef HORAE_JUSTICE_CONF_H
#define HORAE_JUSTICE_CONF_H

#include <stdbool.h>

#include "err.h"
#include "justice.h"
#include "justice_history.h"

/* The largest UrgencyWeight: what Slurm's site factor (an unsigned 32-bit
 * value offset by 2^31) can add. */
#define JUSTICE_URGENCY_MAX 2147483647.0

typedef struct justice_conf {
	justice_policy_t policy;
	int history_length;
	justice_smoothing_t smoothing;
	double alpha;
	long bootstrap;
	double period;
	double kill_above;
	bool elastic;
	double urgency_weight;
	justice_order_kind_t order;
} justice_conf_t;

/* The defaults above. */
void justice_conf_init(justice_conf_t *c);

/* Set one key; 0 or -EINVAL with err; c unchanged on failure. */
int justice_conf_set(justice_conf_t *c, const char *key, const char *value,
		     horae_err_t *err);

/*
 * Read path into c (after justice_conf_init).  Returns 0, -ENOENT when the
 * file does not exist (c keeps the defaults), or -EINVAL with err
 * "PATH:LINE: ..." (a bad line, a key set twice) or "PATH: ..." (Bootstrap
 * above HistoryLength under Policy=justice); c is unchanged on failure.
 */
int justice_conf_read(justice_conf_t *c, const char *path, horae_err_t *err);

#endif /* HORAE_JUSTICE_CONF_H */
