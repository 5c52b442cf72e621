/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * when.c - sfair's --at times.  See when.h.  Slurm's own parser
 * (libslurmfull's parse_time, which sacct and sbatch use) reads every
 * form but a bare number, which Slurm reads as an hour; sfair has always
 * taken that as seconds since the epoch, and still does.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "when.h"

/* libslurmfull's, exported under this name (src/common/parse_time.c);
 * past: "16:00" is the last 16:00, not the next. */
extern time_t slurm_parse_time(char *time_str, int past);

int sfair_when(const char *s, double *out)
{
	char *end;
	double t;
	time_t st;

	if (!s || !*s)
		return -EINVAL;
	t = strtod(s, &end);
	if (!*end) {
		if (!isfinite(t) || t < 0)
			return -EINVAL;
		*out = t;
		return 0;
	}
	st = slurm_parse_time((char *)s, 1);
	if (st <= 0)
		return -EINVAL;
	*out = (double)st;
	return 0;
}
