/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_trace.c - horae-sim's JSON traces (horae-sim-trace(5)): reading, with
 * every member's type and range checked and unknown members refused so
 * that a typo never silently becomes a default, and writing, in a form the
 * reader gives back unchanged (numbers in their shortest exact decimal
 * form).  Errors name the file and the member as a path into the document,
 * "t.json: jobs[3].tasks: must be an integer >= 1", array indices from 0.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json_field.h"
#include "sim_json_check.h"
#include "sim_trace.h"

#define TRACE_VERSION 1
#define TRACE_TRES_DEFAULT "cpu,mem"
/* The most nodes a trace may expand to. */
#define TRACE_NODES_MAX 200000
/* Room for any TRES string of a layout (TRES_MAX names and numbers). */
#define TRACE_TRES_LEN (TRES_MAX * (TRES_NAME_MAX + 32))
/* Entries such as "jobs[123456]", members such as "jobs[123456].tasks". */
#define TRACE_WHERE_LEN 40
#define TRACE_AT_LEN 64

void sim_trace_free(sim_trace_t *t)
{
	if (!t)
		return;
	tres_layout_destroy(&t->layout);
	free(t->nodes);
	free(t->accounts);
	free(t->jobs);
	memset(t, 0, sizeof(*t));
}

/*
 * Reading
 */

typedef struct reader {
	const char *file; /* to open; "-": stdin */
	const char *path; /* for messages */
	horae_err_t *err;
	sim_trace_t t;
	int *node_entry; /* the nodes[] entry each node came from */
	size_t cap_nodes;
	size_t cap_accounts;
} reader_t;

static int _fail(reader_t *r, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* err = "PATH: AT: MESSAGE" ("PATH: MESSAGE" at the top). */
static int _fail(reader_t *r, const char *at, const char *fmt, ...)
{
	char msg[HORAE_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at && at[0])
		return err_set(r->err, -EINVAL, "%s: %s: %s", r->path, at, msg);
	return err_set(r->err, -EINVAL, "%s: %s", r->path, msg);
}

/* buf = "WHERE.KEY", or "KEY" at the top. */
static const char *_at(char *buf, const char *where, const char *key)
{
	snprintf(buf, TRACE_AT_LEN, "%s%s%s", where, where[0] ? "." : "", key);
	return buf;
}

static int _known_members(reader_t *r, json_object *o, const char *where,
			  const char *const *known)
{
	json_object_object_foreach(o, key, val)
	{
		const char *const *k;

		(void)val;
		for (k = known; *k && strcmp(*k, key); k++)
			;
		if (!*k)
			return _fail(r, where, "unknown member '%s'", key);
	}
	return 0;
}

/* True when o has the member key (*v is then NULL for a JSON null). */
static bool _member(json_object *o, const char *key, json_object **v)
{
	*v = NULL;
	return json_object_object_get_ex(o, key, v);
}

static int _missing(reader_t *r, const char *where, const char *key)
{
	return _fail(r, where, "missing member '%s'", key);
}

/*
 * An integer member in [min, max]; dflt when absent unless required.  A
 * max of INT_MAX or more is a sanity bound, not worth a mention unless
 * crossed.
 */
static int _int_member(reader_t *r, json_object *o, const char *where,
		       const char *key, bool required, long dflt, long min,
		       long max, long *out)
{
	char at[TRACE_AT_LEN];
	json_object *v;
	int64_t x;

	if (!_member(o, key, &v)) {
		if (required)
			return _missing(r, where, key);
		*out = dflt;
		return 0;
	}
	x = json_object_get_int64(v);
	_at(at, where, key);
	if (max >= INT_MAX && json_object_is_type(v, json_type_int) && x > max)
		return _fail(r, at, "must be at most %ld", max);
	if (!json_object_is_type(v, json_type_int) || x < min || x > max) {
		if (max >= INT_MAX)
			return _fail(r, at, "must be an integer >= %ld", min);
		return _fail(r, at, "must be an integer from %ld to %ld", min,
			     max);
	}
	*out = (long)x;
	return 0;
}

/* A number member, finite and > min (>= min unless strict). */
static int _num_member(reader_t *r, json_object *o, const char *where,
		       const char *key, bool required, double dflt, double min,
		       bool strict, double *out)
{
	char at[TRACE_AT_LEN];
	json_object *v;
	double x;

	if (!_member(o, key, &v)) {
		if (required)
			return _missing(r, where, key);
		*out = dflt;
		return 0;
	}
	if (!json_number(v, &x) || x < min || (strict && x == min))
		return _fail(r, _at(at, where, key), "must be a number %s %g",
			     strict ? ">" : ">=", min);
	*out = x;
	return 0;
}

static int _str_member(reader_t *r, json_object *o, const char *where,
		       const char *key, bool required, const char *dflt,
		       const char **out)
{
	char at[TRACE_AT_LEN];
	json_object *v;

	if (!_member(o, key, &v)) {
		if (required)
			return _missing(r, where, key);
		*out = dflt;
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return _fail(r, _at(at, where, key), "must be a string");
	*out = json_object_get_string(v);
	return 0;
}

static int _bool_member(reader_t *r, json_object *o, const char *where,
			const char *key, bool *out)
{
	char at[TRACE_AT_LEN];
	json_object *v;

	if (!_member(o, key, &v)) {
		*out = false;
		return 0;
	}
	if (!json_object_is_type(v, json_type_boolean))
		return _fail(r, _at(at, where, key), "must be true or false");
	*out = json_object_get_boolean(v);
	return 0;
}

/* Names (of nodes, accounts, features) are printable, without blanks or
 * commas, so that lists and outputs can hold them. */
static bool _name_ok(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)s[i]) || s[i] == ',')
			return false;
	return true;
}

static bool _features_ok(const char *s)
{
	const char *end;

	if (!s[0])
		return true;
	for (;; s = end + 1) {
		end = strchr(s, ',');
		if (!end)
			return _name_ok(s, strlen(s));
		if (!_name_ok(s, end - s))
			return false;
	}
}

static int _name_member(reader_t *r, json_object *o, const char *where,
			const char *key, size_t room, const char **out)
{
	char at[TRACE_AT_LEN];
	const char *s;
	int rc;

	rc = _str_member(r, o, where, key, true, NULL, &s);
	if (rc)
		return rc;
	if (!_name_ok(s, strlen(s)))
		return _fail(
			r, _at(at, where, key),
			"'%s' is not a name (printable, no blanks or commas)",
			s);
	if (strlen(s) >= room)
		return _fail(r, _at(at, where, key),
			     "'%s' is longer than %zu characters", s, room - 1);
	*out = s;
	return 0;
}

static int _tres_member(reader_t *r, json_object *o, const char *where,
			const char *key, tres_vec_t *out)
{
	char at[TRACE_AT_LEN];
	const char *s;
	horae_err_t e;
	int rc;

	rc = _str_member(r, o, where, key, true, NULL, &s);
	if (rc)
		return rc;
	if (tres_parse(r->t.layout, s, out, &e))
		return _fail(r, _at(at, where, key), "%s", e.text);
	if (tres_is_zero(out))
		return _fail(r, _at(at, where, key),
			     "'%s' is nothing: give some resource", s);
	return 0;
}

/* Read the whole of path ("-": stdin) into a NUL-terminated buffer. */
static int _slurp(reader_t *r, char **buf, size_t *len)
{
	FILE *f = strcmp(r->file, "-") ? fopen(r->file, "r") : stdin;
	size_t cap = 0, n = 0, got;
	char *b = NULL, *nb;
	int rc = 0;

	if (!f)
		return err_set(r->err, -errno, "%s: cannot open: %s", r->path,
			       strerror(errno));
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			nb = realloc(b, cap + 1);
			if (!nb) {
				rc = err_set(r->err, -ENOMEM,
					     "%s: out of memory", r->path);
				goto close;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		rc = err_set(r->err, -EIO, "%s: cannot read: %s", r->path,
			     strerror(errno));
close:
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

static int _line_of(const char *buf, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && buf[i]; i++)
		line += buf[i] == '\n';
	return line;
}

/* Parse the document; json-c's tokener also takes comments. */
static int _parse(reader_t *r, json_object **root)
{
	enum json_tokener_error jerr;
	json_object *doc = NULL;
	json_tokener *tok;
	size_t len = 0, end;
	char *buf = NULL;
	int rc;

	rc = _slurp(r, &buf, &len);
	if (rc)
		return rc;
	tok = json_tokener_new();
	if (!tok)
		rc = err_set(r->err, -ENOMEM, "%s: out of memory", r->path);
	else if (len >= INT_MAX)
		rc = _fail(r, NULL, "larger than %d bytes", INT_MAX - 1);
	/* With the NUL the tokener knows the text ends there. */
	if (!rc)
		doc = json_tokener_parse_ex(tok, buf, (int)len + 1);
	/* Valid for json-c: then no single quotes, trailing commas or key
	 * given twice either. */
	if (!rc && doc)
		rc = sim_json_check(buf, len, r->path, r->err);
	if (!rc && !doc) {
		jerr = json_tokener_get_error(tok);
		end = json_tokener_get_parse_end(tok);
		rc = _fail(r, NULL, "line %d: not valid JSON: %s",
			   _line_of(buf, end), json_tokener_error_desc(jerr));
	} else if (!rc) {
		end = json_tokener_get_parse_end(tok);
		if (end < len && buf[end + strspn(buf + end, " \t\r\n")])
			rc = _fail(r, NULL,
				   "line %d: text after the JSON document",
				   _line_of(buf, end));
	}
	if (rc)
		json_object_put(doc);
	else
		*root = doc;
	free(buf);
	json_tokener_free(tok);
	return rc;
}

static int _read_layout(reader_t *r, json_object *doc)
{
	const char *names;
	json_object *v;
	horae_err_t e;
	int rc;

	if (!_member(doc, "version", &v))
		return _missing(r, "", "version");
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != TRACE_VERSION)
		return _fail(r, "version", "must be %d", TRACE_VERSION);
	rc = _str_member(r, doc, "", "tres", false, TRACE_TRES_DEFAULT, &names);
	if (rc)
		return rc;
	r->t.layout = tres_layout_create(names, &e);
	if (!r->t.layout)
		return errno == ENOMEM ? err_set(r->err, -ENOMEM,
						 "%s: out of memory", r->path) :
					 _fail(r, "tres", "%s", e.text);
	return 0;
}

/* An array member: its length, or an error unless absent and optional. */
static int _array_member(reader_t *r, json_object *doc, const char *key,
			 bool required, size_t *n, json_object **out)
{
	json_object *v;

	*out = NULL;
	*n = 0;
	if (!_member(doc, key, &v))
		return required ? _missing(r, "", key) : 0;
	if (!json_object_is_type(v, json_type_array))
		return _fail(r, key, "must be an array");
	*n = json_object_array_length(v);
	*out = v;
	return 0;
}

static int _entry(reader_t *r, json_object *arr, const char *key, size_t i,
		  const char *const *known, char *where, json_object **out)
{
	json_object *o = json_object_array_get_idx(arr, i);

	snprintf(where, TRACE_WHERE_LEN, "%s[%zu]", key, i);
	if (!json_object_is_type(o, json_type_object))
		return _fail(r, where, "must be an object");
	*out = o;
	return _known_members(r, o, where, known);
}

static const char *const node_members[] = { "name",  "count",	 "tres",
					    "speed", "features", NULL };

/* Room for count more nodes. */
static int _grow_nodes(reader_t *r, const char *where, long count)
{
	size_t cap = r->cap_nodes ? r->cap_nodes : 64;
	sim_node_t *n;
	int *e;

	if (r->t.nnodes + count > TRACE_NODES_MAX)
		return _fail(r, where, "more than %d nodes in all",
			     TRACE_NODES_MAX);
	while (cap < (size_t)(r->t.nnodes + count))
		cap *= 2;
	if (cap == r->cap_nodes)
		return 0;
	n = realloc(r->t.nodes, cap * sizeof(*n));
	if (n)
		r->t.nodes = n;
	e = realloc(r->node_entry, cap * sizeof(*e));
	if (e)
		r->node_entry = e;
	if (!n || !e)
		return err_set(r->err, -ENOMEM, "%s: out of memory", r->path);
	r->cap_nodes = cap;
	return 0;
}

static int _read_node(reader_t *r, json_object *o, const char *where,
		      size_t entry)
{
	char at[TRACE_AT_LEN];
	const char *name, *features;
	tres_vec_t cap;
	double speed;
	long count;
	int rc;

	rc = _int_member(r, o, where, "count", false, 1, 1, TRACE_NODES_MAX,
			 &count);
	if (!rc)
		rc = _name_member(r, o, where, "name", SIM_NAME_MAX, &name);
	if (!rc && count > 1 &&
	    strlen(name) + snprintf(NULL, 0, "%ld", count) >= SIM_NAME_MAX)
		rc = _fail(
			r, _at(at, where, "name"),
			"'%s' and an index up to %ld are longer than %d characters",
			name, count, SIM_NAME_MAX - 1);
	if (!rc)
		rc = _tres_member(r, o, where, "tres", &cap);
	if (!rc)
		rc = _num_member(r, o, where, "speed", false, 1.0, 0, true,
				 &speed);
	if (!rc)
		rc = _grow_nodes(r, where, count);
	if (!rc)
		rc = _str_member(r, o, where, "features", false, "", &features);
	if (!rc && !_features_ok(features))
		rc = _fail(r, _at(at, where, "features"),
			   "'%s' is not a comma-separated list of names",
			   features);
	if (!rc && strlen(features) >= SIM_FEATURES_MAX)
		rc = _fail(r, _at(at, where, "features"),
			   "longer than %d characters", SIM_FEATURES_MAX - 1);
	if (rc)
		return rc;
	for (long k = 1; k <= count; k++) {
		sim_node_t *n = &r->t.nodes[r->t.nnodes];

		memset(n, 0, sizeof(*n));
		if (count == 1)
			snprintf(n->name, sizeof(n->name), "%s", name);
		else
			snprintf(n->name, sizeof(n->name), "%s%ld", name, k);
		n->capacity = cap;
		n->speed = speed;
		snprintf(n->features, sizeof(n->features), "%s", features);
		r->node_entry[r->t.nnodes++] = (int)entry;
	}
	return 0;
}

static int _cmp_node_name(const void *a, const void *b)
{
	return strcmp((*(sim_node_t *const *)a)->name,
		      (*(sim_node_t *const *)b)->name);
}

static int _unique_node_names(reader_t *r)
{
	sim_node_t **by_name = malloc(r->t.nnodes * sizeof(*by_name) + 1);
	char where[TRACE_WHERE_LEN];
	int rc = 0;

	if (!by_name)
		return err_set(r->err, -ENOMEM, "%s: out of memory", r->path);
	for (int i = 0; i < r->t.nnodes; i++)
		by_name[i] = &r->t.nodes[i];
	qsort(by_name, r->t.nnodes, sizeof(*by_name), _cmp_node_name);
	for (int i = 1; !rc && i < r->t.nnodes; i++) {
		int a = (int)(by_name[i - 1] - r->t.nodes);
		int b = (int)(by_name[i] - r->t.nodes);

		if (strcmp(by_name[i]->name, by_name[i - 1]->name))
			continue;
		if (a > b) {
			int x = a;

			a = b;
			b = x;
		}
		snprintf(where, sizeof(where), "nodes[%d]", r->node_entry[b]);
		rc = _fail(r, where,
			   "node name '%s' appears twice (also nodes[%d])",
			   r->t.nodes[b].name, r->node_entry[a]);
	}
	free(by_name);
	return rc;
}

static int _read_nodes(reader_t *r, json_object *doc)
{
	char where[TRACE_WHERE_LEN];
	json_object *arr, *o;
	size_t n;
	int rc;

	rc = _array_member(r, doc, "nodes", true, &n, &arr);
	if (!rc && n == 0)
		rc = _fail(r, "nodes", "must list at least one node");
	for (size_t i = 0; !rc && i < n; i++) {
		rc = _entry(r, arr, "nodes", i, node_members, where, &o);
		if (!rc)
			rc = _read_node(r, o, where, i);
	}
	return rc ? rc : _unique_node_names(r);
}

static int _find_account(const sim_trace_t *t, const char *name)
{
	for (int i = 0; i < t->naccounts; i++)
		if (!strcmp(t->accounts[i].name, name))
			return i;
	return -1;
}

static int _add_account(reader_t *r, const char *name, double weight)
{
	sim_account_t *a;

	if ((size_t)r->t.naccounts == r->cap_accounts) {
		size_t cap = r->cap_accounts ? 2 * r->cap_accounts : 16;

		if (cap > INT_MAX)
			return _fail(r, NULL, "more than %d accounts", INT_MAX);
		a = realloc(r->t.accounts, cap * sizeof(*a));
		if (!a)
			return err_set(r->err, -ENOMEM, "%s: out of memory",
				       r->path);
		r->t.accounts = a;
		r->cap_accounts = cap;
	}
	a = &r->t.accounts[r->t.naccounts++];
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->weight = weight;
	return 0;
}

static int _read_accounts(reader_t *r, json_object *doc)
{
	static const char *const known[] = { "name", "weight", NULL };
	char where[TRACE_WHERE_LEN], at[TRACE_AT_LEN];
	json_object *arr, *o;
	const char *name;
	double weight, sum = 0;
	size_t n;
	int rc;

	rc = _array_member(r, doc, "accounts", false, &n, &arr);
	for (size_t i = 0; !rc && i < n; i++) {
		rc = _entry(r, arr, "accounts", i, known, where, &o);
		if (!rc)
			rc = _name_member(r, o, where, "name", SIM_NAME_MAX,
					  &name);
		if (!rc)
			rc = _num_member(r, o, where, "weight", false, 1, 0,
					 true, &weight);
		if (!rc && _find_account(&r->t, name) >= 0)
			rc = _fail(r, _at(at, where, "name"),
				   "account '%s' appears twice", name);
		if (!rc)
			rc = _add_account(r, name, weight);
		/* Shares divide by the sum of the weights: it must be a
		 * number. */
		if (!rc) {
			sum += weight;
			if (!isfinite(sum))
				rc = _fail(r, _at(at, where, "weight"),
					   "the weights so far sum to more "
					   "than %g",
					   DBL_MAX);
		}
	}
	return rc;
}

static const char *const job_members[] = {
	"id",	"account",  "submit",	"tasks",      "min_tasks", "task_tres",
	"work", "moldable", "deadline", "constraint", NULL
};

static int _job_account(reader_t *r, json_object *o, const char *where,
			sim_job_t *j)
{
	const char *name;
	int rc;

	rc = _name_member(r, o, where, "account", SIM_NAME_MAX, &name);
	if (rc)
		return rc;
	j->account = _find_account(&r->t, name);
	if (j->account >= 0)
		return 0;
	j->account = r->t.naccounts;
	return _add_account(r, name, 1.0);
}

static int _job_constraint(reader_t *r, json_object *o, const char *where,
			   sim_job_t *j)
{
	char at[TRACE_AT_LEN];
	const char *c;
	int rc;

	rc = _str_member(r, o, where, "constraint", false, "", &c);
	if (rc || !c[0])
		return rc;
	_at(at, where, "constraint");
	if (!_name_ok(c, strlen(c)))
		return _fail(r, at, "'%s' is not a feature name", c);
	if (strlen(c) >= SIM_NAME_MAX)
		return _fail(r, at, "'%s' is longer than %d characters", c,
			     SIM_NAME_MAX - 1);
	for (int i = 0; i < r->t.nnodes; i++)
		if (sim_has_feature(r->t.nodes[i].features, c)) {
			snprintf(j->constraint, sizeof(j->constraint), "%s", c);
			return 0;
		}
	return _fail(r, at, "no node has feature '%s'", c);
}

/* A task must fit on some node the job may use, or it never runs. */
static int _job_fits(reader_t *r, const char *where, const sim_job_t *j)
{
	char s[TRACE_TRES_LEN];

	for (int i = 0; i < r->t.nnodes; i++)
		if ((!j->constraint[0] ||
		     sim_has_feature(r->t.nodes[i].features, j->constraint)) &&
		    tres_fits(&j->demand, &r->t.nodes[i].capacity))
			return 0;
	tres_format(r->t.layout, &j->demand, s, sizeof(s));
	if (j->constraint[0])
		return _fail(
			r, where,
			"job %ld: a task (%s) fits on no node with feature '%s'",
			j->id, s, j->constraint);
	return _fail(r, where, "job %ld: a task (%s) fits on no node", j->id,
		     s);
}

static int _read_job(reader_t *r, json_object *o, const char *where, size_t i,
		     sim_job_t *j)
{
	char at[TRACE_AT_LEN];
	long tasks, min_tasks;
	int rc;

	rc = _int_member(r, o, where, "id", false, (long)i + 1, 1, LONG_MAX,
			 &j->id);
	if (!rc)
		rc = _job_account(r, o, where, j);
	if (!rc)
		rc = _num_member(r, o, where, "submit", false, 0, 0, false,
				 &j->submit);
	if (!rc)
		rc = _int_member(r, o, where, "tasks", true, 0, 1, INT_MAX,
				 &tasks);
	if (!rc)
		rc = _int_member(r, o, where, "min_tasks", false, tasks, 1,
				 tasks, &min_tasks);
	if (!rc)
		rc = _tres_member(r, o, where, "task_tres", &j->demand);
	if (!rc)
		rc = _num_member(r, o, where, "work", true, 0, 0, true,
				 &j->work);
	if (!rc)
		rc = _bool_member(r, o, where, "moldable", &j->moldable);
	if (!rc)
		rc = _num_member(r, o, where, "deadline", false, 0, 0, false,
				 &j->deadline);
	if (!rc && j->deadline != 0 && j->deadline <= j->submit)
		rc = _fail(r, _at(at, where, "deadline"),
			   "must be 0 (none) or later than submit (%g)",
			   j->submit);
	if (!rc)
		rc = _job_constraint(r, o, where, j);
	if (rc)
		return rc;
	j->tasks = (int)tasks;
	j->min_tasks = (int)min_tasks;
	return _job_fits(r, where, j);
}

static int _cmp_job_id(const void *a, const void *b)
{
	const sim_job_t *x = *(const sim_job_t *const *)a;
	const sim_job_t *y = *(const sim_job_t *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int _unique_job_ids(reader_t *r)
{
	sim_job_t **by_id = malloc(r->t.njobs * sizeof(*by_id) + 1);
	char where[TRACE_WHERE_LEN];
	int rc = 0;

	if (!by_id)
		return err_set(r->err, -ENOMEM, "%s: out of memory", r->path);
	for (size_t i = 0; i < r->t.njobs; i++)
		by_id[i] = &r->t.jobs[i];
	qsort(by_id, r->t.njobs, sizeof(*by_id), _cmp_job_id);
	for (size_t i = 1; !rc && i < r->t.njobs; i++) {
		if (by_id[i]->id != by_id[i - 1]->id)
			continue;
		snprintf(where, sizeof(where), "jobs[%td]",
			 by_id[i] - r->t.jobs);
		rc = _fail(r, where, "id %ld appears twice (also jobs[%td])",
			   by_id[i]->id, by_id[i - 1] - r->t.jobs);
	}
	free(by_id);
	return rc;
}

static int _cmp_job(const void *a, const void *b)
{
	const sim_job_t *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int _read_jobs(reader_t *r, json_object *doc)
{
	char where[TRACE_WHERE_LEN];
	json_object *arr, *o;
	size_t n;
	int rc;

	rc = _array_member(r, doc, "jobs", true, &n, &arr);
	if (rc)
		return rc;
	r->t.jobs = calloc(n + 1, sizeof(*r->t.jobs));
	if (!r->t.jobs)
		return err_set(r->err, -ENOMEM, "%s: out of memory", r->path);
	for (size_t i = 0; i < n; i++) {
		rc = _entry(r, arr, "jobs", i, job_members, where, &o);
		if (!rc)
			rc = _read_job(r, o, where, i, &r->t.jobs[i]);
		if (rc)
			return rc;
		r->t.njobs++;
	}
	rc = _unique_job_ids(r);
	if (!rc)
		qsort(r->t.jobs, r->t.njobs, sizeof(*r->t.jobs), _cmp_job);
	return rc;
}

static int _read_doc(reader_t *r, json_object *doc)
{
	static const char *const known[] = { "version",	 "tres", "nodes",
					     "accounts", "jobs", NULL };
	int rc;

	if (!json_object_is_type(doc, json_type_object))
		return _fail(r, NULL, "the trace must be a JSON object");
	rc = _known_members(r, doc, "", known);
	if (!rc)
		rc = _read_layout(r, doc);
	if (!rc)
		rc = _read_nodes(r, doc);
	if (!rc)
		rc = _read_accounts(r, doc);
	if (!rc)
		rc = _read_jobs(r, doc);
	return rc;
}

int sim_trace_read_json(const char *path, sim_trace_t *out, horae_err_t *err)
{
	reader_t r = { .file = path, .path = path, .err = err };
	json_object *doc;
	int rc;

	if (!path || !out)
		return err_set(err, -EINVAL, "no trace file or no trace");
	if (!strcmp(path, "-"))
		r.path = "stdin";
	rc = _parse(&r, &doc);
	if (rc)
		return rc;
	rc = _read_doc(&r, doc);
	json_object_put(doc);
	free(r.node_entry);
	if (rc) {
		sim_trace_free(&r.t);
		return rc;
	}
	*out = r.t;
	return 0;
}

/*
 * Writing
 */

typedef struct writer {
	const sim_trace_t *t;
	bool ok; /* false once an allocation failed */
} writer_t;

/* The shortest of %.15g and %.17g that reads back as d. */
static void _num_text(double d, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", d);
	if (strtod(buf, NULL) != d)
		snprintf(buf, len, "%.17g", d);
}

/* Whole numbers as JSON integers, others in their shortest exact form. */
static json_object *_num(double d)
{
	char buf[40];

	if (d == floor(d) && fabs(d) < 1e15)
		return json_object_new_int64((int64_t)d);
	_num_text(d, buf, sizeof(buf));
	return json_object_new_double_s(d, buf);
}

static void _add(writer_t *w, json_object *o, const char *key, json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		w->ok = false;
	}
}

/*
 * tres_format() writes 15 digits, exact for every value read from a
 * string of 15 digits or fewer; a vector computed otherwise gets 17 so
 * that it reads back the same.
 */
static void _tres_text(const tres_layout_t *l, const tres_vec_t *v, char *buf,
		       size_t len)
{
	tres_vec_t back;
	size_t used = 0;
	char num[40];
	bool same = !tres_format(l, v, buf, len) &&
		    !tres_parse(l, buf, &back, NULL);

	for (int i = 0; same && i < tres_layout_count(l); i++)
		same = back.v[i] == v->v[i];
	if (same)
		return;
	buf[0] = '\0';
	for (int i = 0; i < tres_layout_count(l); i++) {
		const char *name = tres_layout_name(l, i);

		if (v->v[i] == 0)
			continue;
		_num_text(v->v[i], num, sizeof(num));
		used += snprintf(buf + used, len - used, "%s%s=%s%s",
				 used ? "," : "", name, num,
				 strcmp(name, "mem") ? "" : "M");
		if (used >= len)
			return;
	}
}

static json_object *_node_json(writer_t *w, const sim_node_t *n)
{
	json_object *o = json_object_new_object();
	char buf[TRACE_TRES_LEN];

	_tres_text(w->t->layout, &n->capacity, buf, sizeof(buf));
	_add(w, o, "name", json_object_new_string(n->name));
	_add(w, o, "tres", json_object_new_string(buf));
	if (n->speed != 1.0)
		_add(w, o, "speed", _num(n->speed));
	if (n->features[0])
		_add(w, o, "features", json_object_new_string(n->features));
	return o;
}

static json_object *_account_json(writer_t *w, const sim_account_t *a)
{
	json_object *o = json_object_new_object();

	_add(w, o, "name", json_object_new_string(a->name));
	_add(w, o, "weight", _num(a->weight));
	return o;
}

static json_object *_job_json(writer_t *w, const sim_job_t *j)
{
	json_object *o = json_object_new_object();
	char buf[TRACE_TRES_LEN];

	_tres_text(w->t->layout, &j->demand, buf, sizeof(buf));
	_add(w, o, "id", json_object_new_int64(j->id));
	_add(w, o, "account",
	     json_object_new_string(w->t->accounts[j->account].name));
	_add(w, o, "submit", _num(j->submit));
	_add(w, o, "tasks", json_object_new_int(j->tasks));
	if (j->min_tasks != j->tasks)
		_add(w, o, "min_tasks", json_object_new_int(j->min_tasks));
	_add(w, o, "task_tres", json_object_new_string(buf));
	_add(w, o, "work", _num(j->work));
	if (j->moldable)
		_add(w, o, "moldable", json_object_new_boolean(true));
	if (j->constraint[0])
		_add(w, o, "constraint", json_object_new_string(j->constraint));
	if (j->deadline != 0)
		_add(w, o, "deadline", _num(j->deadline));
	return o;
}

/* Write one element of an array, on a line of its own. */
static void _put(writer_t *w, FILE *f, json_object *o, bool last)
{
	const char *s = NULL;

	if (o && w->ok)
		s = json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_SPACED |
				   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		fprintf(f, "    %s%s\n", s, last ? "" : ",");
	else
		w->ok = false;
	json_object_put(o);
}

static void _put_layout(writer_t *w, FILE *f)
{
	char names[TRES_MAX * TRES_NAME_MAX];
	size_t used = 0;
	json_object *s;

	names[0] = '\0';
	for (int i = 0; i < tres_layout_count(w->t->layout); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 i ? "," : "",
				 tres_layout_name(w->t->layout, i));
	s = json_object_new_string(names);
	if (!s) {
		w->ok = false;
		return;
	}
	fprintf(f, "{\n  \"version\": %d,\n  \"tres\": %s,\n", TRACE_VERSION,
		json_object_to_json_string_ext(s,
					       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(s);
}

static void _put_trace(writer_t *w, FILE *f)
{
	const sim_trace_t *t = w->t;

	_put_layout(w, f);
	fputs("  \"nodes\": [\n", f);
	for (int i = 0; i < t->nnodes; i++)
		_put(w, f, _node_json(w, &t->nodes[i]), i == t->nnodes - 1);
	fputs("  ],\n  \"accounts\": [\n", f);
	for (int i = 0; i < t->naccounts; i++)
		_put(w, f, _account_json(w, &t->accounts[i]),
		     i == t->naccounts - 1);
	fputs("  ],\n  \"jobs\": [\n", f);
	for (size_t i = 0; i < t->njobs; i++)
		_put(w, f, _job_json(w, &t->jobs[i]), i == t->njobs - 1);
	fputs("  ]\n}\n", f);
}

int sim_trace_write_json(const sim_trace_t *t, const char *path,
			 horae_err_t *err)
{
	writer_t w = { .t = t, .ok = true };
	FILE *f;
	int rc = 0;

	if (!t || !path || !t->layout || t->nnodes < 0 || t->naccounts < 0 ||
	    (t->nnodes && !t->nodes) || (t->naccounts && !t->accounts) ||
	    (t->njobs && !t->jobs))
		return err_set(err, -EINVAL, "no trace or no file to write");
	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].account < 0 ||
		    t->jobs[i].account >= t->naccounts)
			return err_set(
				err, -EINVAL,
				"%s: job %ld: account %d is not in the trace",
				path, t->jobs[i].id, t->jobs[i].account);
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return err_set(err, -errno, "%s: cannot write: %s", path,
			       strerror(errno));
	_put_trace(&w, f);
	if (!w.ok)
		rc = err_set(err, -ENOMEM, "%s: out of memory", path);
	if (fflush(f) || ferror(f))
		rc = err_set(err, errno ? -errno : -EIO, "%s: cannot write: %s",
			     path, strerror(errno ? errno : EIO));
	if (f != stdout && fclose(f) && !rc)
		rc = err_set(err, -errno, "%s: cannot write: %s", path,
			     strerror(errno));
	return rc;
}

bool sim_has_feature(const char *features, const char *name)
{
	size_t n = strlen(name);

	if (!n)
		return true;
	for (const char *p = features; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}
