/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* QPs, rdma_cm IDs and bound per-QP counters over netlink (RES_QP_GET, RES_CM_ID_GET,
 * STAT_GET dump with STAT_RES = RES_QP). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/resources.h>
#include "internal.h"

/* comm of a user process, as iproute2 does (the kernel sends only the pid) */
static void task_comm(struct rdiag_counters *c, uint32_t pid, char *buf, size_t len)
{
	char path[64];

	buf[0] = '\0';
	if (c->replay)
		return;	/* a recorded pid means nothing on this machine */
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if (rd_read_str(path, buf, len) < 0)
		buf[0] = '\0';
}

struct res_ctx;

/* fills one element (already zeroed and counted) from its nested attributes q; dev is the
 * device the dump message is about */
typedef int (*res_fill_fn)(struct res_ctx *x, void *elem, const struct nlattr **q,
			   const char *dev);

struct res_ctx {
	struct rdiag_counters *c;
	void *v;
	size_t n;
	size_t elem;
	uint32_t qp_counter_mode;
	int nest;		/* the attribute nesting one entry per element */
	res_fill_fn fill;
};

static void *res_push(struct res_ctx *x)
{
	char *nv = realloc(x->v, (x->n + 1) * x->elem);

	if (!nv)
		return NULL;
	x->v = nv;
	memset(nv + x->n * x->elem, 0, x->elem);
	return nv + x->n++ * x->elem;
}

/* every RES_*_GET / STAT_GET dump message has the same frame: the device name, then a nest
 * with one entry per element; x->fill reads the entry */
static int res_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR], *e;
	struct res_ctx *x = data;
	char dev[64] = "";

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		rd_strlcpy(dev, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]), sizeof(dev));
	if (!tb[x->nest])
		return 0;
	mnl_attr_for_each_nested(e, tb[x->nest]) {
		const struct nlattr *q[RD_NL_MAXATTR];
		void *elem;
		int ret;

		if (rd_nl_parse_nested(e, q) < 0)
			return -EBADMSG;
		elem = res_push(x);
		if (!elem)
			return -ENOMEM;
		ret = x->fill(x, elem, q, dev);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int qp_fill(struct res_ctx *x, void *elem, const struct nlattr **q, const char *dev)
{
	struct rdiag_qp *qp = elem;

	/* a QP without its number is a broken message (the caller drops all it collected) */
	if (!q[RDMA_NLDEV_ATTR_RES_LQPN])
		return -EBADMSG;
	rd_strlcpy(qp->dev, dev, sizeof(qp->dev));
	qp->lqpn = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_LQPN]);
	if (q[RDMA_NLDEV_ATTR_PORT_INDEX])
		qp->port = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (q[RDMA_NLDEV_ATTR_RES_RQPN]) {
		qp->rqpn = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_RQPN]);
		qp->has_rqpn = true;
	}
	if (q[RDMA_NLDEV_ATTR_RES_TYPE])
		qp->type = mnl_attr_get_u8(q[RDMA_NLDEV_ATTR_RES_TYPE]);
	if (q[RDMA_NLDEV_ATTR_RES_STATE])
		qp->state = mnl_attr_get_u8(q[RDMA_NLDEV_ATTR_RES_STATE]);
	if (q[RDMA_NLDEV_ATTR_RES_SQ_PSN])
		qp->sq_psn = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_SQ_PSN]);
	if (q[RDMA_NLDEV_ATTR_RES_RQ_PSN]) {
		qp->rq_psn = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_RQ_PSN]);
		qp->has_rq_psn = true;
	}
	if (q[RDMA_NLDEV_ATTR_RES_PID]) {
		qp->pid = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_PID]);
		task_comm(x->c, qp->pid, qp->comm, sizeof(qp->comm));
	}
	if (q[RDMA_NLDEV_ATTR_RES_KERN_NAME])
		rd_strlcpy(qp->comm, mnl_attr_get_str(q[RDMA_NLDEV_ATTR_RES_KERN_NAME]), sizeof(qp->comm));
	return 0;
}

static void sockaddr_copy(const struct nlattr *a, struct sockaddr_storage *ss, bool *has)
{
	size_t l = mnl_attr_get_payload_len(a);

	memset(ss, 0, sizeof(*ss));
	memcpy(ss, mnl_attr_get_payload(a), l < sizeof(*ss) ? l : sizeof(*ss));
	*has = true;
}

static int cm_fill(struct res_ctx *x, void *elem, const struct nlattr **q, const char *dev)
{
	struct rdiag_cm_id *id = elem;

	rd_strlcpy(id->dev, dev, sizeof(id->dev));
	if (q[RDMA_NLDEV_ATTR_PORT_INDEX])
		id->port = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (q[RDMA_NLDEV_ATTR_RES_LQPN])
		id->lqpn = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_LQPN]);
	if (q[RDMA_NLDEV_ATTR_RES_PS]) {
		id->ps_full = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_PS]);
		id->ps = (uint8_t)id->ps_full;
	}
	if (q[RDMA_NLDEV_ATTR_RES_STATE])
		id->state = mnl_attr_get_u8(q[RDMA_NLDEV_ATTR_RES_STATE]);
	if (q[RDMA_NLDEV_ATTR_RES_SRC_ADDR])
		sockaddr_copy(q[RDMA_NLDEV_ATTR_RES_SRC_ADDR], &id->src, &id->has_src);
	if (q[RDMA_NLDEV_ATTR_RES_DST_ADDR])
		sockaddr_copy(q[RDMA_NLDEV_ATTR_RES_DST_ADDR], &id->dst, &id->has_dst);
	if (q[RDMA_NLDEV_ATTR_RES_PID]) {
		id->pid = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_RES_PID]);
		task_comm(x->c, id->pid, id->comm, sizeof(id->comm));
	}
	if (q[RDMA_NLDEV_ATTR_RES_KERN_NAME])
		rd_strlcpy(id->comm, mnl_attr_get_str(q[RDMA_NLDEV_ATTR_RES_KERN_NAME]), sizeof(id->comm));
	return 0;
}

/* RES_*_GET dumps need a device index: one dump per device */
static int per_device(struct rdiag_counters *c, const char *dev, int cmd, uint32_t stat_res,
		      struct res_ctx *x)
{
	struct rd_nl_dev *v;
	size_t n, i;
	bool found = false;
	int ret;

	if (!c->use_netlink) {
		rd_seterr(c, "netlink is not in use (sysfs source, or a sysfs root without replay)");
		return -EOPNOTSUPP;
	}
	ret = rd_nl_devices(c, &v, &n);
	if (ret < 0)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		if (dev && strcmp(dev, v[i].name))
			continue;
		found = true;
		ret = rd_nl_query(c, cmd, true, v[i].index, 0, stat_res, res_cb, x);
	}
	free(v);
	if (!ret && dev && !found) {
		rd_seterr(c, "no RDMA device '%s'", dev);
		ret = -ENODEV;
	}
	return ret;
}

int rdiag_counters_qps(struct rdiag_counters *c, const char *dev, struct rdiag_qp **out,
		       size_t *n)
{
	struct res_ctx x = { .c = c, .elem = sizeof(struct rdiag_qp),
			     .nest = RDMA_NLDEV_ATTR_RES_QP, .fill = qp_fill };
	int ret = per_device(c, dev, RDMA_NLDEV_CMD_RES_QP_GET, 0, &x);

	if (ret < 0) {
		free(x.v);
		return ret;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

int rdiag_counters_cm_ids(struct rdiag_counters *c, const char *dev, struct rdiag_cm_id **out,
			  size_t *n)
{
	struct res_ctx x = { .c = c, .elem = sizeof(struct rdiag_cm_id),
			     .nest = RDMA_NLDEV_ATTR_RES_CM_ID, .fill = cm_fill };
	int ret = per_device(c, dev, RDMA_NLDEV_CMD_RES_CM_ID_GET, 0, &x);

	if (ret < 0) {
		free(x.v);
		return ret;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

/* ---- per-QP counters ---- */
struct qpc_hwc {
	struct rdiag_qp_counter *q;
};

static int qpc_add(const char *name, uint64_t value, const struct nlattr **tb, void *data)
{
	struct rdiag_qp_counter *q = ((struct qpc_hwc *)data)->q;
	char **nn;
	uint64_t *nv;

	(void)tb;
	nn = realloc(q->names, (q->n + 1) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	q->names = nn;
	nv = realloc(q->values, (q->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	q->values = nv;
	nn[q->n] = strdup(name);
	if (!nn[q->n])
		return -ENOMEM;
	nv[q->n++] = value;
	return 0;
}

static int qpc_fill(struct res_ctx *x, void *elem, const struct nlattr **q, const char *dev)
{
	struct rdiag_qp_counter *qc = elem;
	const struct nlattr *qe;
	struct qpc_hwc h;
	int ret;

	(void)x;
	rd_strlcpy(qc->dev, dev, sizeof(qc->dev));
	if (q[RDMA_NLDEV_ATTR_PORT_INDEX])
		qc->port = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (q[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		qc->id = mnl_attr_get_u32(q[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);
	h.q = qc;
	if (q[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
		ret = rd_nl_hwcounters(q[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], qpc_add, &h);
		if (ret < 0)
			return ret;
	}
	if (!q[RDMA_NLDEV_ATTR_RES_QP])
		return 0;
	mnl_attr_for_each_nested(qe, q[RDMA_NLDEV_ATTR_RES_QP]) {
		const struct nlattr *a[RD_NL_MAXATTR];
		uint32_t *nq;

		if (rd_nl_parse_nested(qe, a) < 0)
			return -EBADMSG;
		if (!a[RDMA_NLDEV_ATTR_RES_LQPN])
			continue;
		nq = realloc(qc->qpns, (qc->n_qpns + 1) * sizeof(*nq));
		if (!nq)
			return -ENOMEM;
		qc->qpns = nq;
		nq[qc->n_qpns++] = mnl_attr_get_u32(a[RDMA_NLDEV_ATTR_RES_LQPN]);
	}
	return 0;
}

void rdiag_counters_qp_counters_free(struct rdiag_qp_counter *q, size_t n)
{
	size_t i, j;

	for (i = 0; q && i < n; i++) {
		for (j = 0; j < q[i].n; j++)
			free(q[i].names[j]);
		free(q[i].names);
		free(q[i].values);
		free(q[i].qpns);
	}
	free(q);
}

int rdiag_counters_qp_counters(struct rdiag_counters *c, const char *dev,
			       struct rdiag_qp_counter **out, size_t *n)
{
	struct res_ctx x = { .c = c, .elem = sizeof(struct rdiag_qp_counter),
			     .nest = RDMA_NLDEV_ATTR_STAT_COUNTER, .fill = qpc_fill };
	int ret = per_device(c, dev, RDMA_NLDEV_CMD_STAT_GET, RDMA_NLDEV_ATTR_RES_QP, &x);

	if (ret < 0) {
		rdiag_counters_qp_counters_free(x.v, x.n);
		return ret;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}
