/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: what lib/packet knows of a MAD beyond its common header (dump_mad.c) */
#ifndef RDIAG_DUMP_MAD_H
#define RDIAG_DUMP_MAD_H
#include <stdbool.h>
#include <stdint.h>
#include "common/out.h"
#include "rdmadiag/packet.h"

struct rdiag_flow_verdict;
/* inside the "mad" object: method and attribute names, status fields, the SMP, RMPP and SA
 * headers and the attribute's records (JSON); the same as text, short or verbose.  v (may be
 * NULL): on the segment that completes an RMPP transfer, every record of the whole transfer
 * ("rmpp_reassembled") */
void dump_mad_body(struct out *o, const struct rdiag_pkt *p, const uint8_t *data,
		   const struct rdiag_flow_verdict *v, bool verbose);

struct rdiag_flow_table;
/* the summary's "mad" part (absent with no MAD transaction, fabric event or key mismatch):
 * transactions per class and attribute, unanswered requests, SA PathRecord queries and the
 * CM REQs that used them, fabric events, Q_Key/P_Key mismatches */
void dump_mad_summary(struct out *o, struct rdiag_flow_table *ft);
/* --errors: the requests that got no response, after the packets */
void dump_mad_unanswered(struct out *o, struct rdiag_flow_table *ft);
#endif
