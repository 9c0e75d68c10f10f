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
	return tap_done();
}
