/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_engine.h - the discrete-event simulation: a trace's jobs arrive,
 * are admitted (or refused), ordered, placed task by task on the nodes,
 * run for their work over the node's speed, and leave.  Every decision is
 * the core's: hmrf_rank, tsf_rank, eunomia_rank and psdsf_pick order the
 * tasks, place_score and place_rrr place them, justice_estimate admits
 * and sizes deadline jobs; the engine only keeps the clock and the books
 * (ledgers of usage, non-sharing allocation and progress).
 *
 * A scheduling pass runs at every instant something happens (a job
 * arrives, a task ends): it is progressive filling, one task at a time,
 * until no pending task fits.  Tasks that end and jobs that arrive at the
 * same instant are all handled before the pass.
 */
#ifndef HORAE_SIM_ENGINE_H
#define HORAE_SIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sim_policy.h"
#include "sim_trace.h"
#include "window.h"

typedef struct sim_config {
	sim_policy_t policy; /* sim_policy_parse() */
	sim_place_t placement; /* sim_place_parse(); SIM_PLACE_DEFAULT */
	sim_admit_t admission; /* sim_admit_parse() */
	window_spec_t window; /* the accounting window (H-MRF, Eunomia) */
	double bucket; /* sliding window bucket, s; 0: L/64 */
	double timeout; /* H-MRF starvation guard, s; 0: off */
	double horizon; /* H-MRF virtual charge cap, s; 0: the window
			 * length, 7 days without one (hmrf_books.h) */
	double borrow_limit; /* H-MRF borrow limit; 0: none */
	/* Scheduling latency, s: a task the scheduler picks holds its
	 * resources at once and starts this much later (a real cluster's
	 * second between a decision and the job running); it waits, as
	 * demand, until then.  0: none.  Not with admission control. */
	double start_latency;
	uint64_t seed; /* randomized round robin */
	double sample; /* series sample period, s; 0: none.  A run stops
			* with -E2BIG past SIM_SAMPLES_MAX samples */
	double until; /* stop the clock here; 0: when all ended */
	long bootstrap; /* Justice: jobs learnt before admitting */
	/* Justice: a running job past its deadline is killed when it holds
	 * more CPUs than this (smaller ones finish and teach); default 4. */
	double kill_above;
	int history; /* Justice: history length */
	/* Justice: its order decides among the jobs (the paper's Justice,
	 * every job a deadline job, those without one last), or, false, the
	 * ordering policy decides and Justice only admits, sizes, drops and
	 * kills, as job_submit/justice beside priority/hmrf does with its
	 * default UrgencyWeight (an urgency that only breaks ties, and
	 * H-MRF gives no two jobs the same priority).  Default true. */
	bool urgency_first;
	/* Called now and then with the fraction of jobs ended (progress
	 * bar); may be NULL. */
	void (*progress)(double done, void *arg);
	void *progress_arg;
} sim_config_t;

/* Defaults: policy hmrf, default placement, no admission, no window. */
void sim_config_init(sim_config_t *c);

typedef enum sim_job_status {
	SIM_JOB_ENDED = 0, /* all its tasks ran to the end */
	SIM_JOB_REFUSED, /* admission refused it at arrival */
	SIM_JOB_DROPPED, /* dropped while pending (deadline out of reach) */
	SIM_JOB_KILLED, /* killed running, past its deadline */
	SIM_JOB_UNFINISHED /* still pending or running at --until */
} sim_job_status_t;

const char *sim_job_status_name(sim_job_status_t s);

typedef struct sim_job_result {
	long id;
	int account;
	double submit;
	double start; /* its first task's start; NAN if it never ran */
	double end; /* its last task's end (or its kill); NAN */
	int tasks; /* tasks it was given (Justice may size it) */
	sim_job_status_t status;
	bool met; /* a deadline job that ended by its deadline */
	double cpu_time; /* CPU x s its tasks held (killed ones too) */
	/* Where its tasks ran: node index per task (tasks entries, -1 for
	 * a task that never started). */
	int *task_node;
} sim_job_result_t;

/* At most this many samples (one per account per sample time; about 300
 * bytes each: at this cap horae-sim peaked at 0.34 GB, measured).  A period too short for the run is refused, rather
 * than memory growing without bound (a period below the resolution of
 * the time never advances). */
#define SIM_SAMPLES_MAX ((size_t)1000000)

/* One sample of one account. */
typedef struct sim_sample {
	double t;
	int account;
	double running_tasks;
	double pending_tasks; /* tasks of its jobs not started yet */
	tres_vec_t running; /* TRES held now */
	tres_vec_t used; /* TRES x s used in the window */
	double aggregate; /* weighted aggregate of window usage */
	double dominant; /* weighted dominant share of window usage */
	double share_now; /* weighted dominant share of what it holds now */
	double beta; /* sharing degree (INFINITY: no demand) */
	/* TRES x s its running tasks have left of their charge spans, as
	 * the books hold it: what H-MRF's ranking caps their step at */
	tres_vec_t running_left;
	double progress_share; /* Eunomia progress share */
	double task_share; /* TSF: running tasks / weight x monopoly */
	/* Eunomia's fair progress share at t, the same for every account
	 * (eunomia_fair_share(); for plots, not in the series files) */
	double fair_progress;
} sim_sample_t;

typedef struct sim_result {
	sim_job_result_t *jobs; /* in the trace's order */
	size_t njobs;
	sim_sample_t *samples;
	size_t nsamples;
	double makespan; /* last event's time */
	tres_vec_t used; /* TRES x s held over the run */
	tres_vec_t capacity; /* the cluster's */
	size_t passes; /* scheduling passes */
	size_t tasks_started;
} sim_result_t;

/*
 * Simulate trace t under c.  Returns 0 with *out the result (the caller
 * frees it with sim_result_destroy()), or -EINVAL (err says which option
 * does not fit the trace) / -ENOMEM.
 */
int sim_run(const sim_trace_t *t, const sim_config_t *c, sim_result_t **out,
	    horae_err_t *err);

void sim_result_destroy(sim_result_t **r);

#endif /* HORAE_SIM_ENGINE_H */
