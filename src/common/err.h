/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.h - an error buffer that core functions fill to explain a failure.
 *
 * Core functions that can explain why they failed take a horae_err_t * (which
 * may be NULL when the caller does not care) and return -errno, so that a
 * failure path is one line:  return err_set(err, -EINVAL, "line %d: ...", n);
 * The text names what is wrong and where; it never ends with a newline.
 */
#ifndef HORAE_ERR_H
#define HORAE_ERR_H

#define HORAE_ERR_LEN 512

typedef struct horae_err {
	char text[HORAE_ERR_LEN];
} horae_err_t;

/*
 * Fill err (if not NULL) with the formatted text, truncated to fit.
 * Returns rc unchanged, which must be a negative errno.
 */
int err_set(horae_err_t *err, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Empty err (if not NULL). */
void err_clear(horae_err_t *err);

#endif /* HORAE_ERR_H */
