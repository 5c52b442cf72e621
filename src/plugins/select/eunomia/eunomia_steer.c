/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_steer.c - placement steering for select/eunomia.  See
 * eunomia_steer.h.  The scores come from the core; this file only reads
 * node and job records and writes sched_weight.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/node_conf.h"
#include "horae_compat.h"
#include HORAE_INC_SELECT
#include "src/common/xmalloc.h"

#include "eunomia_steer.h"

/* Weak for programs on plain libslurm, as in eunomia_progress.c. */
#pragma weak node_record_count
#pragma weak node_record_table_ptr

typedef struct cand {
	int node;
	double score;
} cand_t;

static int _by_score(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->node - y->node;
}

/* What the job needs on each of its nodes: CPUs and MB. */
static tres_vec_t _demand(job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	uint32_t nodes = d && d->min_nodes ? d->min_nodes : 1;
	double cpus = d ? ceil((double)d->min_cpus / nodes) : 1, mem = 0;
	tres_vec_t v;

	if (d && d->pn_min_cpus > cpus)
		cpus = d->pn_min_cpus;
	if (d && d->pn_min_memory && d->pn_min_memory != NO_VAL64) {
		if (d->pn_min_memory & MEM_PER_CPU)
			mem = (double)(d->pn_min_memory & ~MEM_PER_CPU) * cpus;
		else
			mem = (double)d->pn_min_memory;
	} else if (slurm_conf.def_mem_per_cpu &&
		   slurm_conf.def_mem_per_cpu != NO_VAL64) {
		mem = (double)(slurm_conf.def_mem_per_cpu & ~MEM_PER_CPU) * cpus;
	}
	tres_zero(&v);
	v.v[0] = cpus;
	v.v[1] = mem;
	return v;
}

int eunomia_steer(eunomia_progress_t *prog, job_record_t *job_ptr,
		  bitstr_t *candidates, uint64_t **saved)
{
	place_policy_t policy = eunomia_progress_conf(prog)->placement;
	int n = 0, k = 0, i;
	node_record_t *node_ptr;
	place_node_t *nodes;
	place_request_t req = { 0 };
	cand_t *cand;
	double *scores;

	*saved = NULL;
	if (!candidates || !(n = bit_set_count(candidates)))
		return 0;
	/* cons_tres's own view of what each node has allocated. */
	select_g_select_nodeinfo_set_all();
	nodes = xcalloc(n, sizeof(*nodes));
	cand = xcalloc(n, sizeof(*cand));
	scores = xcalloc(n, sizeof(*scores));
	*saved = xcalloc(node_record_count, sizeof(uint64_t));
	tres_zero(&req.capacity);
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		req.capacity.v[0] += node_ptr->cpus_efctv;
		req.capacity.v[1] += node_ptr->real_memory;
		if (!bit_test(candidates, i) || k == n)
			continue;
		uint16_t alloc_cpus = 0;
		uint64_t alloc_mem = 0;

#if HORAE_NODE_ALLOC_FIELDS
		alloc_cpus = node_ptr->alloc_cpus;
		alloc_mem = node_ptr->alloc_memory;
#else
		select_g_select_nodeinfo_get(node_ptr->select_nodeinfo,
					     SELECT_NODEDATA_SUBCNT,
					     NODE_STATE_ALLOCATED, &alloc_cpus);
		select_g_select_nodeinfo_get(node_ptr->select_nodeinfo,
					     SELECT_NODEDATA_MEM_ALLOC,
					     NODE_STATE_ALLOCATED, &alloc_mem);
#endif
		tres_zero(&nodes[k].idle);
		nodes[k].idle.v[0] = node_ptr->cpus_efctv > alloc_cpus ?
					     node_ptr->cpus_efctv - alloc_cpus : 0;
		nodes[k].idle.v[1] = node_ptr->real_memory > alloc_mem ?
					     node_ptr->real_memory - alloc_mem : 0;
		nodes[k].speed = policy == PLACE_EUNOMIA ?
			eunomia_progress_speed(prog, job_ptr->account,
					       node_ptr) : 1;
		cand[k++].node = i;
	}
	req.demand = _demand(job_ptr);
	if (policy == PLACE_EUNOMIA)
		req.progress_gap = eunomia_progress_gap(prog, job_ptr->account);
	if (place_score(policy, &req, nodes, k, scores, NULL))
		k = 0;
	for (i = 0; i < k; i++)
		cand[i].score = scores[i];
	qsort(cand, k, sizeof(*cand), _by_score);
	for (i = 0; i < k; i++) {
		node_ptr = node_record_table_ptr[cand[i].node];
		(*saved)[cand[i].node] = node_ptr->sched_weight;
		/* Ranks spread over the 256 values of the low byte. */
		node_ptr->sched_weight = (node_ptr->sched_weight & ~0xffULL) |
					 (uint64_t)(i * 256 / k);
	}
	xfree(nodes);
	xfree(cand);
	xfree(scores);
	return k;
}

void eunomia_steer_restore(uint64_t **saved)
{
	node_record_t *node_ptr;

	if (!*saved)
		return;
	/* slurmctld's weights end in 0xff, never 0: 0 means "not steered". */
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		if ((*saved)[i])
			node_ptr->sched_weight = (*saved)[i];
	xfree(*saved);
}
