/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: one packet as a line, as every header field (-v), or as one JSON object (-j).
 *
 * The JSON keys and their order are a documented contract (rdmadump(1), "JSON OUTPUT"); the
 * text forms print a subset of the same calls: each call carries the text format to use in
 * the short line and in the verbose form (NULL = not shown). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include "dump.h"
#include "mad.h"
#include "dur.h"
#include "common/timefmt.h"

#define HAS(p, h) ((p)->present & RDIAG_HAS(RDIAG_HDR_##h))

/* a JSON key rendered once (a packet dump writes some thirty per packet) */
#define K(name) RDIAG_KEY(name)

/* pick the short-line or the verbose format */
#define F(shortf, verbosef) (verbose ? (verbosef) : (shortf))

/* JSON: a packet's members are collected here and handed to out_items in one call (a
 * packet of the bench writes some thirty, and a call per member was most of -j's cost).
 * Strings formatted on the way (addresses, the time stamp) live in slots until the items are
 * written.  Text: nothing is collected; a member with a text format is printed at once by
 * its single-value call, one without prints nothing in text and is skipped. */
#define PO_ITEMS 64
#define PO_SLOTS 6

struct pkt_out {
	struct out *o;
	const struct rdiag_flow_verdict *v;	/* the flow analysis of the packet, or NULL */
	bool json;
	unsigned int n, slots;
	struct out_item it[PO_ITEMS];
	char slot[PO_SLOTS][INET6_ADDRSTRLEN + 2];
};

static void w_flush(struct pkt_out *w)
{
	out_items(w->o, w->it, w->n);
	w->n = 0;
	w->slots = 0;
}

static inline struct out_item *w_add(struct pkt_out *w, struct out_key *k,
					  const char *fmt, enum out_type type)
{
	struct out_item *it;

	if (w->n == PO_ITEMS)
		w_flush(w);
	it = &w->it[w->n++];
	it->k = k;
	it->fmt = fmt;
	it->type = type;
	return it;
}

static inline void w_u64(struct pkt_out *w, struct out_key *k, const char *fmt, uint64_t v)
{
	if (w->json)
		w_add(w, k, fmt, OUT_U64)->u = v;
	else if (fmt)
		out_u64_k(w->o, k, fmt, v);
}

static inline void w_hex64(struct pkt_out *w, struct out_key *k, const char *fmt, uint64_t v)
{
	if (w->json)
		w_add(w, k, fmt, OUT_HEX64)->u = v;
	else if (fmt)
		out_hex64_k(w->o, k, fmt, v);
}

/* s must stay valid until the items are written: a literal, a name table entry or a slot */
static inline void w_str(struct pkt_out *w, struct out_key *k, const char *fmt, const char *s)
{
	if (w->json)
		w_add(w, k, fmt, OUT_STR)->s = s;
	else if (fmt)
		out_str_k(w->o, k, fmt, s);
}

static inline void w_bool(struct pkt_out *w, struct out_key *k, const char *fmt, bool v)
{
	if (w->json)
		w_add(w, k, fmt, OUT_BOOL)->b = v;
	else if (fmt)
		out_bool_k(w->o, k, fmt, v);
}

/* objects are JSON only */
static inline void w_begin(struct pkt_out *w, struct out_key *k)
{
	if (w->json)
		w_add(w, k, NULL, OUT_BEGIN);
}

static inline void w_end(struct pkt_out *w)
{
	if (w->json)
		w_add(w, NULL, NULL, OUT_END);
}

/* room for one formatted string (an address), free again once the items are written */
static char *w_slot(struct pkt_out *w)
{
	if (w->slots == PO_SLOTS)
		w_flush(w);
	return w->slot[w->slots++];
}

/* text only (nothing in JSON; nothing is collected in text) */
#define w_text(w, ...) do { \
	if (!(w)->json) \
		out_text((w)->o, __VA_ARGS__); \
} while (0)

/* literal text only, as it is (no format) */
#define w_lit(w, lit) do { \
	if (!(w)->json) \
		out_text_lit((w)->o, "" lit "", sizeof(lit) - 1); \
} while (0)

/* one number in text only: through a key's parsed format (k names nothing in JSON) */
static inline void w_text_u64(struct pkt_out *w, struct out_key *k, const char *fmt, uint64_t v)
{
	if (!w->json)
		out_u64_k(w->o, k, fmt, v);
}

/* The RFC 3339 time of a -j line: the calendar part ("2026-12-01T21:04:59.") changes once a
 * second, so it is made by tool_time_str() once per second and only the nine fraction digits
 * per packet (the calendar work was an eighth of -j's instructions).  One cache per process:
 * rdmadump prints from one thread. */
static const char *json_time(char *buf, size_t len, uint64_t sec, uint32_t nsec)
{
	static uint64_t cached_sec = UINT64_MAX;
	static char prefix[TOOL_TIME_LEN];
	static size_t prefix_len;

	if (nsec >= 1000000000u || len < TOOL_TIME_LEN)
		return tool_time_str(buf, len, sec, nsec);
	if (sec != cached_sec) {
		char t[TOOL_TIME_LEN];
		size_t n = strlen(tool_time_str(t, sizeof(t), sec, 0));

		/* "": past year 9999; not formatted over the cached second's prefix, which the
		 * next packet of that second uses again */
		if (n < 11)
			return tool_time_str(buf, len, sec, nsec);
		memcpy(prefix, t, n - 10);
		prefix_len = n - 10;	/* up to and with the '.', before "000000000Z" */
		cached_sec = sec;
	}
	memcpy(buf, prefix, prefix_len);
	dump_ns9_before(buf + prefix_len + 9, nsec);
	buf[prefix_len + 9] = 'Z';
	buf[prefix_len + 10] = '\0';
	return buf;
}

/* inet_ntop goes through printf for IPv4; this runs twice per packet of a -j dump */
static void ip_str(char *buf, size_t len, int af, const uint8_t *a)
{
	if (af != AF_INET || len < INET_ADDRSTRLEN) {
		inet_ntop(af, a, buf, (socklen_t)len);
		return;
	}
	*dump_put_ip4(buf, a) = '\0';
}

/* JSON: every LRH field, and the GRH fields the addresses line leaves out (the verbose text
 * prints them on its lrh and grh lines) */
static void routing_json(struct pkt_out *w, const struct rdiag_pkt *p)
{
	if (HAS(p, LRH)) {
		w_begin(w, K("lrh"));
		w_u64(w, K("vl"), NULL, p->lrh.vl);
		w_u64(w, K("lver"), NULL, p->lrh.lver);
		w_u64(w, K("sl"), NULL, p->lrh.sl);
		w_u64(w, K("lnh"), NULL, p->lrh.lnh);
		w_u64(w, K("dlid"), NULL, p->lrh.dlid);
		w_u64(w, K("slid"), NULL, p->lrh.slid);
		w_u64(w, K("pktlen"), NULL, p->lrh.pktlen);
		w_end(w);
	}
	if (HAS(p, GRH)) {
		w_begin(w, K("grh"));
		w_u64(w, K("tclass"), NULL, p->grh.tclass);
		w_u64(w, K("flow_label"), NULL, p->grh.flow_label);
		w_u64(w, K("hop_limit"), NULL, p->grh.hoplmt);
		w_end(w);
	}
}

static void addr_pair(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	char *s, *d;
	int af = p->ip_family == AF_INET6 ? AF_INET6 : AF_INET;

	if (p->ip_family) {
		s = w_slot(w);
		d = w_slot(w);
		ip_str(s, INET6_ADDRSTRLEN, af, p->ip_src);
		ip_str(d, INET6_ADDRSTRLEN, af, p->ip_dst);
		if (verbose)
			w_text(w, "\n    %s", af == AF_INET6 ? "ipv6" : "ipv4");
		w_str(w, K("src"), " %s", s);
		w_str(w, K("dst"), " > %s", d);
		if (verbose) {
			w_text(w, " dscp %u ecn %u ttl %u proto %u len %u", p->dscp, p->ecn,
				       p->ttl, p->ip_proto, p->ip_tot_len);
			if (af == AF_INET)
				w_text(w, " id 0x%04x%s csum 0x%04x hdrlen %u", p->ip_id,
					       p->ip_df ? " df" : "", p->ip_csum, p->ip_hdr_len);
			else
				w_text(w, " flowlabel 0x%05x", p->flow_label);
		}
	}
	if (HAS(p, UDP)) {
		w_u64(w, K("sport"), F(NULL, "\n    udp sport %" PRIu64), p->sport);
		w_u64(w, K("dport"), F(NULL, " dport %" PRIu64), p->dport);
		if (verbose)
			w_text(w, " len %u csum 0x%04x", p->udp_len, p->udp_csum);
	}
	if (p->ip_family) {
		/* shown on the ip line above in verbose text */
		w_u64(w, K("dscp"), NULL, p->dscp);
		w_u64(w, K("ecn"), NULL, p->ecn);
	}
	/* verbose text: the LRH comes first on the wire, so its line (with the LIDs) goes first */
	if (verbose && HAS(p, LRH))
		w_text(w, "\n    lrh vl %u lver %u sl %u lnh %u pktlen %u slid %u dlid %u",
			       p->lrh.vl, p->lrh.lver, p->lrh.sl, p->lrh.lnh, p->lrh.pktlen,
			       p->lrh.slid, p->lrh.dlid);
	if (HAS(p, GRH)) {
		s = w_slot(w);
		d = w_slot(w);
		inet_ntop(AF_INET6, p->grh.sgid, s, INET6_ADDRSTRLEN);
		inet_ntop(AF_INET6, p->grh.dgid, d, INET6_ADDRSTRLEN);
		if (verbose)
			w_text(w, "\n    grh ipver %u tclass 0x%02x flowlabel 0x%05x paylen %u "
				       "nxthdr 0x%02x hoplmt %u", p->grh.ipver, p->grh.tclass,
				       p->grh.flow_label, p->grh.paylen, p->grh.nxthdr, p->grh.hoplmt);
		/* the short line shows GIDs only when there is no IP header */
		w_str(w, K("sgid"), p->ip_family ? F(NULL, " sgid %s") : F(" %s", " sgid %s"), s);
		w_str(w, K("dgid"), p->ip_family ? F(NULL, " dgid %s") : F(" > %s", " dgid %s"), d);
	}
	if (HAS(p, LRH)) {
		bool show = !HAS(p, GRH);

		w_u64(w, K("slid"), !verbose && show ? " lid %" PRIu64 : NULL, p->lrh.slid);
		w_u64(w, K("dlid"), !verbose && show ? " > lid %" PRIu64 : NULL, p->lrh.dlid);
	}
	if (w->json && (p->present & (RDIAG_HAS_LRH | RDIAG_HAS_GRH)))
		routing_json(w, p);
}

static void link_layer(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	const uint8_t *s = p->eth_src, *d = p->eth_dst;

	if (p->n_vlan) {
		w_flush(w);
		out_arr_begin(w->o, "vlan");
		for (unsigned int i = 0; i < p->n_vlan; i++)
			out_u64(w->o, NULL, F(NULL, " vlan %" PRIu64), p->vlan[i].vid);
		out_arr_end(w->o);
	}
	if (!verbose || !HAS(p, LINK))
		return;
	if (p->linktype == RDIAG_DLT_EN10MB)
		w_text(w, "\n    eth %02x:%02x:%02x:%02x:%02x:%02x > "
			       "%02x:%02x:%02x:%02x:%02x:%02x type 0x%04x",
			       s[0], s[1], s[2], s[3], s[4], s[5], d[0], d[1], d[2], d[3], d[4], d[5],
			       p->ethertype);
	else
		w_text(w, "\n    sll pkttype %u ifindex %u protocol 0x%04x", p->sll_pkttype,
			       p->sll_ifindex, p->ethertype);
	for (unsigned int i = 0; i < p->n_vlan; i++)
		w_text(w, " [tpid 0x%04x vid %u pcp %u dei %u]", p->vlan[i].tpid,
			       p->vlan[i].vid, p->vlan[i].pcp, p->vlan[i].dei);
}

static void bth(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_bth *b = &p->bth;

	w_begin(w, K("bth"));
	w_u64(w, K("opcode"), F(NULL, "\n    bth opcode 0x%02" PRIx64), b->opcode);
	w_str(w, K("op"), F(" %s", " (%s)"), rdiag_opcode_name(b->opcode));
	w_u64(w, K("se"), F(NULL, " se %" PRIu64), b->se);
	w_u64(w, K("m"), F(NULL, " m %" PRIu64), b->m);
	w_u64(w, K("padcnt"), F(NULL, " padcnt %" PRIu64), b->padcnt);
	w_u64(w, K("tver"), F(NULL, " tver %" PRIu64), b->tver);
	w_u64(w, K("pkey"), F(NULL, " pkey 0x%04" PRIx64), b->pkey);
	w_u64(w, K("fecn"), F(NULL, " fecn %" PRIu64), b->fecn);
	w_u64(w, K("becn"), F(NULL, " becn %" PRIu64), b->becn);
	w_u64(w, K("destqp"), F(" qp 0x%06" PRIx64, " destqp 0x%06" PRIx64), b->destqp);
	w_u64(w, K("a"), F(NULL, " a %" PRIu64), b->ackreq);
	w_u64(w, K("psn"), " psn %" PRIu64, b->psn);
	w_end(w);
	if (!verbose && !w->json) {
		if (b->ackreq)
			w_lit(w, " A");
		if (b->se)
			w_lit(w, " SE");
		if (b->fecn)
			w_lit(w, " FECN");
		if (b->becn)
			w_lit(w, " BECN");
		if (p->ip_family && p->ecn == 3)
			w_lit(w, " CE");
	}
}

static void aeth(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_aeth *a = &p->aeth;

	w_begin(w, K("aeth"));
	w_u64(w, K("syndrome"), F(NULL, "\n    aeth syndrome 0x%02" PRIx64), a->syndrome);
	switch (a->kind) {
	case RDIAG_AETH_ACK:
		w_str(w, K("kind"), F(" %s", " kind %s"), "ack");
		/* the field is a code (IBTA table): JSON gives both, "credits" absent for 31 */
		w_u64(w, K("credits_code"), NULL, a->credits_code);
		if (a->credits >= 0) {
			w_u64(w, K("credits"), NULL, (uint64_t)a->credits);
			w_text_u64(w, K("credits"), " credits %" PRIu64, (uint64_t)a->credits);
			w_text_u64(w, K("credits_code"), "(%" PRIu64 ")", a->credits_code);
		} else {
			w_text_u64(w, K("credits_code"), " credits invalid(%" PRIu64 ")",
				   a->credits_code);
		}
		break;
	case RDIAG_AETH_RNR_NAK:
		w_str(w, K("kind"), F(" RNR NAK", " kind %s"), "rnr_nak");
		w_u64(w, K("timer"), F(NULL, " timer %" PRIu64), a->timer);
		w_flush(w);
		out_dbl_k(w->o, K("timer_ms"), F(" timer %g ms", " (%g ms)"), a->timer_ms);
		break;
	case RDIAG_AETH_NAK:
		w_str(w, K("kind"), F(" NAK", " kind %s"), "nak");
		w_u64(w, K("nak"), F(NULL, " nak %" PRIu64), a->nak);
		w_str(w, K("nak_name"), F(" %s", " (%s)"), a->nak_name ? a->nak_name :
			      rdiag_nak_name(a->nak));
		break;
	default:
		w_str(w, K("kind"), " %s", "reserved");
		break;
	}
	w_u64(w, K("msn"), " msn %" PRIu64, a->msn);
	w_end(w);
}

static void cm(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_cm *c = &p->cm;
	const char *name = rdiag_cm_msg_name(c->msg);
	char *ip;

	w_begin(w, K("cm"));
	w_str(w, K("msg"), F(" CM %s", "\n    cm %s"), name ? name : "?");
	if (c->msg == RDIAG_CM_SIDR_REQ || c->msg == RDIAG_CM_SIDR_REP) {
		w_u64(w, K("request_id"), " request_id 0x%08" PRIx64, c->local_comm_id);
	} else {
		w_u64(w, K("local_comm_id"), " comm 0x%08" PRIx64, c->local_comm_id);
		if (c->msg != RDIAG_CM_REQ)
			w_u64(w, K("remote_comm_id"), F(" > 0x%08" PRIx64,
				      " remote_comm 0x%08" PRIx64), c->remote_comm_id);
	}
	switch (c->msg) {
	case RDIAG_CM_REQ:
	case RDIAG_CM_SIDR_REQ:
	case RDIAG_CM_SIDR_REP:
		w_hex64(w, K("service_id"), F(NULL, " service_id 0x%016" PRIx64), c->service_id);
		if (c->sid_is_ip) {
			const char *ps = rdiag_port_space_name(c->port_space);

			w_str(w, K("port_space"), " %s", ps ? ps : "?");
			w_u64(w, K("port"), " port %" PRIu64, c->port);
		}
		if (c->msg == RDIAG_CM_SIDR_REP) {
			w_u64(w, K("status"), " status %" PRIu64, c->sidr_status);
			w_u64(w, K("qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
			w_u64(w, K("qkey"), F(NULL, " qkey 0x%08" PRIx64), c->qkey);
		}
		if (c->msg != RDIAG_CM_REQ)
			break;
		w_hex64(w, K("local_ca_guid"), F(NULL, " ca_guid 0x%016" PRIx64),
				c->local_ca_guid);
		w_u64(w, K("local_qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
		w_u64(w, K("starting_psn"), " psn %" PRIu64, c->starting_psn);
		w_u64(w, K("path_mtu"), F(NULL, " path_mtu %" PRIu64), c->path_mtu);
		w_u64(w, K("transport"), F(NULL, " transport %" PRIu64), c->transport);
		w_u64(w, K("retry_count"), F(NULL, " retry %" PRIu64), c->retry_count);
		w_u64(w, K("rnr_retry_count"), F(NULL, " rnr_retry %" PRIu64),
			      c->rnr_retry_count);
		w_u64(w, K("resp_resources"), F(NULL, " resp_res %" PRIu64), c->resp_resources);
		w_u64(w, K("initiator_depth"), F(NULL, " init_depth %" PRIu64),
			      c->initiator_depth);
		w_u64(w, K("local_cm_timeout"), F(NULL, " local_cm_timeout %" PRIu64),
			      c->local_cm_timeout);
		w_u64(w, K("remote_cm_timeout"), F(NULL, " remote_cm_timeout %" PRIu64),
			      c->remote_cm_timeout);
		w_u64(w, K("max_cm_retries"), F(NULL, " max_cm_retries %" PRIu64),
			      c->max_cm_retries);
		w_u64(w, K("pkey"), F(NULL, " pkey 0x%04" PRIx64), c->pkey);
		break;
	case RDIAG_CM_REP:
		w_hex64(w, K("local_ca_guid"), F(NULL, " ca_guid 0x%016" PRIx64),
				c->local_ca_guid);
		w_u64(w, K("local_qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
		w_u64(w, K("starting_psn"), " psn %" PRIu64, c->starting_psn);
		w_u64(w, K("resp_resources"), F(NULL, " resp_res %" PRIu64), c->resp_resources);
		w_u64(w, K("initiator_depth"), F(NULL, " init_depth %" PRIu64),
			      c->initiator_depth);
		w_u64(w, K("rnr_retry_count"), F(NULL, " rnr_retry %" PRIu64),
			      c->rnr_retry_count);
		w_u64(w, K("target_ack_delay"), F(NULL, " target_ack_delay %" PRIu64),
			      c->target_ack_delay);
		break;
	case RDIAG_CM_REJ:
		/* the decoder named the reason (NULL when unassigned) */
		w_u64(w, K("msg_rejected"), F(NULL, " msg_rejected %" PRIu64), c->msg_rejected);
		w_u64(w, K("reason"), " reason %" PRIu64, c->reason);
		w_str(w, K("reason_name"), " %s", c->reason_name ? c->reason_name : "unassigned");
		break;
	case RDIAG_CM_MRA:
		w_u64(w, K("msg_mraed"), F(NULL, " msg_mraed %" PRIu64), c->msg_mraed);
		w_u64(w, K("service_timeout"), F(NULL, " service_timeout %" PRIu64),
			      c->service_timeout);
		break;
	case RDIAG_CM_DREQ:
		w_u64(w, K("remote_qpn"), F(NULL, " remote_qpn 0x%06" PRIx64), c->remote_qpn);
		break;
	default:
		break;
	}
	if (c->has_ip) {
		int af = c->ip_family == AF_INET6 ? AF_INET6 : AF_INET;

		w_begin(w, K("ip"));
		ip = w_slot(w);
		inet_ntop(af, c->ip_src, ip, INET6_ADDRSTRLEN);
		w_str(w, K("src"), F(NULL, " ip %s"), ip);
		w_u64(w, K("sport"), F(NULL, ".%" PRIu64), c->ip_src_port);
		ip = w_slot(w);
		inet_ntop(af, c->ip_dst, ip, INET6_ADDRSTRLEN);
		w_str(w, K("dst"), F(NULL, " > %s"), ip);
		w_end(w);
	}
	w_end(w);
}

static void mad(struct pkt_out *w, const struct rdiag_pkt *p, const uint8_t *data,
		bool verbose)
{
	const struct rdiag_mad *m = &p->mad;
	const char *cls = rdiag_mad_class_name(m->mgmt_class);
	const char *mn = rdiag_mad_method_name(m->method);
	const char *an = rdiag_mad_attr_name(m->mgmt_class, m->attr_id);

	w_begin(w, K("mad"));
	w_u64(w, K("base_version"), F(NULL, "\n    mad base_version %" PRIu64), m->base_version);
	w_u64(w, K("mgmt_class"), HAS(p, CM) ? F(NULL, " class 0x%02" PRIx64) :
		      " MAD class 0x%02" PRIx64, m->mgmt_class);
	w_str(w, K("class"), F(NULL, " (%s)"), cls ? cls : "?");
	w_u64(w, K("class_version"), F(NULL, " class_version %" PRIu64), m->class_version);
	w_u64(w, K("method"), HAS(p, CM) ? F(NULL, " method 0x%02" PRIx64) :
		      " method 0x%02" PRIx64, m->method);
	if (mn)
		w_str(w, K("method_name"), HAS(p, CM) ? F(NULL, " (%s)") : F(" %s", " (%s)"), mn);
	w_u64(w, K("status"), F(NULL, " status 0x%04" PRIx64), m->status);
	w_hex64(w, K("tid"), F(NULL, " tid 0x%016" PRIx64), m->tid);
	w_u64(w, K("attr_id"), HAS(p, CM) ? F(NULL, " attr 0x%04" PRIx64) :
		      " attr 0x%04" PRIx64, m->attr_id);
	if (an)
		w_str(w, K("attr_name"), HAS(p, CM) ? F(NULL, " (%s)") : F(" %s", " (%s)"), an);
	w_u64(w, K("attr_mod"), F(NULL, " attr_mod 0x%08" PRIx64), m->attr_mod);
	if (HAS(p, CM))
		cm(w, p, verbose);
	w_flush(w);
	dump_mad_body(w->o, p, data, w->v, verbose);
	w_end(w);
}

static void ext_headers(struct pkt_out *w, const struct rdiag_pkt *p, const uint8_t *data,
			bool verbose)
{
	if (HAS(p, RDETH)) {
		w_begin(w, K("rdeth"));
		w_u64(w, K("eecnxt"), F(" eecnxt 0x%06" PRIx64, "\n    rdeth eecnxt 0x%06" PRIx64),
			      p->rdeth_eecnxt);
		w_end(w);
	}
	if (HAS(p, DETH)) {
		w_begin(w, K("deth"));
		w_u64(w, K("qkey"), F(" qkey 0x%08" PRIx64, "\n    deth qkey 0x%08" PRIx64),
			      p->deth_qkey);
		w_u64(w, K("srcqp"), " srcqp 0x%06" PRIx64, p->deth_srcqp);
		w_end(w);
	}
	if (HAS(p, XRCETH)) {
		w_begin(w, K("xrceth"));
		w_u64(w, K("xrcsrq"), F(" xrcsrq 0x%06" PRIx64, "\n    xrceth xrcsrq 0x%06" PRIx64),
			      p->xrceth_xrcsrq);
		w_end(w);
	}
	if (HAS(p, RETH)) {
		w_begin(w, K("reth"));
		w_hex64(w, K("va"), F(" va 0x%" PRIx64, "\n    reth va 0x%016" PRIx64), p->reth.va);
		w_u64(w, K("rkey"), " rkey 0x%08" PRIx64, p->reth.rkey);
		w_u64(w, K("dmalen"), " dmalen %" PRIu64, p->reth.dmalen);
		w_end(w);
	}
	if (HAS(p, ATOMICETH)) {
		const struct rdiag_atomiceth *a = &p->atomiceth;

		w_begin(w, K("atomiceth"));
		w_hex64(w, K("va"), F(" va 0x%" PRIx64, "\n    atomiceth va 0x%016" PRIx64), a->va);
		w_u64(w, K("rkey"), " rkey 0x%08" PRIx64, a->rkey);
		w_hex64(w, K("swap"), " swap 0x%" PRIx64, a->swap);
		w_hex64(w, K("compare"), " compare 0x%" PRIx64, a->compare);
		w_end(w);
	}
	if (HAS(p, AETH))
		aeth(w, p, verbose);
	if (HAS(p, ATOMICACKETH)) {
		w_begin(w, K("atomicacketh"));
		w_hex64(w, K("orig"), F(" orig 0x%" PRIx64, "\n    atomicacketh orig 0x%016" PRIx64),
				p->atomicacketh_orig);
		w_end(w);
	}
	if (HAS(p, IMMDT))
		w_u64(w, K("immdt"), F(" imm 0x%08" PRIx64, "\n    immdt 0x%08" PRIx64), p->immdt);
	if (HAS(p, IETH))
		w_u64(w, K("ieth"), F(" inv_rkey 0x%08" PRIx64, "\n    ieth rkey 0x%08" PRIx64),
			      p->ieth_rkey);
	if (HAS(p, FETH)) {
		w_begin(w, K("feth"));
		w_u64(w, K("sel"), F(" sel %" PRIu64, "\n    feth sel %" PRIu64), p->feth.sel);
		w_u64(w, K("plt"), " plt %" PRIu64, p->feth.plt);
		w_end(w);
	}
	if (HAS(p, MAD))
		mad(w, p, data, verbose);
}

static void mac_str(char *buf, const uint8_t *a)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 6; i++) {
		buf[3 * i] = hex[a[i] >> 4];
		buf[3 * i + 1] = hex[a[i] & 15];
		buf[3 * i + 2] = i < 5 ? ':' : '\0';
	}
}

/* PAUSE / PFC: who sent it, and per priority XOFF with its quanta or XON.  The short line:
 *	02:00:00:00:00:01 > 01:80:c2:00:00:01 PFC enable 0x09 p0 XOFF 65535 p3 XON */
static void mac_control(struct pkt_out *w, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_macc *m = &p->macc;
	bool pfc = p->encap == RDIAG_ENCAP_PFC;

	if (HAS(p, LINK)) {
		char *s = w_slot(w);

		mac_str(s, p->eth_src);
		w_str(w, K("eth_src"), F(" %s", NULL), s);
		if (p->linktype == RDIAG_DLT_EN10MB) {
			char *d = w_slot(w);

			mac_str(d, p->eth_dst);
			w_str(w, K("eth_dst"), F(" > %s", NULL), d);
		}
	}
	w_text(w, verbose ? "\n    mac_control %s" : " %s", pfc ? "PFC" : "PAUSE");
	if (!HAS(p, MACC))
		return;
	if (verbose)
		w_text(w, " opcode 0x%04x", m->opcode);
	if (!pfc) {
		w_begin(w, K("pause"));
		w_u64(w, K("quanta"), F(m->pause_quanta ? " XOFF %" PRIu64 : " XON",
					" quanta %" PRIu64), m->pause_quanta);
		w_end(w);
		return;
	}
	w_begin(w, K("pfc"));
	w_u64(w, K("enable"), " enable 0x%02" PRIx64, m->pfc_enable);
	if (verbose)
		w_text(w, " reserved 0x%02x quanta", m->pfc_reserved);
	w_flush(w);
	out_arr_begin(w->o, "quanta");
	for (unsigned int i = 0; i < RDIAG_PFC_PRIOS; i++) {
		bool on = m->pfc_enable & (1u << i);
		const char *f = verbose ? " %" PRIu64 : !on ? NULL :
				m->pfc_quanta[i] ? " XOFF %" PRIu64 : " XON";

		if (!verbose && on)
			w_text(w, " p%u", i);
		out_u64(w->o, NULL, f, m->pfc_quanta[i]);
	}
	out_arr_end(w->o);
	w_end(w);
}

/* management datagrams and keys (lib/flow/flow_mad.c) */
static void mad_analysis(struct pkt_out *w, const struct rdiag_flow_verdict *v)
{
	if (v->flags & RDIAG_FV_MAD_RETRY) {
		char d[24];

		w_bool(w, K("mad_retry"), " [MAD retry", true);
		w_u64(w, K("mad_retry_gap_ns"), NULL, v->retry_gap_ns);
		w_text(w, " +%s]", dump_dur_ns(d, sizeof(d), v->retry_gap_ns));
	}
	if (v->flags & RDIAG_FV_MAD_STATUS)
		w_bool(w, K("mad_error_status"), " [MAD error status]", true);
	if (v->flags & RDIAG_FV_QKEY_MISMATCH)
		w_u64(w, K("qkey_expected"), " [Q_Key mismatch: the SIDR_REP gave 0x%08" PRIx64 "]",
		      v->expected_key);
	if (v->flags & RDIAG_FV_PKEY_MISMATCH)
		w_u64(w, K("pkey_expected"), " [P_Key mismatch: expected 0x%04" PRIx64 "]",
		      v->expected_key);
	if (v->flags & RDIAG_FV_RMPP_MISSING) {
		w_u64(w, K("rmpp_missing_seg"), " [RMPP: segment %" PRIu64, v->rmpp_missing_seg);
		w_u64(w, K("rmpp_segments"), " of %" PRIu64 " missing]", v->rmpp_segments);
	}
	if (v->flags & RDIAG_FV_RMPP_DUP)
		w_bool(w, K("rmpp_resent"), " [RMPP segment resent]", true);
}

static void analysis(struct pkt_out *w, const struct rdiag_flow_verdict *v)
{
	const uint32_t shown = RDIAG_FV_GAP | RDIAG_FV_RESENT_LOST | RDIAG_FV_DUP | RDIAG_FV_OOO | RDIAG_FV_RETX |
			       RDIAG_FV_RETRY | RDIAG_FV_CM_RETRY | RDIAG_FV_READ_DONE |
			       RDIAG_FV_ACKED | RDIAG_FV_MAD_FINDINGS | RDIAG_FV_RMPP_DUP |
			       RDIAG_FV_SIDR_STATUS;

	if (!v || !(v->flags & shown))
		return;
	w_begin(w, K("analysis"));
	if (v->flags & RDIAG_FV_GAP) {
		w_u64(w, K("lost"), " [gap: %" PRIu64 " lost", v->lost);
		w_u64(w, K("expected_psn"), ", expected psn %" PRIu64 "]", v->expected_psn);
	}
	if (v->flags & RDIAG_FV_RESENT_LOST) {
		w_u64(w, K("resent_lost"), " [resend gap: %" PRIu64 " resent lost again", v->resent_lost);
		w_u64(w, K("resent_lost_psn"), ", from psn %" PRIu64 "]", v->resent_psn);
	}
	if (v->flags & RDIAG_FV_DUP)
		w_bool(w, K("dup"), " [dup]", true);
	if (v->flags & RDIAG_FV_RETX)
		w_bool(w, K("retx"), " [retransmission]", true);
	if (v->flags & RDIAG_FV_RETRY_NAK)
		w_str(w, K("retry"), " [retry after NAK-seq]", "nak_seq");
	if (v->flags & RDIAG_FV_RETRY_RNR)
		w_str(w, K("retry"), " [retry after RNR NAK]", "rnr");
	if (v->flags & RDIAG_FV_RETRY_TIMEOUT) {
		char d[24];

		/* how long after the previous send of this PSN: the ACK timer, as seen */
		w_str(w, K("retry"), " [retry after timeout", "timeout");
		if (v->retry_gap_ns) {
			w_u64(w, K("retry_gap_ns"), NULL, v->retry_gap_ns);
			w_text(w, " +%s", dump_dur_ns(d, sizeof(d), v->retry_gap_ns));
		}
		w_lit(w, "]");
	}
	if (v->flags & RDIAG_FV_OOO)
		w_bool(w, K("ooo"), " [out of order]", true);
	if (v->flags & RDIAG_FV_CM_RETRY)
		w_bool(w, K("cm_retry"), " [CM retry]", true);
	if (v->flags & RDIAG_FV_SIDR_STATUS) {
		const char *n = rdiag_cm_sidr_status_name(v->sidr_status);

		w_u64(w, K("sidr_status"), " [SIDR_REP status %" PRIu64, v->sidr_status);
		w_str(w, K("sidr_status_name"), " %s", n ? n : "?");
		w_text(w, "%s]", dump_sidr_meaning(v->sidr_status));
	}
	if (v->flags & (RDIAG_FV_MAD_FINDINGS | RDIAG_FV_RMPP_DUP))
		mad_analysis(w, v);
	if (v->flags & RDIAG_FV_READ_DONE)
		w_u64(w, K("read_latency_ns"), NULL, v->latency_ns);
	if (v->flags & RDIAG_FV_ACKED)
		w_u64(w, K("ack_latency_ns"), NULL, v->latency_ns);
	w_end(w);
}

void dump_packet(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		 const struct rdiag_flow_verdict *v, bool verbose)
{
	if (!verbose && dump_packet_fast(o, f, p, v))
		return;
	dump_packet_fields(o, f, p, v, verbose);
}

void dump_packet_fields(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
			const struct rdiag_flow_verdict *v, bool verbose)
{
	struct pkt_out po, *w = &po;
	char ts[48];

	po.o = o;
	po.v = v;
	po.json = out_json(o);
	po.n = 0;
	po.slots = 0;
	w_begin(w, NULL);		/* the top-level object */
	w_u64(w, K("n"), F(NULL, "#%" PRIu64 " "), f->n);
	if (w->json) {
		/* the one time format of every tool's JSON (rdmadiag(7)) */
		w_str(w, K("ts"), NULL, json_time(ts, sizeof(ts), f->ts_sec, f->ts_nsec));
	} else {
		dump_time(ts, sizeof(ts), f->ts_sec, f->ts_nsec);
		out_str_k(w->o, K("ts"), "%s", ts);
	}
	w_u64(w, K("caplen"), F(NULL, " caplen %" PRIu64), p->caplen);
	w_u64(w, K("len"), F(NULL, " len %" PRIu64), p->len);
	w_str(w, K("encap"), F(NULL, " %s"), rdiag_encap_name(p->encap));
	link_layer(w, p, verbose);
	addr_pair(w, p, verbose);
	if (p->encap == RDIAG_ENCAP_PAUSE || p->encap == RDIAG_ENCAP_PFC) {
		mac_control(w, p, verbose);
	} else if (HAS(p, BTH)) {
		bth(w, p, verbose);
		ext_headers(w, p, f->data, verbose);
		if (HAS(p, PAYLOAD) || p->payload_len)
			w_u64(w, K("payload"), F(p->payload_len ? " len %" PRIu64 : NULL,
				      "\n    payload %" PRIu64), p->payload_len);
		if (verbose && p->pad)
			w_text(w, " pad %u", p->pad);
	} else if (!verbose) {
		w_text(w, " %s", p->encap == RDIAG_ENCAP_IB ? "IB" : "RoCE");
	}
	if (HAS(p, ICRC)) {
		w_begin(w, K("icrc"));
		w_u64(w, K("value"), F(NULL, "\n    icrc 0x%08" PRIx64), p->icrc);
		if (p->icrc_checked)
			w_bool(w, K("ok"), NULL, p->icrc_ok);
		w_end(w);
		if (verbose && p->icrc_checked)
			w_text(w, p->icrc_ok ? " ok" : " (computed 0x%08x)", p->icrc_computed);
		else if (verbose)
			w_text(w, " not checked");
		if (p->icrc_checked && !p->icrc_ok)
			w_lit(w, " [bad icrc]");
	}
	if (verbose && p->vcrc_checked)
		w_text(w, "\n    vcrc 0x%04x %s", p->vcrc, p->vcrc_ok ? "ok" : "[bad vcrc]");
	if (p->status == RDIAG_PKT_TRUNCATED) {
		w_bool(w, K("truncated"), " [truncated]", true);
		if (verbose)
			w_text(w, " in %s", rdiag_hdr_name(p->stopped_in));
	} else if (p->status == RDIAG_PKT_INVALID) {
		w_str(w, K("invalid"), " [invalid %s]", rdiag_hdr_name(p->stopped_in));
	}
	analysis(w, v);
	w_lit(w, "\n");
	w_end(w);
	w_flush(w);
}
