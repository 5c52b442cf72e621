/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_print.c - sfair --explain's text and JSON: see explain_print.h.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "horae_config.h"

#include "explain_print.h"

static const struct {
	const char *name, *key, *meaning;
} factor[SFAIR_X_NFACTORS] = {
	[SFAIR_X_AGE] = { "AGE", "age", "time waited" },
	[SFAIR_X_ASSOC] = { "ASSOC", "assoc",
			    "select/eunomia: how far its account's progress share is below its fair share" },
	[SFAIR_X_FAIRSHARE] = { "FAIRSHARE", "fairshare",
				"priority/hmrf: its account's rank by long-term multi-resource share" },
	[SFAIR_X_JOBSIZE] = { "JOBSIZE", "jobsize", "its size" },
	[SFAIR_X_PARTITION] = { "PARTITION", "partition",
				"its partition's priority" },
	[SFAIR_X_QOS] = { "QOS", "qos", "its QOS" },
	[SFAIR_X_SITE] = { "SITE", "site",
			   "job_submit/justice: the urgency of its deadline" },
	[SFAIR_X_NICE] = { "NICE", "nice", "its nice value (subtracted)" },
};

static const char *_verdict(justice_verdict_t v)
{
	switch (v) {
	case JUSTICE_BOOTSTRAP:
		return "bootstrap";
	case JUSTICE_FEASIBLE:
		return "feasible";
	case JUSTICE_INFEASIBLE:
		return "infeasible";
	}
	return "unknown";
}

static void _time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static void _account_text(FILE *out, const sfair_explain_t *x,
			  const sfair_report_t *rep)
{
	const sfair_row_t *r = x->row;

	if (!r) {
		fprintf(out,
			"Account %s: no figures (priority/hmrf has not accounted it yet, or you may not see it)\n",
			x->account);
		return;
	}
	fprintf(out, "Account %s:", x->account);
	if (r->has_hmrf && r->dominant >= 0)
		fprintf(out, " dominant share %.6f, aggregate share %.6f,",
			r->dominant, r->aggregate);
	if (r->has_hmrf)
		fprintf(out, " contribution %.4f,", r->contribution);
	if (isinf(r->beta))
		fprintf(out, " beta - (no usage yet)");
	else
		fprintf(out, " beta %.4f (%s)", r->beta,
			r->beta < 1 ? "in sharing loss: it goes first" :
				      "not in sharing loss");
	if (r->has_progress)
		fprintf(out, "; progress share %.4f against a fair %.4f",
			r->pshare, rep->fair_progress);
	fprintf(out, "\n");
}

static void _ahead_text(FILE *out, const sfair_explain_t *x)
{
	if (!x->jobs_ahead) {
		fprintf(out,
			"Nothing pending is ranked above it in partition %s%s: it waits for: %s\n",
			x->partition,
			x->only_own_jobs ? " (of your jobs: PrivateData=jobs)" :
					   "",
			x->reason);
		return;
	}
	fprintf(out,
		"Ranked above it in partition %s: %d pending job%s of %d account%s%s\n",
		x->partition, x->jobs_ahead, x->jobs_ahead == 1 ? "" : "s",
		x->nahead, x->nahead == 1 ? "" : "s",
		x->only_own_jobs ? " (of your jobs only: PrivateData=jobs)" :
				   "");
	fprintf(out, "  %-16s %6s %12s %14s %8s\n", "Account", "Jobs",
		"TopPriority", "DominantShare", "Beta");
	for (int i = 0; i < x->nahead; i++) {
		const sfair_ahead_t *a = &x->ahead[i];
		char dom[32] = "-", beta[32] = "-";

		if (a->row && a->row->has_hmrf && a->row->dominant >= 0)
			snprintf(dom, sizeof(dom), "%.6f", a->row->dominant);
		if (a->row && !isinf(a->row->beta))
			snprintf(beta, sizeof(beta), "%.4f", a->row->beta);
		fprintf(out, "  %-16s %6d %12u %14s %8s\n", a->account, a->jobs,
			a->top, dom, beta);
	}
}

static void _deadline_text(FILE *out, const sfair_explain_t *x)
{
	const justice_estimate_t *e = &x->est;
	char when[32], ok[32];

	_time(x->deadline, when, sizeof(when));
	fprintf(out, "Deadline %s (%+.0f s from now)\n", when,
		difftime(x->deadline, time(NULL)));
	if (x->note)
		fprintf(out, "  At submission Justice noted: %s\n", x->note);
	if (!x->has_estimate) {
		fprintf(out, "  No estimate now: %s\n", x->no_estimate);
		return;
	}
	switch (e->verdict) {
	case JUSTICE_BOOTSTRAP:
		fprintf(out,
			"  Now Justice is still learning (%ld of %ld finished jobs): it admits without judging\n",
			x->learnt, x->bootstrap);
		break;
	case JUSTICE_FEASIBLE:
		fprintf(out,
			"  Now Justice estimates it needs %.0f CPUs (%.0f%% of the %.0f it may use) until its deadline: feasible, urgency %.4g CPUs/s\n",
			e->req_cpus, e->fraction * 100, e->max_cpus,
			e->priority);
		break;
	case JUSTICE_INFEASIBLE:
		if (isfinite(e->deadline_ok))
			_time(x->submit + (time_t)ceil(e->deadline_ok), ok,
			      sizeof(ok));
		else
			snprintf(ok, sizeof(ok), "none");
		fprintf(out,
			"  Now Justice estimates it needs %.0f CPUs of the %.0f it may use: it can no longer make it and is dropped at Justice's next period; feasible: a deadline at or after %s\n",
			e->cpus_needed, e->max_cpus, ok);
		break;
	}
}

static void _text(FILE *out, const sfair_explain_t *x,
		  const sfair_report_t *rep)
{
	char when[32];

	fprintf(out, "Job %u of %s, account %s, partition %s: %s", x->job_id,
		x->user, x->account, x->partition, x->state);
	if (x->pending)
		fprintf(out, " (%s), priority %u\n", x->reason, x->priority);
	else if (x->start && x->nodes[0]) {
		_time(x->start, when, sizeof(when));
		fprintf(out, " on %s since %s\n", x->nodes, when);
	} else {
		fprintf(out, "\n");
	}
	if (x->has_factors) {
		fprintf(out, "Factors, weighted as sprio shows them (%s):\n",
			x->priority_type);
		for (int i = 0; i < SFAIR_X_NFACTORS; i++) {
			if (!x->factor[i] && !x->weight[i])
				continue;
			fprintf(out, "  %-10s %10.0f  %s\n", factor[i].name,
				x->factor[i], factor[i].meaning);
		}
	}
	_account_text(out, x, rep);
	if (x->pending)
		_ahead_text(out, x);
	if (x->deadline)
		_deadline_text(out, x);
}

static json_object *_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *_str(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static json_object *_t(time_t t)
{
	return t > 0 ? json_object_new_int64((int64_t)t) : NULL;
}

static json_object *_factors_json(const sfair_explain_t *x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "priority_type", _str(x->priority_type));
	for (int i = 0; i < SFAIR_X_NFACTORS; i++) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "value", _num(x->factor[i]));
		json_object_object_add(f, "weight",
				       i == SFAIR_X_SITE || i == SFAIR_X_NICE ?
					       NULL :
					       _num(x->weight[i]));
		json_object_object_add(o, factor[i].key, f);
	}
	return o;
}

static json_object *_ahead_json(const sfair_explain_t *x)
{
	json_object *o = json_object_new_object(),
		    *list = json_object_new_array();

	json_object_object_add(o, "jobs", json_object_new_int(x->jobs_ahead));
	json_object_object_add(o, "only_own_jobs",
			       json_object_new_boolean(x->only_own_jobs));
	for (int i = 0; i < x->nahead; i++) {
		const sfair_ahead_t *a = &x->ahead[i];
		json_object *r = json_object_new_object();

		json_object_object_add(r, "account",
				       json_object_new_string(a->account));
		json_object_object_add(r, "jobs", json_object_new_int(a->jobs));
		json_object_object_add(r, "top_priority",
				       json_object_new_int64(a->top));
		json_object_object_add(
			r, "dominant_share",
			a->row && a->row->has_hmrf && a->row->dominant >= 0 ?
				json_object_new_double(a->row->dominant) :
				NULL);
		json_object_object_add(r, "beta",
				       a->row ? _num(a->row->beta) : NULL);
		json_object_array_add(list, r);
	}
	json_object_object_add(o, "accounts", list);
	return o;
}

static json_object *_deadline_json(const sfair_explain_t *x)
{
	const justice_estimate_t *e = &x->est;
	json_object *o = json_object_new_object(), *est = NULL;

	json_object_object_add(o, "deadline", _t(x->deadline));
	json_object_object_add(o, "left",
			       json_object_new_int64((int64_t)difftime(
				       x->deadline, time(NULL))));
	json_object_object_add(o, "note", _str(x->note));
	if (x->has_estimate) {
		est = json_object_new_object();
		json_object_object_add(
			est, "verdict",
			json_object_new_string(_verdict(e->verdict)));
		json_object_object_add(est, "fraction", _num(e->fraction));
		json_object_object_add(est, "req_cpus", _num(e->req_cpus));
		json_object_object_add(est, "max_cpus", _num(e->max_cpus));
		json_object_object_add(est, "ttd", _num(e->ttd));
		json_object_object_add(est, "urgency", _num(e->priority));
		json_object_object_add(est, "cpus_needed",
				       e->verdict == JUSTICE_INFEASIBLE ?
					       _num(e->cpus_needed) :
					       NULL);
		json_object_object_add(
			est, "deadline_ok",
			e->verdict == JUSTICE_INFEASIBLE &&
					isfinite(e->deadline_ok) ?
				_t(x->submit + (time_t)ceil(e->deadline_ok)) :
				NULL);
		json_object_object_add(est, "learnt",
				       json_object_new_int64(x->learnt));
		json_object_object_add(est, "bootstrap",
				       json_object_new_int64(x->bootstrap));
		json_object_object_add(est, "capacity", _num(x->capacity));
	}
	json_object_object_add(o, "estimate", est);
	json_object_object_add(o, "no_estimate",
			       x->has_estimate ? NULL : _str(x->no_estimate));
	return o;
}

static void _json(FILE *out, const sfair_explain_t *x,
		  const sfair_report_t *rep)
{
	json_object *doc = json_object_new_object();
	json_object *meta = json_object_new_object();
	json_object *job = json_object_new_object();

	json_object_object_add(meta, "command",
			       json_object_new_string("sfair --explain"));
	json_object_object_add(meta, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(meta, "at", _t(time(NULL)));
	json_object_object_add(meta, "own_view",
			       json_object_new_boolean(rep->own_view));
	json_object_object_add(job, "job_id", json_object_new_int64(x->job_id));
	json_object_object_add(job, "user", json_object_new_string(x->user));
	json_object_object_add(job, "account", _str(x->account));
	json_object_object_add(job, "partition", _str(x->partition));
	json_object_object_add(job, "state", json_object_new_string(x->state));
	json_object_object_add(job, "reason", _str(x->reason));
	json_object_object_add(job, "priority",
			       json_object_new_int64(x->priority));
	json_object_object_add(job, "submit", _t(x->submit));
	json_object_object_add(job, "start", x->pending ? NULL : _t(x->start));
	json_object_object_add(job, "nodes", _str(x->nodes));
	json_object_object_add(doc, "meta", meta);
	json_object_object_add(doc, "job", job);
	json_object_object_add(doc, "factors",
			       x->has_factors ? _factors_json(x) : NULL);
	json_object_object_add(doc, "account",
			       x->row ? sfair_row_json(rep, x->row) : NULL);
	json_object_object_add(doc, "ahead",
			       x->pending ? _ahead_json(x) : NULL);
	json_object_object_add(doc, "deadline",
			       x->deadline ? _deadline_json(x) : NULL);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

void sfair_explain_print(FILE *out, const sfair_explain_t *x,
			 const sfair_report_t *rep, sfair_style_t style)
{
	if (style == SFAIR_JSON)
		_json(out, x, rep);
	else
		_text(out, x, rep);
}
