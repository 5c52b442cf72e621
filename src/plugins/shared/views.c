/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.c - see views.h.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "horae_compat.h"

#include "common/state.h"
#include "views.h"

extern const char plugin_type[];

/*
 * select/eunomia is loaded by slurmd too and by programs on libslurm
 * (sfair --explain, to unpack job records), which have no assoc_mgr:
 * these resolve in slurmctld only.
 */
#pragma weak assoc_mgr_lock
#pragma weak assoc_mgr_unlock
#pragma weak assoc_mgr_assoc_list
#pragma weak assoc_mgr_user_list

#define VIEW_DIR "horae_view"

bool views_private(void)
{
	return slurm_conf.private_data & PRIVATE_DATA_USAGE;
}

long views_file_reader(void)
{
	return views_private() ? STATE_READER_NONE : STATE_READER_ALL;
}

/* Whether uid reads the plugins' own files anyway. */
static bool _privileged(uid_t uid)
{
	return uid == 0 || uid == slurm_conf.slurm_user_id;
}

static void _add(view_readers_t *r, uid_t uid, const char *account)
{
	if (_privileged(uid) || uid == NO_VAL || (account && !account[0]))
		return;
	if (view_readers_add(r, (long)uid, account))
		error("%s: out of memory listing who may see which account",
		      plugin_type);
}

view_readers_t *views_readers_begin(void)
{
	view_readers_t *r;

	if (!views_private() || !&assoc_mgr_lock)
		return NULL;
	if (!(r = view_readers_create()))
		error("%s: out of memory listing who may see which account",
		      plugin_type);
	return r;
}

void views_readers_job(view_readers_t *r, uint32_t uid, const char *account)
{
	if (r && account)
		_add(r, (uid_t)uid, account);
}

view_readers_t *views_readers_finish(view_readers_t *r)
{
	assoc_mgr_lock_t alocks = { .assoc = READ_LOCK, .user = READ_LOCK };
	list_itr_t *it;
	slurmdb_assoc_rec_t *assoc;
	slurmdb_user_rec_t *user;

	if (!r)
		return NULL;
	assoc_mgr_lock(&alocks);
	if (assoc_mgr_assoc_list) {
		it = list_iterator_create(assoc_mgr_assoc_list);
		while ((assoc = list_next(it)))
			if (assoc->user && assoc->acct)
				_add(r, assoc->uid, assoc->acct);
		list_iterator_destroy(it);
	}
	if (assoc_mgr_user_list) {
		it = list_iterator_create(assoc_mgr_user_list);
		while ((user = list_next(it)))
			if (user->admin_level >= SLURMDB_ADMIN_OPERATOR)
				_add(r, user->uid, NULL);
		list_iterator_destroy(it);
	}
	assoc_mgr_unlock(&alocks);
	return r;
}

json_object *views_cut_accounts(void *rows, const view_reader_t *r)
{
	return view_rows_select(rows, r);
}

/*
 * The view directory, made if missing: others may pass through it but not
 * list it, so nobody learns who has a view.  NULL (logged) on failure.
 */
static char *_dir(const char *state_dir)
{
	char *dir = xstrdup_printf("%s/%s", state_dir, VIEW_DIR);
	struct stat st;

	if (mkdir(dir, 0711) && errno != EEXIST) {
		error("%s: cannot make %s: %m", plugin_type, dir);
		xfree(dir);
		return NULL;
	}
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
		error("%s: %s is not a directory; no views published",
		      plugin_type, dir);
		xfree(dir);
		return NULL;
	}
	if ((st.st_mode & 07777) != 0711 && chmod(dir, 0711))
		error("%s: cannot set the mode of %s: %m", plugin_type, dir);
	return dir;
}

/* The uids whose views stay, ascending (_prune). */
typedef struct present {
	long *uid;
	size_t n, cap;
} present_t;

static int _by_uid(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Whether uid's view of the name was there when _prune read the
 * directory. */
static bool _present(const present_t *p, long uid)
{
	return p->n && bsearch(&uid, p->uid, p->n, sizeof(*p->uid), _by_uid);
}

/*
 * Remove the views of name whose uid is not a reader, and any NAME.new a
 * cut publication left behind; note in *p the readers whose view is
 * there, so that publishing asks no more of the file system per reader
 * than this one reading of the directory.
 */
static void _prune(const char *dir, const char *name,
		   const view_readers_t *readers, present_t *p)
{
	DIR *d = opendir(dir);
	size_t len = strlen(name);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *rest, *path;
		long uid = strtol(e->d_name, &rest, 10);
		bool current, leftover;

		if (rest == e->d_name || *rest++ != '.' ||
		    strncmp(rest, name, len))
			continue;
		current = !rest[len];
		leftover = !strcmp(rest + len, ".new");
		if (!current && !leftover)
			continue;
		if (current && view_readers_find(readers, uid)) {
			if (p->n == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 64;
				xrealloc(p->uid, p->cap * sizeof(*p->uid));
			}
			p->uid[p->n++] = uid;
			continue;
		}
		path = xstrdup_printf("%s/%s", dir, e->d_name);
		if (unlink(path) && errno != ENOENT)
			error("%s: cannot remove %s: %m", plugin_type, path);
		xfree(path);
	}
	closedir(d);
	if (p->n)
		qsort(p->uid, p->n, sizeof(*p->uid), _by_uid);
}

/* Whether publishing name failed last time, so a lasting failure is
 * logged once. */
static bool *_failing(const char *name)
{
	static struct {
		char name[64];
		bool failing;
	} seen[8];

	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		if (!seen[i].name[0])
			strlcpy(seen[i].name, name, sizeof(seen[i].name));
		if (!strcmp(seen[i].name, name))
			return &seen[i].failing;
	}
	return &seen[0].failing;
}

/* When each reader's view of a name was published. */
static struct {
	char name[64];
	view_clock_t *clock;
} clocks[8];

/* The clock of name's views; NULL (every view due) when out of memory. */
static view_clock_t *_clock(const char *name)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!clocks[i].name[0]) {
			strlcpy(clocks[i].name, name, sizeof(clocks[i].name));
			clocks[i].clock = view_clock_create();
		}
		if (!strcmp(clocks[i].name, name))
			return clocks[i].clock;
	}
	return NULL;
}

void views_fini(void)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		view_clock_destroy(&clocks[i].clock);
		clocks[i].name[0] = '\0';
	}
}

void views_publish(const char *state_dir, const char *name, const char *kind,
		   int version, double every,
		   json_object *(*cut)(void *src, const view_reader_t *r),
		   void *src, const view_readers_t *readers)
{
	bool *failing = _failing(name);
	view_clock_t *clock = _clock(name);
	double now = (double)time(NULL);
	char *dir = NULL;
	int n = view_readers_count(readers), failed = 0;
	horae_err_t err = { 0 }, first = { 0 };
	present_t present = { 0 };

	if (!readers) {
		/* Not private (any more): no view of anybody stays. */
		dir = xstrdup_printf("%s/%s", state_dir, VIEW_DIR);
		_prune(dir, name, NULL, &present);
		xfree(present.uid);
		view_clock_keep(clock, NULL);
		xfree(dir);
		return;
	}
	if (!(dir = _dir(state_dir)))
		return;
	_prune(dir, name, readers, &present);
	for (int i = 0; i < n; i++) {
		const view_reader_t *r = view_readers_get(readers, i);
		long uid = view_reader_uid(r);
		uint64_t sig = view_reader_signature(r);
		char *path;
		json_object *doc;

		/* Not due, and still there (nobody removed it). */
		if (!view_clock_due(clock, uid, sig, now, every) &&
		    _present(&present, uid))
			continue;
		path = xstrdup_printf("%s/%ld.%s", dir, uid, name);
		doc = cut(src, r);
		if (!doc)
			snprintf(err.text, sizeof(err.text),
				 "%s: out of memory", path);
		if (!doc ||
		    state_publish(path, kind, version, doc, uid, &err)) {
			if (!failed++)
				first = err;
		} else {
			/* Out of memory, a new uid stays unmarked: due. */
			(void)view_clock_mark(clock, uid, sig, now);
		}
		json_object_put(doc);
		xfree(path);
	}
	xfree(present.uid);
	/* Out of memory, the absent stay in the clock; their files are gone,
	 * so they are due when they come back all the same. */
	(void)view_clock_keep(clock, readers);
	if (failed && !*failing)
		error("%s: cannot publish %d of %d views of %s (PrivateData=usage); the first: %s",
		      plugin_type, failed, n, name, first.text);
	else if (!failed && *failing)
		info("%s: views of %s published again", plugin_type, name);
	*failing = failed;
	xfree(dir);
}
