// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_cold: what reading memory that sat idle costs on this machine.
 *
 * A priority recalculation reads every job record once a period, after
 * seconds in which nothing touched them; on some machines (virtual ones
 * above all) such a read costs far more than a read of memory touched a
 * moment ago, and that cost, not the plugin's arithmetic, is most of what
 * bench-priority-recalc.sh measures.  This prints it, so that a reader of
 * doc/benchmarks.md knows what kind of machine the figures come from.
 *
 *   bench_cold [PAGES [IDLE_MS...]]        (20000; 0 100 1000 5000)
 *
 * PAGES pages of 4 KiB, one byte of each read in a shuffled order, after
 * each IDLE_MS of sleep: the first read ("cold") and at once a second
 * ("warm"), microseconds per page, median of 5 rounds each.  Asserts
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define ROUNDS 5

static double _now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int _by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Microseconds per page of one read of every page in idx's order. */
static double _read_all(const volatile char *mem, const size_t *idx, size_t n,
			long *sum)
{
	double t0 = _now();

	for (size_t i = 0; i < n; i++)
		*sum += mem[idx[i] * PAGE];
	return (_now() - t0) * 1e6 / n;
}

int main(int argc, char **argv)
{
	static const long def_idle[] = { 0, 100, 1000, 5000 };
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	int nidle = argc > 2 ? argc - 2 : 4;
	double cold[ROUNDS], warm[ROUNDS];
	size_t *idx;
	char *mem;
	long sum = 0;

	if (n < 2 || n > (1UL << 22)) {
		fprintf(stderr, "bench_cold: PAGES must be 2..%lu\n",
			1UL << 22);
		return 2;
	}
	mem = malloc(n * PAGE);
	idx = malloc(n * sizeof(*idx));
	if (!mem || !idx) {
		fprintf(stderr, "bench_cold: out of memory\n");
		return 1;
	}
	memset(mem, 1, n * PAGE);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	srand(1);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
	printf("%zu pages of 4 KiB read in a shuffled order, us per page, median of %d rounds\n",
	       n, ROUNDS);
	printf("%-10s %10s %10s %8s\n", "idle ms", "cold", "warm", "ratio");
	for (int k = 0; k < nidle; k++) {
		long ms =
			argc > 2 ? strtol(argv[k + 2], NULL, 10) : def_idle[k];

		if (ms < 0 || ms > 60000) {
			fprintf(stderr,
				"bench_cold: IDLE_MS '%s' must be 0..60000\n",
				argv[k + 2]);
			return 2;
		}
		for (int r = 0; r < ROUNDS; r++) {
			usleep((useconds_t)ms * 1000);
			cold[r] = _read_all(mem, idx, n, &sum);
			warm[r] = _read_all(mem, idx, n, &sum);
		}
		qsort(cold, ROUNDS, sizeof(double), _by_value);
		qsort(warm, ROUNDS, sizeof(double), _by_value);
		printf("%-10ld %10.3f %10.3f %8.1f\n", ms, cold[ROUNDS / 2],
		       warm[ROUNDS / 2], cold[ROUNDS / 2] / warm[ROUNDS / 2]);
	}
	free(mem);
	free(idx);
	return sum == 42; /* keeps the reads */
}
