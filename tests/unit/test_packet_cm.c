/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAD / CM decoding on QP1: every CM message of the vectors (built by
 * gen_packet_vectors.py and checked field by field against tshark's CM dissector). */
#include <stdlib.h>
#include <sys/socket.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "packet_vectors.h"

static struct rdiag_pkt P;

static void dec(const uint8_t *d, unsigned int n)
{
	uint8_t *b = malloc(n);

	memcpy(b, d, n);
	EXPECT_EQ(rdiag_pkt_decode(&P, 1, b, n, n, NULL), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.present & RDIAG_HAS_MAD);
	EXPECT_TRUE(P.present & RDIAG_HAS_CM);
	EXPECT_EQ(P.bth.opcode, 0x64);
	EXPECT_EQ(P.bth.destqp, 1);
	EXPECT_EQ(P.deth_qkey, 0x80010000u);
	EXPECT_EQ(P.mad.base_version, 1);
	EXPECT_EQ(P.mad.mgmt_class, 0x07);
	EXPECT_EQ(P.mad.class_version, 2);
	EXPECT_EQ(P.mad.method, 0x03);
	EXPECT_U64(P.mad.tid, 0x12345678);
	EXPECT_EQ(P.cm.msg, P.mad.attr_id);
	free(b);
}

#define DEC(v) dec(v, sizeof(v))

int main(void)
{
	static const uint8_t s4[4] = { 198, 18, 0, 1 }, d4[4] = { 198, 18, 0, 2 };

	DEC(pv_cm_req);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_REQ);
	EXPECT_STREQ(rdiag_cm_msg_name(P.cm.msg), "REQ");
	EXPECT_EQ(P.cm.local_comm_id, 0x11223344);
	EXPECT_U64(P.cm.service_id, 0x0000000001061D2FULL);
	EXPECT_TRUE(P.cm.sid_is_ip);
	EXPECT_EQ(P.cm.port_space, RDIAG_PS_TCP);
	EXPECT_STREQ(rdiag_port_space_name(P.cm.port_space), "TCP");
	EXPECT_EQ(P.cm.port, 7471);
	EXPECT_U64(P.cm.local_ca_guid, 0x0002C90300A1B2C3ULL);
	EXPECT_EQ(P.cm.local_qpn, 0x123);
	EXPECT_EQ(P.cm.resp_resources, 1);
	EXPECT_EQ(P.cm.initiator_depth, 1);
	EXPECT_EQ(P.cm.remote_cm_timeout, 20);
	EXPECT_EQ(P.cm.transport, 0);
	EXPECT_EQ(P.cm.starting_psn, 0x0ABCDE);
	EXPECT_EQ(P.cm.local_cm_timeout, 20);
	EXPECT_EQ(P.cm.retry_count, 7);
	EXPECT_EQ(P.cm.pkey, 0xffff);
	EXPECT_EQ(P.cm.path_mtu, 3);
	EXPECT_EQ(rdiag_mtu_bytes(P.cm.path_mtu), 1024);
	EXPECT_EQ(P.cm.rnr_retry_count, 7);
	EXPECT_EQ(P.cm.max_cm_retries, 15);
	EXPECT_EQ(P.cm.primary_slid, 0xffff);
	EXPECT_TRUE(!memcmp(P.cm.primary_sgid + 12, s4, 4));
	EXPECT_TRUE(!memcmp(P.cm.primary_dgid + 12, d4, 4));
	EXPECT_TRUE(P.cm.has_ip);
	EXPECT_EQ(P.cm.ip_family, AF_INET);
	EXPECT_EQ(P.cm.ip_cma_version, 0);
	EXPECT_EQ(P.cm.ip_src_port, 40000);
	EXPECT_TRUE(!memcmp(P.cm.ip_src, s4, 4));
	EXPECT_TRUE(!memcmp(P.cm.ip_dst, d4, 4));
	EXPECT_EQ(P.cm.priv_len, 92);
	EXPECT_EQ(P.cm.priv_off, 14 + 20 + 8 + 12 + 8 + 24 + 140);

	DEC(pv_cm_rep);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_REP);
	EXPECT_EQ(P.cm.local_comm_id, 0x55667788);
	EXPECT_EQ(P.cm.remote_comm_id, 0x11223344);
	EXPECT_EQ(P.cm.local_qpn, 0x456);
	EXPECT_EQ(P.cm.starting_psn, 0xFEDC);
	EXPECT_EQ(P.cm.target_ack_delay, 15);
	EXPECT_EQ(P.cm.rnr_retry_count, 7);
	EXPECT_U64(P.cm.local_ca_guid, 0x0002C90300D4E5F6ULL);
	EXPECT_TRUE(!P.cm.has_ip);

	DEC(pv_cm_rtu);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_RTU);
	EXPECT_EQ(P.cm.local_comm_id, 0x11223344);
	EXPECT_EQ(P.cm.remote_comm_id, 0x55667788);

	DEC(pv_cm_rej);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_REJ);
	EXPECT_EQ(P.cm.local_comm_id, 0x99AABBCCu);
	EXPECT_EQ(P.cm.remote_comm_id, 0x11223344);
	EXPECT_EQ(P.cm.msg_rejected, 0);
	EXPECT_EQ(P.cm.reason, 8);
	EXPECT_STREQ(P.cm.reason_name, "INVALID_SERVICE_ID");

	DEC(pv_cm_mra);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_MRA);
	EXPECT_EQ(P.cm.msg_mraed, 0);
	EXPECT_EQ(P.cm.service_timeout, 18);

	DEC(pv_cm_dreq);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_DREQ);
	EXPECT_EQ(P.cm.local_comm_id, 0x11223344);
	EXPECT_EQ(P.cm.remote_comm_id, 0x55667788);
	EXPECT_EQ(P.cm.remote_qpn, 0x456);

	DEC(pv_cm_drep);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_DREP);
	EXPECT_EQ(P.cm.local_comm_id, 0x55667788);

	DEC(pv_cm_sidr_req);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_SIDR_REQ);
	EXPECT_EQ(P.cm.local_comm_id, 0x01020304);
	EXPECT_EQ(P.cm.port_space, RDIAG_PS_UDP);
	EXPECT_EQ(P.cm.port, 5000);
	EXPECT_TRUE(P.cm.has_ip);
	EXPECT_EQ(P.cm.ip_family, AF_INET6);
	EXPECT_EQ(P.cm.ip_src_port, 5001);
	EXPECT_EQ(P.cm.ip_src[0], 0xfe);
	EXPECT_EQ(P.cm.ip_src[15], 1);
	EXPECT_EQ(P.cm.ip_dst[15], 2);

	DEC(pv_cm_sidr_rep);
	EXPECT_EQ(P.cm.msg, RDIAG_CM_SIDR_REP);
	EXPECT_EQ(P.cm.sidr_status, 0);
	EXPECT_EQ(P.cm.local_qpn, 0x789);
	EXPECT_EQ(P.cm.qkey, 0x1234ABCD);
	EXPECT_EQ(P.cm.port, 5000);

	/* MAD decoding can be switched off; a non-IP service ID is not split */
	{
		struct rdiag_decode_opts o;
		uint8_t b[sizeof(pv_cm_req)];
		uint32_t sid = 14 + 20 + 8 + 12 + 8 + 24 + 8;

		rdiag_decode_opts_init(&o);
		o.decode_mad = false;
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, pv_cm_req, sizeof(b), sizeof(b), &o), 0);
		EXPECT_TRUE(!(P.present & (RDIAG_HAS_MAD | RDIAG_HAS_CM)));
		memcpy(b, pv_cm_req, sizeof(b));
		b[sid + 3] = 0x02;	/* 0x00000002_01061D2F: not the RDMA IP form */
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, b, sizeof(b), sizeof(b), NULL), 0);
		EXPECT_TRUE(P.present & RDIAG_HAS_CM);
		EXPECT_TRUE(!P.cm.sid_is_ip);
		EXPECT_TRUE(!P.cm.has_ip);
		EXPECT_EQ(P.cm.port, 0);
		/* another class on QP1 (SA): header only */
		memcpy(b, pv_cm_req, sizeof(b));
		b[sid - 8 - 24 + 1] = 0x03;
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, b, sizeof(b), sizeof(b), NULL), 0);
		EXPECT_TRUE(P.present & RDIAG_HAS_MAD);
		EXPECT_TRUE(!(P.present & RDIAG_HAS_CM));
		EXPECT_EQ(P.mad.mgmt_class, 3);
		EXPECT_STREQ(rdiag_mad_class_name(3), "SUBN_ADM");
	}

	/* reject reasons: all IB CM reasons 1..35 except the unassigned 34 */
	{
		unsigned int r, named = 0;

		for (r = 0; r < 64; r++)
			named += rdiag_cm_rej_reason_name(r) != NULL;
		EXPECT_EQ(named, 34);
		EXPECT_TRUE(rdiag_cm_rej_reason_name(0) == NULL);
		EXPECT_TRUE(rdiag_cm_rej_reason_name(34) == NULL);
		EXPECT_STREQ(rdiag_cm_rej_reason_name(1), "NO_QP");
		EXPECT_STREQ(rdiag_cm_rej_reason_name(26), "INVALID_MTU");
		EXPECT_STREQ(rdiag_cm_rej_reason_name(28), "CONSUMER_DEFINED");
		EXPECT_STREQ(rdiag_cm_rej_reason_name(33), "INVALID_ALT_FLOW_LABEL");
		EXPECT_STREQ(rdiag_cm_rej_reason_name(35), "VENDOR_OPTION_NOT_SUPPORTED");
		EXPECT_TRUE(rdiag_cm_rej_reason_name(36) == NULL);
	}
	EXPECT_STREQ(rdiag_cm_msg_name(0x18), "SIDR_REP");
	EXPECT_TRUE(rdiag_cm_msg_name(0x42) == NULL);
	EXPECT_STREQ(rdiag_port_space_name(0x013F), "IB");
	EXPECT_TRUE(rdiag_port_space_name(0x0107) == NULL);
	return tap_done();
}
