/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.h - sfair --explain JOBID: why a job is where it is.  What
 * slurmctld says of the job (one job listing, one priority-factors
 * listing, and for a deadline job one node listing: a fixed number of
 * requests, never a loop), put beside the accounts' figures from the
 * published files and, for a deadline job, Justice's estimate now, made
 * by the core from the learnt history exactly as job_submit/justice
 * makes it.  Printing is explain_print.c's.
 */
#ifndef HORAE_SFAIR_EXPLAIN_H
#define HORAE_SFAIR_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/justice.h"
#include "common/justice_conf.h"
#include "report.h"

/* sprio's columns, in its order. */
enum {
	SFAIR_X_AGE,
	SFAIR_X_ASSOC,
	SFAIR_X_FAIRSHARE,
	SFAIR_X_JOBSIZE,
	SFAIR_X_PARTITION,
	SFAIR_X_QOS,
	SFAIR_X_SITE,
	SFAIR_X_NICE,
	SFAIR_X_NFACTORS
};

/* An account with pending jobs ranked above the job. */
typedef struct sfair_ahead {
	char *account;
	int jobs;
	uint32_t top; /* the highest priority among them */
	const sfair_row_t *row; /* its figures; NULL: not visible */
} sfair_ahead_t;

typedef struct sfair_explain {
	uint32_t job_id;
	char user[64];
	char *account, *partition, *nodes;
	char state[32], reason[64];
	bool pending;
	uint32_t priority;
	time_t submit, start, deadline;
	/* sprio's factors, weighted, and the weights (pending jobs) */
	bool has_factors;
	double factor[SFAIR_X_NFACTORS];
	double weight[SFAIR_X_NFACTORS];
	const char *priority_type;
	const sfair_row_t *row; /* the job's account; NULL: not visible */
	sfair_ahead_t *ahead; /* by the top priority, highest first */
	int nahead, jobs_ahead;
	bool only_own_jobs; /* PrivateData=jobs: others' jobs not shown */
	/* A deadline job: what Justice noted at submission, and now */
	char *note; /* "justice: up to ..." or NULL */
	bool has_estimate;
	const char *no_estimate; /* why not, when not */
	double requested; /* the most CPUs it may use */
	double capacity; /* the cluster's CPUs */
	long learnt, bootstrap;
	justice_estimate_t est;
} sfair_explain_t;

/*
 * Fill x for job_id from slurmctld, the report's rows and Justice's
 * history (hist NULL: none) and configuration.  Returns 0, or 2 with the
 * reason printed (no such job, slurmctld unreachable).
 */
int sfair_explain_load(sfair_explain_t *x, uint32_t job_id,
		       const sfair_report_t *rep, const justice_history_t *hist,
		       const justice_conf_t *jconf);

void sfair_explain_free(sfair_explain_t *x);

#endif /* HORAE_SFAIR_EXPLAIN_H */
