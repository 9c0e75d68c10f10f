/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* BTH opcodes: names and the IBTA header-sequence table (which extension headers follow the
 * BTH, in wire order) as data.  The decoder walks the eth[] list of a row; nothing else in
 * the library knows which opcode carries which header.
 *
 * Sources: IBTA vol 1 ch. 9 (base transport and extension headers), the XRC annex, the 1.5
 * additions FLUSH (FETH then RETH) and ATOMIC WRITE (RETH + 8-byte payload), RoCEv2 CNP 0x81
 * (Annex 17), IB CC CNP 0x80 (Annex 10); cross-checked against the kernel's rxe opcode table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define P	RD_OPF_PAYLOAD
#define RQ	RD_OPF_REQ
#define RS	RD_OPF_RESP

#define RDETH	RDIAG_HDR_RDETH
#define DETH	RDIAG_HDR_DETH
#define XRCETH	RDIAG_HDR_XRCETH
#define RETH	RDIAG_HDR_RETH
#define ATOMIC	RDIAG_HDR_ATOMICETH
#define AETH	RDIAG_HDR_AETH
#define ATMACK	RDIAG_HDR_ATOMICACKETH
#define IMM	RDIAG_HDR_IMMDT
#define IETH	RDIAG_HDR_IETH
#define FETH	RDIAG_HDR_FETH

#define OP(code, nm, f, ...) [code] = { nm, { __VA_ARGS__ }, (f) | RD_OPF_VALID }

/* RC and UC share the low codes of sends and writes; RD puts RDETH (+ DETH on requests) in
 * front; XRC puts XRCETH in front of every request. */
static const struct rd_opinfo optab[256] = {
	/* RC 0x00 */
	OP(0x00, "RC_SEND_FIRST", P | RQ, 0),
	OP(0x01, "RC_SEND_MIDDLE", P | RQ, 0),
	OP(0x02, "RC_SEND_LAST", P | RQ, 0),
	OP(0x03, "RC_SEND_LAST_IMM", P | RQ, IMM),
	OP(0x04, "RC_SEND_ONLY", P | RQ, 0),
	OP(0x05, "RC_SEND_ONLY_IMM", P | RQ, IMM),
	OP(0x06, "RC_RDMA_WRITE_FIRST", P | RQ, RETH),
	OP(0x07, "RC_RDMA_WRITE_MIDDLE", P | RQ, 0),
	OP(0x08, "RC_RDMA_WRITE_LAST", P | RQ, 0),
	OP(0x09, "RC_RDMA_WRITE_LAST_IMM", P | RQ, IMM),
	OP(0x0A, "RC_RDMA_WRITE_ONLY", P | RQ, RETH),
	OP(0x0B, "RC_RDMA_WRITE_ONLY_IMM", P | RQ, RETH, IMM),
	OP(0x0C, "RC_RDMA_READ_REQUEST", RQ, RETH),
	OP(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", P | RS, AETH),
	OP(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", P | RS, 0),
	OP(0x0F, "RC_RDMA_READ_RESPONSE_LAST", P | RS, AETH),
	OP(0x10, "RC_RDMA_READ_RESPONSE_ONLY", P | RS, AETH),
	OP(0x11, "RC_ACKNOWLEDGE", RS, AETH),
	OP(0x12, "RC_ATOMIC_ACKNOWLEDGE", RS, AETH, ATMACK),
	OP(0x13, "RC_COMPARE_SWAP", RQ, ATOMIC),
	OP(0x14, "RC_FETCH_ADD", RQ, ATOMIC),
	OP(0x16, "RC_SEND_LAST_INV", P | RQ, IETH),
	OP(0x17, "RC_SEND_ONLY_INV", P | RQ, IETH),
	OP(0x1C, "RC_FLUSH", RQ, FETH, RETH),
	OP(0x1D, "RC_ATOMIC_WRITE", P | RQ, RETH),

	/* UC 0x20 */
	OP(0x20, "UC_SEND_FIRST", P | RQ, 0),
	OP(0x21, "UC_SEND_MIDDLE", P | RQ, 0),
	OP(0x22, "UC_SEND_LAST", P | RQ, 0),
	OP(0x23, "UC_SEND_LAST_IMM", P | RQ, IMM),
	OP(0x24, "UC_SEND_ONLY", P | RQ, 0),
	OP(0x25, "UC_SEND_ONLY_IMM", P | RQ, IMM),
	OP(0x26, "UC_RDMA_WRITE_FIRST", P | RQ, RETH),
	OP(0x27, "UC_RDMA_WRITE_MIDDLE", P | RQ, 0),
	OP(0x28, "UC_RDMA_WRITE_LAST", P | RQ, 0),
	OP(0x29, "UC_RDMA_WRITE_LAST_IMM", P | RQ, IMM),
	OP(0x2A, "UC_RDMA_WRITE_ONLY", P | RQ, RETH),
	OP(0x2B, "UC_RDMA_WRITE_ONLY_IMM", P | RQ, RETH, IMM),

	/* RD 0x40 */
	OP(0x40, "RD_SEND_FIRST", P | RQ, RDETH, DETH),
	OP(0x41, "RD_SEND_MIDDLE", P | RQ, RDETH, DETH),
	OP(0x42, "RD_SEND_LAST", P | RQ, RDETH, DETH),
	OP(0x43, "RD_SEND_LAST_IMM", P | RQ, RDETH, DETH, IMM),
	OP(0x44, "RD_SEND_ONLY", P | RQ, RDETH, DETH),
	OP(0x45, "RD_SEND_ONLY_IMM", P | RQ, RDETH, DETH, IMM),
	OP(0x46, "RD_RDMA_WRITE_FIRST", P | RQ, RDETH, DETH, RETH),
	OP(0x47, "RD_RDMA_WRITE_MIDDLE", P | RQ, RDETH, DETH),
	OP(0x48, "RD_RDMA_WRITE_LAST", P | RQ, RDETH, DETH),
	OP(0x49, "RD_RDMA_WRITE_LAST_IMM", P | RQ, RDETH, DETH, IMM),
	OP(0x4A, "RD_RDMA_WRITE_ONLY", P | RQ, RDETH, DETH, RETH),
	OP(0x4B, "RD_RDMA_WRITE_ONLY_IMM", P | RQ, RDETH, DETH, RETH, IMM),
	OP(0x4C, "RD_RDMA_READ_REQUEST", RQ, RDETH, DETH, RETH),
	OP(0x4D, "RD_RDMA_READ_RESPONSE_FIRST", P | RS, RDETH, AETH),
	OP(0x4E, "RD_RDMA_READ_RESPONSE_MIDDLE", P | RS, RDETH),
	OP(0x4F, "RD_RDMA_READ_RESPONSE_LAST", P | RS, RDETH, AETH),
	OP(0x50, "RD_RDMA_READ_RESPONSE_ONLY", P | RS, RDETH, AETH),
	OP(0x51, "RD_ACKNOWLEDGE", RS, RDETH, AETH),
	OP(0x52, "RD_ATOMIC_ACKNOWLEDGE", RS, RDETH, AETH, ATMACK),
	OP(0x53, "RD_COMPARE_SWAP", RQ, RDETH, DETH, ATOMIC),
	OP(0x54, "RD_FETCH_ADD", RQ, RDETH, DETH, ATOMIC),
	OP(0x55, "RD_RESYNC", RQ, RDETH, DETH),
	/* every RD request carries a DETH (its Q_Key); rxe, which has no RD, lists RD FLUSH
	 * without one */
	OP(0x5C, "RD_FLUSH", RQ, RDETH, DETH, FETH, RETH),

	/* UD 0x60 */
	OP(0x64, "UD_SEND_ONLY", P | RQ, DETH),
	OP(0x65, "UD_SEND_ONLY_IMM", P | RQ, DETH, IMM),

	/* congestion notification: IB CC (0x80) and RoCEv2 (0x81, 16 reserved payload bytes) */
	OP(0x80, "IB_CNP", P, 0),
	OP(0x81, "CNP", P, 0),

	/* XRC 0xA0 */
	OP(0xA0, "XRC_SEND_FIRST", P | RQ, XRCETH),
	OP(0xA1, "XRC_SEND_MIDDLE", P | RQ, XRCETH),
	OP(0xA2, "XRC_SEND_LAST", P | RQ, XRCETH),
	OP(0xA3, "XRC_SEND_LAST_IMM", P | RQ, XRCETH, IMM),
	OP(0xA4, "XRC_SEND_ONLY", P | RQ, XRCETH),
	OP(0xA5, "XRC_SEND_ONLY_IMM", P | RQ, XRCETH, IMM),
	OP(0xA6, "XRC_RDMA_WRITE_FIRST", P | RQ, XRCETH, RETH),
	OP(0xA7, "XRC_RDMA_WRITE_MIDDLE", P | RQ, XRCETH),
	OP(0xA8, "XRC_RDMA_WRITE_LAST", P | RQ, XRCETH),
	OP(0xA9, "XRC_RDMA_WRITE_LAST_IMM", P | RQ, XRCETH, IMM),
	OP(0xAA, "XRC_RDMA_WRITE_ONLY", P | RQ, XRCETH, RETH),
	OP(0xAB, "XRC_RDMA_WRITE_ONLY_IMM", P | RQ, XRCETH, RETH, IMM),
	OP(0xAC, "XRC_RDMA_READ_REQUEST", RQ, XRCETH, RETH),
	OP(0xAD, "XRC_RDMA_READ_RESPONSE_FIRST", P | RS, AETH),
	OP(0xAE, "XRC_RDMA_READ_RESPONSE_MIDDLE", P | RS, 0),
	OP(0xAF, "XRC_RDMA_READ_RESPONSE_LAST", P | RS, AETH),
	OP(0xB0, "XRC_RDMA_READ_RESPONSE_ONLY", P | RS, AETH),
	OP(0xB1, "XRC_ACKNOWLEDGE", RS, AETH),
	OP(0xB2, "XRC_ATOMIC_ACKNOWLEDGE", RS, AETH, ATMACK),
	OP(0xB3, "XRC_COMPARE_SWAP", RQ, XRCETH, ATOMIC),
	OP(0xB4, "XRC_FETCH_ADD", RQ, XRCETH, ATOMIC),
	OP(0xB6, "XRC_SEND_LAST_INV", P | RQ, XRCETH, IETH),
	OP(0xB7, "XRC_SEND_ONLY_INV", P | RQ, XRCETH, IETH),
};

/* rows for opcodes IBTA leaves reserved / to manufacturers: BTH then opaque bytes */
static const struct rd_opinfo op_reserved = { "RESERVED", { 0 }, P };
static const struct rd_opinfo op_msp = { "MSP", { 0 }, P };

const struct rd_opinfo *rd_opinfo(uint8_t opcode)
{
	if (optab[opcode].name)
		return &optab[opcode];
	return opcode >= 0xC0 ? &op_msp : &op_reserved;
}

const char *rdiag_opcode_name(uint8_t opcode)
{
	return rd_opinfo(opcode)->name;
}

const char *rdiag_opcode_transport(uint8_t opcode)
{
	static const char *const tp[] = {
		[RDIAG_TR_RC] = "RC", [RDIAG_TR_UC] = "UC", [RDIAG_TR_RD] = "RD",
		[RDIAG_TR_UD] = "UD", [RDIAG_TR_CNP] = "CNP", [RDIAG_TR_XRC] = "XRC",
		[RDIAG_TR_MSP] = "MSP",
	};
	enum rdiag_transport tr = rdiag_opcode_transport_class(opcode);

	if (!(rd_opinfo(opcode)->flags & RD_OPF_VALID) && tr != RDIAG_TR_MSP)
		return "RESERVED";
	return tp[tr];
}

int rdiag_opcode_parse(const char *s)
{
	char *end;
	unsigned long v;
	int i;

	if (!s || !*s)
		return -EINVAL;
	if (*s >= '0' && *s <= '9') {
		errno = 0;
		v = strtoul(s, &end, 0);
		if (errno || *end || v > 255)
			return -EINVAL;
		return (int)v;
	}
	for (i = 0; i < 256; i++)
		if (optab[i].name && !strcasecmp(optab[i].name, s))
			return i;
	return -EINVAL;
}

uint32_t rdiag_opcode_headers(uint8_t opcode)
{
	const struct rd_opinfo *oi = rd_opinfo(opcode);
	uint32_t m = 0;
	int i;

	if (!(oi->flags & RD_OPF_VALID))
		return 0;
	for (i = 0; i < RD_OP_MAX_ETH && oi->eth[i]; i++)
		m |= RDIAG_HAS(oi->eth[i]);
	if (oi->flags & RD_OPF_PAYLOAD)
		m |= RDIAG_HAS(RDIAG_HDR_PAYLOAD);
	return m;
}

bool rdiag_opcode_is_valid(uint8_t opcode)
{
	return rd_opinfo(opcode)->flags & RD_OPF_VALID;
}

bool rdiag_opcode_is_request(uint8_t opcode)
{
	return rd_opinfo(opcode)->flags & RD_OPF_REQ;
}

bool rdiag_opcode_is_response(uint8_t opcode)
{
	return rd_opinfo(opcode)->flags & RD_OPF_RESP;
}

enum rdiag_transport rdiag_opcode_transport_class(uint8_t opcode)
{
	unsigned int tr = opcode >> 5;

	return tr >= RDIAG_TR_MSP ? RDIAG_TR_MSP : (enum rdiag_transport)tr;
}

bool rdiag_opcode_is_reliable(uint8_t opcode)
{
	enum rdiag_transport tr = rdiag_opcode_transport_class(opcode);

	return tr == RDIAG_TR_RC || tr == RDIAG_TR_RD || tr == RDIAG_TR_XRC;
}

/* RC, UC, RD, UD and XRC number their operations alike in opcode[4:0] (each transport
 * defines a subset: the table above says which codes exist) */
static const struct {
	uint8_t kind;		/* enum rdiag_op_kind */
	uint8_t pos;		/* enum rdiag_op_position */
} low_ops[32] = {
	[0x00] = { RDIAG_OPK_SEND, RDIAG_OPP_FIRST },
	[0x01] = { RDIAG_OPK_SEND, RDIAG_OPP_MIDDLE },
	[0x02] = { RDIAG_OPK_SEND, RDIAG_OPP_LAST },
	[0x03] = { RDIAG_OPK_SEND, RDIAG_OPP_LAST },		/* _IMM */
	[0x04] = { RDIAG_OPK_SEND, RDIAG_OPP_ONLY },
	[0x05] = { RDIAG_OPK_SEND, RDIAG_OPP_ONLY },		/* _IMM */
	[0x06] = { RDIAG_OPK_WRITE, RDIAG_OPP_FIRST },
	[0x07] = { RDIAG_OPK_WRITE, RDIAG_OPP_MIDDLE },
	[0x08] = { RDIAG_OPK_WRITE, RDIAG_OPP_LAST },
	[0x09] = { RDIAG_OPK_WRITE, RDIAG_OPP_LAST },		/* _IMM */
	[0x0A] = { RDIAG_OPK_WRITE, RDIAG_OPP_ONLY },
	[0x0B] = { RDIAG_OPK_WRITE, RDIAG_OPP_ONLY },		/* _IMM */
	[0x0C] = { RDIAG_OPK_READ_REQ, RDIAG_OPP_NONE },
	[0x0D] = { RDIAG_OPK_READ_RESP, RDIAG_OPP_FIRST },
	[0x0E] = { RDIAG_OPK_READ_RESP, RDIAG_OPP_MIDDLE },
	[0x0F] = { RDIAG_OPK_READ_RESP, RDIAG_OPP_LAST },
	[0x10] = { RDIAG_OPK_READ_RESP, RDIAG_OPP_ONLY },
	[0x11] = { RDIAG_OPK_ACK, RDIAG_OPP_NONE },
	[0x12] = { RDIAG_OPK_ATOMIC_ACK, RDIAG_OPP_NONE },
	[0x13] = { RDIAG_OPK_ATOMIC, RDIAG_OPP_NONE },		/* COMPARE_SWAP */
	[0x14] = { RDIAG_OPK_ATOMIC, RDIAG_OPP_NONE },		/* FETCH_ADD */
	[0x15] = { RDIAG_OPK_RESYNC, RDIAG_OPP_NONE },
	[0x16] = { RDIAG_OPK_SEND, RDIAG_OPP_LAST },		/* SEND_LAST_INV */
	[0x17] = { RDIAG_OPK_SEND, RDIAG_OPP_ONLY },		/* SEND_ONLY_INV */
	[0x1C] = { RDIAG_OPK_FLUSH, RDIAG_OPP_NONE },
	[0x1D] = { RDIAG_OPK_ATOMIC_WRITE, RDIAG_OPP_NONE },
};

enum rdiag_op_kind rdiag_opcode_kind(uint8_t opcode)
{
	enum rdiag_transport tr = rdiag_opcode_transport_class(opcode);

	if (!rdiag_opcode_is_valid(opcode) || tr == RDIAG_TR_MSP)
		return RDIAG_OPK_NONE;
	if (tr == RDIAG_TR_CNP)
		return RDIAG_OPK_CNP;
	return (enum rdiag_op_kind)low_ops[opcode & 0x1f].kind;
}

enum rdiag_op_position rdiag_opcode_position(uint8_t opcode)
{
	enum rdiag_transport tr = rdiag_opcode_transport_class(opcode);

	if (!rdiag_opcode_is_valid(opcode) || tr == RDIAG_TR_MSP || tr == RDIAG_TR_CNP)
		return RDIAG_OPP_NONE;
	return (enum rdiag_op_position)low_ops[opcode & 0x1f].pos;
}
