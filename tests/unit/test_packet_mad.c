/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAD class headers and bodies (lib/packet/mad_*.c): SMP LID-routed and directed-route, SA
 * with RMPP segmentation, PerfMgt, CM LAP/SIDR, truncated and invalid bodies.  The frames are
 * built here byte by byte at the IBTA byte offsets (not through the field tables they test),
 * and the tables are checked against themselves (every field inside its record) and against
 * rdmadump(1) (every key documented). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "rdmadiag/packet.h"

enum { LRH = 8, BTH = 12, DETH = 8, MAD = 256, HDRS = LRH + BTH + DETH, FRAME = HDRS + MAD + 6 };

static uint8_t F[FRAME];
static struct rdiag_pkt P;

/* a native IB UD SEND_ONLY to QP0 (SMP) or QP1 carrying one 256-byte MAD */
static uint8_t *frame(uint8_t mclass, uint8_t method, uint16_t attr, unsigned int mad_len)
{
	unsigned int words = (LRH + BTH + DETH + mad_len + 4) / 4;
	uint8_t *m = F + HDRS;

	memset(F, 0, sizeof(F));
	F[0] = 0x00;			/* VL 0, LVer 0 */
	F[1] = 0x02;			/* SL 0, LNH 2: BTH follows */
	F[2] = 0x00, F[3] = 0x05;	/* DLID 5 */
	F[4] = (uint8_t)(words >> 8), F[5] = (uint8_t)words;
	F[6] = 0x00, F[7] = 0x01;	/* SLID 1 */
	F[8] = 0x64;			/* UD_SEND_ONLY */
	F[10] = 0xff, F[11] = 0xff;	/* P_Key */
	F[15] = (mclass == 0x01 || mclass == 0x81) ? 0 : 1;	/* DestQP */
	F[20] = 0x80, F[21] = 0x01;	/* Q_Key 0x80010000 */
	F[27] = F[15];			/* SrcQP */
	m[0] = 1;
	m[1] = mclass;
	m[2] = mclass == 0x03 ? 2 : 1;
	m[3] = method;
	m[8] = 0x11, m[15] = 0x42;	/* TID 0x1100000000000042 */
	m[16] = (uint8_t)(attr >> 8), m[17] = (uint8_t)attr;
	return m;
}

static int decode(unsigned int caplen, unsigned int len)
{
	struct rdiag_decode_opts o;

	rdiag_decode_opts_init(&o);
	o.check_icrc = false;
	return rdiag_pkt_decode(&P, RDIAG_DLT_INFINIBAND, F, caplen, len, &o);
}

static int dec(void)
{
	return decode(FRAME, FRAME);
}

static const struct rdiag_mad_field *field(const struct rdiag_mad_attr *a, const char *name)
{
	for (unsigned int i = 0; a && i < a->n_fields; i++)
		if (!strcmp(a->fields[i].name, name))
			return &a->fields[i];
	return NULL;
}

/* field `name` of record i of the decoded packet */
static uint64_t fv(const char *name, unsigned int i)
{
	const struct rdiag_mad_field *f = field(P.mad.layout, name);

	if (!f) {
		EXPECT_STREQ(name, "(a field of the layout)");
		return ~0ULL;
	}
	return rdiag_mad_bits(F + P.mad.data_off + i * P.mad.rec_stride, f->off, f->bits);
}

static void smp_lid_routed(void)
{
	uint8_t *m = frame(0x01, 0x81, 0x0015, MAD), *d = m + 64;

	m[24] = 0xAB, m[31] = 0xCD;		/* M_Key */
	d[16] = 0x00, d[17] = 0x07;		/* LID 7 */
	d[18] = 0x00, d[19] = 0x01;		/* MasterSMLID 1 */
	d[31] = 0x02;				/* LinkWidthActive 4x */
	d[32] = 0x14;				/* LinkSpeedSupported 1, PortState 4 */
	d[33] = 0x52;				/* PhysicalState 5, LinkDownDefault 2 */
	d[34] = 0x02;				/* LMC 2 */
	d[36] = 0x53;				/* NeighborMTU 5, MasterSMSL 3 */
	d[51] = 0x12;				/* subnet timeout: bits 411..415 = 0x12 */
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.present & RDIAG_HAS_MAD_CLASS);
	EXPECT_TRUE(P.present & RDIAG_HAS_MAD_DATA);
	EXPECT_TRUE(!(P.present & RDIAG_HAS_RMPP));
	EXPECT_TRUE(!P.mad.dr);
	EXPECT_U64(P.mad.m_key, 0xAB000000000000CDULL);
	EXPECT_STREQ(P.mad.layout->name, "PortInfo");
	EXPECT_STREQ(rdiag_mad_attr_name(0x01, 0x0015), "PortInfo");
	EXPECT_STREQ(rdiag_mad_method_name(P.mad.method), "GetResp");
	EXPECT_EQ(P.mad.data_off, HDRS + 64);
	EXPECT_U64(fv("lid", 0), 7);
	EXPECT_U64(fv("master_sm_lid", 0), 1);
	EXPECT_U64(fv("link_width_active", 0), 2);
	EXPECT_U64(fv("link_speed_supported", 0), 1);
	EXPECT_U64(fv("port_state", 0), 4);
	EXPECT_STREQ(field(P.mad.layout, "port_state")->vname(4), "ACTIVE");
	EXPECT_U64(fv("port_physical_state", 0), 5);
	EXPECT_STREQ(field(P.mad.layout, "port_physical_state")->vname(5), "LINK_UP");
	EXPECT_U64(fv("link_down_default_state", 0), 2);
	EXPECT_U64(fv("lmc", 0), 2);
	EXPECT_U64(fv("neighbor_mtu", 0), 5);
	EXPECT_U64(fv("master_sm_sl", 0), 3);
	EXPECT_U64(fv("subnet_timeout", 0), 0x12);
}

static void smp_directed_route(void)
{
	uint8_t *m = frame(0x81, 0x81, 0x0011, MAD), *d = m + 64;

	m[4] = 0x80, m[5] = 0x00;		/* D bit, status 0 */
	m[6] = 3, m[7] = 2;			/* hop pointer 3, hop count 2 */
	m[32] = 0xff, m[33] = 0xff;		/* DrSLID permissive */
	m[34] = 0xff, m[35] = 0xff;
	m[129] = 1, m[130] = 7;			/* initial path: port 1, port 7 */
	m[193] = 4, m[194] = 1;			/* return path */
	d[2] = 2;				/* NodeType switch */
	d[3] = 36;				/* NumPorts */
	d[12] = 0x00, d[13] = 0x02, d[14] = 0xc9, d[19] = 0x77;	/* NodeGUID */
	d[37] = 0x00, d[38] = 0x02, d[39] = 0xc9;	/* VendorID */
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.mad.dr);
	EXPECT_EQ(P.mad.d_bit, 1);
	EXPECT_EQ(P.mad.status, 0x8000);	/* as on the wire */
	EXPECT_EQ(P.mad.hop_ptr, 3);
	EXPECT_EQ(P.mad.hop_cnt, 2);
	EXPECT_EQ(P.mad.dr_slid, 0xffff);
	EXPECT_EQ(P.mad.dr_dlid, 0xffff);
	EXPECT_EQ(P.mad.path_off, HDRS + 128);
	EXPECT_EQ(F[P.mad.path_off + 2], 7);
	EXPECT_EQ(F[P.mad.path_off + 64 + 1], 4);
	EXPECT_STREQ(P.mad.layout->name, "NodeInfo");
	EXPECT_U64(fv("node_type", 0), 2);
	EXPECT_U64(fv("num_ports", 0), 36);
	EXPECT_U64(fv("node_guid", 0), 0x0002c90000000077ULL);
	EXPECT_U64(fv("vendor_id", 0), 0x02c9);
	/* cut in the return path: the class header is where it stopped */
	EXPECT_EQ(decode(HDRS + 200, FRAME), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_TRUNCATED);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MAD_CLASS);
	EXPECT_TRUE(P.present & RDIAG_HAS_MAD_DATA);	/* the data before it is whole */
	EXPECT_EQ(P.mad.path_off, 0);
}

static void put_path_record(uint8_t *r, uint8_t dgid_last, uint16_t pkey)
{
	r[8] = 0xfe, r[9] = 0x80, r[23] = dgid_last;	/* DGID */
	r[24] = 0xfe, r[25] = 0x80, r[39] = 0x01;	/* SGID */
	r[40] = 0x00, r[41] = dgid_last;		/* DLID */
	r[42] = 0x00, r[43] = 0x01;			/* SLID */
	r[44] = 0x01, r[45] = 0x23, r[46] = 0x40;	/* FlowLabel 0x12340 (bits 356..375) */
	r[47] = 0x40;					/* HopLimit 64 */
	r[49] = 0x81;					/* Reversible, NumbPath 1 */
	r[50] = (uint8_t)(pkey >> 8), r[51] = (uint8_t)pkey;
	r[53] = 0x05;					/* SL 5 */
	r[54] = 0x84;					/* MTU selector EQ(2), MTU 4 */
	r[55] = 0x80 | 16;				/* rate selector EQ, rate 100 */
	r[56] = 0x80 | 18;				/* packet life time 18 */
}

static void sa_path_records(void)
{
	uint8_t *m = frame(0x03, 0x92, 0x0035, MAD);

	m[24] = 1, m[25] = 1;				/* RMPP v1 DATA */
	m[26] = 0x07;					/* active, first, last */
	m[31] = 1;					/* segment 1 */
	m[35] = 20 + 2 * 64;				/* payload length */
	m[45] = 8;					/* AttributeOffset: 64 bytes */
	m[55] = 0x0c, m[54] = 0x20;			/* ComponentMask DGID SGID PKEY */
	put_path_record(m + 56, 0x22, 0x8001);
	put_path_record(m + 56 + 64, 0x33, 0xffff);
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_TRUE(P.present & RDIAG_HAS_RMPP);
	EXPECT_EQ(P.mad.rmpp.type, 1);
	EXPECT_EQ(P.mad.rmpp.flags, 7);
	EXPECT_EQ(P.mad.rmpp.seg_num, 1);
	EXPECT_EQ(P.mad.rmpp.paylen, 148);
	EXPECT_EQ(P.mad.attr_offset, 8);
	EXPECT_U64(P.mad.comp_mask, 0x200cULL);
	EXPECT_STREQ(rdiag_mad_comp_name(P.mad.layout, 2), "dgid");
	EXPECT_STREQ(rdiag_mad_comp_name(P.mad.layout, 3), "sgid");
	EXPECT_STREQ(rdiag_mad_comp_name(P.mad.layout, 13), "p_key");
	EXPECT_TRUE(rdiag_mad_comp_name(P.mad.layout, 7) == NULL);	/* reserved */
	EXPECT_EQ(P.mad.n_records, 2);
	EXPECT_EQ(P.mad.first_record, 0);
	EXPECT_EQ(P.mad.data_off, HDRS + 56);
	EXPECT_U64(fv("dlid", 0), 0x22);
	EXPECT_U64(fv("dlid", 1), 0x33);
	EXPECT_U64(fv("p_key", 0), 0x8001);
	EXPECT_U64(fv("p_key", 1), 0xffff);
	EXPECT_U64(fv("flow_label", 0), 0x12340);
	EXPECT_U64(fv("hop_limit", 0), 64);
	EXPECT_U64(fv("reversible", 0), 1);
	EXPECT_U64(fv("numb_path", 0), 1);
	EXPECT_U64(fv("sl", 0), 5);
	EXPECT_U64(fv("mtu_selector", 0), 2);
	EXPECT_U64(fv("mtu", 0), 4);
	EXPECT_U64(fv("rate", 0), 16);
	EXPECT_U64(fv("packet_life_time", 0), 18);
	/* cut inside the second record: the first is kept, the packet is truncated */
	EXPECT_EQ(decode(HDRS + 56 + 64 + 30, FRAME), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_TRUNCATED);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MAD_DATA);
	EXPECT_EQ(P.mad.n_records, 1);
	/* cut in the RMPP header, in the SA header */
	EXPECT_EQ(decode(HDRS + 30, FRAME), 0);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_RMPP);
	EXPECT_TRUE(!(P.present & RDIAG_HAS_RMPP));
	EXPECT_EQ(decode(HDRS + 40, FRAME), 0);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MAD_CLASS);
	EXPECT_TRUE(P.present & RDIAG_HAS_RMPP);
	/* records that the SA says are shorter than a PathRecord: invalid */
	m[45] = 4;
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MAD_DATA);
}

static void sa_middle_segment(void)
{
	uint8_t *m = frame(0x03, 0x92, 0x0035, MAD);

	/* segment 2 of a table of 64-byte records: its data starts at table byte 200, so its
	 * first whole record is #4 at byte 256 - 200 = 56 of the segment; #5 ends at 184 */
	m[24] = 1, m[25] = 1, m[26] = 0x01, m[31] = 2;
	m[45] = 8;
	put_path_record(m + 56 + 56, 0x44, 0x7fff);
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_EQ(P.mad.first_record, 4);
	EXPECT_EQ(P.mad.n_records, 2);
	EXPECT_EQ(P.mad.data_off, HDRS + 56 + 56);
	EXPECT_U64(fv("dlid", 0), 0x44);
	/* an RMPP ACK carries no records */
	m[25] = 2;
	EXPECT_EQ(dec(), 0);
	EXPECT_TRUE(!(P.present & RDIAG_HAS_MAD_DATA));
	EXPECT_STREQ(rdiag_rmpp_type_name(2), "ACK");
}

static void sa_error_status(void)
{
	uint8_t *m = frame(0x03, 0x81, 0x0035, MAD);

	m[4] = 0x03, m[5] = 0x00;	/* ERR_NO_RECORDS */
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.mad.status >> 8, 3);
	EXPECT_STREQ(rdiag_sa_status_name(P.mad.status >> 8), "ERR_NO_RECORDS");
	EXPECT_STREQ(rdiag_mad_status_code_name(7), "INVALID_ATTR_VALUE");
	EXPECT_TRUE(rdiag_mad_status_code_name(0) == NULL);
	EXPECT_EQ(P.mad.n_records, 1);	/* attr_offset 0: a single record */
}

static void perf_counters(void)
{
	uint8_t *m = frame(0x04, 0x81, 0x0012, MAD), *d = m + 64;

	d[1] = 1;				/* PortSelect */
	d[4] = 0x01, d[5] = 0x02;		/* SymbolErrorCounter 0x0102 */
	d[7] = 9;				/* LinkDownedCounter */
	d[24] = 0x12, d[27] = 0x34;		/* PortXmitData */
	d[40] = 0xff, d[43] = 0x01;		/* PortXmitWait */
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_STREQ(P.mad.layout->name, "PortCounters");
	EXPECT_U64(fv("port_select", 0), 1);
	EXPECT_U64(fv("symbol_error_counter", 0), 0x0102);
	EXPECT_U64(fv("link_downed_counter", 0), 9);
	EXPECT_U64(fv("port_xmit_data", 0), 0x12000034);
	EXPECT_U64(fv("port_xmit_wait", 0), 0xff000001);
	m = frame(0x04, 0x81, 0x001D, MAD);
	d = m + 64;
	d[8] = 0x01, d[15] = 0x02;		/* PortXmitData (64 bits) */
	d[64] = 0x80;				/* PortMulticastRcvPkts */
	EXPECT_EQ(dec(), 0);
	EXPECT_U64(fv("port_xmit_data", 0), 0x0100000000000002ULL);
	EXPECT_U64(fv("port_multicast_rcv_pkts", 0), 0x8000000000000000ULL);
	/* a MAD shorter on the wire than its PerfMgt data: invalid, not truncated */
	frame(0x04, 0x81, 0x0012, 80);
	EXPECT_EQ(decode(HDRS + 80 + 6, HDRS + 80 + 6), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_INVALID);
	EXPECT_EQ(P.stopped_in, RDIAG_HDR_MAD_DATA);
}

static void notice_trap(void)
{
	uint8_t *m = frame(0x01, 0x05, 0x0002, MAD), *d = m + 64;
	const struct rdiag_mad_attr *t;

	d[0] = 0x81;				/* generic, type 1 (urgent) */
	d[3] = 0x02;				/* producer: switch */
	d[4] = 0x00, d[5] = 0x80;		/* trap 128 */
	d[6] = 0x00, d[7] = 0x09;		/* issuer LID */
	d[10] = 0x00, d[11] = 0x09;		/* LIDADDR: the first word of the details */
	EXPECT_EQ(dec(), 0);
	EXPECT_STREQ(P.mad.layout->name, "Notice");
	EXPECT_STREQ(rdiag_mad_method_name(0x05), "Trap");
	EXPECT_U64(fv("is_generic", 0), 1);
	EXPECT_U64(fv("trap_number", 0), 128);
	t = rdiag_mad_notice_layout(128);
	EXPECT_STREQ(t->name, "LinkStateChange");
	EXPECT_U64(rdiag_mad_bits(F + P.mad.data_off, field(t, "lid")->off, 16), 9);
	EXPECT_TRUE(rdiag_mad_notice_layout(1) == NULL);
}

static void cm_lap_sidr(void)
{
	uint8_t *m = frame(0x07, 0x03, 0x0019, MAD), *d = m + 24;

	d[0] = 0x11, d[3] = 0x22;		/* local comm id */
	d[13] = 0x12, d[14] = 0x34;		/* remote QPN 0x001234 (bytes 12..14) */
	d[15] = 0xA8;				/* remote CM response timeout 21 */
	d[20] = 0x00, d[21] = 0x0a;		/* alternate local LID */
	d[62] = 0x30;				/* alternate SL 3 (bits 496..499) */
	EXPECT_EQ(dec(), 0);
	EXPECT_EQ(P.status, RDIAG_PKT_OK);
	EXPECT_STREQ(P.mad.layout->name, "LAP");
	EXPECT_U64(fv("local_comm_id", 0), 0x11000022);
	EXPECT_U64(fv("remote_qpn_eecn", 0), 0x1234);
	EXPECT_U64(fv("remote_cm_response_timeout", 0), 21);
	EXPECT_U64(fv("alternate_local_port_lid", 0), 10);
	EXPECT_U64(fv("alternate_sl", 0), 3);
	m = frame(0x07, 0x03, 0x0018, MAD);
	d = m + 24;
	d[4] = 0;				/* status SUCCESS */
	d[9] = 0x12, d[10] = 0x34;		/* QPN 0x001234 (bytes 8..10) */
	d[20] = 0x11, d[21] = 0x22, d[22] = 0x33, d[23] = 0x44;	/* Q_Key */
	EXPECT_EQ(dec(), 0);
	EXPECT_TRUE(P.present & RDIAG_HAS_CM);
	EXPECT_EQ(P.cm.qkey, 0x11223344);
	EXPECT_STREQ(P.mad.layout->name, "SIDR_REP");
	EXPECT_U64(fv("q_key", 0), 0x11223344);
	EXPECT_U64(fv("qpn", 0), 0x1234);
}

/* every field lies inside its record; a sub-attribute inside its parent */
static void check_layout(const struct rdiag_mad_attr *a, unsigned int bits, const char *what)
{
	for (unsigned int i = 0; i < a->n_fields; i++) {
		const struct rdiag_mad_field *f = &a->fields[i];
		unsigned int n = f->count ? f->count : 1, end;

		if (f->kind == RDIAG_MF_SUB) {
			check_layout(f->sub, bits - f->off, what);
			end = f->off + f->sub->len * 8u;
		} else {
			end = f->off + (n - 1) * f->stride + f->bits;
		}
		if (end > bits || (f->kind == RDIAG_MF_UINT && f->bits > 64)) {
			EXPECT_STREQ(f->name, what);
		}
	}
	EXPECT_TRUE(a->len * 8u <= bits);
}

static char *man;

static void documented(const char *key)
{
	char pat[96];

	snprintf(pat, sizeof(pat), "\\fB%s\\fP", key);
	if (!strstr(man, pat) && !(snprintf(pat, sizeof(pat), ".B %s\n", key), strstr(man, pat)))
		EXPECT_STREQ(key, "(documented in rdmadump.1)");
}

static void documented_fields(const struct rdiag_mad_attr *a)
{
	for (unsigned int i = 0; i < a->n_fields; i++)
		if (a->fields[i].kind != RDIAG_MF_RESERVED)
			documented(a->fields[i].name);
}

static void tables(void)
{
	static const struct { unsigned int cls, max_bytes; const char *pre; } c[] = {
		{ 0x01, 64, "smp" }, { 0x81, 64, "smp" }, { 0x03, 200, "sa" },
		{ 0x04, 192, "perf" }, { 0x07, 232, "cm" },
	};
	unsigned int n = 0;
	FILE *f = fopen("man/man1/rdmadump.1", "r");

	man = calloc(1, 1 << 20);
	EXPECT_TRUE(f && man);
	if (f) {
		EXPECT_TRUE(fread(man, 1, (1 << 20) - 1, f) > 0);
		fclose(f);
	}
	for (unsigned int k = 0; k < sizeof(c) / sizeof(c[0]); k++)
		for (unsigned int id = 0; id < 0x10000; id++) {
			const struct rdiag_mad_attr *a = rdiag_mad_layout(c[k].cls, id);
			char key[96];

			if (!a)
				continue;
			n++;
			EXPECT_EQ(a->attr_id, id);
			EXPECT_STREQ(rdiag_mad_attr_name(c[k].cls, id), a->name);
			check_layout(a, c[k].max_bytes * 8, a->name);
			snprintf(key, sizeof(key), "%s_%s", c[k].pre, a->key);
			documented(key);
			documented_fields(a);
		}
	EXPECT_EQ(n, 12 + 12 + 9 + 7 + 4);	/* SMP twice: LID-routed and DR */
	for (unsigned int t = 0; t < 1024; t++) {
		const struct rdiag_mad_attr *a = rdiag_mad_notice_layout(t);

		if (!a)
			continue;
		check_layout(a, 64 * 8, a->name);
		documented(a->key);
		documented_fields(a);
	}
	free(man);
}

static void bits(void)
{
	static const uint8_t b[9] = { 0xf1, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x0f };

	EXPECT_U64(rdiag_mad_bits(b, 4, 64), 0x123456789abcdef0ULL);
	EXPECT_U64(rdiag_mad_bits(b, 0, 4), 0xf);
	EXPECT_U64(rdiag_mad_bits(b, 3, 3), 0x4);
	EXPECT_U64(rdiag_mad_bits(b, 60, 4), 0xf);
	EXPECT_U64(rdiag_mad_bits(b, 0, 0), 0);
}

int main(void)
{
	bits();
	smp_lid_routed();
	smp_directed_route();
	sa_path_records();
	sa_middle_segment();
	sa_error_status();
	perf_counters();
	notice_trap();
	cm_lap_sidr();
	tables();
	return tap_done();
}
