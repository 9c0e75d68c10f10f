/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the packet decoder on one frame, and what rdmadump does with it.
 *
 * Input: byte 0 picks the link type (index into lt[] below), the rest is the frame.  The
 * frame is decoded four ways from exactly sized heap copies (so ASan flags any read past
 * caplen): whole, cut in half by the snap length, with ICRC/MAD decoding off and another
 * port, and with the UDP destination port found at each link type's usual offset added to
 * the port list (so that any UDP frame is read as RoCEv2).  The record's invariants are
 * checked after each decode; a violation aborts like a crash.  The whole frame's record then
 * goes through the per-QP flow analysis (as itself, its next PSN, itself again and a PSN gap
 * later: in order, duplicate, out of sequence), is printed as rdmadump prints it (line,
 * verbose, JSON, to /dev/null) with the summary tables, and CM private data is unpacked as
 * the doctor unpacks it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"
#include "rdmadump/dump.h"
#include "doctor/internal.h"

static const int lt[] = { 1, 12, 14, 101, 113, 228, 229, 247, 276 };

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* how many inputs reached CM private data, and how many of those held the doctor's (the
 * corpus replay checks that the path is reached) */
static unsigned int cm_private_seen, cm_private_doctor, fast_lines;

static void check(const struct rdiag_pkt *p, int r, uint32_t caplen, uint32_t len)
{
	CHECK(r >= 0 && r <= RDIAG_SKIP_SHORT);
	CHECK(p->status <= RDIAG_PKT_INVALID);
	CHECK((p->status == RDIAG_PKT_OK) == (p->stopped_in == RDIAG_HDR_NONE));
	CHECK(p->stopped_in < RDIAG_HDR__COUNT);
	CHECK(p->n_vlan <= RDIAG_VLAN_MAX && p->n_vlan <= p->vlan_depth);
	CHECK(!(p->present & ~((1u << RDIAG_HDR__COUNT) - 1)));
	if (r == 0)
		CHECK(p->encap != RDIAG_ENCAP_NONE);
	if (p->present & RDIAG_HAS(RDIAG_HDR_PAYLOAD)) {
		CHECK(p->payload_caplen <= p->payload_len);
		CHECK(p->payload_off + p->payload_caplen <= caplen);
		CHECK((uint64_t)p->payload_off + p->payload_len + p->pad + 4 <= len);
	}
	if (p->present & RDIAG_HAS_CM)
		CHECK(p->cm.priv_off + p->cm.priv_len <= caplen);
	if (p->icrc_checked)
		CHECK(p->icrc_ok == (p->icrc == p->icrc_computed));
	/* every name function answers for every value the record can hold */
	CHECK(rdiag_opcode_name(p->bth.opcode) && rdiag_opcode_transport(p->bth.opcode));
	CHECK(rdiag_nak_name(p->aeth.nak) && rdiag_aeth_kind_name(p->aeth.kind));
	CHECK(rdiag_hdr_name(p->stopped_in) && rdiag_encap_name(p->encap));
	if (p->present & RDIAG_HAS_CM)
		(void)rdiag_cm_rej_reason_name(p->cm.reason);
}

/* rdmadump reading a file holds its writer, and the common packet's line and JSON line are
 * then written in one pass by tools/rdmadump/fast.c; live capture takes the field-by-field
 * path.  Both must give the same bytes: each packet (with its flow verdict) written both ways
 * into held writers, text and JSON. */
static void fast_vs_plain(const struct rdiag_pkt *p, const struct rdiag_frame *f,
			  const struct rdiag_flow_verdict *v)
{
	enum out_mode modes[] = { OUT_TEXT, OUT_JSON };
	size_t i, k;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char *buf[2] = { NULL, NULL };
		size_t len[2] = { 0, 0 };

		for (k = 0; k < 2; k++) {
			FILE *m = open_memstream(&buf[k], &len[k]);
			struct out *o;

			CHECK(m);
			o = out_new(m, modes[i]);
			CHECK(o);
			out_hold(o, true);
			if (k == 0)
				dump_packet_fields(o, f, p, v, false);
			else if (dump_packet_fast(o, f, p, v))
				fast_lines++;
			else
				dump_packet_fields(o, f, p, v, false);
			out_free(o);
			CHECK(fclose(m) == 0);
		}
		CHECK(len[0] == len[1] && memcmp(buf[0], buf[1], len[0]) == 0);
		free(buf[0]);
		free(buf[1]);
	}
}

/* the record through the flow analysis and rdmadump's printers */
static void flow_and_print(const struct rdiag_pkt *p, const uint8_t *b, uint32_t len, int linktype,
			   unsigned int sel)
{
	static FILE *null;
	static const int32_t psn_step[] = { 0, 1, 0, 7 };
	struct rdiag_flow_opts fo = { .pending_max = 64, .max_flows = 16 };
	struct rdiag_frame f = { .n = 1, .ts_sec = 1700000000, .ts_nsec = 5, .caplen = len,
				 .len = len, .linktype = linktype, .data = b };
	struct dump_summary_opts so = { .have_qp = false };
	struct rdiag_flow_table *ft;
	struct rdiag_flow_total t;
	struct out *o[3];
	size_t i, m;
	uint32_t skip;

	if (!null && !(null = fopen("/dev/null", "we")))
		abort();
	o[0] = out_new(null, OUT_TEXT);
	o[1] = out_new(null, OUT_JSON);
	o[2] = out_new(null, OUT_JSON_PRETTY);
	CHECK(o[0] && o[1] && o[2]);
	CHECK(rdiag_flow_open(&ft, &fo) == 0);
	for (i = 0; i < sizeof(psn_step) / sizeof(psn_step[0]); i++) {
		struct rdiag_flow_verdict v;
		struct rdiag_pkt q = *p;

		q.bth.psn = (p->bth.psn + (uint32_t)psn_step[i]) & 0xffffff;
		(void)rdiag_flow_add(ft, &q, 1000000000ull * i + 17, &v);
		f.n = i + 1;
		dump_packet(o[0], &f, &q, &v, false);
		dump_packet(o[0], &f, &q, &v, true);
		dump_packet(o[1], &f, &q, &v, false);
		fast_vs_plain(&q, &f, &v);
	}
	rdiag_flow_add_other(ft);
	for (i = 0, m = rdiag_flow_count(ft); i < m; i++) {
		struct rdiag_flow_info info;

		CHECK(rdiag_flow_get(ft, i, &info) == 0);
	}
	CHECK(rdiag_flow_get(ft, rdiag_flow_count(ft), &(struct rdiag_flow_info){ 0 }) == -ENOENT);
	CHECK(rdiag_flow_total(ft, &t) == 0);
	for (i = 0, m = rdiag_flow_cm_count(ft); i < m; i++) {
		struct rdiag_cm_conn_info ci;

		CHECK(rdiag_flow_cm_get(ft, i, &ci) == 0);
	}
	/* the summary is the slow part: one form per input, as bits 4-5 of byte 0 say */
	if (sel == 1)
		dump_summary(o[0], ft, &so);
	else if (sel == 2)
		dump_summary(o[2], ft, &so);
	if (sel == 3) {
		so.have_qp = true;
		so.qp = p->bth.destqp;
		dump_summary(o[0], ft, &so);
	}
	rdiag_flow_close(ft);
	for (i = 0; i < 3; i++)
		out_free(o[i]);
	/* the application's part: after rdma_cm's IP header (struct cma_hdr, 36 bytes) when
	 * there is one */
	skip = p->cm.has_ip ? 36 : 0;
	if ((p->present & RDIAG_HAS_CM) && p->cm.priv_len > skip) {
		struct rdiag_doc_peer_info peer;

		cm_private_seen++;
		if (rd_doc_pdata_unpack(b + p->cm.priv_off + skip, p->cm.priv_len - skip, &peer) == 0)
			cm_private_doctor++;
	}
}

/* the UDP destination port where each link type usually has it (IPv4 without options, IPv6
 * without extension headers), added to o */
static void add_udp_ports(struct rdiag_decode_opts *o, const uint8_t *b, uint32_t len)
{
	static const uint32_t off[] = { 14 + 20 + 2, 14 + 40 + 2, 18 + 20 + 2, 20 + 2, 40 + 2,
					16 + 20 + 2, 20 + 20 + 2 };
	size_t i;

	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (off[i] + 2 <= len)
			(void)rdiag_decode_opts_add_port(o, (uint16_t)(b[off[i]] << 8 | b[off[i] + 1]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_decode_opts o;
	struct rdiag_pkt p;
	uint32_t len, cut;
	uint8_t *b;
	int linktype, r, whole;

	if (size < 1 || size > 65536)
		return 0;
	linktype = lt[data[0] % (sizeof(lt) / sizeof(lt[0]))];
	len = (uint32_t)size - 1;
	b = malloc(len ? len : 1);
	memcpy(b, data + 1, len);

	r = rdiag_pkt_decode(&p, linktype, b, len, len, NULL);
	check(&p, r, len, len);
	if (r == 0 && (p.present & RDIAG_HAS(RDIAG_HDR_PAYLOAD))) {
		uint32_t icrc;

		(void)rdiag_pkt_icrc(&p, b, len, &icrc);
	}
	whole = r;
	if (r == 0)
		flow_and_print(&p, b, len, linktype, (data[0] >> 4) & 3);
	free(b);

	/* the same frame cut by the snap length */
	cut = len / 2;
	b = malloc(cut ? cut : 1);
	memcpy(b, data + 1, cut);
	r = rdiag_pkt_decode(&p, linktype, b, cut, len, NULL);
	check(&p, r, cut, len);
	free(b);

	/* options off, another port list */
	rdiag_decode_opts_init(&o);
	o.check_icrc = false;
	o.decode_mad = false;
	rdiag_decode_opts_add_port(&o, (uint16_t)(data[0] * 257u));
	b = malloc(len ? len : 1);
	memcpy(b, data + 1, len);
	r = rdiag_pkt_decode(&p, linktype, b, len, len, &o);
	check(&p, r, len, len);
	CHECK(!p.icrc_checked && !(p.present & RDIAG_HAS_MAD));

	/* any UDP port is RoCEv2 (analysed and printed when that made it RDMA) */
	rdiag_decode_opts_init(&o);
	add_udp_ports(&o, b, len);
	r = rdiag_pkt_decode(&p, linktype, b, len, len, &o);
	check(&p, r, len, len);
	if (r == 0 && whole != 0)
		flow_and_print(&p, b, len, linktype, (data[0] >> 4) & 3);
	free(b);
	return 0;
}
