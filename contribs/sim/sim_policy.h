/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_policy.h - the names horae-sim takes for ordering, placement and
 * admission policies, and what each maps to in the core.  Nothing here
 * decides anything: the engine calls the core function a name selects.
 *
 *   order      fifo (submit order), drf, af, lt-drf, lt-af, hmrf
 *              (hmrf_rank), drfh (drf over the cluster's pooled capacity,
 *              placed best-fit), tsf (tsf_rank; a task share over the
 *              tasks its constraints allow), tsf-cluster (over the
 *              cluster's tasks, as Eunomia's Fig. 3), eunomia (eunomia_rank),
 *              psdsf and rpsdsf (psdsf_pick: account and node together)
 *   placement  first-fit, best-fit, affinity, rpsdsf, eunomia
 *              (place_score), rrr (place_rrr: randomized round robin)
 *   admission  none, justice, baseline-fs, reactive-fs, oracle
 *              (justice_estimate, justice_kill_late)
 */
#ifndef HORAE_SIM_POLICY_H
#define HORAE_SIM_POLICY_H

#include <stdbool.h>

#include "err.h"
#include "hmrf.h"
#include "justice.h"
#include "placement.h"

typedef enum sim_order_kind {
	SIM_ORDER_FIFO = 0,
	SIM_ORDER_HMRF, /* hmrf_rank with .hmrf */
	SIM_ORDER_TSF,
	SIM_ORDER_EUNOMIA,
	SIM_ORDER_PSDSF, /* joint; per-server dominant share */
	SIM_ORDER_RPSDSF, /* joint; residual */
} sim_order_kind_t;

typedef struct sim_policy {
	sim_order_kind_t kind;
	hmrf_policy_t hmrf; /* for SIM_ORDER_HMRF */
	/* TSF: a task share over the tasks the whole cluster holds, its
	 * constraints ignored (as Eunomia's Fig. 3 evaluates TSF). */
	bool tsf_cluster;
	const char *name;
} sim_policy_t;

typedef struct sim_place {
	bool dflt; /* the policy's default */
	bool rrr; /* randomized round robin */
	bool match; /* best match: place_best_match() */
	place_policy_t score;
} sim_place_t;

typedef struct sim_admit {
	bool on;
	justice_policy_t policy;
} sim_admit_t;

/* Parse a name; 0 or -EINVAL with err listing the valid names (*out
 * untouched). */
int sim_policy_parse(const char *s, sim_policy_t *out, horae_err_t *err);
int sim_place_parse(const char *s, sim_place_t *out, horae_err_t *err);
int sim_admit_parse(const char *s, sim_admit_t *out, horae_err_t *err);

/* The placement a policy uses when none is named: eunomia for eunomia,
 * best-fit for drfh, first-fit otherwise. */
sim_place_t sim_place_default(const sim_policy_t *p);

/* Names, for messages and output. */
const char *sim_place_name(const sim_place_t *p);
const char *sim_admit_name(const sim_admit_t *a);

#endif /* HORAE_SIM_POLICY_H */
