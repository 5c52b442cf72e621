/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gen.c - the papers' workloads as traces (see sim_gen.h for the
 * list).  The fixed examples are built as the papers (and DESIGN.md) give
 * them; the justice stream draws from the core's rng (rng.h), so a seed
 * gives the same trace on every machine.  Every
 * TRES vector is parsed from its string with tres_parse(), the way a JSON
 * trace would give it, so that writing a generated trace and reading it
 * back gives the same trace.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sim_gen.h"

/* Most jobs a stream may ask for. */
#define GEN_JOBS_MAX 10000000

/*
 * Building a trace
 */

typedef struct builder {
	sim_trace_t t;
	size_t cap_jobs;
	horae_err_t *err;
	int rc; /* the first failure; later calls do nothing */
} builder_t;

static void _b_fail(builder_t *b, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void _b_fail(builder_t *b, int rc, const char *fmt, ...)
{
	char msg[HORAE_ERR_LEN];
	va_list ap;

	if (b->rc)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	b->rc = err_set(b->err, rc, "%s", msg);
}

static void _b_init(builder_t *b, const char *layout, horae_err_t *err)
{
	horae_err_t e;

	memset(b, 0, sizeof(*b));
	b->err = err;
	b->t.layout = tres_layout_create(layout, &e);
	if (!b->t.layout)
		_b_fail(b, errno == ENOMEM ? -ENOMEM : -EINVAL, "%s", e.text);
}

static void _b_tres(builder_t *b, const char *s, tres_vec_t *v)
{
	horae_err_t e;

	if (!b->rc && tres_parse(b->t.layout, s, v, &e))
		_b_fail(b, -EINVAL, "%s", e.text);
}

/* count nodes named prefix1..prefixN (just prefix when count is 1). */
static void _b_nodes(builder_t *b, const char *prefix, int count,
		     const char *tres, double speed, const char *features)
{
	sim_node_t *n;
	tres_vec_t cap;

	_b_tres(b, tres, &cap);
	if (b->rc)
		return;
	n = realloc(b->t.nodes, (b->t.nnodes + count) * sizeof(*n));
	if (!n)
		return _b_fail(b, -ENOMEM, "out of memory");
	b->t.nodes = n;
	for (int i = 1; i <= count; i++) {
		n = &b->t.nodes[b->t.nnodes++];
		memset(n, 0, sizeof(*n));
		if (count == 1)
			snprintf(n->name, sizeof(n->name), "%s", prefix);
		else
			snprintf(n->name, sizeof(n->name), "%s%d", prefix, i);
		n->capacity = cap;
		n->speed = speed;
		snprintf(n->features, sizeof(n->features), "%s", features);
	}
}

/* Accounts, weight 1, named by the arguments up to NULL. */
static void _b_accounts(builder_t *b, ...)
{
	sim_account_t *a;
	const char *name;
	va_list ap;

	va_start(ap, b);
	while (!b->rc && (name = va_arg(ap, const char *))) {
		a = realloc(b->t.accounts, (b->t.naccounts + 1) * sizeof(*a));
		if (!a) {
			_b_fail(b, -ENOMEM, "out of memory");
			break;
		}
		b->t.accounts = a;
		a = &a[b->t.naccounts++];
		memset(a, 0, sizeof(*a));
		snprintf(a->name, sizeof(a->name), "%s", name);
		a->weight = 1;
	}
	va_end(ap);
}

/* A rigid job, id next in line: the caller adds jobs in submit order. */
static sim_job_t *_b_job(builder_t *b, int account, double submit, int tasks,
			 const char *tres, double work)
{
	sim_job_t *j;

	if (b->rc)
		return NULL;
	if (b->t.njobs == b->cap_jobs) {
		size_t cap = b->cap_jobs ? 2 * b->cap_jobs : 16;

		j = realloc(b->t.jobs, cap * sizeof(*j));
		if (!j) {
			_b_fail(b, -ENOMEM, "out of memory");
			return NULL;
		}
		b->t.jobs = j;
		b->cap_jobs = cap;
	}
	j = &b->t.jobs[b->t.njobs];
	memset(j, 0, sizeof(*j));
	_b_tres(b, tres, &j->demand);
	if (b->rc)
		return NULL;
	b->t.njobs++;
	j->id = (long)b->t.njobs;
	j->account = account;
	j->submit = submit;
	j->tasks = tasks;
	j->min_tasks = tasks;
	j->work = work;
	return j;
}

/*
 * The generators
 */

/*
 * H-MRF Example 3 / Table 1: 100 CPUs and 100 GB paid for equally by A
 * and B; A's tasks <1 CPU, 4 GB>, B's <4 CPU, 1 GB>; at t1..t4 (0, 1, 2,
 * 3 s) A submits 30, 20, 27, 10 new tasks and B 4, 24, 8, 30; a task
 * lasts one step.
 */
static void _hmrf_table1(builder_t *b, const sim_gen_opts_t *o)
{
	static const int a[4] = { 30, 20, 27, 10 }, bb[4] = { 4, 24, 8, 30 };

	(void)o;
	_b_nodes(b, "n1", 1, "cpu=100,mem=100G", 1.0, "");
	_b_accounts(b, "A", "B", NULL);
	for (int t = 0; t < 4; t++) {
		_b_job(b, 0, t, a[t], "cpu=1,mem=4G", 1);
		_b_job(b, 1, t, bb[t], "cpu=4,mem=1G", 1);
	}
}

/*
 * H-MRF Example 4 (Figs. 3-5): the same cluster, A's tasks <1 CPU, 2 GB>,
 * B's <1 CPU, 1 GB>; at t1 (0 s) A submits 15 tasks and B 80; at t2 (1
 * s) there are 60 of A's and 40 of B's to run: 60 new for A, 30 new for
 * B beside its 10 left over.  A task lasts one step.
 */
static void _hmrf_example4(builder_t *b, const sim_gen_opts_t *o)
{
	(void)o;
	_b_nodes(b, "n1", 1, "cpu=100,mem=100G", 1.0, "");
	_b_accounts(b, "A", "B", NULL);
	_b_job(b, 0, 0, 15, "cpu=1,mem=2G", 1);
	_b_job(b, 1, 0, 80, "cpu=1,mem=1G", 1);
	_b_job(b, 0, 1, 60, "cpu=1,mem=2G", 1);
	_b_job(b, 1, 1, 30, "cpu=1,mem=1G", 1);
}

/*
 * Eunomia's micro-benchmark (Tables III and IV): 20 nodes of 4 cores and
 * 4 GB, five of each normalized performance 1.0, 1.5, 2.0, 3.0; four jobs
 * of 1000 tasks of one core and 1 GB, mean task time 2 s on type-1 nodes
 * (we make every task exactly 2 s there), job 4 constrained to type 4.
 * Arrivals: Table IV gives "Start time(s)" 0 for all four jobs, and the
 * text says "we simulate 4 jobs with nearly the same configuration
 * arriving at the same time".
 */
static void _eunomia_micro(builder_t *b, const sim_gen_opts_t *o)
{
	static const double speed[4] = { 1.0, 1.5, 2.0, 3.0 };
	char prefix[16], feature[16];

	(void)o;
	for (int g = 0; g < 4; g++) {
		snprintf(feature, sizeof(feature), "gen%d", g + 1);
		snprintf(prefix, sizeof(prefix), "gen%d-", g + 1);
		_b_nodes(b, prefix, 5, "cpu=4,mem=4G", speed[g], feature);
	}
	_b_accounts(b, "u1", "u2", "u3", "u4", NULL);
	for (int u = 0; u < 4; u++) {
		sim_job_t *j = _b_job(b, u, 0, 1000, "cpu=1,mem=1G", 2);

		if (j && u == 3)
			snprintf(j->constraint, sizeof(j->constraint), "gen4");
	}
}

/*
 * psdsf-progressive-filling.md's example as DESIGN.md restores it:
 * servers (100, 30) and (30, 100), frameworks with per-task demands
 * (5, 1) and (1, 5); 100 tasks each is more than fits (alone, f1 fits
 * 26), and tasks long enough that none ends before every task that can
 * be placed is.
 */
static void _psdsf_example(builder_t *b, const sim_gen_opts_t *o)
{
	(void)o;
	_b_nodes(b, "s1", 1, "cpu=100,mem=30G", 1.0, "");
	_b_nodes(b, "s2", 1, "cpu=30,mem=100G", 1.0, "");
	_b_accounts(b, "f1", "f2", NULL);
	_b_job(b, 0, 0, 100, "cpu=5,mem=1G", 1000);
	_b_job(b, 1, 0, 100, "cpu=1,mem=5G", 1000);
}

/* DRFH Fig. 1: server 1 (2 CPUs, 12 GB), server 2 (12 CPUs, 2 GB); user
 * 1's tasks (0.2 CPU, 1 GB), user 2's (1 CPU, 0.2 GB). */
static void _drfh_fig1(builder_t *b, const sim_gen_opts_t *o)
{
	(void)o;
	_b_nodes(b, "s1", 1, "cpu=2,mem=12G", 1.0, "");
	_b_nodes(b, "s2", 1, "cpu=12,mem=2G", 1.0, "");
	_b_accounts(b, "u1", "u2", NULL);
	_b_job(b, 0, 0, 100, "cpu=0.2,mem=1G", 1000);
	_b_job(b, 1, 0, 100, "cpu=1,mem=0.2G", 1000);
}

/*
 * DRFH's dynamic allocation (Sec. VI, Fig. 4).  From the paper: "3 users
 * ... a small cluster of 100 servers ... randomly drawn from the
 * distribution of Google cluster servers in Table I, leading to a
 * resource pool containing 52.75 CPU units and 51.32 memory units";
 * "User 1 joins the system at the beginning, requiring 0.2 CPU and 0.3
 * memory for each of its task ... allocated 40% CPU share and 62% memory
 * share.  This allocation continues until 200 s, at which time user 2
 * joins and submits CPU-heavy tasks, each requiring 0.5 CPU and 0.1
 * memory ... both users receive 44% global dominant share.  At 500 s,
 * user 3 starts to submit memory-intensive tasks, each requiring 0.1 CPU
 * and 0.3 memory ... 26% to all three users until user 1 finishes its
 * tasks and departs at 1080 s.  After that, only users 2 and 3 share the
 * system ... A similar process repeats until all users finish".
 *
 * Our choices:
 * - The servers: not a random draw but the one multiset of Table I's
 *   types closest to the table's proportions whose totals are exactly
 *   52.75 CPU and 51.32 memory units: 59 (0.5, 0.5), 14 (0.5, 0.25), 14
 *   (0.5, 0.75), 6 (1, 1), 1 (0.25, 0.25), 5 (0.5, 0.12), 1 (0.5, 0.97).
 *   User 1 alone packs 107 tasks into it, 40.6% of the CPUs and 62.5% of
 *   the memory: the paper's 40% and 62%.
 * - Units: one normalized unit is 100 CPUs and 100 GB, so every amount
 *   is whole: the largest server is cpu=100,mem=100G, user 1's tasks
 *   cpu=20,mem=30G.
 * - Tasks and durations are not given.  Every task lasts 10 s (short
 *   against the phases, so shares follow arrivals closely), and each
 *   user submits one job of many tasks at its joining time.  The
 *   paper's own shares (107 tasks for 200 s, 75 at 44% for 300 s, 44 at
 *   26% for 580 s) would make user 1's work 7000 tasks; horae-sim's
 *   drfh (best-fit) gives the same 62% and 44% but 30% rather than 26%
 *   in the three-user phase, so we give user 1 7450 tasks, which it
 *   ends at 1080 s there, as in the paper.  Users 2 and 3 get 5000 and
 *   8000 tasks, so that after 1080 s they share the cluster for a while
 *   and leave one after the other (near 1450 s and 1630 s under drfh).
 */
static void _drfh_dynamic(builder_t *b, const sim_gen_opts_t *o)
{
	static const struct {
		const char *prefix, *tres;
		int count;
	} servers[] = {
		{ "a", "cpu=50,mem=50G", 59 }, { "b", "cpu=50,mem=25G", 14 },
		{ "c", "cpu=50,mem=75G", 14 }, { "d", "cpu=100,mem=100G", 6 },
		{ "e", "cpu=25,mem=25G", 1 },  { "f", "cpu=50,mem=12G", 5 },
		{ "g", "cpu=50,mem=97G", 1 },
	};

	(void)o;
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		_b_nodes(b, servers[i].prefix, servers[i].count,
			 servers[i].tres, 1.0, "");
	_b_accounts(b, "u1", "u2", "u3", NULL);
	_b_job(b, 0, 0, 7450, "cpu=20,mem=30G", 10);
	_b_job(b, 1, 200, 5000, "cpu=50,mem=10G", 10);
	_b_job(b, 2, 500, 8000, "cpu=10,mem=30G", 10);
}

#define JUSTICE_NODES 8
#define JUSTICE_NODE_CPUS 4
#define JUSTICE_ACCOUNTS 4

/*
 * Justice's evaluation replays a production YARN trace in which
 * "approximately 60% of the jobs have a single task and 70-80% of the
 * jobs have fewer than 10 tasks", on clusters too small for it (2500 and
 * 5000 CPUs for a 25,000-core trace), with deadlines D = x T, T the job's
 * optimal run time and x drawn Jockey-style from two values or Aria-style
 * uniformly from an interval.  We scale that down: 32 CPUs (8 nodes of 4),
 * four accounts, jobs of 1..16 CPUs (half the cluster at most): 60% one
 * task, 15% 2..9, 25% 10..16.  Jobs are moldable (work is the job's
 * CPU-seconds); 30% of those with 2 or more tasks are elastic, min_tasks
 * uniform in 1..tasks-1.  T, the run time at the requested size, is
 * log-uniform in [30, 600] s, whole seconds; the deadline is submit +
 * x T with x uniform in [1.5, 3].  Arrivals are Poisson, the first at 0,
 * at the rate that makes the offered load (sum of work over the span
 * times the CPUs) opts->load.  Draws per job, in this order: account,
 * size class, size (more than one task), T, elastic or not, min_tasks
 * (elastic), x, the gap before it (unused for the first).
 */
static void _justice(builder_t *b, const sim_gen_opts_t *o)
{
	size_t n = o->jobs ? o->jobs : 200;
	double load = o->load ? o->load : 1.5, *gap, *mult, total = 0, t = 0;
	double cpus = JUSTICE_NODES * JUSTICE_NODE_CPUS;
	char tres[16];
	rng_t r;

	snprintf(tres, sizeof(tres), "cpu=%d", JUSTICE_NODE_CPUS);
	_b_nodes(b, "n", JUSTICE_NODES, tres, 1.0, "");
	_b_accounts(b, "f1", "f2", "f3", "f4", NULL);
	gap = calloc(n, sizeof(*gap));
	mult = calloc(n, sizeof(*mult));
	if (!gap || !mult)
		_b_fail(b, -ENOMEM, "out of memory");
	rng_seed(&r, o->seed);
	for (size_t i = 0; !b->rc && i < n; i++) {
		int acct = (int)rng_below(&r, JUSTICE_ACCOUNTS), tasks;
		double u = rng_uniform(&r), run;
		sim_job_t *j;

		if (u < 0.60)
			tasks = 1;
		else if (u < 0.75)
			tasks = 2 + (int)rng_below(&r, 8);
		else
			tasks = 10 + (int)rng_below(&r, 7);
		run = round(30 * exp(rng_uniform(&r) * log(600.0 / 30)));
		j = _b_job(b, acct, 0, tasks, "cpu=1", run * tasks);
		if (!j)
			break;
		j->moldable = true;
		if (rng_uniform(&r) < 0.3 && tasks > 1)
			j->min_tasks = 1 + (int)rng_below(&r, tasks - 1);
		mult[i] = 1.5 + 1.5 * rng_uniform(&r);
		gap[i] = -log(1 - rng_uniform(&r));
		total += j->work;
	}
	/* n jobs of total work at rate lambda span n / lambda seconds. */
	for (size_t i = 0; !b->rc && i < n; i++) {
		sim_job_t *j = &b->t.jobs[i];

		if (i)
			t += gap[i] * total / (load * cpus * n);
		j->submit = t;
		j->deadline = t + mult[i] * j->work / j->tasks;
	}
	free(gap);
	free(mult);
}

static const struct {
	const char *name;
	const char *layout;
	void (*make)(builder_t *b, const sim_gen_opts_t *o);
	bool stream; /* takes jobs and load */
} gens[] = {
	{ "hmrf-table1", "cpu,mem", _hmrf_table1, false },
	{ "hmrf-example4", "cpu,mem", _hmrf_example4, false },
	{ "eunomia-micro", "cpu,mem", _eunomia_micro, false },
	{ "psdsf-example", "cpu,mem", _psdsf_example, false },
	{ "drfh-fig1", "cpu,mem", _drfh_fig1, false },
	{ "drfh-dynamic", "cpu,mem", _drfh_dynamic, false },
	{ "justice", "cpu", _justice, true },
};
#define NGENS (sizeof(gens) / sizeof(gens[0]))

/* gens' names, in its order. */
static const char *const names[NGENS + 1] = {
	"hmrf-table1", "hmrf-example4", "eunomia-micro", "psdsf-example",
	"drfh-fig1",   "drfh-dynamic",	"justice",
	NULL,
};

const char *const *sim_gen_names(void)
{
	return names;
}

static int _unknown(const char *name, horae_err_t *err)
{
	char list[256];
	size_t used = 0;

	list[0] = '\0';
	for (size_t i = 0; i < NGENS && used < sizeof(list); i++)
		used += snprintf(list + used, sizeof(list) - used, "%s%s",
				 i ? ", " : "", gens[i].name);
	return err_set(err, -EINVAL, "unknown generator '%s' (use %s)", name,
		       list);
}

static int _check_opts(size_t g, const sim_gen_opts_t *o, horae_err_t *err)
{
	if (!gens[g].stream && (o->jobs || o->load))
		return err_set(
			err, -EINVAL,
			"generator '%s' is a fixed example: it takes no job count or load",
			gens[g].name);
	if (o->jobs > GEN_JOBS_MAX)
		return err_set(err, -EINVAL, "%zu jobs: at most %d", o->jobs,
			       GEN_JOBS_MAX);
	if (!isfinite(o->load) || o->load < 0)
		return err_set(err, -EINVAL,
			       "load %g: must be a number > 0 (0: the default)",
			       o->load);
	return 0;
}

int sim_gen(const char *name, const sim_gen_opts_t *opts, sim_trace_t *out,
	    horae_err_t *err)
{
	sim_gen_opts_t o = { 0 };
	builder_t b;
	size_t g;
	int rc;

	if (!name || !out)
		return err_set(err, -EINVAL, "no generator name or no trace");
	for (g = 0; g < NGENS && strcmp(gens[g].name, name); g++)
		;
	if (g == NGENS)
		return _unknown(name, err);
	if (opts)
		o = *opts;
	rc = _check_opts(g, &o, err);
	if (rc)
		return rc;
	_b_init(&b, gens[g].layout, err);
	if (!b.rc)
		gens[g].make(&b, &o);
	if (b.rc) {
		sim_trace_free(&b.t);
		return b.rc;
	}
	*out = b.t;
	return 0;
}
