/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sfair.c - show Horae's per-account shares (sprio/sshare style).
 *
 * It reports what priority/hmrf has accounted: for each account,
 * its usage of each TRES inside the window (TRES x seconds), its
 * non-sharing allocation over the same window, and its sharing degree
 * beta.  It reads the plugin's state file (read-only; it never contacts
 * slurmctld), or under PrivateData=usage the user's own view of it
 * (views.h in the plugins; --explain alone asks slurmctld, once, in
 * explain.c), and brings the window up to the current time,
 * so usage that
 * left the window is not shown; it warns when the file has not been written
 * for three periods.  How the rows are printed (table, -p/-P, --json,
 * -o fields) lives in report.c.  Contributions, fair shares, aggregates,
 * progress shares and Justice's state come with the plugins' published
 * snapshot (issue 6).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "horae_config.h"

#include "common/hmrf.h"
#include "common/hmrf_conf.h"
#include "common/hmrf_state.h"
#include "common/eunomia_shares.h"
#include "common/hmrf_shares.h"
#include "common/justice.h"
#include "common/justice_history.h"
#include "common/justice_state.h"
#include "common/state.h"
#include "common/view_clock.h"
#include "common/justice_conf.h"
#include "check_config.h"
#include "ctld_report.h"
#include "ctld_shares.h"
#include "slurm_conf.h"
#include "explain.h"
#include "explain_print.h"
#include "report.h"
#include "when.h"

typedef struct opts {
	const char *state;
	const char *check;	/* --check-config: the file, or "" for the default */
	const char *kind;	/* --kind: whose file --check-config reads */
	const char *accounts;
	const char *format;	/* -o: field list */
	sfair_style_t style;
	bool noheader, long_list, deadlines;
	bool ctld; /* --ctld: slurmctld's view */
	const char *users; /* -u: these users' associations too */
	bool all_users; /* -a: every user's */
	const char *cluster; /* -M */
	long explain; /* --explain JOBID; 0: none */
	double at;
} opts_t;

static void _usage(FILE *out)
{
	fprintf(out,
		"Usage: sfair [OPTIONS]\n"
		"Show what Horae's priority/hmrf has accounted per account.\n\n"
		"  -A, --accounts=LIST   only these accounts (comma-separated)\n"
		"  -u, --users=LIST      also these users' associations (as\n"
		"                        sshare; asks slurmctld, as --ctld)\n"
		"  -a, --all             also every user's association (ditto)\n"
		"  -M, --clusters=NAME   that cluster's slurmctld (ditto)\n"
		"      --ctld            what slurmctld reports over sshare's\n"
		"                        RPC: association usage and H-MRF's\n"
		"                        standing as FairShare; sfair does this\n"
		"                        by itself where StateSaveLocation is\n"
		"                        not on this host (a login node)\n"
		"  -l, --long            also the last job start and the window\n"
		"  -o, --format=LIST     these fields: Account, Used[:TRES],\n"
		"                        NonSharing[:TRES], Beta, LastStart,\n"
		"                        WindowStart, WindowEnd\n"
		"  -p, --parsable        '|'-separated output, '|' at the end\n"
		"  -P, --parsable2       '|'-separated output\n"
		"      --json            one JSON document (every field)\n"
		"  -D, --deadlines       job_submit/justice's learnt fraction\n"
		"                        and counts instead of the accounts\n"
		"      --explain=JOBID   why this job is where it is: its\n"
		"                        factors, the accounts ranked above it,\n"
		"                        Justice's estimate for a deadline job\n"
		"                        (asks slurmctld once; text or --json)\n"
		"  -n, --noheader        no header line\n"
		"  -S, --state=FILE      priority/hmrf's state file (default:\n"
		"                        StateSaveLocation/horae_hmrf.state from\n"
		"                        slurm.conf, or $SLURM_CONF)\n"
		"      --at=TIME         evaluate the window at TIME (seconds\n"
		"                        since the epoch, or as sacct -S takes\n"
		"                        it: 2026-11-01T08:00, now-7days)\n"
		"                        instead of now\n"
		"      --check-config[=FILE]\n"
		"                        check hmrf.conf, eunomia.conf and justice.conf\n"
		"                        beside slurm.conf (or FILE, whose name or\n"
		"                        --kind=hmrf|eunomia|justice tells whose) the\n"
		"                        way the plugins read them, and exit\n"
		"  -h, --help            show this help and exit\n"
		"  -V, --version         show the version and exit\n");
}

/*
 * StateSaveLocation/horae_hmrf.state from slurm.conf.  NULL with the
 * reason printed when slurm.conf names no StateSaveLocation; NULL with
 * *elsewhere set, and nothing printed, when it names one that is not on
 * this host (a login node).
 */
static char *_state_from_slurm_conf(bool *elsewhere)
{
	char *dir = sfair_slurm_conf_get("StateSaveLocation"), *path;

	*elsewhere = false;

	if (!dir) {
		if (errno == ENOMEM)
			fprintf(stderr, "sfair: out of memory\n");
		else if (errno != EHOSTUNREACH) /* said already */
			fprintf(stderr, "sfair: %s names no StateSaveLocation: pass --state=FILE, or set SLURM_CONF to the cluster's slurm.conf\n",
				sfair_slurm_conf());
		return NULL;
	}
	if (access(dir, F_OK)) {
		*elsewhere = true;
		free(dir);
		return NULL;
	}
	path = malloc(strlen(dir) + sizeof("/horae_hmrf.state"));
	if (path)
		sprintf(path, "%s/horae_hmrf.state", dir);
	else
		fprintf(stderr, "sfair: out of memory\n");
	free(dir);
	return path;
}

static bool _wanted(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (!list)
		return true;
	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/*
 * Whether the accounts' window sums come from the view rather than the
 * state: priority/hmrf publishes them in the view each Period and saves
 * the whole window only every SaveInterval (horae-hmrf.conf(5)), so the
 * view is the newer unless the state was just saved.  Not with --at,
 * which brings the saved window to another time, nor from a view an
 * older build wrote (no sums) or over other TRES.
 */
static bool _sums_from_view(const hmrf_shares_t *view, double saved,
			    int tres_count, bool at_given)
{
	return !at_given && view->has_usage && view->ntres == tres_count &&
	       view->at > saved;
}

/*
 * The accounts wanted, as report rows: their window sums from the state
 * brought to at, or from the view (from_view: _sums_from_view), whose
 * accounts they are then.
 */
static sfair_row_t *_rows(const opts_t *o, hmrf_state_t *st, int tres_count,
			  const hmrf_shares_t *view, bool from_view,
			  const eunomia_shares_t *shares, int *n)
{
	int count = from_view ? view->n : names_count(hmrf_state_names(st));
	sfair_row_t *rows = calloc(count ? count : 1, sizeof(*rows));

	*n = 0;
	if (!rows)
		return NULL;
	for (int a = 0; a < count; a++) {
		sfair_row_t *r = &rows[*n];
		const eunomia_share_row_t *pr;
		const hmrf_share_row_t *hr;

		r->account = from_view ? view->rows[a].name :
					 names_get(hmrf_state_names(st), a);
		if (!_wanted(o->accounts, r->account))
			continue;
		if (from_view) {
			r->used = view->rows[a].used;
			r->ns = view->rows[a].ns;
			r->last_start = view->rows[a].last_start;
		} else {
			ledger_usage(hmrf_state_usage(st), a, &r->used);
			ledger_usage(hmrf_state_ns(st), a, &r->ns);
			r->last_start = hmrf_state_last_start(st, a);
		}
		r->beta = hmrf_beta(&r->used, &r->ns);
		if ((hr = hmrf_shares_find(view, r->account)) &&
		    view->ntres == tres_count) {
			r->has_hmrf = true;
			r->contribution = hr->contribution;
			r->fair = hr->fair;
			r->dominant = view->span > 0 ? hr->dominant : -1;
			r->aggregate = view->span > 0 ? hr->aggregate : -1;
		}
		if ((pr = eunomia_shares_find(shares, r->account))) {
			r->has_progress = true;
			r->progress = pr->progress;
			r->pshare = pr->share;
		}
		(*n)++;
	}
	return rows;
}

/* How often priority/hmrf writes its state: Period from the hmrf.conf
 * beside slurm.conf, or its default when that cannot be read. */
static double _period(void)
{
	char *path = sfair_slurm_conf_beside("hmrf.conf");
	hmrf_conf_t *c = hmrf_conf_create();
	double period = 30;

	if (c) {
		period = c->period;
		if (path && !hmrf_conf_read(c, path, NULL))
			period = c->period;
	}
	hmrf_conf_destroy(&c);
	free(path);
	return period;
}

/*
 * Load file prefix + name (prefix: the state file's directory and '/', or
 * a view's "DIR/horae_view/UID.") as kind, of a version from oldest to
 * newest.  Returns its path (to free) with *doc and *version, or NULL when
 * it does not exist or cannot be read (a warning then, with what is left
 * out).
 */
static char *_load_beside(const char *prefix, const char *name,
			  const char *kind, int oldest, int newest,
			  const char *what, json_object **doc, int *version)
{
	horae_err_t err, warn;
	char *path;
	int rc;

	*doc = NULL;
	path = malloc(strlen(prefix) + strlen(name) + 1);
	if (!path)
		return NULL;
	sprintf(path, "%s%s", prefix, name);
	rc = state_load_versions(path, kind, oldest, newest, doc, version,
				 &warn, &err);
	if (!rc) {
		if (warn.text[0])
			fprintf(stderr, "sfair: warning: %s\n", warn.text);
		return path;
	}
	if (rc != -ENOENT)
		fprintf(stderr, "sfair: warning: %s; %s not shown\n", err.text,
			what);
	free(path);
	return NULL;
}

/* select/eunomia's published progress shares, into *out. */
static char *_load_shares(const char *prefix, eunomia_shares_t *out)
{
	json_object *doc;
	horae_err_t err;
	int version;
	char *path = _load_beside(prefix, "horae_eunomia.shares",
				  EUNOMIA_SHARES_KIND, EUNOMIA_SHARES_VERSION,
				  EUNOMIA_SHARES_VERSION, "progress shares",
				  &doc, &version);

	if (path && eunomia_shares_from_json(doc, out, &err)) {
		fprintf(stderr, "sfair: warning: %s: %s; progress shares not shown\n",
			path, err.text);
		free(path);
		path = NULL;
	}
	json_object_put(doc);
	return path;
}

/* priority/hmrf's published view, into *out. */
static char *_load_hmrf_shares(const char *prefix, hmrf_shares_t *out)
{
	json_object *doc;
	horae_err_t err;
	int version;
	char *path = _load_beside(prefix, "horae_hmrf.shares", HMRF_SHARES_KIND,
				  HMRF_SHARES_OLDEST, HMRF_SHARES_VERSION,
				  "contributions and shares", &doc, &version);

	if (path && hmrf_shares_from_json(doc, version, out, &err)) {
		fprintf(stderr, "sfair: warning: %s: %s; contributions and shares not shown\n",
			path, err.text);
		free(path);
		path = NULL;
	}
	json_object_put(doc);
	return path;
}

/* job_submit/justice's history and counts, into *out; the history into
 * *keep (to destroy) too. */
static char *_load_justice(const char *prefix, sfair_justice_t *out,
			   justice_history_t **keep)
{
	json_object *doc, *h = NULL, *c = NULL;
	justice_history_t *hist = NULL;
	horae_err_t err = { 0 };
	horae_err_t warn;
	char *path = malloc(strlen(prefix) + sizeof("horae_justice.state"));
	int rc, version;

	if (!path)
		return NULL;
	sprintf(path, "%shorae_justice.state", prefix);
	/* Any version the plugin reads (a version 1 file has no records,
	 * which sfair does not show). */
	rc = justice_state_load(path, &doc, &version, &warn, &err);
	if (rc) {
		if (rc != -ENOENT)
			fprintf(stderr, "sfair: warning: %s; Justice's state not shown\n",
				err.text);
		free(path);
		return NULL;
	}
	if (warn.text[0])
		fprintf(stderr, "sfair: warning: %s\n", warn.text);
	err.text[0] = 0;
	if (!json_object_object_get_ex(doc, "history", &h) ||
	    !json_object_object_get_ex(doc, "counts", &c) ||
	    !(hist = justice_history_from_json(h, &err)) ||
	    justice_counts_from_json(c, &out->counts, &err)) {
		fprintf(stderr, "sfair: warning: %s: %s; Justice's state not shown\n",
			path, err.text[0] ? err.text : "no history or counts");
		free(path);
		path = NULL;
	} else {
		out->jobs = justice_history_count(hist);
		out->fraction = justice_fraction(hist);
		out->min = out->jobs ? justice_history_min(hist) : NAN;
		out->max = out->jobs ? justice_history_max(hist) : NAN;
		out->file = path;
		*keep = hist;
		hist = NULL;
	}
	justice_history_destroy(&hist);
	json_object_put(doc);
	return path;
}

/* The directory of path with its '/' ("" for none), to free. */
static char *_dir_prefix(const char *path)
{
	const char *slash = strrchr(path, '/');
	int len = slash ? (int)(slash - path + 1) : 0;
	char *prefix = malloc(len + 1);

	if (prefix)
		sprintf(prefix, "%.*s", len, path);
	return prefix;
}

/*
 * Which usage to show.  The plugins' own files when they can be read (as
 * root or SlurmUser, or by all without PrivateData=usage); else, when
 * permission is denied, the view the plugins publish for this user under
 * PrivateData=usage, DIR/horae_view/UID.horae_hmrf.state, which *path then
 * names.  *prefix is what the files beside it are named after (to free).
 * Returns 0, or 2 with the reason printed.
 */
static int _choose_source(char **path, char **prefix, bool *own_view)
{
	char *dir = _dir_prefix(*path), *view;
	uid_t uid = getuid();

	*own_view = false;
	*prefix = dir;
	if (!dir)
		goto nomem;
	if (!access(*path, R_OK) || errno != EACCES)
		return 0;
	view = malloc(strlen(dir) + 64);
	*prefix = malloc(strlen(dir) + 64);
	if (!view || !*prefix) {
		free(view);
		free(dir);
		goto nomem;
	}
	sprintf(*prefix, "%shorae_view/%u.", dir, (unsigned int)uid);
	sprintf(view, "%shorae_hmrf.state", *prefix);
	if (!access(view, R_OK)) {
		free(dir);
		free(*path);
		*path = view;
		*own_view = true;
		return 0;
	}
	if (errno == EACCES)
		fprintf(stderr,
			"sfair: %s: permission denied, and so is your view %s: is StateSaveLocation (%s) closed to users (it must be passable, mode 0711 or 0755)?\n",
			*path, view, dir);
	else
		fprintf(stderr,
			"sfair: %s: permission denied, and there is no view for you (uid %u) in %shorae_view/: with PrivateData=usage the plugins publish one for each user with jobs or associations (at their next period after the first job), and without it their files are readable by all\n",
			*path, (unsigned int)uid, dir);
	free(view);
	free(dir);
	return 2;
nomem:
	fprintf(stderr, "sfair: out of memory\n");
	return 2;
}

/* --explain: Justice's configuration beside slurm.conf, then the job. */
static int _explain(const opts_t *o, const sfair_report_t *rep,
		    const justice_history_t *hist)
{
	char *path = sfair_slurm_conf_beside("justice.conf");
	justice_conf_t jconf;
	sfair_explain_t x;
	horae_err_t err;
	int rc;

	if (!path && errno == ENOMEM) {
		fprintf(stderr, "sfair: out of memory\n");
		return 2;
	}
	justice_conf_init(&jconf);
	if (!path)
		fprintf(stderr,
			"sfair: no slurm.conf on this host (configless), so no justice.conf: Justice's estimates below use its defaults\n");
	rc = path ? justice_conf_read(&jconf, path, &err) : -ENOENT;
	free(path);
	if (rc && rc != -ENOENT) {
		fprintf(stderr, "sfair: %s\n", err.text);
		return 2;
	}
	rc = sfair_explain_load(&x, (uint32_t)o->explain, rep, hist, &jconf);
	if (!rc)
		sfair_explain_print(stdout, &x, rep, o->style);
	sfair_explain_free(&x);
	return rc;
}

/*
 * What slurmctld reports over sshare's RPC: asked for (--ctld, -u, -a,
 * -M), or by itself where StateSaveLocation is not on this host (fallback,
 * which says so and what it leaves out).
 */
static int _ctld(const opts_t *o, bool fallback)
{
	sfair_assocs_query_t q = { o->accounts, o->users, o->all_users,
				   o->cluster };
	sfair_ctld_field_t fields[SFAIR_MAX_FIELDS];
	sfair_assocs_t a;
	char msg[512];
	int n;

	if (fallback && (o->at || o->deadlines || o->explain)) {
		fprintf(stderr,
			"sfair: StateSaveLocation (%s) is not on this host, and %s reads the files priority/hmrf, select/eunomia and job_submit/justice keep there: run it where slurmctld runs or where that directory is mounted; without it, sfair shows what slurmctld reports\n",
			sfair_slurm_conf(),
			o->at	     ? "--at" :
			o->deadlines ? "-D" :
				       "--explain");
		return 2;
	}
	if (o->state || o->at || o->deadlines || o->explain) {
		fprintf(stderr,
			"sfair: %s read%s the plugins' files; slurmctld's view (%s) has only the associations' usage and standing now\n",
			o->state     ? "--state" :
			o->at	     ? "--at" :
			o->deadlines ? "-D" :
				       "--explain",
			o->explain ? "s slurmctld and" : "s",
			o->cluster   ? "-M" :
			o->all_users ? "-a" :
			o->users     ? "-u" :
				       "--ctld");
		return 2;
	}
	if (sfair_assocs_load(&q, &a))
		return 2;
	n = o->format ? sfair_ctld_fields_parse(o->format, &a, fields, msg,
						sizeof(msg)) :
			sfair_ctld_fields_default(&a, o->long_list, fields);
	if (n < 0) {
		fprintf(stderr, "sfair: %s\n", msg);
		sfair_assocs_free(&a);
		return 2;
	}
	if (fallback)
		fprintf(stderr,
			"sfair: StateSaveLocation is not on this host: showing what slurmctld reports (sshare's RPC); the window's usage, Beta, Contribution, shares, progress and Justice's state need the plugins' files (run sfair where slurmctld runs)\n");
	sfair_ctld_print(stdout, &a, fields, n, o->style, o->noheader,
			 (double)time(NULL));
	sfair_assocs_free(&a);
	return 0;
}

static int _parse_args(int argc, char **argv, opts_t *o)
{
	static const struct option longopts[] = {
		{ "accounts", required_argument, NULL, 'A' },
		{ "users", required_argument, NULL, 'u' },
		{ "all", no_argument, NULL, 'a' },
		{ "clusters", required_argument, NULL, 'M' },
		{ "ctld", no_argument, NULL, 'c' },
		{ "long", no_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'o' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'J' },
		{ "deadlines", no_argument, NULL, 'D' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "state", required_argument, NULL, 'S' },
		{ "at", required_argument, NULL, 'T' },
		{ "check-config", optional_argument, NULL, 'C' },
		{ "kind", required_argument, NULL, 'K' },
		{ "explain", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	argv[0] = (char *)"sfair"; /* getopt's messages name it */
	while ((c = getopt_long(argc, argv, "A:u:aM:Dlo:pPnS:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'A': o->accounts = optarg; break;
		case 'u':
			o->users = optarg;
			o->ctld = true;
			break;
		case 'a':
			o->all_users = true;
			o->ctld = true;
			break;
		case 'M':
			o->cluster = optarg;
			o->ctld = true;
			break;
		case 'c':
			o->ctld = true;
			break;
		case 'D': o->deadlines = true; break;
		case 'l': o->long_list = true; break;
		case 'o': o->format = optarg; break;
		case 'p': o->style = SFAIR_PARSABLE; break;
		case 'P': o->style = SFAIR_PARSABLE2; break;
		case 'J': o->style = SFAIR_JSON; break;
		case 'n': o->noheader = true; break;
		case 'S': o->state = optarg; break;
		case 'T':
			if (sfair_when(optarg, &o->at)) {
				fprintf(stderr,
					"sfair: --at=%s: not a time (seconds since the epoch, or as sacct -S takes it: 2026-11-01T08:00, now-7days, midnight)\n",
					optarg);
				return 2;
			}
			break;
		case 'C': o->check = optarg ? optarg : ""; break;
		case 'K': o->kind = optarg; break;
		case 'E':
			errno = 0;
			o->explain = strtol(optarg, &end, 10);
			if (errno || *end || o->explain <= 0 ||
			    o->explain > 0xfffffffdL) {
				fprintf(stderr, "sfair: --explain=%s: not a job id\n",
					optarg);
				return 2;
			}
			break;
		case 'h': _usage(stdout); exit(EXIT_SUCCESS);
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			exit(EXIT_SUCCESS);
		default: /* getopt said which option */
			fprintf(stderr, "Try 'sfair --help' for the options.\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sfair: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	opts_t o = { 0 };
	char *path = NULL;
	json_object *doc = NULL;
	hmrf_state_t *st = NULL;
	tres_layout_t *layout = NULL;
	horae_err_t err, warn;
	sfair_field_t fields[SFAIR_MAX_FIELDS];
	sfair_report_t rep = { 0 };
	sfair_row_t *rows = NULL;
	eunomia_shares_t shares = { 0 };
	hmrf_shares_t view = { 0 };
	sfair_justice_t justice = { 0 };
	char *shares_path = NULL, *justice_path = NULL, *view_path = NULL;
	char *prefix = NULL, *main_prefix = NULL;
	justice_history_t *hist = NULL;
	char window[64] = "none", msg[256];
	int rc = 2, nfields;
	bool o_at_given, from_view, elsewhere = false;

	if (_parse_args(argc, argv, &o))
		return 2;
	if (o.kind && !o.check) {
		fprintf(stderr, "sfair: --kind goes with --check-config\n");
		return 2;
	}
	if (o.check)
		return sfair_check_config(o.check, o.kind);
	if (o.ctld)
		return _ctld(&o, false);
	path = o.state ? strdup(o.state) : _state_from_slurm_conf(&elsewhere);
	if (!path && elsewhere)
		return _ctld(&o, true);
	if (!path)
		return 2;
	main_prefix = _dir_prefix(path);
	if (!main_prefix || _choose_source(&path, &prefix, &rep.own_view))
		goto cleanup;
	rc = state_load(path, HMRF_STATE_KIND, HMRF_STATE_VERSION, &doc, &warn,
			&err);
	if (rc == -ENOENT && o.deadlines && !o.explain) {
		/* Justice without priority/hmrf: its own state is enough. */
		rc = 2;
		if ((justice_path = _load_justice(main_prefix, &justice,
						  &hist))) {
			rep.justice = &justice;
			sfair_justice_print(stdout, &rep, o.style, o.noheader);
			rc = 0;
		} else {
			fprintf(stderr, "sfair: no Justice state in %s: is job_submit/justice enabled?\n",
				main_prefix);
		}
		goto cleanup;
	}
	if (rc == -ENOENT) {
		fprintf(stderr, "sfair: %s does not exist: priority/hmrf has not saved any usage yet\n",
			path);
		rc = 2;
		goto cleanup;
	}
	if (rc) {
		fprintf(stderr, "sfair: %s\n", err.text);
		rc = 2;
		goto cleanup;
	}
	if (warn.text[0])
		fprintf(stderr, "sfair: warning: %s\n", warn.text);
	st = hmrf_state_from_json(doc, &err);
	layout = st ? tres_layout_create(hmrf_state_tres(st), &err) : NULL;
	if (!st || !layout) {
		fprintf(stderr, "sfair: %s: %s\n", path, err.text);
		rc = 2;
		goto cleanup;
	}
	rep.saved = hmrf_state_charged_until(st);
	o_at_given = o.at > 0;
	if (!o.at)
		o.at = (double)time(NULL);
	hmrf_state_advance(st, o.at);
	rep.state = path;
	rep.at = o.at;
	rep.window_start = ledger_window_start(hmrf_state_usage(st));
	window_format(ledger_window(hmrf_state_usage(st)), window,
		      sizeof(window));
	rep.window = window;
	rep.ntres = tres_layout_count(layout);
	for (int i = 0; i < rep.ntres; i++)
		rep.tres[i] = tres_layout_name(layout, i);
	if ((view_path = _load_hmrf_shares(prefix, &view))) {
		rep.hmrf_file = view_path;
		rep.hmrf_at = view.at;
	}
	if ((shares_path = _load_shares(prefix, &shares))) {
		rep.progress_file = shares_path;
		rep.progress_at = shares.at;
		rep.fair_progress = shares.fair;
	}
	/* Justice's state is the cluster's, readable by all: never a view. */
	if ((justice_path = _load_justice(main_prefix, &justice, &hist)))
		rep.justice = &justice;
	nfields = o.format ?
			  sfair_fields_parse(o.format, &rep, fields, msg,
					     sizeof(msg)) :
			  sfair_fields_default(&rep, o.long_list, fields);
	if (nfields < 0) {
		fprintf(stderr, "sfair: %s\n", msg);
		rc = 2;
		goto cleanup;
	}
	from_view = _sums_from_view(&view, rep.saved, rep.ntres, o_at_given);
	if (!o_at_given) {
		double period = _period();
		/* A user's own view is refreshed every VIEW_REFRESH_PERIODS
		 * periods (view_clock.h), the plugin's every period: its
		 * view of the shares with the window sums, or (an older
		 * build) its state. */
		double every = rep.own_view ? VIEW_REFRESH_PERIODS * period :
					      period;
		double fresh = from_view ? view.at : rep.saved;

		/* Three periods past a refresh: the plugin is not writing. */
		if (o.at - fresh > every + 2 * period + 5) {
			rep.stale = true;
			fprintf(stderr,
				"sfair: warning: %s was last written %.0f s ago, but priority/hmrf writes it every %.0f s: is slurmctld running with PriorityType=priority/hmrf?\n",
				from_view ? view_path : path, o.at - fresh,
				every);
		}
	}
	rows = _rows(&o, st, rep.ntres, &view, from_view, &shares, &rep.nrows);
	if (!rows) {
		fprintf(stderr, "sfair: out of memory\n");
		rc = 2;
		goto cleanup;
	}
	rep.rows = rows;
	if (o.deadlines && !rep.justice && o.style != SFAIR_JSON) {
		fprintf(stderr, "sfair: no Justice state beside %s: is job_submit/justice enabled?\n",
			path);
		rc = 2;
		goto cleanup;
	}
	if (o.explain) {
		rc = _explain(&o, &rep, hist);
		goto cleanup;
	}
	if (o.deadlines && o.style != SFAIR_JSON)
		sfair_justice_print(stdout, &rep, o.style, o.noheader);
	else
		sfair_report_print(stdout, &rep, fields, nfields, o.style,
				   o.noheader);
	rc = 0;
cleanup:
	free(rows);
	free(shares_path);
	free(justice_path);
	free(view_path);
	free(prefix);
	free(main_prefix);
	justice_history_destroy(&hist);
	hmrf_shares_free(&view);
	eunomia_shares_free(&shares);
	json_object_put(doc);
	hmrf_state_destroy(&st);
	tres_layout_destroy(&layout);
	free(path);
	return rc;
}
