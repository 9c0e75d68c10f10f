/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Is there a route to a failed connection's destination?  The evidence rdmadoctor's route
 * check has (lib/doctor/doctor_path.c), for a live trace's ADDR_ERROR: bound to its netdev,
 * rdma_cm assumes an unrouted destination is on-link and ARPs for it there, so the event's
 * ETIMEDOUT alone cannot tell a missing route from an unanswered neighbour. */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "netlink/netlink.h"
#include "rdmadiag/cause.h"

struct route_walk {
	struct rd_nl *nl;
	int type;		/* rtm_type of the answer, -1 none */
};

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_walk *w = data;
	const struct rtmsg *rtm;

	if (nlh->nlmsg_type != RTM_NEWROUTE || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)))
		return MNL_CB_OK;
	rtm = mnl_nlmsg_get_payload(nlh);
	w->type = rtm->rtm_type;
	return MNL_CB_STOP;
}

/* one reply datagram: the answer, or the kernel's error (mnl_cb_run: -1 with errno) */
static int route_dgram(const void *buf, size_t len, void *arg)
{
	struct route_walk *w = arg;
	int ret;

	if (!len)
		return 1;
	errno = 0;
	ret = mnl_cb_run(buf, len, w->nl->seq, mnl_socket_get_portid(w->nl->sock), route_cb, w);
	if (ret < 0)
		return errno ? -errno : -EBADMSG;
	return ret == MNL_CB_STOP ? 1 : 0;
}

int rd_trace_route(int family, const unsigned char *src, const unsigned char *dst)
{
	static const unsigned char zero[16];
	unsigned char buf[512];
	struct route_walk w = { NULL, -1 };
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct rd_nl nl;
	size_t n = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	int ret;

	if (!n || !dst)
		return RDIAG_CAUSE_ROUTE_UNKNOWN;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)(n * 8);
	mnl_attr_put(nlh, RTA_DST, n, dst);
	if (src && memcmp(src, zero, n)) {
		rtm->rtm_src_len = (unsigned char)(n * 8);
		mnl_attr_put(nlh, RTA_SRC, n, src);
	}
	rd_nl_init(&nl, NETLINK_ROUTE, "rtnetlink");
	nl.seq = (uint32_t)time(NULL);
	w.nl = &nl;
	ret = rd_nl_talk(&nl, nlh, route_dgram, &w);
	rd_nl_close(&nl);
	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH || ret == -EINVAL)
		return RDIAG_CAUSE_ROUTE_NONE;
	if (ret < 0 || w.type < 0)
		return RDIAG_CAUSE_ROUTE_UNKNOWN;
	return w.type == RTN_UNICAST || w.type == RTN_LOCAL ? RDIAG_CAUSE_ROUTE_OK :
	       RDIAG_CAUSE_ROUTE_NONE;
}
