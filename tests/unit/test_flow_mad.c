/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAD transactions, fabric events and key mismatches (lib/flow/flow_mad.c) through the public
 * flow API, on the generator's MAD captures (tests/gen/madfixtures.py says what it wrote: the
 * expectations below are those numbers), read with a minimal pcap reader so that no libpcap
 * is needed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"

#define FIX "tests/fixtures/pcap/"

/* decode and account every record of a little-endian microsecond pcap; the frames stay in
 * memory (rdiag_pkt.data points into them) until the table is closed */
static struct rdiag_flow_table *replay(const char *path, unsigned char **keep)
{
	struct rdiag_flow_table *ft = NULL;
	unsigned char *d;
	long n, off = 24;
	FILE *f = fopen(path, "rb");

	EXPECT_TRUE(f != NULL);
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	d = malloc((size_t)n);
	EXPECT_EQ(fread(d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	EXPECT_EQ(rdiag_flow_open(&ft, NULL), 0);
	while (off + 16 <= n) {
		unsigned int sec, usec, cap, len;
		struct rdiag_flow_verdict v;
		struct rdiag_pkt p;

		memcpy(&sec, d + off, 4);
		memcpy(&usec, d + off + 4, 4);
		memcpy(&cap, d + off + 8, 4);
		memcpy(&len, d + off + 12, 4);
		if (rdiag_pkt_decode(&p, RDIAG_DLT_INFINIBAND, d + off + 16, cap, len, NULL) == 0)
			rdiag_flow_add(ft, &p, sec * 1000000000ull + usec * 1000ull, &v);
		off += 16 + cap;
	}
	*keep = d;
	return ft;
}

static void smp(void)
{
	unsigned char *d;
	struct rdiag_flow_table *ft = replay(FIX "mad_smp.pcap", &d);
	struct rdiag_mad_txn t;
	struct rdiag_fabric_event e;
	size_t i, n = rdiag_flow_mad_txn_count(ft), unanswered = 0, traps = 0;

	/* 3 DR, 8 + 2 LID-routed Gets, 2 Sets, 2 Traps, 1 error status, 1 never answered */
	EXPECT_EQ(n, 19);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(rdiag_flow_mad_txn_get(ft, i, &t), 0);
		if (!t.answered) {
			unanswered++;
			EXPECT_EQ(t.sends, 3);
			EXPECT_U64(t.retry_gap_min_ns, 200000000);
			EXPECT_U64(t.retry_gap_max_ns, 200000000);
			EXPECT_EQ(t.attr_id, 0x0015);
		}
		if (t.method == 0x05) {
			traps++;
			EXPECT_TRUE(t.answered);
			EXPECT_EQ(t.resp_method, 0x07);		/* TrapRepress */
		}
		if (i == 1) {
			/* the DR NodeInfo through port 1: answered 25 us later, D bit not status */
			EXPECT_EQ(t.mgmt_class, 0x81);
			EXPECT_U64(t.latency_ns, 25000);
			EXPECT_EQ(t.status, 0);
		}
	}
	EXPECT_EQ(unanswered, 1);
	EXPECT_EQ(traps, 2);
	EXPECT_EQ(rdiag_flow_mad_txn_get(ft, n, &t), -ENOENT);
	EXPECT_EQ(rdiag_flow_fabric_event_count(ft), 4);
	EXPECT_EQ(rdiag_flow_fabric_event_get(ft, 0, &e), 0);
	EXPECT_EQ(e.what, RDIAG_FE_PORT_STATE);
	EXPECT_EQ(e.lid, 5);
	EXPECT_EQ(e.port, 1);
	EXPECT_EQ(e.old_state, 1);
	EXPECT_EQ(e.new_state, 3);
	EXPECT_EQ(rdiag_flow_fabric_event_get(ft, 2, &e), 0);
	EXPECT_EQ(e.what, RDIAG_FE_TRAP);
	EXPECT_EQ(e.trap_number, 128);
	EXPECT_EQ(e.issuer_lid, 2);
	EXPECT_EQ(rdiag_flow_key_mismatch_count(ft), 0);
	rdiag_flow_close(ft);
	free(d);
}

static void sa(void)
{
	unsigned char *d;
	struct rdiag_flow_table *ft = replay(FIX "mad_sa.pcap", &d);
	struct rdiag_mad_stat s;
	struct rdiag_mad_txn t;
	bool found = false;

	/* the PathRecord GetTable answered in 3 RMPP segments, then acknowledged: one
	 * transaction, no retry (neither the ACK nor segments 2 and 3 are sends) */
	EXPECT_EQ(rdiag_flow_mad_txn_get(ft, 1, &t), 0);
	EXPECT_EQ(t.method, 0x12);
	EXPECT_EQ(t.sends, 1);
	EXPECT_EQ(t.resp_segments, 3);
	EXPECT_U64(t.latency_ns, 300000);
	for (size_t i = 0; i < rdiag_flow_mad_stat_count(ft); i++) {
		EXPECT_EQ(rdiag_flow_mad_stat_get(ft, i, &s), 0);
		if (s.mgmt_class == 0x03 && s.attr_id == 0x0035) {
			found = true;
			EXPECT_EQ(s.requests, 5);
			EXPECT_EQ(s.answered, 4);
			EXPECT_EQ(s.unanswered, 1);
			EXPECT_EQ(s.retries, 2);
			EXPECT_EQ(s.error_status, 1);
			EXPECT_EQ(s.lat.n, 4);
			EXPECT_U64(s.lat.min_ns, 80000);
			EXPECT_U64(s.lat.max_ns, 300000);
		}
	}
	EXPECT_TRUE(found);
	rdiag_flow_close(ft);
	free(d);
}

static void keys(void)
{
	unsigned char *d;
	struct rdiag_flow_table *ft = replay(FIX "mad_cm_lap_sidr.pcap", &d);
	struct rdiag_key_mismatch x;

	EXPECT_EQ(rdiag_flow_key_mismatch_count(ft), 2);
	EXPECT_EQ(rdiag_flow_key_mismatch_get(ft, 0, &x), 0);
	EXPECT_EQ(x.what, RDIAG_KEY_PKEY_REQ);
	EXPECT_EQ(x.expected, 0x8001);
	EXPECT_EQ(x.seen, 0xffff);
	EXPECT_EQ(x.destqp, 0x000201);
	EXPECT_EQ(x.packets, 1);
	EXPECT_EQ(rdiag_flow_key_mismatch_get(ft, 1, &x), 0);
	EXPECT_EQ(x.what, RDIAG_KEY_QKEY_SIDR);
	EXPECT_EQ(x.expected, 0x11111111);
	EXPECT_EQ(x.seen, 0x22222222);
	EXPECT_EQ(x.packets, 1);
	EXPECT_EQ(rdiag_flow_mad_txn_count(ft), 0);	/* CM Sends are not transactions */
	EXPECT_EQ(rdiag_flow_key_mismatch_get(NULL, 0, &x), -EINVAL);
	rdiag_flow_close(ft);
	free(d);
}

int main(void)
{
	smp();
	sa();
	keys();
	return tap_done();
}
