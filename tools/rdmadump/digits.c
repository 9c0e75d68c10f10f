/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: the digits of a packet line, shared by every printer of this room (the one-go
 * line of fast.c, the field-by-field forms of print.c, the MAD lines of mad.c): the time of
 * day and an IPv4 address, written by table instead of through printf. */
#include <stdio.h>
#include <string.h>

#include "dump.h"

static const char d2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* the nine digits of ns < 10^9, written backwards so that they end at q; their start */
char *dump_ns9_before(char *q, uint32_t ns)
{
	for (int i = 0; i < 4; i++, ns /= 100) {
		q -= 2;
		memcpy(q, d2 + 2 * (ns % 100), 2);
	}
	*--q = (char)('0' + ns % 10);
	return q;
}

void dump_time(char *buf, size_t len, uint64_t sec, uint32_t nsec)
{
	/* the time of day of a POSIX timestamp (UTC has no leap seconds there): what gmtime()
	 * gives, without its calendar work or snprintf's format parsing on every packet line */
	unsigned int day = (unsigned int)(sec % 86400), hms[3] = { day / 3600, day / 60 % 60,
								   day % 60 };

	if (len < 19 || nsec >= 1000000000u) {
		snprintf(buf, len, "%02u:%02u:%02u.%09u", hms[0], hms[1], hms[2], nsec);
		return;
	}
	for (int i = 0; i < 3; i++) {
		memcpy(buf + 3 * i, d2 + 2 * hms[i], 2);
		buf[3 * i + 2] = i < 2 ? ':' : '.';
	}
	dump_ns9_before(buf + 18, nsec);
	buf[18] = '\0';
}

/* "0" .. "255" as four bytes each: the digits, then a byte that holds the digit count */
static const char octet[256][4] = {
#define O1(n) { (char)('0' + (n)), 0, 0, 1 }
#define O2(n) { (char)('0' + (n) / 10), (char)('0' + (n) % 10), 0, 2 }
#define O3(n) { (char)('0' + (n) / 100), (char)('0' + (n) / 10 % 10), (char)('0' + (n) % 10), 3 }
#define R10(f, b) f(b), f(b + 1), f(b + 2), f(b + 3), f(b + 4), f(b + 5), f(b + 6), f(b + 7), \
		  f(b + 8), f(b + 9)
	R10(O1, 0), R10(O2, 10), R10(O2, 20), R10(O2, 30), R10(O2, 40), R10(O2, 50), R10(O2, 60),
	R10(O2, 70), R10(O2, 80), R10(O2, 90),
	R10(O3, 100), R10(O3, 110), R10(O3, 120), R10(O3, 130), R10(O3, 140), R10(O3, 150),
	R10(O3, 160), R10(O3, 170), R10(O3, 180), R10(O3, 190), R10(O3, 200), R10(O3, 210),
	R10(O3, 220), R10(O3, 230), R10(O3, 240),
	O3(250), O3(251), O3(252), O3(253), O3(254), O3(255),
#undef O1
#undef O2
#undef O3
#undef R10
};

char *dump_put_ip4(char *q, const uint8_t *a)
{
	for (int i = 0; i < 4; i++) {
		const char *d = octet[a[i]];

		memcpy(q, d, 4);	/* the fourth byte is overwritten by '.' or what follows */
		q += d[3];
		*q++ = '.';
	}
	return q - 1;
}
