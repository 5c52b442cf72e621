/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_config.c - sfair --check-config.  See check_config.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/eunomia_conf.h"
#include "common/hmrf_conf.h"
#include "common/justice_conf.h"
#include "check_config.h"
#include "slurm_conf.h"

/* name beside the slurm.conf in use, as the plugins find it. */
static char *_beside_slurm_conf(const char *name)
{
	const char *conf = sfair_slurm_conf(), *slash = strrchr(conf, '/');
	size_t len = (slash ? (size_t)(slash - conf) : 1) + strlen(name) + 2;
	char *path = malloc(len);

	if (!path)
		return NULL;
	if (slash)
		snprintf(path, len, "%.*s/%s", (int)(slash - conf), conf, name);
	else
		snprintf(path, len, "./%s", name);
	return path;
}

/* A file named on the command line must be there. */
static bool _named;

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
	rc = hmrf_conf_read(conf, path, &err);
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
	rc = eunomia_conf_read(conf, path, &err);
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
			path = _beside_slurm_conf(files[i].name);
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
