/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_pkt_decode(): link layers, VLAN tags, IPv4/IPv6, UDP, and the hand-off to the IB
 * transport decoder (ib.c).  See rdmadiag/packet.h for the contract.
 *
 * The return value answers "is this an RDMA packet?" and nothing else: 0 as soon as the
 * packet is known to be RoCEv2 (UDP destination port in the list), RoCEv1 (ethertype
 * 0x8915), IB transport (LRH LNH 2/3) or a PAUSE/PFC frame (ethertype 0x8808 and its opcode,
 * macc.c); a positive enum rdiag_pkt_skip before that point.
 * Whether the RDMA packet was complete and well formed is in p->status/p->stopped_in. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "internal.h"

enum {
	ETH_P_IPV4 = 0x0800,
	ETH_P_IPV6 = 0x86DD,
	ETH_P_ROCEV1 = 0x8915,
	ETH_P_MAC_CONTROL = 0x8808,	/* PAUSE, PFC (macc.c) */
	ETH_P_8021Q = 0x8100,
	ETH_P_8021AD = 0x88A8,
	ETH_P_QINQ1 = 0x9100,	/* pre-802.1ad stacked VLAN, still seen on switches */
	IPPROTO_UDP_ = 17,
	IP6_HOPOPTS = 0,
	IP6_ROUTING = 43,
	IP6_FRAGMENT = 44,
	IP6_DSTOPTS = 60,
	IP6_MAX_EXT = 8,	/* extension headers walked before giving up */
};

static const struct rdiag_decode_opts default_opts = {
	.ports = { RDIAG_ROCEV2_PORT },
	.n_ports = 1,
	.check_icrc = true,
	.decode_mad = true,
};

void rdiag_decode_opts_init(struct rdiag_decode_opts *o)
{
	if (o)
		*o = default_opts;
}

int rdiag_decode_opts_add_port(struct rdiag_decode_opts *o, uint16_t port)
{
	unsigned int i;

	if (!o)
		return -EINVAL;
	for (i = 0; i < o->n_ports && i < RDIAG_MAX_PORTS; i++)
		if (o->ports[i] == port)
			return -EEXIST;
	if (o->n_ports >= RDIAG_MAX_PORTS)
		return -ENOSPC;
	o->ports[o->n_ports++] = port;
	return 0;
}

bool rdiag_linktype_supported(int linktype)
{
	switch (linktype) {
	case RDIAG_DLT_EN10MB:
	case RDIAG_DLT_RAW_12:
	case RDIAG_DLT_RAW_14:
	case RDIAG_DLT_RAW:
	case RDIAG_DLT_LINUX_SLL:
	case RDIAG_DLT_IPV4:
	case RDIAG_DLT_IPV6:
	case RDIAG_DLT_INFINIBAND:
	case RDIAG_DLT_LINUX_SLL2:
		return true;
	default:
		return false;
	}
}

static bool port_matches(const struct rdiag_decode_opts *o, uint16_t dport)
{
	unsigned int i, n = o->n_ports;

	if (n == 0)
		return dport == RDIAG_ROCEV2_PORT;
	if (n > RDIAG_MAX_PORTS)
		n = RDIAG_MAX_PORTS;
	for (i = 0; i < n; i++)
		if (o->ports[i] == dport)
			return true;
	return false;
}

/* not yet known to be RDMA: report the stop point and tell the caller to skip */
static int skip_short(struct rdiag_pkt *p, struct rd_cur *c, enum rdiag_hdr h)
{
	rd_stop(p, c, h);
	return RDIAG_SKIP_SHORT;
}

static int decode_udp(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	const uint8_t *b = rd_take(c, 8);

	if (!b)
		return skip_short(p, c, RDIAG_HDR_UDP);
	p->sport = rd_be16(b);
	p->dport = rd_be16(b + 2);
	p->udp_len = rd_be16(b + 4);
	p->udp_csum = rd_be16(b + 6);
	if (!port_matches(o, p->dport))
		return RDIAG_SKIP_UDP_PORT;
	p->present |= RDIAG_HAS(RDIAG_HDR_UDP);
	p->encap = RDIAG_ENCAP_ROCEV2;
	if (p->udp_len < 8)
		c->err = RD_INVAL;
	if (rd_limit(c, (uint32_t)p->udp_len - 8)) {
		rd_stop(p, c, RDIAG_HDR_UDP);
		return 0;
	}
	rd_decode_transport(c, p, o);
	return 0;
}

static int decode_ipv4(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	uint32_t ip_off = c->off;
	const uint8_t *b = rd_take(c, 20);
	unsigned int ihl;
	uint16_t frag;

	if (!b)
		return skip_short(p, c, RDIAG_HDR_IPV4);
	if (b[0] >> 4 != 4) {
		c->err = RD_INVAL;
		return skip_short(p, c, RDIAG_HDR_IPV4);
	}
	ihl = (b[0] & 0x0f) * 4u;
	p->ip_family = AF_INET;
	p->ip_off = ip_off;
	p->ip_hdr_len = (uint16_t)ihl;
	p->dscp = b[1] >> 2;
	p->ecn = b[1] & 3;
	p->ip_tot_len = rd_be16(b + 2);
	p->ip_id = rd_be16(b + 4);
	frag = rd_be16(b + 6);
	p->ip_df = (frag >> 14) & 1;
	p->ttl = b[8];
	p->ip_proto = b[9];
	p->ip_csum = rd_be16(b + 10);
	memcpy(p->ip_src, b + 12, 4);
	memcpy(p->ip_dst, b + 16, 4);
	if (frag & 0x3fff)		/* MF or a fragment offset */
		return RDIAG_SKIP_FRAGMENT;
	if (p->ip_proto != IPPROTO_UDP_)
		return RDIAG_SKIP_IP_PROTO;
	if (ihl < 20 || p->ip_tot_len < ihl) {
		c->err = RD_INVAL;
		return skip_short(p, c, RDIAG_HDR_IPV4);
	}
	if (ihl > 20) {
		if (!rd_take(c, ihl - 20))
			return skip_short(p, c, RDIAG_HDR_IPV4);
		p->ip_opt_off = (uint16_t)(ip_off + 20);
		p->ip_opt_len = (uint16_t)(ihl - 20);
	}
	p->present |= RDIAG_HAS(RDIAG_HDR_IPV4);
	if (rd_limit(c, p->ip_tot_len - ihl))
		return skip_short(p, c, RDIAG_HDR_IPV4);
	return decode_udp(c, p, o);
}

static int decode_ipv6(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	uint32_t ip_off = c->off, w;
	const uint8_t *b = rd_take(c, 40);
	uint16_t paylen;
	uint8_t nxt;
	int i;

	if (!b)
		return skip_short(p, c, RDIAG_HDR_IPV6);
	w = rd_be32(b);
	if (w >> 28 != 6) {
		c->err = RD_INVAL;
		return skip_short(p, c, RDIAG_HDR_IPV6);
	}
	p->ip_family = AF_INET6;
	p->ip_off = ip_off;
	p->dscp = (w >> 22) & 0x3f;
	p->ecn = (w >> 20) & 3;
	p->flow_label = w & 0xfffff;
	paylen = rd_be16(b + 4);
	p->ip_tot_len = (uint16_t)(paylen + 40u > 0xffff ? 0xffff : paylen + 40u);
	nxt = b[6];
	p->ttl = b[7];
	memcpy(p->ip_src, b + 8, 16);
	memcpy(p->ip_dst, b + 24, 16);
	if (rd_limit(c, paylen))
		return skip_short(p, c, RDIAG_HDR_IPV6);
	/* RoCEv2 senders put UDP right after the fixed header; walk the usual extension
	 * headers anyway so a hop-by-hop option does not hide the packet */
	for (i = 0; i < IP6_MAX_EXT; i++) {
		const uint8_t *e;

		if (nxt == IP6_FRAGMENT) {
			p->ip_proto = nxt;
			return RDIAG_SKIP_FRAGMENT;
		}
		if (nxt != IP6_HOPOPTS && nxt != IP6_ROUTING && nxt != IP6_DSTOPTS)
			break;
		e = rd_take(c, 8);
		if (!e || !rd_take(c, e[1] * 8u))
			return skip_short(p, c, RDIAG_HDR_IPV6);
		nxt = e[0];
	}
	p->ip_proto = nxt;
	p->ip_hdr_len = (uint16_t)(c->off - ip_off);
	if (nxt != IPPROTO_UDP_)
		return RDIAG_SKIP_IP_PROTO;
	p->present |= RDIAG_HAS(RDIAG_HDR_IPV6);
	return decode_udp(c, p, o);
}

static int decode_rocev1(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	p->encap = RDIAG_ENCAP_ROCEV1;
	if (rd_decode_grh(c, p) || rd_limit(c, p->grh.paylen)) {
		rd_stop(p, c, RDIAG_HDR_GRH);
		return 0;
	}
	rd_decode_transport(c, p, o);
	return 0;
}

static int decode_ethertype(struct rd_cur *c, struct rdiag_pkt *p,
			    const struct rdiag_decode_opts *o, uint16_t et)
{
	p->ethertype = et;
	switch (et) {
	case ETH_P_IPV4:
		return decode_ipv4(c, p, o);
	case ETH_P_IPV6:
		return decode_ipv6(c, p, o);
	case ETH_P_ROCEV1:
		return decode_rocev1(c, p, o);
	case ETH_P_MAC_CONTROL:
		return rd_decode_macc(c, p);
	default:
		return RDIAG_SKIP_ETHERTYPE;
	}
}

/* any depth of 802.1Q / 802.1ad / 0x9100 tags; the first RDIAG_VLAN_MAX are kept */
static int decode_vlans(struct rd_cur *c, struct rdiag_pkt *p, uint16_t *et)
{
	while (*et == ETH_P_8021Q || *et == ETH_P_8021AD || *et == ETH_P_QINQ1) {
		const uint8_t *b = rd_take(c, 4);
		uint16_t tci;

		if (!b)
			return skip_short(p, c, RDIAG_HDR_VLAN);
		tci = rd_be16(b);
		if (p->n_vlan < RDIAG_VLAN_MAX) {
			struct rdiag_vlan *v = &p->vlan[p->n_vlan++];

			v->tpid = *et;
			v->pcp = tci >> 13;
			v->dei = (tci >> 12) & 1;
			v->vid = tci & 0x0fff;
		}
		if (p->vlan_depth < 255)
			p->vlan_depth++;
		p->present |= RDIAG_HAS(RDIAG_HDR_VLAN);
		*et = rd_be16(b + 2);
	}
	return 0;
}

static int decode_en10mb(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	const uint8_t *b = rd_take(c, 14);
	uint16_t et;
	int r;

	if (!b)
		return skip_short(p, c, RDIAG_HDR_LINK);
	memcpy(p->eth_dst, b, 6);
	memcpy(p->eth_src, b + 6, 6);
	et = rd_be16(b + 12);
	p->present |= RDIAG_HAS(RDIAG_HDR_LINK);
	r = decode_vlans(c, p, &et);
	if (r)
		return r;
	return decode_ethertype(c, p, o, et);
}

/* Linux cooked v1: pkttype, hatype, halen, 8 address bytes, protocol */
static int decode_sll(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	const uint8_t *b = rd_take(c, 16);
	uint16_t et;
	int r;

	if (!b)
		return skip_short(p, c, RDIAG_HDR_LINK);
	p->sll_pkttype = rd_be16(b);
	memcpy(p->eth_src, b + 6, 6);
	et = rd_be16(b + 14);
	p->present |= RDIAG_HAS(RDIAG_HDR_LINK);
	r = decode_vlans(c, p, &et);
	if (r)
		return r;
	return decode_ethertype(c, p, o, et);
}

/* Linux cooked v2: protocol, reserved, ifindex, hatype, pkttype, halen, 8 address bytes */
static int decode_sll2(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	const uint8_t *b = rd_take(c, 20);
	uint16_t et;
	int r;

	if (!b)
		return skip_short(p, c, RDIAG_HDR_LINK);
	et = rd_be16(b);
	p->sll_ifindex = rd_be32(b + 4);
	p->sll_pkttype = b[10];
	memcpy(p->eth_src, b + 12, 6);
	p->present |= RDIAG_HAS(RDIAG_HDR_LINK);
	r = decode_vlans(c, p, &et);
	if (r)
		return r;
	return decode_ethertype(c, p, o, et);
}

static int decode_raw(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o,
		      int want)
{
	const uint8_t *b = rd_at(c, c->off, 1);
	int v;

	if (!b) {
		rd_need(c, 1);
		return skip_short(p, c, want == 6 ? RDIAG_HDR_IPV6 : RDIAG_HDR_IPV4);
	}
	v = want ? want : b[0] >> 4;
	if (v == 4)
		return decode_ipv4(c, p, o);
	if (v == 6)
		return decode_ipv6(c, p, o);
	return RDIAG_SKIP_ETHERTYPE;
}

/* native InfiniBand: LRH [GRH] BTH ... ICRC VCRC */
static int decode_ib(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_decode_opts *o)
{
	struct rd_cur whole = *c;	/* the VCRC lies after the LRH PktLen region */
	uint32_t pkt_bytes;
	const uint8_t *v;

	if (rd_decode_lrh(c, p))
		return skip_short(p, c, RDIAG_HDR_LRH);
	if (p->lrh.lnh < 2)		/* raw / IPv6 over IB: no IBA transport */
		return RDIAG_SKIP_ETHERTYPE;
	p->encap = RDIAG_ENCAP_IB;
	pkt_bytes = p->lrh.pktlen * 4u;
	if (pkt_bytes < RD_LRH_LEN + RD_BTH_LEN + RD_ICRC_LEN)
		c->err = RD_INVAL;
	if (rd_limit(c, pkt_bytes - RD_LRH_LEN)) {
		rd_stop(p, c, RDIAG_HDR_LRH);
		return 0;
	}
	if (p->lrh.lnh == 3) {
		if (rd_decode_grh(c, p)) {
			rd_stop(p, c, RDIAG_HDR_GRH);
			return 0;
		}
	}
	rd_decode_transport(c, p, o);
	if (!(p->present & RDIAG_HAS_ICRC))
		return 0;
	/* VCRC: present when the frame goes on past PktLen */
	if (whole.end - pkt_bytes < RD_VCRC_LEN)
		return 0;
	v = rd_at(&whole, pkt_bytes, RD_VCRC_LEN);
	if (!v) {
		rd_need(&whole, pkt_bytes + RD_VCRC_LEN);
		rd_stop(p, &whole, RDIAG_HDR_VCRC);
		return 0;
	}
	p->present |= RDIAG_HAS(RDIAG_HDR_VCRC);
	/* byte order as for the ICRC (a reflected CRC sent least significant byte first);
	 * not verified against a real IB capture */
	p->vcrc = (uint16_t)(v[0] | v[1] << 8);
	if (o->check_icrc) {
		const uint8_t *all = rd_at(&whole, 0, pkt_bytes);

		if (all) {
			p->vcrc_computed = rdiag_vcrc16(all, pkt_bytes);
			p->vcrc_checked = true;
			p->vcrc_ok = p->vcrc_computed == p->vcrc;
		}
	}
	return 0;
}

int rdiag_pkt_decode(struct rdiag_pkt *p, int linktype, const uint8_t *data, uint32_t caplen,
		     uint32_t len, const struct rdiag_decode_opts *opts)
{
	static const uint8_t empty[1];
	struct rd_cur c;

	if (!p)
		return -EINVAL;
	/* a MAD's class headers and records are cleared by the MAD decoder (they are most of
	 * the struct's tail and only QP0/QP1 packets have them) */
	memset(p, 0, offsetof(struct rdiag_pkt, mad.dr));
	if (!data && caplen)
		return -EINVAL;
	if (!opts)
		opts = &default_opts;
	p->linktype = linktype;
	p->caplen = caplen;
	p->len = len;
	p->data = data;
	rd_cur_init(&c, data ? data : empty, data ? caplen : 0, len);

	switch (linktype) {
	case RDIAG_DLT_EN10MB:
		return decode_en10mb(&c, p, opts);
	case RDIAG_DLT_LINUX_SLL:
		return decode_sll(&c, p, opts);
	case RDIAG_DLT_LINUX_SLL2:
		return decode_sll2(&c, p, opts);
	case RDIAG_DLT_RAW_12:
	case RDIAG_DLT_RAW_14:
	case RDIAG_DLT_RAW:
		return decode_raw(&c, p, opts, 0);
	case RDIAG_DLT_IPV4:
		return decode_raw(&c, p, opts, 4);
	case RDIAG_DLT_IPV6:
		return decode_raw(&c, p, opts, 6);
	case RDIAG_DLT_INFINIBAND:
		return decode_ib(&c, p, opts);
	default:
		return -EPROTONOSUPPORT;
	}
}
