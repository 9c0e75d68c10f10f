/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The previous sample of a counter, in the previous interval's set.  A set keeps its order,
 * so the same index is asked first (prev_index_find's caller); when the order shifted (a
 * port's statistics missing from one of the two sets, a counter that came or went), the rest
 * is looked up here: by a sorted index built on the first such miss, O(log N) each, where a
 * scan of the set for each of N statistics cost O(N^2) (an mlx5 netdev has thousands). */
#ifndef RDIAG_STAT_PREVIDX_H
#define RDIAG_STAT_PREVIDX_H
#include <stddef.h>

#include <rdmadiag/counters.h>

struct prev_index {
	const struct rdiag_samples *set;	/* NULL: no previous set */
	size_t *ord;		/* the set's indices sorted by counter, NULL until needed */
	size_t n;
};

void prev_index_init(struct prev_index *x, const struct rdiag_samples *set);
void prev_index_free(struct prev_index *x);
/* the first sample of the set (in its order) that is the same counter as s: same device,
 * port and name, and both RDMA counters or both Ethernet statistics; NULL none.  Exits 2
 * when out of memory (the index) */
const struct rdiag_sample *prev_index_find(struct prev_index *x, const struct rdiag_sample *s);

#endif
