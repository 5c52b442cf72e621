/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_main.c - horae-sim(1): simulate a trace under the core's policies
 * and write per-job records, per-account series, a summary and a plot.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "horae_config.h"

#include "sim_engine.h"
#include "sim_gen.h"
#include "sim_output.h"
#include "sim_policy.h"
#include "sim_trace.h"
#include "hmrf.h"
#include "hmrf_conf.h"
#include "window.h"

#define PROG "horae-sim"

typedef struct opts {
	sim_config_t c;
	const char *generate, *jobs_out, *series_out, *summary_out;
	const char *write_trace, *plot, *plot_metric;
	bool swf, sacct, json, quiet, no_run;
	/* --hmrf-conf: the site's file, and which of its settings the
	 * command line gave already (those win). */
	const char *hmrf_conf;
	bool set_policy, set_window, set_bucket, set_timeout, set_horizon,
		set_borrow;
	sim_gen_opts_t gen;
	sim_swf_opts_t swf_opts;
	sim_sacct_opts_t sacct_opts;
} opts_t;

static void _usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " [OPTION]... [TRACE]\n"
		   "Simulate TRACE (JSON, or SWF with --swf) or a generated "
		   "workload\nunder Horae's policies.  See horae-sim(1).\n\n"
		   "  -g, --generate=NAME    a generated workload (");
	for (const char *const *n = sim_gen_names(); *n; n++)
		fprintf(f, "%s%s", *n, n[1] ? ", " : ")\n");
	fprintf(f,
		"      --seed=N           seed of the generator and of rrr "
		"(default 1)\n"
		"      --gen-jobs=N       jobs to generate (justice)\n"
		"      --gen-load=X       offered load to generate (justice)\n"
		"      --swf              TRACE is in the Standard Workload "
		"Format\n"
		"      --swf-nodes=N, --swf-cpus=N, --swf-group, "
		"--swf-requested,\n"
		"      --swf-max-jobs=N   how to read it (horae-sim(1))\n"
		"      --sacct            TRACE is what sacct -a -X -P wrote "
		"(horae-sim(1))\n"
		"      --sacct-nodes=FILE the nodes, from scontrol -o show "
		"node\n"
		"      --speed-map=MAP    the nodes' speeds by feature, "
		"gen1:1,gen4:3\n"
		"      --hmrf-conf=FILE   the site's hmrf.conf: its policy, "
		"window and\n"
		"                         accounts' shares (options win)\n"
		"  -p, --policy=NAME      fifo, drf, drfh, af, lt-drf, lt-af, "
		"hmrf (default),\n"
		"                         tsf, tsf-cluster, eunomia, psdsf, rpsdsf\n"
		"  -P, --placement=NAME   first-fit, best-fit, best-match, "
		"affinity, rpsdsf,\n"
		"                         eunomia, rrr\n"
		"  -a, --admission=NAME   none (default), justice, "
		"baseline-fs, reactive-fs,\n"
		"                         oracle\n"
		"  -w, --window=SPEC      none, tumbling:L or sliding:L\n"
		"      --bucket=T, --timeout=T, --horizon=T  H-MRF settings\n"
		"      --borrow-limit=F  H-MRF borrow limit (fraction above the share)\n"
		"      --start-latency=T  a task begins T after the scheduler "
		"picks it\n"
		"      --bootstrap=N, --history=N, --kill-above=N  Justice "
		"settings\n"
		"      --urgency=first|ties  Justice's order decides (first, "
		"default) or only\n"
		"                         breaks the policy's ties, as beside "
		"priority/hmrf\n"
		"      --sample=T         sample the accounts every T\n"
		"      --until=T          stop the clock at T\n"
		"  -j, --jobs=FILE        per-job records (.json: JSON, else "
		"CSV; -: stdout)\n"
		"  -s, --series=FILE      per-account series (implies "
		"--sample=1 if unset)\n"
		"  -o, --output=FILE      the summary (default: stdout)\n"
		"      --json             the summary as JSON\n"
		"      --plot=FILE        plot the series with gnuplot (.png, "
		".svg or .pdf)\n"
		"      --plot-metric=NAME the series' column to plot\n"
		"      --write-trace=FILE write the trace as JSON\n"
		"      --no-run           with --write-trace: only write it\n"
		"  -q, --quiet            no progress bar\n"
		"  -h, --help             this help\n"
		"  -V, --version          the version\n");
}

static int _fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n");
	return 1;
}

static int _duration(const char *opt, const char *arg, double *out)
{
	horae_err_t err;

	if (duration_parse(arg, out, &err))
		return _fail("--%s: %s", opt, err.text);
	return 0;
}

static int _count(const char *opt, const char *arg, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0)
		return _fail("--%s: '%s' is not a count >= 0", opt, arg);
	*out = v;
	return 0;
}

static void _progress(double done, void *arg)
{
	int w = 40, k = (int)(done * w + 0.5);

	(void)arg;
	fprintf(stderr, "\r" PROG ": [%.*s%*s] %3.0f%%", k,
		"########################################", w - k, "",
		done * 100);
	if (done >= 1)
		fprintf(stderr, "\n");
}

enum {
	OPT_SEED = 256,
	OPT_GEN_JOBS,
	OPT_GEN_LOAD,
	OPT_SWF,
	OPT_SWF_NODES,
	OPT_SWF_CPUS,
	OPT_SWF_GROUP,
	OPT_SWF_REQ,
	OPT_SWF_MAX,
	OPT_SACCT,
	OPT_SACCT_NODES,
	OPT_SPEED_MAP,
	OPT_HMRF_CONF,
	OPT_BUCKET,
	OPT_TIMEOUT,
	OPT_HORIZON,
	OPT_BORROW_LIMIT,
	OPT_START_LATENCY,
	OPT_BOOTSTRAP,
	OPT_HISTORY,
	OPT_KILL_ABOVE,
	OPT_URGENCY,
	OPT_SAMPLE,
	OPT_UNTIL,
	OPT_JSON,
	OPT_PLOT,
	OPT_PLOT_METRIC,
	OPT_WRITE_TRACE,
	OPT_NO_RUN,
};

static const struct option _long[] = {
	{ "generate", required_argument, NULL, 'g' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "gen-jobs", required_argument, NULL, OPT_GEN_JOBS },
	{ "gen-load", required_argument, NULL, OPT_GEN_LOAD },
	{ "swf", no_argument, NULL, OPT_SWF },
	{ "swf-nodes", required_argument, NULL, OPT_SWF_NODES },
	{ "swf-cpus", required_argument, NULL, OPT_SWF_CPUS },
	{ "swf-group", no_argument, NULL, OPT_SWF_GROUP },
	{ "swf-requested", no_argument, NULL, OPT_SWF_REQ },
	{ "swf-max-jobs", required_argument, NULL, OPT_SWF_MAX },
	{ "sacct", no_argument, NULL, OPT_SACCT },
	{ "sacct-nodes", required_argument, NULL, OPT_SACCT_NODES },
	{ "speed-map", required_argument, NULL, OPT_SPEED_MAP },
	{ "hmrf-conf", required_argument, NULL, OPT_HMRF_CONF },
	{ "policy", required_argument, NULL, 'p' },
	{ "placement", required_argument, NULL, 'P' },
	{ "admission", required_argument, NULL, 'a' },
	{ "window", required_argument, NULL, 'w' },
	{ "bucket", required_argument, NULL, OPT_BUCKET },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "horizon", required_argument, NULL, OPT_HORIZON },
	{ "borrow-limit", required_argument, NULL, OPT_BORROW_LIMIT },
	{ "start-latency", required_argument, NULL, OPT_START_LATENCY },
	{ "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "kill-above", required_argument, NULL, OPT_KILL_ABOVE },
	{ "urgency", required_argument, NULL, OPT_URGENCY },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "jobs", required_argument, NULL, 'j' },
	{ "series", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "plot-metric", required_argument, NULL, OPT_PLOT_METRIC },
	{ "write-trace", required_argument, NULL, OPT_WRITE_TRACE },
	{ "no-run", no_argument, NULL, OPT_NO_RUN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Standard output takes one thing: the summary unless -o names a file,
 * or one of --jobs and --series given as "-". */
static int _stdout_twice(const opts_t *o)
{
	const char *who[3];
	int n = 0;

	if (o->jobs_out && !strcmp(o->jobs_out, "-"))
		who[n++] = "--jobs -";
	if (o->series_out && !strcmp(o->series_out, "-"))
		who[n++] = "--series -";
	if (!o->summary_out || !strcmp(o->summary_out, "-"))
		who[n++] = "the summary";
	if (n < 2)
		return 0;
	return _fail("%s and %s would both go to standard output: send one "
		     "to a file (-o FILE for the summary)",
		     who[0], who[1]);
}

/* gnuplot's terminal for a plot file, by its name; NULL if none. */
static const char *_plot_terminal(const char *path)
{
	static const char *const map[][2] = {
		{ ".png", "pngcairo" },
		{ ".svg", "svg" },
		{ ".pdf", "pdfcairo" },
	};
	size_t len = strlen(path);

	for (size_t i = 0; i < 3; i++)
		if (len > 4 && !strcasecmp(path + len - 4, map[i][0]))
			return map[i][1];
	return NULL;
}

/* Returns 0, 1 on a bad option, or -1 when the program is done (help). */
static int _parse(int argc, char **argv, opts_t *o)
{
	horae_err_t err;
	long n;
	int ch;

	sim_config_init(&o->c);
	o->c.seed = 1;
	o->gen.seed = 1;
	while ((ch = getopt_long(argc, argv, "g:p:P:a:w:j:s:o:qhV", _long,
				 NULL)) != -1) {
		switch (ch) {
		case 'g':
			o->generate = optarg;
			break;
		case OPT_SEED: {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &end, 10);
			/* strtoull takes "-1" as the largest value. */
			if (errno || end == optarg || *end ||
			    strchr(optarg, '-'))
				return _fail("--seed: '%s' is not a whole "
					     "number from 0 to %s",
					     optarg, "18446744073709551615");
			o->c.seed = o->gen.seed = v;
			break;
		}
		case OPT_GEN_JOBS:
			if (_count("gen-jobs", optarg, &n))
				return 1;
			o->gen.jobs = n;
			break;
		case OPT_GEN_LOAD: {
			char *end;

			o->gen.load = strtod(optarg, &end);
			if (end == optarg || *end || !(o->gen.load > 0))
				return _fail("--gen-load: '%s' is not a load "
					     "> 0%s",
					     optarg, "");
			break;
		}
		case OPT_SWF:
			o->swf = true;
			break;
		case OPT_SWF_NODES:
			if (_count("swf-nodes", optarg, &n))
				return 1;
			o->swf_opts.nodes = n;
			break;
		case OPT_SWF_CPUS:
			if (_count("swf-cpus", optarg, &n))
				return 1;
			o->swf_opts.cpus_per_node = n;
			break;
		case OPT_SWF_GROUP:
			o->swf_opts.by_group = true;
			break;
		case OPT_SWF_REQ:
			o->swf_opts.requested = true;
			break;
		case OPT_SACCT:
			o->sacct = true;
			break;
		case OPT_SACCT_NODES:
			o->sacct_opts.nodes_path = optarg;
			break;
		case OPT_SPEED_MAP:
			o->sacct_opts.speed_map = optarg;
			break;
		case OPT_HMRF_CONF:
			o->hmrf_conf = optarg;
			break;
		case OPT_SWF_MAX:
			if (_count("swf-max-jobs", optarg, &n))
				return 1;
			o->swf_opts.max_jobs = n;
			break;
		case 'p':
			if (sim_policy_parse(optarg, &o->c.policy, &err))
				return _fail("--policy: %s%s", err.text, "");
			o->set_policy = true;
			break;
		case 'P':
			if (sim_place_parse(optarg, &o->c.placement, &err))
				return _fail("--placement: %s%s", err.text, "");
			break;
		case 'a':
			if (sim_admit_parse(optarg, &o->c.admission, &err))
				return _fail("--admission: %s%s", err.text, "");
			break;
		case 'w':
			if (window_parse(optarg, &o->c.window, &err))
				return _fail("--window: %s%s", err.text, "");
			o->set_window = true;
			break;
		case OPT_BUCKET:
			if (_duration("bucket", optarg, &o->c.bucket))
				return 1;
			o->set_bucket = true;
			break;
		case OPT_TIMEOUT:
			if (_duration("timeout", optarg, &o->c.timeout))
				return 1;
			o->set_timeout = true;
			break;
		case OPT_HORIZON:
			if (_duration("horizon", optarg, &o->c.horizon))
				return 1;
			o->set_horizon = true;
			break;
		case OPT_START_LATENCY:
			if (_duration("start-latency", optarg,
				      &o->c.start_latency))
				return 1;
			break;
		case OPT_BORROW_LIMIT: {
			char *end;

			o->c.borrow_limit = strtod(optarg, &end);
			if (end == optarg || *end || !(o->c.borrow_limit >= 0) ||
			    !isfinite(o->c.borrow_limit))
				return _fail("--borrow-limit: '%s' is not a "
					     "fraction >= 0%s",
					     optarg, "");
			o->set_borrow = true;
			break;
		}
		case OPT_BOOTSTRAP:
			if (_count("bootstrap", optarg, &o->c.bootstrap))
				return 1;
			break;
		case OPT_HISTORY:
			if (_count("history", optarg, &n))
				return 1;
			if (n < 1 || n > INT_MAX)
				return _fail("--history: '%s' must be 1 or "
					     "more%s",
					     optarg, "");
			o->c.history = (int)n;
			break;
		case OPT_KILL_ABOVE:
			if (_count("kill-above", optarg, &n))
				return 1;
			o->c.kill_above = n;
			break;
		case OPT_URGENCY:
			if (strcmp(optarg, "first") && strcmp(optarg, "ties"))
				return _fail("--urgency: '%s' is not first or "
					     "ties%s",
					     optarg, "");
			o->c.urgency_first = !strcmp(optarg, "first");
			break;
		case OPT_SAMPLE:
			if (_duration("sample", optarg, &o->c.sample))
				return 1;
			break;
		case OPT_UNTIL:
			if (_duration("until", optarg, &o->c.until))
				return 1;
			break;
		case 'j':
			o->jobs_out = optarg;
			break;
		case 's':
			o->series_out = optarg;
			break;
		case 'o':
			o->summary_out = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_PLOT_METRIC:
			o->plot_metric = optarg;
			break;
		case OPT_WRITE_TRACE:
			o->write_trace = optarg;
			break;
		case OPT_NO_RUN:
			o->no_run = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			_usage(stdout);
			return -1;
		case 'V':
			printf(PROG " %s\n", PACKAGE_VERSION);
			return -1;
		default:
			_usage(stderr);
			return 1;
		}
	}
	if (o->c.placement.dflt)
		o->c.placement = sim_place_default(&o->c.policy);
	if ((o->series_out || o->plot) && o->c.sample <= 0)
		o->c.sample = 1;
	if (o->generate && optind < argc)
		return _fail("give a TRACE or --generate, not both%s%s", "",
			     "");
	if (!o->generate && optind != argc - 1)
		return _fail("give one TRACE (or --generate=NAME); see "
			     "--help%s%s",
			     "", "");
	if (o->swf + o->sacct > 1)
		return _fail("give --swf or --sacct, not both%s%s", "", "");
	if (o->sacct && !o->sacct_opts.nodes_path)
		return _fail(
			"--sacct needs --sacct-nodes=FILE (scontrol -o show "
			"node > FILE)%s%s",
			"", "");
	if (o->no_run && !o->write_trace)
		return _fail("--no-run needs --write-trace%s%s", "", "");
	if (_stdout_twice(o))
		return 1;
	if (o->plot && !_plot_terminal(o->plot))
		return _fail("--plot: '%s': the file name must end in .png, "
			     ".svg or .pdf%s",
			     o->plot, "");
	return 0;
}

static int _load(const opts_t *o, const char *path, sim_trace_t *t)
{
	horae_err_t err;
	size_t skipped = 0;
	int rc;

	sim_sacct_stats_t st;

	if (o->generate)
		rc = sim_gen(o->generate, &o->gen, t, &err);
	else if (o->swf)
		rc = sim_trace_read_swf(path, &o->swf_opts, t, &skipped, &err);
	else if (o->sacct) {
		rc = sim_trace_read_sacct(path, &o->sacct_opts, t, &st, &err);
		/* What is left out is always said, with the first record. */
		for (int k = 0; !rc && k < SIM_SACCT_SKIP_COUNT; k++)
			if (st.skip[k].count)
				fprintf(stderr,
					PROG ": %s: %zu %s (first: line %zu, "
					     "job %s)\n",
					path, st.skip[k].count,
					sim_sacct_skip_name(k), st.skip[k].line,
					st.skip[k].job);
		if (!rc && !o->quiet)
			fprintf(stderr,
				PROG ": %s: %zu of %zu records replayed\n",
				path, st.jobs, st.records);
	} else
		rc = sim_trace_read_json(path, t, &err);
	if (rc)
		return _fail("%s%s", err.text, "");
	if (skipped && !o->quiet)
		fprintf(stderr, PROG ": %s: skipped %zu jobs that never ran\n",
			path, skipped);
	return 0;
}

static FILE *_open(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		_fail("%s: %s", path, strerror(errno));
	return f;
}

static int _close(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f != stdout)
		bad |= fclose(f);
	else
		bad |= fflush(f);
	if (bad)
		return _fail("%s: write failed: %s", path, strerror(errno));
	return 0;
}

/* The metric a plot shows by default: what the policy equalises. */
static const char *_metric(const opts_t *o)
{
	if (o->plot_metric)
		return o->plot_metric;
	switch (o->c.policy.kind) {
	case SIM_ORDER_EUNOMIA:
		return "progress_share";
	case SIM_ORDER_TSF:
		return "task_share";
	default:
		return "aggregate";
	}
}

/*
 * The fair share line of a plot of metric col (_plot's list), written as
 * one more data block; its title, or NULL for none (running_tasks):
 * - aggregate: at each time, the accounts' usage split by weight, what
 *   every weighted share equals when H-MRF's goal holds (dominant: the
 *   same weighted mean, the goal's value when one TRES dominates all);
 * - share_now and task_share: 1 / the sum of weights, each account's
 *   when all are busy;
 * - beta: 1, below which an account lost by sharing;
 * - progress_share: Eunomia's fair progress share at each time.
 */
static const char *_fair_line(FILE *f, const sim_trace_t *t,
			      const sim_result_t *r, int col)
{
	double wsum = 0, acc = 0;

	for (int a = 0; a < t->naccounts; a++)
		wsum += t->accounts[a].weight;
	switch (col) {
	case 1:
	case 2:
		for (size_t k = 0; k < r->nsamples; k++) {
			const sim_sample_t *x = &r->samples[k];
			double v = col == 1 ? x->aggregate : x->dominant;

			acc += v * t->accounts[x->account].weight;
			if (k + 1 == r->nsamples ||
			    r->samples[k + 1].t != x->t) {
				fprintf(f, "%.9g %.9g\n", x->t, acc / wsum);
				acc = 0;
			}
		}
		return col == 1 ? "fair: usage split by weight" :
				  "fair: weighted mean";
	case 3:
	case 6:
		if (r->nsamples)
			fprintf(f, "%.9g %.9g\n%.9g %.9g\n", r->samples[0].t,
				1 / wsum, r->samples[r->nsamples - 1].t,
				1 / wsum);
		return "fair: 1 / sum of weights (all busy)";
	case 4:
		if (r->nsamples)
			fprintf(f, "%.9g 1\n%.9g 1\n", r->samples[0].t,
				r->samples[r->nsamples - 1].t);
		return "no sharing loss (beta = 1)";
	case 5:
		for (size_t k = 0; k < r->nsamples; k++)
			if (k + 1 == r->nsamples ||
			    r->samples[k + 1].t != r->samples[k].t)
				fprintf(f, "%.9g %.9g\n", r->samples[k].t,
					r->samples[k].fair_progress);
		return "fair progress share";
	default:
		return NULL;
	}
}

static int _plot(const opts_t *o, const sim_trace_t *t, const sim_result_t *r)
{
	static const char *const metrics[] = {
		"running_tasks", "aggregate",	   "dominant",	 "share_now",
		"beta",		 "progress_share", "task_share",
	};
	const char *m = _metric(o);
	char data[] = "/tmp/horae-sim-plot.XXXXXX";
	int col = -1, fd, rc;
	const char *fair;
	FILE *f, *g;

	for (int k = 0; k < 7; k++)
		if (!strcmp(m, metrics[k]))
			col = k;
	if (col < 0)
		return _fail("--plot-metric: unknown '%s' (use running_tasks, "
			     "aggregate, dominant, share_now, beta, "
			     "progress_share or "
			     "task_share)%s",
			     m, "");
	if ((fd = mkstemp(data)) < 0 || !(f = fdopen(fd, "w")))
		return _fail("plot: %s%s", strerror(errno), "");
	/* One block per account: gnuplot's "index". */
	for (int a = 0; a < t->naccounts; a++) {
		for (size_t k = 0; k < r->nsamples; k++) {
			const sim_sample_t *x = &r->samples[k];
			double v[7] = { x->running_tasks, x->aggregate,
					x->dominant,	  x->share_now,
					x->beta,	  x->progress_share,
					x->task_share };

			if (x->account == a)
				fprintf(f, "%.9g %.9g\n", x->t, v[col]);
		}
		fprintf(f, "\n\n");
	}
	fair = _fair_line(f, t, r, col);
	fclose(f);
	if (!(g = popen("gnuplot", "w"))) {
		unlink(data);
		return _fail("plot: cannot run gnuplot: %s%s", strerror(errno),
			     "");
	}
	fprintf(g,
		"set terminal %s noenhanced size 900,500\nset output '%s'\n"
		"set xlabel 'time (s)'\nset ylabel '%s'\nset key outside\n"
		"set title 'horae-sim: order %s, placement %s'\nplot ",
		_plot_terminal(o->plot), o->plot, m, o->c.policy.name,
		sim_place_name(&o->c.placement));
	for (int a = 0; a < t->naccounts; a++)
		fprintf(g, "%s'%s' index %d with lines lw 2 title '%s'",
			a ? ", " : "", data, a, t->accounts[a].name);
	if (fair)
		fprintf(g,
			", '%s' index %d with lines dt 2 lw 2 lc rgb 'black' "
			"title '%s'",
			data, t->naccounts, fair);
	fprintf(g, "\n");
	rc = pclose(g);
	unlink(data);
	if (rc)
		return _fail("plot: gnuplot failed writing %s%s", o->plot, "");
	if (!o->quiet)
		fprintf(stderr, PROG ": plot of %s written to %s\n", m,
			o->plot);
	return 0;
}

static int _outputs(const opts_t *o, const sim_trace_t *t,
		    const sim_result_t *r)
{
	json_object *sum;
	FILE *f;
	int rc = 0;

	if (o->jobs_out) {
		if (!(f = _open(o->jobs_out)))
			return 1;
		sim_write_jobs(f, sim_format_of(o->jobs_out), t, r);
		if (_close(f, o->jobs_out))
			return 1;
	}
	if (o->series_out) {
		if (!(f = _open(o->series_out)))
			return 1;
		sim_write_series(f, sim_format_of(o->series_out), t, r);
		if (_close(f, o->series_out))
			return 1;
	}
	if (o->plot && _plot(o, t, r))
		return 1;
	if (!(sum = sim_summary(t, &o->c, r)))
		return _fail("out of memory%s%s", "", "");
	f = _open(o->summary_out ? o->summary_out : "-");
	if (f) {
		if (o->json)
			fprintf(f, "%s\n",
				json_object_to_json_string_ext(
					sum,
					JSON_C_TO_STRING_PRETTY |
						JSON_C_TO_STRING_NOSLASHESCAPE));
		else
			sim_write_summary_text(f, sum);
		rc = _close(f, o->summary_out ? o->summary_out : "-");
	} else {
		rc = 1;
	}
	json_object_put(sum);
	return rc;
}

/*
 * --hmrf-conf: replay under the site's hmrf.conf, read by the core as
 * priority/hmrf reads it: its Policy, Window, WindowBucket, Timeout,
 * ChargeHorizon and BorrowLimit unless the command line gave them, and
 * each account's Share as its weight (DefaultShare for the others).
 */
static int _hmrf_conf(opts_t *o, sim_trace_t *t)
{
	hmrf_conf_t *conf = hmrf_conf_create();
	horae_err_t err;
	int rc = 1;

	if (!conf)
		return _fail("%s: %s", o->hmrf_conf, strerror(ENOMEM));
	if (hmrf_conf_read(conf, o->hmrf_conf, &err) ||
	    hmrf_conf_finish(conf, &err)) {
		_fail("--hmrf-conf: %s%s", err.text, "");
		goto out;
	}
	if (!o->set_policy && sim_policy_parse(hmrf_policy_name(conf->policy),
					       &o->c.policy, &err)) {
		_fail("%s: Policy: %s", o->hmrf_conf, err.text);
		goto out;
	}
	/* (Every Policy= of hmrf.conf places first-fit by default, as
	 * without the file.) */
	if (!o->set_window)
		o->c.window = conf->window;
	if (!o->set_bucket)
		o->c.bucket = conf->bucket;
	if (!o->set_timeout && conf->timeout_set)
		o->c.timeout = conf->timeout;
	if (!o->set_horizon)
		o->c.horizon = conf->horizon;
	if (!o->set_borrow)
		o->c.borrow_limit = conf->borrow_limit;
	for (int a = 0; a < t->naccounts; a++)
		t->accounts[a].weight =
			hmrf_conf_has_account(conf, t->accounts[a].name) ?
				hmrf_conf_share(conf, t->accounts[a].name) :
				conf->default_share;
	rc = 0;
out:
	hmrf_conf_destroy(&conf);
	return rc;
}

/*
 * Each pass of the scheduling loop makes a ranker and frees it.  glibc
 * gives the top of the heap back to the system whenever more than
 * M_TRIM_THRESHOLD (128 KiB) is free there, and the next pass faults
 * the same pages in again: a million tasks under eunomia made 26,000
 * brk calls and 366,000 page faults, a sixth of the run.  Keeping up to
 * 64 MiB of free heap costs at most that much resident memory (a run's
 * peak is about 21 MB).
 */
static void _heap_keep(void)
{
#ifdef M_TRIM_THRESHOLD
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
	opts_t o = { 0 };
	sim_trace_t t = { 0 };
	sim_result_t *r = NULL;
	horae_err_t err;
	int rc = _parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : 1;
	_heap_keep();
	if (_load(&o, o.generate ? NULL : argv[optind], &t))
		return 1;
	if (o.hmrf_conf && _hmrf_conf(&o, &t)) {
		sim_trace_free(&t);
		return 1;
	}
	if (o.write_trace && sim_trace_write_json(&t, o.write_trace, &err)) {
		sim_trace_free(&t);
		return _fail("%s%s", err.text, "");
	}
	if (o.no_run) {
		sim_trace_free(&t);
		return 0;
	}
	if (!o.quiet && isatty(STDERR_FILENO))
		o.c.progress = _progress;
	rc = sim_run(&t, &o.c, &r, &err);
	if (rc) {
		sim_trace_free(&t);
		/* The engine does not know where the trace came from. */
		return _fail("%s: %s", o.generate ? o.generate : argv[optind],
			     err.text);
	}
	rc = _outputs(&o, &t, r);
	sim_result_destroy(&r);
	sim_trace_free(&t);
	return rc;
}
