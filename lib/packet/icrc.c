/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ICRC (CRC-32, libdeflate's libdeflate_crc32(): PCLMUL folding where the CPU has it) and the
 * native-IB VCRC (CRC-16).
 *
 * ICRC: the CRC covers the packet from the first header that is invariant end to end,
 * with the fields a switch or router may rewrite replaced by ones (IBTA vol 1 7.8.1;
 * RoCEv2 annex A17; rdma-reference §3.14):
 *   RoCEv2  8 bytes of 0xFF (stand-in for the LRH), IP header (IPv4 TOS, TTL, checksum;
 *           IPv6 traffic class, flow label, hop limit as ones), UDP header (checksum as
 *           ones), BTH (FECN/BECN/resv byte as ones), the rest up to the ICRC;
 *   RoCEv1  8 x 0xFF, GRH (TClass, FlowLabel, HopLmt as ones), BTH masked, rest;
 *   IB      with a GRH: the LRH is all ones (a router rewrites it), GRH masked as above;
 *           without: the LRH with its VL as ones; then BTH masked and the rest.
 * The result equals what rxe (rxe_icrc.c) and scapy.contrib.roce put on the wire: the
 * CRC-32 value stored least significant byte first.
 *
 * VCRC: CRC-16 with polynomial x^16+x^12+x^3+x+1 (0x100B), reflected (0xD008), initial
 * value and final XOR 0xFFFF, over LRH..ICRC (IBTA vol 1 7.8.2).  The table below is the
 * byte-wise form of that polynomial (generated; see tests/unit/test_packet_icrc.c which checks it
 * against a bit-by-bit computation). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <libdeflate.h>

#include "internal.h"

static const uint8_t ones8[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* The masked headers are gathered into one small buffer so the whole ICRC is two CRC-32
 * calls (masked headers, then the rest in place); no copy of the payload is ever made. */
struct hbuf {
	uint8_t b[8 + 60 + 8 + RD_GRH_LEN + RD_BTH_LEN];	/* worst case: IPv4 + options */
	uint32_t n;
};

static uint8_t *hb_put(struct hbuf *h, const uint8_t *src, uint32_t n)
{
	uint8_t *d = h->b + h->n;

	memcpy(d, src, n);
	h->n += n;
	return d;
}

/* GRH with TClass, FlowLabel and HopLmt as ones (IPVer, PayLen, NxtHdr, GIDs kept) */
static void put_grh(struct hbuf *h, const uint8_t *g)
{
	uint8_t *m = hb_put(h, g, RD_GRH_LEN);

	m[0] |= 0x0f;
	m[1] = m[2] = m[3] = 0xff;
	m[7] = 0xff;
}

int rd_icrc(const struct rd_cur *c, const struct rdiag_pkt *p, uint32_t icrc_off,
	    uint32_t *out)
{
	struct hbuf h;		/* b is written before it is read: not cleared per packet */
	uint32_t crc;
	uint8_t *m;
	const uint8_t *b, *ext = NULL;
	uint32_t bth = p->bth_off, ext_len = 0;

	if (!(p->present & RDIAG_HAS_BTH) || icrc_off < bth + RD_BTH_LEN)
		return -EINVAL;
	h.n = 0;

	switch (p->encap) {
	case RDIAG_ENCAP_ROCEV2: {
		uint32_t hl = p->ip_hdr_len, udp = p->ip_off + hl;

		if (!(p->present & RDIAG_HAS(RDIAG_HDR_UDP)) || udp + 8 != bth)
			return -EINVAL;
		if (p->ip_family == AF_INET ? (hl < 20 || hl > 60) : hl < 40)
			return -EINVAL;
		b = rd_at(c, p->ip_off, hl + 8);
		if (!b)
			return -ENODATA;
		hb_put(&h, ones8, 8);
		if (p->ip_family == AF_INET) {
			m = hb_put(&h, b, hl);
			m[1] = 0xff;			/* TOS */
			m[8] = 0xff;			/* TTL */
			m[10] = m[11] = 0xff;		/* header checksum */
		} else {
			m = hb_put(&h, b, 40);
			m[0] |= 0x0f;			/* traffic class ... */
			m[1] = m[2] = m[3] = 0xff;	/* ... and flow label */
			m[7] = 0xff;			/* hop limit */
			ext = b + 40;			/* extension headers as sent */
			ext_len = hl - 40;
		}
		break;
	}
	case RDIAG_ENCAP_ROCEV1:
		if (!(p->present & RDIAG_HAS_GRH) || bth < RD_GRH_LEN)
			return -EINVAL;
		b = rd_at(c, bth - RD_GRH_LEN, RD_GRH_LEN);
		if (!b)
			return -ENODATA;
		hb_put(&h, ones8, 8);
		put_grh(&h, b);
		break;
	case RDIAG_ENCAP_IB:
		if (p->present & RDIAG_HAS_GRH) {
			if (bth != RD_LRH_LEN + RD_GRH_LEN)
				return -EINVAL;
			b = rd_at(c, RD_LRH_LEN, RD_GRH_LEN);
			if (!b)
				return -ENODATA;
			hb_put(&h, ones8, 8);
			put_grh(&h, b);
		} else {
			if (bth != RD_LRH_LEN)
				return -EINVAL;
			b = rd_at(c, 0, RD_LRH_LEN);
			if (!b)
				return -ENODATA;
			m = hb_put(&h, b, RD_LRH_LEN);
			m[0] |= 0xf0;			/* VL */
		}
		break;
	default:
		return -EINVAL;
	}

	b = rd_at(c, bth, icrc_off - bth);
	if (!b)
		return -ENODATA;
	crc = 0;						/* libdeflate_crc32's initial value */
	if (ext_len) {
		/* IPv6 extension headers sit between the masked IP and UDP headers */
		crc = libdeflate_crc32(crc, h.b, h.n);
		crc = libdeflate_crc32(crc, ext, ext_len);
		h.n = 0;
	}
	if (p->encap == RDIAG_ENCAP_ROCEV2) {
		m = hb_put(&h, b - 8, 8);		/* UDP header */
		m[6] = m[7] = 0xff;			/* UDP checksum */
	}
	m = hb_put(&h, b, RD_BTH_LEN);
	m[4] = 0xff;					/* FECN, BECN, resv6 */
	crc = libdeflate_crc32(crc, h.b, h.n);
	crc = libdeflate_crc32(crc, b + RD_BTH_LEN, icrc_off - bth - RD_BTH_LEN);
	*out = crc;
	return 0;
}

int rdiag_pkt_icrc(const struct rdiag_pkt *p, const uint8_t *data, uint32_t caplen,
		   uint32_t *icrc)
{
	struct rd_cur c;

	if (!p || !data || !icrc || !(p->present & RDIAG_HAS(RDIAG_HDR_PAYLOAD)))
		return -EINVAL;
	rd_cur_init(&c, data, caplen, p->len);
	return rd_icrc(&c, p, p->payload_off + p->payload_len + p->pad, icrc);
}

static const uint16_t vcrc_tab[256] = {
	0x0000, 0x1ba1, 0x3742, 0x2ce3, 0x6e84, 0x7525, 0x59c6, 0x4267,
	0xdd08, 0xc6a9, 0xea4a, 0xf1eb, 0xb38c, 0xa82d, 0x84ce, 0x9f6f,
	0x1a01, 0x01a0, 0x2d43, 0x36e2, 0x7485, 0x6f24, 0x43c7, 0x5866,
	0xc709, 0xdca8, 0xf04b, 0xebea, 0xa98d, 0xb22c, 0x9ecf, 0x856e,
	0x3402, 0x2fa3, 0x0340, 0x18e1, 0x5a86, 0x4127, 0x6dc4, 0x7665,
	0xe90a, 0xf2ab, 0xde48, 0xc5e9, 0x878e, 0x9c2f, 0xb0cc, 0xab6d,
	0x2e03, 0x35a2, 0x1941, 0x02e0, 0x4087, 0x5b26, 0x77c5, 0x6c64,
	0xf30b, 0xe8aa, 0xc449, 0xdfe8, 0x9d8f, 0x862e, 0xaacd, 0xb16c,
	0x6804, 0x73a5, 0x5f46, 0x44e7, 0x0680, 0x1d21, 0x31c2, 0x2a63,
	0xb50c, 0xaead, 0x824e, 0x99ef, 0xdb88, 0xc029, 0xecca, 0xf76b,
	0x7205, 0x69a4, 0x4547, 0x5ee6, 0x1c81, 0x0720, 0x2bc3, 0x3062,
	0xaf0d, 0xb4ac, 0x984f, 0x83ee, 0xc189, 0xda28, 0xf6cb, 0xed6a,
	0x5c06, 0x47a7, 0x6b44, 0x70e5, 0x3282, 0x2923, 0x05c0, 0x1e61,
	0x810e, 0x9aaf, 0xb64c, 0xaded, 0xef8a, 0xf42b, 0xd8c8, 0xc369,
	0x4607, 0x5da6, 0x7145, 0x6ae4, 0x2883, 0x3322, 0x1fc1, 0x0460,
	0x9b0f, 0x80ae, 0xac4d, 0xb7ec, 0xf58b, 0xee2a, 0xc2c9, 0xd968,
	0xd008, 0xcba9, 0xe74a, 0xfceb, 0xbe8c, 0xa52d, 0x89ce, 0x926f,
	0x0d00, 0x16a1, 0x3a42, 0x21e3, 0x6384, 0x7825, 0x54c6, 0x4f67,
	0xca09, 0xd1a8, 0xfd4b, 0xe6ea, 0xa48d, 0xbf2c, 0x93cf, 0x886e,
	0x1701, 0x0ca0, 0x2043, 0x3be2, 0x7985, 0x6224, 0x4ec7, 0x5566,
	0xe40a, 0xffab, 0xd348, 0xc8e9, 0x8a8e, 0x912f, 0xbdcc, 0xa66d,
	0x3902, 0x22a3, 0x0e40, 0x15e1, 0x5786, 0x4c27, 0x60c4, 0x7b65,
	0xfe0b, 0xe5aa, 0xc949, 0xd2e8, 0x908f, 0x8b2e, 0xa7cd, 0xbc6c,
	0x2303, 0x38a2, 0x1441, 0x0fe0, 0x4d87, 0x5626, 0x7ac5, 0x6164,
	0xb80c, 0xa3ad, 0x8f4e, 0x94ef, 0xd688, 0xcd29, 0xe1ca, 0xfa6b,
	0x6504, 0x7ea5, 0x5246, 0x49e7, 0x0b80, 0x1021, 0x3cc2, 0x2763,
	0xa20d, 0xb9ac, 0x954f, 0x8eee, 0xcc89, 0xd728, 0xfbcb, 0xe06a,
	0x7f05, 0x64a4, 0x4847, 0x53e6, 0x1181, 0x0a20, 0x26c3, 0x3d62,
	0x8c0e, 0x97af, 0xbb4c, 0xa0ed, 0xe28a, 0xf92b, 0xd5c8, 0xce69,
	0x5106, 0x4aa7, 0x6644, 0x7de5, 0x3f82, 0x2423, 0x08c0, 0x1361,
	0x960f, 0x8dae, 0xa14d, 0xbaec, 0xf88b, 0xe32a, 0xcfc9, 0xd468,
	0x4b07, 0x50a6, 0x7c45, 0x67e4, 0x2583, 0x3e22, 0x12c1, 0x0960,
};

uint16_t rdiag_vcrc16(const uint8_t *buf, size_t n)
{
	uint16_t c = 0xffff;
	size_t i;

	if (!buf)
		return 0;
	for (i = 0; i < n; i++)
		c = (uint16_t)(vcrc_tab[(c ^ buf[i]) & 0xff] ^ (c >> 8));
	return c ^ 0xffff;
}
