/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric -i: the RDMA counters of the port beside its per-priority Ethernet deltas
 * (the concepts the lossless fabric is about: packets, CNPs, ECN marks, retransmissions). */
#ifndef RDIAG_STAT_FABRIC_RDMA_H
#define RDIAG_STAT_FABRIC_RDMA_H
#include <stdint.h>

struct out;
struct rdiag_counters;
struct rdiag_samples;

/* the counters of DEV/PORT now, or NULL (then -i shows no RDMA deltas for the port) */
struct rdiag_samples *fabric_rdma_sample(struct rdiag_counters *c, const char *dev,
					 uint32_t port);
/* "rdma_counters": per concept the first counter of the port that has it and its delta
 * from a to b; a concept no counter of the port has, or without a valid delta, is absent */
void fabric_rdma_print(struct out *o, const struct rdiag_samples *a,
		       const struct rdiag_samples *b);

#endif
