/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.h - the cells of sfair's tables, shared by its reports (the
 * plugins' files: report.c; slurmctld's view: ctld_report.c): how a cell
 * is printed in each style, and how a --format item ("Name:TRES%WIDTH",
 * sshare's and sprio's widths) is split.
 */
#ifndef HORAE_SFAIR_COLUMNS_H
#define HORAE_SFAIR_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum sfair_style {
	SFAIR_TABLE,
	SFAIR_PARSABLE, /* -p: '|' after every field */
	SFAIR_PARSABLE2, /* -P: '|' between fields */
	SFAIR_JSON,
} sfair_style_t;

/* One line being printed. */
typedef struct sfair_cells {
	FILE *out;
	sfair_style_t style;
	int col;
} sfair_cells_t;

/*
 * One cell: in a table, width columns (negative: left-aligned) after a
 * blank, cut to them when cut is set; else text after a '|' (but the
 * first).
 */
void sfair_cell(sfair_cells_t *c, int width, bool cut, const char *text);

/* End the line: a '|' for -p, the newline; the next starts at column 0. */
void sfair_cells_end(sfair_cells_t *c);

/* A field a report knows: its name in -o, its kind (the report's own
 * enum), its default width (negative: left-aligned), whether it takes
 * ":TRES" (one column per TRES without). */
typedef struct sfair_column {
	const char *name;
	int kind;
	int width;
	bool per_tres;
} sfair_column_t;

/* A field asked for: its kind, its TRES (-1: all), its width (0: the
 * default; negative for a left-aligned field). */
typedef struct sfair_pick {
	int kind;
	int tres;
	int width;
} sfair_pick_t;

#define SFAIR_MAX_FIELDS 64

/* How a report says what it cannot show: fills err and returns true for
 * a field name it knows of but has not (NULL: none such). */
typedef bool (*sfair_elsewhere_fn)(const char *name, char *err, size_t len);

/*
 * Parse a --format list ("Account%20,Used:cpu", names in any case) against
 * the known columns and the TRES names (tres_where says where they come
 * from in messages: "in the state file").  Returns the number of fields
 * (at most SFAIR_MAX_FIELDS), or -1 with err (of len bytes) naming the
 * bad item.
 */
int sfair_format_parse(const char *list, const sfair_column_t *known,
		       int nknown, const char *const *tres, int ntres,
		       const char *tres_where, sfair_elsewhere_fn elsewhere,
		       sfair_pick_t *picks, char *err, size_t len);

/* The name and default width of kind in known ("?" and 12 if none). */
const char *sfair_column_name(const sfair_column_t *known, int nknown,
			      int kind);
int sfair_column_width(const sfair_column_t *known, int nknown, int kind);

#endif /* HORAE_SFAIR_COLUMNS_H */
