/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Both ends of one connection.  A listener serves its host's description (lib/describe:
 * local -j's host object, and the port space it listens in) on a TCP side
 * channel, same address and port number as its rdma_cm id: one line of JSON, from a thread
 * of its own that serves many clients at once (doctor_side.c).  The
 * client fetches it (bounded size, one deadline for connect and read) and compares the port
 * it uses towards the peer with the peer's port that carries the destination address: the
 * rows of a side-by-side table, and a "peer" finding for each difference that breaks or
 * degrades RDMA, with its cause id and fix.  The client's request line says what it wants:
 * "describe", or "counters" (the host's counters, doctor_peer_counters.c), which connect
 * takes before the attempt and again after a data-path failure. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/tcp.h>

#include "internal.h"
#include "util/util.h"
#include "rdmadiag/packet.h"

static int query_port(void *arg, const char *dev, uint32_t port, unsigned int *active_mtu,
		      unsigned int *max_mtu)
{
	return rd_doc_query_port(arg, dev, port, active_mtu, max_mtu);
}

int rd_doc_desc_local(struct rdiag_doctor *d, struct rd_desc *h)
{
	struct rd_desc_src src = { .root = d->root, .query_port = query_port, .arg = d };
	struct rdiag_counters *c = NULL;

	/* a host whose devices cannot be listed is described without ports */
	if (!rd_doc_devices(d, &c, NULL))
		src.cnt = c;
	return rd_desc_local(&src, h);
}

void rd_doc_listening(const struct rdiag_doctor *d, struct rd_desc *h)
{
	const char *n = rdiag_port_space_name((unsigned int)d->listen_ps);

	h->listen_port = d->listen_port;
	snprintf(h->listen_ps, sizeof(h->listen_ps), "%s", n ? n : "");
}

int rdiag_doctor_describe(struct rdiag_doctor *d, char **json)
{
	struct rd_desc *h = malloc(sizeof(*h));
	size_t len;
	int ret;

	if (!h)
		return -ENOMEM;
	ret = rd_doc_desc_local(d, h);
	if (!ret) {
		rd_doc_listening(d, h);
		ret = rd_desc_line(h, json, &len);
	}
	if (ret)
		rd_doc_err(d, "cannot describe this host: %s", strerror(-ret));
	free(h);
	return ret;
}

int rdiag_doctor_host_json(struct rdiag_doctor *d, char **json)
{
	struct rd_desc *h = malloc(sizeof(*h));
	size_t len;
	int ret;

	if (!h)
		return -ENOMEM;
	ret = rd_doc_desc_local(d, h);
	if (!ret)
		ret = rd_desc_json(h, json, &len);
	if (ret)
		rd_doc_err(d, "cannot describe this host: %s", strerror(-ret));
	free(h);
	return ret;
}

const char *rdiag_doctor_side_channel(const struct rdiag_doctor *d)
{
	return d->side_channel;
}

size_t rdiag_doctor_nsides(const struct rdiag_doctor *d)
{
	return d->nsides;
}

const struct rdiag_doc_side *rdiag_doctor_side(const struct rdiag_doctor *d, size_t i)
{
	return i < d->nsides ? &d->sides[i] : NULL;
}

/* ---- the client's end ---- */

/* connect to dst:port, send the request line req, read the one line of the answer (what:
 * "description", "counters"), within timeout_ms; *text malloc'd */
static int fetch(struct rdiag_doctor *d, const union rd_addr *dst, uint16_t port, int timeout_ms,
		 const char *req, const char *what, char **text, size_t *len)
{
	union rd_addr a = *dst;
	socklen_t alen = a.sa.sa_family == AF_INET ? sizeof(a.in) : sizeof(a.in6);
	double end = rd_mono_ms() + timeout_ms;
	char ip[64], *buf = NULL;
	size_t n = 0;
	int fd, ret = 0, err = 0;
	socklen_t elen = sizeof(err);

	rd_addr_str(dst, ip, sizeof(ip));
	if (a.sa.sa_family == AF_INET)
		a.in.sin_port = htons(port);
	else
		a.in6.sin6_port = htons(port);
	fd = socket(a.sa.sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		rd_doc_err(d, "socket: %s", strerror(-ret));
		return ret;
	}
	if (connect(fd, &a.sa, alen) && errno != EINPROGRESS) {
		ret = -errno;
		goto fail;
	}
	buf = malloc(RD_DESC_MAX + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto fail;
	}
	for (bool connected = false;;) {
		/* POLLOUT until connected, then only POLLIN (POLLOUT stays set: a spin) */
		struct pollfd p = { .fd = fd, .events = connected ? POLLIN : POLLOUT };
		int left = (int)(end - rd_mono_ms()), k;
		ssize_t r;

		if (left <= 0) {
			ret = -ETIMEDOUT;
			goto fail;
		}
		k = poll(&p, 1, left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			ret = k < 0 ? -errno : -ETIMEDOUT;
			goto fail;
		}
		/* the connect's outcome; once connected, read() says what went wrong (an
		 * error pending now may follow the data already queued) */
		if (!connected && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) == 0 && err) {
			ret = -err;
			goto fail;
		}
		if (!(p.revents & (POLLIN | POLLHUP))) {
			/* one short line into an empty send buffer: sent whole or the answer
			 * says so */
			if (!connected)
				(void)!send(fd, req, strlen(req), MSG_NOSIGNAL | MSG_DONTWAIT);
			connected = true;
			continue;
		}
		r = read(fd, buf + n, RD_DESC_MAX + 1 - n);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		/* a listener older than the request line closes without reading it: the reset
		 * that follows its answer ends it */
		if (r < 0 && errno == ECONNRESET && n)
			break;
		if (r < 0) {
			ret = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > RD_DESC_MAX) {
			ret = -EMSGSIZE;
			rd_doc_err(d, "the %s from tcp %s:%u is larger than %d bytes", what, ip,
				   port, RD_DESC_MAX);
			goto out;
		}
	}
	close(fd);
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
fail:
	if (ret == -ECONNREFUSED)
		rd_doc_err(d, "no side channel at tcp %s:%u (connection refused: the peer is not 'rdmadoctor listen', or an older one)",
			   ip, port);
	else if (ret == -ETIMEDOUT)
		rd_doc_err(d, "no %s from tcp %s:%u within %d ms", what, ip, port, timeout_ms);
	else
		rd_doc_err(d, "cannot fetch the %s from tcp %s:%u: %s", what, ip, port,
			   strerror(-ret));
out:
	close(fd);
	free(buf);
	return ret;
}

/* this end's source address towards dst: --src, else the route's preferred source */
static int local_addr(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
		      const union rd_addr *dst, char *ip, size_t len)
{
	union rd_addr src;
	struct rd_route r;

	if (o->src) {
		if (rd_addr_parse(o->src, &src))
			return -EINVAL;
		rd_addr_str(&src, ip, len);
		return 0;
	}
	if (rd_rtnl_route_get(d, dst, NULL, 0, &r) || !r.has_prefsrc)
		return -EADDRNOTAVAIL;
	rd_addr_str(&r.prefsrc, ip, len);
	return 0;
}

static struct rdiag_doc_side *row(struct rdiag_doctor *d, const char *what)
{
	struct rdiag_doc_side *s;

	if (d->nsides >= sizeof(d->sides) / sizeof(d->sides[0]))
		return NULL;
	s = &d->sides[d->nsides++];
	memset(s, 0, sizeof(*s));
	s->what = what;
	return s;
}

static struct rdiag_doc_side *row2(struct rdiag_doctor *d, const char *what, const char *here,
				   const char *peer)
{
	struct rdiag_doc_side *s = row(d, what);

	if (s) {
		snprintf(s->here, sizeof(s->here), "%s", here);
		snprintf(s->peer, sizeof(s->peer), "%s", peer);
		/* what one end does not know is no difference */
		s->differs = here[0] && peer[0] && strcmp(here, "unknown") && strcmp(peer, "unknown") &&
			     strcmp(here, peer) != 0;
	}
	return s;
}

static void u2s(char *buf, size_t len, unsigned int v)
{
	if (v)
		snprintf(buf, len, "%u", v);
	else
		snprintf(buf, len, "unknown");
}

static const char *gid_type(const struct rd_desc_port *p, const struct rd_desc_addr *a)
{
	if (a && a->gid_v2 >= 0 && !(p->roce_mode[0] && !strstr(p->roce_mode, "v2")))
		return "RoCE v2";
	if (a && a->gid_v1 >= 0)
		return "RoCE v1";
	return a && a->gid_v2 >= 0 ? "RoCE v2" : "none";
}

static int gid_index(const struct rd_desc_port *p, const struct rd_desc_addr *a)
{
	const char *t = gid_type(p, a);

	return !strcmp(t, "RoCE v2") ? a->gid_v2 : !strcmp(t, "RoCE v1") ? a->gid_v1 : -1;
}

/* "26 / 3", "?" for a part that is not known, "unknown" for neither */
static void lossless_str(char *buf, size_t len, int dscp, int prio)
{
	char a[12] = "?", b[12] = "?";

	if (dscp < 0 && prio < 0) {
		snprintf(buf, len, "unknown");
		return;
	}
	if (dscp >= 0)
		snprintf(a, sizeof(a), "%d", dscp);
	if (prio >= 0)
		snprintf(b, sizeof(b), "%d", prio);
	snprintf(buf, len, "%s / %s", a, b);
}

static unsigned int min_nz(unsigned int a, unsigned int b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

void rd_doc_peer_compare(struct rdiag_doctor *d, const struct rd_desc *me, const char *my_ip,
			 const struct rd_desc *peer, const char *peer_ip)
{
	const struct rd_desc_addr *ma = NULL, *pa = NULL;
	const struct rd_desc_port *mp = rd_desc_port_of(me, my_ip, &ma);
	const struct rd_desc_port *pp = rd_desc_port_of(peer, peer_ip, &pa);
	struct rdiag_doc_finding *f;
	struct rdiag_doc_side *s;
	char h[160], p[160], subj[64];
	unsigned int mpath, ppath, both;
	int mtos, ptos, mi, pi;

	snprintf(subj, sizeof(subj), "%s", peer_ip);
	/* a listener with --serve port keeps its hostname and kernel to itself */
	row2(d, "host", me->host, peer->host[0] ? peer->host : "(not served)");
	d->sides[d->nsides - 1].differs = false;
	if (!pp) {
		f = rd_doc_add(d, "peer", "address", RDIAG_DOC_PROBLEM, "peer_addr_not_rdma", subj,
			       "the peer has no RDMA port whose netdev carries %s", peer_ip);
		rd_doc_evidence(f, "the peer's description lists %zu RDMA port(s), none with address %s",
				peer->nports, peer_ip);
		rd_doc_hint(f, "connect to an address of the peer's RDMA netdev (rdma link show on the peer names it)");
		s = row2(d, "address", my_ip, peer_ip);
		if (s) {
			s->differs = true;
			s->cause = "peer_addr_not_rdma";
		}
		return;
	}
	if (!mp) {
		row2(d, "address", my_ip, peer_ip);
		return;	/* this end's own checks say what is wrong here */
	}
	snprintf(h, sizeof(h), "%s/%u (%s)", mp->dev, mp->port, mp->driver);
	snprintf(p, sizeof(p), "%s/%u (%s)", pp->dev, pp->port, pp->driver);
	row2(d, "device", h, p);
	d->sides[d->nsides - 1].differs = false;	/* names may differ freely */
	row2(d, "port state", mp->state, pp->state);
	row2(d, "address", my_ip, peer_ip);
	d->sides[d->nsides - 1].differs = false;

	/* the GID each end would use for its address, and its RoCE version */
	row2(d, "GID type", gid_type(mp, ma), gid_type(pp, pa));
	s = &d->sides[d->nsides - 1];
	if (!pa || (pa->gid_v2 < 0 && pa->gid_v1 < 0)) {
		s->differs = true;
		s->cause = "peer_no_rocev2_gid";
		f = rd_doc_add(d, "peer", "address", RDIAG_DOC_PROBLEM, "peer_no_rocev2_gid", subj,
			       "the peer has no GID for %s on %s/%u: rdma_cm there cannot use the address",
			       peer_ip, pp->dev, pp->port);
		rd_doc_evidence(f, "peer %s: %s/%u netdev %s carries %s, no RoCE v2 or v1 GID for it",
				peer->host, pp->dev, pp->port, pp->netdev, peer_ip);
		rd_doc_hint(f, "on the peer: re-add the address (ip addr del/add %s dev %s) so that the kernel adds its GID; check 'rdmastat gids' there",
			    peer_ip, pp->netdev);
	} else if (pa->gid_v2 < 0) {
		s->differs = true;
		s->cause = "peer_no_rocev2_gid";
		f = rd_doc_add(d, "peer", "address", RDIAG_DOC_PROBLEM, "peer_no_rocev2_gid", subj,
			       "the peer has only a RoCE v1 GID for %s on %s/%u (index %d): a RoCE v2 connection cannot use it",
			       peer_ip, pp->dev, pp->port, pa->gid_v1);
		rd_doc_evidence(f, "peer %s: %s/%u GID %d is RoCE v1, no RoCE v2 GID for %s",
				peer->host, pp->dev, pp->port, pa->gid_v1, peer_ip);
		rd_doc_hint(f, "on the peer: re-add the address (ip addr del/add %s dev %s) and check the default RoCE mode (configfs rdma_cm default_roce_mode)",
			    peer_ip, pp->netdev);
	} else if (s->differs) {
		s->cause = "peer_gid_type_mismatch";
		f = rd_doc_add(d, "peer", "address", RDIAG_DOC_PROBLEM, "peer_gid_type_mismatch",
			       subj, "the two ends would use different RoCE versions: %s here, %s on the peer",
			       s->here, s->peer);
		rd_doc_evidence(f, "here %s/%u default_roce_mode '%s'; peer %s/%u default_roce_mode '%s'",
				mp->dev, mp->port, mp->roce_mode[0] ? mp->roce_mode : "(kernel default)",
				pp->dev, pp->port, pp->roce_mode[0] ? pp->roce_mode : "(kernel default)");
		rd_doc_hint(f, "set the same default RoCE mode on both ends (echo 'RoCE v2' > /sys/kernel/config/rdma_cm/DEV/ports/1/default_roce_mode)");
	}
	mi = gid_index(mp, ma);
	pi = gid_index(pp, pa);
	snprintf(h, sizeof(h), mi >= 0 ? "%d" : "none", mi);
	snprintf(p, sizeof(p), pi >= 0 ? "%d" : "none", pi);
	s = row2(d, "GID index", h, p);
	if (s && s->differs && mi >= 0 && pi >= 0) {
		s->cause = "peer_gid_index_differs";
		f = rd_doc_add(d, "peer", "address", RDIAG_DOC_WARN, "peer_gid_index_differs", subj,
			       "the GID index of the address in use differs: %d here, %d on the peer; a job that gives one index for all ranks (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, ib_write_bw -x) picks a wrong GID on one end",
			       mi, pi);
		rd_doc_evidence(f, "here %s/%u GID %d for %s; peer %s/%u GID %d for %s", mp->dev,
				mp->port, mi, my_ip, pp->dev, pp->port, pi, peer_ip);
		rd_doc_hint(f, "let rdma_cm pick the GID (connect by address), or set the index per host (rdmadoctor env)");
	}

	/* MTUs: the netdev's, the port's active one, and what both allow */
	u2s(h, sizeof(h), mp->mtu);
	u2s(p, sizeof(p), pp->mtu);
	row2(d, "netdev MTU", h, p);
	mpath = mp->mtu ? rdiag_roce_path_mtu(mp->mtu) : 0;
	ppath = pp->mtu ? rdiag_roce_path_mtu(pp->mtu) : 0;
	u2s(h, sizeof(h), mp->active_mtu);
	u2s(p, sizeof(p), pp->active_mtu);
	s = row2(d, "active MTU", h, p);
	both = min_nz(min_nz(mp->active_mtu, pp->active_mtu), min_nz(mpath, ppath));
	u2s(h, sizeof(h), both);
	row2(d, "RDMA MTU both allow", h, h);
	if ((mpath && ppath && mpath != ppath) ||
	    (mp->active_mtu && pp->active_mtu && mp->active_mtu != pp->active_mtu)) {
		if (s) {
			s->differs = true;
			s->cause = "peer_mtu_mismatch";
		}
		f = rd_doc_add(d, "peer", "transport", RDIAG_DOC_PROBLEM, "peer_mtu_mismatch", subj,
			       "the MTUs of the two ends differ: here %s MTU %u -> RDMA MTU %u, peer %s MTU %u -> RDMA MTU %u; packets above %u bytes are dropped on the smaller end",
			       mp->netdev, mp->mtu, min_nz(mpath, mp->active_mtu), pp->netdev, pp->mtu,
			       min_nz(ppath, pp->active_mtu), both);
		rd_doc_evidence(f, "here %s/%u netdev %s MTU %u, active MTU %u; peer %s/%u netdev %s MTU %u, active MTU %u",
				mp->dev, mp->port, mp->netdev, mp->mtu, mp->active_mtu, pp->dev,
				pp->port, pp->netdev, pp->mtu, pp->active_mtu);
		rd_doc_hint(f, "set the same MTU on both ends and every switch port between them (ip link set %s mtu %u here or on the peer), or cap the QP's path MTU at %u",
			    mp->netdev, mp->mtu > pp->mtu ? pp->mtu : mp->mtu, both);
	}

	/* the traffic class rdma_cm puts on the connection */
	mtos = mp->tos < 0 ? 0 : mp->tos;
	ptos = pp->tos < 0 ? 0 : pp->tos;
	snprintf(h, sizeof(h), mp->tos_configfs ? "%d" : "%d (kernel default)", mtos);
	snprintf(p, sizeof(p), pp->tos_configfs ? "%d" : "%d (kernel default)", ptos);
	s = row2(d, "default ToS", h, p);
	if (s)
		s->differs = mtos != ptos;
	if (mtos != ptos) {
		s->cause = "peer_tos_mismatch";
		f = rd_doc_add(d, "peer", "transport", RDIAG_DOC_WARN, "peer_tos_mismatch", subj,
			       "the default ToS differs: %d (DSCP %d) here, %d (DSCP %d) on the peer: the two directions travel in different traffic classes, one of them perhaps not lossless",
			       mtos, mtos >> 2, ptos, ptos >> 2);
		rd_doc_evidence(f, "configfs rdma_cm %s/%u default_roce_tos %s here; %s/%u default_roce_tos %s on the peer",
				mp->dev, mp->port, h, pp->dev, pp->port, p);
		rd_doc_hint(f, "set the same ToS on both ends: echo %d > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos (mkdir the group first), or on the peer",
			    ptos > mtos ? ptos : mtos, mp->dev, mp->port);
	}
	/* the lossless chain's ends, where either host can say (DCB or the OFED settings) */
	if (mp->dscp >= 0 || pp->dscp >= 0 || mp->pfc[0] || pp->pfc[0]) {
		lossless_str(h, sizeof(h), mp->dscp, mp->prio);
		lossless_str(p, sizeof(p), pp->dscp, pp->prio);
		row2(d, "DSCP / priority", h, p);
		snprintf(h, sizeof(h), "%s / %s", mp->pfc[0] ? mp->pfc : "?", mp->ecn[0] ? mp->ecn : "?");
		snprintf(p, sizeof(p), "%s / %s", pp->pfc[0] ? pp->pfc : "?", pp->ecn[0] ? pp->ecn : "?");
		row2(d, "PFC / ECN", h, p);
	}
	s = row2(d, "link speed", mp->rate[0] ? mp->rate : "unknown", pp->rate[0] ? pp->rate : "unknown");
	if (s && s->differs && mp->rate[0] && pp->rate[0]) {
		s->cause = "peer_speed_mismatch";
		f = rd_doc_add(d, "peer", "link", RDIAG_DOC_WARN, "peer_speed_mismatch", subj,
			       "the link speeds differ: %s here, %s on the peer: the faster end can overrun the slower one (PFC or drops)",
			       mp->rate, pp->rate);
		rd_doc_evidence(f, "here %s/%u rate %s; peer %s/%u rate %s", mp->dev, mp->port,
				mp->rate, pp->dev, pp->port, pp->rate);
		rd_doc_hint(f, "expected between unlike NICs; otherwise check the cable and the negotiated speed (ethtool) on the slower end");
	}
	row2(d, "kernel", me->kernel, peer->kernel[0] ? peer->kernel : "(not served)");
	d->sides[d->nsides - 1].differs = peer->kernel[0] && strcmp(me->kernel, peer->kernel) != 0;
	s = row2(d, "rdmadiag", me->version, peer->version);
	if (s && s->differs) {
		s->cause = "peer_version_mismatch";
		/* information: no cause id on the finding, the row names it */
		f = rd_doc_add(d, "peer", "host", RDIAG_DOC_INFO, NULL, subj,
			       "rdmadiag %s here, %s on the peer: the comparison may miss what one of them does not describe",
			       me->version, peer->version);
		rd_doc_evidence(f, "the peer's description says version %s", peer->version);
		rd_doc_hint(f, "run the same rdmadiag version on both ends");
	}
}

void rd_doc_peer_port_space(struct rdiag_doctor *d, int ps, uint16_t port,
			    const struct rd_desc *peer, const char *peer_ip)
{
	const char *mine = rdiag_port_space_name((unsigned int)ps);
	struct rdiag_doc_finding *f;
	struct rdiag_doc_side *s;
	char here[32], there[32], a[8], b[8];

	d->peer_listen_port = peer->listen_port;
	snprintf(d->peer_listen_ps, sizeof(d->peer_listen_ps), "%s", peer->listen_ps);
	if (!peer->listen_port || !peer->listen_ps[0])
		return;		/* an older listener: no row */
	snprintf(here, sizeof(here), "%s port %u", mine ? mine : "?", port);
	snprintf(there, sizeof(there), "%s port %u", peer->listen_ps, peer->listen_port);
	s = row2(d, "rdma_cm port space", here, there);
	if (!s || !mine || peer->listen_port != port || !strcmp(mine, peer->listen_ps)) {
		if (s)
			s->differs = false;	/* another port: the attempt says what listens */
		return;
	}
	s->differs = true;
	s->cause = "peer_port_space_mismatch";
	f = rd_doc_add(d, "peer", "cm", RDIAG_DOC_PROBLEM, "peer_port_space_mismatch", peer_ip,
		       "the listener on port %u is in the %s port space, this end connects in %s: its REQ names a service ID nothing listens on",
		       port, peer->listen_ps, mine);
	rd_doc_evidence(f, "the peer's description: rdma_cm listening on port %u in port space %s; this end: --ps %s",
			peer->listen_port, peer->listen_ps, rd_doc_ps_opt(mine, a, sizeof(a)));
	rd_doc_hint(f, "use one port space on both ends: connect with --ps %s, or run the listener with --ps %s",
		    rd_doc_ps_opt(peer->listen_ps, a, sizeof(a)), rd_doc_ps_opt(mine, b, sizeof(b)));
}

int rdiag_doctor_compare_peer(struct rdiag_doctor *d, const struct rdiag_doc_opts *o)
{
	struct rd_desc *me = NULL, *peer = NULL;
	union rd_addr dst;
	char *text = NULL, why[200], dst_ip[64], my_ip[64];
	size_t len = 0;
	/* the listener describes its host when asked: sysfs reads that take a second or more
	 * on a busy small machine; the same patience as for the connection */
	int timeout = o->timeout_ms > 0 ? o->timeout_ms : RDIAG_DOC_DEFAULT_TIMEOUT_MS;
	int ret;

	d->nsides = 0;
	if (!o->dst || rd_addr_parse(o->dst, &dst)) {
		rd_doc_err(d, "cannot parse destination '%s'", o->dst ? o->dst : "");
		return -EINVAL;
	}
	rd_addr_str(&dst, dst_ip, sizeof(dst_ip));
	me = malloc(sizeof(*me));
	peer = malloc(sizeof(*peer));
	if (!me || !peer) {
		ret = -ENOMEM;
		rd_doc_err(d, "out of memory");
		goto out;
	}
	ret = fetch(d, &dst, o->port ? o->port : RD_DOC_DEFAULT_PORT, timeout, "describe\n",
		    "description", &text, &len);
	if (ret)
		goto out;
	ret = rd_desc_parse(text, len, peer, why, sizeof(why));
	if (ret) {
		rd_doc_err(d, "the reply on tcp %s:%u is not a description: %s", dst_ip,
			   o->port ? o->port : RD_DOC_DEFAULT_PORT, why);
		goto out;
	}
	ret = rd_doc_desc_local(d, me);
	if (ret) {
		rd_doc_err(d, "cannot describe this host: %s", strerror(-ret));
		goto out;
	}
	if (local_addr(d, o, &dst, my_ip, sizeof(my_ip)))
		snprintf(my_ip, sizeof(my_ip), "?");
	rd_doc_peer_compare(d, me, my_ip, peer, dst_ip);
	rd_doc_peer_port_space(d, o->ps ? o->ps : RDIAG_PS_TCP,
			       o->port ? o->port : RD_DOC_DEFAULT_PORT, peer, dst_ip);
out:
	free(text);
	free(me);
	free(peer);
	return ret;
}

int rd_doc_peer_fetch_counters(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
			       struct rd_pc *pc)
{
	union rd_addr dst;
	char *text = NULL, why[128], ip[64];
	size_t len = 0;
	int timeout = o->timeout_ms > 0 ? o->timeout_ms : RDIAG_DOC_DEFAULT_TIMEOUT_MS;
	uint16_t port = o->port ? o->port : RD_DOC_DEFAULT_PORT;
	int ret;

	if (!o->dst || rd_addr_parse(o->dst, &dst)) {
		rd_doc_err(d, "cannot parse destination '%s'", o->dst ? o->dst : "");
		return -EINVAL;
	}
	ret = fetch(d, &dst, port, timeout, "counters\n", "counters", &text, &len);
	if (ret)
		return ret;
	ret = rd_pc_parse(text, len, pc, why, sizeof(why));
	if (ret) {
		rd_addr_str(&dst, ip, sizeof(ip));
		rd_doc_err(d, "the reply on tcp %s:%u is not a counter set: %s", ip, port, why);
	}
	free(text);
	return ret;
}

int rdiag_doctor_peer_counters(struct rdiag_doctor *d, const struct rdiag_doc_opts *o)
{
	int ret;

	d->peer_after = false;
	d->npeer_deltas = 0;
	if (!d->peer_before && !(d->peer_before = malloc(sizeof(*d->peer_before)))) {
		rd_doc_err(d, "out of memory");
		return -ENOMEM;
	}
	ret = rd_doc_peer_fetch_counters(d, o, d->peer_before);
	d->have_peer_before = ret == 0;
	snprintf(d->peer_dst, sizeof(d->peer_dst), "%s", o->dst ? o->dst : "");
	d->peer_port = o->port;
	d->peer_timeout_ms = o->timeout_ms;
	return ret;
}

void rd_doc_peer_counters_after(struct rdiag_doctor *d)
{
	struct rdiag_doc_opts o = { .dst = d->peer_dst, .port = d->peer_port,
				    .timeout_ms = d->peer_timeout_ms };
	struct rd_pc *b;

	if (!d->have_peer_before || !(b = malloc(sizeof(*b))))
		return;
	if (!rd_doc_peer_fetch_counters(d, &o, b)) {
		rd_pc_deltas(d, d->peer_before, b);
		d->peer_after = true;
	}
	free(b);
}

const struct rdiag_doc_delta *rdiag_doctor_peer_deltas(const struct rdiag_doctor *d, size_t *n)
{
	*n = d->peer_after ? d->npeer_deltas : 0;
	return d->peer_after ? d->peer_deltas : NULL;
}

bool rd_doc_peer_verdict(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v)
{
	const struct rdiag_doc_finding *f = NULL;
	size_t i;

	for (i = 0; i < d->nfindings && !f; i++)
		if (!strcmp(d->findings[i].check, "peer") && d->findings[i].level >= RDIAG_DOC_WARN)
			f = &d->findings[i];
	if (!f)
		return false;
	v->ok = false;
	v->layer = f->layer;
	v->cause = f->cause;
	snprintf(v->sentence, sizeof(v->sentence),
		 "the connection to %s port %u is established, but the two ends differ: %s",
		 d->dst, d->port, f->summary);
	snprintf(v->evidence + strlen(v->evidence), sizeof(v->evidence) - strlen(v->evidence),
		 "%s%.600s", v->evidence[0] ? "\n" : "", f->evidence);
	snprintf(v->next, sizeof(v->next), "%s", f->hint);
	return true;
}
