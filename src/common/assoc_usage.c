/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_usage.c - see assoc_usage.h.
 */
#include <math.h>
#include <time.h>

#include "assoc_usage.h"

double assoc_usage_decay(double half_life, double dt)
{
	if (!(half_life > 0) || !(dt > 0) || !isfinite(half_life) ||
	    !isfinite(dt))
		return 1;
	return pow(0.5, dt / half_life);
}

/* The boundary of kind r at or before t: local midnight of its day,
 * week (Sunday), month, quarter or year, as seconds since the epoch. */
static double _boundary(assoc_usage_reset_t r, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return NAN;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	switch (r) {
	case ASSOC_USAGE_RESET_DAILY:
		break;
	case ASSOC_USAGE_RESET_WEEKLY:
		tm.tm_mday -= tm.tm_wday; /* back to Sunday, as Slurm */
		break;
	case ASSOC_USAGE_RESET_MONTHLY:
		tm.tm_mday = 1;
		break;
	case ASSOC_USAGE_RESET_QUARTERLY:
		tm.tm_mday = 1;
		tm.tm_mon -= tm.tm_mon % 3;
		break;
	case ASSOC_USAGE_RESET_YEARLY:
		tm.tm_mday = 1;
		tm.tm_mon = 0;
		break;
	default:
		return NAN;
	}
	return (double)mktime(&tm);
}

bool assoc_usage_reset_due(assoc_usage_reset_t r, double from, double to)
{
	double b;

	if (r == ASSOC_USAGE_RESET_NONE || !isfinite(from) || !isfinite(to) ||
	    to <= from)
		return false;
	b = _boundary(r, (time_t)floor(to));
	return isfinite(b) && b > from && b <= to;
}

double assoc_usage_seconds(double start, double end, double charged,
			   double now)
{
	double lo = fmax(start, charged), hi = now;

	if (end > 0 && isfinite(end))
		hi = fmin(end, now);
	return hi > lo ? hi - lo : 0;
}

double assoc_usage_reserved(double limit_end, double from, double secs,
			    bool ended)
{
	double left = limit_end - from;

	if (!(left > 0))
		return 0;
	if (ended)
		return left;
	return secs > 0 ? fmin(secs, left) : 0;
}

double assoc_usage_factor(double qos_usage_factor)
{
	return qos_usage_factor >= 0 && isfinite(qos_usage_factor) ?
		       qos_usage_factor :
		       1;
}

assoc_charge_t assoc_usage_charge(double secs, double factor, double billing)
{
	assoc_charge_t c = { .secs = secs * factor };

	c.raw = c.secs * billing;
	return c;
}
