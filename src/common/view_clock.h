/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view_clock.h - when each reader's view (view.h) is published again
 * under PrivateData=usage.  A view is a file of its own for every user
 * and operator, and making and replacing a file costs far more than its
 * bytes (doc/benchmarks-history.md), so a view is refreshed every
 * VIEW_REFRESH_PERIODS periods rather than each one, as sshare's figures
 * under priority/multifactor change once per PriorityCalcPeriod; but at
 * once when the reader is new or the accounts it may see changed, so
 * nobody waits for a view they are owed.
 */
#ifndef HORAE_VIEW_CLOCK_H
#define HORAE_VIEW_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "view.h"

/* A reader's view is refreshed every this many of the plugin's periods;
 * sfair allows for it before calling a view stale. */
#define VIEW_REFRESH_PERIODS 10

typedef struct view_clock view_clock_t;

/* A clock that has seen no publication, or NULL with errno ENOMEM. */
view_clock_t *view_clock_create(void);

/* Free the clock and set *c to NULL.  NULL-safe. */
void view_clock_destroy(view_clock_t **c);

/*
 * Whether uid's view, now of signature sig, is to be published at now
 * with a refresh every `every` seconds: never published (or forgotten),
 * of another signature then, published "after" now (the clock went
 * back), or published before the uid's last refresh boundary.  The
 * boundaries of a uid are `every` seconds apart at a phase drawn from the
 * uid, so that views made at once are refreshed apart: asked every
 * period, a view is refreshed at most `every` plus a period after the
 * last time, and at least `every` minus a period.  A NULL clock, or
 * every <= 0: always.
 */
bool view_clock_due(const view_clock_t *c, long uid, uint64_t sig, double now,
		    double every);

/* Note that uid's view of signature sig was published at now.  Returns 0,
 * -EINVAL (c NULL, uid < 0) or -ENOMEM (nothing noted). */
int view_clock_mark(view_clock_t *c, long uid, uint64_t sig, double now);

/* Forget every uid readers does not hold (all of them when readers is
 * NULL), so a reader who comes back is published at once.  Returns 0 or
 * -ENOMEM (the clock unchanged). */
int view_clock_keep(view_clock_t *c, const view_readers_t *readers);

#endif /* HORAE_VIEW_CLOCK_H */
