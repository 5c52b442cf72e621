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

static const struct {
	const char *name;
	sfair_ctld_kind_t kind;
	int width; /* negative: left-aligned */
} known[] = {
	{ "Account", SFAIR_C_ACCOUNT, -16 },
	{ "User", SFAIR_C_USER, -10 },
	{ "Partition", SFAIR_C_PARTITION, -10 },
	{ "RawShares", SFAIR_C_RAWSHARES, 10 },
	{ "NormShares", SFAIR_C_NORMSHARES, 11 },
	{ "RawUsage", SFAIR_C_RAWUSAGE, 12 },
	{ "NormUsage", SFAIR_C_NORMUSAGE, 11 },
	{ "EffectvUsage", SFAIR_C_EFCTVUSAGE, 13 },
	{ "FairShare", SFAIR_C_FAIRSHARE, 10 },
	{ "Usage", SFAIR_C_USAGE, 14 },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* sfair's fields that need the plugins' files, to say so when asked. */
static const char *const files_only[] = {
	"Used",		"NonSharing",	 "Beta",
	"LastStart",	"WindowStart",	 "WindowEnd",
	"Progress",	"ProgressShare", "FairProgressShare",
	"Contribution", "DominantShare", "AggregateShare",
	"SharingLoss",
};

static int _tres(const sfair_assocs_t *a, const char *name)
{
	for (int i = 0; i < a->ntres; i++)
		if (!strcasecmp(a->tres[i], name))
			return i;
	return -1;
}

int sfair_ctld_fields_parse(const char *list, const sfair_assocs_t *a,
			    sfair_ctld_field_t *fields, char *err, size_t len)
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

		if (pct) {
			char *end;

			*pct = '\0';
			width = strtol(pct + 1, &end, 10);
			if (end == pct + 1 || *end || width < 1 ||
			    width > 200) {
				snprintf(
					err, len,
					"--format: %s%%%s: a width is a number from 1 to 200",
					item, pct + 1);
				return -1;
			}
		}
		if ((colon = strchr(item, ':')))
			*colon = '\0';
		for (k = 0; k < NKNOWN; k++)
			if (!strcasecmp(item, known[k].name))
				break;
		if (k == NKNOWN) {
			for (size_t f = 0;
			     f < sizeof(files_only) / sizeof(files_only[0]);
			     f++)
				if (!strcasecmp(item, files_only[f])) {
					snprintf(
						err, len,
						"--format: %s is in the plugins' files in StateSaveLocation, which sfair cannot read here; slurmctld's view has Account, User, Partition, RawShares, NormShares, RawUsage, NormUsage, EffectvUsage, FairShare, Usage[:TRES]",
						files_only[f]);
					return -1;
				}
			snprintf(
				err, len,
				"--format: unknown field '%s' (slurmctld's view: Account, User, Partition, RawShares, NormShares, RawUsage, NormUsage, EffectvUsage, FairShare, Usage[:TRES])",
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
		fields[n].width = known[k].width < 0 ? -(int)width : (int)width;
		if (colon) {
			if (known[k].kind != SFAIR_C_USAGE) {
				snprintf(
					err, len,
					"--format: field '%s' takes no ':TRES'",
					item);
				return -1;
			}
			fields[n].tres = _tres(a, colon + 1);
			if (fields[n].tres < 0) {
				snprintf(
					err, len,
					"--format: Usage:%s: slurmctld tracks no TRES '%s'",
					colon + 1, colon + 1);
				return -1;
			}
		}
		n++;
	}
	return n;
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
	for (size_t k = 0; k < NKNOWN; k++)
		if (known[k].kind == kind)
			return known[k].width;
	return 12;
}

static const char *_name(sfair_ctld_kind_t kind)
{
	for (size_t k = 0; k < NKNOWN; k++)
		if (known[k].kind == kind)
			return known[k].name;
	return "?";
}

typedef struct cells {
	FILE *out;
	sfair_style_t style;
	int col;
} cells_t;

static void _cell(cells_t *c, int width, bool cut, const char *text)
{
	int prec = cut ? abs(width) : (int)strlen(text);

	if (c->style == SFAIR_TABLE) {
		fprintf(c->out, c->col ? " %*.*s" : "%*.*s", width, prec, text);
	} else {
		if (c->col)
			fputc('|', c->out);
		fputs(text, c->out);
	}
	c->col++;
}

/* The cells of field f for row r (the header when r is NULL). */
static void _cells(cells_t *c, const sfair_assocs_t *a,
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
			_cell(c, w, cut, text);
		}
		return;
	}
	if (!r) {
		_cell(c, w, cut, _name(f->kind));
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
	_cell(c, w, cut, text);
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
	cells_t c = { out, style, 0 };

	for (int i = 0; i < nfields; i++)
		_cells(&c, a, &fields[i], r);
	if (style == SFAIR_PARSABLE)
		fputc('|', out);
	fputc('\n', out);
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
