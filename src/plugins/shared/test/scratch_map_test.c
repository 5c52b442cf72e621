/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch_map_test.c - scratch_map against Slurm's own xmalloc
 * (libslurmfull), with mmap and mremap wrapped (the binary is linked with
 * --wrap) so that a test can have the system refuse them.  Whether a
 * mapping went back to the system is asked of the kernel: msync() on an
 * address no mapping covers fails with ENOMEM.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap */
#endif
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/test/check_run.h"
#include "scratch_map.h"

#define HEADER 64 /* scratch_map's header before each array */

static bool refuse_mmap, refuse_mremap;
static int nmmap, nmremap;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
void *__real_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	nmmap++;
	if (refuse_mmap) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

/* scratch_map asks only MREMAP_MAYMOVE, which takes no fifth argument. */
void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	nmremap++;
	if (refuse_mremap) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return __real_mremap(old, old_len, new_len, flags);
}

static size_t _page(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Is the page holding array p's header mapped? */
static bool _mapped(const void *p)
{
	uintptr_t base = ((uintptr_t)p - HEADER) & ~(uintptr_t)(_page() - 1);

	return msync((void *)base, _page(), MS_ASYNC) == 0;
}

static void _fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 31 + seed);
}

static bool _filled(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 31 + seed))
			return false;
	return true;
}

static void _reset(void)
{
	refuse_mmap = refuse_mremap = false;
	nmmap = nmremap = 0;
}

/* Let go of array p, a mapping: the pointer is cleared and the mapping
 * gone back to the system. */
static void _let_go(void *p)
{
	void *v = p;

	scratch_map_free(&v);
	ck_assert_ptr_null(v);
	ck_assert(!_mapped(p));
}

/* An array is a mapping of its own, in whole pages, aligned to a cache
 * line, all of it writable, and goes back to the system when let go. */
START_TEST(test_alloc_is_a_mapping)
{
	unsigned char *p;

	_reset();
	p = scratch_map_alloc(1000);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(nmmap, 1);
	ck_assert_uint_ge(scratch_map_size(p), 1000);
	ck_assert_uint_eq((scratch_map_size(p) + HEADER) % _page(), 0);
	ck_assert_uint_eq((uintptr_t)p % 64, 0);
	_fill(p, scratch_map_size(p), 1);
	ck_assert(_filled(p, scratch_map_size(p), 1));
	ck_assert(_mapped(p));
	_let_go(p);
}
END_TEST

/* Growing keeps what the array held; asking for no more keeps it as it
 * is; NULL grows as scratch_map_alloc. */
START_TEST(test_grow_keeps_contents)
{
	size_t page = _page(), old;
	unsigned char *p, *q;

	_reset();
	p = scratch_map_grow(NULL, 100);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(nmmap, 1);
	old = scratch_map_size(p);
	_fill(p, old, 2);
	ck_assert_ptr_eq(scratch_map_grow(p, old), p);
	ck_assert_ptr_eq(scratch_map_grow(p, 1), p);
	ck_assert_uint_eq(scratch_map_size(p), old);
	q = scratch_map_grow(p, 10 * page);
	ck_assert_int_eq(nmremap, 1);
	ck_assert_uint_ge(scratch_map_size(q), 10 * page);
	ck_assert(_filled(q, old, 2));
	memset(q + old, 0xcd, scratch_map_size(q) - old);
	_let_go(q);
}
END_TEST

START_TEST(test_free_and_size_of_null)
{
	void *v = NULL;

	scratch_map_free(NULL);
	scratch_map_free(&v);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(scratch_map_size(NULL), 0);
}
END_TEST

/* The system refuses mappings: the array comes from xmalloc, exactly as
 * long as asked, and grows and goes as one; once mappings are given again,
 * growing it moves it into one. */
START_TEST(test_mmap_refused)
{
	unsigned char *p, *q;

	_reset();
	refuse_mmap = true;
	p = scratch_map_alloc(5000);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(nmmap, 1);
	ck_assert_uint_eq(scratch_map_size(p), 5000);
	_fill(p, 5000, 3);
	q = scratch_map_grow(p, 20000);
	ck_assert_int_eq(nmremap, 0); /* not a mapping: not remapped */
	ck_assert_uint_eq(scratch_map_size(q), 20000);
	ck_assert(_filled(q, 5000, 3));
	_fill(q, 20000, 4);
	refuse_mmap = false;
	p = scratch_map_grow(q, 40000);
	ck_assert_uint_ge(scratch_map_size(p), 40000);
	ck_assert_uint_eq((scratch_map_size(p) + HEADER) % _page(), 0);
	ck_assert(_filled(p, 20000, 4));
	_let_go(p);
}
END_TEST

/* mremap refused: a new mapping, the contents copied, the old one let
 * go. */
START_TEST(test_mremap_refused)
{
	size_t page = _page(), old;
	unsigned char *p, *q;

	_reset();
	refuse_mremap = true;
	p = scratch_map_alloc(2 * page);
	old = scratch_map_size(p);
	_fill(p, old, 5);
	q = scratch_map_grow(p, 8 * page);
	ck_assert_int_eq(nmremap, 1);
	ck_assert_int_eq(nmmap, 2);
	ck_assert_ptr_ne(q, p);
	ck_assert(!_mapped(p));
	ck_assert_uint_ge(scratch_map_size(q), 8 * page);
	ck_assert(_filled(q, old, 5));
	_let_go(q);
}
END_TEST

/*
 * A size past what can be asked for stops the process as xmalloc stops
 * it when malloc refuses (abort()), rather than wrapping round to a small
 * block: xmalloc adds its own header to the size unchecked, so SIZE_MAX
 * would have come back as a block of a few bytes.
 */
START_TEST(test_past_asking_aborts)
{
	(void)scratch_map_alloc(SIZE_MAX - (size_t)_i);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("scratch_map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_alloc_is_a_mapping);
	tcase_add_test(tc, test_grow_keeps_contents);
	tcase_add_test(tc, test_free_and_size_of_null);
	tcase_add_test(tc, test_mmap_refused);
	tcase_add_test(tc, test_mremap_refused);
	/* 0, 15 and 64 under SIZE_MAX: within xmalloc's header of it, and
	 * within scratch_map's (each came back as a block of a few bytes
	 * while scratch_map passed such sizes to xmalloc whole). */
	tcase_add_loop_test_raise_signal(tc, test_past_asking_aborts, SIGABRT,
					 0, 1);
	tcase_add_loop_test_raise_signal(tc, test_past_asking_aborts, SIGABRT,
					 15, 16);
	tcase_add_loop_test_raise_signal(tc, test_past_asking_aborts, SIGABRT,
					 64, 65);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(_suite());
}
