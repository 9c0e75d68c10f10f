/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The JSON time stamps of every tool (tools/common/timefmt.c): RFC 3339 in UTC with nine fraction
 * digits, byte for byte what gmtime_r and snprintf make of the same instant, from the epoch to
 * the last second of 9999, and the short-buffer and carried-nanosecond edges. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "tap.h"
#include "common/timefmt.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int differs(uint64_t sec, uint32_t ns)
{
	char got[64], want[64];
	time_t t = (time_t)sec;
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ns);
	tool_time_str(got, sizeof(got), sec, ns);
	if (!strcmp(got, want))
		return 0;
	printf("# %llu.%09u: got %s, want %s\n", (unsigned long long)sec, ns, got, want);
	return 1;
}

int main(void)
{
	const uint64_t last = 253402300799ull;		/* 9999-12-31T23:59:59Z */
	uint64_t s = 88172645463325252ull, d;
	char buf[TOOL_TIME_LEN], now[TOOL_TIME_LEN];
	int bad = 0;

	/* every day boundary of the first 1000 years and of the last century, then at random */
	for (d = 0; d < 365243; d++)
		bad += differs(d * 86400 + d % 86400, (uint32_t)(d * 7919 % 1000000000u));
	for (d = last / 86400 - 36524; d <= last / 86400; d++)
		bad += differs(d * 86400 + 86399, 999999999);
	for (int i = 0; i < 1000000; i++)
		bad += differs(rnd(&s) % (last + 1), (uint32_t)(rnd(&s) % 1000000000u));
	EXPECT_EQ(bad, 0);

	EXPECT_EQ(strlen(tool_time_str(buf, sizeof(buf), last, 999999999)), TOOL_TIME_LEN - 1);
	/* a buffer one byte short gets nothing rather than a cut time */
	EXPECT_STREQ(tool_time_str(buf, TOOL_TIME_LEN - 1, 0, 0), "");
	/* nanoseconds past a second carry into it */
	tool_time_str(now, sizeof(now), 1, 5);
	EXPECT_STREQ(tool_time_str(buf, sizeof(buf), 0, 1000000005u), now);
	/* the wall clock: the same shape, between two readings of time() */
	{
		time_t a = time(NULL), b;
		char lo[TOOL_TIME_LEN], hi[TOOL_TIME_LEN];

		tool_time_now(now, sizeof(now));
		b = time(NULL);
		tool_time_str(lo, sizeof(lo), (uint64_t)a, 0);
		tool_time_str(hi, sizeof(hi), (uint64_t)b, 999999999);
		EXPECT_TRUE(strcmp(lo, now) <= 0 && strcmp(now, hi) <= 0);
	}
	return tap_done();
}
