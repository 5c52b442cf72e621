/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_report.c - print slurmctld's associations: see ctld_report.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "horae_config.h"

#include "ctld_report.h"

static const sfair_column_t known[] = {
	{ "Account", SFAIR_C_ACCOUNT, -16, false },
	{ "User", SFAIR_C_USER, -10, false },
	{ "Partition", SFAIR_C_PARTITION, -10, false },
	{ "RawShares", SFAIR_C_RAWSHARES, 10, false },
	{ "NormShares", SFAIR_C_NORMSHARES, 11, false },
	{ "RawUsage", SFAIR_C_RAWUSAGE, 12, false },
	{ "NormUsage", SFAIR_C_NORMUSAGE, 11, false },
	{ "EffectvUsage", SFAIR_C_EFCTVUSAGE, 13, false },
	{ "FairShare", SFAIR_C_FAIRSHARE, 10, false },
	{ "Usage", SFAIR_C_USAGE, 14, true },
};
#define NKNOWN ((int)(sizeof(known) / sizeof(known[0])))

/* sfair's fields that need the plugins' files, to say so when asked. */
static const char *const files_only[] = {
	"Used",		"NonSharing",	 "Beta",
	"LastStart",	"WindowStart",	 "WindowEnd",
	"Progress",	"ProgressShare", "FairProgressShare",
	"Contribution", "DominantShare", "AggregateShare",
	"SharingLoss",
};

static bool _files_only(const char *name, char *err, size_t len)
{
	for (size_t f = 0; f < sizeof(files_only) / sizeof(files_only[0]); f++)
		if (!strcasecmp(name, files_only[f])) {
			snprintf(
				err, len,
				"--format: %s is in the plugins' files in StateSaveLocation, which sfair cannot read here; slurmctld's view has Account, User, Partition, RawShares, NormShares, RawUsage, NormUsage, EffectvUsage, FairShare, Usage[:TRES]",
				files_only[f]);
			return true;
		}
	return false;
}

int sfair_ctld_fields_parse(const char *list, const sfair_assocs_t *a,
			    sfair_ctld_field_t *fields, char *err, size_t len)
{
	return sfair_format_parse(
		list, known, NKNOWN, (const char *const *)a->tres, a->ntres,
		"that slurmctld tracks", _files_only, fields, err, len);
}

int sfair_ctld_fields_default(const sfair_assocs_t *a, bool long_list,
			      sfair_ctld_field_t *fields)
{
	bool users = false, parts = false;
	int n = 0;

	for (int i = 0; i < a->nrows; i++) {
		users |= a->rows[i].user != NULL;
		parts |= a->rows[i].partition != NULL;
	}
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_ACCOUNT, -1, 0 };
	if (users)
		fields[n++] = (sfair_ctld_field_t){ SFAIR_C_USER, -1, 0 };
	if (long_list && parts)
		fields[n++] = (sfair_ctld_field_t){ SFAIR_C_PARTITION, -1, 0 };
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_RAWSHARES, -1, 0 };
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_NORMSHARES, -1, 0 };
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_RAWUSAGE, -1, 0 };
	if (long_list)
		fields[n++] = (sfair_ctld_field_t){ SFAIR_C_NORMUSAGE, -1, 0 };
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_EFCTVUSAGE, -1, 0 };
	fields[n++] = (sfair_ctld_field_t){ SFAIR_C_FAIRSHARE, -1, 0 };
	if (long_list)
		fields[n++] = (sfair_ctld_field_t){ SFAIR_C_USAGE, -1, 0 };
	return n;
}

static int _width(sfair_ctld_kind_t kind)
{
	return sfair_column_width(known, NKNOWN, kind);
}

static const char *_name(sfair_ctld_kind_t kind)
{
	return sfair_column_name(known, NKNOWN, kind);
}

/* The cells of field f for row r (the header when r is NULL). */
static void _cells(sfair_cells_t *c, const sfair_assocs_t *a,
		   const sfair_ctld_field_t *f, const sfair_assoc_t *r)
{
	int w = f->width ? f->width : _width(f->kind);
	bool cut = f->width != 0;
	char text[160];

	if (f->kind == SFAIR_C_USAGE) {
		int lo = f->tres >= 0 ? f->tres : 0;
		int hi = f->tres >= 0 ? f->tres + 1 : a->ntres;

		for (int i = lo; i < hi; i++) {
			if (r)
				snprintf(text, sizeof(text), "%.0f",
					 r->tres_usage[i]);
			else
				snprintf(text, sizeof(text), "Usage:%s",
					 a->tres[i]);
			sfair_cell(c, w, cut, text);
		}
		return;
	}
	if (!r) {
		sfair_cell(c, w, cut, _name(f->kind));
		return;
	}
	switch (f->kind) {
	case SFAIR_C_ACCOUNT:
		snprintf(text, sizeof(text), "%s", r->account);
		break;
	case SFAIR_C_USER:
		snprintf(text, sizeof(text), "%s", r->user ? r->user : "");
		break;
	case SFAIR_C_PARTITION:
		snprintf(text, sizeof(text), "%s",
			 r->partition ? r->partition : "");
		break;
	case SFAIR_C_RAWSHARES:
		snprintf(text, sizeof(text), "%u", r->raw_shares);
		break;
	case SFAIR_C_NORMSHARES:
		snprintf(text, sizeof(text), "%.6f", r->norm_shares);
		break;
	case SFAIR_C_RAWUSAGE:
		snprintf(text, sizeof(text), "%.0f", r->raw_usage);
		break;
	case SFAIR_C_NORMUSAGE:
		snprintf(text, sizeof(text), "%.6f", r->norm_usage);
		break;
	case SFAIR_C_EFCTVUSAGE:
		snprintf(text, sizeof(text), "%.6f", r->efctv_usage);
		break;
	case SFAIR_C_FAIRSHARE:
		snprintf(text, sizeof(text), "%.6f", r->fair_share);
		break;
	default:
		snprintf(text, sizeof(text), "?");
	}
	sfair_cell(c, w, cut, text);
}

static json_object *_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void _json(FILE *out, const sfair_assocs_t *a, double at)
{
	json_object *doc = json_object_new_object();
	json_object *meta = json_object_new_object();
	json_object *tres = json_object_new_array();
	json_object *rows = json_object_new_array();
	char when[64];
	time_t t = (time_t)at;
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime_r(&t, &tm));
	json_object_object_add(meta, "command",
			       json_object_new_string("sfair"));
	json_object_object_add(meta, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(meta, "source",
			       json_object_new_string("slurmctld"));
	json_object_object_add(meta, "cluster", _str(a->cluster));
	json_object_object_add(meta, "at", json_object_new_string(when));
	for (int i = 0; i < a->ntres; i++)
		json_object_array_add(tres, json_object_new_string(a->tres[i]));
	for (int k = 0; k < a->nrows; k++) {
		const sfair_assoc_t *r = &a->rows[k];
		json_object *o = json_object_new_object();
		json_object *u = json_object_new_object();

		json_object_object_add(o, "account", _str(r->account));
		json_object_object_add(o, "user", _str(r->user));
		json_object_object_add(o, "parent", _str(r->parent));
		json_object_object_add(o, "partition", _str(r->partition));
		json_object_object_add(o, "raw_shares",
				       json_object_new_int64(r->raw_shares));
		json_object_object_add(o, "norm_shares",
				       json_object_new_double(r->norm_shares));
		json_object_object_add(o, "raw_usage",
				       json_object_new_double(r->raw_usage));
		json_object_object_add(o, "norm_usage",
				       json_object_new_double(r->norm_usage));
		json_object_object_add(o, "effective_usage",
				       json_object_new_double(r->efctv_usage));
		json_object_object_add(o, "fair_share",
				       json_object_new_double(r->fair_share));
		for (int i = 0; i < a->ntres; i++)
			json_object_object_add(
				u, a->tres[i],
				json_object_new_double(r->tres_usage[i]));
		json_object_object_add(o, "usage", u);
		json_object_array_add(rows, o);
	}
	json_object_object_add(doc, "meta", meta);
	json_object_object_add(doc, "tres", tres);
	json_object_object_add(doc, "associations", rows);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

static void _line(FILE *out, const sfair_assocs_t *a,
		  const sfair_ctld_field_t *fields, int nfields,
		  sfair_style_t style, const sfair_assoc_t *r)
{
	sfair_cells_t c = { out, style, 0 };

	for (int i = 0; i < nfields; i++)
		_cells(&c, a, &fields[i], r);
	sfair_cells_end(&c);
}

void sfair_ctld_print(FILE *out, const sfair_assocs_t *a,
		      const sfair_ctld_field_t *fields, int nfields,
		      sfair_style_t style, bool noheader, double at)
{
	if (style == SFAIR_JSON) {
		_json(out, a, at);
		return;
	}
	if (!noheader)
		_line(out, a, fields, nfields, style, NULL);
	for (int k = 0; k < a->nrows; k++)
		_line(out, a, fields, nfields, style, &a->rows[k]);
}
