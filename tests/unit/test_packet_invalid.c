/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Malformed packets: length fields that lie, bad versions, impossible pads, deep VLAN
 * stacks, IPv6 extension headers, Ethernet trailers.  Each is derived from a good vector
 * by editing one field. */
#include <stdlib.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "packet_vectors.h"

static struct rdiag_pkt P;
static uint8_t B[2048];

static int dec(int lt, unsigned int n)
{
	uint8_t *b = malloc(n);
	int r;

	memcpy(b, B, n);
	r = rdiag_pkt_decode(&P, lt, b, n, n, NULL);
	free(b);
	return r;
}

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

#define LOAD(v) (memcpy(B, v, sizeof(v)), (unsigned int)sizeof(v))

int main(void)
{
	unsigned int n;
	const unsigned int ip = 14, udp = 34, bth = 42;

	/* IPv4 total length beyond the frame: malformed before it is known to be RoCE */
	n = LOAD(pv_v4_ack);
	put16(B + ip + 2, n - 14 + 1);
	EXPECT_EQ(dec(1, n), RDIAG_SKIP_SHORT);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_IPV4);
	/* IHL < 5, and a version that is not 4 */
	n = LOAD(pv_v4_ack);
	B[ip] = 0x44;
	EXPECT_EQ(dec(1, n), RDIAG_SKIP_SHORT);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	n = LOAD(pv_v4_ack);
	B[ip] = 0x55;
	EXPECT_EQ(dec(1, n), RDIAG_SKIP_SHORT);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	/* raw IPv4 link type with an IPv6 packet */
	n = LOAD(pv_ipv6_write_only);
	EXPECT_EQ(dec(228, n), RDIAG_SKIP_SHORT);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(dec(101, n), 0);		/* LINKTYPE_RAW looks at the version */

	/* UDP length < 8, and beyond the IP payload: RoCE, but invalid in UDP */
	n = LOAD(pv_v4_ack);
	put16(B + udp + 4, 7);
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_UDP);
	EXPECT_EQ(P.encap, RDIAG_ENCAP_ROCEV2);
	n = LOAD(pv_v4_ack);
	put16(B + udp + 4, n - udp + 1);
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_UDP);

	/* UDP length too short for the RETH the opcode calls for */
	n = LOAD(pv_v4_read_req);
	put16(B + udp + 4, 8 + 12 + 8);
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_RETH);
	EXPECT_TRUE(P.present & RDIAG_HAS_BTH);
	/* an ACK claiming 3 pad bytes it does not have */
	n = LOAD(pv_v4_ack);
	B[bth + 1] |= 0x30;
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_PAYLOAD);
	EXPECT_TRUE(P.present & RDIAG_HAS_AETH);

	/* RoCEv1: GRH PayLen beyond the frame; next header not IBA; IPVer not 6 */
	n = LOAD(pv_rocev1_send);
	put16(B + 14 + 4, 1000);
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.encap, RDIAG_ENCAP_ROCEV1);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_GRH);
	n = LOAD(pv_rocev1_send);
	B[14 + 6] = 0x11;
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	n = LOAD(pv_rocev1_send);
	B[14] = 0x40 | (B[14] & 0x0f);
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);

	/* IB: PktLen too small for LRH+BTH+ICRC, PktLen beyond the frame, raw packet */
	n = LOAD(pv_ib_local_send);
	put16(B + 4, 5);
	EXPECT_EQ(dec(247, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_LRH);
	n = LOAD(pv_ib_local_send);
	put16(B + 4, 100);
	EXPECT_EQ(dec(247, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	n = LOAD(pv_ib_local_send);
	B[1] &= 0xfc;
	EXPECT_EQ(dec(247, n), RDIAG_SKIP_ETHERTYPE);
	/* IB frame without a VCRC (PktLen = whole frame) */
	n = LOAD(pv_ib_local_send);
	EXPECT_EQ(dec(247, n - 2), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.icrc_ok && !(P.present & RDIAG_HAS(RDIAG_HDR_VCRC)));

	/* Ethernet trailer (padding/FCS after the IP packet) is ignored, even when cut */
	n = LOAD(pv_v4_ack);
	memset(B + n, 0xee, 6);
	EXPECT_EQ(dec(1, n + 6), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.icrc_ok);
	EXPECT_EQ(P.payload_len, 0);
	EXPECT_EQ(rdiag_pkt_decode(&P, 1, B, n + 2, n + 6, NULL), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);

	/* ten VLAN tags: eight kept, all counted, packet still decoded */
	{
		unsigned int k, m = sizeof(pv_v4_ack);

		memcpy(B, pv_v4_ack, 12);
		for (k = 0; k < 10; k++) {
			put16(B + 12 + 4 * k, k % 2 ? 0x8100 : 0x88a8);
			put16(B + 14 + 4 * k, 10 + k);
		}
		memcpy(B + 12 + 40, pv_v4_ack + 12, m - 12);
		EXPECT_EQ(dec(1, m + 40), 0);
		EXPECT_EQ(P.status, RDIAG_PKT_OK);
		EXPECT_EQ(P.n_vlan, RDIAG_VLAN_MAX);
		EXPECT_EQ(P.vlan_depth, 10);
		EXPECT_EQ(P.vlan[7].vid, 17);
		EXPECT_EQ(P.vlan[7].tpid, 0x8100);
		EXPECT_TRUE(P.icrc_ok);
		put16(B + 12 + 16, 0x9100);		/* the old QinQ TPID is a tag too */
		EXPECT_EQ(dec(1, m + 40), 0);
		EXPECT_EQ(P.vlan[4].tpid, 0x9100);
	}

	/* IPv6 hop-by-hop header before UDP is walked; a fragment header is skipped */
	{
		unsigned int m = sizeof(pv_v6_write_only), k = 14 + 40;

		memcpy(B, pv_v6_write_only, k);
		B[14 + 6] = 0;				/* next header: hop-by-hop */
		put16(B + 14 + 4, (unsigned int)(m - k + 8));
		memset(B + k, 0, 8);
		B[k] = 17;				/* then UDP */
		B[k + 2] = 1, B[k + 3] = 4;		/* PadN option */
		memcpy(B + k + 8, pv_v6_write_only + k, m - k);
		EXPECT_EQ(dec(1, m + 8), 0);
		EXPECT_EQ(P.ip_hdr_len, 48);
		EXPECT_EQ(P.bth.opcode, 0x0A);
		EXPECT_EQ(P.reth.rkey, 0x99);
		EXPECT_EQ(P.status, RDIAG_PKT_OK);
		B[k] = 44;
		EXPECT_EQ(dec(1, m + 8), RDIAG_SKIP_FRAGMENT);
	}

	/* a reserved opcode: BTH, then everything up to the ICRC is payload */
	n = LOAD(pv_v4_send_only);
	B[bth] = 0x1F;
	EXPECT_EQ(dec(1, n), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_STREQ(rdiag_opcode_name(P.bth.opcode), "RESERVED");
	EXPECT_EQ(P.payload_len, 13);
	EXPECT_TRUE(!P.icrc_ok);		/* the opcode byte is covered */
	return tap_done();
}
