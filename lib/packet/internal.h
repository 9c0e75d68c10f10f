/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal interfaces shared by the files of lib/packet (rd_ prefix, never exported). */
#ifndef RD_PACKET_INTERNAL_H
#define RD_PACKET_INTERNAL_H
#include <stdint.h>
#include "rdmadiag/packet.h"
#include "cursor.h"

/* header sizes (IBTA vol 1 ch. 9; rdma-reference §3.14) */
enum {
	RD_LRH_LEN = 8,
	RD_GRH_LEN = 40,
	RD_BTH_LEN = 12,
	RD_ICRC_LEN = 4,
	RD_VCRC_LEN = 2,
	RD_MAD_HDR_LEN = 24,
	RD_MAD_LEN = 256,
	RD_GRH_NXT_IBA = 0x1B,	/* GRH next header: IBA transport */
};

/* one row of the opcode table: name and the IBTA header sequence after the BTH */
#define RD_OP_MAX_ETH 4
enum {
	RD_OPF_PAYLOAD = 1 << 0,	/* carries a payload */
	RD_OPF_REQ = 1 << 1,		/* requester -> responder */
	RD_OPF_RESP = 1 << 2,		/* responder -> requester */
	RD_OPF_VALID = 1 << 3,		/* defined by IBTA */
};

struct rd_opinfo {
	const char *name;
	uint8_t eth[RD_OP_MAX_ETH];	/* enum rdiag_hdr in wire order, 0-terminated */
	uint8_t flags;
};

const struct rd_opinfo *rd_opinfo(uint8_t opcode);

/* IB transport part: BTH, ETHs, payload, MAD, ICRC/VCRC.  The cursor's region ends at the
 * end of the ICRC.  Returns 0; status goes into p. */
void rd_decode_transport(struct rd_cur *c, struct rdiag_pkt *p,
			 const struct rdiag_decode_opts *o);
void rd_decode_mad(struct rd_cur *c, struct rdiag_pkt *p);
/* after the MAD common header (cursor at MAD byte 24, the MAD at data offset mad_off): the
 * class header, RMPP and where the attribute's records are (mad_body.c) */
void rd_decode_mad_class(struct rd_cur *c, struct rdiag_pkt *p, uint32_t mad_off);
/* MAC control (cursor after the ethertype 0x8808): 0 for PAUSE/PFC (status in p), a positive
 * enum rdiag_pkt_skip for other opcodes or a frame cut before its opcode */
int rd_decode_macc(struct rd_cur *c, struct rdiag_pkt *p);

/* header decoders (cursor at the header); 0 or the cursor error */
int rd_decode_lrh(struct rd_cur *c, struct rdiag_pkt *p);
int rd_decode_grh(struct rd_cur *c, struct rdiag_pkt *p);

/* ICRC over the decoded packet; 0, -EINVAL, -ENODATA */
int rd_icrc(const struct rd_cur *c, const struct rdiag_pkt *p, uint32_t icrc_off,
	    uint32_t *out);

/* record the stop point; returns the error for chaining */
static inline int rd_stop(struct rdiag_pkt *p, const struct rd_cur *c, enum rdiag_hdr h)
{
	if (p->status == RDIAG_PKT_OK) {
		p->status = c->err;
		p->stopped_in = (uint8_t)h;
	}
	return c->err;
}

#endif
