/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_ctx.h - what job_submit/justice holds while slurmctld runs: its
 * configuration, the history it learns from (core justice_history), its
 * counts, which finished jobs it has learnt from, and the facts of each
 * deadline job it admitted (core justice_records).  Saved in
 * StateSaveLocation/horae_justice.state (core state.h) every period and
 * at shutdown.  Guarded by the plugin's mutex.
 */
#ifndef HORAE_JUSTICE_CTX_H
#define HORAE_JUSTICE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/justice_conf.h"
#include "common/justice_history.h"
#include "common/justice_mark.h"
#include "common/justice_records.h"
#include "common/justice_state.h"

typedef struct justice_ctx {
	justice_conf_t conf;
	justice_history_t *hist;
	justice_counts_t counts;
	char *state_path;
	/* The finished jobs learnt from already (justice_mark.h). */
	justice_mark_t *mark;
	/* Each admitted deadline job's facts by job id (records), and those
	 * admitted by job_submit, which runs before slurmctld gives the job
	 * its id, by a serial (pending; next_serial is the next one) until
	 * a period or job_modify finds their job (justice_jobs.c). */
	justice_records_t *records, *pending;
	uint32_t next_serial;
} justice_ctx_t;

/*
 * Create the context with conf, loading the saved history from state_dir.
 * When the saved state and its fallbacks are all unreadable, returns NULL
 * after logging why, unless start_empty (slurmctld -i).  A saved history
 * kept with another HistoryLength or Smoothing stays as it was (what was
 * learnt is worth more), with a log line saying so.
 */
justice_ctx_t *justice_ctx_create(const justice_conf_t *conf,
				  const char *state_dir, bool start_empty);

/* Free it and set *ctx to NULL.  NULL-safe. */
void justice_ctx_destroy(justice_ctx_t **ctx);

/* The state as a JSON document (caller owns it; NULL: out of memory).
 * Cheap enough to build under the mutex; write it without. */
json_object *justice_ctx_snapshot(const justice_ctx_t *ctx);

/* Write a snapshot to path; logs failures. */
void justice_ctx_save(const char *path, json_object *snap);

#endif /* HORAE_JUSTICE_CTX_H */
