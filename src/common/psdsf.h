/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * psdsf.h - Per-Server Dominant Share Fairness (PSDSF, Khamse-Ashari et
 * al.) and its residual form rPSDSF, as psdsf-progressive-filling.md runs
 * them by progressive filling: the framework (user) and the server (node)
 * of the next task are chosen jointly, the pair with the smallest
 *
 *   K(n, i) = (x_n / w_n) x max over slots r with d_nr > 0 of d_nr / c_ir
 *
 * first, where x_n is the tasks user n holds, d_n its per-task demand and
 * c_i the node's capacity (PSDSF) or its residual, idle resources
 * (rPSDSF).  The second factor is the user's per-server dominant share on
 * node i.  RRR-PSDSF lets randomized round robin (place_rrr.h) pick the
 * node and PSDSF only the user: psdsf_pick_user().
 *
 * Only pairs where the demand fits the node's idle resources (and the
 * eligibility matrix allows) are candidates.  Ties go to the lower user,
 * then the lower node.  Nothing is charged: the caller places the task,
 * subtracts the demand from idle and counts the task before the next
 * pick.
 *
 * The tie-break matters when users hold no tasks (K = 0 for every node).
 * In (user, node) order it reproduces the paper's figures on its
 * two-server example: PSDSF 41 tasks (19 and 0 / 2 and 20), RRR-PSDSF
 * about 41 on average; breaking it by the smaller per-server share
 * instead gives 40 for both (psdsf_test.c).
 */
#ifndef HORAE_PSDSF_H
#define HORAE_PSDSF_H

#include <stdbool.h>

#include "tres.h"

typedef struct psdsf_user {
	double weight; /* w_n, finite and > 0 */
	double tasks; /* x_n: tasks it holds now, >= 0 */
	tres_vec_t demand; /* per task; not all zero when active */
	bool active; /* has a pending task */
} psdsf_user_t;

/*
 * The user and node of the next task: the active user and node with the
 * smallest K among the pairs where the user's demand fits idle[node] and
 * eligible[user * nn + node] is true (eligible NULL: every pair).
 * capacity and idle have nn entries each; c in K is capacity[node], or
 * idle[node] when residual.  A node whose capacity lacks a slot the user
 * demands is never a candidate for that user.
 * Returns 0 with *user and *node set; -ENOENT when no pair fits; -EINVAL
 * for a NULL or negative argument, a weight not > 0, negative tasks, a
 * negative or non-finite slot, or an active user with an all-zero demand.
 * *user and *node are untouched unless 0 is returned.
 */
int psdsf_pick(const psdsf_user_t *u, int nu, const tres_vec_t *capacity,
	       const tres_vec_t *idle, const bool *eligible, int nn,
	       bool residual, int *user, int *node);

/*
 * The same criterion on the one node given (0 <= node < nn): the active
 * user with the smallest K whose demand fits idle[node] and whom eligible
 * allows there; ties by the lower user.
 * Returns 0 with *user set; -ENOENT when no user fits; -EINVAL as
 * psdsf_pick() and for node out of range.  *user untouched on failure.
 */
int psdsf_pick_user(const psdsf_user_t *u, int nu, const tres_vec_t *capacity,
		    const tres_vec_t *idle, const bool *eligible, int nn,
		    int node, bool residual, int *user);

/*
 * A pass of picks over one set of users and nodes, for callers that pick
 * many tasks in a row: psdsf_pass_pick() and psdsf_pass_pick_user() make
 * exactly the picks psdsf_pick() and psdsf_pick_user() would make on the
 * same data, ties included, but the data are validated once, when they
 * change, and each user's best node is kept between picks and recomputed
 * only when a change may have moved it and the user could still win.
 * The pass holds its own copy of every argument; the caller reports each
 * change (the idle resources of the node it placed on, the tasks of the
 * user it placed for, a user's new demand) through the setters.
 */
typedef struct psdsf_pass psdsf_pass_t;

/*
 * A pass over copies of the arguments of psdsf_pick().
 * Returns the pass, which the caller owns (psdsf_pass_destroy()), or NULL
 * with errno EINVAL (an argument psdsf_pick() rejects) or ENOMEM.
 */
psdsf_pass_t *psdsf_pass_create(const psdsf_user_t *u, int nu,
				const tres_vec_t *capacity,
				const tres_vec_t *idle, const bool *eligible,
				int nn, bool residual);

/* Free a pass and set *pass to NULL.  NULL-safe. */
void psdsf_pass_destroy(psdsf_pass_t **pass);

/*
 * psdsf_pick() on the pass's data: 0 with *user and *node set, -ENOENT
 * when no pair fits, -EINVAL for a NULL argument (outputs untouched).
 */
int psdsf_pass_pick(psdsf_pass_t *pass, int *user, int *node);

/*
 * psdsf_pick_user() on the pass's data: 0 with *user set, -ENOENT when no
 * user fits on node, -EINVAL for a NULL argument or node out of range.
 */
int psdsf_pass_pick_user(psdsf_pass_t *pass, int node, int *user);

/*
 * Node's idle resources are now *idle.  Returns 0, or -EINVAL (NULL
 * argument, node out of range, a negative or non-finite slot) with the
 * pass unchanged.
 */
int psdsf_pass_set_idle(psdsf_pass_t *pass, int node, const tres_vec_t *idle);

/*
 * User now holds tasks tasks.  Returns 0, or -EINVAL (NULL pass, user out
 * of range, tasks negative or not finite) with the pass unchanged.
 */
int psdsf_pass_set_tasks(psdsf_pass_t *pass, int user, double tasks);

/*
 * User is now *u, allowed on the nodes where eligible[node] is true (nn
 * entries; NULL: every node).  Returns 0, or -EINVAL (NULL pass or u,
 * user out of range, *u as psdsf_pick() rejects it) with the pass
 * unchanged.
 */
int psdsf_pass_set_user(psdsf_pass_t *pass, int user, const psdsf_user_t *u,
			const bool *eligible);

#endif /* HORAE_PSDSF_H */
