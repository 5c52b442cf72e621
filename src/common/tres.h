/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres.h - trackable-resource (TRES) vectors: parsing Slurm-style strings
 * such as "cpu=4,mem=4G,node=1,gres/gpu=2", arithmetic, fit tests and
 * dominant shares.
 *
 * A tres_layout_t names the slots of a vector: which TRES a cluster tracks,
 * in which order (for example "cpu,mem,node,gres/gpu").  Vectors are plain
 * values (tres_vec_t) that every policy passes around by pointer; slots a
 * layout does not use stay zero, so arithmetic never needs the layout.
 *
 * Units: "mem" is in megabytes (Slurm's unit), and a suffix K, M, G, T or P
 * scales it (4G = 4096).  For every other TRES the same suffixes are powers
 * of 1024 of a plain count, as Slurm reads them.
 */
#ifndef HORAE_TRES_H
#define HORAE_TRES_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Most TRES one layout can track. */
#define TRES_MAX 16
/* Longest TRES name, including the terminating NUL. */
#define TRES_NAME_MAX 64

typedef struct tres_vec {
	double v[TRES_MAX];
} tres_vec_t;

typedef struct tres_layout tres_layout_t;

/*
 * Create a layout from a comma-separated list of TRES names, such as
 * "cpu,mem,node,gres/gpu".  Names are lowercase letters, digits, '/', '_',
 * '-', '.' and ':'; none may repeat.
 * Returns the layout, or NULL with errno set (EINVAL: malformed list,
 * explained in err; ENOMEM).  The caller owns it: tres_layout_destroy().
 */
tres_layout_t *tres_layout_create(const char *names, horae_err_t *err);

/* Free a layout and set *layout to NULL.  NULL-safe. */
void tres_layout_destroy(tres_layout_t **layout);

/* Number of TRES in the layout. */
int tres_layout_count(const tres_layout_t *layout);

/* Name of slot i, or NULL when i is out of range.  Lent, not given. */
const char *tres_layout_name(const tres_layout_t *layout, int i);

/* Slot of the TRES called name, or -ENOENT. */
int tres_layout_find(const tres_layout_t *layout, const char *name);

/*
 * Parse str ("cpu=4,mem=4G,gres/gpu=2"; "" is the zero vector) into *out.
 * Every name must be in the layout, appear once, and carry a finite value
 * >= 0.  Returns 0, or -EINVAL with err naming the offending item and its
 * position; *out is untouched on failure.
 */
int tres_parse(const tres_layout_t *layout, const char *str, tres_vec_t *out,
	       horae_err_t *err);

/*
 * Write vec as "cpu=4,mem=4096M,node=1" (zero slots are left out; an
 * all-zero vector is "") into buf of size len.
 * Returns 0, or -ENOSPC when it does not fit (buf then holds a truncated,
 * NUL-terminated prefix), or -EINVAL when len is 0.
 */
int tres_format(const tres_layout_t *layout, const tres_vec_t *vec, char *buf,
		size_t len);

/* The zero vector. */
void tres_zero(tres_vec_t *vec);

/* a += b */
void tres_add(tres_vec_t *a, const tres_vec_t *b);

/* a -= b; slots never go below zero (a release larger than a hold clips). */
void tres_sub(tres_vec_t *a, const tres_vec_t *b);

/* a *= k */
void tres_scale(tres_vec_t *a, double k);

/* True when every slot of need is <= the same slot of avail. */
bool tres_fits(const tres_vec_t *need, const tres_vec_t *avail);

/* True when every slot is zero. */
bool tres_is_zero(const tres_vec_t *vec);

/* 1 + the last slot that is not zero, or 0: past it every slot is 0. */
int tres_slots(const tres_vec_t *vec);

/*
 * Dominant share of use relative to capacity cap: the largest use[i]/cap[i].
 * Slots where both are zero do not count; a slot with use > 0 and cap 0
 * gives +INFINITY (no amount of that capacity holds it).  If dom is not
 * NULL it receives the dominant slot, or -1 when use is zero.
 * Returns the share (0 for a zero vector).
 */
double tres_dominant_share(const tres_vec_t *use, const tres_vec_t *cap,
			   int *dom);

#endif /* HORAE_TRES_H */
