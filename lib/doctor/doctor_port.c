/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Per-port checks: port state and physical state (IB: SM LID, stuck in INIT), the netdev's
 * namespace, the GID table (a RoCE v2 GID for the source address; v1-only, link-local-only
 * and missing IPv4-mapped GIDs flagged), netdev MTU -> RoCE path MTU vs the active MTU,
 * and the configfs default RoCE mode. */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "verbs/verbs.h"
#include "internal.h"
#include "rdmadiag/packet.h"

/* one ibv_get_device_list() pass for all ports: loading the providers and opening a
 * device costs about 0.7 s under QEMU/TCG, so it is done once per doctor */
static void query_all_ports(struct rdiag_doctor *d)
{
	struct ibv_device **list;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int i, n;
	uint32_t p;

	d->ports_queried = true;
	if (rd_ibv_load(NULL, 0))	/* check_mtu() says why */
		return;
	list = ibv_get_device_list(&n);
	if (!list)
		return;
	for (i = 0; i < n; i++) {
		struct ibv_context *ctx = ibv_open_device(list[i]);

		if (!ctx)
			continue;
		if (ibv_query_device(ctx, &da) == 0)
			for (p = 1; p <= da.phys_port_cnt && d->nqports < 16; p++) {
				if (ibv_query_port(ctx, (uint8_t)p, &pa))
					continue;
				snprintf(d->qports[d->nqports].dev, sizeof(d->qports[0].dev), "%s",
					 ibv_get_device_name(list[i]));
				d->qports[d->nqports].port = p;
				d->qports[d->nqports].active = rdiag_mtu_bytes(pa.active_mtu);
				d->qports[d->nqports].max = rdiag_mtu_bytes(pa.max_mtu);
				d->nqports++;
			}
		ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
}

int rd_doc_query_port(struct rdiag_doctor *d, const char *dev, uint32_t port,
		      unsigned int *active_mtu, unsigned int *max_mtu)
{
	size_t i;

	if (!d->ports_queried)
		query_all_ports(d);
	for (i = 0; i < d->nqports; i++)
		if (!strcmp(d->qports[i].dev, dev) && d->qports[i].port == port) {
			*active_mtu = d->qports[i].active;
			*max_mtu = d->qports[i].max;
			return 0;
		}
	return -ENODEV;
}

static bool is_roce(const struct rdiag_port *p)
{
	return strcmp(p->link_layer, "Ethernet") == 0;
}

/* InfiniBand (and OPA) ports need a subnet manager; EFA reports "Unspecified" and has none */
static bool is_ib(const struct rdiag_port *p)
{
	return strcmp(p->link_layer, "InfiniBand") == 0;
}

/* a netdev's sysfs file as a number (flags are hex, carrier decimal); -1 when unreadable
 * (carrier cannot be read while the netdev is administratively down) */
static long netdev_attr(const struct rdiag_doctor *d, const char *netdev, const char *attr)
{
	char path[512], buf[32];
	FILE *f;
	long v = -1;

	f = fopen(rd_doc_path(d, path, sizeof(path), "/sys/class/net/%s/%s", netdev, attr), "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 0);
	fclose(f);
	return v;
}

/* the netdev is administratively up but has no carrier: the port polls for a link partner
 * (physical state POLLING on rxe and mlx5) and nothing on this host can bring it up */
static bool up_without_carrier(const struct rdiag_doctor *d, const struct rdiag_port *p,
			       long *flags, long *carrier)
{
	if (!p->netdev[0])
		return false;
	*flags = netdev_attr(d, p->netdev, "flags");
	*carrier = netdev_attr(d, p->netdev, "carrier");
	if (*flags >= 0 && !(*flags & IFF_UP))
		return false;
	return p->phys_state == 2 || (*flags >= 0 && *carrier == 0);
}

static void check_state(struct rdiag_doctor *d, const char *subj, const struct rdiag_port *p)
{
	long flags, carrier;
	struct rdiag_doc_finding *f;
	bool active = p->state == RDIAG_PORT_ACTIVE;
	bool linkup = p->phys_state == 5 || p->phys_state == 0;

	if (active && linkup) {
		f = rd_doc_add(d, "port", "link", RDIAG_DOC_OK, NULL, subj, "port %s is ACTIVE", subj);
	} else if (is_ib(p) && p->state == RDIAG_PORT_INIT && linkup) {
		f = rd_doc_add(d, "port", "link", RDIAG_DOC_PROBLEM, "ib_no_sm", subj,
			       "port %s is stuck in INIT with the link up: no subnet manager configured it",
			       subj);
		rd_doc_hint(f, "start a subnet manager (opensm) on the fabric or check the switch's SM");
	} else {
		f = rd_doc_add(d, "port", "link", RDIAG_DOC_PROBLEM, "port_not_active", subj,
			       "port %s is %s (physical state %s): nothing can be sent through it",
			       subj, rd_doc_name(rdiag_port_state_name(p->state)),
			       rd_doc_name(rdiag_port_phys_state_name(p->phys_state)));
		if (is_roce(p) && up_without_carrier(d, p, &flags, &carrier)) {
			rd_doc_hint(f, "the link partner, cable or switch port is down: %s is up "
				    "but has no carrier; check the cable, the peer's port and the "
				    "switch port (ip link show %s says NO-CARRIER)", p->netdev,
				    p->netdev);
			rd_doc_evidence(f, "netdev %s is administratively up (flags 0x%lx) with %s",
					p->netdev, flags < 0 ? 0 : flags,
					carrier == 0 ? "carrier 0" : "the port polling for a link");
		} else if (is_roce(p))
			rd_doc_hint(f, "bring the netdev %s up and check its carrier: ip link set %s up; ip link show %s",
				    p->netdev[0] ? p->netdev : "(none)", p->netdev[0] ? p->netdev : "DEV",
				    p->netdev[0] ? p->netdev : "DEV");
		else
			rd_doc_hint(f, "check the cable and the switch port (ibstat, ibportstate)");
	}
	rd_doc_evidence(f, "state %u %s, phys_state %u %s, link_layer %s%s%s", p->state,
			rd_doc_name(rdiag_port_state_name(p->state)), p->phys_state,
			rd_doc_name(rdiag_port_phys_state_name(p->phys_state)), p->link_layer,
			p->netdev[0] ? ", netdev " : "", p->netdev);
	if (is_ib(p)) {
		rd_doc_evidence(f, "lid %u, sm_lid %u", p->lid, p->sm_lid);
		if (active && p->sm_lid == 0) {
			f->level = RDIAG_DOC_PROBLEM;
			f->cause = "ib_no_sm";
			snprintf(f->summary, sizeof(f->summary),
				 "port %s is ACTIVE but has no SM LID: path queries will fail", subj);
			rd_doc_hint(f, "start a subnet manager (opensm) and check 'sm_lid'");
		}
	}
}

static void check_netns(struct rdiag_doctor *d, const char *subj, const struct rdiag_port *p)
{
	struct rdiag_doc_finding *f;

	if (!is_roce(p))
		return;
	if (!p->netdev[0]) {
		f = rd_doc_add(d, "netns", "address", RDIAG_DOC_WARN, "netdev_other_netns", subj,
			       "no netdev is bound to %s as seen from this network namespace", subj);
		rd_doc_evidence(f, "no GID entry of %s names a netdev", subj);
		rd_doc_hint(f, "check 'rdma link show' and the namespace mode ('rdma system show')");
		return;
	}
	if (p->ifindex > 0 || if_nametoindex(p->netdev) > 0) {
		f = rd_doc_add(d, "netns", "address", RDIAG_DOC_OK, NULL, subj,
			       "netdev %s of %s is in this network namespace", p->netdev, subj);
		rd_doc_evidence(f, "%s ifindex %d", p->netdev, p->ifindex > 0 ? p->ifindex :
				(int)if_nametoindex(p->netdev));
		return;
	}
	f = rd_doc_add(d, "netns", "address", RDIAG_DOC_PROBLEM, "netdev_other_netns", subj,
		       "netdev %s of %s is not in this network namespace: rdma_cm will answer ENODEV",
		       p->netdev, subj);
	rd_doc_evidence(f, "the GID table names netdev %s, but no interface of that name exists here", p->netdev);
	rd_doc_hint(f, "run in the namespace that owns %s, or move the netdev and the RDMA device ('rdma dev set DEV netns NS' in exclusive mode)", p->netdev);
}

static bool gid_is_ll(const struct rdiag_gid *g)
{
	return g->raw[0] == 0xfe && (g->raw[1] & 0xc0) == 0x80;
}

static void gid_ip_of(const union rd_addr *a, char *buf, size_t len)
{
	rd_addr_str(a, buf, len);
}

/* the first RoCE v2 and the first RoCE v1 GID of the port carrying this IP address */
static void gids_of_ip(const struct rdiag_port *p, const char *ip, const struct rdiag_gid **v2,
		       const struct rdiag_gid **v1)
{
	size_t i;

	*v2 = *v1 = NULL;
	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		if (!g->ip[0] || strcmp(g->ip, ip))
			continue;
		if (g->type == RDIAG_GID_ROCE_V2 && !*v2)
			*v2 = g;
		else if (g->type == RDIAG_GID_IB_ROCE_V1 && !*v1)
			*v1 = g;
	}
}

/* without a source address (rdmadoctor local): every IPv4 address of the port's netdev
 * needs its IPv4-mapped RoCE v2 GID, or rdma_cm cannot use it as a source; at most 8
 * warnings per port */
static void check_ipv4_gids(struct rdiag_doctor *d, const char *subj, const struct rdiag_port *p)
{
	struct ifaddrs *ifa, *i;
	unsigned int n = 0;

	/* a port that is not ACTIVE is a problem of its own, and the kernel drops the GIDs of
	 * a netdev that goes down while its IPv4 addresses stay */
	if (!p->netdev[0] || (p->state && p->state != RDIAG_PORT_ACTIVE) || getifaddrs(&ifa))
		return;
	for (i = ifa; i && n < 8; i = i->ifa_next) {
		char ip[INET_ADDRSTRLEN];
		struct rdiag_doc_finding *f;
		const struct rdiag_gid *v2, *v1;

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || strcmp(i->ifa_name, p->netdev) ||
		    !inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, ip,
			       sizeof(ip)))
			continue;
		gids_of_ip(p, ip, &v2, &v1);
		if (v2)
			continue;
		n++;
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_WARN, "gid_ipv4_missing", subj,
			       "IPv4 address %s of %s has no RoCE v2 GID on %s (::ffff:%s%s): rdma_cm cannot use it as a source",
			       ip, p->netdev, subj, ip, v1 ? ", only RoCE v1" : " is missing");
		rd_doc_evidence(f, "getifaddrs: %s inet %s; GIDs of %s carrying it: %s", p->netdev, ip,
				subj, v1 ? "RoCE v1 only" : "none");
		rd_doc_hint(f, "the kernel adds the GID with the address: re-add it (ip addr del/add on %s), check that the GID table is not full ('rdmastat gids'), and that the default RoCE mode is v2",
			    p->netdev);
	}
	freeifaddrs(ifa);
}

static void check_gids(struct rdiag_doctor *d, const char *subj, const struct rdiag_port *p,
		       const union rd_addr *src)
{
	struct rdiag_doc_finding *f;
	const struct rdiag_gid *v2 = NULL, *v1 = NULL;
	size_t i, n_v2_routable = 0, n_ll = 0, n_v4 = 0, n_v1_ip = 0;
	char ip[64] = "";

	if (!is_roce(p))
		return;
	if (src)
		gid_ip_of(src, ip, sizeof(ip));
	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		if (gid_is_ll(g))
			n_ll++;
		if (g->ipv4)
			n_v4++;
		if (g->type == RDIAG_GID_ROCE_V2 && g->routable)
			n_v2_routable++;
		if (g->type == RDIAG_GID_IB_ROCE_V1 && g->ip[0] && !gid_is_ll(g))
			n_v1_ip++;
	}
	if (src)
		gids_of_ip(p, ip, &v2, &v1);
	if (src && v2) {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_OK, NULL, subj,
			       "RoCE v2 GID index %u of %s carries the source %s", v2->index, subj, ip);
		d->egress_gid_type = RDIAG_GID_ROCE_V2;
	} else if (src && v1) {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_WARN, "gid_roce_v1_only", subj,
			       "the source %s has only a RoCE v1 GID (index %u) on %s: v1 is not routable and a v2 peer will not talk to it",
			       ip, v1->index, subj);
		rd_doc_hint(f, "set the default RoCE mode to v2 (configfs rdma_cm default_roce_mode) on both ends");
		d->egress_gid_type = RDIAG_GID_IB_ROCE_V1;
	} else if (src) {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_PROBLEM, "no_gid_for_source", subj,
			       "no RoCE v2 GID on %s carries the source address %s%s", subj, ip,
			       src->sa.sa_family == AF_INET ? " (the IPv4-mapped GID ::ffff:" : "");
		if (src->sa.sa_family == AF_INET)
			snprintf(f->summary + strlen(f->summary),
				 sizeof(f->summary) - strlen(f->summary), "%s is missing)", ip);
		rd_doc_hint(f, "configure %s on %s (the GID appears when the address is added) or use a source address that has a GID ('rdmastat gids')",
			    ip, p->netdev[0] ? p->netdev : "the RDMA netdev");
	} else if (n_v2_routable == 0 && n_v1_ip) {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_WARN, "gid_roce_v1_only", subj,
			       "%s has only RoCE v1 GIDs for its IP addresses: v1 is not routable and a v2 peer will not talk to it",
			       subj);
		rd_doc_hint(f, "set the default RoCE mode to v2 (configfs rdma_cm default_roce_mode) on both ends");
	} else if (n_v2_routable == 0) {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_WARN,
			       n_ll ? "gid_link_local_only" : "no_gid_for_source", subj,
			       "%s has no routable RoCE v2 GID%s: only peers on the same link can be reached, and only with a link-local GID",
			       subj, n_ll ? " (link-local fe80:: only)" : "");
		rd_doc_hint(f, "add an IP address to %s", p->netdev[0] ? p->netdev : "the netdev");
	} else {
		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_OK, NULL, subj,
			       "%s has %zu routable RoCE v2 GID(s)", subj, n_v2_routable);
	}
	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		rd_doc_evidence(f, "gid %u %s %s %s%s%s", g->index, g->gid,
				rdiag_gid_type_name(g->type), g->ndev[0] ? g->ndev : "-",
				g->ip[0] ? " ip " : "", g->ip);
	}
	if (!p->n_gids)
		rd_doc_evidence(f, "the GID table of %s is empty", subj);
	if (src && !v2 && src->sa.sa_family == AF_INET && n_v4 == 0)
		rd_doc_evidence(f, "no IPv4-mapped GID at all on %s", subj);
	if (!src)
		check_ipv4_gids(d, subj, p);
}

void rd_doc_mtu_finding(struct rdiag_doctor *d, const char *subj, const char *ndev,
			unsigned int mtu, int qret, unsigned int act, unsigned int max,
			const char *why)
{
	struct rdiag_doc_finding *f;
	unsigned int want = rdiag_roce_path_mtu(mtu);
	char port[320];

	if (want == 0) {
		/* whatever the port says: not even a 256-byte IB MTU fits the netdev */
		f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_PROBLEM, "mtu_too_small", subj,
			       "netdev %s MTU %u is too small for RoCE (needs at least 352)", ndev, mtu);
		rd_doc_hint(f, "ip link set %s mtu 1500", ndev);
	} else if (qret) {
		f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_INFO, NULL, subj,
			       "netdev %s MTU %u allows a RoCE path MTU of %u; the port's active MTU is unknown",
			       ndev, mtu, want);
	} else if (act != want && act < max) {
		/* the port's active MTU is not what the netdev allows (and not because the port
		 * cannot do more): the two ends may disagree on the path MTU */
		f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_WARN, "mtu_mismatch", subj,
			       "active MTU %u of %s differs from the RoCE path MTU %u that netdev %s (MTU %u) allows",
			       act, subj, want, ndev, mtu);
		rd_doc_hint(f, "keep the netdev MTU and the port MTU consistent on both ends");
	} else {
		f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_OK, NULL, subj,
			       "netdev %s MTU %u -> RoCE path MTU %u, active MTU %u", ndev, mtu, want,
			       act);
	}
	if (qret) {
		snprintf(port, sizeof(port), "port active MTU unknown (%.256s)",
			 why && *why ? why : strerror(-qret));
	} else {
		d->egress_active_mtu = act;
		snprintf(port, sizeof(port), "port active_mtu %u, max_mtu %u", act, max);
	}
	rd_doc_evidence(f, "netdev %s mtu %u; %u - 96 = %u -> largest IB MTU that fits %u; %s",
			ndev, mtu, mtu, mtu > 96 ? mtu - 96 : 0, want, port);
}

static void check_mtu(struct rdiag_doctor *d, const char *subj, const char *devname,
		      const struct rdiag_port *p)
{
	unsigned int act = 0, max = 0;
	char why[256] = "";
	int ret;

	if (!is_roce(p) || !p->mtu)
		return;
	ret = rd_doc_query_port(d, devname, p->port, &act, &max);
	if (ret && !rd_ibv_load(why, sizeof(why)))
		snprintf(why, sizeof(why), "ibv_query_port(%s, %u): %s", devname, p->port,
			 strerror(-ret));
	rd_doc_mtu_finding(d, subj, p->netdev, p->mtu, ret, act, max, why);
}

static void check_roce_mode(struct rdiag_doctor *d, const char *subj, const char *devname,
			    const struct rdiag_port *p)
{
	struct rdiag_doc_finding *f;
	char path[512], mode[64] = "";
	FILE *fp;

	if (!is_roce(p))
		return;
	rd_doc_path(d, path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
		    devname, p->port);
	fp = fopen(path, "re");
	if (!fp) {
		/* the configfs group exists only after someone created it (mkdir): creating it
		 * here would change the system, so the mode is reported as unknown */
		f = rd_doc_add(d, "roce_mode", "address", RDIAG_DOC_INFO, NULL, subj,
			       "default RoCE mode of %s not readable (%s)", subj, strerror(errno));
		rd_doc_evidence(f, "%s: %s", path, strerror(errno));
		rd_doc_hint(f, "to inspect: mount -t configfs none /sys/kernel/config; mkdir /sys/kernel/config/rdma_cm/%s",
			    devname);
		return;
	}
	if (!fgets(mode, sizeof(mode), fp))
		mode[0] = 0;
	fclose(fp);
	mode[strcspn(mode, "\n")] = 0;
	if (strstr(mode, "v2")) {
		f = rd_doc_add(d, "roce_mode", "address", RDIAG_DOC_OK, NULL, subj,
			       "default RoCE mode of %s is %s", subj, mode);
	} else {
		f = rd_doc_add(d, "roce_mode", "address", RDIAG_DOC_WARN, "gid_roce_v1_only", subj,
			       "default RoCE mode of %s is '%s': rdma_cm uses RoCE v1, which a v2-only peer does not accept",
			       subj, mode);
		rd_doc_hint(f, "echo 'RoCE v2' > %s (the same on both ends)", path);
	}
	rd_doc_evidence(f, "%s: %s", path, mode);
}

void rd_doc_check_port(struct rdiag_doctor *d, const struct rdiag_device *dev,
		       const struct rdiag_port *p, const union rd_addr *src)
{
	char subj[80];

	snprintf(subj, sizeof(subj), "%s/%u", dev->name, p->port);
	check_state(d, subj, p);
	check_netns(d, subj, p);
	check_gids(d, subj, p, src);
	check_roce_mode(d, subj, dev->name, p);
	check_mtu(d, subj, dev->name, p);
	rd_doc_check_fabric(d, subj, dev->name, p);
}
