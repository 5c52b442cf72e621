/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_trace_eq.h - for the simulator's Check tests: are two traces the
 * same, member by member (a written and re-read trace, two runs of a
 * generator with one seed)?
 */
#ifndef HORAE_SIM_TRACE_EQ_H
#define HORAE_SIM_TRACE_EQ_H

#include <stdbool.h>
#include <string.h>

#include "../sim_trace.h"

static inline bool sim_trace_eq(const sim_trace_t *a, const sim_trace_t *b)
{
	int nt = tres_layout_count(a->layout);

	if (nt != tres_layout_count(b->layout) || a->nnodes != b->nnodes ||
	    a->naccounts != b->naccounts || a->njobs != b->njobs)
		return false;
	for (int i = 0; i < nt; i++)
		if (strcmp(tres_layout_name(a->layout, i),
			   tres_layout_name(b->layout, i)))
			return false;
	for (int i = 0; i < a->nnodes; i++) {
		const sim_node_t *x = &a->nodes[i], *y = &b->nodes[i];

		if (strcmp(x->name, y->name) || x->speed != y->speed ||
		    strcmp(x->features, y->features) ||
		    memcmp(&x->capacity, &y->capacity, sizeof(x->capacity)))
			return false;
	}
	for (int i = 0; i < a->naccounts; i++)
		if (strcmp(a->accounts[i].name, b->accounts[i].name) ||
		    a->accounts[i].weight != b->accounts[i].weight)
			return false;
	for (size_t i = 0; i < a->njobs; i++) {
		const sim_job_t *x = &a->jobs[i], *y = &b->jobs[i];

		if (x->id != y->id || x->account != y->account ||
		    x->submit != y->submit || x->tasks != y->tasks ||
		    x->min_tasks != y->min_tasks || x->work != y->work ||
		    x->moldable != y->moldable || x->deadline != y->deadline ||
		    strcmp(x->constraint, y->constraint) ||
		    memcmp(&x->demand, &y->demand, sizeof(x->demand)))
			return false;
	}
	return true;
}

#endif /* HORAE_SIM_TRACE_EQ_H */
