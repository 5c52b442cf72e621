/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_config.c - sfair --check-config.  See check_config.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/eunomia_conf.h"
#include "common/hmrf_conf.h"
#include "common/justice_conf.h"
#include "common/kvfile.h"
#include "check_config.h"
#include "slurm_conf.h"

/* A file named on the command line must be there. */
static bool _named;
/* Warnings printed for the file being checked. */
static int _warnings;

static void _warn(const kvfile_line_t *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void _warn(const kvfile_line_t *l, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: warning: ", l->path, l->number);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	_warnings++;
}

/* Whether item is in the comma-separated list (any case). */
static bool _listed(const char *list, const char *item, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncasecmp(p, item, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* What slurm.conf says that a file can contradict. */
typedef struct cluster {
	bool read;	      /* slurm.conf was read */
	bool slurmdbd;	      /* AccountingStorageType=accounting_storage/slurmdbd */
	char *tres;	      /* the TRES Slurm tracks, comma-separated */
	char **features;      /* every NodeName line's Features */
	int nfeatures;
} cluster_t;

static void _cluster_load(cluster_t *c)
{
	char *acct = sfair_slurm_conf_get("AccountingStorageType");
	char *extra = sfair_slurm_conf_get("AccountingStorageTRES");
	char **f = NULL;
	int nf = 0, nF = 0;
	char **F;

	memset(c, 0, sizeof(*c));
	f = sfair_slurm_conf_values("Features", &nf);
	if (!f) {
		free(acct);
		free(extra);
		return;
	}
	F = sfair_slurm_conf_values("Feature", &nF);
	c->read = true;
	c->slurmdbd = acct && strstr(acct, "slurmdbd");
	/* Slurm always tracks these; AccountingStorageTRES adds more. */
	c->tres = malloc(128 + (extra ? strlen(extra) : 0));
	if (c->tres)
		sprintf(c->tres, "cpu,mem,energy,node,billing,fs/disk,vmem,pages%s%s",
			extra ? "," : "", extra ? extra : "");
	c->features = f;
	c->nfeatures = nf;
	for (int i = 0; F && i < nF; i++) { /* "Feature=" says the same */
		char **g = realloc(c->features,
				   (c->nfeatures + 2) * sizeof(*g));

		if (!g)
			break;
		c->features = g;
		c->features[c->nfeatures++] = F[i];
		c->features[c->nfeatures] = NULL;
		F[i] = NULL;
	}
	sfair_slurm_conf_free(F);
	free(acct);
	free(extra);
}

static void _cluster_free(cluster_t *c)
{
	free(c->tres);
	sfair_slurm_conf_free(c->features);
}

static bool _has_feature(const cluster_t *c, const char *f, size_t len)
{
	for (int i = 0; i < c->nfeatures; i++)
		if (_listed(c->features[i], f, len))
			return true;
	return false;
}

/* hmrf.conf against slurm.conf: Account lines slurmdbd makes idle, TRES
 * Slurm does not track. */
static int _hmrf_line(void *arg, const kvfile_line_t *l, horae_err_t *err)
{
	const cluster_t *c = arg;

	(void)err;
	if (!strcasecmp(l->key[0], "Account") && c->slurmdbd)
		_warn(l, "Account=%s: with slurmdbd (AccountingStorageType), contributions come from the associations' fairshare; this line is not used",
		      l->value[0]);
	for (int i = 0; i < l->npairs && c->tres; i++) {
		const char *p = l->value[i];

		if (strcasecmp(l->key[i], "Tres"))
			continue;
		while (*p) {
			size_t n = strcspn(p, ",");
			/* "gres/gpu" is tracked as "gres/gpu" or with a type */
			if (n && !_listed(c->tres, p, n))
				_warn(l, "Tres=%s: '%.*s' is not a TRES Slurm tracks here (%s; AccountingStorageTRES adds others): its usage would always read 0",
				      l->value[i], (int)n, p, c->tres);
			p += n + (p[n] == ',');
		}
	}
	return 0;
}

/* eunomia.conf against slurm.conf: SpeedMap features no node has. */
static int _eunomia_line(void *arg, const kvfile_line_t *l,
			 horae_err_t *err)
{
	const cluster_t *c = arg;

	(void)err;
	for (int i = 0; i < l->npairs; i++) {
		const char *p = l->value[i];

		if (strcasecmp(l->key[i], "SpeedMap"))
			continue;
		while (*p) {
			size_t n = strcspn(p, ",");
			size_t f = strcspn(p, ":,");

			if (f && f <= n && !_has_feature(c, p, f))
				_warn(l, "SpeedMap=%s: no node in slurm.conf has the feature '%.*s': it sets the speed of nothing",
				      l->value[i], (int)f, p);
			p += n + (p[n] == ',');
		}
	}
	return 0;
}

/* Warnings for path from slurm.conf's side: fn over its lines. */
static void _against_cluster(const char *path, kvfile_fn fn)
{
	cluster_t c;

	_cluster_load(&c);
	if (!c.read) {
		fprintf(stderr, "%s: note: %s cannot be read here: not checked against the cluster's nodes and TRES\n",
			path, sfair_slurm_conf());
		return;
	}
	kvfile_read(path, fn, &c, NULL);
	_cluster_free(&c);
}

/* What every check prints for rc; returns 1 for a bad file. */
static int _report(const char *path, int rc, const horae_err_t *err,
		   const char *plugin, const char *ok)
{
	if (rc == -ENOENT && _named) {
		fprintf(stderr, "%s: no such file\n", path);
		return 1;
	}
	if (rc == -ENOENT) {
		printf("%s: no such file: %s would use its defaults\n", path,
		       plugin);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "%s\n", err->text);
		return 1;
	}
	if (_warnings) {
		printf("%s: usable, with %d warning%s above (%s)\n", path,
		       _warnings, _warnings == 1 ? "" : "s", ok);
		return 0;
	}
	printf("%s: OK (%s)\n", path, ok);
	return 0;
}

static int _hmrf(const char *path)
{
	hmrf_conf_t *conf = hmrf_conf_create();
	horae_err_t err;
	char ok[128];
	int rc;

	if (!conf)
		return -ENOMEM;
	_warnings = 0;
	rc = hmrf_conf_read(conf, path, &err);
	if (!rc)
		_against_cluster(path, _hmrf_line);
	snprintf(ok, sizeof(ok), "policy %s, %d accounts",
		 hmrf_policy_name(conf->policy), conf->naccounts);
	hmrf_conf_destroy(&conf);
	return _report(path, rc, &err, "priority/hmrf", ok);
}

static int _eunomia(const char *path)
{
	eunomia_conf_t *conf = eunomia_conf_create();
	horae_err_t err;
	char ok[128];
	int rc;

	if (!conf)
		return -ENOMEM;
	_warnings = 0;
	rc = eunomia_conf_read(conf, path, &err);
	if (!rc)
		_against_cluster(path, _eunomia_line);
	snprintf(ok, sizeof(ok), "placement %s, %d speed factors, %d accounts",
		 conf->steer ? place_policy_name(conf->placement) : "cons_tres",
		 speed_map_count(conf->speed), conf->naccounts);
	eunomia_conf_destroy(&conf);
	return _report(path, rc, &err, "select/eunomia", ok);
}

static int _justice(const char *path)
{
	justice_conf_t conf;
	horae_err_t err;
	char ok[128];
	int rc;

	justice_conf_init(&conf);
	_warnings = 0;
	rc = justice_conf_read(&conf, path, &err);
	snprintf(ok, sizeof(ok), "policy %s, bootstrap %ld jobs",
		 justice_policy_name(conf.policy), conf.bootstrap);
	return _report(path, rc, &err, "job_submit/justice", ok);
}

static bool _ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int sfair_check_config(const char *file, const char *kind)
{
	static const struct {
		const char *kind, *name;
		int (*check)(const char *path);
	} files[] = {
		{ "hmrf", "hmrf.conf", _hmrf },
		{ "eunomia", "eunomia.conf", _eunomia },
		{ "justice", "justice.conf", _justice },
	};
	const size_t n = sizeof(files) / sizeof(files[0]);
	size_t which = n;
	int bad = 0, rc;

	_named = file[0];
	for (size_t i = 0; i < n; i++)
		if (kind ? !strcmp(kind, files[i].kind) :
			   _named && _ends(file, files[i].name))
			which = i;
	if (kind && which == n) {
		fprintf(stderr, "sfair: --kind=%s: use hmrf, eunomia or justice\n",
			kind);
		return 2;
	}
	if (_named && which == n) {
		fprintf(stderr,
			"sfair: --check-config=%s: its name does not tell whose file it is; add --kind=hmrf, eunomia or justice\n",
			file);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		char *path;

		if (_named) {
			if (i != which)
				continue;
			path = strdup(file);
		} else {
			path = sfair_slurm_conf_beside(files[i].name);
		}
		if (!path && errno == ENOENT) {
			fprintf(stderr,
				"sfair: --check-config: there is no slurm.conf on this host (configless), so no %s beside it: name the file (--check-config=FILE)\n",
				files[i].name);
			return 2;
		}
		if (!path) {
			fprintf(stderr, "sfair: out of memory\n");
			return 2;
		}
		rc = files[i].check(path);
		free(path);
		if (rc < 0) {
			fprintf(stderr, "sfair: out of memory\n");
			return 2;
		}
		bad |= rc;
	}
	return bad;
}
