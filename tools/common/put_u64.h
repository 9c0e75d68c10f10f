/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A decimal number written into a buffer (at most 20 bytes, no NUL): the one digit writer of
 * tools/common, behind JSON numbers (out.c) and text fields (text_fmt.c).  Internal. */
#ifndef RD_PUT_U64_H
#define RD_PUT_U64_H
#include <stdint.h>
#include <string.h>

#define PUT_HOT static inline __attribute__((always_inline))

static const char digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal numbers straight into a buffer, front to back in groups of four digits (two
 * table lookups each): no digit count, no loop, 32-bit divisions by constants below 10^16.
 * Digits are stored in place: building them on the stack and copying them with wider loads
 * made every number wait for a failed store-to-load forward. */

/* exactly four digits of v < 10000 */
PUT_HOT char *put_4(char *p, uint32_t v)
{
	memcpy(p, digits2 + 2 * (v / 100), 2);
	memcpy(p + 2, digits2 + 2 * (v % 100), 2);
	return p + 4;
}

/* v < 10000 without leading zeros */
PUT_HOT char *put_upto4(char *p, uint32_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, digits2 + 2 * v, 2);
		return p + 2;
	}
	if (v < 1000) {
		*p = (char)('0' + v / 100);
		memcpy(p + 1, digits2 + 2 * (v % 100), 2);
		return p + 3;
	}
	return put_4(p, v);
}

PUT_HOT char *put_u64(char *p, uint64_t v)
{
	uint32_t hi, lo;

	if (v < 10000)		/* most per-packet fields are flags, small counts, ports */
		return put_upto4(p, (uint32_t)v);
	if (v < 100000000) {	/* up to eight digits: two groups of four, no loop */
		hi = (uint32_t)v / 10000;
		lo = (uint32_t)v % 10000;
		return put_4(put_upto4(p, hi), lo);
	}
	if (v >= 10000000000000000ull) {	/* more than 16 digits: the top ones first */
		p = put_upto4(p, (uint32_t)(v / 10000000000000000ull));
		v %= 10000000000000000ull;
		hi = (uint32_t)(v / 100000000);
		lo = (uint32_t)(v % 100000000);
		p = put_4(put_4(p, hi / 10000), hi % 10000);
		return put_4(put_4(p, lo / 10000), lo % 10000);
	}
	/* nine to sixteen digits: the top group of eight without leading zeros, then eight */
	hi = (uint32_t)(v / 100000000);
	lo = (uint32_t)(v % 100000000);
	if (hi < 10000)
		p = put_upto4(p, hi);
	else
		p = put_4(put_upto4(p, hi / 10000), hi % 10000);
	return put_4(put_4(p, lo / 10000), lo % 10000);
}

#endif
