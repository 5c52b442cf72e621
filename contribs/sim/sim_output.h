/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_output.h - what horae-sim writes: per-job records, per-account time
 * series (CSV or JSON), and the summary metrics of a run.
 */
#ifndef HORAE_SIM_OUTPUT_H
#define HORAE_SIM_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "sim_engine.h"
#include "sim_trace.h"

typedef enum sim_format {
	SIM_FORMAT_CSV = 0,
	SIM_FORMAT_JSON,
} sim_format_t;

/* The format a file name asks for: .json is JSON, anything else CSV. */
sim_format_t sim_format_of(const char *path);

/* One line per job: id, account, submit, start, end, tasks, status,
 * met, wait, cpu_time, nodes ("name:tasks" joined by ';'). */
int sim_write_jobs(FILE *f, sim_format_t fmt, const sim_trace_t *t,
		   const sim_result_t *r);

/* One line per account per sample. */
int sim_write_series(FILE *f, sim_format_t fmt, const sim_trace_t *t,
		     const sim_result_t *r);

/*
 * The summary as JSON (the caller owns it): run (policy, placement,
 * admission, seed), jobs by status, makespan, job completion and
 * queueing times (mean, p50, p90, p99, max of ended jobs), utilisation
 * per TRES, per account (tasks, CPU time, first start, last end), and
 * for deadline jobs SDR, PTR, WTR and Jain's equality and true fairness.
 */
json_object *sim_summary(const sim_trace_t *t, const sim_config_t *c,
			 const sim_result_t *r);

/* The summary as aligned text. */
int sim_write_summary_text(FILE *f, json_object *summary);

#endif /* HORAE_SIM_OUTPUT_H */
