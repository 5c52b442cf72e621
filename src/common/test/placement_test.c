/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement_test.c - Check tests of placement.c: the
 * examples of the papers, reproduced by progressive filling over the
 * scorers.  psdsf-progressive-filling.md: rPSDSF places 42 tasks, 19 and
 * 2 / 2 and 19.  DRFH Fig. 1: best-fit places 10 tasks of each user where
 * first-fit and per-server DRF place 6.
 */
#include <check.h>

#include "check_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../placement.h"

static tres_vec_t _v(double a, double b)
{
	tres_vec_t v;

	tres_zero(&v);
	v.v[0] = a;
	v.v[1] = b;
	return v;
}

START_TEST(test_badargs)
{
	place_request_t q = { 0 };
	place_node_t n = { 0 };
	double s = 7;
	horae_err_t err;
	place_policy_t p = PLACE_AFFINITY;

	ck_assert_int_eq(place_score(PLACE_BEST_FIT, NULL, &n, 1, &s, &err),
			 -EINVAL);
	ck_assert_int_eq(place_score(PLACE_BEST_FIT, &q, NULL, 1, &s, &err),
			 -EINVAL);
	ck_assert_int_eq(place_score((place_policy_t)9, &q, &n, 1, &s, &err),
			 -EINVAL);
	ck_assert_double_eq(s, 7);
	ck_assert_int_eq(place_policy_parse("random", &p, &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown placement 'random' (use first-fit"));
	ck_assert_int_eq(p, PLACE_AFFINITY);
	ck_assert_int_eq(place_policy_parse("rpsdsf", &p, &err), 0);
	ck_assert_str_eq(place_policy_name(p), "rpsdsf");
	ck_assert_int_eq(place_best(NULL, 0), -1);
}
END_TEST

/* rPSDSF: frameworks and servers chosen jointly, the smallest x_n times
 * the framework's residual dominant share on the server first. */
START_TEST(test_rpsdsf_example)
{
	tres_vec_t d[2] = { _v(5, 1), _v(1, 5) };
	place_node_t nodes[2] = { { _v(100, 30), 1 }, { _v(30, 100), 1 } };
	place_request_t q = { 0 };
	int x[2][2] = { { 0 } }, placed = 0;
	double s[2];

	q.capacity = _v(130, 130);
	for (;;) {
		int bn = -1, bi = -1;
		double bk = INFINITY, bs = INFINITY;

		for (int n = 0; n < 2; n++) {
			q.demand = d[n];
			ck_assert_int_eq(place_score(PLACE_RPSDSF, &q, nodes, 2,
						     s, NULL), 0);
			for (int i = 0; i < 2; i++) {
				double k = (x[n][0] + x[n][1]) * s[i];

				if (!isfinite(s[i]))
					continue;
				if (k < bk || (k == bk && s[i] < bs)) {
					bk = k, bs = s[i], bn = n, bi = i;
				}
			}
		}
		if (bn < 0)
			break;
		x[bn][bi]++;
		placed++;
		tres_sub(&nodes[bi].idle, &d[bn]);
	}
	ck_assert_msg(x[0][0] == 19 && x[0][1] == 2 && x[1][0] == 2 &&
			      x[1][1] == 19,
		      "got %d %d / %d %d", x[0][0], x[0][1], x[1][0], x[1][1]);
	ck_assert_int_eq(placed, 42);
}
END_TEST

/* DRFH: the user with the lowest global dominant share goes next, to the
 * node the placement policy picks; a user whose task fits nowhere stops. */
static void _drfh(place_policy_t policy, int x[2][2])
{
	tres_vec_t d[2] = { _v(0.2, 1), _v(1, 0.2) }, use[2];
	place_node_t nodes[2] = { { _v(2, 12), 1 }, { _v(12, 2), 1 } };
	place_request_t q = { 0 };
	int blocked[2] = { 0, 0 };
	double s[2];

	q.capacity = _v(14, 14);
	memset(x, 0, sizeof(int[2][2]));
	for (;;) {
		int u = -1, i;

		for (int n = 0; n < 2; n++) {
			use[n] = d[n];
			tres_scale(&use[n], x[n][0] + x[n][1]);
			if (!blocked[n] &&
			    (u < 0 || tres_dominant_share(&use[n], &q.capacity,
							  NULL) <
					      tres_dominant_share(&use[u],
								  &q.capacity,
								  NULL)))
				u = n;
		}
		if (u < 0)
			break;
		q.demand = d[u];
		ck_assert_int_eq(place_score(policy, &q, nodes, 2, s, NULL), 0);
		i = place_best(s, 2);
		if (i < 0) {
			blocked[u] = 1;
			continue;
		}
		x[u][i]++;
		tres_sub(&nodes[i].idle, &d[u]);
	}
}

START_TEST(test_drfh_best_fit)
{
	int x[2][2];

	_drfh(PLACE_BEST_FIT, x);
	ck_assert_msg(x[0][0] == 10 && x[0][1] == 0 && x[1][0] == 0 &&
			      x[1][1] == 10,
		      "best-fit: %d %d / %d %d", x[0][0], x[0][1], x[1][0],
		      x[1][1]);
	_drfh(PLACE_FIRST_FIT, x);
	ck_assert_msg(x[0][0] + x[0][1] == 6 && x[1][0] + x[1][1] == 6,
		      "first-fit: %d %d / %d %d", x[0][0], x[0][1], x[1][0],
		      x[1][1]);
}
END_TEST

/* Best match passes over a node that fits when the closest match does
 * not fit; best-fit takes the node that fits. */
START_TEST(test_best_match)
{
	place_request_t q = { 0 };
	place_node_t nodes[2] = { 0 };
	double scores[2];

	q.demand.v[0] = 5;
	q.demand.v[1] = 1;
	q.capacity.v[0] = 70;
	q.capacity.v[1] = 70;
	nodes[0].idle.v[0] = 4; /* the shape of the demand, too small */
	nodes[0].idle.v[1] = 1;
	nodes[1].idle.v[0] = 10; /* fits, memory-heavy */
	nodes[1].idle.v[1] = 60;
	ck_assert_int_eq(place_best_match(&q, nodes, 2), -1);
	ck_assert_int_eq(place_score(PLACE_BEST_FIT, &q, nodes, 2, scores,
				     NULL),
			 0);
	ck_assert_int_eq(place_best(scores, 2), 1);
	nodes[0].idle.v[0] = 6; /* now it fits, and still matches best */
	ck_assert_int_eq(place_best_match(&q, nodes, 2), 0);
	nodes[0].idle.v[0] = 0; /* no CPU idle: never the best match */
	ck_assert_int_eq(place_best_match(&q, nodes, 2), 1);
	ck_assert_int_eq(place_best_match(&q, nodes, 0), -1);
	ck_assert_int_eq(place_best_match(NULL, nodes, 2), -EINVAL);
	ck_assert_int_eq(place_best_match(&q, NULL, 2), -EINVAL);
}
END_TEST

/* Per-server DRF (the naive generalisation DRFH improves on): DRF within
 * each server alone.  A reference for the comparison, not a policy of ours. */
START_TEST(test_drfh_per_server_drf)
{
	tres_vec_t d[2] = { _v(0.2, 1), _v(1, 0.2) };
	tres_vec_t cap[2] = { _v(2, 12), _v(12, 2) };
	int total[2] = { 0, 0 };

	for (int i = 0; i < 2; i++) {
		tres_vec_t used, share[2];
		int x[2] = { 0, 0 }, blocked[2] = { 0, 0 };

		tres_zero(&used);
		for (;;) {
			int u = -1;

			for (int n = 0; n < 2; n++) {
				share[n] = d[n];
				tres_scale(&share[n], x[n]);
				if (!blocked[n] &&
				    (u < 0 ||
				     tres_dominant_share(&share[n], &cap[i], NULL) <
					     tres_dominant_share(&share[u], &cap[i],
								 NULL)))
					u = n;
			}
			if (u < 0)
				break;
			tres_vec_t after = used;
			tres_add(&after, &d[u]);
			if (!tres_fits(&after, &cap[i])) {
				blocked[u] = 1;
				continue;
			}
			used = after;
			x[u]++;
		}
		total[0] += x[0];
		total[1] += x[1];
	}
	ck_assert_int_eq(total[0], 6);
	ck_assert_int_eq(total[1], 6);
}
END_TEST

START_TEST(test_affinity_and_eunomia)
{
	place_node_t nodes[3] = { { _v(2, 2), 1.0 },
				  { _v(4, 4), 3.0 },
				  { _v(3, 3), 1.5 } };
	place_request_t q = { 0 };
	double s[3];

	q.capacity = _v(9, 9);
	q.demand = _v(1, 1);
	place_score(PLACE_AFFINITY, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 1); /* most idle resources */
	place_score(PLACE_RPSDSF, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 1); /* smallest residual share */
	place_score(PLACE_FIRST_FIT, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 0);
	q.progress_gap = 0.5; /* below fair: the fastest node */
	place_score(PLACE_EUNOMIA, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 1);
	q.progress_gap = 0; /* at fair (or nobody has progress yet): fastest */
	place_score(PLACE_EUNOMIA, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 1);
	q.progress_gap = -0.5; /* above fair: the slowest node */
	place_score(PLACE_EUNOMIA, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), 0);
	/* A node where the demand does not fit is never chosen. */
	q.demand = _v(3.5, 1);
	place_score(PLACE_EUNOMIA, &q, nodes, 3, s, NULL);
	ck_assert(isinf(s[0]) && isinf(s[2]));
	ck_assert_int_eq(place_best(s, 3), 1);
	q.demand = _v(5, 1);
	place_score(PLACE_BEST_FIT, &q, nodes, 3, s, NULL);
	ck_assert_int_eq(place_best(s, 3), -1);
}
END_TEST

/* Groups against a model written from the rule: past distinct d, rank i
 * falls in group d + floor(log2((i - d) / d + 1)), capped at 255. */
/*
 * DRFH's best-fit H (Wang et al., eq. 11), written from the paper and not
 * from placement.c: the task's demand and the node's idle resources, each
 * normalised to the cluster's capacity and then to the first resource
 * the task demands, and the L1 distance between the two; infinite when
 * the node has none of that resource left.
 */
static double _model_h(const tres_vec_t *d, const tres_vec_t *idle,
		       const tres_vec_t *cap)
{
	double dn[TRES_MAX], cn[TRES_MAX], h = 0;
	int ref = -1;

	for (int r = 0; r < TRES_MAX; r++) {
		dn[r] = cap->v[r] > 0 ? d->v[r] / cap->v[r] : 0;
		cn[r] = cap->v[r] > 0 ? idle->v[r] / cap->v[r] : 0;
		if (ref < 0 && d->v[r] > 0)
			ref = r;
	}
	if (ref < 0)
		return 0;
	if (!(dn[ref] > 0) || !(cn[ref] > 0))
		return INFINITY;
	for (int r = 0; r < TRES_MAX; r++)
		if (cap->v[r] > 0)
			h += fabs(dn[r] / dn[ref] - cn[r] / cn[ref]);
	return h;
}

/*
 * On generated clusters and tasks (one to five resources, some the
 * cluster lacks, some the task does not ask for): scoring many nodes in
 * one call gives each the score it gets alone, to the bit, for every
 * policy (what depends on the request alone is worked out once a call);
 * best-fit's score is the model's H where the node fits; and
 * place_best_match picks the node of least H.
 */
START_TEST(test_best_fit_generated)
{
	unsigned seed = 20261126;
	const place_policy_t pol[] = { PLACE_FIRST_FIT, PLACE_BEST_FIT,
				       PLACE_AFFINITY, PLACE_RPSDSF,
				       PLACE_EUNOMIA };

	for (int round = 0; round < 2000; round++) {
		int nres = 1 + rand_r(&seed) % 5, n = 1 + rand_r(&seed) % 40;
		place_request_t q = { .progress_gap = rand_r(&seed) % 3 - 1.0 };
		place_node_t nodes[40];
		double all[40], one, low = INFINITY;
		int best = -1;

		tres_zero(&q.demand);
		tres_zero(&q.capacity);
		for (int r = 0; r < nres; r++) {
			if (rand_r(&seed) % 6)
				q.capacity.v[r] = 1 + rand_r(&seed) % 4096;
			if (rand_r(&seed) % 4)
				q.demand.v[r] = rand_r(&seed) % 64 / 4.0;
		}
		for (int i = 0; i < n; i++) {
			tres_zero(&nodes[i].idle);
			for (int r = 0; r < nres; r++)
				nodes[i].idle.v[r] = rand_r(&seed) % 257 / 2.0;
			nodes[i].speed = 1 + rand_r(&seed) % 4;
		}
		for (size_t k = 0; k < sizeof(pol) / sizeof(pol[0]); k++) {
			ck_assert_int_eq(
				place_score(pol[k], &q, nodes, n, all, NULL),
				0);
			for (int i = 0; i < n; i++) {
				ck_assert_int_eq(place_score(pol[k], &q,
							     &nodes[i], 1, &one,
							     NULL),
						 0);
				if (pol[k] == PLACE_FIRST_FIT && isfinite(one))
					one = i; /* its rank in the call */
				ck_assert_msg(
					!memcmp(&one, &all[i], sizeof(one)),
					"round %d %s node %d: %.17g alone, %.17g among %d",
					round, place_policy_name(pol[k]), i,
					one, all[i], n);
			}
		}
		place_score(PLACE_BEST_FIT, &q, nodes, n, all, NULL);
		for (int i = 0; i < n; i++) {
			double h = _model_h(&q.demand, &nodes[i].idle,
					    &q.capacity);

			if (h < low) {
				low = h;
				best = i;
			}
			if (!tres_fits(&q.demand, &nodes[i].idle))
				continue;
			if (isinf(h))
				ck_assert_msg(isinf(all[i]),
					      "round %d node %d: %g, model inf",
					      round, i, all[i]);
			else
				ck_assert_msg(
					fabs(all[i] - h) <= 1e-12 * (1 + h),
					"round %d node %d: %.17g, model %.17g",
					round, i, all[i], h);
		}
		if (best >= 0 && !tres_fits(&q.demand, &nodes[best].idle))
			best = -1;
		ck_assert_int_eq(place_best_match(&q, nodes, n), best);
	}
}
END_TEST

/* Every slot of need within avail, written out here. */
static bool _model_fits(const tres_vec_t *need, const tres_vec_t *avail)
{
	for (int r = 0; r < TRES_MAX; r++)
		if (need->v[r] > avail->v[r])
			return false;
	return true;
}

/*
 * A job that may be spread over nodes (q.task set): where its demand fits
 * on some node, the scores are those of the job on one node, task or no
 * task; where it fits on none, they are those of one task, and every node
 * one task fits on has a finite score.  Generated cases, every policy.
 */
START_TEST(test_spread_generated)
{
	unsigned seed = 20261203;
	int fell_back = 0, kept = 0;

	for (int round = 0; round < 2000; round++) {
		int nres = 1 + rand_r(&seed) % 4, n = 1 + rand_r(&seed) % 24;
		place_policy_t pol = (place_policy_t)(rand_r(&seed) % 5);
		place_request_t q = { .progress_gap = rand_r(&seed) % 3 - 1.0 };
		place_request_t alone, one;
		place_node_t nodes[24];
		double got[24], want[24];
		bool any = false;

		tres_zero(&q.demand);
		tres_zero(&q.capacity);
		tres_zero(&q.task);
		for (int r = 0; r < nres; r++) {
			q.capacity.v[r] = 1 + rand_r(&seed) % 4096;
			q.task.v[r] = 1 + rand_r(&seed) % 8;
			q.demand.v[r] = q.task.v[r] * (1 + rand_r(&seed) % 12);
		}
		for (int i = 0; i < n; i++) {
			tres_zero(&nodes[i].idle);
			for (int r = 0; r < nres; r++)
				nodes[i].idle.v[r] = rand_r(&seed) % 64;
			nodes[i].speed = 1 + rand_r(&seed) % 4;
			any = any || _model_fits(&q.demand, &nodes[i].idle);
		}
		alone = q;
		tres_zero(&alone.task);
		one = alone;
		one.demand = q.task;
		ck_assert_int_eq(place_score(pol, &q, nodes, n, got, NULL), 0);
		ck_assert_int_eq(place_score(pol, any ? &alone : &one, nodes, n,
					     want, NULL),
				 0);
		for (int i = 0; i < n; i++) {
			ck_assert_msg(
				!memcmp(&got[i], &want[i], sizeof(got[i])),
				"round %d %s node %d (%s): %.17g, want %.17g",
				round, place_policy_name(pol), i,
				any ? "fits" : "spread", got[i], want[i]);
			if (!any && _model_fits(&q.task, &nodes[i].idle))
				ck_assert_msg(
					isfinite(got[i]),
					"round %d %s node %d: one task fits, score %g",
					round, place_policy_name(pol), i,
					got[i]);
		}
		if (any)
			kept++;
		else
			fell_back++;
	}
	/* Both cases came up often enough to mean something. */
	ck_assert_int_gt(kept, 200);
	ck_assert_int_gt(fell_back, 200);
}
END_TEST

/*
 * The case select/eunomia meets: 12 one-CPU tasks, four nodes of 6 idle
 * CPUs, the last two three times as fast.  On one node the job fits
 * nowhere; spread, Placement=eunomia ranks the fast nodes first for an
 * account at its share, the slow ones for one above it, and without the
 * task every node scores +INFINITY.
 */
START_TEST(test_spread_eunomia_example)
{
	place_request_t q = { .progress_gap = 0 };
	place_node_t nodes[4];
	double s[4];

	tres_zero(&q.demand);
	tres_zero(&q.capacity);
	tres_zero(&q.task);
	q.capacity.v[0] = 32;
	q.capacity.v[1] = 32000;
	q.demand.v[0] = 12;
	q.demand.v[1] = 100;
	q.task.v[0] = 1;
	q.task.v[1] = 100;
	for (int i = 0; i < 4; i++) {
		tres_zero(&nodes[i].idle);
		nodes[i].idle.v[0] = 6;
		nodes[i].idle.v[1] = 7000;
		nodes[i].speed = i < 2 ? 1 : 3;
	}
	ck_assert_int_eq(place_score(PLACE_EUNOMIA, &q, nodes, 4, s, NULL), 0);
	ck_assert(s[2] < s[0] && s[2] < s[1] && s[3] < s[0] && s[3] < s[1]);
	q.progress_gap = -1;
	ck_assert_int_eq(place_score(PLACE_EUNOMIA, &q, nodes, 4, s, NULL), 0);
	ck_assert(s[0] < s[2] && s[0] < s[3] && s[1] < s[2] && s[1] < s[3]);
	tres_zero(&q.task);
	ck_assert_int_eq(place_score(PLACE_EUNOMIA, &q, nodes, 4, s, NULL), 0);
	for (int i = 0; i < 4; i++)
		ck_assert(isinf(s[i]));
}
END_TEST

START_TEST(test_rank_group)
{
	size_t ds[] = { 0, 1, 2, 16, 18, 216, 300 };

	for (size_t k = 0; k < sizeof(ds) / sizeof(ds[0]); k++) {
		size_t d = ds[k] ? ds[k] : 1, wrong = 0, back = 0;
		unsigned prev = 0;

		for (size_t i = 0; i < 200000; i++) {
			unsigned g = place_rank_group(i, ds[k]);
			double model = i < d ? (double)i :
				d + floor(log2((double)(i - d) / d + 1));

			wrong += g != (model > 255 ? 255 : (unsigned)model);
			back += g < prev;
			prev = g;
		}
		ck_assert_msg(!wrong && !back,
			      "distinct %zu: %zu ranks off the model, %zu going back",
			      ds[k], wrong, back);
	}
	/* 64 candidates, 16 kept apart: 18 groups, not 64. */
	ck_assert_uint_eq(place_rank_group(63, 16), 17);
	ck_assert_uint_eq(place_rank_group(31, 16), 16);
	ck_assert_uint_eq(place_rank_group(32, 16), 17);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("placement");
	TCase *tc = tcase_create("placement");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_rpsdsf_example);
	tcase_add_test(tc, test_drfh_best_fit);
	tcase_add_test(tc, test_best_match);
	tcase_add_test(tc, test_drfh_per_server_drf);
	tcase_add_test(tc, test_affinity_and_eunomia);
	tcase_add_test(tc, test_rank_group);
	tcase_add_test(tc, test_best_fit_generated);
	tcase_add_test(tc, test_spread_generated);
	tcase_add_test(tc, test_spread_eunomia_example);
	suite_add_tcase(s, tc);
	return check_run(s);
}
