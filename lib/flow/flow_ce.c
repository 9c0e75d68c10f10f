/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Which flow a CNP answers.  A CNP goes back to the QP whose packets were CE-marked; when the
 * reverse flow of the CNP's flow is not known yet (no ACK or READ response paired them), the
 * flow is the one CE-marked flow with the CNP's addresses swapped.  This table holds, per
 * address pair, the flow that carried CE-marked packets, from its first CE mark on: a CNP
 * that comes before any CE mark of its flow finds nothing (the mark happened past the capture
 * point, or the capture missed it).  Grows with the CE-marked flows, never with packets. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static size_t slot_of(const struct rd_ce_pair *e, size_t cap, unsigned int kind,
		      const uint8_t src[16], const uint8_t dst[16])
{
	uint8_t k[32];
	size_t mask = cap - 1, i;

	memcpy(k, src, 16);
	memcpy(k + 16, dst, 16);
	for (i = rd_hash_bytes(k, sizeof(k), kind) & mask; e[i].used; i = (i + 1) & mask)
		if (e[i].kind == kind && !memcmp(e[i].src, src, 16) && !memcmp(e[i].dst, dst, 16))
			break;
	return i;
}

int rd_ce_pairs_add(struct rd_ce_pairs *t, const struct rdiag_flow_key *k, uint32_t flow)
{
	struct rd_ce_pair *e;

	if ((t->n + 1) * 2 > t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 16;
		struct rd_ce_pair *q = calloc(nc, sizeof(*q));

		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < t->cap; i++)
			if (t->e[i].used)
				q[slot_of(q, nc, t->e[i].kind, t->e[i].src, t->e[i].dst)] = t->e[i];
		free(t->e);
		t->e = q;
		t->cap = nc;
	}
	e = &t->e[slot_of(t->e, t->cap, k->kind, k->src, k->dst)];
	if (e->used) {
		/* a second CE-marked flow between the same two addresses */
		if (e->flow != flow)
			e->ambiguous = true;
		return 0;
	}
	e->used = true;
	e->kind = k->kind;
	memcpy(e->src, k->src, 16);
	memcpy(e->dst, k->dst, 16);
	e->flow = flow;
	t->n++;
	return 0;
}

int rd_ce_pairs_find(const struct rd_ce_pairs *t, unsigned int kind, const uint8_t src[16],
		     const uint8_t dst[16], uint32_t *flow)
{
	const struct rd_ce_pair *e;

	if (!t->cap)
		return RD_CE_NONE;
	e = &t->e[slot_of(t->e, t->cap, kind, src, dst)];
	if (!e->used)
		return RD_CE_NONE;
	if (e->ambiguous)
		return RD_CE_AMBIGUOUS;
	*flow = e->flow;
	return RD_CE_ONE;
}

void rd_ce_pairs_free(struct rd_ce_pairs *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}
