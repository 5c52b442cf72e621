/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ranker_replay.h - for the tests of the core's rankers (hmrf_ranker,
 * tsf_ranker, eunomia_ranker): play a ranker as a caller that skips jobs
 * which cannot start, and check what it gives against the jobs a run
 * without skip gave while they were alive.
 */
#ifndef HORAE_RANKER_REPLAY_H
#define HORAE_RANKER_REPLAY_H

#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

typedef int (*replay_next_fn)(void *r, size_t *job);
typedef int (*replay_skip_fn)(void *r, size_t job);

/*
 * Job j dies at its die[j]-th time given: there the caller skips the rest
 * of its repeats (a skip of any other job is refused), and it ignores the
 * one repeat still given.  The jobs given while alive must be want[0..
 * nwant-1], in that order.  seen[] has room for njobs counts.
 */
static inline void replay_with_skip(void *r, replay_next_fn next,
				    replay_skip_fn skip, const size_t *die,
				    size_t *seen, size_t njobs,
				    const size_t *want, size_t nwant)
{
	size_t k, got = 0;

	memset(seen, 0, njobs * sizeof(*seen));
	while (!next(r, &k)) {
		ck_assert_uint_lt(k, njobs);
		if (++seen[k] > die[k]) {
			/* A dead job comes at most once more. */
			ck_assert_uint_le(seen[k], die[k] + 1);
			continue;
		}
		ck_assert_uint_lt(got, nwant);
		ck_assert_uint_eq(k, want[got]);
		got++;
		if (seen[k] != die[k])
			continue;
		ck_assert_int_eq(skip(r, (k + 1) % njobs), -EINVAL);
		ck_assert_int_eq(skip(r, k), 0);
	}
	ck_assert_uint_eq(got, nwant);
}

#endif /* HORAE_RANKER_REPLAY_H */
