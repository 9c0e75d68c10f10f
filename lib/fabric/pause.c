/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Link-level pause through ethtool netlink, as `ethtool -I -a IFNAME` reads it:
 * ETHTOOL_MSG_PAUSE_GET with ETHTOOL_A_HEADER_FLAGS = ETHTOOL_FLAG_STATS (a kernel before
 * 5.10 does not know that flag and refuses it: then asked again without).  The reply
 * (net/ethtool/pause.c) carries AUTONEG/RX/TX (u8) and a STATS nest holding only the
 * statistics the driver's get_pause_stats set (each u64, after a PAD attribute for
 * alignment): a driver without it gives an empty nest, and those stay "not available
 * here".  Layout: linux/ethtool_netlink.h (6.1: TX_FRAMES, RX_FRAMES). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "util/util.h"

struct pause_ctx {
	struct rdiag_eth_pause *p;
	const char *why;
};

static int bad(struct pause_ctx *x, const char *why)
{
	x->why = why;
	return MNL_CB_ERROR;
}

static int stats_cb(const struct nlattr *a, void *data)
{
	struct pause_ctx *x = data;
	uint64_t v;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_PAUSE_STAT_TX_FRAMES:
	case ETHTOOL_A_PAUSE_STAT_RX_FRAMES:
		if (mnl_attr_get_payload_len(a) < sizeof(v))
			return bad(x, "pause statistic shorter than 8 bytes");
		memcpy(&v, mnl_attr_get_payload(a), sizeof(v));
		if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_STAT_TX_FRAMES) {
			x->p->tx_frames = v;
			x->p->has_tx_frames = true;
		} else {
			x->p->rx_frames = v;
			x->p->has_rx_frames = true;
		}
	}
	return MNL_CB_OK;
}

static int u8_flag(struct pause_ctx *x, const struct nlattr *a, int *out)
{
	if (mnl_attr_get_payload_len(a) < 1)
		return bad(x, "pause flag attribute empty");
	*out = mnl_attr_get_u8(a) ? 1 : 0;
	return MNL_CB_OK;
}

static int top_cb(const struct nlattr *a, void *data)
{
	struct pause_ctx *x = data;
	int ret;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_PAUSE_AUTONEG:
		return u8_flag(x, a, &x->p->autoneg);
	case ETHTOOL_A_PAUSE_RX:
		return u8_flag(x, a, &x->p->rx);
	case ETHTOOL_A_PAUSE_TX:
		return u8_flag(x, a, &x->p->tx);
	case ETHTOOL_A_PAUSE_STATS:
		ret = rd_fabric_walk(NULL, 0, a, stats_cb, x);
		if (ret == RD_WALK_SHORT)
			return bad(x, "a pause statistic past its nest");
		return ret;
	}
	return MNL_CB_OK;
}

int rd_pause_parse_datagram(const void *buf, size_t len, uint16_t family,
			    struct rdiag_eth_pause *out, const char **why)
{
	const struct nlmsghdr *nlh;
	const struct genlmsghdr *g;
	struct rdiag_eth_pause p;
	struct pause_ctx x = { &p, NULL };
	int ret;

	if (why)
		*why = NULL;
	memset(&p, 0, sizeof(p));
	p.autoneg = p.rx = p.tx = -1;
	ret = rd_genl_reply(buf, len, family, &nlh, why);
	if (ret < 0)
		return ret;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != ETHTOOL_MSG_PAUSE_GET_REPLY) {
		if (why)
			*why = "not a pause reply";
		return -EBADMSG;
	}
	ret = rd_fabric_walk(nlh, GENL_HDRLEN, NULL, top_cb, &x);
	if (ret == RD_WALK_SHORT || ret == MNL_CB_ERROR) {
		if (why)
			*why = x.why ? x.why : "an attribute past its message";
		return -EBADMSG;
	}
	*out = p;
	return 0;
}

/* one PAUSE_GET for ifname with header flags (0: none) and its reply parsed into *p; *asked
 * false when the exchange itself failed (its -errno returned, its message set) */
static int pause_ask(struct rdiag_fabric *f, uint16_t fam, const char *ifname, uint32_t flags,
		     struct rdiag_eth_pause *p, const char **why, bool *asked)
{
	char req[128];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *hdr;
	const void *rep;
	size_t replen;
	int ret;

	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = fam;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = ETHTOOL_MSG_PAUSE_GET;
	g->version = ETHTOOL_GENL_VERSION;
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, hdr);
	ret = rd_genl_exchange(f, req, &rep, &replen);
	*asked = ret == 0;
	if (ret < 0)
		return ret;
	return rd_pause_parse_datagram(rep, replen, fam, p, why);
}

int rdiag_fabric_pause(struct rdiag_fabric *f, const char *ifname, struct rdiag_eth_pause *out)
{
	struct rdiag_eth_pause p;
	uint64_t now;
	const char *why = NULL;
	uint16_t fam;
	bool asked;
	int ret;

	f->err[0] = '\0';
	if (strlen(ifname) >= 16) {
		rd_fabric_seterr(f, "'%s': not an interface name (too long)", ifname);
		return -EINVAL;
	}
	ret = rd_genl_ethtool_family(f, &fam);
	if (ret == -ENXIO)
		rd_fabric_seterr(f, "%s: a sysfs root without RDMADIAG_NL_REPLAY: this host's ethtool netlink is not asked",
				 ifname);
	if (ret < 0)
		return ret;
	ret = pause_ask(f, fam, ifname, ETHTOOL_FLAG_STATS, &p, &why, &asked);
	if (!asked) {
		if (ret == -ENOENT)
			rd_fabric_seterr(f, "netlink replay: no recorded pause reply for %s", ifname);
		return ret;
	}
	if (ret == -EOPNOTSUPP) {
		/* a kernel before 5.10 refuses the STATS flag it does not know with the same
		 * EOPNOTSUPP as a driver without get_pauseparam: asked again without it, the
		 * settings come back on such a kernel (and in a replay that did not record the
		 * second question, the first answer stands) */
		struct rdiag_eth_pause q;
		const char *why2 = NULL;
		bool asked2;

		if (pause_ask(f, fam, ifname, 0, &q, &why2, &asked2) == 0) {
			p = q;
			p.stats_refused = true;
			ret = 0;
		}
		f->err[0] = '\0';
	}
	now = rd_mono_ns();
	/* an NLMSG_ERROR of -EBADMSG is the kernel refusing, not a malformed reply: no why */
	if (ret == -EBADMSG && why)
		rd_fabric_seterr(f, "malformed ethtool pause reply for %s: %s", ifname, why);
	else if (ret == -EOPNOTSUPP)
		rd_fabric_seterr(f, "%s: link-level pause not available here (the driver has no get_pauseparam)",
				 ifname);
	else if (ret == -ENODEV)
		rd_fabric_seterr(f, "%s: no such network device", ifname);
	else if (ret < 0)
		rd_fabric_seterr(f, "ethtool pause query for %s refused: %s", ifname,
				 strerror(-ret));
	if (ret < 0)
		return ret;
	p.time_ns = now;
	*out = p;
	return 0;
}
