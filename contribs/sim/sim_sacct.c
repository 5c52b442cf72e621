/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_sacct.c - a site's own history as a trace: the jobs as Slurm's
 * accounting recorded them (sacct --parsable2, header line first) and the
 * nodes as slurmctld reports them (scontrol -o show node).  See
 * sim_trace.h for what each job becomes.
 */
#define _XOPEN_SOURCE 700 /* strptime */
#define _DEFAULT_SOURCE

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "speed.h"
#include "sim_trace.h"

/* The TRES replayed: what H-MRF weighs by default. */
#define SACCT_TRES "cpu,mem,gres/gpu"
enum { T_CPU, T_MEM, T_GPU };

enum {
	F_ID,
	F_ACCOUNT,
	F_SUBMIT,
	F_START,
	F_END,
	F_STATE,
	F_ALLOC,
	F_CONSTRAINTS,
	F_DEADLINE,
	F_NODELIST,
	F_ELIGIBLE,
	F_COUNT
};
static const char *const field_names[F_COUNT] = {
	"JobIDRaw",  "Account",	    "Submit",	"Start",    "End",	"State",
	"AllocTRES", "Constraints", "Deadline", "NodeList", "Eligible",
};

typedef struct {
	const char *path;
	const sim_sacct_opts_t *opts;
	sim_sacct_stats_t *st;
	horae_err_t *err;
	int col[F_COUNT]; /* column of each field; -1: absent */
	int ncols;
	char delim; /* the header's: '|', or another sacct --delimiter */
	sim_trace_t t;
	size_t cap_jobs, cap_accounts;
	size_t *line; /* each job's line */
	double first_submit;
} sacct_t;

/* Count a record left out, keeping the first of each reason. */
static void _skip(sacct_t *s, int why, size_t lineno, const char *id)
{
	sim_sacct_skip_t *k = &s->st->skip[why];

	if (!k->count++) {
		k->line = lineno;
		snprintf(k->job, sizeof(k->job), "%s", id);
	}
}

/* "2026-11-25T13:45:12" in local time, as sacct prints it; false for
 * "Unknown", "None" or "" (not there). */
static int _time(sacct_t *s, size_t lineno, const char *field, const char *str,
		 double *out, bool *there)
{
	struct tm tm = { 0 };
	const char *end;

	*there = false;
	if (!*str || !strcasecmp(str, "Unknown") || !strcasecmp(str, "None"))
		return 0;
	end = strptime(str, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || *end)
		return err_set(s->err, -EINVAL,
			       "%s:%zu: %s '%s' is not a time like "
			       "2026-11-25T13:45:12",
			       s->path, lineno, field, str);
	tm.tm_isdst = -1;
	*out = (double)mktime(&tm);
	*there = true;
	return 0;
}

/* AllocTRES "billing=4,cpu=4,mem=8G,node=1,gres/gpu=2": the CPUs, memory
 * (MB) and GPUs; other TRES are not replayed. */
static int _alloc(sacct_t *s, size_t lineno, const char *str, tres_vec_t *v)
{
	char *copy = strdup(str), *save = NULL, *item;
	int rc = 0;

	if (!copy)
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	tres_zero(v);
	for (item = strtok_r(copy, ",", &save); item && !rc;
	     item = strtok_r(NULL, ",", &save)) {
		static const char *const names[] = { "cpu=", "mem=",
						     "gres/gpu=" };

		for (int i = 0; i < 3; i++) {
			size_t n = strlen(names[i]);
			tres_vec_t one;
			horae_err_t e;

			if (strncmp(item, names[i], n))
				continue;
			if (tres_parse(s->t.layout, item, &one, &e))
				rc = err_set(s->err, -EINVAL,
					     "%s:%zu: AllocTRES '%s': %s",
					     s->path, lineno, str, e.text);
			else
				v->v[i] = one.v[i];
		}
	}
	free(copy);
	return rc;
}

static int _account(sacct_t *s, const char *name)
{
	sim_account_t *a;

	for (int i = 0; i < s->t.naccounts; i++)
		if (!strcmp(s->t.accounts[i].name, name))
			return i;
	if ((size_t)s->t.naccounts == s->cap_accounts) {
		size_t cap = s->cap_accounts ? 2 * s->cap_accounts : 16;

		if (!(a = realloc(s->t.accounts, cap * sizeof(*a))))
			return -1;
		s->t.accounts = a;
		s->cap_accounts = cap;
	}
	a = &s->t.accounts[s->t.naccounts];
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->weight = 1;
	return s->t.naccounts++;
}

/* A single feature name ("gen1") is replayed; an expression (&, |, [],
 * counts) is not: the job then runs without it, and is counted. */
static bool _simple_feature(const char *c)
{
	return *c && strlen(c) < SIM_NAME_MAX &&
	       !c[strspn(c, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")];
}

/* Split line at '|' into f[]; the count must be the header's. */
static int _split(sacct_t *s, size_t lineno, char *line, char **f)
{
	int n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	for (;;) {
		char *bar = strchr(p, s->delim);

		if (n < s->ncols)
			f[n] = p;
		n++;
		if (!bar)
			break;
		*bar = '\0';
		p = bar + 1;
	}
	if (n > s->ncols && s->delim == '|')
		return err_set(s->err, -EINVAL,
			       "%s:%zu: %d fields; the header has %d: a field "
			       "holds the delimiter '|' (a constraint such as "
			       "a|b?): write the file with sacct -P "
			       "--delimiter=';'",
			       s->path, lineno, n, s->ncols);
	if (n != s->ncols)
		return err_set(s->err, -EINVAL,
			       "%s:%zu: %d fields; the header has %d (was "
			       "the file written with sacct -P?)",
			       s->path, lineno, n, s->ncols);
	return 0;
}

static int _header(sacct_t *s, char *line, char **f)
{
	char *p = line, *bar;

	line[strcspn(line, "\r\n")] = '\0';
	/* The delimiter is what follows the first column's name. */
	s->delim = line[strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "abcdefghijklmnopqrstuvwxyz")];
	if (!s->delim || isspace((unsigned char)s->delim))
		return err_set(s->err, -EINVAL,
			       "%s:1: not a sacct -P header (JobIDRaw|Account|"
			       "...): '%s'",
			       s->path, line);
	s->ncols = 0;
	for (int i = 0; i < F_COUNT; i++)
		s->col[i] = -1;
	do {
		bar = strchr(p, s->delim);
		if (bar)
			*bar = '\0';
		if (s->ncols >= SIM_SACCT_COLS_MAX)
			return err_set(s->err, -EINVAL,
				       "%s:1: more than %d columns", s->path,
				       SIM_SACCT_COLS_MAX);
		f[s->ncols] = p;
		for (int i = 0; i < F_COUNT; i++)
			if (!strcasecmp(p, field_names[i]) ||
			    (i == F_ID && !strcasecmp(p, "JobID") &&
			     s->col[i] < 0))
				s->col[i] = s->ncols;
		s->ncols++;
		if (bar)
			p = bar + 1;
	} while (bar);
	for (int i = 0; i < F_COUNT; i++)
		if (s->col[i] < 0 && i != F_CONSTRAINTS && i != F_DEADLINE &&
		    i != F_NODELIST && i != F_ELIGIBLE)
			return err_set(
				s->err, -EINVAL,
				"%s:1: the header has no %s column: write the file "
				"with sacct -a -X -P --format=JobIDRaw,Account,"
				"Submit,Eligible,Start,End,State,AllocTRES,Constraints,NodeList",
				s->path, field_names[i]);
	return 0;
}

static int _grow(sacct_t *s)
{
	sim_job_t *j;
	size_t *l, cap;

	if (s->t.njobs < s->cap_jobs)
		return 0;
	cap = s->cap_jobs ? 2 * s->cap_jobs : 256;
	if (!(j = realloc(s->t.jobs, cap * sizeof(*j))))
		return -ENOMEM;
	s->t.jobs = j;
	if (!(l = realloc(s->line, cap * sizeof(*l))))
		return -ENOMEM;
	s->line = l;
	s->cap_jobs = cap;
	return 0;
}

/* The speed of node name; false when no node of that name was given. */
static bool _node_speed(const sacct_t *s, const char *name, double *speed)
{
	for (int i = 0; i < s->t.nnodes; i++)
		if (!strcmp(s->t.nodes[i].name, name)) {
			*speed = s->t.nodes[i].speed;
			return true;
		}
	return false;
}

/* Fold the speed of each node of one NodeList item, "n4" or
 * "n[1-3,05]x" (one bracket), into *slowest; false when the item is not of
 * that form or names a node not given. */
static bool _item_slowest(const sacct_t *s, const char *item, size_t len,
			  double *slowest)
{
	char name[SIM_NAME_MAX], pre[SIM_NAME_MAX], post[SIM_NAME_MAX];
	const char *lb = memchr(item, '[', len), *rb, *p;
	double v;

	if (!lb) {
		if (len >= sizeof(name))
			return false;
		memcpy(name, item, len);
		name[len] = '\0';
		if (!_node_speed(s, name, &v))
			return false;
		*slowest = fmin(*slowest, v);
		return true;
	}
	rb = memchr(lb, ']', len - (size_t)(lb - item));
	if (!rb || (size_t)(lb - item) >= sizeof(pre) ||
	    (size_t)(item + len - rb - 1) >= sizeof(post) ||
	    memchr(rb + 1, '[', (size_t)(item + len - rb - 1)))
		return false;
	snprintf(pre, sizeof(pre), "%.*s", (int)(lb - item), item);
	snprintf(post, sizeof(post), "%.*s", (int)(item + len - rb - 1),
		 rb + 1);
	for (p = lb + 1; p < rb;) {
		char *e;
		long lo, hi;
		int width;

		lo = strtol(p, &e, 10);
		if (e == p || lo < 0)
			return false;
		width = (int)(e - p);
		hi = lo;
		if (*e == '-') {
			p = e + 1;
			hi = strtol(p, &e, 10);
			if (e == p || hi < lo || hi - lo > 100000)
				return false;
		}
		for (long n = lo; n <= hi; n++) {
			if (snprintf(name, sizeof(name), "%s%0*ld%s", pre,
				     width, n, post) >= (int)sizeof(name) ||
			    !_node_speed(s, name, &v))
				return false;
			*slowest = fmin(*slowest, v);
		}
		if (e < rb && *e != ',')
			return false;
		p = e + (e < rb);
	}
	return true;
}

/* The speed of the slowest node in a NodeList ("n[1-3],gpu05"); false
 * when it cannot be told. */
static bool _slowest(const sacct_t *s, const char *list, double *slowest)
{
	const char *p = list, *q;
	int depth;

	*slowest = INFINITY;
	while (*p) {
		for (q = p, depth = 0; *q && (*q != ',' || depth); q++)
			depth += (*q == '[') - (*q == ']');
		if (q == p || !_item_slowest(s, p, (size_t)(q - p), slowest))
			return false;
		p = *q ? q + 1 : q;
	}
	return isfinite(*slowest);
}

static int _job(sacct_t *s, size_t lineno, char **f)
{
	const char *id = f[s->col[F_ID]];
	const char *cons =
		s->col[F_CONSTRAINTS] >= 0 ? f[s->col[F_CONSTRAINTS]] : "";
	double submit = 0, start = 0, end = 0, deadline = 0, eligible = 0;
	bool has_submit, has_start, has_end, has_deadline = false;
	bool has_eligible = false;
	tres_vec_t alloc;
	char *idend;
	long jid;
	sim_job_t *j;
	int rc, a;

	s->st->records++;
	if (strchr(id, '.')) { /* a step: sacct without -X */
		_skip(s, SIM_SACCT_STEP, lineno, id);
		return 0;
	}
	errno = 0;
	jid = strtol(id, &idend, 10);
	if (!errno && idend != id && jid > 0 &&
	    (*idend == '_' || *idend == '+'))
		return err_set(s->err, -EINVAL,
			       "%s:%zu: JobID '%s': array tasks and "
			       "heterogeneous job components share a JobID; "
			       "write the file with JobIDRaw",
			       s->path, lineno, id);
	if (errno || idend == id || jid <= 0 || *idend)
		return err_set(s->err, -EINVAL,
			       "%s:%zu: JobID '%s' is not a job number",
			       s->path, lineno, id);
	if ((rc = _time(s, lineno, "Submit", f[s->col[F_SUBMIT]], &submit,
			&has_submit)) ||
	    (rc = _time(s, lineno, "Start", f[s->col[F_START]], &start,
			&has_start)) ||
	    (rc = _time(s, lineno, "End", f[s->col[F_END]], &end, &has_end)) ||
	    (s->col[F_DEADLINE] >= 0 &&
	     (rc = _time(s, lineno, "Deadline", f[s->col[F_DEADLINE]],
			 &deadline, &has_deadline))) ||
	    (s->col[F_ELIGIBLE] >= 0 &&
	     (rc = _time(s, lineno, "Eligible", f[s->col[F_ELIGIBLE]],
			 &eligible, &has_eligible))))
		return rc;
	if (has_deadline && !(deadline > submit))
		return err_set(s->err, -EINVAL,
			       "%s:%zu: job %s: Deadline is not after Submit",
			       s->path, lineno, id);
	if (!has_submit)
		return err_set(s->err, -EINVAL, "%s:%zu: job %s has no Submit",
			       s->path, lineno, id);
	if (!has_start) {
		_skip(s, SIM_SACCT_NEVER_RAN, lineno, id);
		return 0;
	}
	/* Held, waiting on a dependency or a --begin: it joins the queue
	 * when it became eligible (never after it started). */
	if (has_eligible && eligible > submit)
		submit = fmin(eligible, start);
	if (!has_end) {
		_skip(s, SIM_SACCT_RUNNING, lineno, id);
		return 0;
	}
	if ((rc = _alloc(s, lineno, f[s->col[F_ALLOC]], &alloc)))
		return rc;
	if (!(alloc.v[T_CPU] >= 1) || alloc.v[T_CPU] > INT_MAX) {
		_skip(s, SIM_SACCT_NO_CPU, lineno, id);
		return 0;
	}
	if (!(end - start > 0)) {
		_skip(s, SIM_SACCT_NO_TIME, lineno, id);
		return 0;
	}
	if (!*f[s->col[F_ACCOUNT]]) {
		_skip(s, SIM_SACCT_NO_ACCOUNT, lineno, id);
		return 0;
	}
	if ((a = _account(s, f[s->col[F_ACCOUNT]])) < 0 || _grow(s))
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	s->line[s->t.njobs] = lineno;
	j = &s->t.jobs[s->t.njobs++];
	memset(j, 0, sizeof(*j));
	j->id = jid;
	j->account = a;
	j->submit = submit;
	/* One task per CPU, each with its part of the memory and GPUs, for
	 * the time the job ran: as work at speed 1 when the speeds are known
	 * and a NodeList column says where it ran, else at speed 1 as it is
	 * (the replay applies the speeds of the nodes it picks). */
	j->tasks = j->min_tasks = (int)alloc.v[T_CPU];
	tres_zero(&j->demand);
	j->demand.v[T_CPU] = 1;
	j->demand.v[T_MEM] = alloc.v[T_MEM] / alloc.v[T_CPU];
	j->demand.v[T_GPU] = alloc.v[T_GPU] / alloc.v[T_CPU];
	/* The time it ran, as work at speed 1: its slowest node set it. */
	j->work = end - start;
	if (s->col[F_NODELIST] >= 0 && s->opts->speed_map) {
		double slowest;

		if (_slowest(s, f[s->col[F_NODELIST]], &slowest))
			j->work *= slowest;
		else
			_skip(s, SIM_SACCT_NODELIST, lineno, id);
	}
	j->deadline = has_deadline ? deadline : 0; /* made relative below */
	if (*cons && strcmp(cons, "(null)")) {
		if (_simple_feature(cons))
			snprintf(j->constraint, sizeof(j->constraint), "%s",
				 cons);
		else
			_skip(s, SIM_SACCT_CONSTRAINT, lineno, id);
	}
	if (submit < s->first_submit)
		s->first_submit = submit;
	return 0;
}

static int _read_jobs(sacct_t *s, FILE *f)
{
	char *line = NULL, *fields[SIM_SACCT_COLS_MAX];
	size_t cap = 0, lineno = 0;
	int rc = 0;

	while (!rc && getline(&line, &cap, f) >= 0) {
		lineno++;
		if (lineno == 1)
			rc = _header(s, line, fields);
		else if (line[strspn(line, " \t\r\n")])
			rc = _split(s, lineno, line, fields) ?:
				     _job(s, lineno, fields);
	}
	if (!rc && ferror(f))
		rc = err_set(s->err, -EIO, "%s: cannot read: %s", s->path,
			     strerror(errno));
	if (!rc && lineno == 0)
		rc = err_set(s->err, -EINVAL, "%s: empty: no header line",
			     s->path);
	free(line);
	return rc;
}

/* --- the nodes ------------------------------------------------------------ */

/* The value of key in a "scontrol -o show node" line, or NULL. */
static const char *_value(char *line, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);

	for (char *p = line; (p = strstr(p, key)); p += n) {
		if ((p == line || isspace((unsigned char)p[-1])) &&
		    p[n] == '=') {
			snprintf(buf, len, "%.*s",
				 (int)strcspn(p + n + 1, " \t\r\n"), p + n + 1);
			return buf;
		}
	}
	return NULL;
}

/* Gres "gpu:2", "gpu:a100:2(S:0-1)", "(null)": the GPUs. */
static double _gpus(const char *gres)
{
	double sum = 0;
	char *copy = strdup(gres), *save = NULL, *item;

	for (item = copy ? strtok_r(copy, ",", &save) : NULL; item;
	     item = strtok_r(NULL, ",", &save)) {
		char *last;

		if (strncmp(item, "gpu", 3))
			continue;
		item[strcspn(item, "(")] = '\0';
		last = strrchr(item, ':');
		if (last)
			sum += strtod(last + 1, NULL);
	}
	free(copy);
	return sum;
}

static int _read_nodes(sacct_t *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, buf[SIM_FEATURES_MAX];
	size_t cap = 0, lineno = 0, cap_nodes = 0;
	const char *map = s->opts ? s->opts->speed_map : NULL;
	/* The core's map, read as select/eunomia reads SpeedMap: a node
	 * whose features the map names more than once takes the largest. */
	speed_map_t *speed = NULL;
	int rc = 0;

	if (!f)
		return err_set(s->err, -errno, "%s: cannot open: %s", path,
			       strerror(errno));
	if (map && *map && !(speed = speed_map_create(map, 1, s->err))) {
		rc = -errno;
		fclose(f);
		return rc;
	}
	while (!rc && getline(&line, &cap, f) >= 0) {
		const char *name, *cpus = NULL, *mem, *gres, *feat;
		char nb[SIM_NAME_MAX], cb[32], mb[32], gb[256];
		sim_node_t *n;
		char *end;

		lineno++;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		if (!(name = _value(line, "NodeName", nb, sizeof(nb))))
			rc = err_set(
				s->err, -EINVAL,
				"%s:%zu: no NodeName= (write the file with "
				"scontrol -o show node)",
				path, lineno);
		else if (!(cpus = _value(line, "CPUTot", cb, sizeof(cb))) ||
			 strtol(cpus, &end, 10) <= 0 || *end)
			rc = err_set(s->err, -EINVAL,
				     "%s:%zu: node %s: no CPUTot= count", path,
				     lineno, name);
		if (rc)
			break;
		if ((size_t)s->t.nnodes == cap_nodes) {
			size_t c = cap_nodes ? 2 * cap_nodes : 64;
			sim_node_t *m = realloc(s->t.nodes, c * sizeof(*m));

			if (!m) {
				rc = err_set(s->err, -ENOMEM, "out of memory");
				break;
			}
			s->t.nodes = m;
			cap_nodes = c;
		}
		n = &s->t.nodes[s->t.nnodes++];
		memset(n, 0, sizeof(*n));
		snprintf(n->name, sizeof(n->name), "%s", name);
		n->capacity.v[T_CPU] = strtod(cpus, NULL);
		mem = _value(line, "RealMemory", mb, sizeof(mb));
		n->capacity.v[T_MEM] = mem ? strtod(mem, NULL) : 0;
		gres = _value(line, "Gres", gb, sizeof(gb));
		n->capacity.v[T_GPU] = gres ? _gpus(gres) : 0;
		feat = _value(line, "AvailableFeatures", buf, sizeof(buf));
		if (feat && strcmp(feat, "(null)"))
			snprintf(n->features, sizeof(n->features), "%s", feat);
		n->speed = speed ? speed_of(speed, n->features) : 1;
	}
	if (!rc && ferror(f))
		rc = err_set(s->err, -EIO, "%s: cannot read: %s", path,
			     strerror(errno));
	if (!rc && !s->t.nnodes)
		rc = err_set(s->err, -EINVAL, "%s: no nodes", path);
	free(line);
	fclose(f);
	speed_map_destroy(&speed);
	return rc;
}

/* --- the whole ------------------------------------------------------------ */

static int _cmp_job(const void *x, const void *y)
{
	const sim_job_t *a = x, *b = y;

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static int _cmp_id(const void *x, const void *y)
{
	const sim_job_t *a = *(const sim_job_t *const *)x;
	const sim_job_t *b = *(const sim_job_t *const *)y;

	return (a->id > b->id) - (a->id < b->id);
}

/* Each job once: sacct run twice into one file, or overlapping ranges. */
static int _unique(sacct_t *s)
{
	const sim_job_t **by = malloc(s->t.njobs * sizeof(*by) + 1);
	int rc = 0;

	if (!by)
		return err_set(s->err, -ENOMEM, "%s: out of memory", s->path);
	for (size_t i = 0; i < s->t.njobs; i++)
		by[i] = &s->t.jobs[i];
	qsort(by, s->t.njobs, sizeof(*by), _cmp_id);
	for (size_t i = 1; !rc && i < s->t.njobs; i++) {
		size_t a = s->line[by[i - 1] - s->t.jobs];
		size_t b = s->line[by[i] - s->t.jobs];

		if (by[i]->id == by[i - 1]->id)
			rc = err_set(s->err, -EINVAL,
				     "%s:%zu: job %ld appears twice (also "
				     "line %zu)",
				     s->path, a > b ? a : b, by[i]->id,
				     a > b ? b : a);
	}
	free(by);
	return rc;
}

/* A task that fits no node cannot be replayed: the node list is not the
 * one the job ran on (nodes removed since, or a partial list). */
static void _fit(sacct_t *s)
{
	size_t k = 0;
	double cpus = 0;

	for (int n = 0; n < s->t.nnodes; n++)
		cpus += s->t.nodes[n].capacity.v[T_CPU];
	for (size_t i = 0; i < s->t.njobs; i++) {
		const sim_job_t *j = &s->t.jobs[i];
		bool fits = false;

		/* Its CPUs in all, and a node for a task. */
		for (int n = 0; n < s->t.nnodes && !fits && j->tasks <= cpus;
		     n++)
			fits = tres_fits(&j->demand, &s->t.nodes[n].capacity) &&
			       (!j->constraint[0] ||
				sim_has_feature(s->t.nodes[n].features,
						j->constraint));
		if (!fits) {
			char id[32];

			snprintf(id, sizeof(id), "%ld", j->id);
			_skip(s, SIM_SACCT_NO_NODE, s->line[i], id);
			continue;
		}
		s->line[k] = s->line[i];
		s->t.jobs[k++] = *j;
	}
	s->t.njobs = k;
}

int sim_trace_read_sacct(const char *path, const sim_sacct_opts_t *opts,
			 sim_trace_t *out, sim_sacct_stats_t *stats,
			 horae_err_t *err)
{
	sim_sacct_stats_t st = { 0 };
	sacct_t s = { .path = path,
		      .opts = opts,
		      .st = &st,
		      .err = err,
		      .first_submit = INFINITY };
	FILE *f;
	int rc;

	if (!path || !out || !opts || !opts->nodes_path)
		return err_set(err, -EINVAL,
			       "%s: the nodes are needed too (scontrol -o show "
			       "node > FILE; --sacct-nodes=FILE)",
			       path ? path : "sacct");
	if (!(s.t.layout = tres_layout_create(SACCT_TRES, err)))
		return -ENOMEM;
	rc = _read_nodes(&s, opts->nodes_path);
	if (!rc) {
		f = strcmp(path, "-") ? fopen(path, "r") : stdin;
		if (!f)
			rc = err_set(err, -errno, "%s: cannot open: %s", path,
				     strerror(errno));
		else {
			rc = _read_jobs(&s, f);
			if (f != stdin)
				fclose(f);
		}
	}
	if (!rc)
		rc = _unique(&s);
	if (!rc)
		_fit(&s);
	if (!rc && !s.t.njobs)
		rc = err_set(err, -EINVAL,
			     "%s: no job to replay (%zu records, none that "
			     "started and ended)",
			     path, st.records);
	if (!rc) {
		st.base = s.first_submit;
		st.jobs = s.t.njobs;
		for (size_t i = 0; i < s.t.njobs; i++) {
			s.t.jobs[i].submit -= s.first_submit;
			if (s.t.jobs[i].deadline > 0)
				s.t.jobs[i].deadline -= s.first_submit;
		}
		qsort(s.t.jobs, s.t.njobs, sizeof(*s.t.jobs), _cmp_job);
	}
	free(s.line);
	if (rc) {
		sim_trace_free(&s.t);
		return rc;
	}
	*out = s.t;
	if (stats)
		*stats = st;
	return 0;
}

const char *sim_sacct_skip_name(int why)
{
	static const char *const names[SIM_SACCT_SKIP_COUNT] = {
		[SIM_SACCT_STEP] = "job steps (use sacct -X)",
		[SIM_SACCT_NEVER_RAN] = "never started",
		[SIM_SACCT_RUNNING] = "not ended (still running)",
		[SIM_SACCT_NO_CPU] = "no CPUs in AllocTRES",
		[SIM_SACCT_NO_TIME] = "ran no time",
		[SIM_SACCT_NO_ACCOUNT] = "no account",
		[SIM_SACCT_NO_NODE] = "do not fit the nodes given (more CPUs "
				      "than all, or a task no node takes)",
		[SIM_SACCT_CONSTRAINT] =
			"replayed without their constraint (not a single "
			"feature)",
		[SIM_SACCT_NODELIST] =
			"replayed as run at speed 1 (a NodeList of nodes "
			"not given, or not of the form name[1-3,5])",
	};

	return why >= 0 && why < SIM_SACCT_SKIP_COUNT ? names[why] : "?";
}
