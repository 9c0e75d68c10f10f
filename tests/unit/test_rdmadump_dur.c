/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit test of dump_dur_ns() (tools/rdmadump/dur.c): the bytes of dump_dur(), the printf
 * form, for every ns below 3 000 000 (every decimal tie of the microseconds, the carry from
 * 9.995 to 10 and from 999.5us to 1ms), for 1 200 values around each step of a geometric
 * series up to 2^54 (milliseconds, seconds, past 1000s and past 2^53), and for random values; and
 * a few of the forms by name. */
#include <stdlib.h>
#include "tap.h"
#include "rdmadump/dur.h"

static unsigned long compared, differ;

static void check(uint64_t ns)
{
	char a[24], b[24];

	dump_dur(a, sizeof(a), (double)ns);
	dump_dur_ns(b, sizeof(b), ns);
	compared++;
	if (strcmp(a, b) && differ++ < 10)
		printf("# %" PRIu64 " ns: printf %s, by hand %s\n", ns, a, b);
}

int main(void)
{
	char b[24];

	for (uint64_t v = 0; v < 3000000; v++)
		check(v);
	for (uint64_t m = 10000000; m < (1ull << 54); m = m * 3 / 2 + 7)
		for (int d = -600; d < 600; d++)
			check(m + (uint64_t)d);
	srandom(1);
	for (int i = 0; i < 1000000; i++)
		check(((uint64_t)random() << 22 ^ (uint64_t)random()) >> (random() % 40));
	printf("# %lu values compared\n", compared);
	EXPECT_EQ(differ, 0);
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 843), "843ns");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 7420), "7.42us");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 2000), "2us");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 9996), "10us");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 13549999), "13.5ms");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 999600), "1ms");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 999999999), "1s");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 2300000000000ull), "2300s");
	EXPECT_STREQ(dump_dur(b, sizeof(b), 2.3e9), "2.3s");
	EXPECT_STREQ(dump_dur_ns(b, sizeof(b), 2050000000), "2.05s");
	return tap_done();
}
