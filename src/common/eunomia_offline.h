/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_offline.h - offline Eunomia (the paper's Algorithm 1):
 * progressive filling with one linear program per round, solved with
 * GLPK.  A planning and checking tool (the simulator, tests), never on
 * slurmctld's path; it lives in its own library (libhorae_lp) so that the
 * plugins do not link GLPK.
 *
 * Users i run tasks of demand d_i; machine m has capacity l_m; a task of
 * user i on machine m makes progress p_im per unit of time, and may run
 * there only if allowed (placement constraint).  Tasks are fractional, as
 * in the paper's LP.  f_i, the progress user i would get alone and
 * unconstrained, is sum_m p_im x min_r(l_mr / d_ir).  Each round raises
 * the progress share s_i = progress_i / (w_i f_i) of every active user
 * equally as far as it goes; users that cannot go further are frozen at
 * their task counts; rounds go on until none is active.
 */
#ifndef HORAE_EUNOMIA_OFFLINE_H
#define HORAE_EUNOMIA_OFFLINE_H

#include <stdbool.h>

#include "err.h"
#include "tres.h"

typedef struct eunomia_problem {
	int nusers, nmachines;
	const tres_vec_t *capacity; /* [nmachines] */
	const tres_vec_t *demand;   /* [nusers]: one task */
	const double *weight;	    /* [nusers], > 0 */
	const double *tasks;	    /* [nusers]: most tasks (INFINITY: no cap) */
	const double *progress;	    /* [nusers * nmachines]: p_im >= 0 */
	const bool *allowed;	    /* [nusers * nmachines] */
} eunomia_problem_t;

/*
 * Solve.  x[i * nmachines + m] receives user i's tasks on machine m and
 * share[i] its progress share.  Returns 0, -EINVAL (err names the bad
 * input), -ENOMEM, or -EIO when GLPK fails (err says how); x and share
 * are untouched on failure.
 */
int eunomia_offline(const eunomia_problem_t *p, double *x, double *share,
		    horae_err_t *err);

#endif /* HORAE_EUNOMIA_OFFLINE_H */
