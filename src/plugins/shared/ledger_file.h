/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_file.h - loading and saving a plugin's per-account ledgers
 * in StateSaveLocation, with the messages an admin needs: priority/hmrf
 * keeps its usage there (core hmrf_state), select/eunomia its progress
 * (core eunomia_books, through ledger_file_read and ledger_file_write).
 * Formats and fallbacks are the core's (state.h).
 */
#ifndef HORAE_LEDGER_FILE_H
#define HORAE_LEDGER_FILE_H

#include <stdbool.h>

#include "common/hmrf_state.h"

/*
 * Load path saved as kind.  Returns the state; NULL with *fatal false when
 * there is none (a first start, logged) or with *fatal true when it exists
 * but neither it nor its fallbacks can be read (each reason logged).  A
 * state whose window, bucket or TRES differ from w, bucket and tres is
 * dropped with an error saying so (*fatal false): history restarts.
 */
hmrf_state_t *ledger_file_load(const char *path, const char *kind,
			       const window_spec_t *w, double bucket,
			       const char *tres, bool *fatal);

/* Write snap (not consumed) to path as kind, readable by reader as well
 * (state_save_shared()); logs failures.  Returns 0 or -errno.  Call it
 * with no lock held: it is the slow part. */
int ledger_file_save(const char *path, const char *kind,
		     const hmrf_state_t *snap, long reader);

/*
 * The same for any document: load path saved as kind, version.  Returns a
 * new reference the caller owns; NULL with *fatal false when there is no
 * saved state (logged) or with *fatal true when it exists but neither it
 * nor its fallbacks can be read (logged).  A fallback used is logged.
 */
json_object *ledger_file_read(const char *path, const char *kind,
			      int version, bool *fatal);

/* Write doc (consumed; NULL: out of memory, logged) to path as kind,
 * version, readable by reader as well; logs failures.  Returns 0 or
 * -errno.  No lock held. */
int ledger_file_write(const char *path, const char *kind, int version,
		      json_object *doc, long reader);

#endif /* HORAE_LEDGER_FILE_H */
