/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.c - see columns.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "columns.h"

void sfair_cell(sfair_cells_t *c, int width, bool cut, const char *text)
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

void sfair_cells_end(sfair_cells_t *c)
{
	if (c->style == SFAIR_PARSABLE)
		fputc('|', c->out);
	fputc('\n', c->out);
	c->col = 0;
}

/* Split an item in place: "Name", "Name:TRES", "Name%WIDTH",
 * "Name:TRES%WIDTH".  0, or -1 with err naming a bad width. */
static int _split(char *item, char **tres, int *width, char *err, size_t len)
{
	char *pct = strchr(item, '%'), *colon;

	*width = 0;
	if (pct) {
		char *end;
		long w;

		*pct = '\0';
		w = strtol(pct + 1, &end, 10);
		if (end == pct + 1 || *end || w < 1 || w > 200) {
			snprintf(
				err, len,
				"--format: %s%%%s: a width is a number from 1 to 200",
				item, pct + 1);
			return -1;
		}
		*width = (int)w;
	}
	colon = strchr(item, ':');
	if (colon)
		*colon++ = '\0';
	*tres = colon;
	return 0;
}

/* "unknown field 'X' (A, B[:TRES], ...)" */
static void _unknown(const char *item, const sfair_column_t *known, int nknown,
		     char *err, size_t len)
{
	size_t at = (size_t)snprintf(err, len, "--format: unknown field '%s' (",
				     item);

	for (int k = 0; k < nknown && at < len; k++)
		at += (size_t)snprintf(err + at, len - at, "%s%s%s",
				       k ? ", " : "", known[k].name,
				       known[k].per_tres ? "[:TRES]" : "");
	if (at < len)
		snprintf(err + at, len - at, ")");
}

static int _tres(const char *const *tres, int ntres, const char *name)
{
	for (int i = 0; i < ntres; i++)
		if (!strcasecmp(tres[i], name))
			return i;
	return -1;
}

int sfair_format_parse(const char *list, const sfair_column_t *known,
		       int nknown, const char *const *tres, int ntres,
		       const char *tres_where, sfair_elsewhere_fn elsewhere,
		       sfair_pick_t *picks, char *err, size_t len)
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
		char *t;
		int width, k;

		if (_split(item, &t, &width, err, len))
			return -1;
		for (k = 0; k < nknown; k++)
			if (!strcasecmp(item, known[k].name))
				break;
		if (k == nknown) {
			if (!elsewhere || !elsewhere(item, err, len))
				_unknown(item, known, nknown, err, len);
			return -1;
		}
		if (n == SFAIR_MAX_FIELDS) {
			snprintf(err, len, "--format: more than %d fields",
				 SFAIR_MAX_FIELDS);
			return -1;
		}
		picks[n].kind = known[k].kind;
		picks[n].tres = -1;
		/* Left-aligned fields keep their side. */
		picks[n].width = known[k].width < 0 ? -width : width;
		if (t && !known[k].per_tres) {
			snprintf(err, len,
				 "--format: field '%s' takes no ':TRES'", item);
			return -1;
		}
		if (t && (picks[n].tres = _tres(tres, ntres, t)) < 0) {
			snprintf(err, len, "--format: %s:%s: no TRES '%s' %s",
				 item, t, t, tres_where);
			return -1;
		}
		n++;
	}
	return n;
}

const char *sfair_column_name(const sfair_column_t *known, int nknown, int kind)
{
	for (int k = 0; k < nknown; k++)
		if (known[k].kind == kind)
			return known[k].name;
	return "?";
}

int sfair_column_width(const sfair_column_t *known, int nknown, int kind)
{
	for (int k = 0; k < nknown; k++)
		if (known[k].kind == kind)
			return known[k].width;
	return 12;
}
