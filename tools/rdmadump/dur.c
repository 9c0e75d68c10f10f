/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump's durations in text: "812ns", "12.3us", "1.23ms", "2.05s" (see dump_dur.h). */
#include <stdio.h>
#include <string.h>

#include "dur.h"
#include "common/put_u64.h"

/* "812ns", "12.3us", "1.23ms", "2.05s", "4321s": three significant digits in the largest
 * unit below 1000 of it (a value that would round to 1000 of a unit takes the next one), so
 * never an exponent ("1e+03us") */
const char *dump_dur(char *buf, size_t len, double ns)
{
	static const char *const unit[3] = { "us", "ms", "s" };
	double v = ns;

	if (ns < 999.5) {
		snprintf(buf, len, "%.0fns", ns);
		return buf;
	}
	for (unsigned int u = 0; u < 3; u++) {
		v /= 1e3;
		if (v < 999.5) {
			snprintf(buf, len, "%.3g%s", v, unit[u]);
			return buf;
		}
	}
	snprintf(buf, len, "%.0fs", v);
	return buf;
}

/* dump_dur() of a whole number of ns without printf, for the table's latency columns (two per
 * flow, thousands of flows): %.0f of ns < 1000 is its digits, and %.3g's three digits come
 * from integer rounding.  Where the double's binary value decides (a decimal tie), the value
 * rounds up to the next unit (or past 999s), or ns is past 2^53, dump_dur() does it. */
const char *dump_dur_ns(char *buf, size_t len, uint64_t ns)
{
	static const char *const unit[3] = { "us", "ms", "s" };
	uint64_t scale = 1000, k10, q, r;
	unsigned int u = 0, intd;
	char dig[4], *p = buf;
	int last;

	if (len < 24 || ns >= (1ull << 53))
		return dump_dur(buf, len, (double)ns);
	if (ns < 1000) {
		p = put_u64(p, ns);
		memcpy(p, "ns", 3);
		return buf;
	}
	while (u < 2 && ns >= scale * 1000) {
		scale *= 1000;
		u++;
	}
	q = ns / scale;
	intd = q < 10 ? 1 : q < 100 ? 2 : q < 1000 ? 3 : 4;
	if (intd > 3)
		return dump_dur(buf, len, (double)ns);
	k10 = intd == 1 ? scale / 100 : intd == 2 ? scale / 10 : scale;
	q = ns / k10;
	r = ns % k10;
	if (r * 2 == k10)
		return dump_dur(buf, len, (double)ns);
	if (r * 2 > k10)
		q++;
	if (q == 1000) {	/* 9.995 -> 10.0: one more integer digit */
		q = 100;
		if (++intd > 3)
			return dump_dur(buf, len, (double)ns);
	}
	put_upto4(dig, (uint32_t)q);	/* three digits: 100 <= q <= 999 */
	memcpy(p, dig, intd);
	p += intd;
	for (last = 2; last >= (int)intd && dig[last] == '0'; last--)
		;
	if (last >= (int)intd) {
		*p++ = '.';
		memcpy(p, dig + intd, (size_t)(last + 1) - intd);
		p += (size_t)(last + 1) - intd;
	}
	memcpy(p, unit[u], strlen(unit[u]) + 1);
	return buf;
}
