/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* RTM_GETROUTE for one destination, what 'ip route get DST [from SRC] [oif DEV]' asks: the
 * one route lookup of the library (the doctor's route check, rdmatrace's no_route evidence).
 * Through rd_nl_talk, so a replay answers it as the kernel did. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "netlink.h"

struct route_ctx {
	struct rd_nl_route *r;
	size_t alen;
};

static int route_attr_cb(const struct nlattr *attr, void *data)
{
	struct route_ctx *ctx = data;

	switch (mnl_attr_get_type(attr)) {
	case RTA_OIF:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ctx->r->oif = (int)mnl_attr_get_u32(attr);
		break;
	case RTA_PREFSRC:
		if (mnl_attr_get_payload_len(attr) == ctx->alen) {
			memcpy(ctx->r->prefsrc, mnl_attr_get_payload(attr), ctx->alen);
			ctx->r->has_prefsrc = true;
		}
		break;
	case RTA_GATEWAY:
		if (mnl_attr_get_payload_len(attr) == ctx->alen) {
			memcpy(ctx->r->gateway, mnl_attr_get_payload(attr), ctx->alen);
			ctx->r->has_gateway = true;
		}
		break;
	case RTA_TABLE:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ctx->r->table = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_ctx *ctx = data;
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm)) {
		errno = EBADMSG;	/* shorter than its rtmsg: fuzz_rtnl read past it */
		return MNL_CB_ERROR;
	}
	ctx->r->type = rtm->rtm_type;
	ctx->r->table = rtm->rtm_table;
	rd_nl_attr_parse(nlh, sizeof(*rtm), route_attr_cb, ctx);
	return MNL_CB_STOP;
}

int rd_nl_route_get(struct rd_nl *nl, int family, const void *dst, const void *src, int oif,
		    struct rd_nl_route *r)
{
	char buf[512];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	size_t alen = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	struct route_ctx ctx = { r, alen };
	struct rd_nl_walk w = { nl, route_cb, &ctx };
	int ret;

	memset(r, 0, sizeof(*r));
	r->type = -1;
	if (!alen || !dst)
		return -EAFNOSUPPORT;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)(alen * 8);
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	if (src) {
		rtm->rtm_src_len = (unsigned char)(alen * 8);
		mnl_attr_put(nlh, RTA_SRC, alen, src);
	}
	if (oif > 0)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)oif);
	ret = rd_nl_talk(nl, nlh, rd_nl_walk_dgram, &w);
	if (ret == 0 && nl->replay)
		return 0;	/* the recorded datagrams ended: what they said stands */
	return ret < 0 ? ret : 0;
}
