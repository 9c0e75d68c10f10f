/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rtnetlink lookups for the doctor: RTM_GETROUTE (what 'ip route get' asks: lib/netlink's
 * rd_nl_route_get) and RTM_GETNEIGH for one address (what 'ip neigh get' asks), through
 * lib/netlink's exchange
 * (so RDMADIAG_NL_REPLAY replays them).  One request, one answer; the kernel's error
 * (ENETUNREACH, ENOENT ...) is the result. */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "netlink/netlink.h"

void rd_rtnl_init(struct rdiag_doctor *d)
{
	rd_nl_init(&d->rtnl, NETLINK_ROUTE, "rtnetlink");
	d->rtnl.seq = (uint32_t)time(NULL);
}

void rd_rtnl_close(struct rdiag_doctor *d)
{
	rd_nl_close(&d->rtnl);
	rd_replay_free(d->rtnl_replay);
	d->rtnl_replay = NULL;
	d->rtnl.replay = NULL;
}

/* the replay RDMADIAG_NL_REPLAY names, loaded at the first request: 0 or its -errno */
static int rtnl_ready(struct rdiag_doctor *d)
{
	char err[256];

	if (!d->rtnl_loaded) {
		d->rtnl_loaded = true;
		d->rtnl_load_ret = rd_nl_replay_env(&d->rtnl_replay, err, sizeof(err));
		d->rtnl.replay = d->rtnl_replay;
	}
	return d->rtnl_load_ret < 0 ? d->rtnl_load_ret : 0;
}

/* one request, its answer through cb: 0 or -errno */
static int rtnl_request(struct rdiag_doctor *d, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct rd_nl_walk w = { &d->rtnl, cb, data };
	int ret = rtnl_ready(d);

	if (ret < 0)
		return ret;
	ret = rd_nl_talk(&d->rtnl, nlh, rd_nl_walk_dgram, &w);
	if (ret == 0 && d->rtnl.replay)
		return 0;	/* the recorded datagrams ended: what they said stands */
	return ret < 0 ? ret : 0;
}

static size_t addr_len(const union rd_addr *a)
{
	return a->sa.sa_family == AF_INET ? 4 : 16;
}

static const void *addr_bytes(const union rd_addr *a)
{
	if (a->sa.sa_family == AF_INET)
		return &a->in.sin_addr;
	return &a->in6.sin6_addr;
}

static void addr_set(union rd_addr *a, int family, const void *p)
{
	memset(a, 0, sizeof(*a));
	a->sa.sa_family = (sa_family_t)family;
	if (family == AF_INET)
		memcpy(&a->in.sin_addr, p, 4);
	else
		memcpy(&a->in6.sin6_addr, p, 16);
}

int rd_rtnl_route_get(struct rdiag_doctor *d, const union rd_addr *dst,
		      const union rd_addr *src, int oif, struct rd_route *r)
{
	struct rd_nl_route nr;
	int family = dst->sa.sa_family, ret;

	memset(r, 0, sizeof(*r));
	ret = rtnl_ready(d);
	if (ret < 0)
		return ret;
	ret = rd_nl_route_get(&d->rtnl, family, addr_bytes(dst),
			      src && src->sa.sa_family == family ? addr_bytes(src) : NULL, oif, &nr);
	if (ret < 0)
		return ret;
	r->type = nr.type < 0 ? 0 : nr.type;
	r->oif = nr.oif;
	r->table = nr.table;
	r->has_prefsrc = nr.has_prefsrc;
	r->has_gateway = nr.has_gateway;
	if (nr.has_prefsrc)
		addr_set(&r->prefsrc, family, nr.prefsrc);
	if (nr.has_gateway)
		addr_set(&r->gateway, family, nr.gateway);
	if (r->oif && !if_indextoname((unsigned int)r->oif, r->oifname))
		snprintf(r->oifname, sizeof(r->oifname), "if%d", r->oif);
	return 0;
}

struct neigh_ctx {
	struct rd_neigh *n;
	bool found;
};

static int neigh_attr_cb(const struct nlattr *attr, void *data)
{
	struct neigh_ctx *ctx = data;
	size_t len;

	if (mnl_attr_get_type(attr) == NDA_LLADDR) {
		len = mnl_attr_get_payload_len(attr);
		if (len > sizeof(ctx->n->lladdr))
			len = sizeof(ctx->n->lladdr);
		memcpy(ctx->n->lladdr, mnl_attr_get_payload(attr), len);
		ctx->n->lladdr_len = (unsigned int)len;
		ctx->n->has_lladdr = true;
	}
	return MNL_CB_OK;
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	struct neigh_ctx *ctx = data;
	const struct ndmsg *ndm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != RTM_NEWNEIGH)
		return MNL_CB_OK;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ndm)) {
		errno = EBADMSG;	/* shorter than its ndmsg: fuzz_rtnl read past it */
		return MNL_CB_ERROR;
	}
	ctx->n->state = ndm->ndm_state;
	ctx->found = true;
	rd_nl_attr_parse(nlh, sizeof(*ndm), neigh_attr_cb, ctx);
	return MNL_CB_STOP;
}

int rd_rtnl_neigh_get(struct rdiag_doctor *d, const union rd_addr *addr, int ifindex,
		      struct rd_neigh *n)
{
	char buf[256];
	struct nlmsghdr *nlh;
	struct ndmsg *ndm;
	struct neigh_ctx ctx = { n, false };
	int ret;

	memset(n, 0, sizeof(*n));
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETNEIGH;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = (uint8_t)addr->sa.sa_family;
	ndm->ndm_ifindex = ifindex;
	mnl_attr_put(nlh, NDA_DST, addr_len(addr), addr_bytes(addr));
	ret = rtnl_request(d, nlh, neigh_cb, &ctx);
	if (ret)
		return ret;
	return ctx.found ? 0 : -ENOENT;
}

const char *rd_nud_state_name(uint16_t state, char *buf, size_t len)
{
	static const struct { uint16_t bit; const char *name; } names[] = {
		{ NUD_INCOMPLETE, "INCOMPLETE" }, { NUD_REACHABLE, "REACHABLE" },
		{ NUD_STALE, "STALE" }, { NUD_DELAY, "DELAY" }, { NUD_PROBE, "PROBE" },
		{ NUD_FAILED, "FAILED" }, { NUD_NOARP, "NOARP" }, { NUD_PERMANENT, "PERMANENT" },
	};
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(state & names[i].bit))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					off ? "," : "", names[i].name);
	}
	if (!buf[0])
		snprintf(buf, len, state ? "0x%x" : "NONE", state);
	return buf;
}

int rd_addr_parse(const char *s, union rd_addr *a)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	int ret;

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &a->in.sin_addr) == 1) {
		a->sa.sa_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a->in6.sin6_addr) == 1) {
		a->sa.sa_family = AF_INET6;
		return 0;
	}
	ret = getaddrinfo(s, NULL, &hints, &res);
	if (ret)
		return -EINVAL;
	memcpy(a, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

const char *rd_addr_str(const union rd_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->sa.sa_family, addr_bytes(a), buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int rd_addr_owner(const union rd_addr *a, char *ifname, size_t len)
{
	struct ifaddrs *ifa, *i;
	int ret = -EADDRNOTAVAIL;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		union rd_addr x;

		if (!i->ifa_addr || i->ifa_addr->sa_family != a->sa.sa_family)
			continue;
		if (a->sa.sa_family == AF_INET)
			addr_set(&x, AF_INET, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr);
		else
			addr_set(&x, AF_INET6, &((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr);
		if (memcmp(addr_bytes(&x), addr_bytes(a), addr_len(a)))
			continue;
		snprintf(ifname, len, "%s", i->ifa_name);
		ret = (int)if_nametoindex(i->ifa_name);
		if (ret <= 0)
			ret = -ENODEV;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}
