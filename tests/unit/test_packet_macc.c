/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAC control frames: 802.3x PAUSE and 802.1Qbb PFC (lib/packet/macc.c).
 *
 * Every priority-enable vector, every cut of the capture (truncated) and every short wire
 * length (invalid) of a PFC frame, the reserved octet, other opcodes, and the link layers that
 * carry an ethertype.  Cut decodes read from a heap buffer of exactly caplen bytes, so under
 * SANITIZE=address a read past it aborts the test. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "rdmadiag/packet.h"

static struct rdiag_pkt P;

/* Ethernet to 01:80:c2:00:00:01, ethertype 0x8808, padded to 60 bytes; returns the length */
static size_t frame(uint8_t *b, uint16_t opcode, const uint8_t *params, size_t n)
{
	static const uint8_t hdr[14] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,
					 0x02, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x88, 0x08 };

	memset(b, 0, 60);
	memcpy(b, hdr, 14);
	b[14] = (uint8_t)(opcode >> 8);
	b[15] = (uint8_t)opcode;
	memcpy(b + 16, params, n);
	return 60;
}

static size_t pfc(uint8_t *b, uint8_t reserved, uint8_t enable, const uint16_t q[8])
{
	uint8_t prm[18] = { reserved, enable };

	for (int i = 0; i < 8; i++) {
		prm[2 + 2 * i] = (uint8_t)(q[i] >> 8);
		prm[3 + 2 * i] = (uint8_t)q[i];
	}
	return frame(b, 0x0101, prm, sizeof(prm));
}

static int decode_copy(const uint8_t *b, uint32_t caplen, uint32_t len)
{
	uint8_t *h = malloc(caplen ? caplen : 1);
	int r;

	memcpy(h, b, caplen);
	r = rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, h, caplen, len, NULL);
	free(h);
	return r;
}

static void test_pause(void)
{
	uint8_t b[60];
	const uint8_t xoff[2] = { 0xff, 0xff }, xon[2] = { 0, 0 };

	frame(b, 0x0001, xoff, 2);
	EXPECT_EQ(rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 60, 60, NULL), 0);
	EXPECT_EQ(P.encap, RDIAG_ENCAP_PAUSE);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.present & RDIAG_HAS_MACC);
	EXPECT_EQ(P.ethertype, 0x8808);
	EXPECT_EQ(P.macc.opcode, 0x0001);
	EXPECT_EQ(P.macc.pause_quanta, 65535);
	EXPECT_EQ(P.eth_dst[5], 0x01);
	frame(b, 0x0001, xon, 2);
	EXPECT_EQ(rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 60, 60, NULL), 0);
	EXPECT_EQ(P.macc.pause_quanta, 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(!(P.present & RDIAG_HAS_BTH));
}

/* every enable vector, with times that differ per priority (set for disabled ones too) */
static void test_pfc_vectors(void)
{
	uint8_t b[60];
	int bad = 0;

	for (unsigned int e = 0; e < 256; e++) {
		uint16_t q[8];

		for (int i = 0; i < 8; i++)
			q[i] = (uint16_t)(e * 257u + (unsigned int)i * 4099u);
		pfc(b, 0, (uint8_t)e, q);
		if (rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 60, 60, NULL) != 0 ||
		    P.encap != RDIAG_ENCAP_PFC || P.status != RDIAG_PKT_OK ||
		    !(P.present & RDIAG_HAS_MACC) || P.macc.opcode != 0x0101 ||
		    P.macc.pfc_enable != e || P.macc.pfc_reserved != 0 ||
		    memcmp(P.macc.pfc_quanta, q, sizeof(q)))
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

/* caplen k < len: before the opcode is whole the frame is not known to be PAUSE/PFC (skip,
 * stopped in mac_control past the Ethernet header); after it, a truncated PFC record */
static void test_pfc_cuts(void)
{
	const uint16_t q[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t b[60];
	int bad = 0;

	pfc(b, 0, 0xff, q);
	for (uint32_t k = 0; k < 60; k++) {
		int r = decode_copy(b, k, 60);

		if (k < 16) {
			if (r != RDIAG_SKIP_SHORT ||
			    (k >= 14 && P.stopped_in != RDIAG_HDR_MACC))
				bad++;
		} else if (k < 34) {
			if (r != 0 || P.status != RDIAG_PKT_TRUNCATED || P.encap != RDIAG_ENCAP_PFC ||
			    P.stopped_in != RDIAG_HDR_MACC || (P.present & RDIAG_HAS_MACC))
				bad++;
		} else if (r != 0 || P.status != RDIAG_PKT_OK || P.macc.pfc_quanta[7] != 8) {
			bad++;
		}
	}
	EXPECT_EQ(bad, 0);
}

/* caplen = len = k: the frame itself ends inside the parameters: invalid, never truncated */
static void test_pfc_short_wire(void)
{
	const uint16_t q[8] = { 0 };
	uint8_t b[60];
	int bad = 0;

	pfc(b, 0, 0x01, q);
	for (uint32_t k = 16; k < 34; k++) {
		int r = decode_copy(b, k, k);

		if (r != 0 || P.status != RDIAG_PKT_INVALID || P.stopped_in != RDIAG_HDR_MACC ||
		    (P.present & RDIAG_HAS_MACC))
			bad++;
	}
	EXPECT_EQ(bad, 0);
	/* parameters whole, frame shorter than the 60-byte minimum (a frame captured on its way
	 * out, before the padding): fine */
	EXPECT_EQ(decode_copy(b, 34, 34), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
}

static void test_pfc_reserved(void)
{
	const uint16_t q[8] = { 0, 0, 0, 0, 0x100, 0, 0, 0 };
	uint8_t b[60];

	pfc(b, 0x80, 0x10, q);
	EXPECT_EQ(rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 60, 60, NULL), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MACC);
	EXPECT_TRUE(P.present & RDIAG_HAS_MACC);	/* read anyway */
	EXPECT_EQ(P.macc.pfc_reserved, 0x80);
	EXPECT_EQ(P.macc.pfc_enable, 0x10);
	EXPECT_EQ(P.macc.pfc_quanta[4], 0x100);
}

static void test_other_opcodes(void)
{
	const uint8_t z[18] = { 0 };
	static const uint16_t ops[] = { 0x0000, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0100,
					0x0102, 0xffff };
	uint8_t b[60];
	int bad = 0;

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		frame(b, ops[i], z, sizeof(z));
		if (rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 60, 60, NULL) != RDIAG_SKIP_ETHERTYPE)
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

/* the link layers that carry an ethertype: SLL2 (protocol field) and a VLAN tag */
static void test_links(void)
{
	const uint16_t q[8] = { 0, 0, 0, 9 };
	uint8_t e[60], b[80];

	pfc(e, 0, 0x08, q);
	memset(b, 0, sizeof(b));
	b[0] = 0x88;
	b[1] = 0x08;			/* SLL2 protocol */
	b[11] = 6;			/* halen */
	memcpy(b + 20, e + 14, 46);
	EXPECT_EQ(rdiag_pkt_decode(&P, RDIAG_DLT_LINUX_SLL2, b, 66, 66, NULL), 0);
	EXPECT_EQ(P.encap, RDIAG_ENCAP_PFC);
	EXPECT_EQ(P.macc.pfc_quanta[3], 9);

	memcpy(b, e, 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = 0x60;			/* PCP 3, VID 0 */
	b[15] = 0x00;
	memcpy(b + 16, e + 12, 48);
	EXPECT_EQ(rdiag_pkt_decode(&P, RDIAG_DLT_EN10MB, b, 64, 64, NULL), 0);
	EXPECT_EQ(P.encap, RDIAG_ENCAP_PFC);
	EXPECT_EQ(P.n_vlan, 1);
	EXPECT_EQ(P.macc.pfc_quanta[3], 9);
}

static void test_names(void)
{
	EXPECT_STREQ(rdiag_encap_name(RDIAG_ENCAP_PAUSE), "pause");
	EXPECT_STREQ(rdiag_encap_name(RDIAG_ENCAP_PFC), "pfc");
	EXPECT_STREQ(rdiag_hdr_name(RDIAG_HDR_MACC), "mac_control");
}

int main(void)
{
	test_pause();
	test_pfc_vectors();
	test_pfc_cuts();
	test_pfc_short_wire();
	test_pfc_reserved();
	test_other_opcodes();
	test_links();
	test_names();
	return tap_done();
}
