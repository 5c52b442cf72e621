/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_steer.c - placement steering for select/eunomia.  See
 * eunomia_steer.h.  The scores come from the core; this file only reads
 * node and job records and writes sched_weight.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/macros.h"
#include "src/common/node_conf.h"
#include "horae_compat.h"
#include HORAE_INC_SELECT
#include "src/common/xmalloc.h"

#include "eunomia_steer.h"

/* Weak for programs on plain libslurm, as in eunomia_progress.c. */
#pragma weak node_record_count
#pragma weak node_record_table_ptr
#pragma weak last_node_update

typedef struct cand {
	int node;
	double score;
} cand_t;

struct eunomia_steer {
	pthread_mutex_t mutex;
	/* cons_tres's view, per node index: read again when dirty, when
	 * last_node_update moved or the node table changed size. */
	bool dirty;
	time_t seen_update;
	int nnodes;
	double *idle_cpus, *idle_mem;
	tres_vec_t capacity; /* every node's CPUs and memory */
	/* per candidate, for one job_test; room for cap */
	int cap;
	place_node_t *nodes;
	cand_t *cand;
	double *scores;
	/* what apply changed, for restore */
	int nsaved;
	int *saved_node;
	uint64_t *saved_weight;
};

eunomia_steer_t *eunomia_steer_create(void)
{
	eunomia_steer_t *s = xmalloc(sizeof(*s));

	slurm_mutex_init(&s->mutex);
	s->dirty = true;
	return s;
}

void eunomia_steer_destroy(eunomia_steer_t **steer)
{
	eunomia_steer_t *s;

	if (!steer || !(s = *steer))
		return;
	slurm_mutex_destroy(&s->mutex);
	xfree(s->idle_cpus);
	xfree(s->idle_mem);
	xfree(s->nodes);
	xfree(s->cand);
	xfree(s->scores);
	xfree(s->saved_node);
	xfree(s->saved_weight);
	xfree(*steer);
}

void eunomia_steer_touch(eunomia_steer_t *steer)
{
	if (!steer)
		return;
	slurm_mutex_lock(&steer->mutex);
	steer->dirty = true;
	slurm_mutex_unlock(&steer->mutex);
}

static int _by_score(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->node - y->node;
}

/* MB of memory for cpus of the job's CPUs on one node. */
static double _mem(const job_details_t *d, double cpus)
{
	if (d && d->pn_min_memory && d->pn_min_memory != NO_VAL64) {
		if (d->pn_min_memory & MEM_PER_CPU)
			return (double)(d->pn_min_memory & ~MEM_PER_CPU) * cpus;
		return (double)d->pn_min_memory; /* per node */
	}
	if (slurm_conf.def_mem_per_cpu &&
	    slurm_conf.def_mem_per_cpu != NO_VAL64)
		return (double)(slurm_conf.def_mem_per_cpu & ~MEM_PER_CPU) *
		       cpus;
	return 0;
}

/*
 * What the job needs on each of its nodes, CPUs and MB, in demand; and in
 * task, when Slurm may spread its tasks over more nodes than it asked for
 * at least (several tasks, no node count fixed), what one task needs
 * there; else task is all 0 (place_request_t).
 */
static void _demand(job_record_t *job_ptr, tres_vec_t *demand, tres_vec_t *task)
{
	job_details_t *d = job_ptr->details;
	uint32_t nodes = d && d->min_nodes ? d->min_nodes : 1;
	double cpus = d ? ceil((double)d->min_cpus / nodes) : 1, per_task = 1;

	if (d && d->pn_min_cpus > cpus)
		cpus = d->pn_min_cpus;
	tres_zero(demand);
	demand->v[0] = cpus;
	demand->v[1] = _mem(d, cpus);
	tres_zero(task);
	if (!d || d->num_tasks < 2 || d->num_tasks == NO_VAL ||
	    (d->max_nodes && d->max_nodes <= nodes))
		return;
	if (d->cpus_per_task && d->cpus_per_task != NO_VAL16)
		per_task = d->cpus_per_task;
	task->v[0] = per_task;
	task->v[1] = _mem(d, per_task);
}

/* Every node's idle CPUs and memory as cons_tres counts them, and the
 * cluster's capacity, unless what was read is still true. */
static void _read_alloc(eunomia_steer_t *s)
{
	node_record_t *node_ptr;

	if (!s->dirty && s->seen_update == last_node_update &&
	    s->nnodes == node_record_count)
		return;
	/* cons_tres's own view of what each node has allocated. */
	select_g_select_nodeinfo_set_all();
	if (s->nnodes != node_record_count) {
		xfree(s->idle_cpus);
		xfree(s->idle_mem);
		s->idle_cpus = xcalloc(node_record_count + 1, sizeof(double));
		s->idle_mem = xcalloc(node_record_count + 1, sizeof(double));
		s->nnodes = node_record_count;
	}
	tres_zero(&s->capacity);
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		uint16_t alloc_cpus = 0;
		uint64_t alloc_mem = 0;

		s->capacity.v[0] += node_ptr->cpus_efctv;
		s->capacity.v[1] += node_ptr->real_memory;
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
		s->idle_cpus[i] = node_ptr->cpus_efctv > alloc_cpus ?
					  node_ptr->cpus_efctv - alloc_cpus :
					  0;
		s->idle_mem[i] = node_ptr->real_memory > alloc_mem ?
					 node_ptr->real_memory - alloc_mem :
					 0;
	}
	s->dirty = false;
	s->seen_update = last_node_update;
}

/* How many ranks keep a weight each for job_ptr (place_rank_group): room
 * for twice the nodes it asks for, and 16 at least.  cons_tres builds and
 * searches one node set per distinct weight at every job_test, so a
 * weight per candidate made a steered job_test on 64 nodes walk 64 sets. */
static int _distinct_ranks(const job_record_t *job_ptr)
{
	uint32_t nodes = job_ptr->details ? job_ptr->details->min_nodes : 1;

	if (nodes > 100)
		return 216;
	return 16 + 2 * (int)nodes;
}

/* Room for n candidates. */
static void _room(eunomia_steer_t *s, int n)
{
	if (n <= s->cap)
		return;
	xrecalloc(s->nodes, n, sizeof(*s->nodes));
	xrecalloc(s->cand, n, sizeof(*s->cand));
	xrecalloc(s->scores, n, sizeof(*s->scores));
	xrecalloc(s->saved_node, n, sizeof(*s->saved_node));
	xrecalloc(s->saved_weight, n, sizeof(*s->saved_weight));
	s->cap = n;
}

int eunomia_steer_apply(eunomia_steer_t *s, eunomia_progress_t *prog,
			job_record_t *job_ptr, bitstr_t *candidates)
{
	place_policy_t policy = eunomia_progress_conf(prog)->placement;
	place_request_t req = { 0 };
	node_record_t *node_ptr;
	int n, k = 0, first, last, distinct;

	if (!candidates || !(n = bit_set_count(candidates)))
		return 0;
	slurm_mutex_lock(&s->mutex);
	s->nsaved = 0;
	_read_alloc(s);
	_room(s, n);
	first = bit_ffs(candidates);
	last = bit_fls(candidates);
	if (last >= s->nnodes)
		last = s->nnodes - 1;
	for (int i = first; i >= 0 && i <= last && k < n; i++) {
		if (!bit_test(candidates, i) ||
		    !(node_ptr = node_record_table_ptr[i]))
			continue;
		tres_zero(&s->nodes[k].idle);
		s->nodes[k].idle.v[0] = s->idle_cpus[i];
		s->nodes[k].idle.v[1] = s->idle_mem[i];
		s->nodes[k].speed = policy == PLACE_EUNOMIA ?
			eunomia_progress_speed(prog, job_ptr->account,
					       node_ptr) : 1;
		s->cand[k++].node = i;
	}
	req.capacity = s->capacity;
	_demand(job_ptr, &req.demand, &req.task);
	if (policy == PLACE_EUNOMIA)
		req.progress_gap = eunomia_progress_gap(prog, job_ptr->account);
	if (place_score(policy, &req, s->nodes, k, s->scores, NULL))
		k = 0;
	for (int i = 0; i < k; i++)
		s->cand[i].score = s->scores[i];
	qsort(s->cand, k, sizeof(*s->cand), _by_score);
	distinct = _distinct_ranks(job_ptr);
	for (int i = 0; i < k; i++) {
		node_ptr = node_record_table_ptr[s->cand[i].node];
		s->saved_node[i] = s->cand[i].node;
		s->saved_weight[i] = node_ptr->sched_weight;
		node_ptr->sched_weight = (node_ptr->sched_weight & ~0xffULL) |
					 place_rank_group(i, distinct);
	}
	s->nsaved = k;
	slurm_mutex_unlock(&s->mutex);
	return k;
}

void eunomia_steer_restore(eunomia_steer_t *s)
{
	if (!s)
		return;
	slurm_mutex_lock(&s->mutex);
	for (int i = 0; i < s->nsaved; i++) {
		node_record_t *node_ptr =
			node_record_table_ptr[s->saved_node[i]];

		if (node_ptr)
			node_ptr->sched_weight = s->saved_weight[i];
	}
	s->nsaved = 0;
	slurm_mutex_unlock(&s->mutex);
}
