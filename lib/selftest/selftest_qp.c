/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* qp-states: walk RC, UC and UD QPs RESET->INIT->RTR->RTS with the minimal masks of
 * ibv_modify_qp(3), reading the state back after every step; prove the pair carries data;
 * check that illegal transitions are refused, and that a QP of each type goes ERR -> RESET
 * -> INIT from every state it passes through (RESET->ERR: recorded as the kernel's refusal). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* SEND len bytes a -> b and compare; UD receives carry a 40-byte GRH first */
static int exchange(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b, uint32_t len,
		    const char *what)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = len, .lkey = a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	bool ud = a->qp->qp_type == IBV_QPT_UD;
	uint32_t off = ud ? RD_GRH : 0;
	struct ibv_ah_attr aa;
	struct ibv_wc wc;
	uint32_t i;
	int rc;

	for (i = 0; i < len; i++)
		a->buf[i] = (char)(i * 13 + 5);
	memset(b->buf, 0, b->buflen);
	if (ud) {
		rd_st_fill_av(st, &aa, a->port, b->port);
		wr.wr.ud.ah = rd_st_track(st, RD_OBJ_AH, ibv_create_ah(a->pd, &aa), 0);
		if (!wr.wr.ud.ah)
			return rd_st_fail(st, errno, "%s: ibv_create_ah", what);
		wr.wr.ud.remote_qpn = b->qp->qp_num;
		wr.wr.ud.remote_qkey = RD_QKEY;
	}
	rd_st_step(st, "%s: SEND %u bytes 0x%06x -> 0x%06x", what, len, a->qp->qp_num,
		   b->qp->qp_num);
	rc = rd_st_post_recv(st, b, b->buf, len + off, b->mr->lkey, 2);
	if (!rc)
		rc = rd_st_post_send(st, a, &wr);
	if (rc)
		return rc;
	rc = rd_st_poll(st, a->cq, &wc, 0);
	if (rc)
		return rd_st_fail(st, rc, "%s: waiting for the send completion", what);
	if (wc.status != IBV_WC_SUCCESS)
		return rd_st_wc_fail(st, &wc, what);
	rc = rd_st_poll(st, b->cq, &wc, ud ? 1000 : 0);
	if (rc) {
		if (ud)
			rd_st_hint(st, "UD is unreliable: the datagram was dropped (GID, qkey, "
				   "or a message above the path MTU)");
		return rd_st_fail(st, rc, "%s: waiting for the receive completion", what);
	}
	if (wc.status != IBV_WC_SUCCESS)
		return rd_st_wc_fail(st, &wc, what);
	if (wc.byte_len != len + off || memcmp(a->buf, b->buf + off, len)) {
		snprintf(st->res->expected, sizeof(st->res->expected), "%u bytes, pattern", len);
		snprintf(st->res->observed, sizeof(st->res->observed), "%u bytes%s",
			 wc.byte_len - off, memcmp(a->buf, b->buf + off, len) ? ", data differs" : "");
		return rd_st_fail(st, 0, "%s: received data", what);
	}
	return 0;
}

/* ERR then RESET from the QP's current state, then INIT again: the QP is reusable */
static int err_reset(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c)
{
	struct ibv_qp_attr a;
	char what[64];
	int from = rd_st_qp_state(ep->qp), rc;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_ERR;
	snprintf(what, sizeof(what), "%s QP 0x%06x %s->ERR", rd_st_qp_type_name(ep->qp->qp_type),
		 ep->qp->qp_num, rd_st_qp_state_name(from));
	rc = rd_st_modify(st, ep, &a, IBV_QP_STATE, what);
	if (rc)
		return rc;
	a.qp_state = IBV_QPS_RESET;
	snprintf(what, sizeof(what), "%s QP 0x%06x ERR->RESET", rd_st_qp_type_name(ep->qp->qp_type),
		 ep->qp->qp_num);
	rc = rd_st_modify(st, ep, &a, IBV_QP_STATE, what);
	if (rc)
		return rc;
	return rd_st_to_init(st, ep, c);
}

/* try an illegal transition; it must be refused and leave the state as it was */
static int refuse(struct rdiag_selftest *st, struct rd_ep *ep, struct ibv_qp_attr *a, int mask,
		  int *refused)
{
	int from = rd_st_qp_state(ep->qp), rc, now;
	char m[200];

	rd_st_step(st, "illegal %s->%s must be refused", rd_st_qp_state_name(from),
		   rd_st_qp_state_name(a->qp_state));
	rc = ibv_modify_qp(ep->qp, a, mask);
	if (rc < 0)
		rc = errno;
	now = rd_st_qp_state(ep->qp);
	if (!rc) {
		snprintf(st->res->expected, sizeof(st->res->expected), "refused (EINVAL)");
		snprintf(st->res->observed, sizeof(st->res->observed), "accepted, state now %s",
			 rd_st_qp_state_name(now));
		rd_st_attr(st->res, "mask", "%s",
			   rdiag_qp_mask_str((unsigned int)mask, m, sizeof(m)));
		rd_st_hint(st, "the driver lets a QP skip states: applications relying on the "
			   "IB state machine (ibv_modify_qp(3)) may misbehave");
		return rd_st_fail(st, 0, "illegal %s->%s accepted", rd_st_qp_state_name(from),
				  rd_st_qp_state_name(a->qp_state));
	}
	if (now != from) {
		snprintf(st->res->expected, sizeof(st->res->expected), "state %s",
			 rd_st_qp_state_name(from));
		snprintf(st->res->observed, sizeof(st->res->observed), "state %s",
			 rd_st_qp_state_name(now));
		return rd_st_fail(st, 0, "refused %s->%s changed the state",
				  rd_st_qp_state_name(from), rd_st_qp_state_name(a->qp_state));
	}
	rd_st_check(st->res, RDIAG_PASS, "", "%s->%s refused (%s)", rd_st_qp_state_name(from),
		    rd_st_qp_state_name(a->qp_state), strerror(rc));
	snprintf(st->res->checks[st->res->nchecks - 1].what, sizeof(st->res->checks[0].what),
		 "%s %s->%s", rd_st_qp_type_name(ep->qp->qp_type), rd_st_qp_state_name(from),
		 rd_st_qp_state_name(a->qp_state));
	(*refused)++;
	return 0;
}

/* the three illegal transitions on a fresh QP of type t, each with the attributes the legal
 * transition to that state would take (ibv_modify_qp(3)), so that only the state is wrong */
static int illegal(struct rdiag_selftest *st, enum ibv_qp_type t, const struct rd_conn *c,
		   struct rd_ep *peer, int *refused)
{
	bool conn = t != IBV_QPT_UD, rc_qp = t == IBV_QPT_RC;
	struct rd_ep ep;
	struct ibv_qp_attr a;
	int rc, mask;

	rc = rd_st_ep_create(st, &ep, &st->a, t, 4096);
	if (rc)
		return rc;
	/* RESET->RTR */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (conn) {
		a.path_mtu = (enum ibv_mtu)c->path_mtu;
		a.dest_qp_num = peer->qp->qp_num;
		a.rq_psn = c->psn;
		rd_st_fill_av(st, &a.ah_attr, ep.port, peer->port);
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	}
	if (rc_qp) {
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	rc = refuse(st, &ep, &a, mask, refused);
	if (rc || (rc = rd_st_to_init(st, &ep, c)))
		return rc;
	/* INIT->RTS */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = c->psn;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (rc_qp) {
		a.timeout = 14;
		a.retry_cnt = 3;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	rc = refuse(st, &ep, &a, mask, refused);
	if (rc || (rc = rd_st_to_rtr(st, &ep, peer, c)) || (rc = rd_st_to_rts(st, &ep, c)))
		return rc;
	/* RTS->RTR */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	return refuse(st, &ep, &a, IBV_QP_STATE, refused);
}

/* RESET->ERR: Linux's QP state table (ib_modify_qp_is_ok() in drivers/infiniband/core/
 * verbs.c) allows only RESET and INIT after RESET, so a refusal here is the kernel's rule,
 * not a device fault; an acceptance is recorded too.  Either way RESET->INIT must follow. */
static int reset_to_err(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c,
			bool *refused)
{
	const char *tn = rd_st_qp_type_name(ep->qp->qp_type);
	struct ibv_qp_attr a;
	char what[64], name[32];
	int rc, err;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_ERR;
	snprintf(name, sizeof(name), "%s from RESET", tn);
	rd_st_step(st, "%s QP 0x%06x RESET->ERR", tn, ep->qp->qp_num);
	err = ibv_modify_qp(ep->qp, &a, IBV_QP_STATE);
	if (err < 0)
		err = errno;
	if (err) {
		if (rd_st_qp_state(ep->qp) != IBV_QPS_RESET)
			return rd_st_fail(st, err, "%s QP 0x%06x RESET->ERR refused but the state "
					  "changed", tn, ep->qp->qp_num);
		*refused = true;
		rc = rd_st_to_init(st, ep, c);
		if (!rc)
			rd_st_check(st->res, RDIAG_PASS, name, "RESET->ERR refused (%s): the "
				    "kernel's QP state table allows only RESET->INIT; RESET->INIT "
				    "works", strerror(err));
		return rc;
	}
	a.qp_state = IBV_QPS_RESET;
	snprintf(what, sizeof(what), "%s QP 0x%06x ERR->RESET", tn, ep->qp->qp_num);
	rc = rd_st_modify(st, ep, &a, IBV_QP_STATE, what);
	if (!rc)
		rc = rd_st_to_init(st, ep, c);
	if (!rc)
		rd_st_check(st->res, RDIAG_PASS, name, "RESET->ERR accepted, ERR->RESET->INIT");
	return rc;
}

/* the QP of a walked pair, in RTS after its traffic, into ERR from every state it passes
 * through: RTS -> ERR -> RESET -> INIT, INIT -> ERR -> RESET -> INIT, -> RTR -> ERR ->
 * RESET -> INIT, -> RESET -> ERR (the kernel refuses it) -> INIT.  One QP for all: each
 * pass through RESET makes it new again, which is part of what is shown. */
static int err_cycle(struct rdiag_selftest *st, const struct rd_conn *c, struct rd_ep *ep,
		     struct rd_ep *peer, bool *refused)
{
	const char *tn = rd_st_qp_type_name(ep->qp->qp_type);
	struct ibv_qp_attr a;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "%s from RTS", tn);
	rc = err_reset(st, ep, c);
	if (rc)
		return rc;
	rd_st_check(st->res, RDIAG_PASS, what, "RTS->ERR->RESET->INIT after traffic");
	snprintf(what, sizeof(what), "%s from INIT", tn);
	rc = err_reset(st, ep, c);
	if (rc)
		return rc;
	rd_st_check(st->res, RDIAG_PASS, what, "INIT->ERR->RESET->INIT");
	snprintf(what, sizeof(what), "%s from RTR", tn);
	rc = rd_st_to_rtr(st, ep, peer, c);
	if (!rc)
		rc = err_reset(st, ep, c);
	if (rc)
		return rc;
	rd_st_check(st->res, RDIAG_PASS, what, "RTR->ERR->RESET->INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RESET;
	snprintf(what, sizeof(what), "%s QP 0x%06x INIT->RESET", tn, ep->qp->qp_num);
	rc = rd_st_modify(st, ep, &a, IBV_QP_STATE, what);
	if (rc)
		return rc;
	return reset_to_err(st, ep, c, refused);
}

static int walk(struct rdiag_selftest *st, enum ibv_qp_type t, const struct rd_conn *c,
		struct rd_ep *a, struct rd_ep *b, bool *skipped)
{
	const char *tn = rd_st_qp_type_name(t);
	uint32_t len;
	char what[64];
	int rc, act = (int)st->a.pattr.active_mtu;
	struct rdiag_st_check *ck;

	*skipped = false;
	rc = rd_st_ep_create(st, a, &st->a, t, 16384);
	if (rc == -EOPNOTSUPP || rc == -EINVAL || rc == -ENOSYS) {
		if (t == IBV_QPT_UC) {
			/* UC is optional in the IB spec: not supporting it is not a failure */
			st->res->verdict = RDIAG_PASS;
			st->res->step[0] = '\0';
			rd_st_check(st->res, RDIAG_SKIP, tn, "ibv_create_qp(UC) refused: %s",
				    strerror(-rc));
			st->res->err = 0;
			*skipped = true;
			return 0;
		}
	}
	if (rc || (rc = rd_st_ep_create(st, b, &st->b, t, 16384)))
		return rc;
	rc = rd_st_connect(st, a, b, c, c);
	if (rc)
		return rc;
	/* a message of two MTUs and a bit, so segmentation is exercised (UD: one MTU max) */
	len = t == IBV_QPT_UD ? rdiag_mtu_bytes(c->path_mtu) - 64 :
	      2 * rdiag_mtu_bytes(c->path_mtu) + 17;
	if (c->path_mtu > act)
		rd_st_hint(st, "path_mtu %u is above %s port %d's active_mtu %u: packets larger "
			   "than the link MTU are dropped on a real wire: expect WC 12 (retry exceeded) "
			   "or sends that never complete",
			   rdiag_mtu_bytes(c->path_mtu), st->a.dev, st->a.port,
			   rdiag_mtu_bytes(act));
	if (st->opts.faults.bad_dest_qpn && t != IBV_QPT_UD)
		rd_st_hint(st, "dest_qp_num 0x%06x does not exist on the responder: nothing "
			   "answers, so the requester retries until retry_cnt is exhausted "
			   "(WC 12); exchange QP numbers correctly (forced by --force-bad-dest-qpn)",
			   0xfffff0);
	snprintf(what, sizeof(what), "%s data exchange", tn);
	rc = exchange(st, a, b, len, what);
	if (rc) {
		rd_st_record_qp(st, a);
		return rc;
	}
	if (c->path_mtu > act) {
		rd_st_record_qp(st, a);
		snprintf(st->res->expected, sizeof(st->res->expected), "path_mtu <= %u",
			 rdiag_mtu_bytes(act));
		snprintf(st->res->observed, sizeof(st->res->observed),
			 "path_mtu %u accepted by the driver", rdiag_mtu_bytes(c->path_mtu));
		return rd_st_fail(st, 0, "%s QP 0x%06x INIT->RTR: path_mtu above the port's "
				  "active_mtu", tn, a->qp->qp_num);
	}
	ck = rd_st_check(st->res, RDIAG_PASS, tn, "RESET->INIT->RTR->RTS, %u-byte SEND verified",
			 len);
	rd_st_check_num(ck, "bytes", len);
	return 0;
}

int rd_test_qp_states(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	static const enum ibv_qp_type types[] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD };
	struct rd_ep a[3], b[3];
	struct rd_conn c;
	bool skipped[3] = { false }, reset_err_refused = false;
	char uc[RDIAG_ST_TEXT / 2] = "";
	int rc, refused = 0;
	size_t i;

	rd_st_conn_default(st, &c);
	for (i = 0; i < 3; i++) {
		rc = walk(st, types[i], &c, &a[i], &b[i], &skipped[i]);
		if (rc)
			return rc;
		if (skipped[i])
			snprintf(uc, sizeof(uc), " (UC skipped: %s)", r->checks[r->nchecks - 1].detail);
	}
	for (i = 0; i < 3; i++)
		if (!skipped[i] && (rc = illegal(st, types[i], &c, &b[i], &refused)))
			return rc;
	for (i = 0; i < 3; i++)
		if (!skipped[i] && (rc = err_cycle(st, &c, &a[i], &b[i], &reset_err_refused)))
			return rc;
	snprintf(r->summary, sizeof(r->summary), "%s: RESET->INIT->RTR->RTS with minimal masks, "
		 "state read back each step, data verified; %d illegal transitions refused; "
		 "each from RTS/INIT/RTR ->ERR->RESET->INIT, RESET->ERR %s%s",
		 skipped[1] ? "RC, UD" : "RC, UC, UD", refused,
		 reset_err_refused ? "refused by the kernel" : "accepted", uc);
	r->verdict = RDIAG_PASS;
	return 0;
}
