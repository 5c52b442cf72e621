/*
 * state_test.c - Check tests of state.c: atomic save, safe permissions,
 * and truncated, corrupt, zeroed, foreign, wrong-kind and wrong-version
 * files rejected with a clear error and the fallback used.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	} else {
		char *p = strstr(buf, "\"version\":1");
		p[strlen("\"version\":")] = '2';
		_write_file(path, buf, n);
	}
	ck_assert_int_eq(_load(&rc, &warn, &err), 1);
	ck_assert_msg(strstr(warn.text, damage[_i].msg), "%s: warning '%s'",
		      damage[_i].what, warn.text);
	ck_assert_msg(strstr(warn.text, ".old"), "warning names no fallback: %s",
		      warn.text);
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

/* A save cut between its two renames leaves PATH missing and PATH.new
 * complete: the newest snapshot is still found. */
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
	tcase_add_loop_test(tc, test_damaged_falls_back, 0,
			    sizeof(damage) / sizeof(damage[0]));
	tcase_add_test(tc, test_both_bad_refuses);
	tcase_add_test(tc, test_crash_between_renames);
	suite_add_tcase(s, tc);

	return check_run(s);
}
