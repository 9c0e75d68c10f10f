/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Every truncation point of every vector.
 *
 * A: the capture is cut (caplen = k < len): the decoder must say TRUNCATED, keep every header
 *    it did decode identical to the full decode, never claim the header it stopped in, and
 *    identify the packet as RDMA exactly when the identifying header was captured.
 * B: the frame itself is short (caplen = len = k): nothing may be called truncated; the
 *    length fields now lie, so the packet is INVALID.
 * Each decode reads from a heap buffer of exactly k bytes, so under SANITIZE=address any
 * read past caplen aborts the test. */
#include <stdlib.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "packet_vectors.h"
#include "rxe_vectors.h"

static int popcount(uint32_t v)
{
	return __builtin_popcount(v);
}

/* the offset at which the packet is known to be RDMA */
static uint32_t ident_point(const struct rdiag_pkt *f)
{
	switch (f->encap) {
	case RDIAG_ENCAP_ROCEV2:
		return f->bth_off;		/* whole UDP header */
	case RDIAG_ENCAP_ROCEV1:
		return f->bth_off - 40;		/* Ethernet (+ tags): the ethertype */
	default:
		return 8;			/* LRH */
	}
}

#define SAME(field) (!memcmp(&a->field, &f->field, sizeof(f->field)))

/* fields of every header present in a are the ones of the full decode f */
static int same_fields(const struct rdiag_pkt *a, const struct rdiag_pkt *f)
{
	uint32_t m = a->present;
	int bad = 0;

	if (m & RDIAG_HAS(RDIAG_HDR_LINK))
		bad += !SAME(eth_dst) + !SAME(eth_src);
	if (m & RDIAG_HAS(RDIAG_HDR_VLAN))
		bad += !SAME(vlan[0]);
	if (m & (RDIAG_HAS(RDIAG_HDR_IPV4) | RDIAG_HAS(RDIAG_HDR_IPV6)))
		bad += !SAME(ip_src) + !SAME(ip_dst) + !SAME(dscp) + !SAME(ecn) + !SAME(ttl);
	if (m & RDIAG_HAS(RDIAG_HDR_UDP))
		bad += !SAME(sport) + !SAME(dport) + !SAME(udp_len);
	if (m & RDIAG_HAS_LRH)
		bad += !SAME(lrh);
	if (m & RDIAG_HAS_GRH)
		bad += !SAME(grh);
	if (m & RDIAG_HAS_BTH)
		bad += !SAME(bth);
	if (m & RDIAG_HAS(RDIAG_HDR_RDETH))
		bad += !SAME(rdeth_eecnxt);
	if (m & RDIAG_HAS_DETH)
		bad += !SAME(deth_qkey) + !SAME(deth_srcqp);
	if (m & RDIAG_HAS(RDIAG_HDR_XRCETH))
		bad += !SAME(xrceth_xrcsrq);
	if (m & RDIAG_HAS_RETH)
		bad += !SAME(reth);
	if (m & RDIAG_HAS(RDIAG_HDR_ATOMICETH))
		bad += !SAME(atomiceth);
	if (m & RDIAG_HAS_AETH)
		bad += !SAME(aeth);
	if (m & RDIAG_HAS(RDIAG_HDR_ATOMICACKETH))
		bad += !SAME(atomicacketh_orig);
	if (m & RDIAG_HAS(RDIAG_HDR_IMMDT))
		bad += !SAME(immdt);
	if (m & RDIAG_HAS(RDIAG_HDR_IETH))
		bad += !SAME(ieth_rkey);
	if (m & RDIAG_HAS(RDIAG_HDR_FETH))
		bad += !SAME(feth);
	if (m & RDIAG_HAS(RDIAG_HDR_PAYLOAD))
		bad += !SAME(payload_off) + !SAME(payload_len) + !SAME(pad);
	if (m & RDIAG_HAS_MAD)
		bad += !SAME(mad.base_version) + !SAME(mad.mgmt_class) + !SAME(mad.method) +
		       !SAME(mad.status) + !SAME(mad.tid) + !SAME(mad.attr_id) +
		       !SAME(mad.attr_mod);
	/* a cut SA segment keeps fewer records: where they are and their layout are the same */
	if (m & RDIAG_HAS_MAD_DATA)
		bad += !SAME(mad.layout) + !SAME(mad.data_off) + !SAME(mad.rec_stride);
	if (m & RDIAG_HAS_CM)
		bad += !SAME(cm.msg) + !SAME(cm.local_comm_id) + !SAME(cm.remote_comm_id) +
		       !SAME(cm.service_id) + !SAME(cm.local_qpn) + !SAME(cm.reason);
	return bad;
}

static struct rdiag_pkt full, cut;

/* the MAD and what follows it are in the payload: a cut there leaves them out */
#define MAD_PARTS (RDIAG_HAS_MAD | RDIAG_HAS_CM | RDIAG_HAS_RMPP | RDIAG_HAS_MAD_CLASS | \
		   RDIAG_HAS_MAD_DATA)

/* every cut point of one frame: A (capture cut) and B (short frame) */
static void cut_everywhere(const char *name, int linktype, const uint8_t *data, uint32_t len)
{
	uint32_t k, ident, bad_status = 0, bad_rc = 0, bad_fields = 0, bad_stop = 0;
	uint32_t bad_mono = 0, bad_b = 0, hdrs_end;
	int prev = 0;

	EXPECT_EQ(rdiag_pkt_decode(&full, linktype, data, len, len, NULL), 0);
	ident = ident_point(&full);
	hdrs_end = full.payload_off;
	for (k = 0; k < len; k++) {
		uint8_t *b = malloc(k ? k : 1);
		int r, n;

		memcpy(b, data, k);
		/* A: capture cut at k */
		r = rdiag_pkt_decode(&cut, linktype, b, k, len, NULL);
		if (r != (k >= ident ? 0 : RDIAG_SKIP_SHORT))
			bad_rc++;
		if (cut.status != RDIAG_PKT_TRUNCATED)
			bad_status++;
		if ((cut.present & ~full.present) || same_fields(&cut, &full))
			bad_fields++;
		/* (a VLAN stack may be cut after some of its tags were read) */
		if (cut.stopped_in == RDIAG_HDR_NONE ||
		    (cut.stopped_in != RDIAG_HDR_PAYLOAD &&
		     cut.stopped_in != RDIAG_HDR_VLAN &&
		     (cut.present & RDIAG_HAS(cut.stopped_in))))
			bad_stop++;
		/* once every header before the payload is captured, all are there */
		if (k >= hdrs_end &&
		    (cut.present | RDIAG_HAS_ICRC | RDIAG_HAS(RDIAG_HDR_VCRC) | MAD_PARTS) !=
		    (full.present | RDIAG_HAS_ICRC | RDIAG_HAS(RDIAG_HDR_VCRC) | MAD_PARTS))
			bad_fields++;
		/* the ICRC is checked only when all of it was captured (IB: VCRC cut) */
		if (cut.icrc_checked != (full.encap == RDIAG_ENCAP_IB && k >= len - 2) ||
		    (cut.icrc_checked && !cut.icrc_ok))
			bad_fields++;
		n = popcount(cut.present);
		if (n < prev)
			bad_mono++;
		prev = n;

		/* B: the frame is k bytes long */
		rdiag_pkt_decode(&cut, linktype, b, k, k, NULL);
		if (full.encap == RDIAG_ENCAP_IB && k >= len - 2) {
			if (cut.status != RDIAG_PKT_OK ||
			    (cut.present & RDIAG_HAS(RDIAG_HDR_VCRC)))
				bad_b++;
		} else if (cut.status != RDIAG_PKT_INVALID) {
			bad_b++;
		}
		free(b);
	}
	printf("# %s: %u cut points\n", name, len);
	EXPECT_EQ(bad_rc, 0);
	EXPECT_EQ(bad_status, 0);
	EXPECT_EQ(bad_fields, 0);
	EXPECT_EQ(bad_stop, 0);
	EXPECT_EQ(bad_mono, 0);
	EXPECT_EQ(bad_b, 0);
	}


int main(void)
{
	unsigned int i;

	for (i = 0; i < N_PVECS; i++)
		cut_everywhere(pvecs[i].name, pvecs[i].linktype, pvecs[i].data, pvecs[i].len);
	/* and the real rxe frames (rdma_cm MADs, READ, WRITE, NAK) */
	for (i = 0; i < N_RXE_VECS; i++)
		cut_everywhere(rxe_vecs[i].name, 1, rxe_vecs[i].data, rxe_vecs[i].len);

	/* the stop point names the header that was cut: BTH, then RETH, then payload, ICRC */
	{
		const uint8_t *d = pv_v4_opts_write_first;
		uint32_t n = sizeof(pv_v4_opts_write_first), bth = 14 + 24 + 8;

		rdiag_pkt_decode(&cut, 1, d, bth + 11, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_BTH);
		rdiag_pkt_decode(&cut, 1, d, bth + 12, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_RETH);
		EXPECT_TRUE(cut.present & RDIAG_HAS_BTH);
		rdiag_pkt_decode(&cut, 1, d, bth + 28, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_PAYLOAD);
		EXPECT_TRUE(cut.present & RDIAG_HAS_RETH);
		EXPECT_EQ(cut.payload_len, 32);
		EXPECT_EQ(cut.payload_caplen, 0);
		rdiag_pkt_decode(&cut, 1, d, bth + 28 + 10, n, NULL);
		EXPECT_EQ(cut.payload_caplen, 10);
		rdiag_pkt_decode(&cut, 1, d, n - 1, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_ICRC);
		EXPECT_EQ(cut.payload_caplen, 32);
		rdiag_pkt_decode(&cut, 1, d, 14 + 10, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_IPV4);
		rdiag_pkt_decode(&cut, 1, d, 14 + 22, n, NULL);	/* inside the IP options */
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_IPV4);
		rdiag_pkt_decode(&cut, 1, d, 14 + 24 + 3, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_UDP);
	}
	/* a CM MAD cut inside the REQ body stops in CM, inside the MAD header in MAD */
	{
		uint32_t n = sizeof(pv_cm_req), pay = 14 + 20 + 8 + 12 + 8;

		rdiag_pkt_decode(&cut, 1, pv_cm_req, pay + 10, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_MAD);
		rdiag_pkt_decode(&cut, 1, pv_cm_req, pay + 24 + 100, n, NULL);
		EXPECT_EQ(cut.stopped_in, RDIAG_HDR_CM);
		EXPECT_TRUE(cut.present & RDIAG_HAS_MAD);
		EXPECT_TRUE(!(cut.present & RDIAG_HAS_CM));
		rdiag_pkt_decode(&cut, 1, pv_cm_req, pay + 24 + 150, n, NULL);
		EXPECT_TRUE(cut.present & RDIAG_HAS_CM);
		EXPECT_EQ(cut.cm.priv_len, 10);
		EXPECT_TRUE(!cut.cm.has_ip);	/* cma header not captured */
	}
	return tap_done();
}
