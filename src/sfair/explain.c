/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.c - what sfair --explain gathers: see explain.h.
 */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include "plugins/shared/horae_compat.h"

#include "ctld_open.h"
#include "explain.h"
#include "slurm_conf.h"

/* In libslurm since long, not in its public header. */
extern char *slurm_job_state_string(uint32_t inx);

/* The admin comment job_submit/justice writes at admission. */
#define JUSTICE_NOTE "justice: up to "

static bool _pending(const slurm_job_info_t *j)
{
	return (j->job_state & JOB_STATE_BASE) == JOB_PENDING;
}

static const sfair_row_t *_row(const sfair_report_t *rep, const char *acct)
{
	for (int i = 0; acct && i < rep->nrows; i++)
		if (!strcmp(rep->rows[i].account, acct))
			return &rep->rows[i];
	return NULL;
}

/* Whether pending job o is ranked above pending job j. */
static bool _above(const slurm_job_info_t *o, const slurm_job_info_t *j)
{
	if (o->job_id == j->job_id || !_pending(o) || o->priority == 0)
		return false;
	if (!o->partition || !j->partition ||
	    strcmp(o->partition, j->partition))
		return false;
	return o->priority > j->priority ||
	       (o->priority == j->priority && o->job_id < j->job_id);
}

static int _ahead_cmp(const void *a, const void *b)
{
	const sfair_ahead_t *x = a, *y = b;

	if (x->top != y->top)
		return x->top < y->top ? 1 : -1;
	return strcmp(x->account, y->account);
}

/* The accounts of the pending jobs ranked above j, in jobs. */
static int _ahead(sfair_explain_t *x, const job_info_msg_t *jobs,
		  const slurm_job_info_t *j, const sfair_report_t *rep)
{
	for (uint32_t i = 0; i < jobs->record_count; i++) {
		const slurm_job_info_t *o = &jobs->job_array[i];
		const char *acct = o->account ? o->account : "";
		sfair_ahead_t *a = NULL;

		if (!_above(o, j))
			continue;
		x->jobs_ahead++;
		for (int k = 0; k < x->nahead && !a; k++)
			if (!strcmp(x->ahead[k].account, acct))
				a = &x->ahead[k];
		if (!a) {
			sfair_ahead_t *p =
				realloc(x->ahead, (x->nahead + 1) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			x->ahead = p;
			a = &x->ahead[x->nahead++];
			*a = (sfair_ahead_t){ .account = strdup(acct),
					      .row = _row(rep, acct) };
			if (!a->account)
				return -ENOMEM;
		}
		a->jobs++;
		if (o->priority > a->top)
			a->top = o->priority;
	}
	if (x->nahead)
		qsort(x->ahead, x->nahead, sizeof(*x->ahead), _ahead_cmp);
	return 0;
}

/* sprio's factors of pending job j (already weighted) and the weights. */
static void _factors(sfair_explain_t *x, const slurm_job_info_t *j,
		     const slurm_conf_t *conf)
{
	priority_factors_response_msg_t *resp = NULL;
	priority_factors_object_t *f, *found = NULL;
	const horae_prio_factors_t *pf;
	list_itr_t *it;

	if (HORAE_LOAD_JOB_PRIO(&resp) || !resp || !resp->priority_factors_list)
		goto done;
	it = slurm_list_iterator_create(resp->priority_factors_list);
	while ((f = slurm_list_next(it))) {
		if (f->job_id != j->job_id)
			continue;
		/* Pending in several partitions: its own first one. */
		if (!found || (f->partition && j->partition &&
			       !strncmp(j->partition, f->partition,
					strlen(f->partition))))
			found = f;
	}
	slurm_list_iterator_destroy(it);
	if (!found || !(pf = HORAE_PRIO_OBJ_FACTORS(found)))
		goto done;
	x->has_factors = true;
	x->factor[SFAIR_X_AGE] = pf->priority_age;
	x->factor[SFAIR_X_ASSOC] = pf->priority_assoc;
	x->factor[SFAIR_X_FAIRSHARE] = pf->priority_fs;
	x->factor[SFAIR_X_JOBSIZE] = pf->priority_js;
	x->factor[SFAIR_X_PARTITION] = pf->priority_part;
	x->factor[SFAIR_X_QOS] = pf->priority_qos;
	x->factor[SFAIR_X_SITE] =
		(double)((int64_t)pf->priority_site - NICE_OFFSET);
	x->factor[SFAIR_X_NICE] = (double)((int64_t)pf->nice - NICE_OFFSET);
	x->weight[SFAIR_X_AGE] = conf->priority_weight_age;
	x->weight[SFAIR_X_ASSOC] = conf->priority_weight_assoc;
	x->weight[SFAIR_X_FAIRSHARE] = conf->priority_weight_fs;
	x->weight[SFAIR_X_JOBSIZE] = conf->priority_weight_js;
	x->weight[SFAIR_X_PARTITION] = conf->priority_weight_part;
	x->weight[SFAIR_X_QOS] = conf->priority_weight_qos;
done:
	if (resp)
		slurm_free_priority_factors_response_msg(resp);
}

/* The cluster's CPUs, as job_submit/justice counts them. */
static double _capacity(void)
{
	node_info_msg_t *nodes = NULL;
	double cpus = 0;

	if (slurm_load_node(0, &nodes, SHOW_ALL) || !nodes)
		return NAN;
	for (uint32_t i = 0; i < nodes->record_count; i++)
		if (nodes->node_array[i].name)
			cpus += nodes->node_array[i].cpus_efctv;
	slurm_free_node_info_msg(nodes);
	return cpus;
}

/* Justice's estimate for pending deadline job j now, as its period
 * makes it. */
static void _estimate(sfair_explain_t *x, const slurm_job_info_t *j,
		      const justice_history_t *hist,
		      const justice_conf_t *jconf)
{
	time_t now = time(NULL);
	time_t start = j->eligible_time > now ? j->eligible_time : now;
	const char *c = x->note;
	justice_params_t p = { .policy = jconf->policy,
			       .bootstrap = jconf->bootstrap };
	justice_request_t r = { 0 };
	double v;

	if (!x->pending) {
		x->no_estimate = "the job is no longer pending";
		return;
	}
	if (!hist) {
		x->no_estimate = "no Justice state to estimate from";
		return;
	}
	if (jconf->policy != JUSTICE_POLICY_JUSTICE) {
		x->no_estimate = "Justice's Policy judges no pending job";
		return;
	}
	p.capacity = _capacity();
	x->capacity = p.capacity;
	/* What Justice noted at admission, else what the job asks for. */
	if (c && sscanf(c + strlen(JUSTICE_NOTE), "%lf", &v) == 1 && v > 0)
		x->requested = v;
	else
		x->requested = j->num_cpus;
	r.requested = x->requested;
	r.deadline = difftime(j->deadline, j->submit_time);
	r.queued = difftime(start, j->submit_time);
	r.run_cap = justice_run_cap(difftime(j->deadline, start));
	x->learnt = justice_history_count(hist);
	x->bootstrap = jconf->bootstrap;
	if (!(p.capacity > 0) || r.deadline <= 0 ||
	    justice_estimate(hist, &p, &r, &x->est, NULL)) {
		x->no_estimate =
			"the job or the cluster gives nothing to estimate";
		return;
	}
	x->has_estimate = true;
}

static void _user(char *buf, size_t len, uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned int)uid);
}

static char *_dup(const char *s)
{
	return strdup(s ? s : "");
}

int sfair_explain_load(sfair_explain_t *x, uint32_t job_id,
		       const sfair_report_t *rep, const justice_history_t *hist,
		       const justice_conf_t *jconf)
{
	job_info_msg_t *jobs = NULL;
	slurm_conf_t *conf = NULL;
	const slurm_job_info_t *j = NULL;
	int rc = 2;

	memset(x, 0, sizeof(*x));
	if (sfair_ctld_open("--explain"))
		return 2;
	if (slurm_load_ctl_conf(0, &conf)) {
		fprintf(stderr, "sfair: cannot reach slurmctld: %s\n",
			slurm_strerror(errno));
		goto cleanup;
	}
	if (slurm_load_jobs(0, &jobs, SHOW_ALL)) {
		fprintf(stderr, "sfair: cannot list the jobs: %s\n",
			slurm_strerror(errno));
		goto cleanup;
	}
	for (uint32_t i = 0; i < jobs->record_count && !j; i++)
		if (jobs->job_array[i].job_id == job_id)
			j = &jobs->job_array[i];
	if (!j) {
		fprintf(stderr, "sfair: job %u: no such job%s\n", job_id,
			conf->private_data & PRIVATE_DATA_JOBS ?
				" (or not yours: PrivateData=jobs)" :
				"");
		goto cleanup;
	}
	x->job_id = j->job_id;
	_user(x->user, sizeof(x->user), j->user_id);
	x->account = _dup(j->account);
	x->partition = _dup(j->partition);
	x->nodes = _dup(j->nodes);
	snprintf(x->state, sizeof(x->state), "%s",
		 slurm_job_state_string(j->job_state));
	snprintf(x->reason, sizeof(x->reason), "%s",
		 HORAE_JOB_REASON_STRING(j->state_reason));
	x->pending = _pending(j);
	x->priority = j->priority;
	x->submit = j->submit_time;
	x->start = j->start_time;
	x->deadline = j->deadline;
	x->row = _row(rep, j->account);
	x->only_own_jobs = conf->private_data & PRIVATE_DATA_JOBS;
	if (j->admin_comment && strstr(j->admin_comment, JUSTICE_NOTE))
		x->note = strdup(strstr(j->admin_comment, JUSTICE_NOTE));
	if (!x->account || !x->partition || !x->nodes ||
	    (x->pending && _ahead(x, jobs, j, rep))) {
		fprintf(stderr, "sfair: out of memory\n");
		goto cleanup;
	}
	if (x->pending)
		_factors(x, j, conf);
	if (j->deadline)
		_estimate(x, j, hist, jconf);
	/* The text outlives the configuration. */
	x->priority_type = _dup(conf->priority_type);
	rc = x->priority_type ? 0 : 2;
cleanup:
	if (jobs)
		slurm_free_job_info_msg(jobs);
	if (conf)
		slurm_free_ctl_conf(conf);
	slurm_fini();
	sfair_ctld_close();
	return rc;
}

void sfair_explain_free(sfair_explain_t *x)
{
	for (int i = 0; i < x->nahead; i++)
		free(x->ahead[i].account);
	free(x->ahead);
	free(x->account);
	free(x->partition);
	free(x->nodes);
	free(x->note);
	free((char *)x->priority_type);
	memset(x, 0, sizeof(*x));
}
