/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch_map.c - see scratch_map.h.
 *
 * Each array is preceded by a header of one cache line that says how long
 * its mapping is (0: it came from xmalloc), so that an array can be let go
 * or grown knowing only its address.
 */
#include "config.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap */
#endif
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "src/common/xmalloc.h"

#include "scratch_map.h"

#define HEADER 64 /* keeps the array aligned to a cache line */

typedef struct header {
	size_t len; /* the mapping's length, header included; 0: xmalloc'd */
	size_t bytes; /* what the array may hold */
} header_t;

static header_t *_header(const void *p)
{
	return (header_t *)((char *)p - HEADER);
}

/* bytes and the header, rounded up to whole pages; 0 on overflow. */
static size_t _length(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (bytes > SIZE_MAX - HEADER - page)
		return 0;
	return (bytes + HEADER + page - 1) / page * page;
}

static void *_array(void *base, size_t len, size_t bytes)
{
	header_t *h = base;

	h->len = len;
	h->bytes = len ? len - HEADER : bytes;
	return (char *)base + HEADER;
}

void *scratch_map_alloc(size_t bytes)
{
	size_t len = _length(bytes);
	void *base = MAP_FAILED;

	if (len)
		base = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base != MAP_FAILED)
		return _array(base, len, bytes);
	/* As any other array would.  A size past what can be asked for is
	 * asked for as half the address space, which malloc refuses, and
	 * xmalloc stops slurmctld as it does whenever malloc refuses:
	 * xmalloc adds its own header to the size unchecked, so that a size
	 * within it of SIZE_MAX would come back as a block of a few bytes. */
	len = bytes > SIZE_MAX / 2 - HEADER ? SIZE_MAX / 2 : bytes + HEADER;
	return _array(xmalloc_nz(len), 0, bytes);
}

void *scratch_map_grow(void *p, size_t bytes)
{
	header_t *h;
	size_t len;
	void *base, *q;

	if (!p)
		return scratch_map_alloc(bytes);
	h = _header(p);
	if (bytes <= h->bytes)
		return p;
	len = _length(bytes);
	if (h->len && len) {
		base = mremap(h, h->len, len, MREMAP_MAYMOVE);
		if (base != MAP_FAILED)
			return _array(base, len, bytes);
	}
	q = scratch_map_alloc(bytes);
	memcpy(q, p, h->bytes);
	scratch_map_free(&p);
	return q;
}

void scratch_map_free(void **p)
{
	header_t *h;

	if (!p || !*p)
		return;
	h = _header(*p);
	if (h->len) {
		(void)munmap(h, h->len);
	} else {
		void *base = h;

		xfree(base);
	}
	*p = NULL;
}

size_t scratch_map_size(const void *p)
{
	return p ? _header(p)->bytes : 0;
}
