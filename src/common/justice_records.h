/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_records.h - what job_submit/justice remembers of each deadline
 * job it admitted, keyed by job id: the facts it needs later to size the
 * job again while it waits, to weigh its time limit's claim, and to learn
 * from it when it ends.  They used to live in the job's AdminComment,
 * which an admin or another job_submit plugin may overwrite; the table is
 * saved in Justice's state file (justice_state.h) instead.
 *
 * An opaque table of at most JUSTICE_RECORDS_MAX records, kept in
 * ascending key order.  The plugin also keeps its admissions whose job id
 * is not known yet (job_submit runs before slurmctld assigns it) in a
 * second table keyed by a serial number; a record's key is then that.
 * Not thread-safe: the caller's lock guards it.
 */
#ifndef HORAE_JUSTICE_RECORDS_H
#define HORAE_JUSTICE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "err.h"

#define JUSTICE_RECORDS_MAX 1000000

/* Largest job id, node count and time limit (minutes) a record takes:
 * Slurm's NO_VAL and INFINITE are above it. */
#define JUSTICE_RECORD_U32_MAX 0xfffffff0u

typedef struct justice_record {
	uint32_t key; /* job id (or serial while the id is unknown),
			     * 1..JUSTICE_RECORD_U32_MAX */
	uint32_t uid; /* the submitter */
	int64_t submit; /* when Justice admitted it, s since the epoch */
	int64_t deadline; /* its deadline then, s since the epoch */
	double max_cpus; /* the most CPUs it may use ("up to M CPUs") */
	bool elastic; /* a node range Justice sizes */
	uint32_t min_nodes; /* elastic: the range it was admitted with */
	uint32_t max_nodes;
	double per_node; /* elastic: CPUs per node of the range */
	uint32_t limit_min; /* its time limit at submission, min; 0: none */
	double allotted; /* CPUs Justice allotted (reqCPUs); 0: none yet
			     * (admitted while learning) */
	uint32_t sized_to; /* nodes Justice last sized it to; 0: never */
	int64_t updated; /* when the record was last written */
} justice_record_t;

typedef struct justice_records justice_records_t;

/* An empty table.  NULL with errno ENOMEM. */
justice_records_t *justice_records_create(void);

/* Free it and set *t to NULL.  NULL-safe. */
void justice_records_destroy(justice_records_t **t);

/*
 * Check r: key, node range, CPUs and times in range and finite.  Returns
 * 0, or -EINVAL with err naming the first bad field.
 */
int justice_record_check(const justice_record_t *r, horae_err_t *err);

/*
 * Insert r (copied), or replace the record with its key.  Returns 0;
 * -EINVAL for a bad record (err says why; see justice_record_check()),
 * -ENOSPC when a new key would make more than JUSTICE_RECORDS_MAX, or
 * -ENOMEM; the table unchanged on failure.
 */
int justice_records_put(justice_records_t *t, const justice_record_t *r,
			horae_err_t *err);

/* The record with key, lent until the table next changes; NULL if none. */
const justice_record_t *justice_records_get(const justice_records_t *t,
					    uint32_t key);

/* Drop the record with key.  Returns 0 or -ENOENT. */
int justice_records_remove(justice_records_t *t, uint32_t key);

/* How many records it holds (0 for NULL). */
size_t justice_records_count(const justice_records_t *t);

/*
 * The i-th record in ascending key order (i < count), lent until the table
 * next changes; NULL when i is out of range.  To iterate.
 */
const justice_record_t *justice_records_at(const justice_records_t *t,
					   size_t i);

/*
 * Drop every record whose key is not among keep[0..nkeep) (when keep is
 * not NULL), and every record updated before `before` (when before > 0).
 * keep need not be sorted.  Returns how many were dropped, or -ENOMEM
 * (nothing dropped) or -EINVAL (t NULL, or keep NULL with nkeep > 0).
 */
long justice_records_prune(justice_records_t *t, const uint32_t *keep,
			   size_t nkeep, int64_t before);

/* The table as a JSON array of objects, one per record, in key order; a
 * new reference, or NULL when out of memory. */
json_object *justice_records_to_json(const justice_records_t *t);

/*
 * A table from the form justice_records_to_json() writes.  Every field is
 * checked for its type and range (justice_record_check()), and keys must
 * be unique.  NULL with errno EINVAL and err naming the record and field,
 * or ENOMEM.
 */
justice_records_t *justice_records_from_json(json_object *arr,
					     horae_err_t *err);

#endif /* HORAE_JUSTICE_RECORDS_H */
