/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What an opcode is (transport class, operation, position in a message) comes from the
 * packet module alone.  Checked here against the opcode names, an independent spelling of
 * the same IBTA table: every defined opcode's kind and position must match its name. */
#include <string.h>

#include "tap.h"
#include "rdmadiag/packet.h"

static bool has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

static enum rdiag_op_kind kind_from_name(const char *n)
{
	if (has(n, "CNP"))
		return RDIAG_OPK_CNP;
	if (has(n, "READ_REQUEST"))
		return RDIAG_OPK_READ_REQ;
	if (has(n, "READ_RESPONSE"))
		return RDIAG_OPK_READ_RESP;
	if (has(n, "ATOMIC_ACKNOWLEDGE"))
		return RDIAG_OPK_ATOMIC_ACK;
	if (has(n, "ACKNOWLEDGE"))
		return RDIAG_OPK_ACK;
	if (has(n, "ATOMIC_WRITE"))
		return RDIAG_OPK_ATOMIC_WRITE;
	if (has(n, "COMPARE_SWAP") || has(n, "FETCH_ADD"))
		return RDIAG_OPK_ATOMIC;
	if (has(n, "RDMA_WRITE"))
		return RDIAG_OPK_WRITE;
	if (has(n, "SEND"))
		return RDIAG_OPK_SEND;
	if (has(n, "RESYNC"))
		return RDIAG_OPK_RESYNC;
	if (has(n, "FLUSH"))
		return RDIAG_OPK_FLUSH;
	return RDIAG_OPK_NONE;
}

static enum rdiag_op_position pos_from_name(const char *n)
{
	if (has(n, "CNP"))
		return RDIAG_OPP_NONE;
	if (has(n, "_FIRST"))
		return RDIAG_OPP_FIRST;
	if (has(n, "_MIDDLE"))
		return RDIAG_OPP_MIDDLE;
	if (has(n, "_LAST"))
		return RDIAG_OPP_LAST;
	if (has(n, "_ONLY"))
		return RDIAG_OPP_ONLY;
	return RDIAG_OPP_NONE;
}

int main(void)
{
	unsigned int op, kinds_ok = 0, pos_ok = 0, valid = 0, none_ok = 0, others = 0;

	for (op = 0; op < 256; op++) {
		const char *n = rdiag_opcode_name((uint8_t)op);

		if (!rdiag_opcode_is_valid((uint8_t)op)) {
			others++;
			none_ok += rdiag_opcode_kind((uint8_t)op) == RDIAG_OPK_NONE &&
				   rdiag_opcode_position((uint8_t)op) == RDIAG_OPP_NONE;
			continue;
		}
		valid++;
		kinds_ok += rdiag_opcode_kind((uint8_t)op) == kind_from_name(n);
		pos_ok += rdiag_opcode_position((uint8_t)op) == pos_from_name(n);
		if (rdiag_opcode_kind((uint8_t)op) != kind_from_name(n) ||
		    rdiag_opcode_position((uint8_t)op) != pos_from_name(n))
			printf("# mismatch 0x%02x %s\n", op, n);
	}
	EXPECT_EQ(kinds_ok, valid);
	EXPECT_EQ(pos_ok, valid);
	EXPECT_EQ(none_ok, others);	/* reserved and MSP: no operation, no position */
	EXPECT_EQ(valid, 87);	/* the rows of the IBTA table (lib/packet/opcodes.c) */

	/* the transport class is opcode[7:5]; 6 and 7 are both manufacturer-specific */
	EXPECT_EQ(rdiag_opcode_transport_class(0x0C), RDIAG_TR_RC);
	EXPECT_EQ(rdiag_opcode_transport_class(0x24), RDIAG_TR_UC);
	EXPECT_EQ(rdiag_opcode_transport_class(0x4C), RDIAG_TR_RD);
	EXPECT_EQ(rdiag_opcode_transport_class(0x64), RDIAG_TR_UD);
	EXPECT_EQ(rdiag_opcode_transport_class(0x81), RDIAG_TR_CNP);
	EXPECT_EQ(rdiag_opcode_transport_class(0xA4), RDIAG_TR_XRC);
	EXPECT_EQ(rdiag_opcode_transport_class(0xC0), RDIAG_TR_MSP);
	EXPECT_EQ(rdiag_opcode_transport_class(0xFF), RDIAG_TR_MSP);
	EXPECT_EQ(rdiag_opcode_transport_class(0x1F), RDIAG_TR_RC);	/* reserved, RC range */

	/* reliable: RC, RD, XRC */
	EXPECT_TRUE(rdiag_opcode_is_reliable(0x0C));
	EXPECT_TRUE(rdiag_opcode_is_reliable(0x53));
	EXPECT_TRUE(rdiag_opcode_is_reliable(0xB3));
	EXPECT_TRUE(!rdiag_opcode_is_reliable(0x24));
	EXPECT_TRUE(!rdiag_opcode_is_reliable(0x64));
	EXPECT_TRUE(!rdiag_opcode_is_reliable(0x81));

	/* a few by hand */
	EXPECT_EQ(rdiag_opcode_kind(0x10), RDIAG_OPK_READ_RESP);
	EXPECT_EQ(rdiag_opcode_position(0x10), RDIAG_OPP_ONLY);
	EXPECT_EQ(rdiag_opcode_kind(0xB2), RDIAG_OPK_ATOMIC_ACK);
	EXPECT_EQ(rdiag_opcode_kind(0x80), RDIAG_OPK_CNP);
	EXPECT_EQ(rdiag_opcode_position(0x80), RDIAG_OPP_NONE);	/* not SEND_FIRST */
	EXPECT_EQ(rdiag_opcode_position(0xC0), RDIAG_OPP_NONE);
	EXPECT_EQ(rdiag_opcode_kind(0x2C), RDIAG_OPK_NONE);	/* UC has no READ */
	return tap_done();
}
