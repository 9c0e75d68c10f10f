/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* RFC 3339 UTC time stamps for the tools' JSON; see timefmt.h. */
#include <string.h>
#include <time.h>

#include "timefmt.h"

static char *put_digits(char *q, uint64_t v, int width)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < width);
	while (n)
		*q++ = tmp[--n];
	return q;
}

/* the proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's civil_from_days,
 * for days >= 0) */
static void civil(uint64_t days, uint64_t *y, unsigned int *m, unsigned int *d)
{
	uint64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
	uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;

	*d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

const char *tool_time_str(char *buf, size_t len, uint64_t sec, uint32_t nsec)
{
	uint64_t y, s;
	unsigned int m, d;
	char tmp[48], *q = tmp;

	sec += nsec / 1000000000u;
	nsec %= 1000000000u;
	civil(sec / 86400, &y, &m, &d);
	s = sec % 86400;
	q = put_digits(q, y, 4);
	*q++ = '-';
	q = put_digits(q, m, 2);
	*q++ = '-';
	q = put_digits(q, d, 2);
	*q++ = 'T';
	q = put_digits(q, s / 3600, 2);
	*q++ = ':';
	q = put_digits(q, s / 60 % 60, 2);
	*q++ = ':';
	q = put_digits(q, s % 60, 2);
	*q++ = '.';
	q = put_digits(q, nsec, 9);
	*q++ = 'Z';
	*q = '\0';
	if ((size_t)(q - tmp) >= len) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	memcpy(buf, tmp, (size_t)(q - tmp) + 1);
	return buf;
}

const char *tool_time_now(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return tool_time_str(buf, len, (uint64_t)ts.tv_sec, (uint32_t)ts.tv_nsec);
}
