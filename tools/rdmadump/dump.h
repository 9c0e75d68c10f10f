/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump's printers (packet lines, verbose headers, JSON lines, per-QP summary).  They live
 * in this room so that main.c stays a thin option parser; every value goes through
 * out_* so the text and the JSON forms come from the same calls. */
#ifndef RDIAG_DUMP_H
#define RDIAG_DUMP_H
#include <stdbool.h>
#include <stdint.h>
#include "common/out.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/capture.h"
#include "rdmadiag/flow.h"

/* one packet: a line (text), every header field (verbose text), or one JSON object */
void dump_packet(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		 const struct rdiag_flow_verdict *v, bool verbose);
/* the two ways dump_packet() takes: the common RoCEv2 packet's short line or JSON line
 * formatted in one go into a held writer (dump_fast.c; false: not written, not its shape),
 * and every other, field by field through the out_* calls (dump_print.c).  The same bytes
 * where both apply. */
bool dump_packet_fast(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		      const struct rdiag_flow_verdict *v);
void dump_packet_fields(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
			const struct rdiag_flow_verdict *v, bool verbose);

struct dump_summary_opts {
	bool have_qp;
	uint32_t qp;			/* only flows to or from this QP */
	const struct rdiag_capture_stats *stats;	/* live capture: drops */
	bool live;
	uint64_t max_flows;		/* the flow table's bound (0: none), for its summary line */
	uint64_t link_bps;		/* --link-speed: PAUSE/PFC quanta as time; 0 unknown */
};
/* "%s > %s qp 0x%06x" of a flow's two addresses and its destination QP (len: 160 bytes) */
void dump_flow_name(char *buf, size_t len, const struct rdiag_flow_key *k);
/* --qp: the flow goes to qp or comes from it (its sending QP as the analysis knows it) */
bool dump_flow_of_qp(const struct rdiag_flow_info *f, uint32_t qp);
/* the flow has transport problems (the summary details only those past 64 flows) */
bool dump_flow_troubled(const struct rdiag_flow_info *f);
/* the per-QP summary: text tables or one JSON object */
void dump_summary(struct out *o, struct rdiag_flow_table *ft,
		  const struct dump_summary_opts *so);

/* digits.c: the nine digits of ns < 10^9, written backwards so that they end at q; their
 * start */
char *dump_ns9_before(char *q, uint32_t ns);
/* "08:13:01.123456789" (UTC time of day) */
void dump_time(char *buf, size_t len, uint64_t sec, uint32_t nsec);
/* an IPv4 address's dotted quad at q (at most 15 bytes, and one more may be overwritten);
 * its end, no NUL */
char *dump_put_ip4(char *q, const uint8_t *a);
/* ": no listener for the service ID" ... for a SIDR_REP status, "" for 0 and unknown ones */
const char *dump_sidr_meaning(unsigned int status);
#endif
