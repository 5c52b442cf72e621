/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_test.c - Check tests of state.c: atomic save, safe permissions,
 * and truncated, corrupt, zeroed, foreign, wrong-kind and wrong-version
 * files rejected with a clear error and the fallback used; files shared
 * with everyone or, through an ACL, one reader; publications rewritten in
 * place only when that grants nobody anything, and read whole while they
 * are rewritten.
 */
#define _GNU_SOURCE /* setresuid, setresgid */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../state.h"

static char dir[256], path[300];

static void _setup(void)
{
	strcpy(dir, "/tmp/horae-state-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ledger", dir);
}

static void _teardown(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void _save(int generation)
{
	json_object *doc = json_object_new_object();
	horae_err_t err;

	json_object_object_add(doc, "generation",
			       json_object_new_int(generation));
	ck_assert_msg(state_save(path, "horae-test", 1, doc, &err) == 0, "%s",
		      err.text);
	json_object_put(doc);
}

/* Load and return the generation, or -1 with *rc set. */
static int _load(int *rc, horae_err_t *warn, horae_err_t *err)
{
	json_object *doc = NULL, *v;
	int gen = -1;

	*rc = state_load(path, "horae-test", 1, &doc, warn, err);
	if (*rc == 0) {
		ck_assert(json_object_object_get_ex(doc, "generation", &v));
		gen = json_object_get_int(v);
		json_object_put(doc);
	}
	return gen;
}

static void _write_file(const char *p, const char *text, size_t len)
{
	FILE *f = fopen(p, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

static size_t _read_file(const char *p, char *buf, size_t size)
{
	FILE *f = fopen(p, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}

START_TEST(test_badargs)
{
	json_object *doc = NULL;
	horae_err_t err;

	ck_assert_int_eq(state_save(NULL, "k", 1, doc, &err), -EINVAL);
	ck_assert_int_eq(state_save(path, "k", 1, NULL, &err), -EINVAL);
	ck_assert_int_eq(state_load(path, NULL, 1, &doc, NULL, &err), -EINVAL);
	ck_assert_int_eq(state_load(path, "k", 1, NULL, NULL, &err), -EINVAL);
}
END_TEST

/* A reader of versions 2 to 3: a version 3 file is taken and says so, a
 * version 1 refused with the range named, and then the older snapshot of
 * the right version (.old) is used. */
START_TEST(test_versions)
{
	json_object *doc = json_object_new_object(), *got = NULL;
	horae_err_t warn, err;
	int version = 0;

	ck_assert_int_eq(state_save(path, "horae-test", 3, doc, &err), 0);
	ck_assert_int_eq(state_load_versions(path, "horae-test", 2, 3, &got,
					     &version, &warn, &err),
			 0);
	ck_assert_int_eq(version, 3);
	ck_assert_str_eq(warn.text, "");
	json_object_put(got);
	got = NULL;
	ck_assert_int_eq(state_save(path, "horae-test", 1, doc, &err), 0);
	ck_assert_int_eq(state_load_versions(path, "horae-test", 2, 3, &got,
					     &version, &warn, &err),
			 0);
	ck_assert_int_eq(version, 3); /* .old */
	ck_assert_msg(
		strstr(warn.text, "format version 1, this build reads 2 to 3"),
		"%s", warn.text);
	json_object_put(got);
	ck_assert_int_eq(state_load_versions(path, "horae-test", 3, 2, &got,
					     &version, &warn, &err),
			 -EINVAL);
	json_object_put(doc);
}
END_TEST

START_TEST(test_roundtrip_and_mode)
{
	horae_err_t warn, err;
	struct stat st;
	int rc;

	ck_assert_int_eq(_load(&rc, &warn, &err), -1);
	ck_assert_int_eq(rc, -ENOENT); /* first start */
	_save(1);
	ck_assert_int_eq(_load(&rc, &warn, &err), 1);
	ck_assert_str_eq(warn.text, "");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	_save(2);
	ck_assert_int_eq(_load(&rc, &warn, &err), 2);
	/* The previous snapshot is kept as .old. */
	char old[320];
	snprintf(old, sizeof(old), "%s.old", path);
	ck_assert_int_eq(stat(old, &st), 0);
}
END_TEST

/* Damage PATH in several ways: each is rejected, naming why, and the
 * previous snapshot is used. */
static const struct {
	const char *what;
	const char *msg;
} damage[] = {
	{ "truncated", "truncated" },
	{ "bitflip", "checksum mismatch" },
	{ "zeroed", "no header line" },
	{ "empty", "no header line" },
	{ "foreign", "not a Horae state file" },
	{ "kind", "holds 'slurm-nodes', not 'horae-test'" },
	{ "version", "format version 2, this build reads 1" },
	/* Found by fuzzing: -1 as a size wrapped the truncation check. */
	{ "negbytes", "header's bytes is negative" },
};

START_TEST(test_damaged_falls_back)
{
	char buf[4096];
	size_t n;
	horae_err_t warn, err;
	int rc;

	_save(1);
	_save(2);
	n = _read_file(path, buf, sizeof(buf));
	if (!strcmp(damage[_i].what, "truncated")) {
		_write_file(path, buf, n - 5);
	} else if (!strcmp(damage[_i].what, "bitflip")) {
		buf[n - 4] ^= 0x01;
		_write_file(path, buf, n);
	} else if (!strcmp(damage[_i].what, "zeroed")) {
		memset(buf, 0, n);
		_write_file(path, buf, n);
	} else if (!strcmp(damage[_i].what, "empty")) {
		_write_file(path, "", 0);
	} else if (!strcmp(damage[_i].what, "foreign")) {
		const char *j = "{\"generation\": 7}\n";
		_write_file(path, j, strlen(j));
	} else if (!strcmp(damage[_i].what, "kind")) {
		char *p = strstr(buf, "horae-test");
		char out[4096];
		snprintf(out, sizeof(out), "%.*sslurm-nodes%s", (int)(p - buf),
			 buf, p + strlen("horae-test"));
		_write_file(path, out, strlen(out));
	} else if (!strcmp(damage[_i].what, "negbytes")) {
		char *p = strstr(buf, "\"bytes\":"), *e, out[4096];

		ck_assert_ptr_nonnull(p);
		p += strlen("\"bytes\":");
		e = p + strspn(p, "0123456789");
		snprintf(out, sizeof(out), "%.*s-1%s", (int)(p - buf), buf, e);
		_write_file(path, out, strlen(out));
	} else {
		char *p = strstr(buf, "\"version\":1");
		p[strlen("\"version\":")] = '2';
		_write_file(path, buf, n);
	}
	ck_assert_int_eq(_load(&rc, &warn, &err), 1);
	ck_assert_msg(strstr(warn.text, damage[_i].msg), "%s: warning '%s'",
		      damage[_i].what, warn.text);
	ck_assert_msg(strstr(warn.text, ".old"),
		      "warning names no fallback: %s", warn.text);
}
END_TEST

START_TEST(test_both_bad_refuses)
{
	char old[320];
	horae_err_t warn, err;
	int rc;

	_save(1);
	_save(2);
	snprintf(old, sizeof(old), "%s.old", path);
	_write_file(path, "garbage", 7);
	_write_file(old, "{}\n{}", 5);
	ck_assert_int_eq(_load(&rc, &warn, &err), -1);
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_msg(strstr(err.text, "no header line") &&
			      strstr(err.text, "not a Horae state file"),
		      "%s", err.text);
}
END_TEST

/* A save cut between its two renames (on a file system without hard
 * links) leaves PATH missing and PATH.new complete: the newest snapshot is
 * still found. */
START_TEST(test_crash_between_renames)
{
	char tmp[320], old[320];
	horae_err_t warn, err;
	int rc;

	_save(1);
	_save(2);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	snprintf(old, sizeof(old), "%s.old", path);
	ck_assert_int_eq(rename(path, tmp), 0);
	ck_assert_int_eq(_load(&rc, &warn, &err), 2);
	ck_assert(strstr(warn.text, "missing; using"));
}
END_TEST

/*
 * A reader never finds PATH missing while saves replace it (sfair on a
 * login node, a restarted slurmctld): a child opens PATH in a loop while
 * the parent saves; every open succeeds and what it reads loads as the
 * main file, and PATH.old holds the snapshot before the last.
 */
START_TEST(test_never_missing)
{
	int pipefd[2], status, rc;
	char old[320], text[512];
	horae_err_t warn, err;
	pid_t pid;

	_save(0);
	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		unsigned int missing = 0, opened = 0;
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };

		close(pipefd[1]);
		while (poll(&p, 1, 0) == 0) {
			int fd = open(path, O_RDONLY);

			if (fd < 0) {
				missing++;
				continue;
			}
			opened++;
			close(fd);
		}
		_exit(missing ? 1 : opened ? 0 : 2);
	}
	close(pipefd[0]);
	for (int i = 1; i <= 2000; i++)
		_save(i);
	close(pipefd[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the reader found %s missing (status %d)", path, status);
	ck_assert_int_eq(_load(&rc, &warn, &err), 2000);
	ck_assert_str_eq(warn.text, "");
	snprintf(old, sizeof(old), "%s.old", path);
	ck_assert_uint_gt(_read_file(old, text, sizeof(text)), 0);
	ck_assert_msg(strstr(text, "\"generation\":1999}"), "%s holds %s",
		      old, text);
}
END_TEST

/* Save with reader, as state_save_shared() or state_publish(). */
static void _save_as(int generation, long reader, bool publish)
{
	json_object *doc = json_object_new_object();
	horae_err_t err;
	int rc;

	json_object_object_add(doc, "generation",
			       json_object_new_int(generation));
	rc = publish ? state_publish(path, "horae-test", 1, doc, reader, &err) :
		       state_save_shared(path, "horae-test", 1, doc, reader,
					 &err);
	ck_assert_msg(rc == 0, "%s", err.text);
	json_object_put(doc);
}

static mode_t _mode(const char *p)
{
	struct stat st;

	ck_assert_int_eq(lstat(p, &st), 0);
	return st.st_mode & 0777;
}

START_TEST(test_shared_modes)
{
	char old[320];
	horae_err_t err;
	json_object *doc = json_object_new_object();

	snprintf(old, sizeof(old), "%s.old", path);
	ck_assert_int_eq(state_save_shared(path, "k", 1, doc, -3, &err),
			 -EINVAL);
	json_object_put(doc);
	_save_as(1, STATE_READER_ALL, false);
	ck_assert_int_eq(_mode(path), 0644);
	_save_as(2, STATE_READER_ALL, false);
	ck_assert_int_eq(_mode(old), 0644);
	/* Private again: the new file and the kept one are both 0600. */
	_save_as(3, STATE_READER_NONE, false);
	ck_assert_int_eq(_mode(path), 0600);
	ck_assert_int_eq(_mode(old), 0600);
}
END_TEST

/* Whether uid can open path, tried in a child that becomes uid. */
static bool _can_read_as(long uid)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd;

		if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid))
			_exit(2);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 3);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_le(WEXITSTATUS(status), 1);
	return WEXITSTATUS(status) == 0;
}

START_TEST(test_publish_one_reader)
{
	char tmp[320], old[320], target[320], buf[64];
	horae_err_t warn, err;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	snprintf(old, sizeof(old), "%s.old", path);
	snprintf(target, sizeof(target), "%s/target", dir);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	/* A planted link at PATH.new is replaced, never written through. */
	_write_file(target, "untouched", 9);
	ck_assert_int_eq(symlink(target, tmp), 0);
	_save_as(1, 65534, true);
	ck_assert_int_eq(_read_file(target, buf, sizeof(buf)), 9);
	ck_assert_str_eq(buf, "untouched");
	ck_assert_int_eq(access(tmp, F_OK), -1);
	ck_assert_int_eq(access(old, F_OK), -1); /* a view keeps no .old */
	ck_assert_int_eq(_load(&rc, &warn, &err), 1);
	ck_assert_int_eq(_mode(path) & 0707, 0600); /* others: nothing */
	ck_assert_int_gt(getxattr(path, "system.posix_acl_access", NULL, 0), 0);
	_save_as(2, 65534, true);
	ck_assert_int_eq(_load(&rc, &warn, &err), 2);
	if (geteuid() != 0)
		return; /* the reads below need to become other users */
	ck_assert_msg(_can_read_as(65534), "the reader cannot read its view");
	ck_assert_msg(!_can_read_as(1), "another user can read the view");
	_save_as(3, STATE_READER_ALL, true);
	ck_assert(_can_read_as(1));
}
END_TEST

/* Publish generation with pad bytes of padding, readable by reader. */
static void _publish_padded(int generation, size_t pad, long reader)
{
	json_object *doc = json_object_new_object();
	char *fill = malloc(pad + 1);
	horae_err_t err;

	ck_assert_ptr_nonnull(fill);
	memset(fill, 'x', pad);
	fill[pad] = '\0';
	json_object_object_add(doc, "generation",
			       json_object_new_int(generation));
	json_object_object_add(doc, "pad", json_object_new_string(fill));
	ck_assert_msg(state_publish(path, "horae-test", 1, doc, reader, &err) ==
			      0,
		      "%s", err.text);
	json_object_put(doc);
	free(fill);
}

static ino_t _ino(const char *p)
{
	struct stat st;

	ck_assert_int_eq(lstat(p, &st), 0);
	return st.st_ino;
}

/* Whether path is the two lines of a state file and nothing after. */
static bool _exact(void)
{
	static char text[1 << 16];
	size_t n = _read_file(path, text, sizeof(text));
	char *nl = memchr(text, '\n', n);

	return n && nl &&
	       memchr(nl + 1, '\n', n - (nl + 1 - text)) == text + n - 1;
}

START_TEST(test_publish_in_place)
{
	horae_err_t warn, err;
	ino_t ino;
	int rc;

	_publish_padded(1, 5000, 65534);
	ino = _ino(path);
	/* Shorter: the same file, cut to the new length. */
	_publish_padded(2, 10, 65534);
	ck_assert_int_eq(_ino(path), ino);
	ck_assert_int_eq(_load(&rc, &warn, &err), 2);
	ck_assert_str_eq(warn.text, "");
	ck_assert_msg(_exact(), "%s has bytes after the document", path);
	_publish_padded(3, 8000, 65534);
	ck_assert_int_eq(_ino(path), ino);
	ck_assert_int_eq(_load(&rc, &warn, &err), 3);
	ck_assert_int_eq(_mode(path) & 0707, 0600);
	/* Another reader, everyone, nobody: each a new file, never the old
	 * one opened to someone else. */
	_publish_padded(4, 10, 1);
	ck_assert_int_ne(_ino(path), ino);
	ino = _ino(path);
	_publish_padded(5, 10, STATE_READER_ALL);
	ck_assert_int_ne(_ino(path), ino);
	ck_assert_int_eq(_mode(path), 0644);
	ck_assert_int_lt(getxattr(path, "system.posix_acl_access", NULL, 0), 0);
	ino = _ino(path);
	_publish_padded(6, 10, STATE_READER_ALL);
	ck_assert_int_eq(_ino(path), ino);
	_publish_padded(7, 10, STATE_READER_NONE);
	ck_assert_int_ne(_ino(path), ino);
	ck_assert_int_eq(_mode(path), 0600);
	ck_assert_int_eq(_load(&rc, &warn, &err), 7);
}
END_TEST

START_TEST(test_publish_replaces_others)
{
	char other[320], text[256];
	horae_err_t warn, err;
	int rc;

	snprintf(other, sizeof(other), "%s/other", dir);
	/* A second link: PATH is replaced, the other name keeps the old. */
	_publish_padded(1, 10, STATE_READER_ALL);
	ck_assert_int_eq(link(path, other), 0);
	_publish_padded(2, 10, STATE_READER_ALL);
	ck_assert_int_ne(_ino(path), _ino(other));
	ck_assert_uint_gt(_read_file(other, text, sizeof(text)), 0);
	ck_assert_msg(strstr(text, "\"generation\":1"), "%s holds %s", other,
		      text);
	/* A symbolic link is replaced, its target untouched. */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(other, path), 0);
	_publish_padded(3, 10, STATE_READER_ALL);
	ck_assert_int_ne(_ino(path), _ino(other));
	ck_assert_uint_gt(_read_file(other, text, sizeof(text)), 0);
	ck_assert(strstr(text, "\"generation\":1"));
	/* A FIFO neither blocks the publication nor stays. */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	_publish_padded(4, 10, STATE_READER_ALL);
	ck_assert_int_eq(_load(&rc, &warn, &err), 4);
	if (geteuid() != 0)
		return;
	/* Somebody else's file is replaced by one of ours. */
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	_publish_padded(5, 10, STATE_READER_ALL);
	{
		struct stat st;

		ck_assert_int_eq(lstat(path, &st), 0);
		ck_assert_int_eq(st.st_uid, 0);
	}
	ck_assert_int_eq(_load(&rc, &warn, &err), 5);
}
END_TEST

/*
 * A reader loading while a writer rewrites the file in place, between a
 * long and a short document, always gets one of them whole.
 */
START_TEST(test_publish_read_while_rewritten)
{
	enum { WRITES = 1000 };
	horae_err_t warn, err;
	int status, rc, gen, loads = 0;
	ino_t ino;
	pid_t pid;

	_publish_padded(0, 20000, STATE_READER_ALL);
	ino = _ino(path);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (int i = 1; i <= WRITES; i++)
			_publish_padded(i, i % 2 ? 30 : 20000,
					STATE_READER_ALL);
		_exit(0);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		gen = _load(&rc, &warn, &err);
		ck_assert_msg(rc == 0, "load %d while rewritten: %s", loads,
			      err.text);
		ck_assert_str_eq(warn.text, "");
		ck_assert_int_ge(gen, 0);
		ck_assert_int_le(gen, WRITES);
		loads++;
	}
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(_ino(path), ino);
	ck_assert_int_eq(_load(&rc, &warn, &err), WRITES);
	printf("state_test: %d loads while %d rewrites in place\n", loads,
	       WRITES);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("badargs");

	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_roundtrip_and_mode);
	tcase_add_test(tc, test_versions);
	tcase_add_loop_test(tc, test_damaged_falls_back, 0,
			    sizeof(damage) / sizeof(damage[0]));
	tcase_add_test(tc, test_both_bad_refuses);
	tcase_add_test(tc, test_crash_between_renames);
	tcase_add_test(tc, test_never_missing);
	tcase_add_test(tc, test_shared_modes);
	tcase_add_test(tc, test_publish_one_reader);
	tcase_add_test(tc, test_publish_in_place);
	tcase_add_test(tc, test_publish_replaces_others);
	tcase_add_test(tc, test_publish_read_while_rewritten);
	suite_add_tcase(s, tc);

	return check_run(s);
}
