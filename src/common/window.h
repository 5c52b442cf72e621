/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window.h - the time windows over which usage is remembered, and the
 * durations that configure them.
 *
 *   none          all history counts
 *   tumbling:L    history resets at every multiple of L since the epoch
 *                 (tumbling:1d forgets at 00:00 UTC)
 *   sliding:L     only usage inside [now - L, now] counts
 *
 * Durations are a number with an optional unit: s (default), m, h, d, w;
 * for example 90, 30m, 1.5h, 7d.  Times in the core are seconds as double.
 */
#ifndef HORAE_WINDOW_H
#define HORAE_WINDOW_H

#include <stddef.h>

#include "err.h"

typedef enum window_kind {
	WINDOW_NONE = 0,
	WINDOW_TUMBLING,
	WINDOW_SLIDING,
} window_kind_t;

typedef struct window_spec {
	window_kind_t kind;
	double length; /* L in seconds; 0 for WINDOW_NONE */
} window_spec_t;

/*
 * Parse a duration into *seconds: a number with an optional unit ("90"
 * seconds, "30m", "1.5h", "7d", "2w"), or Slurm's time format ("MM:SS",
 * "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS": "7-0" is seven days).  A
 * bare number is seconds here, where Slurm's own time limits read minutes.
 * It must be finite and >= 0.  Returns 0, or -EINVAL with err naming the
 * string and what is wrong; *seconds is untouched on failure.
 */
int duration_parse(const char *str, double *seconds, horae_err_t *err);

/*
 * Parse "none", "tumbling:L" or "sliding:L" (L a duration > 0) into *out.
 * Returns 0, or -EINVAL with err; *out is untouched on failure.
 */
int window_parse(const char *str, window_spec_t *out, horae_err_t *err);

/*
 * Write the window as window_parse reads it ("sliding:604800s") into buf.
 * Returns 0, -ENOSPC when it does not fit, -EINVAL on bad arguments.
 */
int window_format(const window_spec_t *w, char *buf, size_t len);

/*
 * Start of the window that contains time now: -INFINITY for none, the
 * last multiple of L at or before now for tumbling, now - L for sliding.
 */
double window_start(const window_spec_t *w, double now);

/*
 * Check a sliding window's bucket (0: the default) against its window:
 * no longer than it, at most 4095 buckets.  Returns 0 or -EINVAL with
 * err as "WindowBucket=...: what is wrong".
 */
int window_check_bucket(const window_spec_t *w, double bucket,
			horae_err_t *err);

#endif /* HORAE_WINDOW_H */
