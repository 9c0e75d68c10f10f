/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ICRC and VCRC.
 *
 * Known answers come from real rdma_rxe traffic (rxe_vectors.h: frames captured by the
 * real-kernel tier, Debian 6.1 kernel, ICRC computed by the kernel) -- byte order and masking
 * are therefore the kernel's, not this project's reading of the spec.  IPv6, RoCEv1 and IB
 * vectors come from gen_packet_vectors.py (its ICRC code reproduces scapy.contrib.roce on
 * IPv4).  The VCRC table is checked against a bit-by-bit CRC written here. */
#include <stdlib.h>
#include <libdeflate.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "packet_vectors.h"
#include "rxe_vectors.h"

static struct rdiag_pkt P;

static uint16_t vcrc_bitwise(const uint8_t *d, size_t n)
{
	uint16_t c = 0xffff;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= d[i];
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (uint16_t)((c >> 1) ^ 0xD008) : (uint16_t)(c >> 1);
	}
	return c ^ 0xffff;
}

static const struct pvec *pv(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_PVECS; i++)
		if (!strcmp(pvecs[i].name, name))
			return &pvecs[i];
	exit(2);
}

/* flip each bit of bytes [from, to) in turn; count how often the ICRC still verifies */
static unsigned int flips_passing(const uint8_t *d, unsigned int n, int lt, unsigned int from,
				  unsigned int to)
{
	uint8_t *b = malloc(n);
	unsigned int k, bit, pass = 0;

	for (k = from; k < to; k++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(b, d, n);
			b[k] ^= (uint8_t)(1u << bit);
			rdiag_pkt_decode(&P, lt, b, n, n, NULL);
			pass += P.icrc_checked && P.icrc_ok;
		}
	free(b);
	return pass;
}

int main(void)
{
	unsigned int i;

	/* libdeflate_crc32 is the CRC-32 the ICRC uses (check value of "123456789"), and it chains:
	 * the CRC of a message split in two is the CRC of the whole, as the ICRC needs */
	EXPECT_EQ(libdeflate_crc32(0, "123456789", 9), 0xCBF43926u);
	EXPECT_EQ(libdeflate_crc32(libdeflate_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);

	/* real rxe frames: every one decodes cleanly and its kernel-made ICRC verifies */
	for (i = 0; i < N_RXE_VECS; i++) {
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, rxe_vecs[i].data, rxe_vecs[i].len,
					   rxe_vecs[i].len, NULL), 0);
		printf("# rxe %s: %s icrc %08x\n", rxe_vecs[i].name, rdiag_opcode_name(P.bth.opcode),
		       P.icrc);
		EXPECT_EQ(P.status, RDIAG_PKT_OK);
		EXPECT_TRUE(P.icrc_checked && P.icrc_ok);
	}
	/* known answers: the values rxe put on the wire (tshark shows them byte-swapped, it
	 * reads the 4 bytes big-endian) */
	rdiag_pkt_decode(&P, 1, rxe_cm_req, sizeof(rxe_cm_req), sizeof(rxe_cm_req), NULL);
	EXPECT_EQ(P.icrc_computed, 0x2761aa20u);
	rdiag_pkt_decode(&P, 1, rxe_cm_rep, sizeof(rxe_cm_rep), sizeof(rxe_cm_rep), NULL);
	EXPECT_EQ(P.icrc_computed, 0xaca9f5e5u);
	rdiag_pkt_decode(&P, 1, rxe_cm_rtu, sizeof(rxe_cm_rtu), sizeof(rxe_cm_rtu), NULL);
	EXPECT_EQ(P.icrc_computed, 0xdbd76b23u);

	/* a real rping REQ: the rdma_cm service ID and IP private data */
	rdiag_pkt_decode(&P, 1, rxe_cm_req, sizeof(rxe_cm_req), sizeof(rxe_cm_req), NULL);
	EXPECT_TRUE(P.present & RDIAG_HAS_CM);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_REQ);
	EXPECT_EQ(P.cm.port_space, RDIAG_PS_TCP);
	EXPECT_EQ(P.cm.port, 7174);		/* rping's default port */
	EXPECT_EQ(P.cm.path_mtu, 3);		/* 1024 on a 1500-byte veth */
	EXPECT_TRUE(P.cm.has_ip);
	EXPECT_EQ(P.cm.ip_dst[0], 198);
	EXPECT_EQ(P.cm.ip_dst[3], 2);
	EXPECT_EQ(P.cm.ip_src[3], 1);
	rdiag_pkt_decode(&P, 1, rxe_nak_seq, sizeof(rxe_nak_seq), sizeof(rxe_nak_seq), NULL);
	EXPECT_EQ(P.aeth.kind, RDIAG_AETH_NAK);
	EXPECT_STREQ(P.aeth.nak_name, "PSN_SEQ_ERR");

	/* every single-bit error in a covered field of a real frame is caught; the masked
	 * fields (TOS 15, TTL 22, IP checksum 24-25, UDP checksum 40-41, BTH byte 4 = 46)
	 * never matter */
	{
		unsigned int n = sizeof(rxe_read_req), masked = 0;

		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 14, 15), 0);
		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 16, 22), 0);
		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 23, 24), 0);
		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 26, 40), 0);
		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 42, 46), 0);
		EXPECT_EQ(flips_passing(rxe_read_req, n, 1, 47, n), 0);
		masked += flips_passing(rxe_read_req, n, 1, 15, 16);
		masked += flips_passing(rxe_read_req, n, 1, 22, 23);
		masked += flips_passing(rxe_read_req, n, 1, 24, 26);
		masked += flips_passing(rxe_read_req, n, 1, 40, 42);
		masked += flips_passing(rxe_read_req, n, 1, 46, 47);
		EXPECT_EQ(masked, 7 * 8);
		/* ECN CE marked by a switch (TOS low bits) keeps the ICRC valid */
	}

	/* IPv6: traffic class + flow label (bytes 0.low-3) and hop limit (7) are masked */
	{
		const struct pvec *v = pv("v6_write_only");
		unsigned int ip = 14;

		EXPECT_EQ(flips_passing(v->data, v->len, 1, ip + 1, ip + 4), 24);
		EXPECT_EQ(flips_passing(v->data, v->len, 1, ip + 7, ip + 8), 8);
		EXPECT_EQ(flips_passing(v->data, v->len, 1, ip + 4, ip + 7), 0);	/* paylen, nh */
		EXPECT_EQ(flips_passing(v->data, v->len, 1, ip + 8, ip + 40), 0);	/* addresses */
	}
	/* RoCEv1: GRH TClass/FlowLabel/HopLmt masked, GIDs covered */
	{
		const struct pvec *v = pv("rocev1_send");

		EXPECT_EQ(flips_passing(v->data, v->len, 1, 15, 18), 24);
		EXPECT_EQ(flips_passing(v->data, v->len, 1, 21, 22), 8);
		EXPECT_EQ(flips_passing(v->data, v->len, 1, 22, 54), 0);
	}
	/* IB local: only the VL nibble of the LRH is masked (the VCRC still catches it) */
	{
		const struct pvec *v = pv("ib_local_send");
		uint8_t b[64];

		EXPECT_EQ(flips_passing(v->data, v->len, 247, 0, 1), 4);
		EXPECT_EQ(flips_passing(v->data, v->len, 247, 1, 8), 0);
		memcpy(b, v->data, v->len);
		b[0] ^= 0x10;
		rdiag_pkt_decode(&P, 247, b, v->len, v->len, NULL);
		EXPECT_TRUE(P.icrc_ok && P.vcrc_checked && !P.vcrc_ok);
	}
	/* IB global: the whole LRH counts as ones (a router rewrites it) */
	{
		const struct pvec *v = pv("ib_global_ack");

		/* VL/LVer, DLID, SLID (LNH and PktLen change the parse itself) */
		EXPECT_EQ(flips_passing(v->data, v->len, 247, 0, 1) +
			  flips_passing(v->data, v->len, 247, 2, 4) +
			  flips_passing(v->data, v->len, 247, 6, 8), 40);
		/* GRH byte 0: IPVer flips make the GRH invalid, TClass bits are masked */
		EXPECT_EQ(flips_passing(v->data, v->len, 247, 8, 9), 4);
	}

	/* VCRC: the table-driven CRC-16 equals the bit-by-bit one */
	{
		uint8_t buf[300];
		unsigned int n, bad = 0;

		srand(1);
		for (n = 0; n < sizeof(buf); n++) {
			unsigned int k;

			for (k = 0; k < n; k++)
				buf[k] = (uint8_t)rand();
			bad += rdiag_vcrc16(buf, n) != vcrc_bitwise(buf, n);
		}
		EXPECT_EQ(bad, 0);
		EXPECT_EQ(rdiag_vcrc16((const uint8_t *)"123456789", 9),
			  vcrc_bitwise((const uint8_t *)"123456789", 9));
		EXPECT_EQ(rdiag_vcrc16(NULL, 3), 0);
	}
	return tap_done();
}
