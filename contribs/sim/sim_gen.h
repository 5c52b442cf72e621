/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gen.h - the papers' synthetic workloads as traces, seeded and
 * reproducible (the same name, seed and options give the same trace on
 * every machine: the generator uses the core's rng, never rand()).
 *
 *   hmrf-table1    H-MRF Example 3 (Table 1): one node of 100 CPUs and
 *                  100 GB; A's tasks <1 CPU, 4 GB>, B's <4 CPU, 1 GB>; new
 *                  tasks per step A 30,20,27,10 and B 4,24,8,30; every task
 *                  lasts one step (work 1 s, a step is 1 s).
 *   hmrf-example4  H-MRF Example 4 (Figs. 3-5): the same cluster; A's tasks
 *                  <1 CPU, 2 GB>, B's <1 CPU, 1 GB>; 15 and 80 tasks at
 *                  t1, 60 and 40 to run at t2; a task lasts one step.
 *   eunomia-micro  Eunomia's micro-benchmark: 20 nodes of 4 CPUs / 4 GB,
 *                  five each of speed 1.0/1.5/2.0/3.0 (features gen1..gen4);
 *                  four jobs of 1000 one-CPU tasks of 2 s at speed 1.0 in
 *                  four accounts, job 4 constrained to gen4.
 *   psdsf-example  psdsf-progressive-filling.md's example: servers
 *                  (100,30) and (30,100), frameworks with per-task demands
 *                  (5,1) and (1,5), each with more tasks than fit.
 *   drfh-fig1      DRFH Fig. 1: servers (2 CPU, 12 GB) and (12 CPU, 2 GB);
 *                  users with tasks (0.2 CPU, 1 GB) and (1 CPU, 0.2 GB).
 *   drfh-dynamic   DRFH's three-user dynamic example (users arriving and
 *                  leaving over time).
 *   justice        a constrained stream of deadline jobs (Justice's
 *                  evaluation): mixed sizes, rigid and elastic, deadlines
 *                  at Jockey/Aria-style multiples of each job's true run
 *                  time; opts->jobs jobs (default 200), opts->load the
 *                  offered load over the cluster's CPUs (default 1.5).
 */
#ifndef HORAE_SIM_GEN_H
#define HORAE_SIM_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sim_trace.h"

typedef struct sim_gen_opts {
	uint64_t seed;	/* any value; 0 is a seed like the others */
	size_t jobs;	/* 0: the generator's default */
	double load;	/* 0: the generator's default */
} sim_gen_opts_t;

/*
 * Make the workload called name into *out.  Returns 0, or -EINVAL with
 * err naming the unknown generator (and listing the known ones) or the
 * bad option; *out untouched on failure.
 */
int sim_gen(const char *name, const sim_gen_opts_t *opts, sim_trace_t *out,
	    horae_err_t *err);

/* The generators' names, NULL-terminated. */
const char *const *sim_gen_names(void);

#endif /* HORAE_SIM_GEN_H */
