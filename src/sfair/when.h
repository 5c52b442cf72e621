/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * when.h - a time as sfair's --at takes it: seconds since the epoch, or
 * any time Slurm's commands take (sacct -S, sbatch --begin): 2026-11-01,
 * 2026-11-01T08:00, now-7days, midnight, 16:00 (the last one past).
 */
#ifndef HORAE_SFAIR_WHEN_H
#define HORAE_SFAIR_WHEN_H

/* *out = the time s names, seconds since the epoch; 0, or -EINVAL (and
 * *out unchanged) when s is no time. */
int sfair_when(const char *s, double *out);

#endif /* HORAE_SFAIR_WHEN_H */
