/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_nodeheap.h - nodes ordered by their score for one request, kept in
 * order as single nodes change: the placement a task gets when the nodes
 * it may go to are many and the last placement changed one of them.
 *
 * Nodes are indices 0..nn-1.  The key of node n is score[n], in an array
 * the caller owns and passes at creation: a finite score comes before
 * one that is not (INFINITY, NaN), a lower one before a higher, and a
 * tie goes to the lower node; nodes whose scores are not finite come in
 * node order.  The caller changes score[n] only for a node not in the
 * heap, or calls sim_nodeheap_set(n) right after (or builds the heap
 * afresh).
 */
#ifndef HORAE_SIM_NODEHEAP_H
#define HORAE_SIM_NODEHEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sim_nodeheap sim_nodeheap_t;

/*
 * An empty heap over nodes 0..nn-1 (nn >= 0) keyed on score[0..nn-1].
 * Returns it, or NULL with errno EINVAL (nn < 0, score NULL with nn > 0)
 * or ENOMEM.  Destroy with sim_nodeheap_destroy().
 */
sim_nodeheap_t *sim_nodeheap_create(int nn, const double *score);

/* Free the heap and set *h to NULL.  NULL-safe. */
void sim_nodeheap_destroy(sim_nodeheap_t **h);

/*
 * Make the heap hold exactly nodes[0..m-1] (each once, each in 0..nn-1).
 * Returns 0, or -EINVAL (a node out of range or given twice) with the
 * heap empty.
 */
int sim_nodeheap_build(sim_nodeheap_t *h, const int *nodes, size_t m);

/*
 * Put node n in its place by score[n]: added if it is not in the heap,
 * moved if it is.  Returns 0 or -EINVAL (n out of range).
 */
int sim_nodeheap_set(sim_nodeheap_t *h, int n);

/* Take node n out if it is in.  Returns 0 or -EINVAL (n out of range). */
int sim_nodeheap_remove(sim_nodeheap_t *h, int n);

/* The first node, or -1 when the heap is empty. */
int sim_nodeheap_top(const sim_nodeheap_t *h);

/* How many nodes it holds, and whether node n is one of them. */
size_t sim_nodeheap_len(const sim_nodeheap_t *h);
bool sim_nodeheap_has(const sim_nodeheap_t *h, int n);

#endif /* HORAE_SIM_NODEHEAP_H */
