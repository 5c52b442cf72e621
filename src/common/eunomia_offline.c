/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eunomia_offline.c - offline Eunomia by progressive filling over GLPK
 * linear programs.  See eunomia_offline.h.
 *
 * How we read Algorithm 1: a frozen (saturated) user keeps at least the
 * progress it had when it froze (the paper keeps its task count; keeping
 * progress also stops its tasks from being moved to slower machines).  The
 * objective maximises s and, by a tiny second term, uses as few tasks as
 * that takes, so the allocation is tidy and prefers fast machines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "eunomia_offline.h"

#define EPS_TASKS 1e-9 /* weight of "fewer tasks" in the objective */
#define EPS_SHARE 1e-7 /* a share that grows less than this did not grow */

typedef struct solver {
	const eunomia_problem_t *p;
	double *f;	/* progress alone and unconstrained, per user */
	double *floor;	/* per user: least progress to keep, < 0: none */
} solver_t;

static int _idx(const solver_t *sv, int i, int m)
{
	return i * sv->p->nmachines + m;
}

static int _check(const eunomia_problem_t *p, horae_err_t *err)
{
	if (!p || p->nusers < 1 || p->nmachines < 1 || !p->capacity ||
	    !p->demand || !p->weight || !p->tasks || !p->progress ||
	    !p->allowed)
		return err_set(err, -EINVAL, "offline eunomia: missing arguments");
	for (int i = 0; i < p->nusers; i++) {
		if (!(p->weight[i] > 0) || !isfinite(p->weight[i]))
			return err_set(err, -EINVAL,
				       "offline eunomia: user %d has weight %g; it must be > 0",
				       i, p->weight[i]);
		if (!(p->tasks[i] >= 0))
			return err_set(err, -EINVAL,
				       "offline eunomia: user %d has %g tasks",
				       i, p->tasks[i]);
		if (tres_is_zero(&p->demand[i]))
			return err_set(err, -EINVAL,
				       "offline eunomia: user %d's tasks demand nothing",
				       i);
		for (int m = 0; m < p->nmachines; m++)
			if (!(p->progress[i * p->nmachines + m] >= 0) ||
			    !isfinite(p->progress[i * p->nmachines + m]))
				return err_set(err, -EINVAL,
					       "offline eunomia: progress of user %d on machine %d is %g",
					       i, m,
					       p->progress[i * p->nmachines + m]);
	}
	return 0;
}

/* Tasks of user i that machine m holds alone (fractional). */
static double _fit(const eunomia_problem_t *p, int i, int m)
{
	double k = INFINITY;

	for (int r = 0; r < TRES_MAX; r++)
		if (p->demand[i].v[r] > 0)
			k = fmin(k, p->capacity[m].v[r] / p->demand[i].v[r]);
	return k;
}

/*
 * One LP: maximise s with the users in raise at progress w_i f_i s, the
 * others at least at their floor; x receives the allocation.
 */
static int _solve(const solver_t *sv, const bool *raise, double *x, double *s,
		  horae_err_t *err)
{
	const eunomia_problem_t *p = sv->p;
	int n = p->nusers, M = p->nmachines, ncol = n * M + 1, row = 0, k = 0;
	int cap = 2 * n * M + n * M * TRES_MAX + n * M + 8;
	int *ia = malloc((cap + 1) * sizeof(int));
	int *ja = malloc((cap + 1) * sizeof(int));
	double *ar = malloc((cap + 1) * sizeof(double));
	glp_prob *lp = glp_create_prob();
	glp_smcp parm;
	int rc = 0;

	if (!ia || !ja || !ar || !lp) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	glp_set_obj_dir(lp, GLP_MAX);
	glp_add_cols(lp, ncol);
	for (int i = 0; i < n; i++)
		for (int m = 0; m < M; m++) {
			int c = _idx(sv, i, m) + 1;

			if (p->allowed[_idx(sv, i, m)])
				glp_set_col_bnds(lp, c, GLP_LO, 0, 0);
			else
				glp_set_col_bnds(lp, c, GLP_FX, 0, 0);
			glp_set_obj_coef(lp, c, -EPS_TASKS);
		}
	glp_set_col_bnds(lp, ncol, GLP_LO, 0, 0);
	glp_set_obj_coef(lp, ncol, 1);

	for (int i = 0; i < n; i++) {
		/* Progress: raised users equal w_i f_i s, others >= floor. */
		if (raise[i] || sv->floor[i] > 0) {
			glp_add_rows(lp, 1);
			row++;
			for (int m = 0; m < M; m++) {
				ia[++k] = row, ja[k] = _idx(sv, i, m) + 1;
				ar[k] = p->progress[_idx(sv, i, m)];
			}
			if (raise[i]) {
				ia[++k] = row, ja[k] = ncol;
				ar[k] = -p->weight[i] * sv->f[i];
				glp_set_row_bnds(lp, row, GLP_FX, 0, 0);
			} else {
				glp_set_row_bnds(lp, row, GLP_LO, sv->floor[i], 0);
			}
		}
		if (isfinite(p->tasks[i])) {
			glp_add_rows(lp, 1);
			row++;
			for (int m = 0; m < M; m++)
				ia[++k] = row, ja[k] = _idx(sv, i, m) + 1, ar[k] = 1;
			glp_set_row_bnds(lp, row, GLP_UP, 0, p->tasks[i]);
		}
	}
	for (int m = 0; m < M; m++)
		for (int r = 0; r < TRES_MAX; r++) {
			bool used = false;

			for (int i = 0; i < n; i++)
				used |= p->demand[i].v[r] > 0;
			if (!used)
				continue;
			glp_add_rows(lp, 1);
			row++;
			for (int i = 0; i < n; i++)
				if (p->demand[i].v[r] > 0) {
					ia[++k] = row, ja[k] = _idx(sv, i, m) + 1;
					ar[k] = p->demand[i].v[r];
				}
			glp_set_row_bnds(lp, row, GLP_UP, 0, p->capacity[m].v[r]);
		}
	glp_load_matrix(lp, k, ia, ja, ar);
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	if (glp_simplex(lp, &parm) || glp_get_status(lp) != GLP_OPT) {
		rc = err_set(err, -EIO, "offline eunomia: the LP has no optimum (GLPK status %d)",
			     glp_get_status(lp));
		goto cleanup;
	}
	*s = glp_get_col_prim(lp, ncol);
	for (int c = 1; c < ncol; c++)
		x[c - 1] = fmax(0, glp_get_col_prim(lp, c));
cleanup:
	if (lp)
		glp_delete_prob(lp);
	free(ia);
	free(ja);
	free(ar);
	return rc;
}

static double _progress(const solver_t *sv, const double *x, int i)
{
	double sum = 0;

	for (int m = 0; m < sv->p->nmachines; m++)
		sum += x[_idx(sv, i, m)] * sv->p->progress[_idx(sv, i, m)];
	return sum;
}

/* One round: raise the active users; freeze those that cannot go on.
 * Returns the number frozen, or a negative errno. */
static int _round(solver_t *sv, bool *active, double *x, horae_err_t *err)
{
	int n = sv->p->nusers, frozen = 0, rc;
	bool *only = calloc(n, sizeof(bool)), *sat = calloc(n, sizeof(bool));
	double *xz = malloc((size_t)n * sv->p->nmachines * sizeof(double));
	double *save = malloc(n * sizeof(double));
	double s, sz;

	if (!only || !sat || !xz || !save) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	rc = _solve(sv, active, x, &s, err);
	if (rc)
		goto cleanup;
	memcpy(save, sv->floor, n * sizeof(double));
	for (int i = 0; i < n; i++) {
		if (!active[i])
			continue;
		/* All but i hold what this round gave them; can i grow? */
		for (int j = 0; j < n; j++)
			sv->floor[j] = (j == i) ? -1 :
				       active[j] ? _progress(sv, x, j) : save[j];
		memset(only, 0, n * sizeof(bool));
		only[i] = true;
		rc = _solve(sv, only, xz, &sz, err);
		memcpy(sv->floor, save, n * sizeof(double));
		if (rc)
			goto cleanup;
		sat[i] = sz <= s + EPS_SHARE;
	}
	/* Freeze after testing them all: each test holds the others. */
	for (int i = 0; i < n; i++) {
		if (!sat[i])
			continue;
		active[i] = false;
		sv->floor[i] = _progress(sv, x, i);
		frozen++;
	}
	rc = frozen;
cleanup:
	free(only);
	free(sat);
	free(xz);
	free(save);
	return rc;
}

int eunomia_offline(const eunomia_problem_t *p, double *x, double *share,
		    horae_err_t *err)
{
	solver_t sv = { .p = p };
	bool *active = NULL;
	double *xs = NULL;
	int rc, nactive = 0;

	rc = _check(p, err);
	if (rc)
		return rc;
	if (!x || !share)
		return err_set(err, -EINVAL, "offline eunomia: missing arguments");
	sv.f = calloc(p->nusers, sizeof(double));
	sv.floor = malloc(p->nusers * sizeof(double));
	active = calloc(p->nusers, sizeof(bool));
	xs = calloc((size_t)p->nusers * p->nmachines, sizeof(double));
	if (!sv.f || !sv.floor || !active || !xs) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	glp_term_out(GLP_OFF);
	for (int i = 0; i < p->nusers; i++) {
		for (int m = 0; m < p->nmachines; m++)
			sv.f[i] += p->progress[_idx(&sv, i, m)] * _fit(p, i, m);
		sv.floor[i] = -1;
		/* A user that can run nowhere, or has no tasks, is done. */
		active[i] = sv.f[i] > 0 && p->tasks[i] > 0;
		nactive += active[i];
	}
	while (nactive > 0) {
		rc = _round(&sv, active, xs, err);
		if (rc < 0)
			goto cleanup;
		if (rc == 0) {
			rc = err_set(err, -EIO,
				     "offline eunomia: a round froze no user (numerical trouble)");
			goto cleanup;
		}
		nactive -= rc;
	}
	memcpy(x, xs, (size_t)p->nusers * p->nmachines * sizeof(double));
	for (int i = 0; i < p->nusers; i++)
		share[i] = sv.f[i] > 0 ?
				   _progress(&sv, xs, i) / (p->weight[i] * sv.f[i]) :
				   0;
	rc = 0;
cleanup:
	free(sv.f);
	free(sv.floor);
	free(active);
	free(xs);
	return rc;
}
