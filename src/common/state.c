/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c - atomic, checksummed state files with fallback.  See state.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "state.h"

/* Larger state files are refused rather than read into memory. */
#define STATE_MAX_BYTES (256L * 1024 * 1024)

/*
 * A file that fails its checks is read again while its bytes change (a
 * publication rewritten in place as it was read), every STATE_REREAD_MS;
 * it is taken as damaged once it reads the same for STATE_SETTLE_MS, or
 * when it still changes after STATE_CHANGING_MS.
 */
#define STATE_REREAD_MS 5
#define STATE_SETTLE_MS 100
#define STATE_CHANGING_MS 2000

unsigned long long state_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int _write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

static int _fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd))
		rc = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

/* The ACL "owner rw, reader r, nobody else", in the kernel's
 * system.posix_acl_access format: a version, then tag, perm, id entries
 * in tag order; so a file slurmctld owns can be read by one user. */
#define ACL_NAME "system.posix_acl_access"
#define ACL_BYTES (4 + 5 * 8)

static void _acl(unsigned char acl[ACL_BYTES], unsigned int uid)
{
	enum { USER_OBJ = 0x01, USER = 0x02, GROUP_OBJ = 0x04, MASK = 0x10,
	       OTHER = 0x20 };
	const uint32_t undefined = 0xffffffffu;
	const struct {
		uint16_t tag, perm;
		uint32_t id;
	} e[] = { { USER_OBJ, 6, undefined }, { USER, 4, uid },
		  { GROUP_OBJ, 0, undefined }, { MASK, 4, undefined },
		  { OTHER, 0, undefined } };
	unsigned char *p = acl;
	uint32_t version = 2;

	/* The format is little-endian, as are the machines we run on. */
	memcpy(p, &version, 4);
	p += 4;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		memcpy(p, &e[i].tag, 2);
		memcpy(p + 2, &e[i].perm, 2);
		memcpy(p + 4, &e[i].id, 4);
		p += 8;
	}
}

static int _grant_reader(int fd, unsigned int uid)
{
	unsigned char acl[ACL_BYTES];

	_acl(acl, uid);
	return fsetxattr(fd, ACL_NAME, acl, sizeof(acl), 0) ? -errno : 0;
}

/* Give fd the permissions reader asks for. */
static int _permit(int fd, long reader)
{
	if (reader == STATE_READER_ALL)
		return fchmod(fd, 0644) ? -errno : 0;
	if (reader >= 0)
		return _grant_reader(fd, (unsigned int)reader);
	return 0;
}

/*
 * Whether fd (st its status) has exactly the permissions _permit() gives
 * for reader, and no more: its mode, and an ACL only for a reader uid.
 */
static bool _permitted(int fd, const struct stat *st, long reader)
{
	unsigned char want[ACL_BYTES], got[ACL_BYTES + 1];
	ssize_t n = fgetxattr(fd, ACL_NAME, got, sizeof(got));

	if (reader < 0)
		return n < 0 && (errno == ENODATA || errno == ENOTSUP) &&
		       (st->st_mode & 07777) ==
			       (reader == STATE_READER_ALL ? 0644 : 0600);
	_acl(want, (unsigned int)reader);
	return n == (ssize_t)sizeof(want) && !memcmp(got, want, sizeof(want)) &&
	       (st->st_mode & 07777) == 0640;
}

/*
 * Rewrite path in place with header, body (len bytes) and a newline when
 * it is already such a publication: a regular file of ours with one link
 * and exactly the permissions reader asks for, so no reader gains or
 * keeps access by it.  Written from its start over the old bytes, then
 * cut to length; a reader that meets it half written tells by the
 * checksum (_load_one()).  Returns 0, 1 when path is not such a file (to
 * be replaced instead), or -errno (the file may then be torn).
 */
static int _rewrite(const char *path, const char *header, const char *body,
		    size_t len, long reader)
{
	size_t total = strlen(header) + len + 1;
	struct stat st;
	int fd, rc = 1;

	/* Not through a link; a FIFO must not block the open. */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1 || !_permitted(fd, &st, reader))
		goto cleanup;
	rc = _write_all(fd, header, strlen(header));
	if (!rc)
		rc = _write_all(fd, body, len);
	if (!rc)
		rc = _write_all(fd, "\n", 1);
	if (!rc && st.st_size > (off_t)total && ftruncate(fd, (off_t)total))
		rc = -errno;
cleanup:
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/*
 * Keep path's snapshot as old too, without path ever going missing: a
 * reader (sfair, a restarted slurmctld) that opens path between this and
 * the rename of the new file over it must find it.  A hard link does that;
 * on a file system without them, old takes path's place (rename) and the
 * window is back, as it was before.
 */
static int _keep_old(const char *path, const char *old)
{
	if (unlink(old) && errno != ENOENT)
		return -errno;
	if (!link(path, old) || errno == ENOENT)
		return 0;
	if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK)
		return -errno;
	if (rename(path, old) && errno != ENOENT)
		return -errno;
	return 0;
}

/*
 * Write doc to tmp (created afresh, mode 0600, then opened to reader) and
 * rename it to path; durable: fsync the file, keep the previous PATH as
 * PATH.old (a hard link) and fsync the directory.  Not durable (a
 * publication), path is rewritten in place when it can be (_rewrite()),
 * which spares the file system a new file and the old one's release each
 * time.
 */
static int _save(const char *path, const char *kind, int version,
		 json_object *doc, long reader, bool durable,
		 horae_err_t *err)
{
	char tmp[4096], old[4096], header[256];
	const char *body;
	size_t len;
	int fd, rc;

	if (!path || !kind || !doc ||
	    (reader < 0 && reader != STATE_READER_NONE &&
	     reader != STATE_READER_ALL) ||
	    reader > (long)UINT32_MAX - 1)
		return err_set(err, -EINVAL, "state save: missing arguments");
	if (snprintf(tmp, sizeof(tmp), "%s.new", path) >= (int)sizeof(tmp) ||
	    snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return err_set(err, -ENAMETOOLONG, "%s: path too long", path);
	body = json_object_to_json_string_length(doc, JSON_C_TO_STRING_PLAIN,
						 &len);
	if (!body)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	snprintf(header, sizeof(header),
		 "{\"format\":\"%s\",\"version\":%d,\"bytes\":%zu,\"fnv1a64\":\"%016llx\"}\n",
		 kind, version, len, state_hash(body, len));
	/* Torn by a failed rewrite, it is replaced below all the same. */
	if (!durable && _rewrite(path, header, body, len, reader) == 0)
		return 0;

	/* Afresh, so no earlier file's owner or ACL carries over. */
	if (unlink(tmp) && errno != ENOENT)
		return err_set(err, -errno, "%s: cannot remove: %s", tmp,
			       strerror(errno));
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return err_set(err, -errno, "%s: cannot create: %s", tmp,
			       strerror(errno));
	rc = _permit(fd, reader);
	if (rc) {
		close(fd);
		unlink(tmp);
		if (reader >= 0)
			return err_set(err, rc,
				       "%s: cannot let uid %ld read it (%s; POSIX ACLs are needed)",
				       tmp, reader, strerror(-rc));
		return err_set(err, rc, "%s: cannot set its mode: %s", tmp,
			       strerror(-rc));
	}
	rc = _write_all(fd, header, strlen(header));
	if (!rc)
		rc = _write_all(fd, body, len);
	if (!rc)
		rc = _write_all(fd, "\n", 1);
	if (!rc && durable && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		unlink(tmp);
		return err_set(err, rc, "%s: cannot write: %s", tmp,
			       strerror(-rc));
	}
	rc = durable ? _keep_old(path, old) : 0;
	if (rc) {
		unlink(tmp);
		return err_set(err, rc, "%s: cannot keep it as %s: %s", path,
			       old, strerror(-rc));
	}
	/* The previous snapshot is no more public than the new one (PATH
	 * too, while it is the same file, until the new one replaces it). */
	if (durable && reader == STATE_READER_NONE && chmod(old, 0600) &&
	    errno != ENOENT) {
		rc = -errno;
		unlink(tmp);
		return err_set(err, rc, "%s: cannot set its mode: %s", old,
			       strerror(-rc));
	}
	if (rename(tmp, path))
		return err_set(err, -errno, "%s: cannot rename to %s: %s", tmp,
			       path, strerror(errno));
	rc = durable ? _fsync_dir(path) : 0;
	if (rc)
		return err_set(err, rc, "%s: cannot sync its directory: %s",
			       path, strerror(-rc));
	return 0;
}

int state_save(const char *path, const char *kind, int version,
	       json_object *doc, horae_err_t *err)
{
	return _save(path, kind, version, doc, STATE_READER_NONE, true, err);
}

int state_save_shared(const char *path, const char *kind, int version,
		      json_object *doc, long reader, horae_err_t *err)
{
	return _save(path, kind, version, doc, reader, true, err);
}

int state_publish(const char *path, const char *kind, int version,
		  json_object *doc, long reader, horae_err_t *err)
{
	return _save(path, kind, version, doc, reader, false, err);
}

/* Read a whole file; -ENOENT if absent. */
static int _slurp(const char *path, char **out, size_t *len,
		  horae_err_t *err)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	char *buf;

	if (!f)
		return errno == ENOENT ?
			       -ENOENT :
			       err_set(err, -errno, "%s: cannot open: %s",
				       path, strerror(errno));
	if (fstat(fileno(f), &st) || st.st_size > STATE_MAX_BYTES) {
		fclose(f);
		return err_set(err, -EINVAL, "%s: unreadable or larger than %ld bytes",
			       path, STATE_MAX_BYTES);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	buf[*len] = '\0';
	fclose(f);
	*out = buf;
	return 0;
}

static int _header_field(json_object *h, const char *key, json_type type,
			 json_object **v)
{
	return json_object_object_get_ex(h, key, v) &&
	       json_object_is_type(*v, type);
}

/* The JSON value of n bytes at s (followed by a newline), or NULL. */
static json_object *_parse(const char *s, size_t n)
{
	json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok)
		return NULL;
	if (n >= INT32_MAX) {
		json_tokener_free(tok);
		return NULL;
	}
	/* With the newline, a value such as a number ends where it should. */
	o = json_tokener_parse_ex(tok, s, (int)n + 1);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* Check the len bytes of path read into buf, of a version from oldest to
 * newest; on success *doc is the parsed document and *version its
 * version.  *whole: the failure is one no half-written file shows (a
 * well-formed header of another kind or version). */
static int _check(const char *path, const char *buf, size_t len,
		  const char *kind, int oldest, int newest, json_object **doc,
		  int *version, bool *whole, horae_err_t *err)
{
	json_object *h = NULL, *v;
	const char *nl = memchr(buf, '\n', len);
	char hash[17];
	size_t bytes;
	int rc = -EINVAL;

	*whole = false;
	if (len == 0 || !nl) {
		err_set(err, rc,
			"%s: no header line (empty, truncated, or not a Horae state file)",
			path);
		goto cleanup;
	}
	h = _parse(buf, (size_t)(nl - buf));
	if (!h || !json_object_is_type(h, json_type_object) ||
	    !_header_field(h, "format", json_type_string, &v)) {
		err_set(err, rc, "%s: not a Horae state file (no format header)",
			path);
		goto cleanup;
	}
	/* A file is rewritten in place by the writer of its kind and
	 * version only: another is no half-written file. */
	*whole = true;
	if (strcmp(json_object_get_string(v), kind)) {
		err_set(err, rc, "%s: holds '%s', not '%s'", path,
			json_object_get_string(v), kind);
		goto cleanup;
	}
	if (!_header_field(h, "version", json_type_int, &v) ||
	    json_object_get_int(v) < oldest ||
	    json_object_get_int(v) > newest) {
		if (oldest == newest)
			err_set(err, rc,
				"%s: format version %s, this build reads %d",
				path, v ? json_object_get_string(v) : "missing",
				newest);
		else
			err_set(err, rc,
				"%s: format version %s, this build reads %d to %d",
				path, v ? json_object_get_string(v) : "missing",
				oldest, newest);
		goto cleanup;
	}
	*version = json_object_get_int(v);
	*whole = false;
	if (!_header_field(h, "bytes", json_type_int, &v) ||
	    !_header_field(h, "fnv1a64", json_type_string, &v)) {
		err_set(err, rc, "%s: header lacks bytes or fnv1a64", path);
		goto cleanup;
	}
	json_object_object_get_ex(h, "bytes", &v);
	if (json_object_get_int64(v) < 0) {
		/* As a size_t, -1 makes bytes + 1 wrap to 0 below. */
		err_set(err, rc, "%s: header's bytes is negative", path);
		goto cleanup;
	}
	bytes = (size_t)json_object_get_int64(v);
	if ((size_t)(buf + len - (nl + 1)) < bytes + 1) {
		err_set(err, rc, "%s: truncated: %zu of %zu bytes", path,
			(size_t)(buf + len - (nl + 1)), bytes + 1);
		goto cleanup;
	}
	json_object_object_get_ex(h, "fnv1a64", &v);
	snprintf(hash, sizeof(hash), "%016llx", state_hash(nl + 1, bytes));
	if (strcmp(hash, json_object_get_string(v))) {
		err_set(err, rc, "%s: checksum mismatch (corrupt)", path);
		goto cleanup;
	}
	*doc = _parse(nl + 1, bytes);
	if (!*doc) {
		err_set(err, rc, "%s: body is not JSON", path);
		goto cleanup;
	}
	rc = 0;
cleanup:
	json_object_put(h);
	return rc;
}

static double _ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/*
 * Load one file (_check()), read again while it fails and changes: a
 * publication is rewritten in place, and a reader may meet it half
 * written (see STATE_SETTLE_MS).
 */
static int _load_one(const char *path, const char *kind, int oldest, int newest,
		     json_object **doc, int *version, horae_err_t *err)
{
	const struct timespec pause = { 0, STATE_REREAD_MS * 1000000L };
	char *buf = NULL, *prev = NULL;
	size_t len = 0, prev_len = 0;
	double start = _ms(), same_since = start, now;
	bool whole;
	int rc;

	for (;;) {
		rc = _slurp(path, &buf, &len, err);
		if (rc)
			break;
		rc = _check(path, buf, len, kind, oldest, newest, doc, version,
			    &whole, err);
		if (!rc || whole)
			break;
		now = _ms();
		if (!prev || prev_len != len || memcmp(prev, buf, len))
			same_since = now;
		else if (now - same_since >= STATE_SETTLE_MS)
			break;
		if (now - start >= STATE_CHANGING_MS) {
			size_t n = err ? strlen(err->text) : 0;

			if (err)
				snprintf(err->text + n, sizeof(err->text) - n,
					 " (still changing after %d ms of reading)",
					 STATE_CHANGING_MS);
			break;
		}
		free(prev);
		prev = buf;
		prev_len = len;
		buf = NULL;
		nanosleep(&pause, NULL);
	}
	free(prev);
	free(buf);
	return rc;
}

int state_load_versions(const char *path, const char *kind, int oldest,
			int newest, json_object **doc, int *version,
			horae_err_t *warn, horae_err_t *err)
{
	static const char *const suffix[] = { "", ".new", ".old" };
	horae_err_t why[3];
	char name[3][4096];
	int rc[3], tried = 0;

	err_clear(warn);
	if (!path || !kind || !doc || !version || oldest > newest)
		return err_set(err, -EINVAL, "state load: missing arguments");
	for (int i = 0; i < 3; i++) {
		snprintf(name[i], sizeof(name[i]), "%s%s", path, suffix[i]);
		rc[i] = _load_one(name[i], kind, oldest, newest, doc, version,
				  &why[i]);
		if (rc[i] == 0) {
			if (i > 0)
				err_set(warn, 0, "%s%s; using %s instead",
					rc[0] == -ENOENT ? path : why[0].text,
					rc[0] == -ENOENT ? ": missing" : "",
					name[i]);
			return 0;
		}
		if (rc[i] != -ENOENT)
			tried++;
	}
	if (!tried)
		return -ENOENT;
	return err_set(err, -EINVAL, "no usable state: %s; %s; %s",
		       rc[0] == -ENOENT ? "missing" : why[0].text,
		       rc[1] == -ENOENT ? "no .new" : why[1].text,
		       rc[2] == -ENOENT ? "no .old" : why[2].text);
}

int state_load(const char *path, const char *kind, int version,
	       json_object **doc, horae_err_t *warn, horae_err_t *err)
{
	int found;

	return state_load_versions(path, kind, version, version, doc, &found,
				   warn, err);
}
