/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* IB headers: LRH, GRH, BTH, the extension headers chosen by the opcode table, payload
 * bounds, MAD hand-off and the ICRC trailer. */
#include "internal.h"

int rd_decode_lrh(struct rd_cur *c, struct rdiag_pkt *p)
{
	const uint8_t *b = rd_take(c, RD_LRH_LEN);

	if (!b)
		return c->err;
	p->lrh.vl = b[0] >> 4;
	p->lrh.lver = b[0] & 0x0f;
	p->lrh.sl = b[1] >> 4;
	p->lrh.lnh = b[1] & 3;
	p->lrh.dlid = rd_be16(b + 2);
	p->lrh.pktlen = rd_be16(b + 4) & 0x07ff;
	p->lrh.slid = rd_be16(b + 6);
	p->present |= RDIAG_HAS_LRH;
	return 0;
}

/* GRH: must be IPVer 6 and next header IBA transport, or it is not ours to decode */
int rd_decode_grh(struct rd_cur *c, struct rdiag_pkt *p)
{
	const uint8_t *b = rd_take(c, RD_GRH_LEN);
	uint32_t w;

	if (!b)
		return c->err;
	w = rd_be32(b);
	p->grh.ipver = w >> 28;
	p->grh.tclass = (w >> 20) & 0xff;
	p->grh.flow_label = w & 0xfffff;
	p->grh.paylen = rd_be16(b + 4);
	p->grh.nxthdr = b[6];
	p->grh.hoplmt = b[7];
	memcpy(p->grh.sgid, b + 8, 16);
	memcpy(p->grh.dgid, b + 24, 16);
	p->present |= RDIAG_HAS_GRH;
	if (p->grh.ipver != 6 || p->grh.nxthdr != RD_GRH_NXT_IBA)
		return c->err = RD_INVAL;
	return 0;
}

static void decode_aeth(struct rdiag_aeth *a, const uint8_t *b)
{
	unsigned int low;

	a->syndrome = b[0];
	a->msn = rd_be24(b + 1);
	a->kind = (b[0] >> 5) & 3;
	low = b[0] & 0x1f;
	switch (a->kind) {
	case RDIAG_AETH_ACK:
		a->credits_code = (uint8_t)low;
		a->credits = rdiag_aeth_credits(low);
		break;
	case RDIAG_AETH_RNR_NAK:
		a->timer = (uint8_t)low;
		a->timer_ms = rdiag_rnr_timer_ms(low);
		break;
	case RDIAG_AETH_NAK:
		a->nak = (uint8_t)low;
		a->nak_name = rdiag_nak_name(low);
		break;
	default:
		break;
	}
}

static const uint8_t eth_len[RDIAG_HDR__COUNT] = {
	[RDIAG_HDR_RDETH] = 4,
	[RDIAG_HDR_DETH] = 8,
	[RDIAG_HDR_XRCETH] = 4,
	[RDIAG_HDR_RETH] = 16,
	[RDIAG_HDR_ATOMICETH] = 28,
	[RDIAG_HDR_AETH] = 4,
	[RDIAG_HDR_ATOMICACKETH] = 8,
	[RDIAG_HDR_IMMDT] = 4,
	[RDIAG_HDR_IETH] = 4,
	[RDIAG_HDR_FETH] = 4,
};

static int decode_eth(struct rd_cur *c, struct rdiag_pkt *p, uint8_t h)
{
	const uint8_t *b = rd_take(c, eth_len[h]);

	if (!b)
		return c->err;
	switch (h) {
	case RDIAG_HDR_RDETH:
		p->rdeth_eecnxt = rd_be24(b + 1);
		break;
	case RDIAG_HDR_DETH:
		p->deth_qkey = rd_be32(b);
		p->deth_srcqp = rd_be24(b + 5);
		break;
	case RDIAG_HDR_XRCETH:
		p->xrceth_xrcsrq = rd_be24(b + 1);
		break;
	case RDIAG_HDR_RETH:
		p->reth.va = rd_be64(b);
		p->reth.rkey = rd_be32(b + 8);
		p->reth.dmalen = rd_be32(b + 12);
		break;
	case RDIAG_HDR_ATOMICETH:
		p->atomiceth.va = rd_be64(b);
		p->atomiceth.rkey = rd_be32(b + 8);
		p->atomiceth.swap = rd_be64(b + 12);
		p->atomiceth.compare = rd_be64(b + 20);
		break;
	case RDIAG_HDR_AETH:
		decode_aeth(&p->aeth, b);
		break;
	case RDIAG_HDR_ATOMICACKETH:
		p->atomicacketh_orig = rd_be64(b);
		break;
	case RDIAG_HDR_IMMDT:
		p->immdt = rd_be32(b);
		break;
	case RDIAG_HDR_IETH:
		p->ieth_rkey = rd_be32(b);
		break;
	case RDIAG_HDR_FETH:
		p->feth.raw = rd_be32(b);
		p->feth.plt = p->feth.raw & 0x0f;
		p->feth.sel = (p->feth.raw >> 4) & 3;
		break;
	default:
		break;
	}
	p->present |= RDIAG_HAS(h);
	return 0;
}

/* The cursor region ends with the ICRC (RoCE: end of UDP payload / GRH PayLen; IB: LRH
 * PktLen).  Everything between the last extension header and pad + ICRC is payload. */
void rd_decode_transport(struct rd_cur *c, struct rdiag_pkt *p,
			 const struct rdiag_decode_opts *o)
{
	const struct rd_opinfo *oi;
	const uint8_t *b;
	uint32_t left, icrc_off, capleft;
	int i;

	p->bth_off = c->off;
	b = rd_take(c, RD_BTH_LEN);
	if (!b) {
		rd_stop(p, c, RDIAG_HDR_BTH);
		return;
	}
	p->bth.opcode = b[0];
	p->bth.se = b[1] >> 7;
	p->bth.m = (b[1] >> 6) & 1;
	p->bth.padcnt = (b[1] >> 4) & 3;
	p->bth.tver = b[1] & 0x0f;
	p->bth.pkey = rd_be16(b + 2);
	p->bth.fecn = b[4] >> 7;
	p->bth.becn = (b[4] >> 6) & 1;
	p->bth.resv6 = b[4] & 0x3f;
	p->bth.destqp = rd_be24(b + 5);
	p->bth.ackreq = b[8] >> 7;
	p->bth.resv7 = b[8] & 0x7f;
	p->bth.psn = rd_be24(b + 9);
	p->present |= RDIAG_HAS_BTH;

	oi = rd_opinfo(p->bth.opcode);
	for (i = 0; i < RD_OP_MAX_ETH && oi->eth[i]; i++) {
		if (decode_eth(c, p, oi->eth[i])) {
			rd_stop(p, c, (enum rdiag_hdr)oi->eth[i]);
			return;
		}
	}

	/* payload = what is left before pad and ICRC */
	p->pad = p->bth.padcnt;
	left = rd_left(c);
	if (left < (uint32_t)RD_ICRC_LEN + p->pad) {
		c->err = RD_INVAL;
		rd_stop(p, c, RDIAG_HDR_PAYLOAD);
		return;
	}
	p->payload_off = c->off;
	p->payload_len = left - RD_ICRC_LEN - p->pad;
	capleft = rd_left_cap(c);
	p->payload_caplen = capleft < p->payload_len ? capleft : p->payload_len;
	p->present |= RDIAG_HAS(RDIAG_HDR_PAYLOAD);

	/* management datagrams: UD sends to QP0 (SMI) / QP1 (GSI) */
	if (o->decode_mad && (p->present & RDIAG_HAS_DETH) && p->bth.destqp <= 1) {
		struct rd_cur m = *c;

		m.end = p->payload_off + p->payload_len;
		rd_decode_mad(&m, p);
	}

	icrc_off = p->payload_off + p->payload_len + p->pad;
	rd_skip(c, p->payload_len + p->pad);
	if (p->payload_caplen < p->payload_len) {
		/* the capture stopped inside the payload: still usable, but not checkable */
		rd_need(c, RD_ICRC_LEN);
		rd_stop(p, c, RDIAG_HDR_PAYLOAD);
		return;
	}
	b = rd_take(c, RD_ICRC_LEN);
	if (!b) {
		rd_stop(p, c, c->off <= c->cap ? RDIAG_HDR_ICRC : RDIAG_HDR_PAYLOAD);
		return;
	}
	/* the CRC first: it reads the packet front to back, so the ICRC's bytes at its end are
	 * in the cache after it (read first, they were a miss of their own) */
	if (o->check_icrc && rd_icrc(c, p, icrc_off, &p->icrc_computed) == 0)
		p->icrc_checked = true;
	/* rxe stores the CRC-32 value in CPU (little-endian) order; scapy packs it reversed */
	p->icrc = rd_le32(b);
	p->present |= RDIAG_HAS_ICRC;
	p->icrc_ok = p->icrc_checked && p->icrc_computed == p->icrc;
}
