/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hexfloat.h - a double as C's "%a" text, without printf.
 *
 * The state files keep usage as hexadecimal floating point (exact, and
 * read back by strtod); a week of usage of a thousand accounts is some
 * 650,000 numbers each recalculation, which printf formats at about 80 ns
 * each.  This writes the same text as glibc's printf("%a") (hexfloat_test
 * compares them), several times faster.
 */
#ifndef HORAE_HEXFLOAT_H
#define HORAE_HEXFLOAT_H

#include <stddef.h>

/* Room hexfloat_format needs, its NUL included ("-0x1.fffffffffffffp-1022"
 * is 24 characters). */
#define HEXFLOAT_MAX 32

/*
 * Write x to out (HEXFLOAT_MAX bytes), NUL-terminated, as printf("%a")
 * does: "0x1.8p+3", "0x0p+0", "-0x1p-1", subnormals as "0x0.___p-1022",
 * infinities and NaNs as printf writes them.  Returns the length, NUL
 * not counted.
 */
size_t hexfloat_format(double x, char *out);

#endif /* HORAE_HEXFLOAT_H */
