/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAC control frames (ethertype 0x8808): IEEE 802.3x PAUSE (opcode 0x0001, IEEE 802.3 annex
 * 31B) and IEEE 802.1Qbb priority-based flow control (opcode 0x0101, 802.1Q clause 36).
 *
 *	PAUSE: opcode(2) pause_time(2)
 *	PFC:   opcode(2) priority_enable_vector(2) time[0..7](2 each)
 *
 * The first octet of the priority-enable vector is reserved (zero); bit n of the second
 * enables priority n.  Times are in pause quanta of 512 bit times; 0 means XON (resume).
 * Other MAC control opcodes (EPON GATE/REPORT/REGISTER ..., timestamps) are not decoded: they
 * are skipped as "other", as before.  The bytes after the parameters (reserved, zero, up to
 * the 60-byte minimum frame) are not looked at. */
#include "internal.h"

enum {
	RD_MACC_OP_PAUSE = 0x0001,
	RD_MACC_OP_PFC = 0x0101,
	RD_MACC_OP_LEN = 2,
	RD_MACC_PAUSE_LEN = 2,			/* pause_time */
	RD_MACC_PFC_LEN = 2 + 2 * RDIAG_PFC_PRIOS,	/* vector + eight times */
};

int rd_decode_macc(struct rd_cur *c, struct rdiag_pkt *p)
{
	struct rdiag_macc *m = &p->macc;
	const uint8_t *b = rd_take(c, RD_MACC_OP_LEN);

	if (!b) {
		rd_stop(p, c, RDIAG_HDR_MACC);
		return RDIAG_SKIP_SHORT;	/* no opcode: not known to be PAUSE or PFC */
	}
	m->opcode = rd_be16(b);
	if (m->opcode == RD_MACC_OP_PAUSE)
		p->encap = RDIAG_ENCAP_PAUSE;
	else if (m->opcode == RD_MACC_OP_PFC)
		p->encap = RDIAG_ENCAP_PFC;
	else
		return RDIAG_SKIP_ETHERTYPE;
	b = rd_take(c, p->encap == RDIAG_ENCAP_PAUSE ? RD_MACC_PAUSE_LEN : RD_MACC_PFC_LEN);
	if (!b) {
		rd_stop(p, c, RDIAG_HDR_MACC);
		return 0;
	}
	p->present |= RDIAG_HAS(RDIAG_HDR_MACC);
	if (p->encap == RDIAG_ENCAP_PAUSE) {
		m->pause_quanta = rd_be16(b);
		return 0;
	}
	m->pfc_reserved = b[0];
	m->pfc_enable = b[1];
	for (unsigned int i = 0; i < RDIAG_PFC_PRIOS; i++)
		m->pfc_quanta[i] = rd_be16(b + 2 + 2 * i);
	if (m->pfc_reserved) {	/* 802.1Q 36.1.3.1: the first octet is reserved (0) */
		c->err = RD_INVAL;
		rd_stop(p, c, RDIAG_HDR_MACC);
	}
	return 0;
}
