/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_conf.c - a key of slurm.conf, read as Slurm writes it.  See
 * slurm_conf.h.
 */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ctld_conf.h"
#include "slurm_conf.h"

#define LINE_MAX_LEN 16384
#define DEPTH_MAX 16

static const char *const where[] = {
	"/etc/slurm/slurm.conf",
	"/run/slurm/conf/slurm.conf", /* slurmd's or sackd's configless copy */
};
#define NWHERE (sizeof(where) / sizeof(where[0]))

bool sfair_slurm_conf_remote(void)
{
	const char *conf = getenv("SLURM_CONF");

	if (conf && conf[0])
		return false;
	for (size_t i = 0; i < NWHERE; i++)
		if (!access(where[i], F_OK))
			return false;
	return true;
}

const char *sfair_slurm_conf(void)
{
	const char *conf = getenv("SLURM_CONF");

	if (conf && conf[0])
		return conf;
	for (size_t i = 0; i < NWHERE; i++)
		if (!access(where[i], F_OK))
			return where[i];
	return SFAIR_SLURM_CONF_REMOTE;
}

char *sfair_slurm_conf_beside(const char *name)
{
	const char *conf = sfair_slurm_conf(), *slash = strrchr(conf, '/');
	size_t dir = slash ? (size_t)(slash - conf) + 1 : 2;
	char *path;

	if (sfair_slurm_conf_remote()) {
		errno = ENOENT;
		return NULL;
	}
	if (!(path = malloc(dir + strlen(name) + 1))) {
		errno = ENOMEM;
		return NULL;
	}
	if (slash)
		memcpy(path, conf, dir);
	else
		memcpy(path, "./", dir);
	strcpy(path + dir, name);
	return path;
}

/* Drop the blanks on either side of every '=' outside quotes. */
static void _tighten(char *s)
{
	char *w = s;
	bool quoted = false;

	for (char *r = s; *r; r++) {
		if (*r == '"')
			quoted = !quoted;
		if (!quoted && *r == '=') {
			while (w > s && (w[-1] == ' ' || w[-1] == '\t'))
				w--;
			*w++ = '=';
			while (r[1] == ' ' || r[1] == '\t')
				r++;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

/* What a scan looks for, and what it found: every value, in order. */
typedef struct scan {
	const char *key;
	char **vals;
	int n;
} scan_t;

int sfair_slurm_conf_append(char ***vals, int *n, const char *value)
{
	char **v = realloc(*vals, (*n + 2) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	*vals = v;
	if (!(v[*n] = strdup(value)))
		return -ENOMEM;
	v[++*n] = NULL;
	return 0;
}

/* Look the key up in one logical line (modified). */
static int _line(char *line, scan_t *sc)
{
	const char *key = sc->key;
	size_t klen = strlen(key);
	bool quoted = false;
	char *p;

	for (p = line; *p; p++) { /* the comment, outside quotes */
		if (*p == '"')
			quoted = !quoted;
		if (*p == '#' && !quoted) {
			*p = '\0';
			break;
		}
	}
	_tighten(line);
	for (p = line; *p;) {
		char *tok, *end;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		tok = p;
		quoted = false;
		while (*p && (quoted || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		end = p;
		if (*p)
			*p++ = '\0';
		if (strncasecmp(tok, key, klen) || tok[klen] != '=')
			continue;
		tok += klen + 1;
		if (tok[0] == '"' && end - tok >= 2 && end[-1] == '"') {
			tok++;
			end[-1] = '\0';
		}
		if (sfair_slurm_conf_append(&sc->vals, &sc->n, tok))
			return -ENOMEM;
	}
	return 0;
}

static int _file(const char *path, scan_t *sc, int depth);

/* "Include PATH" in file from: every file it names, in name order. */
static int _include(const char *from, char *target, scan_t *sc,
		    int depth)
{
	const char *slash = strrchr(from, '/');
	char *pattern = NULL;
	glob_t g;
	int rc = 0;

	target[strcspn(target, "#")] = '\0';
	while (*target == ' ' || *target == '\t' || *target == '"')
		target++;
	for (size_t n = strlen(target);
	     n && (isspace((unsigned char)target[n - 1]) ||
		   target[n - 1] == '"');)
		target[--n] = '\0';
	if (!target[0] || depth >= DEPTH_MAX)
		return 0;
	if (target[0] != '/' && slash) {
		size_t n = (size_t)(slash - from) + 1;

		if (!(pattern = malloc(n + strlen(target) + 1)))
			return -ENOMEM;
		memcpy(pattern, from, n);
		strcpy(pattern + n, target);
	}
	if (!glob(pattern ? pattern : target, 0, NULL, &g)) {
		for (size_t i = 0; !rc && i < g.gl_pathc; i++)
			rc = _file(g.gl_pathv[i], sc, depth + 1);
		globfree(&g);
	}
	free(pattern);
	return rc == -ENOENT ? 0 : rc;
}

static int _file(const char *path, scan_t *sc, int depth)
{
	FILE *f = fopen(path, "re");
	char *buf = malloc(LINE_MAX_LEN), phys[4096];
	size_t len = 0;
	int rc = 0;

	if (!f || !buf) {
		rc = !buf ? -ENOMEM : -ENOENT;
		goto out;
	}
	while (!rc && fgets(phys, sizeof(phys), f)) {
		size_t n = strcspn(phys, "\r\n");
		char *p;

		phys[n] = '\0';
		if (len + n + 1 > LINE_MAX_LEN)
			len = 0; /* too long for sfair to care: drop it */
		memcpy(buf + len, phys, n + 1);
		len += n;
		if (len && buf[len - 1] == '\\') {
			buf[len - 1] = ' ';
			continue;
		}
		len = 0;
		p = buf + strspn(buf, " \t");
		if (!strncasecmp(p, "include", 7) &&
		    (p[7] == ' ' || p[7] == '\t'))
			rc = _include(path, p + 8, sc, depth);
		else
			rc = _line(buf, sc);
	}
out:
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

char **sfair_slurm_conf_values(const char *key, int *n)
{
	scan_t sc = { .key = key };
	int rc;

	if (sfair_slurm_conf_remote())
		return sfair_ctld_conf_values(key, n);
	rc = _file(sfair_slurm_conf(), &sc, 0);

	if (rc) {
		sfair_slurm_conf_free(sc.vals);
		errno = -rc;
		return NULL;
	}
	if (!sc.vals && !(sc.vals = calloc(1, sizeof(*sc.vals)))) {
		errno = ENOMEM;
		return NULL;
	}
	*n = sc.n;
	return sc.vals;
}

void sfair_slurm_conf_free(char **vals)
{
	for (char **v = vals; v && *v; v++)
		free(*v);
	free(vals);
}

char *sfair_slurm_conf_get(const char *key)
{
	int n = 0;
	char **vals = sfair_slurm_conf_values(key, &n), *out;

	if (!vals)
		return NULL;
	out = n ? strdup(vals[n - 1]) : NULL;
	if (n && !out)
		errno = ENOMEM;
	else if (!n)
		errno = ENOENT;
	sfair_slurm_conf_free(vals);
	return out;
}
