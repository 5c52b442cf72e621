/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_report.h - how sfair prints what slurmctld said of the
 * associations (ctld_shares.h): sshare's columns, in sfair's styles
 * (table, -p, -P, --json) and -o lists with sshare's widths
 * ("Account%20").  Nothing here talks to slurmctld.
 */
#ifndef HORAE_SFAIR_CTLD_REPORT_H
#define HORAE_SFAIR_CTLD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "ctld_shares.h"
#include "report.h"

typedef enum sfair_ctld_kind {
	SFAIR_C_ACCOUNT,
	SFAIR_C_USER,
	SFAIR_C_PARTITION,
	SFAIR_C_RAWSHARES,
	SFAIR_C_NORMSHARES,
	SFAIR_C_RAWUSAGE,
	SFAIR_C_NORMUSAGE,
	SFAIR_C_EFCTVUSAGE,
	SFAIR_C_FAIRSHARE,
	SFAIR_C_USAGE, /* one column per TRES, or one with tres >= 0 */
} sfair_ctld_kind_t;

/* A field asked for (kind: an sfair_ctld_kind_t; Usage's tres: -1 for
 * all). */
typedef sfair_pick_t sfair_ctld_field_t;

/*
 * Parse a --format list against a's TRES.  Returns the number of fields,
 * or -1 with err (of len bytes) naming the bad item; a field that only the
 * plugins' files have is named as such.
 */
int sfair_ctld_fields_parse(const char *list, const sfair_assocs_t *a,
			    sfair_ctld_field_t *fields, char *err, size_t len);

/* Account, User (with user rows), RawShares, NormShares, RawUsage,
 * EffectvUsage, FairShare; long adds Partition (when any has one),
 * NormUsage and Usage per TRES. */
int sfair_ctld_fields_default(const sfair_assocs_t *a, bool long_list,
			      sfair_ctld_field_t *fields);

/* Print a in style (--json ignores fields: it has them all). */
void sfair_ctld_print(FILE *out, const sfair_assocs_t *a,
		      const sfair_ctld_field_t *fields, int nfields,
		      sfair_style_t style, bool noheader, double at);

#endif /* HORAE_SFAIR_CTLD_REPORT_H */
