/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Self-test plumbing: object tracking and release, endpoints, QP transitions with a query
 * after each, posting and polling, and how a failed step is written into the result. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "internal.h"
#include "util/util.h"

/* ---- objects ---------------------------------------------------------------------- */

size_t rd_st_mark(const struct rdiag_selftest *st)
{
	return st->nobj;
}

static const char *const obj_name[RD_OBJ_NTYPES] = {
	[RD_OBJ_PD] = "PD", [RD_OBJ_CQ] = "CQ", [RD_OBJ_QP] = "QP", [RD_OBJ_MR] = "MR",
	[RD_OBJ_AH] = "AH", [RD_OBJ_MEM] = "buffer", [RD_OBJ_MMAP] = "mapping",
};

/* 0, or the errno of the failed release with *call naming it */
static int destroy(struct rd_obj *o, const char **call)
{
	int rc = 0;

	switch (o->type) {
	case RD_OBJ_QP: *call = "ibv_destroy_qp"; rc = ibv_destroy_qp(o->p); break;
	case RD_OBJ_CQ: *call = "ibv_destroy_cq"; rc = ibv_destroy_cq(o->p); break;
	case RD_OBJ_MR: *call = "ibv_dereg_mr"; rc = ibv_dereg_mr(o->p); break;
	case RD_OBJ_AH: *call = "ibv_destroy_ah"; rc = ibv_destroy_ah(o->p); break;
	case RD_OBJ_PD: *call = "ibv_dealloc_pd"; rc = ibv_dealloc_pd(o->p); break;
	case RD_OBJ_MEM: *call = "free"; free(o->p); break;
	case RD_OBJ_MMAP: *call = "munmap"; rc = munmap(o->p, o->len) ? errno : 0; break;
	default: *call = "?"; rc = EINVAL; break;
	}
	return rc;	/* the ibv_destroy_* calls return an errno (rdma-core), not -1 */
}

void rd_st_held(struct rdiag_selftest *st, enum rd_obj_type type, int err, const char *call)
{
	if ((unsigned int)type >= RD_OBJ_NTYPES)
		return;
	if (err < 0)
		err = -err;
	st->held[type]++;
	if (!st->held_call) {
		st->held_call = call;
		st->held_err = err;
	}
}

void rd_st_release_to(struct rdiag_selftest *st, size_t mark)
{
	const char *call;
	int rc;

	while (st->nobj > mark) {
		struct rd_obj *o = &st->objs[--st->nobj];

		if (o->p && (rc = destroy(o, &call)))
			rd_st_held(st, o->type, rc, call);
	}
}

size_t rd_st_held_count(const struct rdiag_selftest *st)
{
	size_t n = 0, t;

	for (t = 0; t < RD_OBJ_NTYPES; t++)
		n += st->held[t];
	return n;
}

size_t rdiag_selftest_live_str(const struct rdiag_selftest *st, char *buf, size_t len)
{
	size_t used = 0, t, n, tracked[RD_OBJ_NTYPES] = { 0 }, i;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < st->nobj; i++)
		if ((unsigned int)st->objs[i].type < RD_OBJ_NTYPES)
			tracked[st->objs[i].type]++;
	for (t = 0; t < RD_OBJ_NTYPES; t++) {
		n = tracked[t] + st->held[t];
		if (n && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "",
						 n, obj_name[t]);
	}
	if (st->held_call && used < len)
		used += (size_t)snprintf(buf + used, len - used, " (%s: %s)", st->held_call,
					 strerror(st->held_err));
	return st->nobj + rd_st_held_count(st);
}

/* returns p (NULL stays NULL: nothing to track); on a full table p is released at once */
void *rd_st_track(struct rdiag_selftest *st, enum rd_obj_type type, void *p, size_t len)
{
	struct rd_obj o = { type, p, len };

	if (!p)
		return NULL;
	if (st->nobj == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		struct rd_obj *n = realloc(st->objs, cap * sizeof(*n));

		if (!n) {
			const char *call;
			int rc = destroy(&o, &call);

			if (rc)
				rd_st_held(st, type, rc, call);
			errno = ENOMEM;
			return NULL;
		}
		st->objs = n;
		st->cap = cap;
	}
	st->objs[st->nobj++] = o;
	return p;
}

void *rd_st_alloc(struct rdiag_selftest *st, size_t len)
{
	void *p = NULL;
	int rc = posix_memalign(&p, 4096, len ? len : 1);

	if (rc) {
		errno = rc;
		return NULL;
	}
	memset(p, 0, len);
	return rd_st_track(st, RD_OBJ_MEM, p, len);
}

struct ibv_mr *rd_st_reg_mr(struct rdiag_selftest *st, struct ibv_pd *pd, void *addr,
			    size_t len, unsigned int access)
{
	return rd_st_track(st, RD_OBJ_MR, ibv_reg_mr(pd, addr, len, (int)access), 0);
}

int rd_st_ep_create(struct rdiag_selftest *st, struct rd_ep *ep, struct rd_port *port,
		    enum ibv_qp_type type, size_t buflen)
{
	return rd_st_ep_create_ex(st, ep, port, type, buflen, 0);
}

/* send_ops: IBV_QP_EX_WITH_* for the ibv_wr_*() API (0: an ordinary QP) */
int rd_st_ep_create_ex(struct rdiag_selftest *st, struct rd_ep *ep, struct rd_port *port,
		       enum ibv_qp_type type, size_t buflen, uint64_t send_ops)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_init_attr_ex iax;
	unsigned int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ;

	memset(ep, 0, sizeof(*ep));
	ep->port = port;
	rd_st_step(st, "%s: allocate PD, CQ, %s QP, %zu-byte MR", port->dev,
		   rd_st_qp_type_name(type), buflen);
	ep->pd = rd_st_track(st, RD_OBJ_PD, ibv_alloc_pd(port->ctx), 0);
	if (!ep->pd)
		return rd_st_fail(st, errno, "%s ibv_alloc_pd", port->dev);
	ep->cq = rd_st_track(st, RD_OBJ_CQ, ibv_create_cq(port->ctx, 64, NULL, NULL, 0), 0);
	if (!ep->cq)
		return rd_st_fail(st, errno, "%s ibv_create_cq", port->dev);
	if (port->dattr.orig_attr.atomic_cap != IBV_ATOMIC_NONE)
		acc |= IBV_ACCESS_REMOTE_ATOMIC;
	if (buflen) {
		ep->buf = rd_st_alloc(st, buflen);
		if (!ep->buf)
			return rd_st_fail(st, errno, "allocate %zu bytes", buflen);
		ep->buflen = buflen;
		ep->mr = rd_st_reg_mr(st, ep->pd, ep->buf, buflen, acc);
		if (!ep->mr) {
			rd_st_fail(st, errno, "%s ibv_reg_mr(%zu bytes)", port->dev, buflen);
			if (errno == ENOMEM || errno == EPERM)
				rd_st_hint(st, "registration pins memory: check 'ulimit -l' "
					   "(RLIMIT_MEMLOCK) for this user");
			return -EIO;
		}
	}
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = ep->cq;
	ia.recv_cq = ep->cq;
	ia.qp_type = type;
	ia.cap.max_send_wr = 16;
	ia.cap.max_recv_wr = 16;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	if (send_ops) {
		memset(&iax, 0, sizeof(iax));
		iax.send_cq = ia.send_cq;
		iax.recv_cq = ia.recv_cq;
		iax.qp_type = ia.qp_type;
		iax.cap = ia.cap;
		iax.pd = ep->pd;
		iax.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		iax.send_ops_flags = send_ops;
		ep->qp = rd_st_track(st, RD_OBJ_QP, ibv_create_qp_ex(port->ctx, &iax), 0);
	} else {
		ep->qp = rd_st_track(st, RD_OBJ_QP, ibv_create_qp(ep->pd, &ia), 0);
	}
	if (!ep->qp)
		return rd_st_fail(st, errno, "%s ibv_create_qp(%s)", port->dev,
				  rd_st_qp_type_name(type));
	return 0;
}

/* ---- results ---------------------------------------------------------------------- */

void rd_st_step(struct rdiag_selftest *st, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!st->opts.on_step)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	st->opts.on_step(st->opts.on_step_arg, st->test ? st->test : "", buf);
}

/* the first failure of a test is the one reported; later ones are consequences */
int rd_st_fail(struct rdiag_selftest *st, int err, const char *fmt, ...)
{
	struct rdiag_st_result *r = st->res;
	va_list ap;

	if (err < 0)
		err = -err;
	if (r && r->verdict != RDIAG_FAIL) {
		r->verdict = RDIAG_FAIL;
		va_start(ap, fmt);
		vsnprintf(r->step, sizeof(r->step), fmt, ap);
		va_end(ap);
		r->err = err;
	}
	return err ? -err : -EIO;
}

void rd_st_hint(struct rdiag_selftest *st, const char *fmt, ...)
{
	struct rdiag_st_result *r = st->res;
	va_list ap;

	if (!r || r->hint[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->hint, sizeof(r->hint), fmt, ap);
	va_end(ap);
}

void rd_st_attr(struct rdiag_st_result *r, const char *key, const char *fmt, ...)
{
	struct rdiag_st_attr *a;
	va_list ap;

	if (r->nattrs >= RDIAG_ST_MAX_ATTRS)
		return;
	a = &r->attrs[r->nattrs++];
	snprintf(a->key, sizeof(a->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(a->val, sizeof(a->val), fmt, ap);
	va_end(ap);
}

struct rdiag_st_check *rd_st_check(struct rdiag_st_result *r, enum rdiag_verdict v,
				   const char *what, const char *fmt, ...)
{
	static struct rdiag_st_check spare;	/* absorbs writes past the table */
	struct rdiag_st_check *c;
	va_list ap;

	if (r->nchecks >= RDIAG_ST_MAX_CHECKS) {
		memset(&spare, 0, sizeof(spare));
		return &spare;
	}
	c = &r->checks[r->nchecks++];
	memset(c, 0, sizeof(*c));
	c->verdict = v;
	c->wc_status = -1;
	snprintf(c->what, sizeof(c->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

void rd_st_check_num(struct rdiag_st_check *c, const char *key, double v)
{
	if (c->nnum >= RDIAG_ST_MAX_NUMS)
		return;
	snprintf(c->num[c->nnum].key, sizeof(c->num[0].key), "%s", key);
	c->num[c->nnum++].v = v;
}

/* ---- QP transitions --------------------------------------------------------------- */

void rd_st_conn_default(struct rdiag_selftest *st, struct rd_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->path_mtu = st->opts.faults.path_mtu ? st->opts.faults.path_mtu :
		      (int)st->a.pattr.active_mtu;
	if (!st->loopback && (int)st->b.pattr.active_mtu < c->path_mtu &&
	    !st->opts.faults.path_mtu)
		c->path_mtu = (int)st->b.pattr.active_mtu;
	c->psn = 0x100;
	c->timeout = 14;	/* 67 ms */
	c->retry_cnt = 3;
	c->rnr_retry = 7;
	c->min_rnr_timer = 12;	/* 0.64 ms */
	c->rd_atomic = 1;
	c->access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	if (st->a.dattr.orig_attr.atomic_cap != IBV_ATOMIC_NONE)
		c->access |= IBV_ACCESS_REMOTE_ATOMIC;
}

int rd_st_qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return -errno;
	return (int)a.qp_state;
}

static void gid_populated_list(struct rd_port *p, char *buf, size_t len)
{
	struct ibv_gid_entry *tab;
	ssize_t n, i;
	size_t used = 0;
	char g[64];

	buf[0] = '\0';
	tab = calloc((size_t)p->pattr.gid_tbl_len + 1, sizeof(*tab));
	if (!tab)
		return;
	n = ibv_query_gid_table(p->ctx, tab, (size_t)p->pattr.gid_tbl_len + 1, 0);
	for (i = 0; i < n && used < len; i++) {
		if (tab[i].port_num != (uint32_t)p->port)
			continue;
		rd_st_gid_str(&tab[i].gid, g, sizeof(g));
		used += (size_t)snprintf(buf + used, len - used, "%s%u (%s %s)", used ? ", " : "",
					 tab[i].gid_index, rd_st_gid_type_name((int)tab[i].gid_type),
					 g);
	}
	free(tab);
}

/* everything passed to the failed ibv_modify_qp, with the port facts it is judged against */
static void record_attrs(struct rdiag_selftest *st, struct rd_ep *ep,
			 const struct ibv_qp_attr *a, int mask)
{
	struct rdiag_st_result *r = st->res;
	struct rd_port *p = ep->port;
	struct ibv_gid_entry e;
	char buf[256];

	rd_st_attr(r, "qp", "0x%06x (%s on %s port %d)", ep->qp->qp_num,
		   rd_st_qp_type_name(ep->qp->qp_type), p->dev, p->port);
	rd_st_attr(r, "mask", "%s", rdiag_qp_mask_str((unsigned int)mask, buf, sizeof(buf)));
	rd_st_attr(r, "qp_state", "%s", rd_st_qp_state_name(a->qp_state));
	if (mask & IBV_QP_PKEY_INDEX)
		rd_st_attr(r, "pkey_index", "%u", a->pkey_index);
	if (mask & IBV_QP_PORT)
		rd_st_attr(r, "port_num", "%u", a->port_num);
	if (mask & IBV_QP_ACCESS_FLAGS)
		rd_st_attr(r, "qp_access_flags", "0x%x", a->qp_access_flags);
	if (mask & IBV_QP_QKEY)
		rd_st_attr(r, "qkey", "0x%x", a->qkey);
	if (mask & IBV_QP_PATH_MTU)
		rd_st_attr(r, "path_mtu", "%u (port active_mtu %u, max_mtu %u)",
			   rdiag_mtu_bytes(a->path_mtu), rdiag_mtu_bytes(p->pattr.active_mtu),
			   rdiag_mtu_bytes(p->pattr.max_mtu));
	if (mask & IBV_QP_AV) {
		const struct ibv_ah_attr *ah = &a->ah_attr;

		rd_st_attr(r, "ah.is_global", "%u", ah->is_global);
		rd_st_attr(r, "ah.port_num", "%u", ah->port_num);
		if (!p->eth)
			rd_st_attr(r, "ah.dlid", "0x%x", ah->dlid);
		if (ibv_query_gid_ex(p->ctx, (uint32_t)p->port, ah->grh.sgid_index, &e, 0) == 0) {
			rd_st_gid_str(&e.gid, buf, sizeof(buf));
			rd_st_attr(r, "ah.grh.sgid_index", "%u (%s %s)", ah->grh.sgid_index,
				   rd_st_gid_type_name((int)e.gid_type), buf);
		} else {
			rd_st_attr(r, "ah.grh.sgid_index", "%u (not populated: %s)",
				   ah->grh.sgid_index, strerror(errno));
		}
		rd_st_gid_str(&ah->grh.dgid, buf, sizeof(buf));
		rd_st_attr(r, "ah.grh.dgid", "%s", buf);
		rd_st_attr(r, "ah.grh.hop_limit", "%u", ah->grh.hop_limit);
	}
	if (mask & IBV_QP_DEST_QPN)
		rd_st_attr(r, "dest_qp_num", "0x%06x", a->dest_qp_num);
	if (mask & IBV_QP_RQ_PSN)
		rd_st_attr(r, "rq_psn", "0x%06x", a->rq_psn);
	if (mask & IBV_QP_SQ_PSN)
		rd_st_attr(r, "sq_psn", "0x%06x", a->sq_psn);
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		rd_st_attr(r, "max_dest_rd_atomic", "%u (device max_qp_rd_atom %d)",
			   a->max_dest_rd_atomic, p->dattr.orig_attr.max_qp_rd_atom);
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		rd_st_attr(r, "max_rd_atomic", "%u (device max_qp_init_rd_atom %d)",
			   a->max_rd_atomic, p->dattr.orig_attr.max_qp_init_rd_atom);
	if (mask & IBV_QP_MIN_RNR_TIMER)
		rd_st_attr(r, "min_rnr_timer", "%u (%.2f ms)", a->min_rnr_timer,
			   rdiag_rnr_timer_us(a->min_rnr_timer) / 1000.0);
	if (mask & IBV_QP_TIMEOUT)
		rd_st_attr(r, "timeout", "%u (%.1f ms)", a->timeout,
			   rdiag_ack_timeout_us(a->timeout) / 1000.0);
	if (mask & IBV_QP_RETRY_CNT)
		rd_st_attr(r, "retry_cnt", "%u", a->retry_cnt);
	if (mask & IBV_QP_RNR_RETRY)
		rd_st_attr(r, "rnr_retry", "%u%s", a->rnr_retry, a->rnr_retry == 7 ? " (infinite)" : "");
}

/* after a failed data exchange: what the QP really holds (ibv_query_qp), in the same form
 * as the attributes of a failed transition */
void rd_st_record_qp(struct rdiag_selftest *st, struct rd_ep *ep)
{
	struct ibv_qp_attr q;
	struct ibv_qp_init_attr ia;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;

	if (!st->res || st->res->nattrs)
		return;
	if (ep->qp->qp_type == IBV_QPT_UD)
		mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY | IBV_QP_SQ_PSN;
	else
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_SQ_PSN;
	if (ep->qp->qp_type == IBV_QPT_RC)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_TIMEOUT |
			IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	memset(&q, 0, sizeof(q));
	if (ibv_query_qp(ep->qp, &q, mask, &ia))
		return;
	record_attrs(st, ep, &q, mask);
	/* the mask here is what was queried, not what was set */
	snprintf(st->res->attrs[1].key, sizeof(st->res->attrs[1].key), "queried");
}

/* the masks ibv_modify_qp(3) lists as required, for the "expected" text */
static int required_mask(enum ibv_qp_type t, enum ibv_qp_state to)
{
	switch (to) {
	case IBV_QPS_INIT:
		return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		       (t == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
	case IBV_QPS_RTR:
		if (t == IBV_QPT_UD)
			return IBV_QP_STATE;
		return IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		       IBV_QP_RQ_PSN | (t == IBV_QPT_RC ? IBV_QP_MAX_DEST_RD_ATOMIC |
					 IBV_QP_MIN_RNR_TIMER : 0);
	case IBV_QPS_RTS:
		return IBV_QP_STATE | IBV_QP_SQ_PSN | (t == IBV_QPT_RC ? IBV_QP_TIMEOUT |
			IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC : 0);
	default:
		return IBV_QP_STATE;
	}
}

static void modify_hint(struct rdiag_selftest *st, struct rd_ep *ep, const struct ibv_qp_attr *a,
			int mask, int err, int from)
{
	struct rd_port *p = ep->port;
	struct ibv_gid_entry e;
	char buf[512], m[200];
	static const union ibv_gid zero;

	if ((mask & IBV_QP_PATH_MTU) && a->path_mtu > p->pattr.active_mtu) {
		rd_st_hint(st, "path_mtu %u is above %s port %d's active_mtu %u (netdev MTU "
			   "minus headers): use at most the active MTU of both ends",
			   rdiag_mtu_bytes(a->path_mtu), p->dev, p->port,
			   rdiag_mtu_bytes(p->pattr.active_mtu));
		return;
	}
	if ((mask & IBV_QP_AV) && p->eth &&
	    ibv_query_gid_ex(p->ctx, (uint32_t)p->port, a->ah_attr.grh.sgid_index, &e, 0)) {
		gid_populated_list(p, buf, sizeof(buf));
		rd_st_hint(st, "sgid_index %u is not a populated GID of %s port %d; populated: "
			   "%s (rdmacheck gid-sweep tells which one works)",
			   a->ah_attr.grh.sgid_index, p->dev, p->port, buf[0] ? buf : "none");
		return;
	}
	if ((mask & IBV_QP_AV) && !memcmp(&a->ah_attr.grh.dgid, &zero, sizeof(zero))) {
		rd_st_hint(st, "the destination GID is all zeros: the peer's GID was not exchanged");
		return;
	}
	if (err == ETIMEDOUT && (mask & IBV_QP_AV) && p->eth) {
		rd_st_hint(st, "RoCE needs the destination MAC at RTR: neighbour resolution for "
			   "the dgid failed; check 'ip neigh', the route to the peer via %s, and "
			   "accept_local when both ends are on this host",
			   p->ndev[0] ? p->ndev : "the RDMA netdev");
		return;
	}
	if (err == EINVAL) {
		rdiag_qp_mask_str((unsigned int)required_mask(ep->qp->qp_type, a->qp_state),
				  m, sizeof(m));
		rd_st_hint(st, "the driver refused %s->%s: an attribute is out of range or the "
			   "mask does not fit the transition (ibv_modify_qp(3) requires %s for "
			   "%s)", rd_st_qp_state_name(from), rd_st_qp_state_name(a->qp_state), m,
			   rd_st_qp_type_name(ep->qp->qp_type));
		return;
	}
	if (err == ENOMEM)
		rd_st_hint(st, "out of memory or a device resource limit");
	else if (err == EPERM || err == EACCES)
		rd_st_hint(st, "not permitted: a privileged attribute (e.g. a raw QP) needs root");
}

/* compare what ibv_query_qp reads back with what was set; 0 or a failure */
static int verify_readback(struct rdiag_selftest *st, struct rd_ep *ep,
			   const struct ibv_qp_attr *a, int mask, const char *what)
{
	struct ibv_qp_attr q;
	struct ibv_qp_init_attr ia;
	int qmask = IBV_QP_STATE | (mask & (IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		    IBV_QP_SQ_PSN | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MIN_RNR_TIMER |
		    IBV_QP_QKEY | IBV_QP_TIMEOUT));
	char *exp = st->res->expected, *obs = st->res->observed;
	size_t el = sizeof(st->res->expected), ol = sizeof(st->res->observed);

	memset(&q, 0, sizeof(q));
	if (ibv_query_qp(ep->qp, &q, qmask, &ia))
		return rd_st_fail(st, errno, "%s: ibv_query_qp", what);
#define RB(bit, field, name)							\
	do {									\
		if ((qmask & (bit)) && q.field != a->field) {			\
			snprintf(exp, el, name " %u", (unsigned int)a->field);	\
			snprintf(obs, ol, name " %u", (unsigned int)q.field);	\
			return rd_st_fail(st, 0, "%s: ibv_query_qp reads back another " \
					  name, what);				\
		}								\
	} while (0)
	RB(IBV_QP_STATE, qp_state, "qp_state");
	RB(IBV_QP_PATH_MTU, path_mtu, "path_mtu");
	RB(IBV_QP_DEST_QPN, dest_qp_num, "dest_qp_num");
	RB(IBV_QP_RQ_PSN, rq_psn, "rq_psn");
	RB(IBV_QP_SQ_PSN, sq_psn, "sq_psn");
	RB(IBV_QP_RETRY_CNT, retry_cnt, "retry_cnt");
	RB(IBV_QP_RNR_RETRY, rnr_retry, "rnr_retry");
	RB(IBV_QP_MIN_RNR_TIMER, min_rnr_timer, "min_rnr_timer");
	RB(IBV_QP_QKEY, qkey, "qkey");
	RB(IBV_QP_TIMEOUT, timeout, "timeout");
#undef RB
	return 0;
}

int rd_st_modify(struct rdiag_selftest *st, struct rd_ep *ep, struct ibv_qp_attr *attr,
		 int mask, const char *what)
{
	char m[200];
	int from = rd_st_qp_state(ep->qp), rc;

	rd_st_step(st, "%s: ibv_modify_qp %s->%s mask %s", what, rd_st_qp_state_name(from),
		   rd_st_qp_state_name(attr->qp_state),
		   rdiag_qp_mask_str((unsigned int)mask, m, sizeof(m)));
	rc = ibv_modify_qp(ep->qp, attr, mask);
	if (rc) {
		if (rc < 0)	/* some providers return -1 and set errno */
			rc = errno;
		rd_st_fail(st, rc, "%s: ibv_modify_qp %s->%s", what, rd_st_qp_state_name(from),
			   rd_st_qp_state_name(attr->qp_state));
		if (st->res->nattrs == 0)
			record_attrs(st, ep, attr, mask);
		modify_hint(st, ep, attr, mask, rc, from);
		return -rc;
	}
	return verify_readback(st, ep, attr, mask, what);
}

int rd_st_fill_av(struct rdiag_selftest *st, struct ibv_ah_attr *ah, const struct rd_port *from,
		  const struct rd_port *to)
{
	memset(ah, 0, sizeof(*ah));
	ah->port_num = (uint8_t)from->port;
	ah->dlid = to->pattr.lid;
	ah->is_global = from->eth || to->gid_index != 0 ? 1 : 0;
	ah->grh.dgid = to->gid;
	ah->grh.sgid_index = (uint8_t)from->gid_index;
	ah->grh.hop_limit = 64;
	return 0;
}

int rd_st_to_init(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c)
{
	struct ibv_qp_attr a;
	char what[64];
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = (uint8_t)ep->port->port;
	if (ep->qp->qp_type == IBV_QPT_UD) {
		a.qkey = RD_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = c->access;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	snprintf(what, sizeof(what), "%s QP 0x%06x RESET->INIT", rd_st_qp_type_name(ep->qp->qp_type),
		 ep->qp->qp_num);
	return rd_st_modify(st, ep, &a, mask, what);
}

int rd_st_to_rtr(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_ep *peer,
		 const struct rd_conn *c)
{
	struct ibv_qp_attr a;
	char what[64];
	int mask = IBV_QP_STATE;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (ep->qp->qp_type != IBV_QPT_UD) {
		a.path_mtu = (enum ibv_mtu)c->path_mtu;
		a.dest_qp_num = st->opts.faults.bad_dest_qpn ? 0xfffff0 : peer->qp->qp_num;
		a.rq_psn = c->psn;
		rd_st_fill_av(st, &a.ah_attr, ep->port, peer->port);
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
		if (ep->qp->qp_type == IBV_QPT_RC) {
			a.max_dest_rd_atomic = (uint8_t)c->rd_atomic;
			a.min_rnr_timer = (uint8_t)c->min_rnr_timer;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		}
	}
	snprintf(what, sizeof(what), "%s QP 0x%06x INIT->RTR", rd_st_qp_type_name(ep->qp->qp_type),
		 ep->qp->qp_num);
	return rd_st_modify(st, ep, &a, mask, what);
}

int rd_st_to_rts(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c)
{
	struct ibv_qp_attr a;
	char what[64];
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = c->psn;
	if (ep->qp->qp_type == IBV_QPT_RC) {
		a.timeout = (uint8_t)c->timeout;
		a.retry_cnt = (uint8_t)c->retry_cnt;
		a.rnr_retry = (uint8_t)c->rnr_retry;
		a.max_rd_atomic = (uint8_t)c->rd_atomic;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	snprintf(what, sizeof(what), "%s QP 0x%06x RTR->RTS", rd_st_qp_type_name(ep->qp->qp_type),
		 ep->qp->qp_num);
	return rd_st_modify(st, ep, &a, mask, what);
}

int rd_st_connect(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
		  const struct rd_conn *ca, const struct rd_conn *cb)
{
	int rc;

	if ((rc = rd_st_to_init(st, a, ca)) || (rc = rd_st_to_init(st, b, cb)) ||
	    (rc = rd_st_to_rtr(st, a, b, ca)) || (rc = rd_st_to_rtr(st, b, a, cb)) ||
	    (rc = rd_st_to_rts(st, a, ca)) || (rc = rd_st_to_rts(st, b, cb)))
		return rc;
	return 0;
}

int rd_st_pair(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
	       enum ibv_qp_type type, size_t buflen, const struct rd_conn *c)
{
	int rc;

	rc = rd_st_ep_create(st, a, &st->a, type, buflen);
	if (!rc)
		rc = rd_st_ep_create(st, b, &st->b, type, buflen);
	if (!rc)
		rc = rd_st_connect(st, a, b, c, c);
	return rc;
}

/* ---- data path -------------------------------------------------------------------- */

/* a signaled work request with one gather entry; the caller sets wr_id and the remote
 * address fields its opcode needs */
void rd_st_wr_init(struct ibv_send_wr *wr, struct ibv_sge *sge, enum ibv_wr_opcode op,
		   void *addr, uint32_t len, uint32_t lkey)
{
	memset(sge, 0, sizeof(*sge));
	sge->addr = (uintptr_t)addr;
	sge->length = len;
	sge->lkey = lkey;
	memset(wr, 0, sizeof(*wr));
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = op;
	wr->send_flags = IBV_SEND_SIGNALED;
}

int rd_st_post_recv(struct rdiag_selftest *st, struct rd_ep *ep, void *addr, uint32_t len,
		    uint32_t lkey, uint64_t id)
{
	struct ibv_sge s = { .addr = (uintptr_t)addr, .length = len, .lkey = lkey };
	struct ibv_recv_wr w = { .wr_id = id, .sg_list = &s, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(ep->qp, &w, &bad);

	if (rc)
		return rd_st_fail(st, rc, "%s QP 0x%06x ibv_post_recv", ep->port->dev,
				  ep->qp->qp_num);
	return 0;
}

int rd_st_post_send(struct rdiag_selftest *st, struct rd_ep *ep, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int rc = ibv_post_send(ep->qp, wr, &bad);

	if (rc)
		return rd_st_fail(st, rc, "%s QP 0x%06x ibv_post_send", ep->port->dev,
				  ep->qp->qp_num);
	return 0;
}

void rd_st_sleep_ms(struct rdiag_selftest *st, double ms)
{
	double end = rd_mono_ms() + ms;
	struct timespec ts = { 0, 1000000 };

	while (!st->interrupted && rd_mono_ms() < end)
		nanosleep(&ts, NULL);
}

/* 0 with *wc filled, -ETIMEDOUT, -EINTR (interrupted), -EIO (poll error); records nothing */
int rd_st_poll(struct rdiag_selftest *st, struct ibv_cq *cq, struct ibv_wc *wc,
	       unsigned int timeout_ms)
{
	double end = rd_mono_ms() + (timeout_ms ? timeout_ms : st->opts.timeout_ms);
	struct timespec ts = { 0, 50000 };
	int n;

	for (;;) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n < 0)
			return -EIO;
		if (n == 1)
			return 0;
		if (st->interrupted)
			return -EINTR;
		if (rd_mono_ms() > end)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
	}
}

int rd_st_wc_fail(struct rdiag_selftest *st, const struct ibv_wc *wc, const char *what)
{
	struct rdiag_st_result *r = st->res;

	if (r->verdict != RDIAG_FAIL)
		r->wc_status = (int)wc->status;
	rd_st_fail(st, 0, "%s: completion status %d (%s)", what, wc->status,
		   rdiag_wc_status_str((int)wc->status));
	rd_st_hint(st, "%s", rdiag_wc_status_hint((int)wc->status));
	return -EIO;
}
