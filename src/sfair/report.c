/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - print sfair's rows as a table, '|'-separated, or JSON.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "horae_config.h"

#include "report.h"

static const struct {
	const char *name;
	sfair_kind_t kind;
	int width;
} known[] = {
	{ "Account", SFAIR_F_ACCOUNT, -16 },
	{ "Used", SFAIR_F_USED, 16 },
	{ "NonSharing", SFAIR_F_NONSHARING, 20 },
	{ "Beta", SFAIR_F_BETA, 10 },
	{ "LastStart", SFAIR_F_LASTSTART, 20 },
	{ "WindowStart", SFAIR_F_WINDOWSTART, 20 },
	{ "WindowEnd", SFAIR_F_WINDOWEND, 20 },
	{ "Progress", SFAIR_F_PROGRESS, 14 },
	{ "ProgressShare", SFAIR_F_PROGRESSSHARE, 14 },
	{ "FairProgressShare", SFAIR_F_FAIRPROGRESS, 18 },
	{ "Contribution", SFAIR_F_CONTRIBUTION, 12 },
	{ "FairShare", SFAIR_F_FAIRSHARE, 16 },
	{ "DominantShare", SFAIR_F_DOMINANT, 13 },
	{ "AggregateShare", SFAIR_F_AGGREGATE, 14 },
	{ "SharingLoss", SFAIR_F_LOSS, 11 },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

static int _tres_slot(const sfair_report_t *r, const char *name)
{
	for (int i = 0; i < r->ntres; i++)
		if (!strcasecmp(r->tres[i], name))
			return i;
	return -1;
}

int sfair_fields_parse(const char *list, const sfair_report_t *r,
		       sfair_field_t *fields, char *err, size_t len)
{
	char buf[1024], *save = NULL, *item;
	int n = 0;

	if (!list || !list[0] || strlen(list) >= sizeof(buf)) {
		snprintf(err, len,
			 "--format: give a comma-separated list of fields");
		return -1;
	}
	strcpy(buf, list);
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *colon, *pct = strchr(item, '%');
		long width = 0;
		size_t k;

		/* "Account%20": sshare's and sprio's width. */
		if (pct) {
			char *end;

			*pct = '\0';
			width = strtol(pct + 1, &end, 10);
			if (end == pct + 1 || *end || width < 1 ||
			    width > 200) {
				snprintf(err, len,
					 "--format: %s%%%s: a width is a number from 1 to 200",
					 item, pct + 1);
				return -1;
			}
		}
		colon = strchr(item, ':');
		if (colon)
			*colon = '\0';
		for (k = 0; k < NKNOWN; k++)
			if (!strcasecmp(item, known[k].name))
				break;
		if (k == NKNOWN) {
			snprintf(err, len,
				 "--format: unknown field '%s' (Account, Contribution, Used[:TRES], NonSharing[:TRES], FairShare[:TRES], Beta, SharingLoss, DominantShare, AggregateShare, LastStart, WindowStart, WindowEnd, Progress, ProgressShare, FairProgressShare)",
				 item);
			return -1;
		}
		if (n == SFAIR_MAX_FIELDS) {
			snprintf(err, len, "--format: more than %d fields",
				 SFAIR_MAX_FIELDS);
			return -1;
		}
		fields[n].kind = known[k].kind;
		fields[n].tres = -1;
		/* Left-aligned fields keep their side. */
		fields[n].width = known[k].width < 0 ? -(int)width : (int)width;
		if (colon) {
			if (known[k].kind != SFAIR_F_USED &&
			    known[k].kind != SFAIR_F_NONSHARING &&
			    known[k].kind != SFAIR_F_FAIRSHARE) {
				snprintf(err, len,
					 "--format: field '%s' takes no ':TRES'",
					 item);
				return -1;
			}
			fields[n].tres = _tres_slot(r, colon + 1);
			if (fields[n].tres < 0) {
				snprintf(err, len,
					 "--format: %s:%s: no TRES '%s' in the state file",
					 item, colon + 1, colon + 1);
				return -1;
			}
		}
		n++;
	}
	return n;
}

int sfair_fields_default(const sfair_report_t *r, bool long_list,
			 sfair_field_t *fields)
{
	int n = 0;

	/* The default fits 100 columns: the per-TRES columns and the
	 * cluster-wide values are -l's. */
	fields[n++] = (sfair_field_t){ SFAIR_F_ACCOUNT, -1, 0 };
	if (r->hmrf_file)
		fields[n++] = (sfair_field_t){ SFAIR_F_CONTRIBUTION, -1, 0 };
	if (long_list) {
		fields[n++] = (sfair_field_t){ SFAIR_F_USED, -1, 0 };
		fields[n++] = (sfair_field_t){ SFAIR_F_NONSHARING, -1, 0 };
	} else if (!r->hmrf_file) {
		fields[n++] = (sfair_field_t){ SFAIR_F_USED, 0, 0 };
	}
	if (r->hmrf_file && long_list)
		fields[n++] = (sfair_field_t){ SFAIR_F_FAIRSHARE, -1, 0 };
	fields[n++] = (sfair_field_t){ SFAIR_F_BETA, -1, 0 };
	fields[n++] = (sfair_field_t){ SFAIR_F_LOSS, -1, 0 };
	if (r->hmrf_file) {
		fields[n++] = (sfair_field_t){ SFAIR_F_DOMINANT, -1, 0 };
		fields[n++] = (sfair_field_t){ SFAIR_F_AGGREGATE, -1, 0 };
	}
	if (r->progress_file) {
		if (long_list)
			fields[n++] = (sfair_field_t){ SFAIR_F_PROGRESS, -1, 0 };
		fields[n++] = (sfair_field_t){ SFAIR_F_PROGRESSSHARE, -1, 0 };
		if (long_list)
			fields[n++] =
				(sfair_field_t){ SFAIR_F_FAIRPROGRESS, -1, 0 };
	}
	if (long_list) {
		fields[n++] = (sfair_field_t){ SFAIR_F_LASTSTART, -1, 0 };
		fields[n++] = (sfair_field_t){ SFAIR_F_WINDOWSTART, -1, 0 };
		fields[n++] = (sfair_field_t){ SFAIR_F_WINDOWEND, -1, 0 };
	}
	return n;
}

/* Local time as Slurm's commands print it, or "None" for 0. */
static void _time(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!(t > 0) || !localtime_r(&tt, &tm)) {
		snprintf(buf, len, "None");
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static int _width(sfair_kind_t kind)
{
	for (size_t k = 0; k < NKNOWN; k++)
		if (known[k].kind == kind)
			return known[k].width;
	return 12;
}

static const char *_name(sfair_kind_t kind)
{
	for (size_t k = 0; k < NKNOWN; k++)
		if (known[k].kind == kind)
			return known[k].name;
	return "?";
}

/* One cell: the field's text for row (or the header when row is NULL). */
typedef struct cells {
	FILE *out;
	sfair_style_t style;
	int col;
} cells_t;

/* One cell of width columns (negative: left-aligned); cut to them when
 * cut is set. */
static void _cellw(cells_t *c, int width, bool cut, const char *text)
{
	int prec = cut ? abs(width) : (int)strlen(text);

	if (c->style == SFAIR_TABLE) {
		fprintf(c->out, c->col ? " %*.*s" : "%*.*s", width, prec,
			text);
	} else {
		if (c->col)
			fputc('|', c->out);
		fputs(text, c->out);
	}
	c->col++;
}

static void _cell(cells_t *c, int width, const char *text)
{
	_cellw(c, width, false, text);
}

static void _cells(cells_t *c, const sfair_report_t *r,
		   const sfair_field_t *f, const sfair_row_t *row)
{
	char text[128];
	int lo = f->tres >= 0 ? f->tres : 0;
	int hi = f->tres >= 0 ? f->tres + 1 : r->ntres;
	int w = f->width ? f->width : _width(f->kind);

	switch (f->kind) {
	case SFAIR_F_USED:
	case SFAIR_F_NONSHARING:
	case SFAIR_F_FAIRSHARE:
		for (int i = lo; i < hi; i++) {
			if (row && f->kind == SFAIR_F_FAIRSHARE &&
			    !row->has_hmrf)
				snprintf(text, sizeof(text), "-");
			else if (row && f->kind == SFAIR_F_FAIRSHARE)
				snprintf(text, sizeof(text), "%.0f",
					 row->fair.v[i]);
			else if (row)
				snprintf(text, sizeof(text), "%.0f",
					 f->kind == SFAIR_F_USED ?
						 row->used.v[i] :
						 row->ns.v[i]);
			else
				snprintf(text, sizeof(text), "%s:%s",
					 _name(f->kind), r->tres[i]);
			_cellw(c, w, f->width != 0, text);
		}
		return;
	case SFAIR_F_ACCOUNT:
		if (row)
			snprintf(text, sizeof(text), "%s",
				 row->account[0] ? row->account : "(none)");
		break;
	case SFAIR_F_BETA:
		if (row && isinf(row->beta))
			snprintf(text, sizeof(text), "-");
		else if (row)
			snprintf(text, sizeof(text), "%.4f", row->beta);
		break;
	case SFAIR_F_LASTSTART:
		if (row)
			_time(row->last_start, text, sizeof(text));
		break;
	case SFAIR_F_WINDOWSTART:
		if (row)
			_time(r->window_start, text, sizeof(text));
		break;
	case SFAIR_F_WINDOWEND:
		if (row)
			_time(r->at, text, sizeof(text));
		break;
	case SFAIR_F_CONTRIBUTION:
		if (row && row->has_hmrf)
			snprintf(text, sizeof(text), "%.4f", row->contribution);
		else if (row)
			snprintf(text, sizeof(text), "-");
		break;
	case SFAIR_F_DOMINANT:
	case SFAIR_F_AGGREGATE: {
		double v = row && f->kind == SFAIR_F_DOMINANT ? row->dominant :
			   row				      ? row->aggregate :
								0;

		/* Small in a long window: six places. */
		if (row && row->has_hmrf && v >= 0)
			snprintf(text, sizeof(text), "%.6f", v);
		else if (row)
			snprintf(text, sizeof(text), "-");
		break;
	}
	case SFAIR_F_LOSS:
		if (row)
			snprintf(text, sizeof(text), "%s",
				 !isinf(row->beta) && row->beta < 1 ? "yes" :
								      "no");
		break;
	case SFAIR_F_PROGRESS:
		if (row && row->has_progress)
			snprintf(text, sizeof(text), "%.0f", row->progress);
		else if (row)
			snprintf(text, sizeof(text), "-");
		break;
	case SFAIR_F_PROGRESSSHARE:
		if (row && row->has_progress)
			snprintf(text, sizeof(text), "%.4f", row->pshare);
		else if (row)
			snprintf(text, sizeof(text), "-");
		break;
	case SFAIR_F_FAIRPROGRESS:
		if (row && row->has_progress)
			snprintf(text, sizeof(text), "%.4f", r->fair_progress);
		else if (row)
			snprintf(text, sizeof(text), "-");
		break;
	}
	if (!row)
		snprintf(text, sizeof(text), "%s", _name(f->kind));
	_cellw(c, w, f->width != 0, text);
}

static void _line(FILE *out, const sfair_report_t *r,
		  const sfair_field_t *fields, int nfields,
		  sfair_style_t style, const sfair_row_t *row)
{
	cells_t c = { out, style, 0 };

	for (int i = 0; i < nfields; i++)
		_cells(&c, r, &fields[i], row);
	if (style == SFAIR_PARSABLE)
		fputc('|', out);
	fputc('\n', out);
}

static json_object *_vec(const sfair_report_t *r, const tres_vec_t *v)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < r->ntres; i++)
		json_object_object_add(o, r->tres[i],
				       json_object_new_double(v->v[i]));
	return o;
}

static json_object *_when(double t)
{
	return t > 0 ? json_object_new_int64((int64_t)t) : NULL;
}

static json_object *_fraction(double f)
{
	return isfinite(f) ? json_object_new_double(f) : NULL;
}

json_object *sfair_row_json(const sfair_report_t *r, const sfair_row_t *row)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "account",
			       json_object_new_string(row->account));
	json_object_object_add(o, "used", _vec(r, &row->used));
	json_object_object_add(o, "non_sharing", _vec(r, &row->ns));
	json_object_object_add(o, "beta",
			       isinf(row->beta) ?
				       NULL :
				       json_object_new_double(row->beta));
	json_object_object_add(o, "last_start", _when(row->last_start));
	json_object_object_add(o, "sharing_loss",
			       json_object_new_boolean(!isinf(row->beta) &&
						       row->beta < 1));
	if (row->has_hmrf) {
		json_object *h = json_object_new_object();

		json_object_object_add(
			h, "contribution",
			json_object_new_double(row->contribution));
		json_object_object_add(h, "fair_share",
				       _vec(r, &row->fair));
		json_object_object_add(
			h, "dominant_share",
			row->dominant >= 0 ?
				json_object_new_double(row->dominant) :
				NULL);
		json_object_object_add(
			h, "aggregate_share",
			row->aggregate >= 0 ?
				json_object_new_double(row->aggregate) :
				NULL);
		json_object_object_add(o, "shares", h);
	} else {
		json_object_object_add(o, "shares", NULL);
	}
	if (row->has_progress) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "progress",
				       json_object_new_double(row->progress));
		json_object_object_add(p, "share",
				       json_object_new_double(row->pshare));
		json_object_object_add(
			p, "fair_share",
			json_object_new_double(r->fair_progress));
		json_object_object_add(o, "progress", p);
	} else {
		json_object_object_add(o, "progress", NULL);
	}
	return o;
}

static json_object *_justice_json(const sfair_justice_t *j)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(j->file));
	json_object_object_add(o, "jobs_learnt", json_object_new_int64(j->jobs));
	json_object_object_add(o, "fraction", _fraction(j->fraction));
	json_object_object_add(o, "min_fraction", _fraction(j->min));
	json_object_object_add(o, "max_fraction", _fraction(j->max));
	json_object_object_add(o, "counts", justice_counts_to_json(&j->counts));
	return o;
}

static void _json(FILE *out, const sfair_report_t *r)
{
	json_object *doc = json_object_new_object();
	json_object *meta = json_object_new_object();
	json_object *tres = json_object_new_array();
	json_object *accts = json_object_new_array();

	json_object_object_add(meta, "command", json_object_new_string("sfair"));
	json_object_object_add(meta, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(meta, "state_file",
			       json_object_new_string(r->state));
	json_object_object_add(meta, "saved", _when(r->saved));
	json_object_object_add(meta, "stale", json_object_new_boolean(r->stale));
	json_object_object_add(meta, "own_view",
			       json_object_new_boolean(r->own_view));
	json_object_object_add(meta, "at", _when(r->at));
	json_object_object_add(meta, "window",
			       json_object_new_string(r->window));
	json_object_object_add(meta, "window_start", _when(r->window_start));
	json_object_object_add(meta, "window_end", _when(r->at));
	json_object_object_add(meta, "shares_file",
			       r->hmrf_file ?
				       json_object_new_string(r->hmrf_file) :
				       NULL);
	json_object_object_add(meta, "shares_at",
			       r->hmrf_file ? _when(r->hmrf_at) : NULL);
	json_object_object_add(meta, "progress_file",
			       r->progress_file ?
				       json_object_new_string(r->progress_file) :
				       NULL);
	json_object_object_add(meta, "progress_at",
			       r->progress_file ? _when(r->progress_at) : NULL);
	for (int i = 0; i < r->ntres; i++)
		json_object_array_add(tres, json_object_new_string(r->tres[i]));
	for (int a = 0; a < r->nrows; a++)
		json_object_array_add(accts, sfair_row_json(r, &r->rows[a]));
	json_object_object_add(doc, "meta", meta);
	json_object_object_add(doc, "tres", tres);
	json_object_object_add(doc, "accounts", accts);
	json_object_object_add(doc, "justice",
			       r->justice ? _justice_json(r->justice) : NULL);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

void sfair_justice_print(FILE *out, const sfair_report_t *r,
			 sfair_style_t style, bool noheader)
{
	static const char *head[] = { "Learnt",	 "Fraction", "MinFraction",
				      "MaxFraction", "Admitted", "Sized",
				      "Refused",	 "Dropped",  "Killed" };
	const sfair_justice_t *j = r->justice;
	const double f[] = { j->fraction, j->min, j->max };
	json_object *doc;
	const long n[] = { j->counts.admitted, j->counts.sized,
			   j->counts.refused,  j->counts.dropped,
			   j->counts.killed };
	cells_t c = { out, style, 0 };
	char text[64];
	size_t i;

	if (style == SFAIR_JSON) { /* Justice alone: no usage to report */
		doc = json_object_new_object();
		if (doc) {
			json_object_object_add(doc, "justice", _justice_json(j));
			fprintf(out, "%s\n",
				json_object_to_json_string_ext(
					doc, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(doc);
		}
		return;
	}
	if (!noheader) {
		for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
			_cell(&c, 12, head[i]);
		if (style == SFAIR_PARSABLE)
			fputc('|', out);
		fputc('\n', out);
	}
	c.col = 0;
	snprintf(text, sizeof(text), "%ld", j->jobs);
	_cell(&c, 12, text);
	for (i = 0; i < 3; i++) {
		if (isfinite(f[i]))
			snprintf(text, sizeof(text), "%.4f", f[i]);
		else
			snprintf(text, sizeof(text), "-");
		_cell(&c, 12, text);
	}
	for (i = 0; i < 5; i++) {
		snprintf(text, sizeof(text), "%ld", n[i]);
		_cell(&c, 12, text);
	}
	if (style == SFAIR_PARSABLE)
		fputc('|', out);
	fputc('\n', out);
}

void sfair_report_print(FILE *out, const sfair_report_t *r,
			const sfair_field_t *fields, int nfields,
			sfair_style_t style, bool noheader)
{
	if (style == SFAIR_JSON) {
		_json(out, r);
		return;
	}
	if (!noheader)
		_line(out, r, fields, nfields, style, NULL);
	for (int a = 0; a < r->nrows; a++)
		_line(out, r, fields, nfields, style, &r->rows[a]);
}
