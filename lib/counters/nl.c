/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Netlink RDMA_NLDEV through libmnl: requests, one attribute policy table; the exchange
 * (socket, receive loop, record/replay) is lib/netlink's.
 *
 * Every reply attribute is validated against nl_policy[] below; attributes the table does not
 * know (newer kernels) are skipped, never an error.  A known attribute with a wrong size, a
 * message that runs past its datagram, or an NLMSG_ERROR ends the request with -errno. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "util/util.h"
#include "netlink/netlink.h"

/* the one policy table: attribute -> libmnl type (MNL_TYPE_UNSPEC = not known, skipped) */
static const enum mnl_attr_data_type nl_policy[RD_NL_MAXATTR] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_CAP_FLAGS] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_FW_VERSION] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_NODE_GUID] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_LID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_SM_LID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_LMC] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_PORT_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_SUMMARY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_LQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_PID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_RES_CM_ID] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_PS] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR] = MNL_TYPE_UNSPEC,	/* binary sockaddr, checked by user */
	[RDMA_NLDEV_ATTR_RES_DST_ADDR] = MNL_TYPE_UNSPEC,
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_STAT_MODE] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_RES] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_COUNTER] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = MNL_TYPE_U8,
};

/* the sockaddr attributes are binary; only a plausible size is accepted */
#define RD_SOCKADDR_MAX 128

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type >= RD_NL_MAXATTR)
		return MNL_CB_OK;	/* newer kernel: unknown, ignored */
	if (type == RDMA_NLDEV_ATTR_RES_SRC_ADDR || type == RDMA_NLDEV_ATTR_RES_DST_ADDR) {
		if (mnl_attr_get_payload_len(a) > RD_SOCKADDR_MAX ||
		    mnl_attr_get_payload_len(a) < 2)
			return MNL_CB_ERROR;
		tb[type] = a;
		return MNL_CB_OK;
	}
	if (nl_policy[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;	/* known to the uapi, unused here */
	if (mnl_attr_validate(a, nl_policy[type]) < 0)
		return MNL_CB_ERROR;
	/* NUL_STRING validation requires the terminator; an empty payload is malformed too */
	tb[type] = a;
	return MNL_CB_OK;
}

int rd_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	memset(tb, 0, sizeof(*tb) * RD_NL_MAXATTR);
	return rd_nl_attr_parse(nlh, 0, attr_cb, tb) == MNL_CB_ERROR ? -EBADMSG : 0;
}

int rd_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb)
{
	memset(tb, 0, sizeof(*tb) * RD_NL_MAXATTR);
	return mnl_attr_parse_nested(nest, attr_cb, tb) == MNL_CB_ERROR ? -EBADMSG : 0;
}

int rd_nl_hwcounters(const struct nlattr *nest, rd_nl_hwc_cb cb, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	const struct nlattr *e;
	int ret;

	mnl_attr_for_each_nested(e, nest) {
		if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		if (rd_nl_parse_nested(e, tb) < 0)
			return -EBADMSG;
		if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME])
			return -EBADMSG;
		ret = cb(mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]),
			 tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] ?
			 mnl_attr_get_u64(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]) : 0,
			 tb, data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int rd_nl_ready(struct rdiag_counters *c)
{
	int ret;

	if (c->replay)
		return 0;
	if (c->nl_failed)
		return -EPROTONOSUPPORT;
	ret = rd_nl_open(c->nl);
	if (ret < 0) {
		c->nl_failed = true;
		rd_seterr(c, "cannot open the RDMA netlink socket: %s (is ib_core loaded?)",
			  strerror(-ret));
	}
	return ret;
}

struct walk_ctx {
	struct rdiag_counters *c;
	uint16_t type;
	rd_nl_cb cb;
	void *data;
};

/* Walk one datagram (checked by lib/netlink's exchange).  Returns 1 when the reply is
 * complete, 0 when more datagrams follow, -errno on an error reply or a malformed message. */
static int walk(const void *buf, size_t len, void *arg)
{
	const struct walk_ctx *w = arg;
	struct rdiag_counters *c = w->c;
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len, ret;

	while (mnl_nlmsg_ok(nlh, rem)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
				rd_seterr(c, "truncated netlink error message");
				return -EBADMSG;
			}
			if (e->error == 0)
				return 1;	/* ACK */
			/* the kernel sends -errno (MAX_ERRNO 4095); INT_MIN could not even be
			 * negated (fuzz_nldev) */
			if (e->error < -4095 || e->error > 4095) {
				rd_seterr(c, "malformed netlink error message (error %d)", e->error);
				return -EBADMSG;
			}
			rd_seterr(c, "netlink request refused by the kernel: %s",
				  strerror(-e->error));
			return e->error < 0 ? e->error : -e->error;
		}
		if (nlh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nlh->nlmsg_type == w->type) {
			ret = w->cb(nlh, w->data);
			if (ret < 0) {
				if (!c->err[0] || ret == -EBADMSG)
					rd_seterr(c, "malformed netlink reply (%s)", strerror(-ret));
				return ret;
			}
		}
		if (!(nlh->nlmsg_flags & NLM_F_MULTI))
			return 1;
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	if (rem != 0) {
		rd_seterr(c, "truncated netlink reply (%d stray bytes)", rem);
		return -EBADMSG;
	}
	return 0;
}

int rd_nl_query(struct rdiag_counters *c, int cmd, bool dump, uint32_t dev_index, uint32_t port,
		uint32_t stat_res, rd_nl_cb cb, void *data)
{
	char req[4096];
	struct nlmsghdr *nlh;
	uint16_t type = (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	struct walk_ctx w = { c, type, cb, data };
	int ret;

	ret = rd_nl_ready(c);
	if (ret < 0)
		return ret;
	c->err[0] = '\0';
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : 0);
	if (dev_index != RD_NL_NODEV)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	if (port)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (stat_res)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, stat_res);
	/* STAT_GET doit with STAT_RES is the counter-mode query; the kernel wants a STAT_MODE
	 * attribute present (its value is ignored) or it answers EINVAL */
	if (stat_res && !dump && cmd == RDMA_NLDEV_CMD_STAT_GET)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, 0);

	ret = rd_nl_talk(c->nl, nlh, walk, &w);
	if (!c->nl->sent) {
		if (c->replay)
			rd_seterr(c, "netlink replay: no recorded reply for command %d", cmd);
		else
			rd_seterr(c, "%s", c->nl->err);
		return ret;
	}
	if (ret < 0 && c->nl->err[0])
		rd_seterr(c, "%s", c->nl->err);	/* the socket's, or a datagram that does not fit */
	if (ret == 0) {
		rd_seterr(c, "netlink replay: recorded reply ends early (truncated)");
		ret = -EBADMSG;
	}
	c->nl_ok = ret > 0;
	return ret < 0 ? ret : 0;
}

/* ---- device list ---- */
struct devs_ctx {
	struct rd_nl_dev *v;
	size_t n;
};

static int devs_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	struct devs_ctx *x = data;
	struct rd_nl_dev *nv;

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return -EBADMSG;
	nv = realloc(x->v, (x->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	x->v = nv;
	nv[x->n].index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	rd_strlcpy(nv[x->n].name, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]), sizeof(nv[x->n].name));
	/* in a GET reply PORT_INDEX is the number of ports; more than an 8-bit IB port number
	 * can name is no device's, and would be that many per-port requests (fuzz_nldev) */
	nv[x->n].nports = tb[RDMA_NLDEV_ATTR_PORT_INDEX] ?
			  mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]) : 0;
	if (nv[x->n].nports > RD_NL_MAX_PORTS)
		return -EBADMSG;
	x->n++;
	return 0;
}

int rd_nl_devices(struct rdiag_counters *c, struct rd_nl_dev **out, size_t *n)
{
	struct devs_ctx x = { NULL, 0 };
	int ret = rd_nl_query(c, RDMA_NLDEV_CMD_GET, true, RD_NL_NODEV, 0, 0, devs_cb,
			      &x);

	if (ret < 0) {
		free(x.v);
		return ret;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

int rd_nl_dev_index(struct rdiag_counters *c, const char *name, uint32_t *index)
{
	struct rd_nl_dev *v;
	size_t n, i;
	int ret = rd_nl_devices(c, &v, &n);

	if (ret < 0)
		return ret;
	ret = -ENODEV;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name)) {
			*index = v[i].index;
			ret = 0;
		}
	free(v);
	return ret;
}

/* ---- discovery ---- */
struct disc_ctx {
	struct rdiag_devices *ds;
};

static int get_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	struct disc_ctx *x = data;
	struct rdiag_device *d;
	uint64_t guid;

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return -EBADMSG;
	d = rd_devices_get(x->ds, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]));
	if (!d)
		return -ENOMEM;
	d->index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	d->has_index = true;
	if (tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL])
		rd_strlcpy(d->protocol, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]), sizeof(d->protocol));
	if (tb[RDMA_NLDEV_ATTR_FW_VERSION] && !d->fw_ver[0])
		rd_strlcpy(d->fw_ver, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_FW_VERSION]), sizeof(d->fw_ver));
	if (tb[RDMA_NLDEV_ATTR_NODE_GUID] && !d->node_guid[0]) {
		/* the kernel sends the GUID in network order inside a u64 (be64) */
		guid = be64toh(mnl_attr_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]));
		snprintf(d->node_guid, sizeof(d->node_guid), "%04x:%04x:%04x:%04x",
			 (unsigned)(guid >> 48) & 0xffff, (unsigned)(guid >> 32) & 0xffff,
			 (unsigned)(guid >> 16) & 0xffff, (unsigned)guid & 0xffff);
	}
	if (tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] && !d->node_type[0]) {
		static const char *const nt[] = { "", "ca", "switch", "router", "rnic", "usnic",
						  "usnic_udp", "unspecified" };
		uint8_t t = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);

		if (t < sizeof(nt) / sizeof(nt[0]))
			rd_strlcpy(d->node_type, nt[t], sizeof(d->node_type));
	}
	return 0;
}

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	struct disc_ctx *x = data;
	struct rdiag_device *d;
	struct rdiag_port *p;

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (!tb[RDMA_NLDEV_ATTR_DEV_NAME] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EBADMSG;
	d = rd_devices_get(x->ds, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]));
	if (!d)
		return -ENOMEM;
	p = rd_device_port(d, mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]));
	if (!p)
		return -ENOMEM;
	if (tb[RDMA_NLDEV_ATTR_PORT_STATE])
		p->state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]);
	if (tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE])
		p->phys_state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);
	if (tb[RDMA_NLDEV_ATTR_LID])
		p->lid = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_LID]);
	if (tb[RDMA_NLDEV_ATTR_SM_LID])
		p->sm_lid = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_SM_LID]);
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		rd_strlcpy(p->netdev, mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_NDEV_NAME]), sizeof(p->netdev));
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
		p->ifindex = (int)mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	return 0;
}

int rd_nl_discover(struct rdiag_counters *c, struct rdiag_devices *ds)
{
	struct disc_ctx x = { ds };
	size_t i;
	int ret;

	ret = rd_nl_query(c, RDMA_NLDEV_CMD_GET, true, RD_NL_NODEV, 0, 0, get_cb, &x);
	if (ret < 0)
		return ret;
	for (i = 0; i < ds->n; i++) {
		if (!ds->dev[i].has_index)
			continue;
		ret = rd_nl_query(c, RDMA_NLDEV_CMD_PORT_GET, true, ds->dev[i].index, 0, 0,
				  port_cb, &x);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- port counters ---- */
struct stat_ctx {
	struct rdiag_samples *set;
	const char *dev;
	uint32_t port;
	const char *driver;
	uint64_t ts;
	bool got;
};

static int hwc_add(const char *name, uint64_t value, const struct nlattr **tb, void *data)
{
	struct stat_ctx *x = data;

	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
		return -EBADMSG;
	return rd_samples_add(x->set, x->dev, x->port, name, value, 0, RDIAG_ORIG_NETLINK, x->ts,
			      0, x->driver);
}

static int stat_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	struct stat_ctx *x = data;

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	x->got = true;
	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return 0;	/* a port without hw counters */
	return rd_nl_hwcounters(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], hwc_add, x);
}

int rd_nl_sample_port(struct rdiag_counters *c, struct rdiag_samples *set, uint32_t dev_index,
		      const char *dev, uint32_t port, const char *driver)
{
	struct stat_ctx x = { set, dev, port, driver, rd_mono_ns(), false };
	size_t before = set->n;
	int ret;

	ret = rd_nl_query(c, RDMA_NLDEV_CMD_STAT_GET, false, dev_index, port, 0, stat_cb, &x);
	if (ret < 0) {
		/* all or nothing per port: a half-parsed reply must not mix with sysfs */
		while (set->n > before)
			set->n--;
		return ret;
	}
	return x.got ? 0 : -ENODATA;
}

/* ---- STAT_GET_STATUS and counter mode ---- */
struct status_ctx {
	struct rdiag_counter_status *st;
};

static int status_add(const char *name, uint64_t value, const struct nlattr **tb, void *data)
{
	struct rdiag_counter_status *st = ((struct status_ctx *)data)->st;
	char **nn;
	bool *ne;

	(void)value;
	/* the kernel lists every counter; only optional ones carry DYNAMIC (= enabled) */
	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC])
		return 0;
	nn = realloc(st->names, (st->n + 1) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	st->names = nn;
	ne = realloc(st->enabled, (st->n + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	st->enabled = ne;
	nn[st->n] = strdup(name);
	if (!nn[st->n])
		return -ENOMEM;
	ne[st->n] = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC]);
	st->n++;
	return 0;
}

static int status_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return 0;
	return rd_nl_hwcounters(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], status_add, data);
}

static int mode_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RD_NL_MAXATTR];
	struct rdiag_counter_status *st = ((struct status_ctx *)data)->st;

	if (rd_nl_parse(nlh, tb) < 0)
		return -EBADMSG;
	if (tb[RDMA_NLDEV_ATTR_STAT_MODE])
		st->mode = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_STAT_MODE]);
	if (tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK])
		st->auto_mask = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]);
	return 0;
}

void rdiag_counters_status_free(struct rdiag_counter_status *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->names[i]);
	free(st->names);
	free(st->enabled);
	memset(st, 0, sizeof(*st));
}

int rdiag_counters_status(struct rdiag_counters *c, const char *dev, uint32_t port,
			  struct rdiag_counter_status *st)
{
	struct status_ctx x = { st };
	uint32_t idx;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!c->use_netlink) {
		rd_seterr(c, "netlink is not in use (sysfs source, or a sysfs root without replay)");
		return -EOPNOTSUPP;
	}
	ret = rd_nl_dev_index(c, dev, &idx);
	if (ret < 0)
		return ret;
	ret = rd_nl_query(c, RDMA_NLDEV_CMD_STAT_GET, false, idx, port, RDMA_NLDEV_ATTR_RES_QP,
			  mode_cb, &x);
	if (ret < 0)
		return ret;
	ret = rd_nl_query(c, RDMA_NLDEV_CMD_STAT_GET_STATUS, false, idx, port, 0, status_cb, &x);
	/* kernels before 6.0 have no STAT_GET_STATUS: no optional counters to list */
	if (ret == -EOPNOTSUPP || ret == -EINVAL)
		ret = 0;
	if (ret < 0)
		rdiag_counters_status_free(st);
	return ret;
}
