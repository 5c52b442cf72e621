/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_swf.c - Standard Workload Format (the Parallel Workloads Archive's
 * logs) as a horae-sim trace.  An SWF file is header comments (';'
 * lines, among them "MaxNodes: N" and "MaxProcs: N") and one line per
 * job of 18 whitespace-separated numbers, -1 where unknown.  Each job
 * becomes one cpu=1 task per processor with its run time as work, so
 * that the simulator replays the log's sizes and durations under its own
 * policies; the log's waits and placements are ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim_trace.h"

#define SWF_FIELDS 18
/* As many nodes as a JSON trace may have. */
#define SWF_NODES_MAX 200000
/* Fields we use, counted from 0. */
#define SWF_JOB 0
#define SWF_SUBMIT 1
#define SWF_RUN 3
#define SWF_ALLOC 4
#define SWF_REQ 7
#define SWF_USER 11
#define SWF_GROUP 12

static const char *const field_names[SWF_FIELDS] = {
	"job number",
	"submit time",
	"wait time",
	"run time",
	"allocated processors",
	"average CPU time",
	"used memory",
	"requested processors",
	"requested time",
	"requested memory",
	"status",
	"user id",
	"group id",
	"executable",
	"queue",
	"partition",
	"preceding job",
	"think time",
};

typedef struct swf {
	const char *path;
	horae_err_t *err;
	sim_swf_opts_t opts;
	long max_nodes, max_procs; /* from the header; 0: not given */
	char bad_header[96]; /* a header value refused, and its line */
	sim_trace_t t;
	size_t cap_jobs;
	size_t *line; /* each job's line */
	long *owner; /* each account's user (group) id */
	size_t cap_accounts;
	int last_account; /* consecutive jobs are often the same user's */
	size_t skipped;
} swf_t;

/* "MaxNodes: 128" and "MaxProcs: 128"; other comments say nothing we
 * use. */
static void _header(swf_t *s, size_t lineno, const char *line)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MaxNodes:", offsetof(swf_t, max_nodes) },
		{ "MaxProcs:", offsetof(swf_t, max_procs) },
	};
	char *end;
	long v;

	line += strspn(line, "; \t");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].key);

		if (strncasecmp(line, keys[i].key, n))
			continue;
		errno = 0;
		v = strtol(line + n, &end, 10);
		if (!errno && end != line + n && v > 0 && v <= INT_MAX)
			*(long *)((char *)s + keys[i].off) = v;
		else if (!s->bad_header[0])
			snprintf(
				s->bad_header, sizeof(s->bad_header),
				"line %zu has %s %.*s, not a count; ", lineno,
				keys[i].key,
				(int)strcspn(line + n + strspn(line + n, " \t"),
					     " \t\r\n"),
				line + n + strspn(line + n, " \t"));
	}
}

/* Split line into exactly SWF_FIELDS numbers. */
static int _fields(swf_t *s, size_t lineno, char *line, double *f)
{
	char *save = NULL, *tok, *end;
	int n = 0;

	for (tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n < SWF_FIELDS) {
			f[n] = strtod(tok, &end);
			/* Decimal only: strtod also reads "nan" and hex. */
			if (*end || !isfinite(f[n]) ||
			    tok[strspn(tok, "0123456789.-+eE")])
				return err_set(
					s->err, -EINVAL,
					"%s:%zu: field %d (%s) '%s' is not a number",
					s->path, lineno, n + 1, field_names[n],
					tok);
		}
		n++;
	}
	if (n != SWF_FIELDS)
		return err_set(s->err, -EINVAL,
			       "%s:%zu: %d fields; an SWF job line has %d",
			       s->path, lineno, n, SWF_FIELDS);
	return 0;
}

static int _whole(swf_t *s, size_t lineno, const double *f, int i, double min)
{
	if (f[i] != floor(f[i]) || f[i] < min || f[i] > INT_MAX)
		return err_set(
			s->err, -EINVAL,
			"%s:%zu: field %d (%s) '%g' must be a whole number >= %g",
			s->path, lineno, i + 1, field_names[i], f[i], min);
	return 0;
}

static int _account(swf_t *s, long owner)
{
	sim_account_t *a;
	long *o;

	if (s->last_account >= 0 && s->owner[s->last_account] == owner)
		return s->last_account;
	for (int i = 0; i < s->t.naccounts; i++)
		if (s->owner[i] == owner)
			return s->last_account = i;
	if ((size_t)s->t.naccounts == s->cap_accounts) {
		size_t cap = s->cap_accounts ? 2 * s->cap_accounts : 64;

		a = realloc(s->t.accounts, cap * sizeof(*a));
		if (a)
			s->t.accounts = a;
		o = realloc(s->owner, cap * sizeof(*o));
		if (o)
			s->owner = o;
		if (!a || !o)
			return -ENOMEM;
		s->cap_accounts = cap;
	}
	a = &s->t.accounts[s->t.naccounts];
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%c%ld",
		 s->opts.by_group ? 'g' : 'u', owner);
	a->weight = 1;
	s->owner[s->t.naccounts] = owner;
	return s->last_account = s->t.naccounts++;
}

static int _grow_jobs(swf_t *s)
{
	size_t cap = s->cap_jobs ? 2 * s->cap_jobs : 1024;
	sim_job_t *j;
	size_t *l;

	if (s->t.njobs < s->cap_jobs)
		return 0;
	j = realloc(s->t.jobs, cap * sizeof(*j));
	if (j)
		s->t.jobs = j;
	l = realloc(s->line, cap * sizeof(*l));
	if (l)
		s->line = l;
	if (!j || !l)
		return -ENOMEM;
	s->cap_jobs = cap;
	return 0;
}

/* The job's size: allocated processors, or requested ones with
 * opts.requested, each falling back to the other when unknown (-1). */
static double _size(const swf_t *s, const double *f)
{
	double a = f[SWF_ALLOC], r = f[SWF_REQ];

	if (s->opts.requested)
		return r == -1 ? a : r;
	return a == -1 ? r : a;
}

static int _job(swf_t *s, size_t lineno, char *text)
{
	double f[SWF_FIELDS], size;
	sim_job_t *j;
	int rc, acct;

	rc = _fields(s, lineno, text, f);
	if (!rc)
		rc = _whole(s, lineno, f, SWF_JOB, 1);
	if (!rc && f[SWF_SUBMIT] < 0)
		rc = err_set(s->err, -EINVAL,
			     "%s:%zu: field 2 (submit time) '%g' must be >= 0",
			     s->path, lineno, f[SWF_SUBMIT]);
	if (rc)
		return rc;
	size = _size(s, f);
	if (f[SWF_RUN] <= 0 || size <= 0) {
		s->skipped++;
		return 0;
	}
	if (size != floor(size) || size > INT_MAX)
		return err_set(s->err, -EINVAL,
			       "%s:%zu: %g processors: must be a whole number",
			       s->path, lineno, size);
	rc = _whole(s, lineno, f, s->opts.by_group ? SWF_GROUP : SWF_USER, -1);
	if (rc)
		return rc;
	acct = _account(s, (long)f[s->opts.by_group ? SWF_GROUP : SWF_USER]);
	if (acct < 0 || _grow_jobs(s))
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	s->line[s->t.njobs] = lineno;
	j = &s->t.jobs[s->t.njobs++];
	memset(j, 0, sizeof(*j));
	j->id = (long)f[SWF_JOB];
	j->account = acct;
	j->submit = f[SWF_SUBMIT];
	j->tasks = (int)size;
	j->min_tasks = j->tasks;
	j->work = f[SWF_RUN];
	return 0;
}

static int _read_lines(swf_t *s, FILE *f)
{
	size_t lineno = 0, cap = 0;
	char *line = NULL, *p;
	int rc = 0;

	while (!rc && getline(&line, &cap, f) >= 0) {
		lineno++;
		p = line + strspn(line, " \t\r\n");
		if (*p == ';')
			_header(s, lineno, p);
		else if (*p)
			rc = _job(s, lineno, p);
		if (s->opts.max_jobs && s->t.njobs == s->opts.max_jobs)
			break;
	}
	if (!rc && ferror(f))
		rc = err_set(s->err, -EIO, "%s: cannot read: %s", s->path,
			     strerror(errno));
	free(line);
	return rc;
}

/* The cluster: opts.nodes nodes, else the header's MaxNodes, else
 * MaxProcs / cpus_per_node; cpus_per_node, else MaxProcs / MaxNodes
 * when the nodes come from the header, else 1. */
static int _nodes(swf_t *s)
{
	long nodes = s->opts.nodes, cpus = s->opts.cpus_per_node;
	horae_err_t e;
	char tres[32];

	if (!nodes && s->max_nodes) {
		nodes = s->max_nodes;
		if (!cpus && s->max_procs >= s->max_nodes)
			cpus = s->max_procs / s->max_nodes;
	}
	if (!cpus)
		cpus = 1;
	if (!nodes && s->max_procs >= cpus)
		nodes = s->max_procs / cpus;
	if (!nodes)
		return err_set(
			s->err, -EINVAL,
			"%s: %sno usable MaxNodes or MaxProcs in the header: say how many nodes (--swf-nodes)",
			s->path, s->bad_header);
	if (nodes > SWF_NODES_MAX)
		return err_set(s->err, -EINVAL, "%s: %ld nodes: at most %d",
			       s->path, nodes, SWF_NODES_MAX);
	s->t.layout = tres_layout_create("cpu", &e);
	s->t.nodes = calloc(nodes, sizeof(*s->t.nodes));
	if (!s->t.layout || !s->t.nodes)
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	s->t.nnodes = (int)nodes;
	snprintf(tres, sizeof(tres), "cpu=%ld", cpus);
	for (int i = 0; i < s->t.nnodes; i++) {
		sim_node_t *n = &s->t.nodes[i];

		snprintf(n->name, sizeof(n->name), "n%d", i + 1);
		n->speed = 1.0;
		if (tres_parse(s->t.layout, tres, &n->capacity, &e))
			return err_set(s->err, -EINVAL, "%s: %s", s->path,
				       e.text);
	}
	return 0;
}

static int _cmp_job(const void *a, const void *b)
{
	const sim_job_t *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int _cmp_id(const void *a, const void *b)
{
	const sim_job_t *x = *(const sim_job_t *const *)a;
	const sim_job_t *y = *(const sim_job_t *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int _unique_ids(swf_t *s)
{
	sim_job_t **by_id = malloc(s->t.njobs * sizeof(*by_id) + 1);
	int rc = 0;

	if (!by_id)
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	for (size_t i = 0; i < s->t.njobs; i++)
		by_id[i] = &s->t.jobs[i];
	qsort(by_id, s->t.njobs, sizeof(*by_id), _cmp_id);
	for (size_t i = 1; !rc && i < s->t.njobs; i++)
		if (by_id[i]->id == by_id[i - 1]->id)
			rc = err_set(
				s->err, -EINVAL,
				"%s:%zu: job number %ld appears twice (also line %zu)",
				s->path, s->line[by_id[i] - s->t.jobs],
				by_id[i]->id,
				s->line[by_id[i - 1] - s->t.jobs]);
	free(by_id);
	return rc;
}

/* Every job fits the cluster; submit times count from the first job. */
static int _finish(swf_t *s)
{
	long cpus = (long)s->t.nodes[0].capacity.v[0] * s->t.nnodes;
	double first = INFINITY;
	tres_vec_t one;
	int rc;

	/* Nothing ran: say so here (and keep NULL from qsort() below). */
	if (!s->t.njobs)
		return err_set(s->err, -EINVAL,
			       "%s: no job that ran (%zu skipped)", s->path,
			       s->skipped);
	tres_zero(&one);
	one.v[0] = 1;
	for (size_t i = 0; i < s->t.njobs; i++) {
		sim_job_t *j = &s->t.jobs[i];

		if (j->tasks > cpus)
			return err_set(
				s->err, -EINVAL,
				"%s:%zu: job %ld needs %d processors; the cluster has %ld",
				s->path, s->line[i], j->id, j->tasks, cpus);
		j->demand = one;
		if (j->submit < first)
			first = j->submit;
	}
	rc = _unique_ids(s);
	if (rc)
		return rc;
	for (size_t i = 0; i < s->t.njobs; i++)
		s->t.jobs[i].submit -= first;
	if (s->t.njobs) /* jobs is NULL then; qsort's is nonnull */
		qsort(s->t.jobs, s->t.njobs, sizeof(*s->t.jobs), _cmp_job);
	return 0;
}

int sim_trace_read_swf(const char *path, const sim_swf_opts_t *opts,
		       sim_trace_t *out, size_t *skipped, horae_err_t *err)
{
	swf_t s = { .path = path, .err = err, .last_account = -1 };
	FILE *f;
	int rc;

	if (!path || !out)
		return err_set(err, -EINVAL, "no SWF file or no trace");
	if (opts)
		s.opts = *opts;
	if (s.opts.nodes < 0 || s.opts.cpus_per_node < 0)
		return err_set(
			err, -EINVAL,
			"%s: nodes and CPUs per node must be >= 0 (0: from the header)",
			path);
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!strcmp(path, "-"))
		s.path = "stdin";
	if (!f)
		return err_set(err, -errno, "%s: cannot open: %s", path,
			       strerror(errno));
	rc = _read_lines(&s, f);
	if (f != stdin)
		fclose(f);
	if (!rc)
		rc = _nodes(&s);
	if (!rc)
		rc = _finish(&s);
	free(s.line);
	free(s.owner);
	if (rc) {
		sim_trace_free(&s.t);
		return rc;
	}
	*out = s.t;
	if (skipped)
		*skipped = s.skipped;
	return 0;
}
