/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - sfair's rows and how they are printed: a fixed-width table
 * (sshare style), '|'-separated (-p with a trailing '|', -P without), or
 * one JSON document (--json).  The caller fills a report from the state
 * files; nothing here reads files or talks to slurmctld.
 */
#ifndef HORAE_SFAIR_REPORT_H
#define HORAE_SFAIR_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "common/justice_state.h"
#include "common/tres.h"
#include "columns.h"

typedef struct sfair_row {
	const char *account;
	tres_vec_t used; /* TRES x s in the window */
	tres_vec_t ns;	 /* non-sharing allocation, TRES x s */
	double beta;	 /* sharing degree; INFINITY when it has none */
	double last_start; /* last job start, s since the epoch; 0: none */
	/* From priority/hmrf's published view, when it has the account */
	bool has_hmrf;
	double contribution; /* weight over the counted accounts' weights */
	tres_vec_t fair;     /* fair share of each TRES */
	double dominant;     /* dominant share of the window; <0: none */
	double aggregate;    /* aggregate share of the window; <0: none */
	/* From select/eunomia's published shares, when it has the account */
	bool has_progress;
	double progress; /* CPU x speed x s in its window */
	double pshare;	 /* progress share */
} sfair_row_t;

/* job_submit/justice's state: one history for the cluster, as in the
 * paper, so its fraction and counts are not per account. */
typedef struct sfair_justice {
	const char *file;
	long jobs;	 /* finished jobs learnt from */
	double fraction; /* what a job is expected to need; NAN: nothing */
	double min, max; /* MinCPUFrac, MaxCPUFrac; NAN: nothing */
	justice_counts_t counts;
} sfair_justice_t;

typedef struct sfair_report {
	const char *state;	/* the state file read */
	const char *window;	/* "none", "tumbling:7d", ... */
	double at;		/* evaluated at, s since the epoch */
	double window_start;	/* the window's start at 'at' */
	double saved;		/* when the plugin last wrote the file */
	bool stale;		/* not written for three periods */
	bool own_view;		/* the user's view (PrivateData=usage) */
	const char *hmrf_file;	/* priority/hmrf's view, or NULL */
	double hmrf_at;		/* when it was computed */
	const char *progress_file; /* select/eunomia's shares, or NULL */
	double progress_at;	/* when they were computed */
	double fair_progress;	/* the fair progress share */
	const sfair_justice_t *justice; /* NULL: no job_submit/justice */
	int ntres;
	const char *tres[TRES_MAX]; /* slot names */
	const sfair_row_t *rows;
	int nrows;
} sfair_report_t;

typedef enum sfair_kind {
	SFAIR_F_ACCOUNT,
	SFAIR_F_USED,	     /* one column per TRES, or one with tres >= 0 */
	SFAIR_F_NONSHARING,
	SFAIR_F_BETA,
	SFAIR_F_LASTSTART,
	SFAIR_F_WINDOWSTART,
	SFAIR_F_WINDOWEND,
	SFAIR_F_PROGRESS,
	SFAIR_F_PROGRESSSHARE,
	SFAIR_F_FAIRPROGRESS,
	SFAIR_F_CONTRIBUTION,
	SFAIR_F_FAIRSHARE, /* one column per TRES, or one with tres >= 0 */
	SFAIR_F_DOMINANT,
	SFAIR_F_AGGREGATE,
	SFAIR_F_LOSS,
} sfair_kind_t;

/* A field asked for (kind: an sfair_kind_t). */
typedef sfair_pick_t sfair_field_t;

/*
 * Parse a --format list ("Account,Used:cpu,Beta", case-insensitive) into
 * fields[] against the report's TRES names.  Returns the number of
 * fields, or -1 with err (of len bytes) naming the bad item.
 */
int sfair_fields_parse(const char *list, const sfair_report_t *r,
		       sfair_field_t *fields, char *err, size_t len);

/* The default fields: Account, Contribution, Used, NonSharing, Beta,
 * DominantShare and AggregateShare, with ProgressShare and
 * FairProgressShare when r has progress shares; long adds FairShare,
 * SharingLoss, Progress, LastStart, WindowStart and WindowEnd. */
int sfair_fields_default(const sfair_report_t *r, bool long_list,
			 sfair_field_t *fields);

/* Print r in style (fields are ignored by SFAIR_JSON, which has all). */
void sfair_report_print(FILE *out, const sfair_report_t *r,
			const sfair_field_t *fields, int nfields,
			sfair_style_t style, bool noheader);

/* Justice's fraction and counts, one row (table or parsable). */
/* One account as --json shows it (a new object the caller owns). */
json_object *sfair_row_json(const sfair_report_t *r, const sfair_row_t *row);

void sfair_justice_print(FILE *out, const sfair_report_t *r,
			 sfair_style_t style, bool noheader);

#endif /* HORAE_SFAIR_REPORT_H */
