/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_usage.h - the rules by which priority/hmrf keeps the usage Slurm
 * stores per association and QOS (what GrpTRESMins, MaxTRESMins-style
 * limits and sshare read), kept as priority/multifactor keeps it:
 *
 *   - a job is charged over the part of [start, end or now] after the last
 *     charge, once: its TRES times those seconds times its QOS's
 *     UsageFactor, per TRES, and its billing TRES the same way into the
 *     raw usage;
 *   - at each charge all usage decays by 0.5^(dt / PriorityDecayHalfLife)
 *     over the time since the last (no decay with a half-life of 0);
 *   - all usage is reset to 0 when a PriorityUsageResetPeriod boundary
 *     (local midnight; of a Sunday, as Slurm's WEEKLY; of the 1st of a
 *     month, of a quarter, of a year) falls after the last charge and at
 *     or before now.
 *
 * Plain numbers in, plain numbers out; the plugin applies them to Slurm's
 * records (hmrf_assoc.c).
 */
#ifndef HORAE_ASSOC_USAGE_H
#define HORAE_ASSOC_USAGE_H

#include <stdbool.h>

typedef enum assoc_usage_reset {
	ASSOC_USAGE_RESET_NONE = 0,
	ASSOC_USAGE_RESET_DAILY,
	ASSOC_USAGE_RESET_WEEKLY,
	ASSOC_USAGE_RESET_MONTHLY,
	ASSOC_USAGE_RESET_QUARTERLY,
	ASSOC_USAGE_RESET_YEARLY,
} assoc_usage_reset_t;

/*
 * What usage keeps of itself after dt seconds with half-life hl seconds:
 * 0.5^(dt / hl); 1 when hl <= 0 (no decay) or dt <= 0, and for values
 * that are not finite.
 */
double assoc_usage_decay(double half_life, double dt);

/*
 * Whether a reset boundary of kind r falls in (from, to], in local time.
 * False for NONE, for to <= from and for times that are not finite.
 */
bool assoc_usage_reset_due(assoc_usage_reset_t r, double from, double to);

/*
 * Seconds of a job run [start, end] (end <= 0 or INFINITY: still running)
 * to charge now: its part inside (charged, now], where charged is the
 * last charge.  0 when none.
 */
double assoc_usage_seconds(double start, double end, double charged,
			   double now);

/*
 * Reserved run time to give back for a charge of secs seconds from `from`:
 * Slurm reserves a job's TRES for its whole time limit when it starts
 * (up to limit_end); each charge uses up what it ran of that, and when
 * the job has ended all that is left is given back.  Seconds, >= 0.
 */
double assoc_usage_reserved(double limit_end, double from, double secs,
			    bool ended);

/*
 * The factor a charge is multiplied by: the job's QOS's UsageFactor, or 1
 * when it has none (Slurm's unset is below 0) or it is not finite.
 */
double assoc_usage_factor(double qos_usage_factor);

/*
 * One charge of secs run seconds, with UsageFactor factor (as
 * assoc_usage_factor() gives it) and billable TRES billing: the seconds
 * charged (secs x factor; what grp_used_wall counts, and what each TRES
 * count multiplies) and the raw usage it adds (billing x those seconds).
 */
typedef struct assoc_charge {
	double secs;
	double raw;
} assoc_charge_t;
assoc_charge_t assoc_usage_charge(double secs, double factor, double billing);

#endif /* HORAE_ASSOC_USAGE_H */
