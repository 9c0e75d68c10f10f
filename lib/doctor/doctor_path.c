/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Checks that depend on the destination: the route (RTM_GETROUTE, bound to the source's
 * netdev like rdma_cm's own lookup), the RDMA port behind the egress netdev, the GID for the
 * source address, the next hop's neighbour entry (RTM_GETNEIGH). */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include "internal.h"

#include "rdmadiag/cmstr.h"

static const char *rtn_name(int type)
{
	static const char *const n[] = {
		[RTN_UNSPEC] = "unspec", [RTN_UNICAST] = "unicast", [RTN_LOCAL] = "local",
		[RTN_BROADCAST] = "broadcast", [RTN_ANYCAST] = "anycast",
		[RTN_MULTICAST] = "multicast", [RTN_BLACKHOLE] = "blackhole",
		[RTN_UNREACHABLE] = "unreachable", [RTN_PROHIBIT] = "prohibit",
		[RTN_THROW] = "throw", [RTN_NAT] = "nat",
	};

	return type >= 0 && type < (int)(sizeof(n) / sizeof(n[0])) && n[type] ? n[type] : "?";
}

/* the port whose netdev is ndev: the port's own netdev or any GID entry naming it */
static bool find_port(const struct rdiag_devices *devs, const char *ndev,
		      const struct rdiag_device **dev, const struct rdiag_port **port)
{
	size_t i, j, k;

	for (i = 0; devs && i < devs->n; i++)
		for (j = 0; j < devs->dev[i].n_ports; j++) {
			const struct rdiag_port *p = &devs->dev[i].ports[j];
			bool hit = strcmp(p->netdev, ndev) == 0;

			for (k = 0; !hit && k < p->n_gids; k++)
				hit = strcmp(p->gids[k].ndev, ndev) == 0;
			if (hit) {
				*dev = &devs->dev[i];
				*port = p;
				return true;
			}
		}
	return false;
}

static void not_rdma(struct rdiag_doctor *d, const char *ndev, const char *dst)
{
	struct rdiag_doc_finding *f;

	f = rd_doc_add(d, "port", "link", RDIAG_DOC_PROBLEM, "not_rdma_netdev", ndev,
		       "the netdev %s has no RDMA device: rdma_cm answers ENODEV", ndev);
	rd_doc_evidence(f, "no GID table entry and no rxe parent names %s", ndev);
	rd_doc_hint(f, "route %s through the RDMA netdev, or create one (rdma link add rxe0 type rxe netdev %s)",
		    dst, ndev);
}

/* the neighbour of the next hop; "after" marks the re-check after a failed attempt */
void rd_doc_check_neigh(struct rdiag_doctor *d, const union rd_addr *hop, int ifindex,
			const char *ifname, bool after)
{
	struct rdiag_doc_finding *f;
	struct rd_neigh n;
	char a[64], st[64], ll[64] = "";
	unsigned int i;
	size_t off;
	int ret;

	rd_addr_str(hop, a, sizeof(a));
	ret = rd_rtnl_neigh_get(d, hop, ifindex, &n);
	if (ret == -ENOENT) {
		f = rd_doc_add(d, "neighbour", "network", after ? RDIAG_DOC_WARN : RDIAG_DOC_INFO,
			       "neighbour_unresolved", a,
			       "no neighbour entry for next hop %s on %s%s", a, ifname,
			       after ? " after the attempt" : " yet (it is resolved by the first attempt)");
		rd_doc_evidence(f, "RTM_GETNEIGH %s dev %s: no entry", a, ifname);
		if (after)
			rd_doc_hint(f, "check that %s is up and on the same L2 segment as %s (VLAN, cabling) and that the route's next hop is right ('ip route get %s', 'ip neigh show dev %s')",
				    a, ifname, a, ifname);
		return;
	}
	if (ret) {
		f = rd_doc_add(d, "neighbour", "network", RDIAG_DOC_INFO, NULL, a,
			       "neighbour of %s on %s could not be read", a, ifname);
		rd_doc_evidence(f, "RTM_GETNEIGH: %s", strerror(-ret));
		return;
	}
	rd_nud_state_name(n.state, st, sizeof(st));
	for (i = 0, off = 0; n.has_lladdr && i < n.lladdr_len && i < 16; i++)
		off += (size_t)snprintf(ll + off, sizeof(ll) - off, "%s%02x", i ? ":" : "", n.lladdr[i]);
	if (n.state & (NUD_FAILED | NUD_INCOMPLETE)) {
		f = rd_doc_add(d, "neighbour", "network", RDIAG_DOC_PROBLEM, "neighbour_unresolved", a,
			       "next hop %s does not answer ARP/ND on %s (neighbour %s)", a, ifname, st);
		rd_doc_hint(f, "check that %s is up and on the same L2 segment as %s (VLAN, cabling, its firewall for ARP); 'ip neigh show %s'",
			    a, ifname, a);
	} else if (n.state & NUD_PERMANENT) {
		/* nothing wrong in itself, but nothing checks it either: a stale or mistyped
		 * static entry sends every packet to another host (rd_doc_static_neigh) */
		f = rd_doc_add(d, "neighbour", "network", RDIAG_DOC_INFO, NULL, a,
			       "next hop %s has a static neighbour entry on %s (PERMANENT%s%s)", a,
			       ifname, ll[0] ? ", lladdr " : "", ll);
		rd_doc_hint(f, "check that %s is the MAC of %s's interface ('ip neigh show %s'); "
			    "'ip neigh del %s dev %s' lets ARP/ND resolve it", ll[0] ? ll : "its lladdr",
			    a, a, a, ifname);
	} else {
		f = rd_doc_add(d, "neighbour", "network", RDIAG_DOC_OK, NULL, a,
			       "next hop %s is %s on %s", a, st, ifname);
	}
	rd_doc_evidence(f, "%s%s dev %s %s%s%s", after ? "after the attempt: " : "", a, ifname,
			ll[0] ? "lladdr " : "", ll, ll[0] ? " " : "");
	snprintf(f->evidence + strlen(f->evidence), sizeof(f->evidence) - strlen(f->evidence),
		 "%s", st);
}

int rdiag_doctor_check_path(struct rdiag_doctor *d, const struct rdiag_doc_opts *o)
{
	const struct rdiag_devices *devs = NULL;
	const struct rdiag_device *dev = NULL;
	const struct rdiag_port *port = NULL;
	struct rdiag_doc_finding *f;
	union rd_addr dst, src, hop;
	struct rd_route r;
	char ds[64], ss[64] = "", srcif[IF_NAMESIZE + 1] = "", gw[64] = "", ps[64] = "";
	struct rd_route r2;
	bool have_src = false, src_local = false, port_checked = false, route_ok = false;
	int oif = 0, ret, unbound = 0;

	if (!o || !o->dst || rd_addr_parse(o->dst, &dst)) {
		rd_doc_err(d, "cannot parse destination '%s'", o && o->dst ? o->dst : "");
		return -EINVAL;
	}
	rd_addr_str(&dst, ds, sizeof(ds));
	if (o->src) {
		if (rd_addr_parse(o->src, &src)) {
			rd_doc_err(d, "cannot parse source '%s'", o->src);
			return -EINVAL;
		}
		have_src = true;
		rd_addr_str(&src, ss, sizeof(ss));
		ret = rd_addr_owner(&src, srcif, sizeof(srcif));
		if (ret > 0) {
			oif = ret;
			src_local = true;
		}
	}
	rd_doc_devices(d, NULL, &devs);

	if (have_src && !src_local) {
		size_t i, j, k;
		bool in_gid = false;

		f = rd_doc_add(d, "gid", "address", RDIAG_DOC_PROBLEM, "no_gid_for_source", ss,
			       "the source %s is not configured on any interface, so no RoCE v2 GID carries it", ss);
		for (i = 0; devs && i < devs->n; i++)
			for (j = 0; j < devs->dev[i].n_ports; j++)
				for (k = 0; k < devs->dev[i].ports[j].n_gids; k++)
					if (strcmp(devs->dev[i].ports[j].gids[k].ip, ss) == 0)
						in_gid = true;
		rd_doc_evidence(f, "no interface has %s ('ip addr'); GID tables %s it", ss,
				in_gid ? "still list" : "do not list");
		rd_doc_hint(f, "add %s to the RDMA netdev (ip addr add %s/PREFIX dev NETDEV) or pass a --src that exists", ss, ss);
	}

	/* the source binds the RDMA device: check its port first, whatever the route says */
	if (src_local) {
		if (find_port(devs, srcif, &dev, &port))
			port_checked = true;
		else
			not_rdma(d, srcif, ds);
	}

	/* rdma_cm binds to the source's netdev and routes with that oif (addr4_resolve), so
	 * the lookup here does the same; without a source it is a plain lookup */
	ret = rd_rtnl_route_get(d, &dst, src_local ? &src : NULL, oif, &r);
	if (!ret && oif)
		unbound = rd_rtnl_route_get(d, &dst, &src, 0, &r2);
	if (ret) {
		f = rd_doc_add(d, "route", "network", RDIAG_DOC_PROBLEM, "no_route", ds,
			       "no route to %s: the kernel answers %s", ds, strerror(-ret));
		rd_doc_evidence(f, "RTM_GETROUTE %s%s%s%s%s: %d %s", ds, have_src ? " from " : "", ss,
				oif ? " oif " : "", srcif, ret, rdiag_errno_name(ret));
		rd_doc_hint(f, "add a route to %s via the RDMA netdev ('ip route get %s')", ds, ds);
		goto port;
	}
	if (r.has_gateway)
		rd_addr_str(&r.gateway, gw, sizeof(gw));
	if (r.has_prefsrc)
		rd_addr_str(&r.prefsrc, ps, sizeof(ps));
	if (r.type != RTN_UNICAST && r.type != RTN_LOCAL) {
		f = rd_doc_add(d, "route", "network", RDIAG_DOC_PROBLEM, "no_route", ds,
			       "the route to %s is of type %s: packets are not forwarded", ds,
			       rtn_name(r.type));
		rd_doc_evidence(f, "%s %s table %u", rtn_name(r.type), ds, r.table);
		if (r.type == RTN_BROADCAST || r.type == RTN_MULTICAST || r.type == RTN_ANYCAST)
			rd_doc_hint(f, "%s is a %s address: rdma_cm connects to one unicast address, use the peer's own address",
				    ds, rtn_name(r.type));
		else
			rd_doc_hint(f, "remove or replace the %s route that covers %s ('ip route get %s'; 'ip route show table all type %s')",
				    rtn_name(r.type), ds, ds, rtn_name(r.type));
		goto port;
	}
	if (r.type == RTN_LOCAL) {
		f = rd_doc_add(d, "route", "network", RDIAG_DOC_INFO, NULL, ds,
			       "%s is a local address: without --src rdma_cm uses the RDMA device that owns it and loops the traffic inside it",
			       ds);
		rd_doc_evidence(f, "local %s dev %s table %u", ds, r.oifname, r.table);
		goto port;
	}
	if (oif && (unbound == -ENETUNREACH || unbound == -EHOSTUNREACH || unbound == -EINVAL ||
		    (!unbound && r2.type != RTN_UNICAST && r2.type != RTN_LOCAL))) {
		/* bound to a netdev, the kernel assumes an unrouted destination is on-link and
		 * ARPs for it there: the symptom is an ADDR_ERROR timeout, the cause the route */
		f = rd_doc_add(d, "route", "network", RDIAG_DOC_PROBLEM, "no_route", ds,
			       "no route to %s in the routing table; bound to %s the kernel assumes it is on-link and ARPs for it there",
			       ds, srcif);
		rd_doc_evidence(f, "RTM_GETROUTE %s from %s: %s", ds, ss, unbound ?
				rdiag_errno_name(unbound) : rtn_name(r2.type));
		rd_doc_evidence(f, "RTM_GETROUTE %s from %s oif %s -> %s dev %s (on-link assumption)",
				ds, ss, srcif, rtn_name(r.type), r.oifname);
		rd_doc_hint(f, "add a route to %s via the RDMA netdev, or connect to an address on a connected subnet ('ip route get %s')",
			    ds, ds);
	} else {
		f = rd_doc_add(d, "route", "network", RDIAG_DOC_OK, NULL, ds, "%s via %s%s%s%s%s",
			       ds, r.oifname, gw[0] ? " gateway " : "", gw, ps[0] ? " source " : "",
			       ps);
		rd_doc_evidence(f, "RTM_GETROUTE %s%s%s%s%s -> %s %s%s%s dev %s%s%s table %u", ds,
				have_src ? " from " : "", ss, oif ? " oif " : "", srcif,
				rtn_name(r.type), ds, gw[0] ? " via " : "", gw, r.oifname,
				ps[0] ? " src " : "", ps, r.table);
	}
	snprintf(d->egress_ndev, sizeof(d->egress_ndev), "%s", r.oifname);
	if (!port_checked) {
		if (find_port(devs, r.oifname, &dev, &port)) {
			port_checked = true;
			if (!have_src && r.has_prefsrc) {
				src = r.prefsrc;
				have_src = true;
				src_local = true;
			}
		} else {
			not_rdma(d, r.oifname, ds);
		}
	}
	route_ok = true;
port:
	if (port_checked) {
		snprintf(d->egress_dev, sizeof(d->egress_dev), "%s", dev->name);
		d->egress_port = port->port;
		d->egress_mtu = port->mtu;
		if (!d->egress_ndev[0])
			snprintf(d->egress_ndev, sizeof(d->egress_ndev), "%s", port->netdev);
		rd_doc_check_port(d, dev, port, src_local ? &src : NULL);
	}
	if (!route_ok)
		goto out;

	hop = r.has_gateway ? r.gateway : dst;
	d->hop = hop;
	d->have_hop = true;
	d->hop_ifindex = r.oif;
	rd_doc_check_neigh(d, &hop, r.oif, r.oifname, false);
out:
	rd_doc_firewall_egress(d);
	return 0;
}

const char *rd_doc_static_neigh(const struct rdiag_doctor *d)
{
	size_t i;

	for (i = 0; i < rdiag_doctor_nfindings(d); i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		if (!strcmp(f->check, "neighbour") && strstr(f->summary, "static neighbour entry"))
			return f->evidence;
	}
	return NULL;
}
