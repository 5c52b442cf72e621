/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_output.c - per-job records, series and the summary (sim_output.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "justice_metrics.h"
#include "sim_output.h"

sim_format_t sim_format_of(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n >= 5 && !strcmp(path + n - 5, ".json") ? SIM_FORMAT_JSON :
							  SIM_FORMAT_CSV;
}

/* "name:count;name:count" of the nodes job j's tasks ran on. */
static char *_nodes(const sim_trace_t *t, const sim_job_result_t *jr)
{
	size_t cap = 64, len = 0;
	char *buf = malloc(cap);
	int *count;

	if (!buf)
		return NULL;
	buf[0] = '\0';
	if (!jr->task_node || jr->tasks <= 0)
		return buf;
	if (!(count = calloc(t->nnodes, sizeof(int)))) {
		free(buf);
		return NULL;
	}
	for (int k = 0; k < jr->tasks; k++)
		if (jr->task_node[k] >= 0)
			count[jr->task_node[k]]++;
	for (int n = 0; n < t->nnodes; n++) {
		size_t need;

		if (!count[n])
			continue;
		need = strlen(t->nodes[n].name) + 16;
		if (len + need >= cap) {
			char *p;

			cap = 2 * (len + need);
			if (!(p = realloc(buf, cap))) {
				free(buf);
				free(count);
				return NULL;
			}
			buf = p;
		}
		len += snprintf(buf + len, cap - len, "%s%s:%d", len ? ";" : "",
				t->nodes[n].name, count[n]);
	}
	free(count);
	return buf;
}

static json_object *_num(double x)
{
	return isfinite(x) ? json_object_new_double(x) : NULL;
}

/* Print the array (if any) as JSON and free it; -EIO on a write error. */
static int _end(FILE *f, json_object *arr)
{
	if (arr) {
		fprintf(f, "%s\n",
			json_object_to_json_string_ext(
				arr, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
	return ferror(f) ? -EIO : 0;
}

int sim_write_jobs(FILE *f, sim_format_t fmt, const sim_trace_t *t,
		   const sim_result_t *r)
{
	json_object *arr = NULL;

	if (fmt == SIM_FORMAT_JSON)
		arr = json_object_new_array();
	else
		fprintf(f, "id,account,submit,start,end,tasks,status,met,wait,"
			   "cpu_time,nodes\n");
	for (size_t j = 0; j < r->njobs; j++) {
		const sim_job_result_t *jr = &r->jobs[j];
		char *nodes = _nodes(t, jr);
		double wait = jr->start - jr->submit;

		if (!nodes) {
			json_object_put(arr);
			return -ENOMEM;
		}
		if (arr) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "id",
					       json_object_new_int64(jr->id));
			json_object_object_add(
				o, "account",
				json_object_new_string(
					t->accounts[jr->account].name));
			json_object_object_add(o, "submit", _num(jr->submit));
			json_object_object_add(o, "start", _num(jr->start));
			json_object_object_add(o, "end", _num(jr->end));
			json_object_object_add(o, "tasks",
					       json_object_new_int(jr->tasks));
			json_object_object_add(
				o, "status",
				json_object_new_string(
					sim_job_status_name(jr->status)));
			json_object_object_add(
				o, "met", json_object_new_boolean(jr->met));
			json_object_object_add(o, "wait", _num(wait));
			json_object_object_add(o, "cpu_time",
					       _num(jr->cpu_time));
			json_object_object_add(o, "nodes",
					       json_object_new_string(nodes));
			json_object_array_add(arr, o);
		} else {
			fprintf(f,
				"%ld,%s,%.9g,%.9g,%.9g,%d,%s,%d,%.9g,%.9g,%s\n",
				jr->id, t->accounts[jr->account].name,
				jr->submit, jr->start, jr->end, jr->tasks,
				sim_job_status_name(jr->status), jr->met, wait,
				jr->cpu_time, nodes);
		}
		free(nodes);
	}
	return _end(f, arr);
}

int sim_write_series(FILE *f, sim_format_t fmt, const sim_trace_t *t,
		     const sim_result_t *r)
{
	int ntres = tres_layout_count(t->layout);
	json_object *arr = NULL;

	if (fmt == SIM_FORMAT_JSON) {
		arr = json_object_new_array();
	} else {
		fprintf(f, "t,account,running_tasks,pending_tasks");
		for (int i = 0; i < ntres; i++)
			fprintf(f, ",running_%s",
				tres_layout_name(t->layout, i));
		for (int i = 0; i < ntres; i++)
			fprintf(f, ",used_%s", tres_layout_name(t->layout, i));
		fprintf(f, ",aggregate,dominant,share_now,beta,"
			   "progress_share,task_share\n");
	}
	for (size_t k = 0; k < r->nsamples; k++) {
		const sim_sample_t *x = &r->samples[k];
		const char *name = t->accounts[x->account].name;

		if (arr) {
			json_object *o = json_object_new_object();
			json_object *run = json_object_new_object();
			json_object *used = json_object_new_object();

			json_object_object_add(o, "t", _num(x->t));
			json_object_object_add(o, "account",
					       json_object_new_string(name));
			json_object_object_add(o, "running_tasks",
					       _num(x->running_tasks));
			json_object_object_add(o, "pending_tasks",
					       _num(x->pending_tasks));
			for (int i = 0; i < ntres; i++)
				json_object_object_add(
					run, tres_layout_name(t->layout, i),
					_num(x->running.v[i]));
			json_object_object_add(o, "running", run);
			for (int i = 0; i < ntres; i++)
				json_object_object_add(
					used, tres_layout_name(t->layout, i),
					_num(x->used.v[i]));
			json_object_object_add(o, "used", used);
			json_object_object_add(o, "aggregate",
					       _num(x->aggregate));
			json_object_object_add(o, "dominant",
					       _num(x->dominant));
			json_object_object_add(o, "share_now",
					       _num(x->share_now));
			json_object_object_add(o, "beta", _num(x->beta));
			json_object_object_add(o, "progress_share",
					       _num(x->progress_share));
			json_object_object_add(o, "task_share",
					       _num(x->task_share));
			json_object_array_add(arr, o);
			continue;
		}
		fprintf(f, "%.9g,%s,%.9g,%.9g", x->t, name, x->running_tasks,
			x->pending_tasks);
		for (int i = 0; i < ntres; i++)
			fprintf(f, ",%.9g", x->running.v[i]);
		for (int i = 0; i < ntres; i++)
			fprintf(f, ",%.9g", x->used.v[i]);
		fprintf(f, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", x->aggregate,
			x->dominant, x->share_now, x->beta, x->progress_share,
			x->task_share);
	}
	return _end(f, arr);
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted x[0..n). */
static double _pct(const double *x, size_t n, double p)
{
	size_t k;

	if (!n)
		return NAN;
	k = (size_t)ceil(p / 100.0 * n);
	return x[k ? k - 1 : 0];
}

static json_object *_dist(double *x, size_t n)
{
	json_object *o = json_object_new_object();
	double sum = 0;

	qsort(x, n, sizeof(double), _cmp_double);
	for (size_t k = 0; k < n; k++)
		sum += x[k];
	json_object_object_add(o, "count", json_object_new_int64(n));
	json_object_object_add(o, "mean", _num(n ? sum / n : NAN));
	json_object_object_add(o, "p50", _num(_pct(x, n, 50)));
	json_object_object_add(o, "p90", _num(_pct(x, n, 90)));
	json_object_object_add(o, "p99", _num(_pct(x, n, 99)));
	json_object_object_add(o, "max", _num(n ? x[n - 1] : NAN));
	return o;
}

static json_object *_accounts(const sim_trace_t *t, const sim_result_t *r)
{
	json_object *arr = json_object_new_array();

	for (int a = 0; a < t->naccounts; a++) {
		json_object *o = json_object_new_object();
		double first = INFINITY, last = -INFINITY, cpu = 0;
		long tasks = 0;

		for (size_t j = 0; j < r->njobs; j++) {
			const sim_job_result_t *jr = &r->jobs[j];

			if (jr->account != a)
				continue;
			cpu += jr->cpu_time;
			if (!isnan(jr->start)) {
				first = fmin(first, jr->start);
				tasks += jr->tasks;
			}
			if (jr->status == SIM_JOB_ENDED)
				last = fmax(last, jr->end);
		}
		json_object_object_add(
			o, "name", json_object_new_string(t->accounts[a].name));
		json_object_object_add(o, "weight",
				       _num(t->accounts[a].weight));
		json_object_object_add(o, "tasks",
				       json_object_new_int64(tasks));
		json_object_object_add(o, "cpu_time", _num(cpu));
		json_object_object_add(o, "first_start", _num(first));
		json_object_object_add(o, "last_end", _num(last));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *_deadlines(const sim_trace_t *t, const sim_result_t *r)
{
	justice_outcome_t *o = calloc(r->njobs ? r->njobs : 1, sizeof(*o));
	justice_metrics_t m;
	json_object *d;
	double cpus = 0;
	size_t n = 0;

	if (!o)
		return NULL;
	for (size_t j = 0; j < r->njobs; j++) {
		const sim_job_t *job = &t->jobs[j];
		const sim_job_result_t *jr = &r->jobs[j];
		int slot = tres_layout_find(t->layout, "cpu");
		double cpt = slot >= 0 ? job->demand.v[slot] : 1;

		if (job->deadline <= 0)
			continue;
		o[n].requested = job->tasks * cpt;
		o[n].cpus = isnan(jr->start) ? 0 : jr->tasks * cpt;
		o[n].run = o[n].cpus > 0 ? jr->cpu_time / o[n].cpus : 0;
		o[n].met = jr->met;
		n++;
	}
	if (!n) {
		free(o);
		return NULL;
	}
	for (int i = 0; i < t->nnodes; i++) {
		int slot = tres_layout_find(t->layout, "cpu");

		cpus += slot >= 0 ? t->nodes[i].capacity.v[slot] : 0;
	}
	justice_metrics(o, n, cpus, r->makespan, &m);
	free(o);
	d = json_object_new_object();
	json_object_object_add(d, "jobs", json_object_new_int64(m.jobs));
	json_object_object_add(d, "met", json_object_new_int64(m.met));
	json_object_object_add(d, "sdr", _num(m.sdr));
	json_object_object_add(d, "ptr", _num(m.ptr));
	json_object_object_add(d, "wtr", _num(m.wtr));
	json_object_object_add(d, "jain_equality", _num(m.jain_equality));
	json_object_object_add(d, "jain_fairness", _num(m.jain_fairness));
	return d;
}

json_object *sim_summary(const sim_trace_t *t, const sim_config_t *c,
			 const sim_result_t *r)
{
	json_object *s = json_object_new_object(), *run, *jobs, *util;
	double *jct = calloc(r->njobs ? r->njobs : 1, sizeof(double));
	double *wait = calloc(r->njobs ? r->njobs : 1, sizeof(double));
	size_t count[5] = { 0 }, nj = 0, nw = 0;

	if (!s || !jct || !wait) {
		free(jct);
		free(wait);
		json_object_put(s);
		return NULL;
	}
	run = json_object_new_object();
	json_object_object_add(run, "policy",
			       json_object_new_string(c->policy.name));
	json_object_object_add(
		run, "placement",
		json_object_new_string(sim_place_name(&c->placement)));
	json_object_object_add(
		run, "admission",
		json_object_new_string(sim_admit_name(&c->admission)));
	json_object_object_add(run, "seed", json_object_new_int64(c->seed));
	json_object_object_add(s, "run", run);
	for (size_t j = 0; j < r->njobs; j++) {
		const sim_job_result_t *jr = &r->jobs[j];

		count[jr->status]++;
		if (jr->status == SIM_JOB_ENDED)
			jct[nj++] = jr->end - jr->submit;
		if (!isnan(jr->start))
			wait[nw++] = jr->start - jr->submit;
	}
	jobs = json_object_new_object();
	json_object_object_add(jobs, "total", json_object_new_int64(r->njobs));
	for (int k = 0; k < 5; k++)
		json_object_object_add(jobs, sim_job_status_name(k),
				       json_object_new_int64(count[k]));
	json_object_object_add(s, "jobs", jobs);
	json_object_object_add(s, "tasks_started",
			       json_object_new_int64(r->tasks_started));
	json_object_object_add(s, "passes", json_object_new_int64(r->passes));
	json_object_object_add(s, "makespan", _num(r->makespan));
	json_object_object_add(s, "completion_time", _dist(jct, nj));
	json_object_object_add(s, "queueing_delay", _dist(wait, nw));
	util = json_object_new_object();
	for (int i = 0; i < tres_layout_count(t->layout); i++) {
		double den = r->capacity.v[i] * r->makespan;

		json_object_object_add(
			util, tres_layout_name(t->layout, i),
			_num(den > 0 ? r->used.v[i] / den : NAN));
	}
	json_object_object_add(s, "utilisation", util);
	json_object_object_add(s, "accounts", _accounts(t, r));
	json_object_object_add(s, "deadlines", _deadlines(t, r));
	free(jct);
	free(wait);
	return s;
}

/* A string as a YAML plain scalar when it reads back as the same string,
 * else double-quoted (JSON's escapes are YAML's). */
static void _yaml_string(FILE *f, const char *str)
{
	static const char *const words[] = { "true", "false", "null", "yes",
					     "no",   "on",    "off",  "~" };
	bool quote = !*str || strpbrk(str, ":#{}[],&*!|>'\"%@`\\") ||
		     isspace((unsigned char)str[0]) ||
		     isspace((unsigned char)str[strlen(str) - 1]) ||
		     str[0] == '-' || str[0] == '?';
	char *end;

	strtod(str, &end);
	quote |= end != str && !*end; /* would read back as a number */
	for (size_t i = 0; !quote && i < sizeof(words) / sizeof(words[0]); i++)
		quote = !strcasecmp(str, words[i]);
	if (!quote) {
		fputs(str, f);
		return;
	}
	json_object *js = json_object_new_string(str);

	fputs(js ? json_object_to_json_string_ext(
			   js, JSON_C_TO_STRING_PLAIN |
				       JSON_C_TO_STRING_NOSLASHESCAPE) :
		   "\"\"",
	      f);
	json_object_put(js);
}

/*
 * One member as YAML at depth (two spaces each): "key: value" with the
 * values aligned, mappings nested, arrays as "- " sequences (an object
 * item's first member on the dash's line).  null is YAML's null.
 */
static void _text(FILE *f, const char *key, json_object *v, int depth,
		  bool item)
{
	int pad = 2 * depth;

	if (item) /* "- " stands for the last two spaces of the indent */
		fprintf(f, "%*s- ", pad - 2, "");
	else
		fprintf(f, "%*s", pad, "");
	if (json_object_is_type(v, json_type_object)) {
		fprintf(f, "%s:\n", key);
		json_object_object_foreach(v, k, sub)
			_text(f, k, sub, depth + 1, false);
	} else if (json_object_is_type(v, json_type_array)) {
		fprintf(f, "%s:\n", key);
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *it = json_object_array_get_idx(v, i);
			bool first = true;

			if (!json_object_is_type(it, json_type_object)) {
				fprintf(f, "%*s- ", pad + 2, "");
				_yaml_string(f, json_object_get_string(it));
				fputc('\n', f);
				continue;
			}
			json_object_object_foreach(it, k, sub)
			{
				_text(f, k, sub, depth + 2, first);
				first = false;
			}
		}
	} else {
		int w = 24 - pad - (int)strlen(key);

		fprintf(f, "%s:%*s", key, w > 1 ? w : 1, "");
		if (!v)
			fputs("null", f);
		else if (json_object_is_type(v, json_type_double))
			fprintf(f, "%.6g", json_object_get_double(v));
		else if (json_object_is_type(v, json_type_string))
			_yaml_string(f, json_object_get_string(v));
		else
			fputs(json_object_get_string(v), f);
		fputc('\n', f);
	}
}

int sim_write_summary_text(FILE *f, json_object *summary)
{
	fputs("# horae-sim summary, YAML.  Times (makespan, completion_time, "
	      "queueing_delay,\n# first_start, last_end) in seconds, "
	      "cpu_time in CPU-seconds, utilisation\n# a fraction of the "
	      "cluster's capacity of each TRES.\n",
	      f);
	json_object_object_foreach(summary, k, v) _text(f, k, v, 0, false);
	return ferror(f) ? -EIO : 0;
}
