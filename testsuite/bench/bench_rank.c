/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_rank.c - how long hmrf_rank() takes to order N pending jobs of A
 * accounts, and hmrf_rank_table() (the plugin's call) the same jobs,
 * and how the core's other hot paths fare: advancing sliding
 * windows, saving and loading the state of many accounts, and publishing
 * the views of it that PrivateData=usage gives each user (as the plugin
 * does each Period: who may read what listed from the jobs, the user's
 * accounts cut out, written with an ACL for that user; one file a user).
 * Prints figures; asserts nothing.
 *
 *   bench_rank [JOBS [ACCOUNTS [REPEATS]]]     (100000 1000 5)
 *
 * The files go to a directory made in $TMPDIR (/tmp).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/hmrf.h"
#include "common/hmrf_state_impl.h"
#include "common/state.h"
#include "common/view.h"
#include "common/view_clock.h"

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double _cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Publish user i's view of st in dir as the plugin does; adds its bytes.
 * 0, or 1 (said why). */
static int _view_one(const hmrf_state_t *st, const char *dir,
		     const view_reader_t *v, size_t *bytes)
{
	hmrf_state_t *part = hmrf_state_select_reader(st, v);
	json_object *doc = part ? hmrf_state_to_json(part) : NULL;
	char file[128];
	horae_err_t err;
	size_t len = 0;
	int rc = 0;

	snprintf(file, sizeof(file), "%s/%ld.horae_hmrf.state", dir,
		 view_reader_uid(v));
	if (!doc || !json_object_to_json_string_length(doc, 0, &len) ||
	    state_publish(file, HMRF_STATE_KIND, HMRF_STATE_VERSION, doc,
			  view_reader_uid(v), &err)) {
		printf("views: %s\n", doc ? err.text : "out of memory");
		rc = 1;
	}
	*bytes += len;
	json_object_put(doc);
	hmrf_state_destroy(&part);
	return rc;
}

/*
 * Publish, as views_publish() in the plugins does, the part of st each of
 * n users may see, user u seeing account u (an operator, every account,
 * when op), in dir: all of them at once (slurmctld's start), then over
 * `periods` more periods of 30 s those the view clock says are due with a
 * refresh every ten periods (view_clock.h), as the plugins do; print the
 * thread's CPU for the first round and per period after, and remove the
 * files.  Returns 0, or 1 (said why) when the files cannot be written, as
 * without ACLs.
 */
static int _views(const hmrf_state_t *st, const char *dir, int n, bool op,
		  int periods)
{
	const double period = 30, every = VIEW_REFRESH_PERIODS * period;
	view_readers_t *r = view_readers_create();
	view_clock_t *clock = view_clock_create();
	double c0, w0, first = 0, wall = 0, sum = 0, most = 0;
	size_t bytes = 0;
	char name[32], file[128];
	int rc = 0, published = 0;

	for (int u = 0; u < n && r; u++) {
		snprintf(name, sizeof(name), "account%d", u);
		if (view_readers_add(r, 100000 + u, op ? NULL : name))
			rc = 1;
	}
	if (!r || !clock || rc)
		rc = 1;
	for (int p = 0; p <= periods && !rc; p++) {
		double now = 1e9 + period * p;

		c0 = _cpu();
		w0 = _now();
		for (int i = 0; i < n && !rc; i++) {
			const view_reader_t *v = view_readers_get(r, i);
			uint64_t sig = view_reader_signature(v);
			long uid = view_reader_uid(v);

			if (!view_clock_due(clock, uid, sig, now, every))
				continue;
			rc = _view_one(st, dir, v, p ? &(size_t){ 0 } : &bytes);
			view_clock_mark(clock, uid, sig, now);
			published += p > 0;
		}
		c0 = _cpu() - c0;
		if (!p) {
			first = c0;
			wall = _now() - w0;
		} else {
			sum += c0;
			most = c0 > most ? c0 : most;
		}
	}
	if (!rc) {
		printf("views (PrivateData=usage): %d %s: all at once %.1f ms CPU, %.1f ms wall, %.1f MB",
		       n, op ? "operator(s), every account" :
			       "users of one account each",
		       first * 1e3, wall * 1e3, bytes / 1e6);
		if (periods)
			printf("; then refreshed every %d periods: %.1f ms CPU a period on average, %.1f at most, %d views in %d periods",
			       VIEW_REFRESH_PERIODS, sum / periods * 1e3,
			       most * 1e3, published, periods);
		printf("\n");
	}
	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%ld.horae_hmrf.state", dir,
			 view_reader_uid(view_readers_get(r, i)));
		unlink(file);
	}
	view_readers_destroy(&r);
	view_clock_destroy(&clock);
	return rc;
}

static int _cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double _median(double *v, int n)
{
	qsort(v, n, sizeof(*v), _cmp);
	return v[n / 2];
}

/*
 * Who may read what under PrivateData=usage, as the plugins list it each
 * period (views_readers_job(): a pair of uid and account per job, from
 * the walk of job_list each plugin makes): njobs jobs of 1,000 users of
 * one account each, the user's jobs together (as a user's batch is
 * queued) or each job another user's; the median of reps listings.
 */
static void _readers(size_t njobs, int reps)
{
	enum { USERS = 1000 };
	static char account[USERS][32];
	const int users = USERS;
	double t[64];

	for (int u = 0; u < users; u++)
		snprintf(account[u], sizeof(account[u]), "account%d", u);
	for (int spread = 0; spread < 2; spread++) {
		for (int rep = 0; rep < reps; rep++) {
			view_readers_t *r = view_readers_create();
			double t0 = _cpu();

			for (size_t j = 0; j < njobs && r; j++) {
				long u = spread ? (long)(j % users) :
						  (long)(j * users / njobs);

				view_readers_add(r, 100000 + u, account[u]);
			}
			t[rep] = _cpu() - t0;
			view_readers_destroy(&r);
		}
		printf("readers (PrivateData=usage): %zu jobs of %d users, %s: %.1f ms CPU (median of %d)\n",
		       njobs, users,
		       spread ? "each job another user's" :
				"a user's jobs together",
		       _median(t, reps) * 1e3, reps);
	}
}

/*
 * The same ranking over the same jobs given as a table of their 4 TRES,
 * as priority/hmrf gives them each period (hmrf_rank_table): the order
 * must be hmrf_rank's (1 if not, said on stderr).
 */
static int _rank_table(const hmrf_params_t *p, const hmrf_account_t *acct,
		       int nacct, const hmrf_job_t *jobs, size_t njobs,
		       const size_t *want, int reps)
{
	enum { NTRES = 4 };
	int *account = malloc((njobs ? njobs : 1) * sizeof(*account));
	double *amounts =
		malloc((njobs ? njobs : 1) * (NTRES + 1) * sizeof(*amounts));
	size_t *order = malloc((njobs ? njobs : 1) * sizeof(*order));
	hmrf_job_table_t table = { .account = account,
				   .amounts = amounts,
				   .ntres = NTRES,
				   .n = njobs };
	double t[64], t0;
	int rc = 1;

	if (!account || !amounts || !order)
		goto out;
	for (size_t j = 0; j < njobs; j++) {
		double *row = amounts + j * (NTRES + 1);

		account[j] = jobs[j].account;
		row[0] = jobs[j].duration;
		memcpy(row + 1, jobs[j].tres.v, NTRES * sizeof(*row));
	}
	for (int r = 0; r < reps; r++) {
		t0 = _now();
		if (hmrf_rank_table(p, acct, nacct, &table, order, NULL))
			goto out;
		t[r] = _now() - t0;
	}
	if (njobs && memcmp(order, want, njobs * sizeof(*order))) {
		fprintf(stderr,
			"hmrf_rank_table: another order than hmrf_rank's\n");
		goto out;
	}
	printf("hmrf_rank_table (the plugin's call, %d TRES a job): median %.1f ms over %d runs\n",
	       NTRES, _median(t, reps) * 1e3, reps);
	rc = 0;
out:
	free(account);
	free(amounts);
	free(order);
	return rc;
}

int main(int argc, char **argv)
{
	size_t njobs = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	int nacct = argc > 2 ? atoi(argv[2]) : 1000;
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .now = 1e6,
			    .horizon = 3600, .timeout = 86400,
			    .elapsed = 86400 };
	hmrf_account_t *acct = calloc(nacct, sizeof(*acct));
	hmrf_job_t *jobs = calloc(njobs, sizeof(*jobs));
	size_t *order = calloc(njobs, sizeof(*order));
	double t[64], t0;
	unsigned seed = 42;
	struct rusage ru;

	if (!acct || !jobs || !order || reps < 1 || reps > 64 || nacct < 1)
		return 2;
	tres_zero(&p.capacity);
	p.capacity.v[0] = 100000;  /* CPUs */
	p.capacity.v[1] = 4e8;	   /* MB */
	p.capacity.v[2] = 2000;	   /* nodes */
	p.capacity.v[3] = 4000;	   /* GPUs */
	for (int a = 0; a < nacct; a++) {
		acct[a].weight = 1 + rand_r(&seed) % 10;
		for (int i = 0; i < 4; i++) {
			acct[a].used.v[i] = p.capacity.v[i] * (rand_r(&seed) % 1000);
			acct[a].ns.v[i] = p.capacity.v[i] * (rand_r(&seed) % 1000);
		}
	}
	for (size_t j = 0; j < njobs; j++) {
		jobs[j].account = rand_r(&seed) % nacct;
		jobs[j].tres.v[0] = 1 + rand_r(&seed) % 64;
		jobs[j].tres.v[1] = jobs[j].tres.v[0] * 4000;
		jobs[j].tres.v[2] = 1 + jobs[j].tres.v[0] / 32;
		jobs[j].tres.v[3] = rand_r(&seed) % 4;
		jobs[j].duration = 60 * (1 + rand_r(&seed) % 1440);
	}
	for (int r = 0; r < reps; r++) {
		t0 = _now();
		if (hmrf_rank(&p, acct, nacct, jobs, njobs, order, NULL))
			return 1;
		t[r] = _now() - t0;
	}
	printf("hmrf_rank: %zu jobs of %d accounts: median %.1f ms over %d runs\n",
	       njobs, nacct, _median(t, reps) * 1e3, reps);
	if (_rank_table(&p, acct, nacct, jobs, njobs, order, reps))
		return 1;

	/* State of 10,000 accounts over a 7-day sliding window. */
	window_spec_t w = { WINDOW_SLIDING, 7 * 86400 };
	hmrf_state_t *st = hmrf_state_create(&w, 0, "cpu,mem,node,gres/gpu",
					     0, NULL);
	const char *tmpdir = getenv("TMPDIR");
	char name[32], path[4096];
	tres_vec_t rate = p.capacity;
	json_object *doc, *back;
	horae_err_t err, warn;
	FILE *f;
	long size;

	tres_scale(&rate, 1e-4);
	for (int a = 0; a < 10000; a++) {
		snprintf(name, sizeof(name), "account%d", a);
		int i = hmrf_state_account(st, name);
		ledger_charge(st->usage, i, &rate, 0, 86400 * (1 + a % 6));
	}
	t0 = _now();
	ledger_advance(st->usage, 8 * 86400);
	printf("ledger_advance: 10000 accounts x 65 buckets, one day on: %.1f ms\n",
	       (_now() - t0) * 1e3);
	/* TMPDIR: the file system the state and views go to (on an ext4
	 * without a journal, creating a file after many were removed
	 * costs more the more were removed in the last minutes) */
	snprintf(path, sizeof(path), "%s/horae-bench.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(path))
		return 1;
	strcat(path, "/state");
	t0 = _now();
	doc = hmrf_state_to_json(st);
	state_save(path, HMRF_STATE_KIND, HMRF_STATE_VERSION, doc, &err);
	printf("state save: 10000 accounts: %.1f ms", (_now() - t0) * 1e3);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	printf(", %.1f MB\n", size / 1e6);
	t0 = _now();
	state_load(path, HMRF_STATE_KIND, HMRF_STATE_VERSION, &back, &warn, &err);
	hmrf_state_t *st2 = hmrf_state_from_json(back, &err);
	printf("state load: 10000 accounts: %.1f ms\n", (_now() - t0) * 1e3);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak memory: %.1f MB\n", ru.ru_maxrss / 1024.0);
	/* leave nothing behind: the file, a .old if any, the views, the
	 * directory */
	unlink(path);
	strcat(path, ".old");
	unlink(path);
	*strrchr(path, '/') = '\0';
	_readers(njobs, reps);
	for (int rep = 0; rep < 3; rep++)
		if (_views(st, path, 1000, false, 20) ||
		    _views(st, path, 1, true, 0))
			break;
	rmdir(path);
	json_object_put(doc);
	json_object_put(back);
	hmrf_state_destroy(&st);
	hmrf_state_destroy(&st2);
	free(acct);
	free(jobs);
	free(order);
	return 0;
}
