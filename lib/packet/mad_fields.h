/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Field-table macros for the MAD attribute layouts (internal to lib/packet: mad_smp.c,
 * mad_sa.c, mad_perf.c, mad_cm.c).  Offsets and widths in bits, MSB first. */
#ifndef RD_PACKET_MAD_FIELDS_H
#define RD_PACKET_MAD_FIELDS_H
#include "rdmadiag/packet.h"

#define MF_N(a) (sizeof(a) / sizeof((a)[0]))
/* a number, its SA component bit, and an optional value-name function */
#define MF(n, o, b, c) { .name = (n), .off = (o), .bits = (b), .kind = RDIAG_MF_UINT, .comp = (c) }
#define MFN(n, o, b, c, f) { .name = (n), .off = (o), .bits = (b), .kind = RDIAG_MF_UINT, \
			     .comp = (c), .vname = (f) }
#define MFG(n, o, c) { .name = (n), .off = (o), .bits = 128, .kind = RDIAG_MF_GID, .comp = (c) }
#define MFT(n, o, bytes, c) { .name = (n), .off = (o), .bits = (bytes) * 8, \
			      .kind = RDIAG_MF_TEXT, .comp = (c) }
#define MFR(o, b, c) { .name = "reserved", .off = (o), .bits = (b), .kind = RDIAG_MF_RESERVED, \
		       .comp = (c) }
/* an array of cnt elements of b bits, s bits apart */
#define MFA(n, o, b, cnt, s, c) { .name = (n), .off = (o), .bits = (b), .kind = RDIAG_MF_UINT, \
				  .count = (cnt), .stride = (s), .comp = (c) }
#define MFS(n, o, l, c) { .name = (n), .off = (o), .kind = RDIAG_MF_SUB, .sub = &(l), \
			  .comp = (c) }
#define MA(id, nm, k, bytes, f) { .attr_id = (id), .name = (nm), .key = (k), .len = (bytes), \
				  .n_fields = MF_N(f), .fields = (f) }

/* the layouts of one class, looked up by attribute id */
const struct rdiag_mad_attr *rd_mad_smp_layout(unsigned int attr_id);
const struct rdiag_mad_attr *rd_mad_sa_layout(unsigned int attr_id);
const struct rdiag_mad_attr *rd_mad_perf_layout(unsigned int attr_id);
const struct rdiag_mad_attr *rd_mad_cm_layout(unsigned int attr_id);
/* shared with SA records that embed them, and with PerfMgt and CM (SIDR_REP) */
extern const struct rdiag_mad_attr rd_mad_node_info, rd_mad_port_info, rd_mad_class_port_info;
const struct rdiag_mad_attr *rd_mad_find(const struct rdiag_mad_attr *tab, unsigned int n,
					 unsigned int attr_id);
#endif
