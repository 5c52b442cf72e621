/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_mark.h - which finished jobs Justice has learnt from already.
 *
 * slurmctld keeps a finished job in its job list for MinJobAge, so every
 * period sees the same finished jobs again; Justice must learn from each
 * once, across restarts too, without keeping every id it ever saw.  The
 * mark is a time and a few ids: a job that ended before the time has been
 * learnt from, one that ended at or after it has been if its id is kept.
 *
 * Jobs do not become learnable in the order they end: a job keeps its end
 * time while it is COMPLETING (epilog, slurmd's report), which may last
 * longer than a later job's run.  So a period tells the mark each job it
 * learnt from (justice_mark_learnt) and each that has ended but cannot be
 * learnt from yet (justice_mark_waiting); justice_mark_close then moves
 * the time on to the newest end learnt from, never past a waiting job's
 * end, and keeps the ids of the jobs learnt from that ended at or after
 * it.  At most JUSTICE_MARK_MAX ids are kept: beyond, the time moves past
 * the oldest of them (a job that waits while more than that many others
 * end and are learnt from is then taken as learnt from).
 *
 * Opaque; not thread-safe: the caller's lock guards it.
 */
#ifndef HORAE_JUSTICE_MARK_H
#define HORAE_JUSTICE_MARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "err.h"

#define JUSTICE_MARK_MAX 256

typedef struct justice_mark justice_mark_t;

/* A mark that takes every job that ended before since as learnt from.
 * NULL with errno ENOMEM. */
justice_mark_t *justice_mark_create(double since);
void justice_mark_destroy(justice_mark_t **m);

/* Whether job id, which ended at end, was learnt from (by a closed
 * period; false for NULL). */
bool justice_mark_seen(const justice_mark_t *m, uint32_t id, double end);

/* This period learnt from job id, which ended at end: 0, -EINVAL, or
 * -ENOMEM with the mark unchanged. */
int justice_mark_learnt(justice_mark_t *m, uint32_t id, double end);

/* A job that ended at end waits to be learnt from (COMPLETING). */
void justice_mark_waiting(justice_mark_t *m, double end);

/* End the period: move the time and keep the ids as above.  0 or
 * -EINVAL. */
int justice_mark_close(justice_mark_t *m);

/* The time, and how many ids are kept (0 for NULL). */
double justice_mark_time(const justice_mark_t *m);
size_t justice_mark_count(const justice_mark_t *m);

/*
 * Save into doc: "seen_time" (the time), "seen" (the kept ids) and
 * "seen_end" (when each ended).  0, -EINVAL or -ENOMEM.
 */
int justice_mark_to_json(const justice_mark_t *m, json_object *doc);

/*
 * The mark saved in doc.  A doc without "seen_end" (state files before
 * it) takes each id as ended at "seen_time".  NULL with errno EINVAL and
 * err naming the field on a bad doc, ENOMEM.
 */
justice_mark_t *justice_mark_from_json(json_object *doc, horae_err_t *err);

#endif /* HORAE_JUSTICE_MARK_H */
