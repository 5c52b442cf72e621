/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kvfile.h - reading Slurm-style configuration files line by line with
 * line numbers: "Key=Value" pairs separated by blanks, several to a line,
 * blanks allowed around the '=' ("Key = Value"), '#' to the end of the
 * line is a comment, a value may be "double quoted" (and then hold blanks
 * and '#'), a line ending in '\' continues on the next, and a line
 * "Include PATH" reads PATH there (relative to the including file's
 * directory, shell wildcards allowed, files in name order), as slurm.conf
 * does.  Keys are handed over as written; callers compare them
 * case-insensitively, as Slurm does.
 */
#ifndef HORAE_KVFILE_H
#define HORAE_KVFILE_H

#include <stdbool.h>

#include "err.h"

#define KVFILE_MAX_PAIRS 16

typedef struct kvfile_line {
	const char *path; /* the file it is in (an included one, maybe) */
	int number;   /* line number of the first physical line */
	int npairs;
	const char *key[KVFILE_MAX_PAIRS];
	const char *value[KVFILE_MAX_PAIRS];
} kvfile_line_t;

/*
 * Called for each line with at least one pair; returns 0 to go on or a
 * negative errno with err saying what is wrong (kvfile_read adds
 * "PATH:LINE: " in front).
 */
typedef int (*kvfile_fn)(void *arg, const kvfile_line_t *line,
			 horae_err_t *err);

/*
 * Read path, calling fn for each line (and for the lines of the files it
 * includes, where they stand).  Returns 0; -ENOENT when path does not
 * exist (err names it); or the first error, with err as "PATH:LINE: what
 * is wrong" (a syntax error, or what fn said), PATH the file the line is
 * in; a missing included file, an Include chain over 16 files deep or a
 * directory is -EINVAL.
 */
int kvfile_read(const char *path, kvfile_fn fn, void *arg, horae_err_t *err);

/* Which settings a file has set, and where: a setting given twice is an
 * error, as the later one would silently win. */
#define KVFILE_SEEN_MAX 64
typedef struct kvfile_seen {
	int n;
	struct {
		char key[32];
		char path[224];
		int line;
	} at[KVFILE_SEEN_MAX];
} kvfile_seen_t;

/*
 * Note that line l sets its i-th key.  Returns 0; or -EINVAL with err as
 * "KEY is set twice (first at PATH:LINE)" when the file set it before
 * (keys compared case-insensitively).  s starts zeroed.  Past
 * KVFILE_SEEN_MAX keys, or for longer keys, nothing is checked.
 */
int kvfile_seen_once(kvfile_seen_t *s, const kvfile_line_t *l, int i,
		     horae_err_t *err);

/*
 * Parse value, the setting key, as a finite number >= min (> min when
 * strict) into *out.  Returns 0, or -EINVAL with err as "KEY=VALUE: not a
 * number" or "KEY=VALUE: must be greater than MIN"; *out untouched then.
 */
int kvfile_number(const char *key, const char *value, double min,
		  bool strict, double *out, horae_err_t *err);

/*
 * Parse value, the setting key, as a duration (window.h: "90", "30m",
 * "7d", and Slurm's "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM:SS"), > 0 when
 * positive.  Returns 0 or -EINVAL with err as "KEY=VALUE: what is wrong";
 * *out untouched then.
 */
int kvfile_duration(const char *key, const char *value, bool positive,
		    double *out, horae_err_t *err);

/*
 * The same, where Slurm's "UNLIMITED" or "INFINITE" (any case) means
 * something: then *out is unlimited.
 */
int kvfile_duration_or_unlimited(const char *key, const char *value,
				 bool positive, double unlimited, double *out,
				 horae_err_t *err);

#endif /* HORAE_KVFILE_H */
