/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hexfloat.c - see hexfloat.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hexfloat.h"

size_t hexfloat_format(double x, char *out)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t bits, frac;
	unsigned int bexp, uexp;
	char digits[8], *p = out;
	int exp, nd = 13, k = 0;

	memcpy(&bits, &x, sizeof(bits));
	bexp = (unsigned int)(bits >> 52) & 0x7ff;
	frac = bits & ((UINT64_C(1) << 52) - 1);
	if (bexp == 0x7ff) /* infinity or NaN: rare, printf's own words */
		return (size_t)snprintf(out, HEXFLOAT_MAX, "%a", x);
	if (bits >> 63)
		*p++ = '-';
	*p++ = '0';
	*p++ = 'x';
	/* normal: 1.frac x 2^(bexp - 1023); subnormal: 0.frac x 2^-1022;
	 * zero: 0x0p+0 */
	*p++ = bexp ? '1' : '0';
	exp = bexp ? (int)bexp - 1023 : (frac ? -1022 : 0);
	if (frac) {
		/* 13 hex digits, the trailing zeros left out */
		while (!(frac & 0xf)) {
			frac >>= 4;
			nd--;
		}
		*p++ = '.';
		for (int i = nd - 1; i >= 0; i--) {
			p[i] = hex[frac & 0xf];
			frac >>= 4;
		}
		p += nd;
	}
	*p++ = 'p';
	*p++ = exp < 0 ? '-' : '+';
	uexp = (unsigned int)(exp < 0 ? -exp : exp);
	do {
		digits[k++] = (char)('0' + uexp % 10);
		uexp /= 10;
	} while (uexp);
	while (k)
		*p++ = digits[--k];
	*p = '\0';
	return (size_t)(p - out);
}
