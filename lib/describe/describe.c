/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The description of this host (struct rd_desc), read once for all its uses: the "host"
 * object of rdmadoctor local -j, the line a listener serves on its side channel, and this
 * end of connect's side-by-side table.  Per RDMA port: state, netdev and MTUs, rate, driver
 * and firmware, the RoCE v2 GID a job would use (rdmadoctor env's choice), the configfs
 * default RoCE mode and ToS, the lossless chain (lib/fabric), and every address of the netdev
 * with the GID table index of its RoCE v2 and v1 GID; per host its name, kernel, rdmadiag
 * version and memlock limit.  format.c writes it and reads it back.  What it reads through
 * is the caller's (struct rd_desc_src: the doctor's sysfs root, counters handle and verbs
 * queries), so the description needs no doctor.
 *
 * Under RDMADIAG_SYSFS_ROOT the netdevs are not this host's: the addresses then come from the
 * GID table alone, and no device is queried through verbs (no active MTU). */
#include <errno.h>
#include <stdarg.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/resource.h>
#include <sys/utsname.h>

#include "describe.h"
#include "rdmadiag/fabric.h"
#include "util/util.h"

const struct rdiag_gid *rd_desc_v2_gid(const struct rdiag_port *p, const char *addr)
{
	const struct rdiag_gid *other = NULL;
	size_t i;

	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		if (g->type != RDIAG_GID_ROCE_V2 || !g->routable)
			continue;
		if (addr) {
			if (!strcmp(g->ip, addr))
				return g;
			continue;
		}
		if (g->ipv4)
			return g;
		if (!other)
			other = g;
	}
	return other;
}

/* src->root followed by the formatted absolute path */
static const char *root_path(const struct rd_desc_src *src, char *buf, size_t len,
			     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static const char *root_path(const struct rd_desc_src *src, char *buf, size_t len,
			     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_root_vpath(src->root, buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

static void memlock(char *buf, size_t len)
{
	struct rlimit rl;

	buf[0] = 0;
	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return;
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
}

static void gid_indexes(const struct rdiag_port *p, struct rd_desc_addr *a)
{
	size_t i;

	a->gid_v2 = a->gid_v1 = -1;
	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		if (!g->ip[0] || strcmp(g->ip, a->ip))
			continue;
		if (g->type == RDIAG_GID_ROCE_V2 && a->gid_v2 < 0)
			a->gid_v2 = (int)g->index;
		else if (g->type == RDIAG_GID_IB_ROCE_V1 && a->gid_v1 < 0)
			a->gid_v1 = (int)g->index;
	}
}

static void onoff(const struct rdiag_chain *c, const char *name, char *buf, size_t len)
{
	int i;

	for (i = 0; i < RDIAG_CHAIN_LINKS; i++)
		if (c->link[i].name && !strcmp(c->link[i].name, name))
			snprintf(buf, len, "%s", c->link[i].state == RDIAG_LINK_OK ? "on" :
				 c->link[i].state == RDIAG_LINK_BROKEN ? "off" : "");
}

/* the port's lossless chain: the DSCP and priority RoCE rides, PFC and ECN on it; nothing
 * when it cannot be checked (no DCB nor OFED settings: rxe on veth) */
static void port_lossless(const char *dev, const struct rdiag_port *p, struct rd_desc_port *dp)
{
	struct rdiag_chain c;

	if (rdiag_fabric_port_chain(p->netdev, dev, p->port, &c) < 0 ||
	    !strcmp(c.verdict, "unknown"))
		return;
	dp->dscp = c.dscp;
	dp->prio = c.prio;
	onoff(&c, "pfc", dp->pfc, sizeof(dp->pfc));
	onoff(&c, "ecn", dp->ecn, sizeof(dp->ecn));
}

static bool have_addr(const struct rd_desc_port *dp, const char *ip)
{
	size_t i;

	for (i = 0; i < dp->naddrs; i++)
		if (!strcmp(dp->addr[i].ip, ip))
			return true;
	return false;
}

static void add_addr(const struct rdiag_port *p, struct rd_desc_port *dp, const char *ip)
{
	struct rd_desc_addr *a;

	if (dp->naddrs >= RD_DESC_ADDRS || have_addr(dp, ip))
		return;
	a = &dp->addr[dp->naddrs++];
	snprintf(a->ip, sizeof(a->ip), "%s", ip);
	gid_indexes(p, a);
}

/* the netdev's addresses (getifaddrs), or under a fixture tree the GID table's */
static void port_addrs(const struct rd_desc_src *src, const struct rdiag_port *p,
		       struct ifaddrs *ifa, struct rd_desc_port *dp)
{
	struct ifaddrs *i;
	char ip[46];
	size_t g;

	if (src->root[0]) {
		for (g = 0; g < p->n_gids; g++)
			if (p->gids[g].ip[0])
				add_addr(p, dp, p->gids[g].ip);
		return;
	}
	for (i = ifa; i; i = i->ifa_next) {
		const void *bytes;

		if (!i->ifa_addr || strcmp(i->ifa_name, p->netdev))
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			bytes = &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			bytes = &((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr;
		else
			continue;
		if (inet_ntop(i->ifa_addr->sa_family, bytes, ip, sizeof(ip)))
			add_addr(p, dp, ip);
	}
}

/* rdma_cm's configfs defaults of a RoCE port: mode, ToS (the kernel's 0 without a group) */
static void port_configfs(const struct rd_desc_src *src, const char *dev,
			  struct rd_desc_port *dp)
{
	char path[512], tos[16];
	char *end;
	long v;

	root_path(src, path, sizeof(path),
		  "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode", dev, dp->port);
	read_line(path, dp->roce_mode, sizeof(dp->roce_mode));
	root_path(src, path, sizeof(path),
		  "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos", dev, dp->port);
	read_line(path, tos, sizeof(tos));
	v = strtol(tos, &end, 0);
	dp->tos_configfs = tos[0] && end != tos && v >= 0 && v <= 255;
	dp->tos = dp->tos_configfs ? (int)v : 0;
}

static void describe_port(const struct rd_desc_src *src, const struct rdiag_device *dev,
			  const struct rdiag_port *p, struct ifaddrs *ifa, struct rd_desc_port *dp)
{
	const struct rdiag_gid *g;
	const char *n;

	memset(dp, 0, sizeof(*dp));
	dp->gid_index = dp->tos = dp->dscp = dp->prio = -1;
	snprintf(dp->dev, sizeof(dp->dev), "%s", dev->name);
	snprintf(dp->driver, sizeof(dp->driver), "%s", dev->driver);
	snprintf(dp->fw, sizeof(dp->fw), "%s", dev->fw_ver);
	if ((n = rdiag_port_state_name(p->state)))
		snprintf(dp->state, sizeof(dp->state), "%s", n);
	if ((n = rdiag_port_phys_state_name(p->phys_state)))
		snprintf(dp->phys_state, sizeof(dp->phys_state), "%s", n);
	snprintf(dp->link_layer, sizeof(dp->link_layer), "%s", p->link_layer);
	snprintf(dp->rate, sizeof(dp->rate), "%s", p->rate);
	snprintf(dp->netdev, sizeof(dp->netdev), "%s", p->netdev);
	dp->port = p->port;
	dp->mtu = p->mtu;
	if (src->root[0] || !src->query_port ||
	    src->query_port(src->arg, dev->name, p->port, &dp->active_mtu, &dp->max_mtu))
		dp->active_mtu = dp->max_mtu = 0;
	if (!p->netdev[0] || strcmp(p->link_layer, "Ethernet"))
		return;		/* what follows is RoCE's */
	if ((g = rd_desc_v2_gid(p, NULL))) {
		dp->gid_index = (int)g->index;
		snprintf(dp->gid_addr, sizeof(dp->gid_addr), "%s", g->ip);
	}
	port_configfs(src, dev->name, dp);
	port_lossless(dev->name, p, dp);
	port_addrs(src, p, ifa, dp);
}

int rd_desc_local(const struct rd_desc_src *src, struct rd_desc *h)
{
	struct rdiag_counters *c = src->cnt;
	struct rdiag_devices *devs = NULL;
	struct ifaddrs *ifa = NULL;
	struct utsname u;
	size_t i, j;

	memset(h, 0, sizeof(*h));
	snprintf(h->version, sizeof(h->version), "%s", RDIAG_VERSION);
	if (uname(&u) == 0) {
		snprintf(h->host, sizeof(h->host), "%s", u.nodename);
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	memlock(h->memlock, sizeof(h->memlock));
	/* a fresh discovery: a listener's description must show the host as it is now; a host
	 * whose devices cannot be listed is described without ports */
	if (!c || rdiag_counters_discover(c, &devs))
		return 0;
	if (!src->root[0] && getifaddrs(&ifa))
		ifa = NULL;
	for (i = 0; i < devs->n; i++)
		for (j = 0; j < devs->dev[i].n_ports && h->nports < RD_DESC_PORTS; j++)
			describe_port(src, &devs->dev[i], &devs->dev[i].ports[j], ifa,
				      &h->port[h->nports++]);
	if (ifa)
		freeifaddrs(ifa);
	rdiag_counters_devices_free(devs);
	return 0;
}
