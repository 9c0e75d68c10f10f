/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* RMPP reassembly (lib/flow/flow_rmpp.c) through the public flow API, on the segments of the
 * generator's mad_rmpp.pcap (tests/gen/madfixtures.py fx_mad_rmpp: frames 2-4 are a 7-record
 * PathRecord table of DLIDs 32..38 in 3 segments, frame 5 the requester's ACK), replayed in
 * other orders: out of order, after an ABORT, and past the cap on open transfers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"

#define NFRAMES 13
static unsigned char *bytes;
static struct rdiag_pkt frame[NFRAMES + 1];	/* 1-based, as rdmadump numbers them */

static void load(const char *path)
{
	long n, off = 24;
	int i = 1;
	FILE *f = fopen(path, "rb");

	EXPECT_TRUE(f != NULL);
	if (!f)
		exit(tap_done());
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	bytes = malloc((size_t)n);
	EXPECT_EQ(fread(bytes, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	while (off + 16 <= n && i <= NFRAMES) {
		unsigned int cap, len;

		memcpy(&cap, bytes + off + 8, 4);
		memcpy(&len, bytes + off + 12, 4);
		EXPECT_EQ(rdiag_pkt_decode(&frame[i++], RDIAG_DLT_INFINIBAND, bytes + off + 16, cap,
					   len, NULL), 0);
		off += 16 + cap;
	}
	EXPECT_EQ(i, NFRAMES + 1);
}

/* add frames in this order; the verdict flags of each in fl */
static void feed(struct rdiag_flow_table *ft, const int *order, int n, uint32_t *fl,
		 struct rdiag_flow_verdict *last)
{
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(rdiag_flow_add(ft, &frame[order[i]], 1000ull * (unsigned)i, last), 0);
		fl[i] = last->flags & (RDIAG_FV_RMPP_DONE | RDIAG_FV_RMPP_MISSING |
				       RDIAG_FV_RMPP_DUP);
	}
}

/* DLID of record i of the reassembled PathRecord table (bits 320..335 of a 64-byte record) */
static unsigned int dlid(const struct rdiag_flow_verdict *v, unsigned int i)
{
	return (unsigned int)rdiag_mad_bits(v->rmpp_data + 64 * i, 320, 16);
}

static void out_of_order(void)
{
	static const int order[] = { 4, 2, 3 };	/* last, first, middle */
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_flow_verdict v;
	uint32_t fl[3];

	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	feed(ft, order, 3, fl, &v);
	EXPECT_EQ(fl[0], RDIAG_FV_RMPP_MISSING);	/* the last, segments 1 and 2 not seen */
	EXPECT_EQ(fl[1], 0);
	EXPECT_EQ(fl[2], RDIAG_FV_RMPP_DONE);
	EXPECT_EQ(v.rmpp_segments, 3);
	EXPECT_EQ(v.rmpp_len, 7 * 64);
	for (unsigned int i = 0; i < 7; i++)
		EXPECT_EQ(dlid(&v, i), 32 + i);
	rdiag_flow_close(ft);
}

static void abort_frees(void)
{
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_flow_verdict v;
	struct rdiag_pkt ab = frame[5];		/* the requester's ACK, made an ABORT */
	uint32_t fl[2];
	static const int rest[] = { 3, 4 };

	ab.mad.rmpp.type = 4;
	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	EXPECT_EQ(rdiag_flow_add(ft, &frame[2], 0, &v), 0);
	EXPECT_EQ(rdiag_flow_add(ft, &ab, 1, &v), 0);
	feed(ft, rest, 2, fl, &v);
	/* segment 1 went with the aborted transfer: the last one finds it missing */
	EXPECT_EQ(fl[0], 0);
	EXPECT_EQ(fl[1], RDIAG_FV_RMPP_MISSING);
	EXPECT_EQ(v.rmpp_missing_seg, 1);
	rdiag_flow_close(ft);
}

static void bounded(void)
{
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_flow_verdict v;
	struct rdiag_pkt p;
	uint32_t fl[2];
	static const int rest[] = { 3, 4 };

	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	EXPECT_EQ(rdiag_flow_add(ft, &frame[2], 0, &v), 0);
	/* 64 more first segments of other transfers push the oldest out */
	for (unsigned int i = 1; i <= 64; i++) {
		p = frame[2];
		p.mad.tid += 0x1000 + i;
		EXPECT_EQ(rdiag_flow_add(ft, &p, i, &v), 0);
	}
	feed(ft, rest, 2, fl, &v);
	EXPECT_EQ(fl[1], RDIAG_FV_RMPP_MISSING);
	EXPECT_EQ(v.rmpp_missing_seg, 1);
	rdiag_flow_close(ft);
}

static void in_capture_order(void)
{
	int order[NFRAMES];
	uint32_t fl[NFRAMES];
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_flow_verdict v;

	for (int i = 0; i < NFRAMES; i++)
		order[i] = i + 1;
	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	feed(ft, order, NFRAMES, fl, &v);
	/* what the generator wrote: frame 4 completes, 8 lacks segment 2, 12 is a resend,
	 * 13 completes */
	for (int i = 0; i < NFRAMES; i++) {
		uint32_t want = i + 1 == 4 || i + 1 == 13 ? RDIAG_FV_RMPP_DONE :
				i + 1 == 8 ? RDIAG_FV_RMPP_MISSING :
				i + 1 == 12 ? RDIAG_FV_RMPP_DUP : 0;

		EXPECT_EQ(fl[i], want);
	}
	EXPECT_EQ(dlid(&v, 0), 64);
	EXPECT_EQ(dlid(&v, 6), 70);
	rdiag_flow_close(ft);
}

int main(void)
{
	load("tests/fixtures/pcap/mad_rmpp.pcap");
	in_capture_order();
	out_of_order();
	abort_frees();
	bounded();
	free(bytes);
	return tap_done();
}
