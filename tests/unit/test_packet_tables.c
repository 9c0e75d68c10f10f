/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Opcode names, the header-sequence table, AETH syndrome tables, result names. */
#include <errno.h>
#include "tap.h"
#include "rdmadiag/packet.h"

#define H(x) RDIAG_HAS(RDIAG_HDR_##x)

int main(void)
{
	unsigned int op, valid = 0, named_ok = 0, parse_ok = 0;

	/* every defined opcode has a name that parses back to it */
	for (op = 0; op < 256; op++) {
		const char *n = rdiag_opcode_name((uint8_t)op);
		char num[8];

		if (!rdiag_opcode_is_valid((uint8_t)op))
			continue;
		valid++;
		named_ok += n && strcmp(n, "RESERVED") && strcmp(n, "MSP");
		parse_ok += rdiag_opcode_parse(n) == (int)op;
		snprintf(num, sizeof(num), "0x%02x", op);
		parse_ok += rdiag_opcode_parse(num) == (int)op;
	}
	/* RC 25 (incl. FLUSH, ATOMIC_WRITE), UC 12, RD 23 (incl. RESYNC, FLUSH), UD 2,
	 * CNP 2, XRC 23 (0xA0-0xB4, 0xB6, 0xB7) */
	EXPECT_EQ(valid, 25 + 12 + 23 + 2 + 2 + 23);
	EXPECT_EQ(named_ok, valid);
	EXPECT_EQ(parse_ok, 2 * valid);

	EXPECT_STREQ(rdiag_opcode_name(0x00), "RC_SEND_FIRST");
	EXPECT_STREQ(rdiag_opcode_name(0x0C), "RC_RDMA_READ_REQUEST");
	EXPECT_STREQ(rdiag_opcode_name(0x11), "RC_ACKNOWLEDGE");
	EXPECT_STREQ(rdiag_opcode_name(0x1C), "RC_FLUSH");
	EXPECT_STREQ(rdiag_opcode_name(0x1D), "RC_ATOMIC_WRITE");
	EXPECT_STREQ(rdiag_opcode_name(0x2B), "UC_RDMA_WRITE_ONLY_IMM");
	EXPECT_STREQ(rdiag_opcode_name(0x55), "RD_RESYNC");
	EXPECT_STREQ(rdiag_opcode_name(0x64), "UD_SEND_ONLY");
	EXPECT_STREQ(rdiag_opcode_name(0x65), "UD_SEND_ONLY_IMM");
	EXPECT_STREQ(rdiag_opcode_name(0x80), "IB_CNP");
	EXPECT_STREQ(rdiag_opcode_name(0x81), "CNP");
	EXPECT_STREQ(rdiag_opcode_name(0xB7), "XRC_SEND_ONLY_INV");
	EXPECT_STREQ(rdiag_opcode_name(0x15), "RESERVED");
	EXPECT_STREQ(rdiag_opcode_name(0x60), "RESERVED");
	EXPECT_STREQ(rdiag_opcode_name(0x82), "RESERVED");
	for (op = 0xC0; op < 0x100; op++)
		if (strcmp(rdiag_opcode_name((uint8_t)op), "MSP"))
			break;
	EXPECT_EQ(op, 0x100);
	EXPECT_STREQ(rdiag_opcode_transport(0x04), "RC");
	EXPECT_STREQ(rdiag_opcode_transport(0x24), "UC");
	EXPECT_STREQ(rdiag_opcode_transport(0x44), "RD");
	EXPECT_STREQ(rdiag_opcode_transport(0x64), "UD");
	EXPECT_STREQ(rdiag_opcode_transport(0x81), "CNP");
	EXPECT_STREQ(rdiag_opcode_transport(0xA4), "XRC");
	EXPECT_STREQ(rdiag_opcode_transport(0xE0), "MSP");
	EXPECT_STREQ(rdiag_opcode_transport(0x1F), "RESERVED");

	/* --opcode parsing: names any case, numbers in decimal or hex */
	EXPECT_EQ(rdiag_opcode_parse("rc_send_only"), 4);
	EXPECT_EQ(rdiag_opcode_parse("CNP"), 0x81);
	EXPECT_EQ(rdiag_opcode_parse("17"), 17);
	EXPECT_EQ(rdiag_opcode_parse("0x81"), 0x81);
	EXPECT_EQ(rdiag_opcode_parse("255"), 255);
	EXPECT_EQ(rdiag_opcode_parse("256"), -EINVAL);
	EXPECT_EQ(rdiag_opcode_parse("12abc"), -EINVAL);
	EXPECT_EQ(rdiag_opcode_parse("SEND_ONLY"), -EINVAL);
	EXPECT_EQ(rdiag_opcode_parse("MSP"), -EINVAL);
	EXPECT_EQ(rdiag_opcode_parse(""), -EINVAL);
	EXPECT_EQ(rdiag_opcode_parse(NULL), -EINVAL);

	/* the header-sequence table */
	EXPECT_EQ(rdiag_opcode_headers(0x00), H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x03), H(IMMDT) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x0B), H(RETH) | H(IMMDT) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x0C), H(RETH));
	EXPECT_EQ(rdiag_opcode_headers(0x0D), H(AETH) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x0E), H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x11), H(AETH));
	EXPECT_EQ(rdiag_opcode_headers(0x12), H(AETH) | H(ATOMICACKETH));
	EXPECT_EQ(rdiag_opcode_headers(0x13), H(ATOMICETH));
	EXPECT_EQ(rdiag_opcode_headers(0x17), H(IETH) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x1C), H(FETH) | H(RETH));
	EXPECT_EQ(rdiag_opcode_headers(0x1D), H(RETH) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x4B), H(RDETH) | H(DETH) | H(RETH) | H(IMMDT) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x51), H(RDETH) | H(AETH));
	EXPECT_EQ(rdiag_opcode_headers(0x64), H(DETH) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0x65), H(DETH) | H(IMMDT) | H(PAYLOAD));
	EXPECT_EQ(rdiag_opcode_headers(0xAC), H(XRCETH) | H(RETH));
	EXPECT_EQ(rdiag_opcode_headers(0xB1), H(AETH));
	EXPECT_EQ(rdiag_opcode_headers(0xF0), 0);
	EXPECT_TRUE(rdiag_opcode_is_request(0x0C) && !rdiag_opcode_is_response(0x0C));
	EXPECT_TRUE(rdiag_opcode_is_response(0x10) && !rdiag_opcode_is_request(0x10));
	EXPECT_TRUE(!rdiag_opcode_is_request(0x81) && !rdiag_opcode_is_response(0x81));
	/* responses never carry the requester-side headers; requests never an AETH */
	{
		unsigned int bad = 0;

		for (op = 0; op < 256; op++) {
			uint32_t h = rdiag_opcode_headers((uint8_t)op);

			if (rdiag_opcode_is_response((uint8_t)op) &&
			    (h & (H(RETH) | H(DETH) | H(XRCETH) | H(ATOMICETH) | H(IMMDT))))
				bad++;
			if (rdiag_opcode_is_request((uint8_t)op) && (h & (H(AETH) | H(ATOMICACKETH))))
				bad++;
			if (op >> 5 == 2 && rdiag_opcode_is_valid((uint8_t)op) && !(h & H(RDETH)))
				bad++;	/* every RD packet has an RDETH */
			if (op >> 5 == 2 && rdiag_opcode_is_request((uint8_t)op) && !(h & H(DETH)))
				bad++;	/* every RD request has a DETH */
			if (op >> 5 == 5 && rdiag_opcode_is_request((uint8_t)op) && !(h & H(XRCETH)))
				bad++;	/* every XRC request has an XRCETH */
		}
		EXPECT_EQ(bad, 0);
	}

	/* AETH tables */
	EXPECT_STREQ(rdiag_nak_name(0), "PSN_SEQ_ERR");
	EXPECT_STREQ(rdiag_nak_name(1), "INVALID_REQ");
	EXPECT_STREQ(rdiag_nak_name(2), "REMOTE_ACCESS_ERR");
	EXPECT_STREQ(rdiag_nak_name(3), "REMOTE_OP_ERR");
	EXPECT_STREQ(rdiag_nak_name(4), "INVALID_RD_REQ");
	EXPECT_STREQ(rdiag_nak_name(5), "RESERVED");
	EXPECT_STREQ(rdiag_nak_name(31), "RESERVED");
	EXPECT_DBL(rdiag_rnr_timer_ms(0), 655.36, 1e-9);
	EXPECT_DBL(rdiag_rnr_timer_ms(1), 0.01, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(5), 0.06, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(12), 0.64, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(14), 1.28, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(18), 5.12, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(24), 40.96, 1e-12);
	EXPECT_DBL(rdiag_rnr_timer_ms(31), 491.52, 1e-9);
	EXPECT_DBL(rdiag_rnr_timer_ms(32), -1.0, 0);
	/* the encoding grows with the code (1..31) */
	{
		unsigned int c, mono = 1;

		for (c = 2; c < 32; c++)
			mono &= rdiag_rnr_timer_ms(c) > rdiag_rnr_timer_ms(c - 1);
		EXPECT_TRUE(mono);
	}
	/* AETH credit codes 0..31: 0..4 as they are, then 2^k (even codes) and 1.5 * 2^k (odd
	 * codes) up to 32768 at 30; 31 is "invalid" (no end-to-end flow control) */
	EXPECT_EQ(rdiag_aeth_credits(5), 6);
	EXPECT_EQ(rdiag_aeth_credits(30), 32768);
	EXPECT_EQ(rdiag_aeth_credits(31), -1);
	EXPECT_EQ(rdiag_aeth_credits(32), -1);
	{
		unsigned int c, bad = 0;
		int32_t want;

		for (c = 0; c < 31; c++) {
			want = c <= 4 ? (int32_t)c : c % 2 ? 3 << ((c - 3) / 2) : 1 << (c / 2);
			if (rdiag_aeth_credits(c) != want) {
				EXPECT_EQ(rdiag_aeth_credits(c), want);
				bad++;
			}
		}
		EXPECT_EQ(bad, 0);
	}
	EXPECT_STREQ(rdiag_aeth_kind_name(RDIAG_AETH_ACK), "ack");
	EXPECT_STREQ(rdiag_aeth_kind_name(RDIAG_AETH_RNR_NAK), "rnr_nak");
	EXPECT_STREQ(rdiag_aeth_kind_name(RDIAG_AETH_NAK), "nak");
	EXPECT_STREQ(rdiag_aeth_kind_name(RDIAG_AETH_RESERVED), "reserved");

	/* names that tools print */
	EXPECT_STREQ(rdiag_encap_name(RDIAG_ENCAP_ROCEV2), "rocev2");
	EXPECT_STREQ(rdiag_encap_name(RDIAG_ENCAP_ROCEV1), "rocev1");
	EXPECT_STREQ(rdiag_encap_name(RDIAG_ENCAP_IB), "ib");
	EXPECT_STREQ(rdiag_pkt_status_name(RDIAG_PKT_TRUNCATED), "truncated");
	EXPECT_STREQ(rdiag_pkt_status_name(RDIAG_PKT_INVALID), "invalid");
	EXPECT_STREQ(rdiag_hdr_name(RDIAG_HDR_ATOMICACKETH), "atomicacketh");
	EXPECT_STREQ(rdiag_hdr_name(RDIAG_HDR_BTH), "bth");
	EXPECT_STREQ(rdiag_hdr_name(999), "unknown");
	{
		unsigned int h, all = 1;

		for (h = 0; h < RDIAG_HDR__COUNT; h++)
			all &= strcmp(rdiag_hdr_name(h), "unknown") != 0;
		EXPECT_TRUE(all);
		EXPECT_TRUE(RDIAG_HDR__COUNT <= 32);	/* fits the present bitmask */
	}
	EXPECT_EQ(rdiag_mtu_bytes(1), 256);
	EXPECT_EQ(rdiag_mtu_bytes(5), 4096);
	EXPECT_EQ(rdiag_mtu_bytes(6), 0);
	EXPECT_EQ(rdiag_mtu_bytes(0), 0);
	EXPECT_EQ(rdiag_mtu_from_bytes(2048), 4);
	EXPECT_EQ(rdiag_mtu_from_bytes(1500), 0);
	return tap_done();
}
