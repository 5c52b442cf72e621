/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_util.h - what the libFuzzer targets share: the input as a C string
 * (the parsers take NUL-terminated text), and one scratch file per process
 * for the parsers that only read from a path.  The scratch file lives in
 * $TMPDIR (else /tmp) and is unlinked when the process exits normally; a
 * crashing run leaves it behind, which is why fuzz.sh points TMPDIR into
 * its work directory.
 */
#ifndef HORAE_FUZZ_UTIL_H
#define HORAE_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The input as a string the caller frees; an embedded NUL ends it early,
 * as it would for a parser reading a C string. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char fuzz_path[4096];
static int fuzz_fd = -1;

__attribute__((destructor)) static void fuzz_file_cleanup(void)
{
	if (fuzz_fd >= 0) {
		close(fuzz_fd);
		unlink(fuzz_path);
	}
}

/*
 * Make the scratch file hold exactly the input and return its path.  I/O
 * errors abort: they are the harness's fault, not the parser's.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	if (fuzz_fd < 0) {
		const char *dir = getenv("TMPDIR");

		snprintf(fuzz_path, sizeof(fuzz_path), "%s/horae-fuzz-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		fuzz_fd = mkstemp(fuzz_path);
		if (fuzz_fd < 0) {
			perror(fuzz_path);
			abort();
		}
	}
	/* Overwrite, then cut: truncating to 0 first frees the blocks and
	 * reallocates them on every run, which is slow on ext4 with discard. */
	while (done < size) {
		n = pwrite(fuzz_fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	if (ftruncate(fuzz_fd, (off_t)size))
		abort();
	return fuzz_path;
}

#endif /* HORAE_FUZZ_UTIL_H */
