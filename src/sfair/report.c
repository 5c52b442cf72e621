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

/* In the order --format's error message lists them. */
static const sfair_column_t known[] = {
	{ "Account", SFAIR_F_ACCOUNT, -16, false },
	{ "Contribution", SFAIR_F_CONTRIBUTION, 12, false },
	{ "Used", SFAIR_F_USED, 16, true },
	{ "NonSharing", SFAIR_F_NONSHARING, 20, true },
	{ "FairShare", SFAIR_F_FAIRSHARE, 16, true },
	{ "Beta", SFAIR_F_BETA, 10, false },
	{ "SharingLoss", SFAIR_F_LOSS, 11, false },
	{ "DominantShare", SFAIR_F_DOMINANT, 13, false },
	{ "AggregateShare", SFAIR_F_AGGREGATE, 14, false },
	{ "LastStart", SFAIR_F_LASTSTART, 20, false },
	{ "WindowStart", SFAIR_F_WINDOWSTART, 20, false },
	{ "WindowEnd", SFAIR_F_WINDOWEND, 20, false },
	{ "Progress", SFAIR_F_PROGRESS, 14, false },
	{ "ProgressShare", SFAIR_F_PROGRESSSHARE, 14, false },
	{ "FairProgressShare", SFAIR_F_FAIRPROGRESS, 18, false },
};
#define NKNOWN ((int)(sizeof(known) / sizeof(known[0])))

int sfair_fields_parse(const char *list, const sfair_report_t *r,
		       sfair_field_t *fields, char *err, size_t len)
{
	return sfair_format_parse(list, known, NKNOWN, r->tres, r->ntres,
				  "in the state file", NULL, fields, err, len);
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
	return sfair_column_width(known, NKNOWN, kind);
}

static const char *_name(sfair_kind_t kind)
{
	return sfair_column_name(known, NKNOWN, kind);
}

static void _cells(sfair_cells_t *c, const sfair_report_t *r,
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
			sfair_cell(c, w, f->width != 0, text);
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
	sfair_cell(c, w, f->width != 0, text);
}

static void _line(FILE *out, const sfair_report_t *r,
		  const sfair_field_t *fields, int nfields,
		  sfair_style_t style, const sfair_row_t *row)
{
	sfair_cells_t c = { out, style, 0 };

	for (int i = 0; i < nfields; i++)
		_cells(&c, r, &fields[i], row);
	sfair_cells_end(&c);
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
	sfair_cells_t c = { out, style, 0 };
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
			sfair_cell(&c, 12, false, head[i]);
		sfair_cells_end(&c);
	}
	snprintf(text, sizeof(text), "%ld", j->jobs);
	sfair_cell(&c, 12, false, text);
	for (i = 0; i < 3; i++) {
		if (isfinite(f[i]))
			snprintf(text, sizeof(text), "%.4f", f[i]);
		else
			snprintf(text, sizeof(text), "-");
		sfair_cell(&c, 12, false, text);
	}
	for (i = 0; i < 5; i++) {
		snprintf(text, sizeof(text), "%ld", n[i]);
		sfair_cell(&c, 12, false, text);
	}
	sfair_cells_end(&c);
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
