/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Generic netlink for lib/fabric: the family lookup (CTRL_CMD_GETFAMILY, as iproute2's and
 * ethtool's genl helpers do) and one request/reply exchange on a NETLINK_GENERIC socket,
 * replayed from RDMADIAG_NL_REPLAY and appended to the record file like the dcbnl ones.
 * Every datagram goes through rd_nl_datagram_check, every attribute walk through
 * rd_fabric_walk. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "netlink/netlink.h"

struct family_ctx {
	uint16_t id;
	bool seen;
	const char *why;
};

static int family_cb(const struct nlattr *a, void *data)
{
	struct family_ctx *x = data;

	if (mnl_attr_get_type(a) != CTRL_ATTR_FAMILY_ID)
		return MNL_CB_OK;
	if (mnl_attr_get_payload_len(a) < sizeof(uint16_t)) {
		x->why = "family id attribute shorter than 2 bytes";
		return MNL_CB_ERROR;
	}
	x->id = mnl_attr_get_u16(a);
	x->seen = true;
	return MNL_CB_OK;
}

/* the first message of type TYPE in buf[0..len) (with room for its genlmsghdr), or an
 * NLMSG_ERROR's -errno.  1 found (*out), -errno, -EBADMSG malformed (*why) */
static int first_msg(const void *buf, size_t len, uint16_t type,
		     const struct nlmsghdr **out, const char **why)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;

	if (len > INT32_MAX || rd_nl_datagram_check(buf, len) < 0) {
		*why = "a message length that does not fit the datagram";
		return -EBADMSG;
	}
	while (mnl_nlmsg_ok(nlh, rem)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)) ||
			    e->error < -4095 || e->error > 0) {
				*why = "malformed error message";
				return -EBADMSG;
			}
			if (e->error)
				return e->error;
		} else if (nlh->nlmsg_type == type) {
			if (nlh->nlmsg_len < mnl_nlmsg_size(GENL_HDRLEN)) {
				*why = "message shorter than its generic netlink header";
				return -EBADMSG;
			}
			*out = nlh;
			return 1;
		}
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	*why = "no reply message in the datagram";
	return -EBADMSG;
}

int rd_genl_reply(const void *buf, size_t len, uint16_t type, const struct nlmsghdr **out,
		  const char **why)
{
	const char *w = NULL;
	int ret = first_msg(buf, len, type, out, &w);

	if (why)
		*why = w;
	return ret < 0 ? ret : 0;
}

int rd_genl_family_parse(const void *buf, size_t len, uint16_t *id, const char **why)
{
	const struct nlmsghdr *nlh;
	struct family_ctx x = { 0, false, NULL };
	int ret;

	ret = rd_genl_reply(buf, len, GENL_ID_CTRL, &nlh, why);
	if (ret < 0)
		return ret;
	ret = rd_fabric_walk(nlh, GENL_HDRLEN, NULL, family_cb, &x);
	if (ret == RD_WALK_SHORT || ret == MNL_CB_ERROR) {
		if (why)
			*why = x.why ? x.why : "an attribute past its message";
		return -EBADMSG;
	}
	if (!x.seen || !x.id) {
		if (why)
			*why = "no family id in the reply";
		return -EBADMSG;
	}
	*id = x.id;
	return 0;
}

int rd_genl_exchange(struct rdiag_fabric *f, void *req, const void **rep, size_t *replen)
{
	int ret = rd_fabric_exchange(f, true, req, rep, replen);

	if (ret == -ENOENT)
		rd_fabric_seterr(f, "netlink replay: no recorded generic netlink reply");
	else if (ret == -ENXIO)
		rd_fabric_seterr(f, "a sysfs root without RDMADIAG_NL_REPLAY: this host's ethtool netlink is not asked");
	return ret;
}

int rd_genl_ethtool_family(struct rdiag_fabric *f, uint16_t *id)
{
	char req[64];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	const void *rep;
	const char *why = NULL;
	size_t replen;
	uint16_t fid = 0;
	int ret;

	if (f->ethtool_family > 0) {
		*id = (uint16_t)f->ethtool_family;
		return 0;
	}
	if (f->ethtool_family == -EOPNOTSUPP) {
		rd_fabric_seterr(f, "this kernel has no ethtool netlink: not available here");
		return -EOPNOTSUPP;
	}
	/* the same bytes every time (libmnl 1.0.4 leaves attribute padding as it was) */
	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	ret = rd_genl_exchange(f, req, &rep, &replen);
	if (ret < 0)
		return ret;	/* not cached: a replay without it or a socket error */
	ret = rd_genl_family_parse(rep, replen, &fid, &why);
	if (ret == -ENOENT) {
		/* CONFIG_ETHTOOL_NETLINK off, or a kernel before 5.6 */
		f->ethtool_family = -EOPNOTSUPP;
		rd_fabric_seterr(f, "this kernel has no ethtool netlink: not available here");
		return -EOPNOTSUPP;
	}
	/* an NLMSG_ERROR of -EBADMSG is the kernel refusing, not a malformed reply: no why */
	if (ret == -EBADMSG && why) {
		rd_fabric_seterr(f, "malformed generic netlink family reply: %s", why);
		return ret;
	}
	if (ret < 0) {
		rd_fabric_seterr(f, "generic netlink family lookup refused: %s", strerror(-ret));
		return ret;
	}
	f->ethtool_family = fid;
	*id = fid;
	return 0;
}
