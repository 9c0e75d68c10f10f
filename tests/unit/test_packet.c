/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Header decoders over the generated vectors (packet_vectors.h, see gen_packet_vectors.py:
 * scapy-built RoCEv2 packets with scapy's ICRC, cross-checked with tshark).  Each vector's
 * fields are compared with the values the generator put in. */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "tap.h"
#include "rdmadiag/packet.h"
#include "packet_vectors.h"

static const struct pvec *vec(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_PVECS; i++)
		if (!strcmp(pvecs[i].name, name))
			return &pvecs[i];
	printf("# no vector %s\n", name);
	exit(2);
}

static struct rdiag_pkt P;

/* decode a vector from an exactly sized heap copy (ASan sees any over-read) */
static int dec(const char *name)
{
	const struct pvec *v = vec(name);
	uint8_t *b = malloc(v->len);
	int r;

	memcpy(b, v->data, v->len);
	r = rdiag_pkt_decode(&P, v->linktype, b, v->len, v->len, NULL);
	free(b);
	return r;
}

#define HAS(h) (!!(P.present & RDIAG_HAS(RDIAG_HDR_##h)))

static void ok_packet(const char *name)
{
	int r = dec(name);

	printf("# %s\n", name);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_NONE);
	EXPECT_TRUE(HAS(BTH) && HAS(ICRC) && HAS(PAYLOAD));
	EXPECT_TRUE(P.icrc_checked);
	EXPECT_TRUE(P.icrc_ok);
	EXPECT_EQ(P.icrc, P.icrc_computed);
}

int main(void)
{
	static const uint8_t src4[4] = { 198, 18, 0, 1 }, dst4[4] = { 198, 18, 0, 2 };
	unsigned int i;
	uint8_t *b;

	/* every vector decodes cleanly with a good ICRC */
	for (i = 0; i < N_PVECS; i++)
		ok_packet(pvecs[i].name);

	/* RoCEv2 / IPv4: addresses, ToS split, UDP, BTH flags, pad */
	dec("v4_send_only");
	EXPECT_EQ(P.encap, RDIAG_ENCAP_ROCEV2);
	EXPECT_EQ(P.ip_family, AF_INET);
	EXPECT_TRUE(!memcmp(P.ip_src, src4, 4) && !memcmp(P.ip_dst, dst4, 4));
	EXPECT_EQ(P.dscp, 0x6a >> 2);
	EXPECT_EQ(P.ecn, 2);
	EXPECT_EQ(P.ttl, 64);
	EXPECT_EQ(P.ip_df, 1);
	EXPECT_EQ(P.sport, 49152);
	EXPECT_EQ(P.dport, 4791);
	EXPECT_EQ(P.bth.opcode, 0x04);
	EXPECT_EQ(P.bth.se, 1);
	EXPECT_EQ(P.bth.padcnt, 3);
	EXPECT_EQ(P.pad, 3);
	EXPECT_EQ(P.bth.pkey, 0xffff);
	EXPECT_EQ(P.bth.destqp, 0x11);
	EXPECT_EQ(P.bth.ackreq, 1);
	EXPECT_EQ(P.bth.psn, 0x123456);
	EXPECT_EQ(P.bth.fecn, 0);
	EXPECT_EQ(P.payload_len, 13);
	EXPECT_EQ(P.payload_caplen, 13);
	EXPECT_EQ(P.payload_off, 14 + 20 + 8 + 12);
	EXPECT_TRUE(!HAS(RETH) && !HAS(AETH) && !HAS(VLAN) && !HAS(MAD));
	EXPECT_EQ(P.bth_off, 14 + 20 + 8);
	EXPECT_STREQ(rdiag_opcode_name(P.bth.opcode), "RC_SEND_ONLY");

	/* IPv4 options, RETH */
	dec("v4_opts_write_first");
	EXPECT_EQ(P.ip_hdr_len, 24);
	EXPECT_EQ(P.ip_opt_len, 4);
	EXPECT_EQ(P.ip_opt_off, 14 + 20);
	EXPECT_EQ(P.ecn, 3);
	EXPECT_TRUE(HAS(RETH));
	EXPECT_U64(P.reth.va, 0x00007F0012345678ULL);
	EXPECT_EQ(P.reth.rkey, 0xABCDEF01u);
	EXPECT_EQ(P.reth.dmalen, 4096);
	EXPECT_EQ(P.payload_len, 32);

	dec("v4_read_req");
	EXPECT_EQ(P.reth.dmalen, 65536);
	EXPECT_EQ(P.payload_len, 0);
	EXPECT_EQ(P.bth.ackreq, 1);

	dec("v4_read_resp_first");
	EXPECT_TRUE(HAS(AETH));
	EXPECT_EQ(P.aeth.kind, RDIAG_AETH_ACK);
	EXPECT_EQ(P.aeth.credits_code, 31);
	EXPECT_EQ(P.aeth.credits, -1);
	EXPECT_EQ(P.aeth.msn, 5);
	EXPECT_EQ(P.payload_len, 64);

	/* AETH syndrome split */
	dec("v4_ack");
	EXPECT_EQ(P.aeth.syndrome, 0x03);
	EXPECT_EQ(P.aeth.kind, RDIAG_AETH_ACK);
	EXPECT_EQ(P.aeth.credits_code, 3);
	EXPECT_EQ(P.aeth.credits, 3);
	EXPECT_EQ(P.aeth.msn, 0x102);
	dec("v4_rnr_nak");
	EXPECT_EQ(P.aeth.kind, RDIAG_AETH_RNR_NAK);
	EXPECT_EQ(P.aeth.timer, 14);
	EXPECT_DBL(P.aeth.timer_ms, 1.28, 1e-9);
	EXPECT_EQ(P.aeth.msn, 7);
	dec("v4_nak_seq");
	EXPECT_EQ(P.aeth.kind, RDIAG_AETH_NAK);
	EXPECT_EQ(P.aeth.nak, 0);
	EXPECT_STREQ(P.aeth.nak_name, "PSN_SEQ_ERR");
	dec("v4_nak_access");
	EXPECT_EQ(P.aeth.nak, 2);
	EXPECT_STREQ(P.aeth.nak_name, "REMOTE_ACCESS_ERR");

	/* atomics */
	dec("v4_cmp_swap");
	EXPECT_TRUE(HAS(ATOMICETH));
	EXPECT_U64(P.atomiceth.va, 0x00007F0012345678ULL);
	EXPECT_EQ(P.atomiceth.rkey, 0x55);
	EXPECT_U64(P.atomiceth.swap, 0x1111222233334444ULL);
	EXPECT_U64(P.atomiceth.compare, 0x5555666677778888ULL);
	dec("v4_atomic_ack");
	EXPECT_TRUE(HAS(AETH) && HAS(ATOMICACKETH));
	EXPECT_U64(P.atomicacketh_orig, 0xDEADBEEFCAFEF00DULL);
	EXPECT_EQ(P.aeth.msn, 10);

	dec("v4_send_imm");
	EXPECT_TRUE(HAS(IMMDT));
	EXPECT_EQ(P.immdt, 0xA1B2C3D4u);
	EXPECT_EQ(P.payload_len, 12);
	dec("v4_send_inv");
	EXPECT_TRUE(HAS(IETH));
	EXPECT_EQ(P.ieth_rkey, 0x00C0FFEE);
	EXPECT_STREQ(rdiag_opcode_name(P.bth.opcode), "RC_SEND_ONLY_INV");

	dec("v4_cnp");
	EXPECT_EQ(P.bth.opcode, 0x81);
	EXPECT_EQ(P.bth.becn, 1);
	EXPECT_EQ(P.payload_len, 16);
	EXPECT_STREQ(rdiag_opcode_name(P.bth.opcode), "CNP");

	/* FLUSH: FETH comes before RETH */
	dec("v4_flush");
	EXPECT_TRUE(HAS(FETH) && HAS(RETH));
	EXPECT_EQ(P.feth.raw, 0x21);
	EXPECT_EQ(P.feth.sel, 2);
	EXPECT_EQ(P.feth.plt, 1);
	EXPECT_EQ(P.reth.rkey, 7);
	EXPECT_EQ(P.reth.dmalen, 64);

	dec("v4_xrc_send");
	EXPECT_TRUE(HAS(XRCETH));
	EXPECT_EQ(P.xrceth_xrcsrq, 0xABCD);
	EXPECT_EQ(P.payload_len, 3);

	dec("v4_ud_send");
	EXPECT_TRUE(HAS(DETH));
	EXPECT_EQ(P.deth_qkey, 0x11111111);
	EXPECT_EQ(P.deth_srcqp, 0x12);
	EXPECT_TRUE(!HAS(MAD));		/* not QP0/QP1 */

	/* VLAN stack: 802.1ad outer, 802.1Q inner */
	dec("v4_vlan2");
	EXPECT_TRUE(HAS(VLAN));
	EXPECT_EQ(P.n_vlan, 2);
	EXPECT_EQ(P.vlan_depth, 2);
	EXPECT_EQ(P.vlan[0].tpid, 0x88a8);
	EXPECT_EQ(P.vlan[0].vid, 100);
	EXPECT_EQ(P.vlan[0].pcp, 5);
	EXPECT_EQ(P.vlan[1].tpid, 0x8100);
	EXPECT_EQ(P.vlan[1].vid, 200);
	EXPECT_EQ(P.vlan[1].pcp, 3);
	EXPECT_EQ(P.vlan[1].dei, 1);
	EXPECT_EQ(P.ethertype, 0x0800);

	dec("v4_msp");
	EXPECT_EQ(P.bth.opcode, 0xE5);
	EXPECT_STREQ(rdiag_opcode_name(P.bth.opcode), "MSP");
	EXPECT_EQ(P.payload_len, 6);

	/* IPv6 */
	dec("v6_write_only");
	EXPECT_EQ(P.ip_family, AF_INET6);
	EXPECT_EQ(P.dscp, 0x6a >> 2);
	EXPECT_EQ(P.ecn, 2);
	EXPECT_EQ(P.flow_label, 0x12345);
	EXPECT_EQ(P.ttl, 64);
	EXPECT_EQ(P.ip_dst[15], 2);
	EXPECT_EQ(P.sport, 49153);
	EXPECT_EQ(P.reth.rkey, 0x99);
	EXPECT_EQ(P.payload_len, 16);

	/* RoCEv1: GRH */
	dec("rocev1_send");
	EXPECT_EQ(P.encap, RDIAG_ENCAP_ROCEV1);
	EXPECT_TRUE(HAS(GRH) && !HAS(IPV4) && !HAS(UDP));
	EXPECT_EQ(P.grh.ipver, 6);
	EXPECT_EQ(P.grh.tclass, 0x28);
	EXPECT_EQ(P.grh.flow_label, 0x54321);
	EXPECT_EQ(P.grh.hoplmt, 1);
	EXPECT_EQ(P.grh.nxthdr, 0x1b);
	EXPECT_EQ(P.grh.sgid[15], 1);
	EXPECT_EQ(P.grh.dgid[15], 2);
	EXPECT_EQ(P.grh.dgid[0], 0xfe);
	EXPECT_EQ(P.payload_len, 7);
	EXPECT_EQ(P.pad, 1);

	/* native IB, local (LRH) and global (LRH + GRH), with VCRC */
	dec("ib_local_send");
	EXPECT_EQ(P.encap, RDIAG_ENCAP_IB);
	EXPECT_TRUE(HAS(LRH) && !HAS(GRH) && HAS(VCRC));
	EXPECT_EQ(P.lrh.vl, 3);
	EXPECT_EQ(P.lrh.lnh, 2);
	EXPECT_EQ(P.lrh.dlid, 5);
	EXPECT_EQ(P.lrh.slid, 3);
	EXPECT_EQ(P.lrh.pktlen * 4, vec("ib_local_send")->len - 2);
	EXPECT_TRUE(P.vcrc_checked && P.vcrc_ok);
	EXPECT_EQ(P.payload_len, 7);
	dec("ib_global_ack");
	EXPECT_TRUE(HAS(LRH) && HAS(GRH) && HAS(AETH) && HAS(VCRC));
	EXPECT_EQ(P.lrh.sl, 1);
	EXPECT_EQ(P.lrh.lnh, 3);
	EXPECT_EQ(P.lrh.dlid, 7);
	EXPECT_EQ(P.grh.hoplmt, 2);
	EXPECT_EQ(P.aeth.msn, 12);
	EXPECT_TRUE(P.vcrc_ok);

	/* other link types carry the same packet */
	{
		static const char *const lt[] = { "sll_send", "sll2_send", "raw_send", "ipv4_send" };
		unsigned int k;

		for (k = 0; k < 4; k++) {
			dec(lt[k]);
			EXPECT_EQ(P.bth.psn, 0x123456);
			EXPECT_EQ(P.payload_len, 13);
		}
		dec("sll2_send");
		EXPECT_EQ(P.sll_ifindex, 3);
		/* DLT_RAW as BSD (12) and OpenBSD (14) number it */
		{
			const struct pvec *v = vec("raw_send");

			EXPECT_EQ(rdiag_pkt_decode(&P, 12, v->data, v->len, v->len, NULL), 0);
			EXPECT_TRUE(P.icrc_ok);
			EXPECT_EQ(rdiag_pkt_decode(&P, 14, v->data, v->len, v->len, NULL), 0);
			EXPECT_TRUE(P.icrc_ok);
		}
		dec("ipv6_write_only");
		EXPECT_EQ(P.flow_label, 0x12345);
	}

	/* ICRC: one flipped bit anywhere covered is caught, in masked fields it is not */
	{
		const struct pvec *v = vec("v4_send_only");
		unsigned int k, bad_detect = 0, masked_ok = 0;

		b = malloc(v->len);
		for (k = 14; k < v->len - 4; k++) {
			memcpy(b, v->data, v->len);
			b[k] ^= 0x01;
			rdiag_pkt_decode(&P, 1, b, v->len, v->len, NULL);
			/* TOS(15), TTL(22), IP csum(24,25), UDP csum(40,41), BTH byte 4 (46) */
			if (k == 15 || k == 22 || k == 24 || k == 25 || k == 40 || k == 41 || k == 46)
				masked_ok += P.icrc_checked && P.icrc_ok;
			else if (P.icrc_checked && P.icrc_ok)
				bad_detect++;
		}
		EXPECT_EQ(bad_detect, 0);
		EXPECT_EQ(masked_ok, 7);
		/* a bad ICRC is reported, not fatal: headers still decoded */
		memcpy(b, v->data, v->len);
		b[v->len - 1] ^= 0xff;
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, b, v->len, v->len, NULL), 0);
		EXPECT_EQ(P.status, RDIAG_PKT_OK);
		EXPECT_TRUE(P.icrc_checked && !P.icrc_ok);
		EXPECT_EQ(P.bth.psn, 0x123456);
		free(b);
	}

	/* ICRC check off */
	{
		struct rdiag_decode_opts o;
		const struct pvec *v = vec("v4_ack");

		rdiag_decode_opts_init(&o);
		o.check_icrc = false;
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, v->data, v->len, v->len, &o), 0);
		EXPECT_TRUE(HAS(ICRC) && !P.icrc_checked);
	}

	/* the UDP port list */
	{
		struct rdiag_decode_opts o;
		const struct pvec *v = vec("v4_ack");

		rdiag_decode_opts_init(&o);
		EXPECT_EQ(o.n_ports, 1);
		EXPECT_EQ(o.ports[0], 4791);
		EXPECT_EQ(rdiag_decode_opts_add_port(&o, 4791), -EEXIST);
		o.n_ports = 0;
		EXPECT_EQ(rdiag_decode_opts_add_port(&o, 5000), 0);
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, v->data, v->len, v->len, &o), RDIAG_SKIP_UDP_PORT);
		EXPECT_EQ(rdiag_decode_opts_add_port(&o, 4791), 0);
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, v->data, v->len, v->len, &o), 0);
		for (i = 2; i < RDIAG_MAX_PORTS; i++)
			EXPECT_EQ(rdiag_decode_opts_add_port(&o, (uint16_t)(6000 + i)), 0);
		EXPECT_EQ(rdiag_decode_opts_add_port(&o, 7000), -ENOSPC);
	}

	/* not RDMA: the positive skip codes */
	{
		uint8_t f[62];
		const struct pvec *v = vec("v4_ack");

		EXPECT_EQ(v->len, sizeof(f));

		memcpy(f, v->data, sizeof(f));
		f[12] = 0x08, f[13] = 0x06;			/* ARP */
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, f, sizeof(f), sizeof(f), NULL), RDIAG_SKIP_ETHERTYPE);
		memcpy(f, v->data, sizeof(f));
		f[14 + 9] = 6;					/* TCP */
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, f, sizeof(f), sizeof(f), NULL), RDIAG_SKIP_IP_PROTO);
		memcpy(f, v->data, sizeof(f));
		f[14 + 6] = 0x20;				/* MF */
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, f, sizeof(f), sizeof(f), NULL), RDIAG_SKIP_FRAGMENT);
		memcpy(f, v->data, sizeof(f));
		f[14 + 20 + 2] = 0x00, f[14 + 20 + 3] = 53;	/* DNS */
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, f, sizeof(f), sizeof(f), NULL), RDIAG_SKIP_UDP_PORT);
		EXPECT_EQ(rdiag_pkt_decode(&P, 1, f, 10, sizeof(f), NULL), RDIAG_SKIP_SHORT);
		EXPECT_EQ(P.status, RDIAG_PKT_TRUNCATED);
		EXPECT_EQ(P.stopped_in, RDIAG_HDR_LINK);
		EXPECT_STREQ(rdiag_pkt_skip_name(RDIAG_SKIP_UDP_PORT), "not a RoCEv2 port");
	}

	/* bad arguments */
	EXPECT_EQ(rdiag_pkt_decode(NULL, 1, pv_v4_ack, 10, 10, NULL), -EINVAL);
	EXPECT_EQ(rdiag_pkt_decode(&P, 1, NULL, 10, 10, NULL), -EINVAL);
	EXPECT_EQ(rdiag_pkt_decode(&P, 1, NULL, 0, 0, NULL), RDIAG_SKIP_SHORT);
	EXPECT_EQ(rdiag_pkt_decode(&P, 105, pv_v4_ack, 10, 10, NULL), -EPROTONOSUPPORT);
	EXPECT_TRUE(rdiag_linktype_supported(276));
	EXPECT_TRUE(!rdiag_linktype_supported(105));

	/* rdiag_pkt_icrc recomputes what is on the wire (generator use) */
	{
		const struct pvec *v = vec("v6_write_only");
		uint32_t c = 0;

		dec("v6_write_only");
		EXPECT_EQ(rdiag_pkt_icrc(&P, v->data, v->len, &c), 0);
		EXPECT_EQ(c, P.icrc);
		EXPECT_EQ(rdiag_pkt_icrc(&P, v->data, 60, &c), -ENODATA);
	}
	return tap_done();
}
