/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit tests of the per-QP analysis (lib/flow) on synthetic packet sequences:
 * records are built by hand, so every expectation follows from the sequence alone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "flow_pkt.h"
#include "tap.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"
#include "flow/internal.h"

#define A 1	/* 10.0.0.1 */
#define B 2	/* 10.0.0.2 */
#define US 1000ull

static struct rdiag_pkt data_pkt(uint8_t op, int src, int dst, uint32_t qp, uint32_t psn,
				 uint32_t payload)
{
	struct rdiag_pkt p = pkt(op, src, dst, qp, psn);

	p.payload_len = payload;
	p.len = p.caplen = 62 + payload;
	if (payload)
		p.present |= RDIAG_HAS(RDIAG_HDR_PAYLOAD);
	return p;
}

static struct rdiag_pkt aeth_pkt(uint8_t op, int src, int dst, uint32_t qp, uint32_t psn,
				 uint8_t kind, uint8_t code)
{
	struct rdiag_pkt p = pkt(op, src, dst, qp, psn);

	p.present |= RDIAG_HAS_AETH;
	p.aeth.kind = kind;
	p.aeth.syndrome = (uint8_t)(kind << 5 | code);
	if (kind == RDIAG_AETH_ACK) {
		p.aeth.credits_code = code;
		p.aeth.credits = rdiag_aeth_credits(code);
	}
	if (kind == RDIAG_AETH_RNR_NAK) {
		p.aeth.timer = code;
		p.aeth.timer_ms = rdiag_rnr_timer_ms(code);
	}
	if (kind == RDIAG_AETH_NAK) {
		p.aeth.nak = code;
		p.aeth.nak_name = rdiag_nak_name(code);
	}
	return p;
}

static struct rdiag_flow_table *table(size_t pending)
{
	struct rdiag_flow_opts o = { .pending_max = pending };
	struct rdiag_flow_table *ft = NULL;

	EXPECT_EQ(rdiag_flow_open(&ft, &o), 0);
	return ft;
}

static struct rdiag_flow_info info(struct rdiag_flow_table *ft, size_t i)
{
	struct rdiag_flow_info f;

	memset(&f, 0, sizeof(f));
	EXPECT_EQ(rdiag_flow_get(ft, i, &f), 0);
	return f;
}

static void test_psn_arith(void)
{
	EXPECT_EQ(rd_psn_diff(0, 0xffffff), 1);
	EXPECT_EQ(rd_psn_diff(0xffffff, 0), -1);
	EXPECT_EQ(rd_psn_diff(5, 5), 0);
	EXPECT_EQ(rd_psn_diff(0x800000, 0), -0x800000);
	EXPECT_EQ(rd_psn_diff(0x7fffff, 0), 0x7fffff);
}

static void test_hist(void)
{
	struct rd_hist *h = calloc(1, sizeof(*h));
	struct rdiag_latency l;

	for (unsigned int b = 0; b + 1 < RD_HIST_BUCKETS; b++)
		if (rd_hist_bucket_hi(b) != rd_hist_bucket_lo(b + 1))
			EXPECT_EQ(rd_hist_bucket_hi(b), rd_hist_bucket_lo(b + 1));
	EXPECT_EQ(rd_hist_bucket(7), 7);
	EXPECT_EQ(rd_hist_bucket(8), 8);
	EXPECT_EQ(rd_hist_bucket(rd_hist_bucket_lo(100)), 100);
	EXPECT_EQ(rd_hist_bucket(rd_hist_bucket_hi(100) - 1), 100);
	EXPECT_EQ(rd_hist_bucket(UINT64_MAX), RD_HIST_BUCKETS - 1);
	for (uint64_t v = 1; v <= 10000; v++)
		rd_hist_add(h, v * 1000);
	rd_hist_latency(h, &l);
	EXPECT_EQ(l.n, 10000);
	EXPECT_EQ(l.min_ns, 1000);
	EXPECT_EQ(l.max_ns, 10000000);
	/* exact median 5 000 000 and p99 9 900 000; past 128 samples, within 6.25 % */
	EXPECT_DBL((double)l.median_ns, 5000000.0, 5000000.0 * 0.0625);
	EXPECT_DBL((double)l.p99_ns, 9900000.0, 9900000.0 * 0.0625);
	EXPECT_DBL(l.mean_ns, 5000500.0, 1.0);
	rd_hist_free(h);
	free(h);
}

/* up to RD_HIST_EXACT samples the quantiles are samples (nearest rank), whatever their order;
 * the case: n = 3 gave a p99 below max and a median that was no sample */
static void test_hist_exact(void)
{
	struct rd_hist h;
	struct rdiag_latency l;
	/* a shuffled 1..128 (times 1000 + 7: values that fall inside buckets, not on edges) */
	uint64_t v[RD_HIST_EXACT];
	unsigned int i;

	memset(&h, 0, sizeof(h));
	rd_hist_add(&h, 1134000);
	rd_hist_add(&h, 1001000);
	rd_hist_add(&h, 1090000);
	rd_hist_latency(&h, &l);
	EXPECT_EQ(l.median_ns, 1090000);
	EXPECT_EQ(l.p99_ns, 1134000);
	EXPECT_EQ(l.max_ns, 1134000);
	rd_hist_free(&h);

	/* even n: the lower middle (rank n/2) */
	rd_hist_add(&h, 40);
	rd_hist_add(&h, 10);
	rd_hist_latency(&h, &l);
	EXPECT_EQ(l.median_ns, 10);
	EXPECT_EQ(l.p99_ns, 40);
	rd_hist_free(&h);

	for (i = 0; i < RD_HIST_EXACT; i++)
		v[i] = (uint64_t)((i * 37u) % RD_HIST_EXACT + 1) * 1000 + 7;
	for (i = 0; i < RD_HIST_EXACT; i++)
		rd_hist_add(&h, v[i]);
	rd_hist_latency(&h, &l);
	EXPECT_EQ(l.n, RD_HIST_EXACT);
	EXPECT_EQ(l.median_ns, 64007);		/* rank 64 of 128 */
	EXPECT_EQ(l.p99_ns, 127007);		/* rank ceil(126.72) = 127 */
	EXPECT_TRUE(h.b == NULL);
	/* one more: buckets, the values are gone, the quantiles are bucket middles */
	rd_hist_add(&h, 129007);
	rd_hist_latency(&h, &l);
	EXPECT_TRUE(h.b != NULL && h.v == NULL);
	EXPECT_EQ(l.n, RD_HIST_EXACT + 1);
	EXPECT_EQ(l.max_ns, 129007);
	EXPECT_TRUE(l.median_ns != 65007);
	EXPECT_DBL((double)l.median_ns, 65007.0, 65007.0 * 0.0625);
	EXPECT_DBL((double)l.p99_ns, 128007.0, 128007.0 * 0.0625);
	rd_hist_free(&h);
}

static void test_in_order_with_wrap(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_pkt p;
	uint32_t flags = 0;

	for (uint32_t i = 0; i < 20; i++) {
		p = data_pkt(0x01, A, B, 0x11, 0xfffff6 + i, 1024);
		EXPECT_EQ(rdiag_flow_add(ft, &p, i * US, &v), 0);
		flags |= v.flags;
	}
	f = info(ft, 0);
	EXPECT_EQ(rdiag_flow_count(ft), 1);
	EXPECT_EQ(f.pkts, 20);
	EXPECT_EQ(f.psn_gaps + f.psn_dup + f.psn_ooo, 0);
	EXPECT_EQ(flags & (RDIAG_FV_GAP | RDIAG_FV_DUP | RDIAG_FV_OOO), 0);
	EXPECT_EQ(f.mtu, 1024);
	EXPECT_EQ(f.n_ops, 1);
	EXPECT_EQ(f.ops[0].opcode, 0x01);
	EXPECT_EQ(f.ops[0].pkts, 20);
	EXPECT_EQ(f.ops[0].payload, 20 * 1024);
	EXPECT_EQ(f.ops[0].bytes, 20 * (62 + 1024));
	rdiag_flow_close(ft);
}

static void test_gap_dup_ooo(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_pkt p;
	uint64_t t = 0;
	/* 10 11 14 (gap: 12 13 lost) 12 (late: ooo) 15 11 (dup) */
	static const uint32_t seq[] = { 10, 11, 14, 12, 15, 11 };
	uint32_t fl[6];

	for (unsigned int i = 0; i < 6; i++) {
		p = pkt(0x04, A, B, 0x20, seq[i]);
		rdiag_flow_add(ft, &p, t += US, &v);
		fl[i] = v.flags;
		if (i == 2) {
			EXPECT_EQ(v.lost, 2);
			EXPECT_EQ(v.expected_psn, 12);
		}
	}
	EXPECT_TRUE(fl[2] & RDIAG_FV_GAP);
	EXPECT_TRUE(fl[3] & RDIAG_FV_OOO);
	EXPECT_TRUE(!(fl[4] & (RDIAG_FV_GAP | RDIAG_FV_DUP | RDIAG_FV_OOO)));
	EXPECT_TRUE(fl[5] & RDIAG_FV_DUP);
	EXPECT_TRUE(RDIAG_FV_ERRORS & RDIAG_FV_GAP);
	f = info(ft, 0);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.psn_lost, 1);	/* 13 never came */
	EXPECT_EQ(f.psn_ooo, 1);
	EXPECT_EQ(f.psn_dup, 1);
	/* 11 again 4 us after its original, with no NAK: a duplicate, not a retry (12 after 14
	 * was late, not a retry either) */
	EXPECT_EQ(f.loss.duplicates, 1);
	EXPECT_EQ(f.loss.retry_timeout + f.loss.retry_nak_seq + f.loss.retry_rnr, 0);
	EXPECT_EQ(f.psn_goback, 0);
	rdiag_flow_close(ft);
}

static void test_late_fill_is_retransmission(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_pkt p;
	uint32_t psn;

	/* 100, then 102..111 (101 lost), then go-back-N: 101 102 ... */
	p = pkt(0x04, A, B, 0x21, 100);
	rdiag_flow_add(ft, &p, 0, &v);
	for (psn = 102; psn <= 111; psn++) {
		p = pkt(0x04, A, B, 0x21, psn);
		rdiag_flow_add(ft, &p, psn, &v);
	}
	p = pkt(0x04, A, B, 0x21, 101);
	rdiag_flow_add(ft, &p, 200, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETX);
	EXPECT_TRUE(RDIAG_FV_ERRORS & RDIAG_FV_RETX);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETRY_TIMEOUT);	/* no NAK seen */
	EXPECT_EQ(v.retry_gap_ns, 0);	/* 101's original was never seen */
	p = pkt(0x04, A, B, 0x21, 102);
	rdiag_flow_add(ft, &p, 201, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETRY_TIMEOUT);	/* the same go-back-N goes on */
	EXPECT_EQ(v.flags & RDIAG_FV_DUP, 0);
	/* to 16 ns: the send times are kept in 16 ns units */
	EXPECT_TRUE(v.retry_gap_ns + 16 > 201 - 102 && v.retry_gap_ns < 201 - 102 + 16);
	f = info(ft, 0);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.psn_lost, 1);
	EXPECT_EQ(f.psn_dup, 1);
	EXPECT_EQ(f.psn_retx, 1);
	EXPECT_EQ(f.psn_ooo, 0);
	EXPECT_EQ(f.psn_goback, 1);	/* 101 after 111; 102 after 101 goes on in order */
	/* far behind (beyond the 128-PSN window): its original's time is not known, so no
	 * duplicate can be told: a timeout retry, and a second go-back */
	p = pkt(0x04, A, B, 0x21, 0xffffff - 50);
	rdiag_flow_add(ft, &p, 202, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETRY_TIMEOUT);
	EXPECT_EQ(info(ft, 0).loss.retry_timeout, 3);
	EXPECT_EQ(info(ft, 0).psn_goback, 2);
	{
		struct rdiag_flow_total t;

		EXPECT_EQ(rdiag_flow_total(ft, &t), 0);
		EXPECT_EQ(t.psn_goback, 2);
	}
	rdiag_flow_close(ft);
}

static void test_nak_makes_fill_a_retransmission(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_pkt p;

	/* 10, 12 (11 lost), NAK PSN_SEQ_ERR for 11 from B, then 11 right away: resent, not late */
	p = pkt(0x04, A, B, 0x22, 10);
	rdiag_flow_add(ft, &p, 1, &v);
	p = pkt(0x04, A, B, 0x22, 12);
	rdiag_flow_add(ft, &p, 2, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_GAP);
	p = aeth_pkt(0x11, B, A, 0x23, 11, RDIAG_AETH_NAK, 0);
	rdiag_flow_add(ft, &p, 3, &v);
	p = pkt(0x04, A, B, 0x22, 11);
	rdiag_flow_add(ft, &p, 4, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETX);
	EXPECT_EQ(v.flags & RDIAG_FV_OOO, 0);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETRY_NAK);
	p = pkt(0x04, A, B, 0x22, 12);
	rdiag_flow_add(ft, &p, 5, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RETRY_NAK);	/* the go-back-N the NAK started */
	EXPECT_EQ(v.flags & RDIAG_FV_DUP, 0);
	f = info(ft, 0);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.psn_lost, 1);
	EXPECT_EQ(f.psn_dup, 1);
	EXPECT_EQ(f.psn_retx, 1);
	EXPECT_EQ(f.psn_ooo, 0);
	/* a NAK between other hosts does not count */
	p = pkt(0x04, A, B, 0x22, 15);
	rdiag_flow_add(ft, &p, 6, &v);
	p = aeth_pkt(0x11, 9, A, 0x23, 13, RDIAG_AETH_NAK, 0);
	rdiag_flow_add(ft, &p, 7, &v);
	p = pkt(0x04, A, B, 0x22, 13);
	rdiag_flow_add(ft, &p, 8, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_OOO);
	rdiag_flow_close(ft);
}

static void test_read_pairing(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info req, rsp;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	/* A -> B qp 5: SEND_FIRST teaches the 1024 MTU, then READ 3000 B at psn 101 */
	p = data_pkt(0x00, A, B, 5, 99, 1024);
	rdiag_flow_add(ft, &p, 0, &v);
	p = data_pkt(0x02, A, B, 5, 100, 10);
	rdiag_flow_add(ft, &p, 1 * US, &v);
	p = pkt(0x0c, A, B, 5, 101);
	p.present |= RDIAG_HAS_RETH;
	p.reth.dmalen = 3000;
	rdiag_flow_add(ft, &p, 10 * US, &v);
	/* B -> A qp 7: FIRST (AETH) / MIDDLE / LAST (AETH) at psn 101..103 */
	p = aeth_pkt(0x0d, B, A, 7, 101, RDIAG_AETH_ACK, 31);
	p.payload_len = 1024;
	rdiag_flow_add(ft, &p, 20 * US, &v);
	EXPECT_EQ(v.flags & RDIAG_FV_READ_DONE, 0);
	p = pkt(0x0e, B, A, 7, 102);
	rdiag_flow_add(ft, &p, 25 * US, &v);
	p = aeth_pkt(0x0f, B, A, 7, 103, RDIAG_AETH_ACK, 31);
	rdiag_flow_add(ft, &p, 40 * US, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_READ_DONE);
	EXPECT_EQ(v.latency_ns, 30 * US);
	/* the next request uses psn 104 (3 PSNs for the READ): in order */
	p = pkt(0x04, A, B, 5, 104);
	rdiag_flow_add(ft, &p, 50 * US, &v);
	EXPECT_EQ(v.flags & (RDIAG_FV_GAP | RDIAG_FV_DUP), 0);
	req = info(ft, 0);
	rsp = info(ft, 1);
	EXPECT_EQ(req.reads, 1);
	EXPECT_EQ(req.reads_unanswered, 0);
	EXPECT_EQ(req.read_lat.n, 1);
	EXPECT_EQ(req.read_lat.min_ns, 30 * US);
	EXPECT_EQ(req.read_lat.max_ns, 30 * US);
	EXPECT_EQ(req.peer, 1);
	EXPECT_EQ(rsp.peer, 0);
	EXPECT_EQ(req.src_qpn, 7);	/* A's QP, learnt from the response */
	EXPECT_EQ(rsp.src_qpn, 5);
	EXPECT_EQ(rsp.psn_gaps + rsp.psn_dup, 0);
	/* a retransmitted READ response (psn 102 again) is a duplicate */
	p = pkt(0x0e, B, A, 7, 102);
	rdiag_flow_add(ft, &p, 60 * US, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_DUP);
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.read_lat.n, 1);
	EXPECT_EQ(t.reads, 1);
	rdiag_flow_close(ft);
}

static void test_read_unknown_mtu(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_pkt p;

	/* MTU unknown: a READ of 3000 B may use 1 (4096 MTU) .. 12 (256 MTU) PSNs */
	p = pkt(0x0c, A, B, 5, 200);
	p.present |= RDIAG_HAS_RETH;
	p.reth.dmalen = 3000;
	rdiag_flow_add(ft, &p, 0, &v);
	p = pkt(0x04, A, B, 5, 203);
	rdiag_flow_add(ft, &p, 1, &v);
	EXPECT_EQ(v.flags & RDIAG_FV_GAP, 0);
	p = pkt(0x04, A, B, 5, 204);
	rdiag_flow_add(ft, &p, 2, &v);
	EXPECT_EQ(v.flags & (RDIAG_FV_GAP | RDIAG_FV_DUP | RDIAG_FV_OOO), 0);
	EXPECT_EQ(info(ft, 0).psn_goback, 0);	/* the READ's span is not taken for a step back */
	p = pkt(0x04, A, B, 5, 201);	/* reserved by the READ: a duplicate */
	rdiag_flow_add(ft, &p, 3, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_DUP);	/* 3 ns after the READ: no timer is that short */
	EXPECT_EQ(info(ft, 0).psn_goback, 0);	/* a duplicate is no retry */
	rdiag_flow_close(ft);
}

static void test_ack_latency_and_naks(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info req, rsp;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	p = pkt(0x04, A, B, 9, 500);
	p.bth.ackreq = 1;
	rdiag_flow_add(ft, &p, 100 * US, &v);
	p = aeth_pkt(0x11, B, A, 3, 500, RDIAG_AETH_ACK, 31);
	rdiag_flow_add(ft, &p, 105 * US, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_ACKED);
	EXPECT_EQ(v.latency_ns, 5 * US);
	/* an ACK nobody asked for matches nothing */
	p = aeth_pkt(0x11, B, A, 3, 777, RDIAG_AETH_ACK, 31);
	rdiag_flow_add(ft, &p, 106 * US, &v);
	EXPECT_EQ(v.flags & RDIAG_FV_ACKED, 0);
	p = aeth_pkt(0x11, B, A, 3, 501, RDIAG_AETH_NAK, 0);
	rdiag_flow_add(ft, &p, 107 * US, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_NAK);
	p = aeth_pkt(0x11, B, A, 3, 501, RDIAG_AETH_NAK, 2);
	rdiag_flow_add(ft, &p, 108 * US, &v);
	p = aeth_pkt(0x11, B, A, 3, 501, RDIAG_AETH_NAK, 17);
	rdiag_flow_add(ft, &p, 109 * US, &v);
	p = aeth_pkt(0x11, B, A, 3, 501, RDIAG_AETH_RNR_NAK, 1);
	rdiag_flow_add(ft, &p, 110 * US, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_RNR);
	p = aeth_pkt(0x11, B, A, 3, 501, RDIAG_AETH_RNR_NAK, 14);
	rdiag_flow_add(ft, &p, 111 * US, &v);
	req = info(ft, 0);
	rsp = info(ft, 1);
	EXPECT_EQ(req.ack_reqs, 1);
	EXPECT_EQ(req.ack_lat.n, 1);
	EXPECT_EQ(req.ack_lat.median_ns, 5 * US);
	EXPECT_EQ(rsp.acks, 2);
	EXPECT_EQ(rsp.naks[0], 1);
	EXPECT_EQ(rsp.naks[2], 1);
	EXPECT_EQ(rsp.naks[RDIAG_NAK_OTHER], 1);
	EXPECT_EQ(rsp.rnr_naks, 2);
	EXPECT_DBL(rsp.rnr_timer_ms_min, 0.01, 1e-9);
	EXPECT_DBL(rsp.rnr_timer_ms_max, 1.28, 1e-9);
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.naks[0] + t.naks[2] + t.naks[RDIAG_NAK_OTHER], 3);
	EXPECT_EQ(t.rnr_naks, 2);
	rdiag_flow_close(ft);
}

static void test_ecn_cnp(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	/* flow 0: A -> B qp 5 with two CE marks; flow 1: CNPs B -> A qp 7 (reverse unknown) */
	for (uint32_t i = 0; i < 4; i++) {
		p = pkt(0x04, A, B, 5, i);
		p.ecn = i < 2 ? 3 : 2;
		rdiag_flow_add(ft, &p, i, &v);
		EXPECT_EQ(!!(v.flags & RDIAG_FV_CE), i < 2);
	}
	p = pkt(0x81, B, A, 7, 0);
	rdiag_flow_add(ft, &p, 10, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_CNP);
	rdiag_flow_add(ft, &p, 11, &v);
	f = info(ft, 0);
	EXPECT_EQ(f.ecn_ce, 2);
	EXPECT_EQ(f.cnp_for_ce, 2);	/* the only CE flow in the opposite direction */
	f = info(ft, 1);
	EXPECT_EQ(f.cnp, 2);
	EXPECT_EQ(f.psn_dup, 0);	/* a CNP's PSN means nothing */
	/* once the peer is known (an ACK pairs them), CNPs go straight to it */
	p = pkt(0x04, A, B, 5, 4);
	p.bth.ackreq = 1;
	rdiag_flow_add(ft, &p, 20, &v);
	p = aeth_pkt(0x11, B, A, 7, 4, RDIAG_AETH_ACK, 31);
	rdiag_flow_add(ft, &p, 21, &v);
	p = pkt(0x81, B, A, 7, 0);
	rdiag_flow_add(ft, &p, 22, &v);
	f = info(ft, 0);
	EXPECT_EQ(f.cnp_for_ce, 3);
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.cnp, 3);
	EXPECT_EQ(t.cnp_for_ce, 3);
	EXPECT_EQ(t.ecn_ce, 2);
	rdiag_flow_close(ft);
}

/* a CNP counts as matched only when the flow it answers had a CE-marked packet before it:
 * with the flows paired (by an ACK) and not paired, before and after the first CE mark */
static void test_cnp_needs_prior_ce(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	/* not paired: a CNP B -> A qp 7 before any CE mark of A -> B qp 5 */
	p = pkt(0x0a, A, B, 5, 0);
	p.ecn = 2;
	rdiag_flow_add(ft, &p, 1, &v);
	p = pkt(0x81, B, A, 7, 0);
	rdiag_flow_add(ft, &p, 2, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_CNP);
	f = info(ft, 1);
	EXPECT_EQ(f.cnp, 1);
	EXPECT_EQ(f.cnp_no_ce, 1);
	EXPECT_EQ(info(ft, 0).cnp_for_ce, 0);
	/* the CE mark, then a CNP: matched */
	p = pkt(0x0a, A, B, 5, 1);
	p.ecn = 3;
	rdiag_flow_add(ft, &p, 3, &v);
	p = pkt(0x81, B, A, 7, 0);
	rdiag_flow_add(ft, &p, 4, &v);
	EXPECT_EQ(info(ft, 0).cnp_for_ce, 1);
	EXPECT_EQ(info(ft, 1).cnp_no_ce, 1);

	/* paired by an ACK first (A -> B qp 6, B -> A qp 8), a CNP with no CE mark anywhere on
	 * the pair's flow, while the other flow between the same addresses is CE-marked */
	p = pkt(0x04, A, B, 6, 100);
	p.bth.ackreq = 1;
	rdiag_flow_add(ft, &p, 10, &v);
	p = aeth_pkt(0x11, B, A, 8, 100, RDIAG_AETH_ACK, 31);
	rdiag_flow_add(ft, &p, 11, &v);
	p = pkt(0x81, B, A, 8, 0);
	rdiag_flow_add(ft, &p, 12, &v);
	EXPECT_EQ(info(ft, 2).peer, 3);
	EXPECT_EQ(info(ft, 3).cnp_no_ce, 1);
	EXPECT_EQ(info(ft, 2).cnp_for_ce, 0);
	EXPECT_EQ(info(ft, 0).cnp_for_ce, 1);	/* not given to the other CE-marked flow */
	/* a CE mark on the paired flow, then a CNP: matched to it */
	p = pkt(0x04, A, B, 6, 101);
	p.ecn = 3;
	rdiag_flow_add(ft, &p, 13, &v);
	p = pkt(0x81, B, A, 8, 0);
	rdiag_flow_add(ft, &p, 14, &v);
	EXPECT_EQ(info(ft, 2).cnp_for_ce, 1);
	EXPECT_EQ(info(ft, 3).cnp, 2);
	EXPECT_EQ(info(ft, 3).cnp_no_ce, 1);

	/* not paired, two CE-marked flows A -> B: a CNP to an unknown QP answers one of them,
	 * which one cannot be told: matched in the total, in no flow */
	p = pkt(0x81, B, A, 9, 0);
	rdiag_flow_add(ft, &p, 15, &v);
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.cnp, 5);
	EXPECT_EQ(t.cnp_for_ce, 3);
	EXPECT_EQ(t.cnp_no_ce, 2);
	EXPECT_EQ(info(ft, 0).cnp_for_ce + info(ft, 2).cnp_for_ce, 2);
	EXPECT_EQ(info(ft, 4).cnp_no_ce, 0);
	rdiag_flow_close(ft);
}

/* codepoints and messages of a flow: DSCP changes (CNPs left out), Not-ECT data, message
 * sizes from FIRST..LAST or ONLY, a resent packet and a LAST without its FIRST left out */
static void test_traffic(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_pkt p;
	uint32_t psn = 10;

	/* a LAST whose FIRST was before the capture: no message */
	p = data_pkt(0x08, A, B, 5, psn++, 100);	/* RC_RDMA_WRITE_LAST */
	p.dscp = 26;
	p.ecn = 2;
	rdiag_flow_add(ft, &p, 1, &v);
	/* FIRST MIDDLE LAST: 256 + 256 + 88 */
	p = data_pkt(0x06, A, B, 5, psn++, 256);
	p.dscp = 26;
	p.ecn = 2;
	rdiag_flow_add(ft, &p, 2, &v);
	p = data_pkt(0x07, A, B, 5, psn++, 256);
	p.dscp = 26;
	p.ecn = 2;
	rdiag_flow_add(ft, &p, 3, &v);
	p = data_pkt(0x08, A, B, 5, psn++, 88);
	p.dscp = 26;
	p.ecn = 2;
	rdiag_flow_add(ft, &p, 4, &v);
	/* ONLY of 7, then the same PSN again (resent): one message */
	p = data_pkt(0x04, A, B, 5, psn, 7);
	p.dscp = 46;
	p.ecn = 0;
	rdiag_flow_add(ft, &p, 5, &v);
	rdiag_flow_add(ft, &p, 6, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_DUP);
	psn++;
	/* a CNP on the flow back with DSCP 48, between two ACKs with DSCP 26 */
	p = aeth_pkt(0x11, B, A, 7, psn - 1, RDIAG_AETH_ACK, 31);
	p.dscp = 26;
	rdiag_flow_add(ft, &p, 7, &v);
	p = pkt(0x81, B, A, 7, 0);
	p.dscp = 48;
	rdiag_flow_add(ft, &p, 8, &v);
	p = aeth_pkt(0x11, B, A, 7, psn - 1, RDIAG_AETH_ACK, 31);
	p.dscp = 26;
	rdiag_flow_add(ft, &p, 9, &v);

	f = info(ft, 0);
	EXPECT_EQ(f.dscp_seen, (1ull << 26) | (1ull << 46));
	EXPECT_EQ(f.dscp_changes, 1);		/* 26 -> 46 (the resent packet is 46 too) */
	EXPECT_EQ(f.ecn_pkts[2], 4);
	EXPECT_EQ(f.ecn_pkts[0], 2);
	EXPECT_EQ(f.not_ect_data, 2);
	EXPECT_EQ(f.msgs, 2);
	EXPECT_EQ(f.msg_min, 7);
	EXPECT_EQ(f.msg_median, 7);		/* nearest rank 1 of 2 */
	EXPECT_EQ(f.msg_max, 600);
	f = info(ft, 1);
	EXPECT_EQ(f.dscp_seen, 1ull << 26);	/* the CNP's 48 is not the flow's class */
	EXPECT_EQ(f.dscp_changes, 0);
	EXPECT_EQ(f.msgs, 0);
	EXPECT_EQ(f.ecn_pkts[0], 2);		/* the two ACKs (Not-ECT), not the CNP */
	EXPECT_EQ(f.not_ect_data, 0);		/* ACKs are no data */
	rdiag_flow_close(ft);
}

static struct rdiag_pkt cm_pkt(uint16_t msg, int src, int dst, uint32_t local, uint32_t remote)
{
	struct rdiag_pkt p = pkt(0x64, src, dst, 1, 0);

	p.present |= RDIAG_HAS_DETH | RDIAG_HAS_MAD | RDIAG_HAS_CM;
	p.deth_srcqp = 1;
	p.deth_qkey = 0x80010000;
	p.mad.mgmt_class = 7;
	p.mad.attr_id = msg;
	p.cm.msg = msg;
	p.cm.local_comm_id = local;
	p.cm.remote_comm_id = remote;
	return p;
}

static void test_cm(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_cm_conn_info c;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	/* connection 1: REQ, REQ (retry), REP, RTU, DREQ (server), DREP */
	p = cm_pkt(RDIAG_CM_REQ, A, B, 0x100, 0);
	p.cm.local_qpn = 0x12;
	p.cm.sid_is_ip = true;
	p.cm.port_space = RDIAG_PS_TCP;
	p.cm.port = 7174;
	rdiag_flow_add(ft, &p, 1000, &v);
	EXPECT_EQ(v.flags & RDIAG_FV_CM_RETRY, 0);
	rdiag_flow_add(ft, &p, 5000, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_CM_RETRY);
	p = cm_pkt(RDIAG_CM_REP, B, A, 0x200, 0x100);
	p.cm.local_qpn = 0x13;
	rdiag_flow_add(ft, &p, 6000, &v);
	p = cm_pkt(RDIAG_CM_RTU, A, B, 0x100, 0x200);
	rdiag_flow_add(ft, &p, 7000, &v);
	EXPECT_EQ(rdiag_flow_cm_get(ft, 0, &c), 0);
	EXPECT_EQ(c.state, RDIAG_CMS_ESTABLISHED);
	p = cm_pkt(RDIAG_CM_DREQ, B, A, 0x200, 0x100);
	rdiag_flow_add(ft, &p, 8000, &v);
	p = cm_pkt(RDIAG_CM_DREP, A, B, 0x100, 0x200);
	rdiag_flow_add(ft, &p, 9000, &v);
	/* connection 2: REQ rejected by the server, reason 8 */
	p = cm_pkt(RDIAG_CM_REQ, A, B, 0x101, 0);
	rdiag_flow_add(ft, &p, 10000, &v);
	p = cm_pkt(RDIAG_CM_REJ, B, A, 0, 0x101);
	p.cm.reason = RDIAG_REJ_INVALID_SERVICE_ID;
	p.cm.reason_name = "as decoded";	/* the flow keeps the decoder's name */
	rdiag_flow_add(ft, &p, 11000, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_CM_REJ);
	/* connection 3: three REQs and no answer */
	p = cm_pkt(RDIAG_CM_REQ, A, B, 0x102, 0);
	for (int i = 0; i < 3; i++)
		rdiag_flow_add(ft, &p, 20000 + (uint64_t)i * 4000000000ull, &v);

	EXPECT_EQ(rdiag_flow_cm_count(ft), 3);
	EXPECT_EQ(rdiag_flow_cm_get(ft, 0, &c), 0);
	EXPECT_EQ(c.n_req, 2);
	EXPECT_EQ(c.n_rep, 1);
	EXPECT_EQ(c.n_rtu, 1);
	EXPECT_EQ(c.n_dreq, 1);
	EXPECT_EQ(c.n_drep, 1);
	EXPECT_EQ(c.client_comm_id, 0x100);
	EXPECT_EQ(c.server_comm_id, 0x200);
	EXPECT_EQ(c.client_qpn, 0x12);
	EXPECT_EQ(c.server_qpn, 0x13);
	EXPECT_EQ(c.port, 7174);
	EXPECT_EQ(c.state, RDIAG_CMS_DISCONNECTED);
	EXPECT_TRUE(!c.dreq_by_client);
	EXPECT_EQ(c.rep_ns - c.req_ns, 5000);
	EXPECT_EQ(c.req_last_ns, 5000);
	EXPECT_EQ(rdiag_flow_cm_get(ft, 1, &c), 0);
	EXPECT_EQ(c.state, RDIAG_CMS_REJECTED);
	EXPECT_EQ(c.rej_reason, 8);
	EXPECT_STREQ(c.rej_reason_name, "as decoded");
	EXPECT_TRUE(!c.rej_by_client);
	EXPECT_EQ(rdiag_flow_cm_get(ft, 2, &c), 0);
	EXPECT_EQ(c.state, RDIAG_CMS_REQ_SENT);
	EXPECT_EQ(c.n_req, 3);
	EXPECT_STREQ(rdiag_flow_cm_state_name(c.state), "req-sent");
	EXPECT_EQ(rdiag_flow_cm_get(ft, 3, &c), -ENOENT);
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.cm_msgs, 11);
	EXPECT_EQ(t.cm_rej, 1);
	EXPECT_EQ(t.cm_req_retries, 3);
	EXPECT_EQ(t.cm_conns, 3);
	rdiag_flow_close(ft);
}

static void test_cm_qp_pairing(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_pkt p;

	/* B -> A on QP 0x21 exists before the handshake completes (an early packet) */
	p = pkt(0x04, B, A, 0x21, 7);
	rdiag_flow_add(ft, &p, 1, &v);
	EXPECT_EQ(v.src_qpn, RDIAG_QPN_NONE);
	EXPECT_EQ(info(ft, 0).src_qpn, RDIAG_QPN_NONE);
	p = cm_pkt(RDIAG_CM_REQ, A, B, 0x500, 0);
	p.cm.local_qpn = 0x21;
	rdiag_flow_add(ft, &p, 2, &v);
	p = cm_pkt(RDIAG_CM_REP, B, A, 0x600, 0x500);
	p.cm.local_qpn = 0x31;
	rdiag_flow_add(ft, &p, 3, &v);
	/* the existing flow learns its sender, and a new one knows it from its first packet */
	EXPECT_EQ(info(ft, 0).src_qpn, 0x31);
	p = pkt(0x04, B, A, 0x21, 8);
	rdiag_flow_add(ft, &p, 4, &v);
	EXPECT_EQ(v.flow, 0);
	EXPECT_EQ(v.src_qpn, 0x31);	/* the verdict carries it: no call back into the table */
	p = pkt(0x04, A, B, 0x31, 100);
	rdiag_flow_add(ft, &p, 5, &v);
	EXPECT_EQ(v.src_qpn, 0x21);
	EXPECT_EQ(info(ft, (size_t)v.flow).src_qpn, 0x21);
	/* a QP pair nobody talked about gets nothing */
	p = pkt(0x04, A, B, 0x32, 100);
	rdiag_flow_add(ft, &p, 6, &v);
	EXPECT_EQ(v.src_qpn, RDIAG_QPN_NONE);
	rdiag_flow_close(ft);
}

static void test_bounded_memory(void)
{
	struct rdiag_flow_table *ft = table(16);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;

	/* 100 READs that are never answered: 84 fall out of the 16-entry table */
	for (uint32_t i = 0; i < 100; i++) {
		p = pkt(0x0c, A, B, 5, i);
		p.present |= RDIAG_HAS_RETH;
		p.reth.dmalen = 8;
		rdiag_flow_add(ft, &p, i, &v);
	}
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.pending_dropped, 84);
	EXPECT_EQ(t.reads_unanswered, 100);
	f = info(ft, 0);
	EXPECT_EQ(f.reads_unanswered, 100);
	/* a million packets over 4 QPs: 4 flows (plus the READ one), nothing per packet */
	for (uint32_t i = 0; i < 1000000; i++) {
		p = data_pkt(0x04, A, B, 100 + (i & 3), i >> 2, 64);
		rdiag_flow_add(ft, &p, 1000 + i, &v);
	}
	EXPECT_EQ(rdiag_flow_count(ft), 5);
	f = info(ft, 4);
	EXPECT_EQ(f.pkts, 250000);
	EXPECT_EQ(f.psn_gaps + f.psn_dup, 0);
	rdiag_flow_close(ft);
}

static void test_keys_and_flags(void)
{
	struct rdiag_flow_table *ft = table(0);
	struct rdiag_flow_verdict v;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;
	struct rdiag_pkt p;
	char buf[64];

	/* UD: two source QPs to one destination QP are two flows */
	p = pkt(0x64, A, B, 0x40, 0);
	p.present |= RDIAG_HAS_DETH;
	p.deth_srcqp = 0x50;
	rdiag_flow_add(ft, &p, 1, &v);
	p.deth_srcqp = 0x51;
	rdiag_flow_add(ft, &p, 2, &v);
	EXPECT_EQ(rdiag_flow_count(ft), 2);
	EXPECT_EQ(v.src_qpn, 0x51);	/* UD: the DETH source QP */
	EXPECT_EQ(info(ft, 1).src_qpn, 0x51);
	/* bad ICRC, truncated packet, and one cut before the BTH */
	p = pkt(0x04, A, B, 0x41, 7);
	p.icrc_ok = false;
	rdiag_flow_add(ft, &p, 3, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_BAD_ICRC);
	p = pkt(0x04, A, B, 0x41, 8);
	p.status = RDIAG_PKT_TRUNCATED;
	p.icrc_checked = false;
	rdiag_flow_add(ft, &p, 4, &v);
	EXPECT_TRUE(v.flags & RDIAG_FV_TRUNCATED);
	EXPECT_EQ(v.flags & RDIAG_FV_BAD_ICRC, 0);
	p = pkt(0x04, A, B, 0x41, 9);
	p.present &= ~RDIAG_HAS_BTH;
	p.status = RDIAG_PKT_TRUNCATED;
	rdiag_flow_add(ft, &p, 5, &v);
	EXPECT_EQ(v.flow, -1);
	rdiag_flow_add_other(ft);
	f = info(ft, 2);
	EXPECT_EQ(f.icrc_bad, 1);
	EXPECT_EQ(f.truncated, 1);
	EXPECT_STREQ(rdiag_flow_addr_str(f.key.kind, f.key.src, buf, sizeof(buf)), "10.0.0.1");
	{
		/* dotted quads of every octet width, as inet_ntop writes them, and "?" without room */
		static const uint8_t q[][4] = { { 0, 0, 0, 0 }, { 255, 255, 255, 255 },
						{ 10, 100, 9, 199 }, { 192, 0, 2, 30 } };
		char want[INET_ADDRSTRLEN], small[15];

		for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
			uint8_t a[16] = { 0 };

			memcpy(a, q[i], 4);
			inet_ntop(AF_INET, q[i], want, sizeof(want));
			EXPECT_STREQ(rdiag_flow_addr_str(RDIAG_ADDR_IP4, a, buf, sizeof(buf)), want);
		}
		{
			uint8_t a[16] = { 255, 255, 255, 255 };

			EXPECT_STREQ(rdiag_flow_addr_str(RDIAG_ADDR_IP4, a, small, sizeof(small)), "?");
		}
	}
	rdiag_flow_total(ft, &t);
	EXPECT_EQ(t.frames, 6);
	EXPECT_EQ(t.rdma, 5);
	EXPECT_EQ(t.no_bth, 1);
	EXPECT_EQ(t.truncated, 2);
	EXPECT_EQ(t.icrc_bad, 1);
	EXPECT_EQ(t.per_opcode_pkts[0x64], 2);
	EXPECT_EQ(rdiag_flow_get(ft, 99, &f), -ENOENT);
	/* IB without GRH: LIDs */
	p = pkt(0x04, 0, 0, 0x42, 1);
	p.ip_family = 0;
	p.encap = RDIAG_ENCAP_IB;
	p.present = RDIAG_HAS_LRH | RDIAG_HAS_BTH;
	p.lrh.slid = 0x12;
	p.lrh.dlid = 0x34;
	rdiag_flow_add(ft, &p, 6, &v);
	f = info(ft, 3);
	EXPECT_EQ(f.key.kind, RDIAG_ADDR_LID);
	EXPECT_STREQ(rdiag_flow_addr_str(f.key.kind, f.key.dst, buf, sizeof(buf)), "lid 0x0034");
	rdiag_flow_close(ft);
}

/* a table full at max_flows says so in its errmsg; errmsg(NULL) is the open's reason */
static void test_errmsg(void)
{
	struct rdiag_flow_opts o = { .max_flows = 1 };
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_pkt p;

	EXPECT_EQ(rdiag_flow_open(NULL, &o), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_flow_errmsg(NULL), "rdiag_flow_open") != NULL);
	EXPECT_EQ(rdiag_flow_open(&ft, &o), 0);
	if (!ft)
		return;
	p = data_pkt(0x01, A, B, 0x11, 1, 1024);
	EXPECT_EQ(rdiag_flow_add(ft, &p, 0, NULL), 0);
	EXPECT_STREQ(rdiag_flow_errmsg(ft), "");
	p = data_pkt(0x01, A, B, 0x12, 1, 1024);
	EXPECT_EQ(rdiag_flow_add(ft, &p, US, NULL), -ENOSPC);
	EXPECT_STREQ(rdiag_flow_errmsg(ft), "more than 1 flows: packet counted only");
	rdiag_flow_close(ft);
}

int main(void)
{
	test_psn_arith();
	test_hist();
	test_hist_exact();
	test_in_order_with_wrap();
	test_gap_dup_ooo();
	test_late_fill_is_retransmission();
	test_nak_makes_fill_a_retransmission();
	test_read_pairing();
	test_read_unknown_mtu();
	test_ack_latency_and_naks();
	test_ecn_cnp();
	test_cnp_needs_prior_ce();
	test_traffic();
	test_cm();
	test_cm_qp_pairing();
	test_bounded_memory();
	test_keys_and_flags();
	test_errmsg();
	return tap_done();
}
