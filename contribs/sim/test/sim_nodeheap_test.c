/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_nodeheap_test.c - Check tests of sim_nodeheap.c: the errno
 * contract, and generated sequences of builds, sets (with the score
 * changed first), removals and lookups against a model that finds the
 * first node by scanning every node it holds.
 */
#include <check.h>

#include "../../../src/common/test/check_run.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../sim_nodeheap.h"

START_TEST(test_badargs)
{
	double score[2] = { 1, 2 };
	int twice[2] = { 1, 1 }, out[1] = { 2 };
	sim_nodeheap_t *h;

	ck_assert_ptr_null(sim_nodeheap_create(-1, score));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sim_nodeheap_create(2, NULL));
	ck_assert_int_eq(errno, EINVAL);
	h = sim_nodeheap_create(0, NULL);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(sim_nodeheap_top(h), -1);
	sim_nodeheap_destroy(&h);
	ck_assert_ptr_null(h);
	sim_nodeheap_destroy(&h);
	sim_nodeheap_destroy(NULL);

	h = sim_nodeheap_create(2, score);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(sim_nodeheap_set(h, 2), -EINVAL);
	ck_assert_int_eq(sim_nodeheap_set(h, -1), -EINVAL);
	ck_assert_int_eq(sim_nodeheap_remove(h, 2), -EINVAL);
	ck_assert_int_eq(sim_nodeheap_build(h, twice, 2), -EINVAL);
	ck_assert_uint_eq(sim_nodeheap_len(h), 0);
	ck_assert_int_eq(sim_nodeheap_build(h, out, 1), -EINVAL);
	ck_assert_uint_eq(sim_nodeheap_len(h), 0);
	ck_assert(!sim_nodeheap_has(h, 0));
	ck_assert(!sim_nodeheap_has(h, 5));
	/* Removing a node that is not in is no error. */
	ck_assert_int_eq(sim_nodeheap_remove(h, 1), 0);
	sim_nodeheap_destroy(&h);
}
END_TEST

/* The model's rule, from the header: finite scores first, lower first,
 * ties and the rest by node. */
static int _model_top(const bool *in, const double *score, int nn)
{
	int best = -1;

	for (int n = 0; n < nn; n++) {
		if (!in[n])
			continue;
		if (best < 0) {
			best = n;
			continue;
		}
		bool fb = isfinite(score[best]), fn = isfinite(score[n]);

		if (fn && (!fb || score[n] < score[best]))
			best = n;
	}
	return best;
}

/* A score from a small set, so that ties are common, some not finite. */
static double _score(unsigned *seed)
{
	static const double pick[] = { 0, 1, 1.5, 2, 2, 3, -1, INFINITY, NAN };

	return pick[rand_r(seed) % 9] +
	       (rand_r(seed) % 4 ? 0 : rand_r(seed) % 100 / 1e3);
}

START_TEST(test_against_model)
{
	enum { NN = 40 };
	double score[NN] = { 0 };
	bool in[NN] = { false };
	unsigned seed = 77 + _i;
	sim_nodeheap_t *h = sim_nodeheap_create(NN, score);
	size_t len = 0;

	ck_assert_ptr_nonnull(h);
	for (int n = 0; n < NN; n++)
		score[n] = _score(&seed);
	for (int step = 0; step < 3000; step++) {
		int op = rand_r(&seed) % 10, n = rand_r(&seed) % NN;

		if (op == 0) { /* rebuild from a random subset */
			int nodes[NN];
			size_t m = 0;

			len = 0;
			for (int k = 0; k < NN; k++) {
				score[k] = _score(&seed);
				in[k] = rand_r(&seed) % 3 == 0;
				if (in[k])
					nodes[m++] = k;
			}
			ck_assert_int_eq(sim_nodeheap_build(h, nodes, m), 0);
			len = m;
		} else if (op < 6) { /* a node's score changes, or it joins */
			score[n] = _score(&seed);
			len += !in[n];
			in[n] = true;
			ck_assert_int_eq(sim_nodeheap_set(h, n), 0);
		} else if (op < 9) {
			len -= in[n];
			in[n] = false;
			ck_assert_int_eq(sim_nodeheap_remove(h, n), 0);
		} else if (!in[n]) { /* not in: its score may change freely */
			score[n] = _score(&seed);
		}
		ck_assert_uint_eq(sim_nodeheap_len(h), len);
		ck_assert_int_eq(sim_nodeheap_top(h),
				 _model_top(in, score, NN));
		ck_assert(sim_nodeheap_has(h, n) == in[n]);
	}
	sim_nodeheap_destroy(&h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_nodeheap");
	TCase *tc = tcase_create("nodeheap");

	tcase_add_test(tc, test_badargs);
	tcase_add_loop_test(tc, test_against_model, 0, 20);
	suite_add_tcase(s, tc);
	return check_run(s);
}
