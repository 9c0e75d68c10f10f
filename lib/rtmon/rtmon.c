/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rtnetlink changes for the flight recorder (rdmadiag/rtmon.h): link, address, neighbour and
 * route messages of the multicast groups, each rendered as one line.  The socket is a
 * subscriber of lib/netlink's exchange (rd_nl_subscribe, rd_nl_receive); every datagram
 * passes rd_nl_datagram_check() and every message's attributes rd_nl_attr_parse(). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "rdmadiag/rtmon.h"
#include "netlink/netlink.h"
#include "open_error.h"

struct rdiag_rtmon {
	struct rd_nl nl;
	char err[256];
};

/* why the last rdiag_rtmon_open() of the process failed (errmsg(NULL)) */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000	/* linux/if.h, which clashes with net/if.h */
#endif
#define MAX_ATTR 64

struct walk {
	rdiag_rtmon_cb cb;
	void *arg;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type < MAX_ATTR)
		tb[type] = a;
	return MNL_CB_OK;
}

/* an address attribute of this family, as text; "" when its length does not fit */
static const char *attr_addr(const struct nlattr *a, int family, char *buf, size_t len)
{
	uint16_t n;

	buf[0] = 0;
	if (!a)
		return buf;
	n = mnl_attr_get_payload_len(a);
	if ((family == AF_INET && n == 4) || (family == AF_INET6 && n == 16))
		inet_ntop(family, mnl_attr_get_payload(a), buf, (socklen_t)len);
	return buf;
}

static bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

static void set_ifname(struct rdiag_rtmon_change *c, int ifindex)
{
	char name[IF_NAMESIZE];

	c->ifindex = ifindex;
	if (ifindex > 0 && if_indextoname((unsigned int)ifindex, name))
		snprintf(c->ifname, sizeof(c->ifname), "%s", name);
}

static const char *operstate_name(unsigned int s)
{
	static const char *const n[] = { "UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN",
					 "TESTING", "DORMANT", "UP" };

	return s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}

static int on_link(const struct nlmsghdr *nlh, struct rdiag_rtmon_change *c)
{
	const struct nlattr *tb[MAX_ATTR] = { NULL };
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	uint32_t mtu = 0;
	int n;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return -EBADMSG;
	if (rd_nl_attr_parse(nlh, sizeof(*ifi), attr_cb, tb) < 0)
		return -EBADMSG;
	c->kind = "link";
	c->ifindex = ifi->ifi_index;
	if (tb[IFLA_IFNAME] && mnl_attr_validate(tb[IFLA_IFNAME], MNL_TYPE_NUL_STRING) == 0)
		snprintf(c->ifname, sizeof(c->ifname), "%s", mnl_attr_get_str(tb[IFLA_IFNAME]));
	else
		set_ifname(c, ifi->ifi_index);
	n = snprintf(c->text, sizeof(c->text), "%s%s%s%s",
		     c->ifname[0] ? c->ifname : "?", (ifi->ifi_flags & IFF_UP) ? " UP" : " DOWN",
		     (ifi->ifi_flags & IFF_LOWER_UP) ? " LOWER_UP" : "",
		     (ifi->ifi_flags & IFF_RUNNING) ? " RUNNING" : "");
	if (tb[IFLA_OPERSTATE] && mnl_attr_validate(tb[IFLA_OPERSTATE], MNL_TYPE_U8) == 0 &&
	    n > 0 && (size_t)n < sizeof(c->text))
		n += snprintf(c->text + n, sizeof(c->text) - (size_t)n, " state %s",
			      operstate_name(mnl_attr_get_u8(tb[IFLA_OPERSTATE])));
	if (attr_u32(tb[IFLA_MTU], &mtu) && n > 0 && (size_t)n < sizeof(c->text))
		snprintf(c->text + n, sizeof(c->text) - (size_t)n, " mtu %u", mtu);
	return 0;
}

static int on_addr(const struct nlmsghdr *nlh, struct rdiag_rtmon_change *c)
{
	const struct nlattr *tb[MAX_ATTR] = { NULL };
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	char a[INET6_ADDRSTRLEN];

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifa))
		return -EBADMSG;
	if (rd_nl_attr_parse(nlh, sizeof(*ifa), attr_cb, tb) < 0)
		return -EBADMSG;
	c->kind = "addr";
	set_ifname(c, (int)ifa->ifa_index);
	attr_addr(tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS], ifa->ifa_family, a, sizeof(a));
	snprintf(c->text, sizeof(c->text), "%s/%u dev %s", a[0] ? a : "?", ifa->ifa_prefixlen,
		 c->ifname[0] ? c->ifname : "?");
	return 0;
}

static const char *nud_name(unsigned int s)
{
	switch (s) {
	case NUD_INCOMPLETE: return "INCOMPLETE";
	case NUD_REACHABLE: return "REACHABLE";
	case NUD_STALE: return "STALE";
	case NUD_DELAY: return "DELAY";
	case NUD_PROBE: return "PROBE";
	case NUD_FAILED: return "FAILED";
	case NUD_NOARP: return "NOARP";
	case NUD_PERMANENT: return "PERMANENT";
	case NUD_NONE: return "NONE";
	default: return "?";
	}
}

static int on_neigh(const struct nlmsghdr *nlh, struct rdiag_rtmon_change *c)
{
	const struct nlattr *tb[MAX_ATTR] = { NULL };
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	char a[INET6_ADDRSTRLEN], ll[64] = "";
	int n;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*nd))
		return -EBADMSG;
	if (rd_nl_attr_parse(nlh, sizeof(*nd), attr_cb, tb) < 0)
		return -EBADMSG;
	if (nd->ndm_family != AF_INET && nd->ndm_family != AF_INET6)
		return 1;	/* bridge fdb entries and the like */
	c->kind = "neigh";
	set_ifname(c, nd->ndm_ifindex);
	attr_addr(tb[NDA_DST], nd->ndm_family, a, sizeof(a));
	if (tb[NDA_LLADDR]) {
		const unsigned char *p = mnl_attr_get_payload(tb[NDA_LLADDR]);
		uint16_t i, len = mnl_attr_get_payload_len(tb[NDA_LLADDR]);
		size_t o = 0;

		for (i = 0; i < len && o + 4 < sizeof(ll); i++)
			o += (size_t)snprintf(ll + o, sizeof(ll) - o, "%s%02x", i ? ":" : "", p[i]);
	}
	n = snprintf(c->text, sizeof(c->text), "%s dev %s", a[0] ? a : "?",
		     c->ifname[0] ? c->ifname : "?");
	if (ll[0] && n > 0 && (size_t)n < sizeof(c->text))
		n += snprintf(c->text + n, sizeof(c->text) - (size_t)n, " lladdr %s", ll);
	if (n > 0 && (size_t)n < sizeof(c->text))
		snprintf(c->text + n, sizeof(c->text) - (size_t)n, " %s", nud_name(nd->ndm_state));
	return 0;
}

static int on_route(const struct nlmsghdr *nlh, struct rdiag_rtmon_change *c)
{
	const struct nlattr *tb[MAX_ATTR] = { NULL };
	const struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);
	char dst[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	uint32_t oif = 0, table = 0;
	int n;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*rt))
		return -EBADMSG;
	if (rd_nl_attr_parse(nlh, sizeof(*rt), attr_cb, tb) < 0)
		return -EBADMSG;
	if (rt->rtm_family != AF_INET && rt->rtm_family != AF_INET6)
		return 1;
	c->kind = "route";
	if (attr_u32(tb[RTA_OIF], &oif))
		set_ifname(c, (int)oif);
	if (!attr_u32(tb[RTA_TABLE], &table))
		table = rt->rtm_table;
	attr_addr(tb[RTA_DST], rt->rtm_family, dst, sizeof(dst));
	attr_addr(tb[RTA_GATEWAY], rt->rtm_family, gw, sizeof(gw));
	if (dst[0])
		n = snprintf(c->text, sizeof(c->text), "%s/%u", dst, rt->rtm_dst_len);
	else
		n = snprintf(c->text, sizeof(c->text), "default");
	if (gw[0] && n > 0 && (size_t)n < sizeof(c->text))
		n += snprintf(c->text + n, sizeof(c->text) - (size_t)n, " via %s", gw);
	if (c->ifname[0] && n > 0 && (size_t)n < sizeof(c->text))
		n += snprintf(c->text + n, sizeof(c->text) - (size_t)n, " dev %s", c->ifname);
	if (table != RT_TABLE_MAIN && n > 0 && (size_t)n < sizeof(c->text))
		snprintf(c->text + n, sizeof(c->text) - (size_t)n, " table %s",
			 table == RT_TABLE_LOCAL ? "local" : "other");
	return 0;
}

static int msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct walk *w = data;
	struct rdiag_rtmon_change c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.deleted = nlh->nlmsg_type == RTM_DELLINK || nlh->nlmsg_type == RTM_DELADDR ||
		    nlh->nlmsg_type == RTM_DELNEIGH || nlh->nlmsg_type == RTM_DELROUTE;
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK: case RTM_DELLINK: rc = on_link(nlh, &c); break;
	case RTM_NEWADDR: case RTM_DELADDR: rc = on_addr(nlh, &c); break;
	case RTM_NEWNEIGH: case RTM_DELNEIGH: rc = on_neigh(nlh, &c); break;
	case RTM_NEWROUTE: case RTM_DELROUTE: rc = on_route(nlh, &c); break;
	default: return MNL_CB_OK;
	}
	if (rc < 0) {
		errno = -rc;
		return MNL_CB_ERROR;
	}
	if (rc == 0)
		w->cb(&c, w->arg);
	return MNL_CB_OK;
}

int rdiag_rtmon_parse(const void *buf, size_t len, rdiag_rtmon_cb cb, void *arg)
{
	struct walk w = { cb, arg };

	if (rd_nl_datagram_check(buf, len) < 0)
		return -EBADMSG;
	errno = 0;
	if (mnl_cb_run(buf, len, 0, 0, msg_cb, &w) < 0)
		return errno ? -errno : -EBADMSG;
	return 0;
}

int rdiag_rtmon_open(struct rdiag_rtmon **mp, const struct rdiag_rtmon_opts *opts)
{
	static const unsigned int groups[] = { RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR,
		RTNLGRP_IPV6_IFADDR, RTNLGRP_NEIGH, RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE };
	struct rdiag_rtmon *m;
	int rc;

	*mp = NULL;
	if (opts && (opts->rcvbuf_kib < 0 || opts->rcvbuf_kib > INT32_MAX / 1024)) {
		rd_open_error_set(&open_err, "rtnetlink receive buffer of %d KiB: %s",
				  opts->rcvbuf_kib, strerror(EINVAL));
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	rd_nl_init(&m->nl, NETLINK_ROUTE, "rtnetlink");
	rc = rd_nl_subscribe(&m->nl, groups, sizeof(groups) / sizeof(groups[0]),
			     opts ? opts->rcvbuf_kib * 1024 : 0);
	if (rc < 0) {
		rd_open_error_set(&open_err, "%s", m->nl.err);
		rdiag_rtmon_close(m);
		return rc;
	}
	*mp = m;
	return 0;
}

int rdiag_rtmon_fd(const struct rdiag_rtmon *m)
{
	return rd_nl_fd(&m->nl);
}

static int read_dgram(const void *buf, size_t len, void *data)
{
	const struct walk *w = data;

	return rdiag_rtmon_parse(buf, len, w->cb, w->arg);
}

int rdiag_rtmon_read(struct rdiag_rtmon *m, rdiag_rtmon_cb cb, void *arg)
{
	struct walk w = { cb, arg };
	int rc;

	m->err[0] = '\0';
	rc = rd_nl_receive(&m->nl, read_dgram, &w);
	if (rc == -ENOBUFS)
		snprintf(m->err, sizeof(m->err),
			 "rtnetlink changes lost: the socket's receive buffer was full");
	else if (rc == -EBADMSG)
		snprintf(m->err, sizeof(m->err), "a malformed rtnetlink datagram was skipped");
	else if (rc < 0)
		snprintf(m->err, sizeof(m->err), "%s", m->nl.err[0] ? m->nl.err : strerror(-rc));
	return rc;
}

const char *rdiag_rtmon_errmsg(const struct rdiag_rtmon *m)
{
	return m ? m->err : rd_open_error_get(&open_err);
}

void rdiag_rtmon_close(struct rdiag_rtmon *m)
{
	if (!m)
		return;
	rd_nl_close(&m->nl);
	free(m);
}
