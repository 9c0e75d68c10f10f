/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The per-priority PAUSE/PFC counts of the flow table (lib/flow/flow_pause.c): frames, XOFF
 * and XON, total quanta, the longest XOFF run; a disabled priority's time is not counted; the
 * frames are frames of the capture, not RDMA packets. */
#include <errno.h>
#include <string.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"

static struct rdiag_pkt pfc(uint8_t enable, const uint16_t q[8])
{
	struct rdiag_pkt p;

	memset(&p, 0, sizeof(p));
	p.encap = RDIAG_ENCAP_PFC;
	p.present = RDIAG_HAS(RDIAG_HDR_LINK) | RDIAG_HAS_MACC;
	p.macc.opcode = 0x0101;
	p.macc.pfc_enable = enable;
	memcpy(p.macc.pfc_quanta, q, sizeof(p.macc.pfc_quanta));
	return p;
}

static struct rdiag_pkt pause(uint16_t quanta)
{
	struct rdiag_pkt p;

	memset(&p, 0, sizeof(p));
	p.encap = RDIAG_ENCAP_PAUSE;
	p.present = RDIAG_HAS(RDIAG_HDR_LINK) | RDIAG_HAS_MACC;
	p.macc.opcode = 0x0001;
	p.macc.pause_quanta = quanta;
	return p;
}

static void from(struct rdiag_pkt *p, uint8_t last_byte)
{
	p->eth_src[0] = 0x02;
	p->eth_src[5] = last_byte;
}

/* at 100 Gbit/s one quantum is 5.12 ns: 1000 quanta 5120 ns, 100 quanta 512 ns */
static void test_paused_time(void)
{
	const struct rdiag_flow_opts fo = { .link_bps = 100000000000ull };
	const uint16_t q1000[8] = { 0, 0, 0, 1000 }, q100[8] = { 0, 0, 0, 100 }, xon[8] = { 0 };
	struct rdiag_flow_table *ft;
	struct rdiag_flow_pause s;
	struct rdiag_pkt p;
	struct { uint8_t who; uint64_t t; const uint16_t *q; } ev[] = {
		{ 0xa, 0, q1000 },	/* A: paused 0..2000 (renewed) */
		{ 0xb, 1000, q1000 },	/* B: paused 1000..3000 (renewed), interleaved with A */
		{ 0xa, 2000, q1000 },	/* A: 2000..4000 (XON) */
		{ 0xb, 3000, q1000 },	/* B: 3000..8120 (expires) */
		{ 0xa, 4000, xon },
		{ 0xa, 10000, q100 },	/* A: 10000..10512 (expires) */
		{ 0xa, 20000, q1000 },	/* A: 20000..25120 (expires before the next) */
		{ 0xa, 50000, q100 },	/* A: 50000..50512, still running at the end: whole */
	};

	EXPECT_EQ(rdiag_flow_open(&ft, &fo), 0);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		p = pfc(0x08, ev[i].q);
		from(&p, ev[i].who);
		rdiag_flow_add(ft, &p, ev[i].t, NULL);
	}
	rdiag_flow_pause(ft, &s);
	EXPECT_U64(s.prio[3].xoff, 7);
	EXPECT_U64(s.prio[3].xon, 1);
	/* per sender: A 2 (then XON, then 3), B 2; one shared run would say 4 at t=3000 */
	EXPECT_U64(s.prio[3].xoff_run_max, 3);
	EXPECT_U64(s.prio[3].paused_ns, 2000 + 2000 + 512 + 5120 + 512 +	/* A */
				       2000 + 5120);			/* B */
	EXPECT_U64(s.prio[0].paused_ns, 0);
	/* read twice: the running pauses are added to the copy, not to the table */
	rdiag_flow_pause(ft, &s);
	EXPECT_U64(s.prio[3].paused_ns, 17264);
	{
		struct rdiag_pause_sender a, b;

		EXPECT_U64(rdiag_flow_pause_sender_count(ft), 2);
		EXPECT_EQ(rdiag_flow_pause_sender_get(ft, 0, &a), 0);
		EXPECT_EQ(rdiag_flow_pause_sender_get(ft, 1, &b), 0);
		EXPECT_EQ(a.mac[5], 0xa);
		EXPECT_EQ(b.mac[5], 0xb);
		EXPECT_U64(a.prio[3].paused_ns, 2000 + 2000 + 512 + 5120 + 512);
		EXPECT_U64(b.prio[3].paused_ns, 2000 + 5120);
		EXPECT_U64(a.prio[3].frames, 6);
		EXPECT_U64(b.prio[3].xoff_run_max, 2);
		EXPECT_EQ(rdiag_flow_pause_sender_get(ft, 2, &a), -ENOENT);
	}
	rdiag_flow_close(ft);

	/* without the link speed there is no time */
	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	p = pfc(0x08, q1000);
	rdiag_flow_add(ft, &p, 5, NULL);
	rdiag_flow_pause(ft, &s);
	EXPECT_U64(s.prio[3].paused_ns, 0);
	rdiag_flow_close(ft);
}

/* two senders, each with its own run: A XOFF XOFF, B XOFF XOFF XOFF interleaved */
static void test_runs_per_sender(void)
{
	const uint16_t x[8] = { 0, 0, 0, 0, 0, 7 };
	static const uint8_t who[] = { 0xa, 0xb, 0xa, 0xb, 0xb };
	struct rdiag_flow_table *ft;
	struct rdiag_flow_pause s;
	struct rdiag_pkt p;

	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	for (size_t i = 0; i < sizeof(who); i++) {
		p = pfc(0x20, x);
		from(&p, who[i]);
		rdiag_flow_add(ft, &p, i, NULL);
	}
	rdiag_flow_pause(ft, &s);
	EXPECT_U64(s.prio[5].xoff, 5);
	EXPECT_U64(s.prio[5].xoff_run_max, 3);
	{
		struct rdiag_pause_sender a;

		EXPECT_EQ(rdiag_flow_pause_sender_get(ft, 0, &a), 0);
		EXPECT_U64(a.prio[5].xoff, 2);
		EXPECT_U64(a.prio[5].xoff_run_max, 2);
		EXPECT_U64(a.prio[4].frames, 0);
		EXPECT_EQ(rdiag_flow_pause_sender_get(NULL, 0, &a), -EINVAL);
		EXPECT_U64(rdiag_flow_pause_sender_count(NULL), 0);
	}
	rdiag_flow_close(ft);
}

/* memory stays bounded: past 1024 senders the rest share one entry, listed last */
static void test_many_senders(void)
{
	const uint16_t x[8] = { 1 };
	struct rdiag_flow_table *ft;
	struct rdiag_pause_sender last;
	struct rdiag_flow_pause s;
	struct rdiag_pkt p;

	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	for (unsigned int i = 0; i < 1030; i++) {
		p = pfc(0x01, x);
		p.eth_src[4] = (uint8_t)(i >> 8);
		p.eth_src[5] = (uint8_t)i;
		rdiag_flow_add(ft, &p, i, NULL);
	}
	EXPECT_U64(rdiag_flow_pause_sender_count(ft), 1025);
	EXPECT_EQ(rdiag_flow_pause_sender_get(ft, 1024, &last), 0);
	EXPECT_U64(last.prio[0].frames, 6);
	EXPECT_EQ(last.mac[4] | last.mac[5], 0);
	rdiag_flow_pause(ft, &s);
	EXPECT_U64(s.prio[0].frames, 1030);
	rdiag_flow_close(ft);
}

int main(void)
{
	struct rdiag_flow_table *ft;
	struct rdiag_flow_verdict v;
	struct rdiag_flow_pause s;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;
	const uint16_t x3[8] = { 7, 0, 0, 100 }, on3[8] = { 0 };
	uint64_t ts = 1;

	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	EXPECT_EQ(rdiag_flow_pause(ft, &s), 0);
	EXPECT_U64(s.frames, 0);
	/* priority 3: XOFF x3, XON, XOFF x2; priority 0's time 7 is set but not enabled */
	for (int i = 0; i < 3; i++) {
		p = pfc(0x08, x3);
		EXPECT_EQ(rdiag_flow_add(ft, &p, ts++, &v), 0);
		EXPECT_TRUE(v.flags & RDIAG_FV_PAUSE);
		EXPECT_TRUE(!(v.flags & RDIAG_FV_ERRORS));
		EXPECT_EQ(v.flow, -1);
	}
	p = pfc(0x08, on3);
	rdiag_flow_add(ft, &p, ts++, &v);
	for (int i = 0; i < 2; i++) {
		p = pfc(0x09, x3);
		rdiag_flow_add(ft, &p, ts++, &v);
	}
	p = pause(0xffff);
	rdiag_flow_add(ft, &p, ts++, &v);
	p = pause(0);
	rdiag_flow_add(ft, &p, ts++, &v);
	p = pause(5);
	rdiag_flow_add(ft, &p, ts++, &v);
	/* a cut one: a frame, truncated, nothing per priority */
	p = pfc(0xff, x3);
	p.present &= ~RDIAG_HAS_MACC;
	p.status = RDIAG_PKT_TRUNCATED;
	rdiag_flow_add(ft, &p, ts++, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_TRUNCATED);

	EXPECT_EQ(rdiag_flow_pause(ft, &s), 0);
	EXPECT_U64(s.frames, 10);
	EXPECT_U64(s.pfc_frames, 6);
	EXPECT_U64(s.pause_frames, 3);
	EXPECT_U64(s.truncated, 1);
	EXPECT_U64(s.invalid, 0);
	EXPECT_U64(s.prio[3].frames, 6);
	EXPECT_U64(s.prio[3].xoff, 5);
	EXPECT_U64(s.prio[3].xon, 1);
	EXPECT_U64(s.prio[3].quanta, 500);
	EXPECT_U64(s.prio[3].xoff_run_max, 3);
	EXPECT_U64(s.prio[0].frames, 2);
	EXPECT_U64(s.prio[0].quanta, 14);
	EXPECT_U64(s.prio[0].xoff_run_max, 2);
	EXPECT_U64(s.prio[1].frames, 0);
	EXPECT_U64(s.link.frames, 3);
	EXPECT_U64(s.link.xoff, 2);
	EXPECT_U64(s.link.xon, 1);
	EXPECT_U64(s.link.quanta, 65540);
	EXPECT_U64(s.link.xoff_run_max, 1);

	EXPECT_EQ(rdiag_flow_total(ft, &t), 0);
	EXPECT_U64(t.frames, 10);
	EXPECT_U64(t.rdma, 0);
	EXPECT_U64(t.truncated, 0);
	EXPECT_U64(rdiag_flow_count(ft), 0);
	EXPECT_EQ(rdiag_flow_pause(NULL, &s), -EINVAL);
	EXPECT_EQ(rdiag_flow_pause(ft, NULL), -EINVAL);
	rdiag_flow_close(ft);
	test_paused_time();
	test_runs_per_sender();
	test_many_senders();
	return tap_done();
}
