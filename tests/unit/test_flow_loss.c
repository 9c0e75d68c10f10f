/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit tests of lib/flow's loss classification (the fabric or the capture) and of resends by
 * cause (NAK-sequence, RNR NAK, timeout, duplicate), on hand-built packet sequences: every
 * expectation follows from the sequence alone.  RC SEND ONLY (0x04) goes A -> B to QP 0x40,
 * its responses (ACK 0x11) go B -> A to QP 0x41. */
#include <string.h>
#include <sys/socket.h>
#include "flow_pkt.h"
#include "tap.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"

#define A 1
#define B 2
#define QB 0x40
#define QA 0x41
#define US 1000ull
#define MS 1000000ull
/* send times are kept to 16 ns */
#define NEAR(a, b) ((a) + 16 > (b) && (a) < (b) + 16)

struct run {
	struct rdiag_flow_table *ft;
	uint64_t t;
	struct rdiag_flow_verdict v;
};

/* a request A -> B, dt after the previous packet; ack: the A bit */
static uint32_t req(struct run *r, uint32_t psn, uint64_t dt, bool ack)
{
	struct rdiag_pkt p = pkt(0x04, A, B, QB, psn);

	p.bth.ackreq = ack;
	rdiag_flow_add(r->ft, &p, r->t += dt, &r->v);
	return r->v.flags;
}

/* a response B -> A: kind RDIAG_AETH_ACK / _NAK (code = NAK code) / _RNR_NAK */
static uint32_t rsp(struct run *r, uint32_t psn, uint8_t kind, uint8_t code, uint32_t qp)
{
	struct rdiag_pkt p = pkt(0x11, B, A, qp, psn);

	p.present |= RDIAG_HAS_AETH;
	p.aeth.kind = kind;
	p.aeth.syndrome = (uint8_t)(kind << 5 | code);
	if (kind == RDIAG_AETH_NAK)
		p.aeth.nak = code;
	if (kind == RDIAG_AETH_RNR_NAK)
		p.aeth.timer_ms = rdiag_rnr_timer_ms(code);
	rdiag_flow_add(r->ft, &p, r->t += 20 * US, &r->v);
	return r->v.flags;
}

static void open_run(struct run *r)
{
	memset(r, 0, sizeof(*r));
	EXPECT_EQ(rdiag_flow_open(&r->ft, NULL), 0);
	r->t = 1 * MS;
}

/* flow 0 is A -> B (the requests) in every test */
static struct rdiag_flow_info req_flow(struct run *r)
{
	struct rdiag_flow_info f;

	memset(&f, 0, sizeof(f));
	EXPECT_EQ(rdiag_flow_get(r->ft, 0, &f), 0);
	return f;
}

static void test_gap_acked_is_not_captured(void)
{
	struct run r;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;

	open_run(&r);
	req(&r, 10, US, true);
	rsp(&r, 10, RDIAG_AETH_ACK, 31, QA);		/* pairs the two flows */
	req(&r, 11, US, false);
	EXPECT_TRUE(req(&r, 14, US, true) & RDIAG_FV_GAP);	/* 12, 13 not in the capture */
	f = req_flow(&r);
	EXPECT_EQ(f.psn_gaps, 1);			/* counted lost until settled */
	rsp(&r, 14, RDIAG_AETH_ACK, 31, QA);		/* the receiver had 12 and 13 */
	f = req_flow(&r);
	EXPECT_EQ(f.psn_gaps, 0);
	EXPECT_EQ(f.psn_lost, 0);
	EXPECT_EQ(f.loss.not_captured_gaps, 1);
	EXPECT_EQ(f.loss.not_captured_psns, 2);
	EXPECT_EQ(rdiag_flow_total(r.ft, &t), 0);
	EXPECT_EQ(t.psn_gaps, 0);
	EXPECT_EQ(t.loss.not_captured_gaps, 1);
	EXPECT_EQ(t.loss.not_captured_psns, 2);
	rdiag_flow_close(r.ft);
}

static void test_gap_naked_is_fabric_loss(void)
{
	struct run r;
	struct rdiag_flow_info f;

	open_run(&r);
	req(&r, 20, US, true);
	rsp(&r, 20, RDIAG_AETH_ACK, 31, QA);
	req(&r, 22, US, false);				/* 21 missing */
	rsp(&r, 21, RDIAG_AETH_NAK, 0, QA);		/* ... and the receiver says so */
	/* the resend of 21 is not in the capture either; then everything is acknowledged */
	rsp(&r, 23, RDIAG_AETH_ACK, 31, QA);
	f = req_flow(&r);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.psn_lost, 1);
	EXPECT_EQ(f.loss.not_captured_gaps, 0);
	EXPECT_EQ(f.loss.not_captured_psns, 0);
	rdiag_flow_close(r.ft);
}

static void test_gap_resent_is_fabric_loss(void)
{
	struct run r;
	struct rdiag_flow_info f;

	open_run(&r);
	req(&r, 30, US, true);
	rsp(&r, 30, RDIAG_AETH_ACK, 31, QA);
	for (uint32_t psn = 32; psn < 42; psn++)	/* 31 missing, past the reorder window */
		req(&r, psn, US, false);
	EXPECT_TRUE(req(&r, 31, 10 * MS, false) & RDIAG_FV_RETX);	/* the sender resent it */
	rsp(&r, 41, RDIAG_AETH_ACK, 31, QA);
	f = req_flow(&r);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.loss.not_captured_gaps, 0);
	rdiag_flow_close(r.ft);
}

static void test_gap_unsettled_stays(void)
{
	struct run r;
	struct rdiag_flow_info f;

	open_run(&r);
	req(&r, 50, US, true);
	rsp(&r, 50, RDIAG_AETH_ACK, 31, QA);
	req(&r, 53, US, false);				/* 51, 52 missing; nothing answers */
	rsp(&r, 51, RDIAG_AETH_ACK, 31, QA);		/* covers 51 only: 52 still open */
	f = req_flow(&r);
	EXPECT_EQ(f.psn_gaps, 1);
	EXPECT_EQ(f.psn_lost, 2);
	EXPECT_EQ(f.loss.not_captured_gaps, 0);
	rdiag_flow_close(r.ft);
}

static void test_rnr_resend(void)
{
	struct run r;
	struct rdiag_flow_info f;
	uint32_t fl;

	open_run(&r);
	req(&r, 60, US, true);
	rsp(&r, 60, RDIAG_AETH_ACK, 31, QA);
	req(&r, 61, US, true);
	EXPECT_TRUE(rsp(&r, 61, RDIAG_AETH_RNR_NAK, 1, QA) & RDIAG_FV_RNR);
	fl = req(&r, 61, 1 * MS, true);
	EXPECT_TRUE(fl & RDIAG_FV_RETRY_RNR);
	EXPECT_EQ(fl & (RDIAG_FV_DUP | RDIAG_FV_RETRY_NAK | RDIAG_FV_RETRY_TIMEOUT), 0);
	EXPECT_TRUE(RDIAG_FV_ERRORS & RDIAG_FV_RETRY_RNR);
	f = req_flow(&r);
	EXPECT_EQ(f.loss.retry_rnr, 1);
	EXPECT_EQ(f.loss.duplicates, 0);
	EXPECT_EQ(f.psn_goback, 0);			/* not a go-back-N retry */
	EXPECT_EQ(f.psn_dup, 1);			/* the PSN was seen before all the same */
	/* the RNR NAK is used once: 61 again with nothing new, 1 us later, is a duplicate */
	fl = req(&r, 62, US, false);
	fl = req(&r, 61, US, false);
	EXPECT_TRUE(fl & RDIAG_FV_DUP);
	rdiag_flow_close(r.ft);
}

static void test_nak_for_another_qp_is_no_cause(void)
{
	struct run r;
	uint32_t fl;

	open_run(&r);
	req(&r, 70, US, true);
	rsp(&r, 70, RDIAG_AETH_ACK, 31, QA);		/* the sender of this flow is QP QA */
	req(&r, 71, US, true);
	rsp(&r, 71, RDIAG_AETH_RNR_NAK, 1, QA + 7);	/* to another QP of host A */
	fl = req(&r, 71, 2 * MS, true);
	EXPECT_EQ(fl & RDIAG_FV_RETRY_RNR, 0);
	EXPECT_TRUE(fl & RDIAG_FV_RETRY_TIMEOUT);
	rdiag_flow_close(r.ft);
}

static void test_timeout_go_back(void)
{
	struct run r;
	struct rdiag_flow_info f;
	struct rdiag_flow_total t;
	uint32_t fl;
	uint64_t t80;

	open_run(&r);
	req(&r, 80, US, false);
	t80 = r.t;
	req(&r, 81, US, true);
	/* no ACK, no NAK: after the ACK timer the sender goes back to 80 */
	fl = req(&r, 80, 5 * MS, false);
	EXPECT_TRUE(fl & RDIAG_FV_RETRY_TIMEOUT);
	EXPECT_TRUE(NEAR(r.v.retry_gap_ns, r.t - t80));
	fl = req(&r, 81, 10 * US, true);
	EXPECT_TRUE(fl & RDIAG_FV_RETRY_TIMEOUT);
	req(&r, 82, US, true);				/* at the front again */
	f = req_flow(&r);
	EXPECT_EQ(f.loss.retry_timeout, 2);
	EXPECT_EQ(f.psn_goback, 1);
	EXPECT_TRUE(NEAR(f.loss.timeout_gap_max_ns, 5 * MS + 10 * US));	/* 81: sent 1 us */
	EXPECT_TRUE(NEAR(f.loss.timeout_gap_min_ns, 5 * MS + 1 * US));	/* after 80 */
	EXPECT_EQ(rdiag_flow_total(r.ft, &t), 0);
	EXPECT_EQ(t.loss.retry_timeout, 2);
	EXPECT_EQ(t.loss.timeout_gap_max_ns, f.loss.timeout_gap_max_ns);
	rdiag_flow_close(r.ft);
}

static void test_nak_seq_go_back_and_duplicate(void)
{
	struct run r;
	struct rdiag_flow_info f;
	uint32_t fl;

	open_run(&r);
	req(&r, 90, US, true);
	rsp(&r, 90, RDIAG_AETH_ACK, 31, QA);
	req(&r, 92, US, false);				/* 91 lost */
	req(&r, 93, US, false);
	rsp(&r, 91, RDIAG_AETH_NAK, 0, QA);
	fl = req(&r, 91, US, false);
	EXPECT_TRUE(fl & RDIAG_FV_RETX && fl & RDIAG_FV_RETRY_NAK);
	EXPECT_TRUE(req(&r, 92, US, false) & RDIAG_FV_RETRY_NAK);
	EXPECT_TRUE(req(&r, 93, US, false) & RDIAG_FV_RETRY_NAK);
	req(&r, 94, US, false);
	fl = req(&r, 94, 2 * US, false);		/* the same frame again, 2 us later */
	EXPECT_TRUE(fl & RDIAG_FV_DUP);
	EXPECT_EQ(fl & RDIAG_FV_RETRY, 0);
	f = req_flow(&r);
	EXPECT_EQ(f.loss.retry_nak_seq, 3);
	EXPECT_EQ(f.loss.duplicates, 1);
	EXPECT_EQ(f.psn_goback, 1);			/* the duplicate starts no retry */
	/* every resent request has one cause: retries + duplicates = resent lost + seen before */
	EXPECT_EQ(f.loss.retry_nak_seq + f.loss.retry_rnr + f.loss.retry_timeout +
		  f.loss.duplicates, f.psn_retx + f.psn_dup);
	rdiag_flow_close(r.ft);
}

int main(void)
{
	test_gap_acked_is_not_captured();
	test_gap_naked_is_fabric_loss();
	test_gap_resent_is_fabric_loss();
	test_gap_unsettled_stays();
	test_rnr_resend();
	test_nak_for_another_qp_is_no_cause();
	test_timeout_go_back();
	test_nak_seq_go_back_and_duplicate();
	return tap_done();
}
