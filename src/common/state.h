/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.h - plugin state files: written atomically, versioned and
 * checksummed, with a fallback to the previous snapshot.
 *
 * A state file is two lines: a JSON header
 *   {"format":"KIND","version":N,"bytes":B,"fnv1a64":"<16 hex digits>"}
 * and the JSON document itself, B bytes, whose FNV-1a 64-bit hash the
 * header carries.  Saving writes PATH.new, fsyncs it, links PATH as
 * PATH.old, renames PATH.new over PATH, and fsyncs the directory, so a
 * reader always finds PATH; files are created mode 0600.  Loading tries
 * PATH, then PATH.new (a file system without hard links, where PATH.old
 * takes PATH's place by a rename, and a save cut there), then PATH.old.
 * A publication (state_publish()) is rewritten in place instead, so
 * loading reads a file that fails its checks again while its bytes change
 * (for up to 2 s), and takes it as damaged once it reads the same for
 * 100 ms.
 */
#ifndef HORAE_STATE_H
#define HORAE_STATE_H

#include <json-c/json.h>

#include "err.h"

/*
 * Save doc (not consumed) under path as format kind, version version.
 * Returns 0, or -errno with err naming the file and the failed step; on
 * failure the previous PATH is intact.
 */
int state_save(const char *path, const char *kind, int version,
	       json_object *doc, horae_err_t *err);

/* Who may read a file besides its owner: nobody, everyone (mode 0644),
 * or a uid (>= 0) given read access by a POSIX ACL. */
#define STATE_READER_NONE (-1L)
#define STATE_READER_ALL (-2L)

/* state_save(), readable by reader as well.  With STATE_READER_NONE
 * PATH.old is made 0600 too, so making a file private takes effect at
 * once. */
int state_save_shared(const char *path, const char *kind, int version,
		      json_object *doc, long reader, horae_err_t *err);

/*
 * A view others read, regenerated each period, readable by reader,
 * without fsync and without PATH.old.  When PATH is a regular file of
 * ours with one link and exactly reader's permissions, it is rewritten
 * in place (one write from its start, then cut to length: a reader meets
 * old bytes or new ones, which the checksum tells apart); otherwise it is
 * written to PATH.new (created afresh, never through a symbolic link) and
 * renamed to PATH, so who may read it changes only with a new file.
 * Returns 0 or -errno with err (an ACL refused by the file system says
 * so).
 */
int state_publish(const char *path, const char *kind, int version,
		  json_object *doc, long reader, horae_err_t *err);

/*
 * Load the newest good snapshot of path.  On success *doc receives a new
 * reference the caller owns and returns 0; if PATH itself was bad or
 * missing and a fallback was used, warn (if not NULL) names the bad file,
 * why, and the file used instead; otherwise warn is empty.
 * Returns -ENOENT when no snapshot exists at all (a first start), or
 * -EINVAL with err naming each file tried and what is wrong with it
 * (truncated, checksum mismatch, another format or version, not JSON).
 */
int state_load(const char *path, const char *kind, int version,
	       json_object **doc, horae_err_t *warn, horae_err_t *err);

/*
 * The same for a reader of several versions of a format: a file of a
 * version from oldest to newest is taken, its version in *version.
 */
int state_load_versions(const char *path, const char *kind, int oldest,
			int newest, json_object **doc, int *version,
			horae_err_t *warn, horae_err_t *err);

/* FNV-1a 64-bit hash of len bytes. */
unsigned long long state_hash(const void *data, size_t len);

#endif /* HORAE_STATE_H */
