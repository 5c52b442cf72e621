/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_state.c - an H-MRF state file with usage history, for the
 * benchmarks: accounts acct0 .. acctN-1, each charged a steady rate (1 to
 * 16 CPUs and 4,000 MB a CPU, by account) over the DAYS days before now,
 * in usage and in non-sharing allocation alike, over a sliding window of
 * WINDOW seconds.  A site's accounts have such a history, and
 * priority/hmrf saves all of it each recalculation; a benchmark that
 * starts from nothing does not see that cost.
 *
 *   bench_state PATH ACCOUNTS DAYS [WINDOW [TRES]]   (604800 cpu,mem,gres/gpu)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/hmrf_state_impl.h"
#include "common/ledger.h"
#include "common/state.h"

int main(int argc, char **argv)
{
	window_spec_t w = { WINDOW_SLIDING, 604800 };
	const char *tres = argc > 5 ? argv[5] : "cpu,mem,gres/gpu";
	double now = (double)time(NULL), days;
	hmrf_state_t *st;
	json_object *doc;
	horae_err_t err;
	char name[32];
	int n;

	if (argc < 4) {
		fprintf(stderr,
			"usage: bench_state PATH ACCOUNTS DAYS [WINDOW [TRES]]\n");
		return 2;
	}
	n = atoi(argv[2]);
	days = atof(argv[3]);
	if (argc > 4)
		w.length = atof(argv[4]);
	if (n < 1 || !(days > 0) || !(w.length > 0)) {
		fprintf(stderr,
			"bench_state: ACCOUNTS, DAYS and WINDOW must be positive\n");
		return 2;
	}
	st = hmrf_state_create(&w, 0, tres, now - days * 86400, &err);
	if (!st) {
		fprintf(stderr, "bench_state: %s\n", err.text);
		return 1;
	}
	for (int a = 0; a < n; a++) {
		tres_vec_t rate;
		int i;

		snprintf(name, sizeof(name), "acct%d", a);
		if ((i = hmrf_state_account(st, name)) < 0) {
			fprintf(stderr, "bench_state: out of memory\n");
			return 1;
		}
		tres_zero(&rate);
		rate.v[0] = 1 + a % 16;
		rate.v[1] = rate.v[0] * 4000;
		if (ledger_charge(st->usage, i, &rate, now - days * 86400,
				  now) ||
		    ledger_charge(st->ns, i, &rate, now - days * 86400, now)) {
			fprintf(stderr, "bench_state: cannot charge %s\n",
				name);
			return 1;
		}
		st->last_start[i] = now - 3600;
	}
	st->charged_until = now;
	if (ledger_advance(st->usage, now) || ledger_advance(st->ns, now)) {
		fprintf(stderr, "bench_state: cannot advance the ledgers\n");
		return 1;
	}
	doc = hmrf_state_to_json(st);
	if (!doc || state_save(argv[1], HMRF_STATE_KIND, HMRF_STATE_VERSION,
			       doc, &err)) {
		fprintf(stderr, "bench_state: %s\n",
			doc ? err.text : "out of memory");
		return 1;
	}
	json_object_put(doc);
	hmrf_state_destroy(&st);
	return 0;
}
