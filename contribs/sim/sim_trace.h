/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_trace.h - what horae-sim simulates: nodes, accounts and jobs, as
 * read from a JSON trace (horae-sim-trace(5)), a Standard Workload Format
 * file of the Parallel Workloads Archive, or made by a generator of the
 * papers' synthetic workloads.  Plain data: the engine (sim_engine.h)
 * runs it under the core's policies.
 *
 * Units: time in seconds; a task's work is in seconds at speed 1.0 (on a
 * node of speed s it runs work / s); TRES amounts as tres.h reads them.
 */
#ifndef HORAE_SIM_TRACE_H
#define HORAE_SIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "tres.h"

#define SIM_NAME_MAX 64
#define SIM_FEATURES_MAX 256

typedef struct sim_node {
	char name[SIM_NAME_MAX];	 /* "n1", or a type's name + index */
	tres_vec_t capacity;		 /* in the trace's layout */
	double speed;			 /* > 0; 1.0 unless the trace says */
	char features[SIM_FEATURES_MAX]; /* comma-separated, may be "" */
} sim_node_t;

typedef struct sim_account {
	char name[SIM_NAME_MAX];
	double weight; /* contribution, > 0 */
} sim_account_t;

typedef struct sim_job {
	long id;	    /* unique, > 0 */
	int account;	    /* index into the trace's accounts */
	double submit;	    /* >= 0 */
	int tasks;	    /* tasks it asks for (the most, when elastic) */
	int min_tasks;	    /* elastic: the fewest it can run with; rigid:
			     * equal to tasks */
	tres_vec_t demand;  /* per task */
	double work;	    /* per task, s at speed 1.0 (> 0) */
	/* Moldable (Justice): work is the whole job's, split evenly over
	 * the tasks it is given; otherwise every task has work to do. */
	bool moldable;
	char constraint[SIM_NAME_MAX]; /* a feature nodes must have; "" */
	double deadline;    /* absolute, s; 0: none */
} sim_job_t;

typedef struct sim_trace {
	tres_layout_t *layout; /* owned */
	sim_node_t *nodes;
	int nnodes;
	sim_account_t *accounts;
	int naccounts;
	sim_job_t *jobs; /* sorted by submit, then id */
	size_t njobs;
} sim_trace_t;

/* Whether the comma-separated features hold name ("" is held by all). */
bool sim_has_feature(const char *features, const char *name);

/* Free everything the trace owns and zero it.  NULL-safe. */
void sim_trace_free(sim_trace_t *t);

/*
 * Read a JSON trace (format: horae-sim-trace(5)) from path ("-": stdin)
 * into *out.  Returns 0, or -EINVAL (invalid content), the -errno of
 * opening the file (-ENOENT, -EACCES, ...), -EIO or -ENOMEM, with err
 * naming the file and the offending member ("trace.json: jobs[3].tasks:
 * must be an integer >= 1"); *out is untouched on failure.
 */
int sim_trace_read_json(const char *path, sim_trace_t *out, horae_err_t *err);

/* Write the trace as JSON that sim_trace_read_json() reads back. */
int sim_trace_write_json(const sim_trace_t *t, const char *path,
			 horae_err_t *err);

typedef struct sim_swf_opts {
	int nodes;	       /* nodes of the simulated cluster; 0: from the
				* header's MaxNodes, else MaxProcs / cpus */
	int cpus_per_node;     /* default 1 */
	bool by_group;	       /* accounts from the group id, not the user */
	bool requested;	       /* size from requested, not allocated procs */
	size_t max_jobs;       /* 0: all */
} sim_swf_opts_t;

/*
 * Read a Standard Workload Format file: each job becomes one of cpu=1
 * tasks per processor, work its run time; accounts are the user (or
 * group) ids, "u<ID>" ("g<ID>"), weight 1.  Jobs with run time or size
 * <= 0 (cancelled before running) are skipped and counted in *skipped.
 * Returns 0 or -errno with err naming the file and line.
 */
int sim_trace_read_swf(const char *path, const sim_swf_opts_t *opts,
		       sim_trace_t *out, size_t *skipped, horae_err_t *err);

/* A site's own history: sim_trace_read_sacct(). */
typedef struct sim_sacct_opts {
	const char *nodes_path; /* scontrol -o show node's output */
	const char *speed_map; /* "gen1:1,gen4:3" (eunomia.conf's
				 * SpeedMap); NULL: every node 1.0 */
} sim_sacct_opts_t;

/* Why a record is left out, or (CONSTRAINT) replayed with a change. */
enum {
	SIM_SACCT_STEP,
	SIM_SACCT_NEVER_RAN,
	SIM_SACCT_RUNNING,
	SIM_SACCT_NO_CPU,
	SIM_SACCT_NO_TIME,
	SIM_SACCT_NO_ACCOUNT,
	SIM_SACCT_NO_NODE,
	SIM_SACCT_CONSTRAINT,
	SIM_SACCT_NODELIST,
	SIM_SACCT_SKIP_COUNT
};
#define SIM_SACCT_COLS_MAX 128

typedef struct sim_sacct_skip {
	size_t count;
	size_t line; /* the first such record's line */
	char job[32]; /* and its JobID */
} sim_sacct_skip_t;

typedef struct sim_sacct_stats {
	size_t records; /* job lines read */
	size_t jobs; /* replayed */
	double base; /* the first submission, s since the epoch: time 0 */
	sim_sacct_skip_t skip[SIM_SACCT_SKIP_COUNT];
} sim_sacct_stats_t;

/*
 * Read what sacct -a -X -P --format=JobIDRaw,Account,Submit,Start,End,
 * State,AllocTRES,Constraints wrote (any order of columns; the header line
 * first), and the nodes from scontrol -o show node: each job that started
 * and ended becomes one task per allocated CPU, with its share of the
 * memory and GPUs, working for the time it ran (at speed 1.0); its
 * constraint if it is a single feature; its account, weight 1.  Submit
 * times count from the first.  Records that cannot be replayed are
 * counted by reason in *stats, with the first of each (never dropped
 * silently); a malformed one is an error naming the file and line.
 * Returns 0 or -errno; *out untouched on failure.
 */
int sim_trace_read_sacct(const char *path, const sim_sacct_opts_t *opts,
			 sim_trace_t *out, sim_sacct_stats_t *stats,
			 horae_err_t *err);

/* What SIM_SACCT_* means, for people. */
const char *sim_sacct_skip_name(int why);

#endif /* HORAE_SIM_TRACE_H */
