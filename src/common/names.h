/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.h - a table of names (accounts) and the dense indices 0..n-1 that
 * ledgers and policies use.  Lookup is a hash, O(1) on average.
 */
#ifndef HORAE_NAMES_H
#define HORAE_NAMES_H

typedef struct names names_t;

/* An empty table, or NULL with errno ENOMEM. */
names_t *names_create(void);

/* Free the table and set *n to NULL.  NULL-safe. */
void names_destroy(names_t **n);

/*
 * Index of name, adding it if new (indices are given in order: the first
 * new name gets names_count()).  Returns the index, -EINVAL for NULL, or
 * -ENOMEM (the table is unchanged).
 */
int names_intern(names_t *n, const char *name);

/* Index of name, or -ENOENT. */
int names_find(const names_t *n, const char *name);

/* Name of index i (lent), or NULL when out of range. */
const char *names_get(const names_t *n, int i);

/* Number of names. */
int names_count(const names_t *n);

#endif /* HORAE_NAMES_H */
