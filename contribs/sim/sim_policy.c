/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_policy.c - policy names to core selectors (sim_policy.h).
 */
#include <errno.h>
#include <string.h>

#include "sim_policy.h"

static const struct {
	const char *name;
	sim_order_kind_t kind;
	hmrf_policy_t hmrf;
	bool tsf_cluster;
} _orders[] = {
	{ "fifo", SIM_ORDER_FIFO, HMRF_POLICY_HMRF, false },
	{ "drf", SIM_ORDER_HMRF, HMRF_POLICY_DRF, false },
	{ "drfh", SIM_ORDER_HMRF, HMRF_POLICY_DRF, false },
	{ "af", SIM_ORDER_HMRF, HMRF_POLICY_AF, false },
	{ "lt-drf", SIM_ORDER_HMRF, HMRF_POLICY_LT_DRF, false },
	{ "lt-af", SIM_ORDER_HMRF, HMRF_POLICY_LT_AF, false },
	{ "hmrf", SIM_ORDER_HMRF, HMRF_POLICY_HMRF, false },
	{ "tsf", SIM_ORDER_TSF, HMRF_POLICY_HMRF, false },
	{ "tsf-cluster", SIM_ORDER_TSF, HMRF_POLICY_HMRF, .tsf_cluster = true },
	{ "eunomia", SIM_ORDER_EUNOMIA, HMRF_POLICY_HMRF, false },
	{ "psdsf", SIM_ORDER_PSDSF, HMRF_POLICY_HMRF, false },
	{ "rpsdsf", SIM_ORDER_RPSDSF, HMRF_POLICY_HMRF, false },
};

#define N_ORDERS (sizeof(_orders) / sizeof(_orders[0]))

int sim_policy_parse(const char *s, sim_policy_t *out, horae_err_t *err)
{
	for (size_t i = 0; s && i < N_ORDERS; i++) {
		if (strcmp(s, _orders[i].name))
			continue;
		out->kind = _orders[i].kind;
		out->hmrf = _orders[i].hmrf;
		out->tsf_cluster = _orders[i].tsf_cluster;
		out->name = _orders[i].name;
		return 0;
	}
	return err_set(err, -EINVAL,
		       "unknown policy '%s' (use fifo, drf, drfh, af, lt-drf, "
		       "lt-af, hmrf, tsf, tsf-cluster, eunomia, psdsf or "
		       "rpsdsf)",
		       s ? s : "");
}

int sim_place_parse(const char *s, sim_place_t *out, horae_err_t *err)
{
	place_policy_t p;

	if (s && (!strcmp(s, "rrr") || !strcmp(s, "best-match"))) {
		out->dflt = false;
		out->rrr = !strcmp(s, "rrr");
		out->match = !out->rrr;
		out->score = out->rrr ? PLACE_FIRST_FIT : PLACE_BEST_FIT;
		return 0;
	}
	if (!s || place_policy_parse(s, &p, NULL))
		return err_set(err, -EINVAL,
			       "unknown placement '%s' (use first-fit, "
			       "best-fit, best-match, affinity, rpsdsf, "
			       "eunomia or rrr)",
			       s ? s : "");
	out->dflt = false;
	out->rrr = false;
	out->match = false;
	out->score = p;
	return 0;
}

int sim_admit_parse(const char *s, sim_admit_t *out, horae_err_t *err)
{
	justice_policy_t p;

	if (s && !strcmp(s, "none")) {
		out->on = false;
		out->policy = JUSTICE_POLICY_BASELINE_FS;
		return 0;
	}
	if (!s || justice_policy_parse(s, &p, NULL))
		return err_set(err, -EINVAL,
			       "unknown admission '%s' (use none, justice, "
			       "baseline-fs, reactive-fs or oracle)",
			       s ? s : "");
	out->on = true;
	out->policy = p;
	return 0;
}

sim_place_t sim_place_default(const sim_policy_t *p)
{
	sim_place_t d = { .dflt = false,
			  .rrr = false,
			  .score = PLACE_FIRST_FIT };

	if (p->kind == SIM_ORDER_EUNOMIA)
		d.score = PLACE_EUNOMIA;
	else if (p->name && !strcmp(p->name, "drfh"))
		d.score = PLACE_BEST_FIT;
	return d;
}

const char *sim_place_name(const sim_place_t *p)
{
	return p->rrr ? "rrr" : place_policy_name(p->score);
}

const char *sim_admit_name(const sim_admit_t *a)
{
	return a->on ? justice_policy_name(a->policy) : "none";
}
