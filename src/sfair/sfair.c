/*
 * sfair.c - show Horae's per-account shares (sprio/sshare style).
 *
 * This version reports what priority/hmrf has accounted: for each account,
 * its usage of each TRES inside the window (TRES x seconds), its
 * non-sharing allocation over the same window, and its sharing degree
 * beta.  It reads the plugin's state file (read-only; it never contacts
 * slurmctld) and brings the window up to the current time, so usage that
 * left the window is not shown.  Contributions, fair shares, aggregates,
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

#include "horae_config.h"

#include "common/hmrf.h"
#include "common/hmrf_conf.h"
#include "common/hmrf_state.h"
#include "common/state.h"
#include "check_config.h"

typedef struct opts {
	const char *state;
	const char *check;	/* --check-config: the file, or "" for the default */
	const char *accounts;
	bool parsable, noheader;
	double at;
} opts_t;

static void _usage(FILE *out)
{
	fprintf(out,
		"Usage: sfair [OPTIONS]\n"
		"Show what Horae's priority/hmrf has accounted per account.\n\n"
		"  -A, --accounts=LIST   only these accounts (comma-separated)\n"
		"  -P, --parsable        '|'-separated output\n"
		"  -n, --noheader        no header line\n"
		"  -S, --state=FILE      priority/hmrf's state file (default:\n"
		"                        StateSaveLocation/horae_hmrf.state from\n"
		"                        slurm.conf, or $SLURM_CONF)\n"
		"      --at=TIME         evaluate the window at TIME (seconds\n"
		"                        since the epoch) instead of now\n"
		"      --check-config[=FILE]\n"
		"                        check hmrf.conf, eunomia.conf and justice.conf\n"
		"                        beside slurm.conf (or FILE, whose name tells\n"
		"                        which) the way the plugins read them, and exit\n"
		"  -h, --help            show this help and exit\n"
		"  -V, --version         show the version and exit\n");
}

/* The slurm.conf in use: $SLURM_CONF, else Slurm's default. */
const char *sfair_slurm_conf(void)
{
	const char *conf = getenv("SLURM_CONF");

	return conf ? conf : "/etc/slurm/slurm.conf";
}

/* StateSaveLocation from slurm.conf; a plain key=value scan. */
static char *_state_from_slurm_conf(void)
{
	char line[4096], *dir = NULL, *path;
	FILE *f = fopen(sfair_slurm_conf(), "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		if (strncasecmp(p, "StateSaveLocation=", 18))
			continue;
		p += 18;
		p[strcspn(p, " \t\r\n#")] = '\0';
		free(dir);
		dir = strdup(p);
	}
	fclose(f);
	if (!dir)
		return NULL;
	path = malloc(strlen(dir) + sizeof("/horae_hmrf.state"));
	if (path)
		sprintf(path, "%s/horae_hmrf.state", dir);
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

static void _print(const opts_t *o, hmrf_state_t *st, tres_layout_t *layout)
{
	const char *sep = o->parsable ? "|" : " ";
	int ntres = tres_layout_count(layout);
	char col[80];

	if (!o->noheader) {
		printf(o->parsable ? "Account" : "%-16s", "Account");
		for (int i = 0; i < ntres; i++) {
			snprintf(col, sizeof(col), "Used:%s",
				 tres_layout_name(layout, i));
			printf(o->parsable ? "%s%s" : "%s%16s", sep, col);
		}
		for (int i = 0; i < ntres; i++) {
			snprintf(col, sizeof(col), "NonSharing:%s",
				 tres_layout_name(layout, i));
			printf(o->parsable ? "%s%s" : "%s%20s", sep, col);
		}
		printf(o->parsable ? "%sBeta\n" : "%s%10s\n", sep, "Beta");
	}
	for (int a = 0; a < names_count(st->names); a++) {
		const char *name = names_get(st->names, a);
		tres_vec_t used, ns;
		double beta;

		if (!_wanted(o->accounts, name))
			continue;
		ledger_usage(st->usage, a, &used);
		ledger_usage(st->ns, a, &ns);
		beta = hmrf_beta(&used, &ns);
		printf(o->parsable ? "%s" : "%-16s", name[0] ? name : "(none)");
		for (int i = 0; i < ntres; i++)
			printf(o->parsable ? "%s%.0f" : "%s%16.0f", sep,
			       used.v[i]);
		for (int i = 0; i < ntres; i++)
			printf(o->parsable ? "%s%.0f" : "%s%20.0f", sep, ns.v[i]);
		if (isinf(beta))
			printf(o->parsable ? "%s\n" : "%s%10s\n", sep, "-");
		else
			printf(o->parsable ? "%s%.4f\n" : "%s%10.4f\n", sep,
			       beta);
	}
}

static int _parse_args(int argc, char **argv, opts_t *o)
{
	static const struct option longopts[] = {
		{ "accounts", required_argument, NULL, 'A' },
		{ "parsable", no_argument, NULL, 'P' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "state", required_argument, NULL, 'S' },
		{ "at", required_argument, NULL, 'T' },
		{ "check-config", optional_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "A:PnS:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'A': o->accounts = optarg; break;
		case 'P': o->parsable = true; break;
		case 'n': o->noheader = true; break;
		case 'S': o->state = optarg; break;
		case 'T':
			o->at = strtod(optarg, &end);
			if (*end || !isfinite(o->at) || o->at < 0) {
				fprintf(stderr, "sfair: --at=%s: not a time in seconds since the epoch\n",
					optarg);
				return 2;
			}
			break;
		case 'C': o->check = optarg ? optarg : ""; break;
		case 'h': _usage(stdout); exit(EXIT_SUCCESS);
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			exit(EXIT_SUCCESS);
		default: _usage(stderr); return 2;
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
	int rc = 2;

	if (_parse_args(argc, argv, &o))
		return 2;
	if (o.check)
		return sfair_check_config(o.check);
	path = o.state ? strdup(o.state) : _state_from_slurm_conf();
	if (!path) {
		fprintf(stderr, "sfair: no state file: pass --state=FILE or set StateSaveLocation in slurm.conf\n");
		return 2;
	}
	rc = state_load(path, HMRF_STATE_KIND, HMRF_STATE_VERSION, &doc, &warn,
			&err);
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
	layout = st ? tres_layout_create(st->tres, &err) : NULL;
	if (!st || !layout) {
		fprintf(stderr, "sfair: %s: %s\n", path, err.text);
		rc = 2;
		goto cleanup;
	}
	if (!o.at)
		o.at = (double)time(NULL);
	ledger_advance(st->usage, o.at);
	ledger_advance(st->ns, o.at);
	_print(&o, st, layout);
	rc = 0;
cleanup:
	json_object_put(doc);
	hmrf_state_destroy(&st);
	tres_layout_destroy(&layout);
	free(path);
	return rc;
}
