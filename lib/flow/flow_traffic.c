/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What a flow carries besides its transport events: the IP codepoints of its packets (DSCP and
 * ECN) and its messages (SEND, RDMA WRITE and READ-response messages, FIRST..LAST or ONLY, by
 * payload size).  CNPs are left out of the codepoints: a CNP carries its own DSCP (48 on mlx5
 * by default), which is no change of the flow's class.  A packet seen before (resent) is left
 * out of the messages, so that a resent message is not counted twice. */
#include <stdlib.h>
#include "rdmadiag/packet.h"
#include "internal.h"

static void codepoints(struct rd_traffic *t, struct rdiag_flow_info *i, const struct rdiag_pkt *p,
		       bool data)
{
	if (!p->ip_family)
		return;
	i->ecn_pkts[p->ecn & 3]++;
	if (data && p->ecn == 0)
		i->not_ect_data++;
	i->dscp_seen |= 1ull << (p->dscp & 63);
	if (t->have_dscp && p->dscp != t->last_dscp)
		i->dscp_changes++;
	t->have_dscp = true;
	t->last_dscp = p->dscp;
}

static void message_done(struct rd_traffic *t, uint64_t bytes)
{
	if (!t->msg_h)
		t->msg_h = calloc(1, sizeof(*t->msg_h));
	/* out of memory: the message is not counted */
	if (t->msg_h)
		(void)rd_hist_add(t->msg_h, bytes);
}

static void message(struct rd_traffic *t, const struct rdiag_pkt *p, enum rdiag_op_position pos,
		    bool rsp, bool seen_before)
{
	bool *in = rsp ? &t->in_rsp : &t->in_req;
	uint64_t *acc = rsp ? &t->rsp_bytes : &t->req_bytes;

	if (seen_before)
		return;
	switch (pos) {
	case RDIAG_OPP_ONLY:
		*in = false;
		message_done(t, p->payload_len);
		break;
	case RDIAG_OPP_FIRST:
		*in = true;
		*acc = p->payload_len;
		break;
	case RDIAG_OPP_MIDDLE:
		if (*in)
			*acc += p->payload_len;
		break;
	case RDIAG_OPP_LAST:
		if (*in)
			message_done(t, *acc + p->payload_len);
		*in = false;	/* a LAST without its FIRST began before the capture */
		break;
	default:
		break;
	}
}

void rd_traffic_add(struct rd_traffic *t, struct rdiag_flow_info *i, const struct rdiag_pkt *p,
		    const struct rd_opclass *c, bool seen_before)
{
	enum rdiag_op_position pos = (enum rdiag_op_position)c->pos;

	if (c->kind == RDIAG_OPK_CNP)
		return;
	codepoints(t, i, p, pos != RDIAG_OPP_NONE);
	if (pos != RDIAG_OPP_NONE)
		message(t, p, pos, c->kind == RDIAG_OPK_READ_RESP, seen_before);
}

void rd_traffic_info(const struct rd_traffic *t, struct rdiag_flow_info *out)
{
	const struct rd_hist *h = t->msg_h;

	out->msgs = h ? h->n : 0;
	out->msg_min = h && h->n ? h->min : 0;
	out->msg_median = h && h->n ? rd_hist_quantile(h, 0.5) : 0;
	out->msg_max = h && h->n ? h->max : 0;
}

void rd_traffic_free(struct rd_traffic *t)
{
	rd_hist_free(t->msg_h);
	free(t->msg_h);
	t->msg_h = NULL;
}
