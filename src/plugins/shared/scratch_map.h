/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch_map.h - large working arrays kept by a plugin between its
 * passes (one element per job, say), each in an anonymous mapping of its
 * own rather than in malloc's arenas.
 *
 * An array that grows with the queue, freed and made again larger, leaves
 * behind it in an arena chunks that malloc keeps resident (and each large
 * block it frees raises malloc's thresholds for every thread of
 * slurmctld), so that slurmctld's resident memory would hold the array
 * twice over.  A mapping goes back to the system whole when it is let go,
 * and costs nothing but its own pages meanwhile.  When the system refuses
 * a mapping, the array comes from xmalloc as any other would (which stops
 * slurmctld only where xmalloc would anyway).
 *
 * Not thread-safe by itself: the caller's lock guards the arrays.
 */
#ifndef HORAE_SCRATCH_MAP_H
#define HORAE_SCRATCH_MAP_H

#include <stddef.h>

/* An array of at least bytes bytes (> 0), its contents undefined.  Never
 * NULL.  Let go with scratch_map_free(). */
void *scratch_map_alloc(size_t bytes);

/* p (from scratch_map_alloc, or NULL: as scratch_map_alloc) made at least
 * bytes long, its first min(old, bytes) bytes kept; may move.  Never
 * NULL. */
void *scratch_map_grow(void *p, size_t bytes);

/* Let go of p (from scratch_map_alloc or scratch_map_grow) and set *p to
 * NULL.  NULL-safe. */
void scratch_map_free(void **p);

/* How many bytes p may hold (0 for NULL): at least what was asked. */
size_t scratch_map_size(const void *p);

#endif
