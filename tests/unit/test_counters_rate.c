/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Rates on synthetic sequences: every state, wrap by width, saturation, scale, cache. */
#include <stdint.h>
#include <string.h>

#include <rdmadiag/rate.h>
#include "tap.h"

#define S 1000000000ull

static struct rdiag_rate r;

static int rate(uint8_t width, enum rdiag_behaviour b, uint32_t scale, uint64_t cache_ns,
		uint64_t v0, uint64_t t0, uint64_t v1, uint64_t t1)
{
	struct rdiag_rate_spec spec = { width, b, scale, cache_ns };
	struct rdiag_rate_point p = { v0, t0 }, c = { v1, t1 };

	return rdiag_rate_compute(&spec, &p, &c, &r);
}

int main(void)
{
	struct rdiag_rate_spec spec = { 64, RDIAG_CNT_WRAP, 1, 0 };
	struct rdiag_rate_point c = { 5, S };
	struct rdiag_sample a, b;
	struct rdiag_catalog_entry pma;
	uint64_t seq[] = { 100, 250, 250, 4294967290ull, 10, 20 };
	uint64_t total = 0;
	size_t i;

	/* first sample */
	EXPECT_EQ(rdiag_rate_compute(&spec, NULL, &c, &r), 0);
	EXPECT_EQ(r.state, RDIAG_RATE_FIRST);
	EXPECT_U64(r.delta, 0);

	/* plain 64-bit increase over 2 s */
	rate(64, RDIAG_CNT_WRAP, 1, 0, 100, S, 300, 3 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 200);
	EXPECT_DBL(r.per_sec, 100.0, 1e-9);
	EXPECT_EQ(r.wrapped, 0);

	/* a true zero rate after the cache lifetime is valid */
	rate(64, RDIAG_CNT_WRAP, 1, 10000000, 7, S, 7, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 0);

	/* unchanged inside the sysfs cache lifetime (12 ms): stale, not zero */
	rate(64, RDIAG_CNT_WRAP, 1, 12000000, 7, S, 7, S + 5000000);
	EXPECT_EQ(r.state, RDIAG_RATE_STALE);
	/* changed inside the lifetime: the cache was refreshed, the delta is real */
	rate(64, RDIAG_CNT_WRAP, 1, 12000000, 7, S, 9, S + 5000000);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 2);

	/* time did not advance */
	rate(64, RDIAG_CNT_WRAP, 1, 0, 7, S, 9, S);
	EXPECT_EQ(r.state, RDIAG_RATE_STALE);
	rate(64, RDIAG_CNT_WRAP, 1, 0, 7, 2 * S, 9, S);
	EXPECT_EQ(r.state, RDIAG_RATE_STALE);

	/* 32-bit wrapping counter (mlx5 Q counter): 0xfffffff0 -> 0x10 is +0x20 */
	rate(32, RDIAG_CNT_WRAP, 1, 0, 0xfffffff0ull, S, 0x10, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 0x20);
	EXPECT_EQ(r.wrapped, 1);
	/* the 32-bit maximum itself to 0 is one step */
	rate(32, RDIAG_CNT_WRAP, 1, 0, 0xffffffffull, S, 0, 2 * S);
	EXPECT_U64(r.delta, 1);

	/* 64-bit going backwards is a reset, never a 2^64 jump */
	rate(64, RDIAG_CNT_WRAP, 1, 0, 1000, S, 3, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_RESET);
	EXPECT_U64(r.delta, 0);

	/* saturating PMA counter (16 bits): at 65535 it is stuck, flagged */
	rate(16, RDIAG_CNT_SATURATE, 1, 0, 65000, S, 65535, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 535);
	EXPECT_EQ(r.saturated, 1);
	rate(16, RDIAG_CNT_SATURATE, 1, 0, 65535, S, 65535, 2 * S);
	EXPECT_EQ(r.saturated, 1);
	EXPECT_U64(r.delta, 0);
	/* a saturating counter going down was reset (perfquery -R) */
	rate(16, RDIAG_CNT_SATURATE, 1, 0, 65535, S, 2, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_RESET);

	/* PMA data: 4-octet words, x4 gives bytes */
	rate(64, RDIAG_CNT_SATURATE, 4, 0, 1000, S, 1250, 2 * S);
	EXPECT_U64(r.delta, 1000);
	EXPECT_DBL(r.per_sec, 1000.0, 1e-9);

	/* a gauge has no rate */
	rate(64, RDIAG_CNT_GAUGE, 1, 0, 10, S, 4, 2 * S);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 0);

	/* bad specs */
	EXPECT_EQ(rate(0, RDIAG_CNT_WRAP, 1, 0, 1, S, 2, 2 * S), -22);
	EXPECT_EQ(rate(65, RDIAG_CNT_WRAP, 1, 0, 1, S, 2, 2 * S), -22);

	/* a 32-bit sequence across the wrap accumulates exactly; a stale repeat adds nothing */
	for (i = 1; i < sizeof(seq) / sizeof(seq[0]); i++) {
		rate(32, RDIAG_CNT_WRAP, 1, 12000000, seq[i - 1], i * S, seq[i],
		     (i + 1) * S);
		if (r.state == RDIAG_RATE_VALID)
			total += r.delta;
	}
	EXPECT_U64(total, (4294967290ull - 100) + (4294967296ull - 4294967290ull + 10) + 10);

	/* from samples: the catalogue's width/scale and the sample's cache age are used */
	memset(&pma, 0, sizeof(pma));
	pma.width = 32;
	pma.behaviour = RDIAG_CNT_WRAP;
	pma.scale = 4;
	memset(&a, 0, sizeof(a));
	a.value = 0xffffffffull;
	a.ts_ns = S;
	a.cat = &pma;
	b = a;
	b.value = 1;
	b.ts_ns = 2 * S;
	EXPECT_EQ(rdiag_rate_samples(&a, &b, &r), 0);
	EXPECT_EQ(r.state, RDIAG_RATE_VALID);
	EXPECT_U64(r.delta, 8);
	b.value = a.value;
	b.ts_ns = S + 1000000;
	b.cache_ms = 10;
	rdiag_rate_samples(&a, &b, &r);
	EXPECT_EQ(r.state, RDIAG_RATE_STALE);
	/* an unreadable previous sample restarts the sequence */
	a.err = -13;
	rdiag_rate_samples(&a, &b, &r);
	EXPECT_EQ(r.state, RDIAG_RATE_FIRST);
	EXPECT_STREQ(rdiag_rate_state_name(RDIAG_RATE_RESET), "reset");
	return tap_done();
}
