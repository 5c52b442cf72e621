/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.h - what sfair may read of the files the plugins publish, as
 * PrivateData says.  Without PrivateData=usage the published files are
 * readable by everyone, as sshare's figures are.  With it they stay
 * private to SlurmUser and each user instead gets, every ten periods
 * (view_clock.h) and at once when new to them, the part
 * they may see in StateSaveLocation/horae_view/UID.NAME, readable by that
 * user alone (a POSIX ACL): the accounts the user has jobs or
 * associations in; an operator (AdminLevel Operator or Admin in
 * slurmdbd) gets every account.  The cutting is the core's (view.h).
 */
#ifndef HORAE_VIEWS_H
#define HORAE_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/view.h"
#include "common/view_clock.h"

/* Whether PrivateData hides usage. */
bool views_private(void);

/* Who may read the plugin's own published files besides SlurmUser:
 * STATE_READER_ALL, or STATE_READER_NONE under PrivateData=usage. */
long views_file_reader(void);

/*
 * The readers under PrivateData=usage: each user with a job in slurmctld
 * (its accounts) or an association (its accounts), each operator (every
 * account); not root nor SlurmUser, who read the plugins' own files.
 * Listed in three steps, so that the jobs come from the walk of job_list
 * the plugin makes anyway (no walk of its own under slurmctld's locks):
 *
 * views_readers_begin() starts a listing: NULL when usage is not private
 * (or out of memory, logged), and every call below takes NULL as nothing
 * to do.  views_readers_job() adds a job's user as a reader of the job's
 * account.  views_readers_finish() adds the associations and operators
 * from assoc_mgr, taking its association and user read locks (call with
 * none of assoc_mgr's locks held), and returns r.
 */
view_readers_t *views_readers_begin(void);
void views_readers_job(view_readers_t *r, uint32_t uid, const char *account);
view_readers_t *views_readers_finish(view_readers_t *r);

/*
 * Publish as StateSaveLocation/horae_view/UID.name, for each reader whose
 * view is due (view_clock.h: new, seeing other accounts, or published
 * `every` seconds ago or more; or missing from the directory, which is
 * read once a call), the document cut(src, reader) returns (consumed),
 * as kind, version; remove the views of name of users who are no longer
 * readers (all of them when readers is NULL).  Logs
 * failures, once per kind of failure until it works again; a view that
 * failed is due again the next time.  Call with no lock held, from one
 * thread for a given name.
 */
void views_publish(const char *state_dir, const char *name, const char *kind,
		   int version, double every,
		   json_object *(*cut)(void *src, const view_reader_t *r),
		   void *src, const view_readers_t *readers);

/* Forget when the views were published (the plugin's fini). */
void views_fini(void);

/* A cut for the shares documents: the rows of the reader's accounts;
 * rows is the document's view_rows_t (view.h), made once a publication. */
json_object *views_cut_accounts(void *rows, const view_reader_t *r);

#endif /* HORAE_VIEWS_H */
