/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.h - which node a job (or one task of it) should go to: pure
 * scoring functions over candidate nodes, lowest score best, +INFINITY
 * where the demand does not fit.  How we read the papers:
 * shared/DESIGN.md, "Eunomia".
 *
 *   first-fit  the first node that fits (score = position)
 *   best-fit   DRFH's H(i,l) = ||D_i/D_i1 - c_l/c_l1||_1 over shares of the
 *              cluster's capacity: the node whose idle resources are most
 *              alike the demand (DRFH, eq. 9)
 *   affinity   MRYARN: the largest dot product of demand and idle
 *              resources (both as shares of the cluster's capacity)
 *   rpsdsf     the smallest residual per-server dominant share
 *              max_r d_r / idle_r (rPSDSF's server criterion)
 *   eunomia    steer by speed: an account at or below its fair progress
 *              share to the fastest node, one above it to the slowest;
 *              best-fit breaks ties between nodes of the same speed
 */
#ifndef HORAE_PLACEMENT_H
#define HORAE_PLACEMENT_H

#include <stddef.h>

#include "err.h"
#include "tres.h"

typedef enum place_policy {
	PLACE_FIRST_FIT = 0,
	PLACE_BEST_FIT,
	PLACE_AFFINITY,
	PLACE_RPSDSF,
	PLACE_EUNOMIA,
} place_policy_t;

/*
 * Parse "first-fit", "best-fit", "affinity", "rpsdsf" or "eunomia".
 * Returns 0 or -EINVAL with err listing the names; *out untouched.
 */
int place_policy_parse(const char *str, place_policy_t *out, horae_err_t *err);

/* The name place_policy_parse() reads, or "unknown". */
const char *place_policy_name(place_policy_t policy);

typedef struct place_node {
	tres_vec_t idle;  /* what the node has free now */
	double speed;	  /* speed factor (speed.h) */
} place_node_t;

typedef struct place_request {
	tres_vec_t demand;   /* what the task needs on one node */
	tres_vec_t capacity; /* the cluster's, to turn amounts into shares */
	/* eunomia: >= 0 the account is at or below its fair progress share
	 * (gets faster nodes), < 0 above it (slower nodes). */
	double progress_gap;
	/* A job that may be spread over nodes: what one of its tasks needs
	 * (all 0: the job is not spread, demand is what it needs). */
	tres_vec_t task;
} place_request_t;

/*
 * Score nodes[0..n) for req under policy into scores[0..n).  When demand
 * fits on none of them and req->task is not all 0, the nodes are scored
 * for req->task instead: the job will be spread over nodes, and each is
 * ranked by what one of its tasks needs there (else every node would
 * score +INFINITY and the policy would order none of them).
 * Returns 0, or -EINVAL (err says which argument) with scores untouched.
 */
int place_score(place_policy_t policy, const place_request_t *req,
		const place_node_t *nodes, size_t n, double *scores,
		horae_err_t *err);

/*
 * The group of the candidate ranked i (from 0): the first `distinct` ranks
 * a group each, the ranks after them in groups that double in size
 * (distinct of them, then 2 x distinct, ...), 255 at most; distinct 0
 * counts as 1.  For a scheduler that pays per distinct group (cons_tres
 * builds one node set per node weight): the best ranks keep their order.
 */
unsigned place_rank_group(size_t i, size_t distinct);

/* Index of the lowest finite score (the first on ties), or -1. */
int place_best(const double *scores, size_t n);

/*
 * Best match, the psdsf paper's reading of best-fit DRF ("selects the
 * server whose residual capacity most closely matches their resource
 * demands"): DRFH's H(i,l) over every node, the full ones too, and the
 * task goes to the best node only if it fits there; else it goes nowhere
 * this turn (the paper: "the framework with the next smallest fairness
 * criterion will be allocated").  Unlike best-fit, a node that fits may
 * be passed over.  Returns the index (the first on ties), -1 when the
 * best node does not fit or no node has the task's first resource idle,
 * or -EINVAL for missing arguments.
 */
int place_best_match(const place_request_t *req, const place_node_t *nodes,
		     size_t n);

#endif /* HORAE_PLACEMENT_H */
