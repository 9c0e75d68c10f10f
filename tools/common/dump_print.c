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

#define HAS(p, h) ((p)->present & RDIAG_HAS(RDIAG_HDR_##h))

/* a JSON key rendered once (a packet dump writes some thirty per packet) */
#define K(name) RDIAG_KEY(name)

/* pick the short-line or the verbose format */
#define F(shortf, verbosef) (verbose ? (verbosef) : (shortf))

void dump_time(char *buf, size_t len, uint64_t sec, uint32_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, len, "%02d:%02d:%02d.%09u", tm.tm_hour, tm.tm_min, tm.tm_sec, nsec);
}

/* inet_ntop goes through printf for IPv4; this runs twice per packet of a -j dump */
static void ip_str(char *buf, size_t len, int af, const uint8_t *a)
{
	char *q = buf;

	if (af != AF_INET || len < INET_ADDRSTRLEN) {
		inet_ntop(af, a, buf, (socklen_t)len);
		return;
	}
	for (int i = 0; i < 4; i++) {
		unsigned int v = a[i];

		if (v >= 100)
			*q++ = (char)('0' + v / 100);
		if (v >= 10)
			*q++ = (char)('0' + v / 10 % 10);
		*q++ = (char)('0' + v % 10);
		*q++ = i < 3 ? '.' : '\0';
	}
}

static void addr_pair(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	int af = p->ip_family == AF_INET6 ? AF_INET6 : AF_INET;

	if (p->ip_family) {
		ip_str(s, sizeof(s), af, p->ip_src);
		ip_str(d, sizeof(d), af, p->ip_dst);
		if (verbose)
			rdiag_out_text(o, "\n    %s", af == AF_INET6 ? "ipv6" : "ipv4");
		rdiag_out_str_k(o, K("src"), " %s", s);
		rdiag_out_str_k(o, K("dst"), " > %s", d);
		if (verbose) {
			rdiag_out_text(o, " dscp %u ecn %u ttl %u proto %u len %u", p->dscp, p->ecn,
				       p->ttl, p->ip_proto, p->ip_tot_len);
			if (af == AF_INET)
				rdiag_out_text(o, " id 0x%04x%s csum 0x%04x hdrlen %u", p->ip_id,
					       p->ip_df ? " df" : "", p->ip_csum, p->ip_hdr_len);
			else
				rdiag_out_text(o, " flowlabel 0x%05x", p->flow_label);
		}
	}
	if (HAS(p, UDP)) {
		rdiag_out_u64_k(o, K("sport"), F(NULL, "\n    udp sport %" PRIu64), p->sport);
		rdiag_out_u64_k(o, K("dport"), F(NULL, " dport %" PRIu64), p->dport);
		if (verbose)
			rdiag_out_text(o, " len %u csum 0x%04x", p->udp_len, p->udp_csum);
	}
	if (p->ip_family) {
		/* shown on the ip line above in verbose text */
		rdiag_out_u64_k(o, K("dscp"), NULL, p->dscp);
		rdiag_out_u64_k(o, K("ecn"), NULL, p->ecn);
	}
	/* verbose text: the LRH comes first on the wire, so its line (with the LIDs) goes first */
	if (verbose && HAS(p, LRH))
		rdiag_out_text(o, "\n    lrh vl %u lver %u sl %u lnh %u pktlen %u slid %u dlid %u",
			       p->lrh.vl, p->lrh.lver, p->lrh.sl, p->lrh.lnh, p->lrh.pktlen,
			       p->lrh.slid, p->lrh.dlid);
	if (HAS(p, GRH)) {
		inet_ntop(AF_INET6, p->grh.sgid, s, sizeof(s));
		inet_ntop(AF_INET6, p->grh.dgid, d, sizeof(d));
		if (verbose)
			rdiag_out_text(o, "\n    grh ipver %u tclass 0x%02x flowlabel 0x%05x paylen %u "
				       "nxthdr 0x%02x hoplmt %u", p->grh.ipver, p->grh.tclass,
				       p->grh.flow_label, p->grh.paylen, p->grh.nxthdr, p->grh.hoplmt);
		/* the short line shows GIDs only when there is no IP header */
		rdiag_out_str_k(o, K("sgid"), p->ip_family ? F(NULL, " sgid %s") : F(" %s", " sgid %s"), s);
		rdiag_out_str_k(o, K("dgid"), p->ip_family ? F(NULL, " dgid %s") : F(" > %s", " dgid %s"), d);
	}
	if (HAS(p, LRH)) {
		bool show = !HAS(p, GRH);

		rdiag_out_u64_k(o, K("slid"), !verbose && show ? " lid %" PRIu64 : NULL, p->lrh.slid);
		rdiag_out_u64_k(o, K("dlid"), !verbose && show ? " > lid %" PRIu64 : NULL, p->lrh.dlid);
	}
}

static void link_layer(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	const uint8_t *s = p->eth_src, *d = p->eth_dst;

	if (p->n_vlan) {
		rdiag_out_arr_begin(o, "vlan");
		for (unsigned int i = 0; i < p->n_vlan; i++)
			rdiag_out_u64(o, NULL, F(NULL, " vlan %" PRIu64), p->vlan[i].vid);
		rdiag_out_arr_end(o);
	}
	if (!verbose || !HAS(p, LINK))
		return;
	if (p->linktype == RDIAG_DLT_EN10MB)
		rdiag_out_text(o, "\n    eth %02x:%02x:%02x:%02x:%02x:%02x > "
			       "%02x:%02x:%02x:%02x:%02x:%02x type 0x%04x",
			       s[0], s[1], s[2], s[3], s[4], s[5], d[0], d[1], d[2], d[3], d[4], d[5],
			       p->ethertype);
	else
		rdiag_out_text(o, "\n    sll pkttype %u ifindex %u protocol 0x%04x", p->sll_pkttype,
			       p->sll_ifindex, p->ethertype);
	for (unsigned int i = 0; i < p->n_vlan; i++)
		rdiag_out_text(o, " [tpid 0x%04x vid %u pcp %u dei %u]", p->vlan[i].tpid,
			       p->vlan[i].vid, p->vlan[i].pcp, p->vlan[i].dei);
}

static void bth(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_bth *b = &p->bth;

	rdiag_out_obj_begin_k(o, K("bth"));
	rdiag_out_u64_k(o, K("opcode"), F(NULL, "\n    bth opcode 0x%02" PRIx64), b->opcode);
	rdiag_out_str_k(o, K("op"), F(" %s", " (%s)"), rdiag_opcode_name(b->opcode));
	rdiag_out_u64_k(o, K("se"), F(NULL, " se %" PRIu64), b->se);
	rdiag_out_u64_k(o, K("m"), F(NULL, " m %" PRIu64), b->m);
	rdiag_out_u64_k(o, K("padcnt"), F(NULL, " padcnt %" PRIu64), b->padcnt);
	rdiag_out_u64_k(o, K("tver"), F(NULL, " tver %" PRIu64), b->tver);
	rdiag_out_u64_k(o, K("pkey"), F(NULL, " pkey 0x%04" PRIx64), b->pkey);
	rdiag_out_u64_k(o, K("fecn"), F(NULL, " fecn %" PRIu64), b->fecn);
	rdiag_out_u64_k(o, K("becn"), F(NULL, " becn %" PRIu64), b->becn);
	rdiag_out_u64_k(o, K("destqp"), F(" qp 0x%06" PRIx64, " destqp 0x%06" PRIx64), b->destqp);
	rdiag_out_u64_k(o, K("a"), F(NULL, " a %" PRIu64), b->ackreq);
	rdiag_out_u64_k(o, K("psn"), " psn %" PRIu64, b->psn);
	rdiag_out_obj_end(o);
	if (!verbose && (b->ackreq || b->se || b->fecn || b->becn || p->ecn == 3))
		rdiag_out_text(o, "%s%s%s%s%s", b->ackreq ? " A" : "", b->se ? " SE" : "",
			       b->fecn ? " FECN" : "", b->becn ? " BECN" : "",
			       (p->ip_family && p->ecn == 3) ? " CE" : "");
}

static void aeth(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_aeth *a = &p->aeth;

	rdiag_out_obj_begin_k(o, K("aeth"));
	rdiag_out_u64_k(o, K("syndrome"), F(NULL, "\n    aeth syndrome 0x%02" PRIx64), a->syndrome);
	switch (a->kind) {
	case RDIAG_AETH_ACK:
		rdiag_out_str_k(o, K("kind"), F(" %s", " kind %s"), "ack");
		rdiag_out_u64_k(o, K("credits"), " credits %" PRIu64, a->credits);
		break;
	case RDIAG_AETH_RNR_NAK:
		rdiag_out_str_k(o, K("kind"), F(" RNR NAK", " kind %s"), "rnr_nak");
		rdiag_out_u64_k(o, K("timer"), F(NULL, " timer %" PRIu64), a->timer);
		rdiag_out_dbl_k(o, K("timer_ms"), F(" timer %g ms", " (%g ms)"), a->timer_ms);
		break;
	case RDIAG_AETH_NAK:
		rdiag_out_str_k(o, K("kind"), F(" NAK", " kind %s"), "nak");
		rdiag_out_u64_k(o, K("nak"), F(NULL, " nak %" PRIu64), a->nak);
		rdiag_out_str_k(o, K("nak_name"), F(" %s", " (%s)"), a->nak_name ? a->nak_name :
			      rdiag_nak_name(a->nak));
		break;
	default:
		rdiag_out_str_k(o, K("kind"), " %s", "reserved");
		break;
	}
	rdiag_out_u64_k(o, K("msn"), " msn %" PRIu64, a->msn);
	rdiag_out_obj_end(o);
}

static void cm(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_cm *c = &p->cm;
	const char *name = rdiag_cm_msg_name(c->msg);
	char ip[INET6_ADDRSTRLEN];

	rdiag_out_obj_begin_k(o, K("cm"));
	rdiag_out_str_k(o, K("msg"), F(" CM %s", "\n    cm %s"), name ? name : "?");
	if (c->msg == RDIAG_CM_SIDR_REQ || c->msg == RDIAG_CM_SIDR_REP) {
		rdiag_out_u64_k(o, K("request_id"), " request_id 0x%08" PRIx64, c->local_comm_id);
	} else {
		rdiag_out_u64_k(o, K("local_comm_id"), " comm 0x%08" PRIx64, c->local_comm_id);
		if (c->msg != RDIAG_CM_REQ)
			rdiag_out_u64_k(o, K("remote_comm_id"), F(" > 0x%08" PRIx64,
				      " remote_comm 0x%08" PRIx64), c->remote_comm_id);
	}
	switch (c->msg) {
	case RDIAG_CM_REQ:
	case RDIAG_CM_SIDR_REQ:
	case RDIAG_CM_SIDR_REP:
		rdiag_out_hex64_k(o, K("service_id"), F(NULL, " service_id 0x%016" PRIx64), c->service_id);
		if (c->sid_is_ip) {
			const char *ps = rdiag_port_space_name(c->port_space);

			rdiag_out_str_k(o, K("port_space"), " %s", ps ? ps : "?");
			rdiag_out_u64_k(o, K("port"), " port %" PRIu64, c->port);
		}
		if (c->msg == RDIAG_CM_SIDR_REP) {
			rdiag_out_u64_k(o, K("status"), " status %" PRIu64, c->sidr_status);
			rdiag_out_u64_k(o, K("qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
			rdiag_out_u64_k(o, K("qkey"), F(NULL, " qkey 0x%08" PRIx64), c->qkey);
		}
		if (c->msg != RDIAG_CM_REQ)
			break;
		rdiag_out_hex64_k(o, K("local_ca_guid"), F(NULL, " ca_guid 0x%016" PRIx64),
				c->local_ca_guid);
		rdiag_out_u64_k(o, K("local_qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
		rdiag_out_u64_k(o, K("starting_psn"), " psn %" PRIu64, c->starting_psn);
		rdiag_out_u64_k(o, K("path_mtu"), F(NULL, " path_mtu %" PRIu64), c->path_mtu);
		rdiag_out_u64_k(o, K("transport"), F(NULL, " transport %" PRIu64), c->transport);
		rdiag_out_u64_k(o, K("retry_count"), F(NULL, " retry %" PRIu64), c->retry_count);
		rdiag_out_u64_k(o, K("rnr_retry_count"), F(NULL, " rnr_retry %" PRIu64),
			      c->rnr_retry_count);
		rdiag_out_u64_k(o, K("resp_resources"), F(NULL, " resp_res %" PRIu64), c->resp_resources);
		rdiag_out_u64_k(o, K("initiator_depth"), F(NULL, " init_depth %" PRIu64),
			      c->initiator_depth);
		rdiag_out_u64_k(o, K("local_cm_timeout"), F(NULL, " local_cm_timeout %" PRIu64),
			      c->local_cm_timeout);
		rdiag_out_u64_k(o, K("remote_cm_timeout"), F(NULL, " remote_cm_timeout %" PRIu64),
			      c->remote_cm_timeout);
		rdiag_out_u64_k(o, K("max_cm_retries"), F(NULL, " max_cm_retries %" PRIu64),
			      c->max_cm_retries);
		rdiag_out_u64_k(o, K("pkey"), F(NULL, " pkey 0x%04" PRIx64), c->pkey);
		break;
	case RDIAG_CM_REP:
		rdiag_out_hex64_k(o, K("local_ca_guid"), F(NULL, " ca_guid 0x%016" PRIx64),
				c->local_ca_guid);
		rdiag_out_u64_k(o, K("local_qpn"), " qpn 0x%06" PRIx64, c->local_qpn);
		rdiag_out_u64_k(o, K("starting_psn"), " psn %" PRIu64, c->starting_psn);
		rdiag_out_u64_k(o, K("resp_resources"), F(NULL, " resp_res %" PRIu64), c->resp_resources);
		rdiag_out_u64_k(o, K("initiator_depth"), F(NULL, " init_depth %" PRIu64),
			      c->initiator_depth);
		rdiag_out_u64_k(o, K("rnr_retry_count"), F(NULL, " rnr_retry %" PRIu64),
			      c->rnr_retry_count);
		rdiag_out_u64_k(o, K("target_ack_delay"), F(NULL, " target_ack_delay %" PRIu64),
			      c->target_ack_delay);
		break;
	case RDIAG_CM_REJ: {
		const char *rn = rdiag_cm_rej_reason_name(c->reason);

		rdiag_out_u64_k(o, K("msg_rejected"), F(NULL, " msg_rejected %" PRIu64), c->msg_rejected);
		rdiag_out_u64_k(o, K("reason"), " reason %" PRIu64, c->reason);
		rdiag_out_str_k(o, K("reason_name"), " %s", rn ? rn : "unassigned");
		break;
	}
	case RDIAG_CM_MRA:
		rdiag_out_u64_k(o, K("msg_mraed"), F(NULL, " msg_mraed %" PRIu64), c->msg_mraed);
		rdiag_out_u64_k(o, K("service_timeout"), F(NULL, " service_timeout %" PRIu64),
			      c->service_timeout);
		break;
	case RDIAG_CM_DREQ:
		rdiag_out_u64_k(o, K("remote_qpn"), F(NULL, " remote_qpn 0x%06" PRIx64), c->remote_qpn);
		break;
	default:
		break;
	}
	if (c->has_ip) {
		int af = c->ip_family == AF_INET6 ? AF_INET6 : AF_INET;

		rdiag_out_obj_begin_k(o, K("ip"));
		inet_ntop(af, c->ip_src, ip, sizeof(ip));
		rdiag_out_str_k(o, K("src"), F(NULL, " ip %s"), ip);
		rdiag_out_u64_k(o, K("sport"), F(NULL, ".%" PRIu64), c->ip_src_port);
		inet_ntop(af, c->ip_dst, ip, sizeof(ip));
		rdiag_out_str_k(o, K("dst"), F(NULL, " > %s"), ip);
		rdiag_out_obj_end(o);
	}
	rdiag_out_obj_end(o);
}

static void mad(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	const struct rdiag_mad *m = &p->mad;
	const char *cls = rdiag_mad_class_name(m->mgmt_class);

	rdiag_out_obj_begin_k(o, K("mad"));
	rdiag_out_u64_k(o, K("base_version"), F(NULL, "\n    mad base_version %" PRIu64), m->base_version);
	rdiag_out_u64_k(o, K("mgmt_class"), HAS(p, CM) ? F(NULL, " class 0x%02" PRIx64) :
		      " MAD class 0x%02" PRIx64, m->mgmt_class);
	rdiag_out_str_k(o, K("class"), F(NULL, " (%s)"), cls ? cls : "?");
	rdiag_out_u64_k(o, K("class_version"), F(NULL, " class_version %" PRIu64), m->class_version);
	rdiag_out_u64_k(o, K("method"), HAS(p, CM) ? F(NULL, " method 0x%02" PRIx64) :
		      " method 0x%02" PRIx64, m->method);
	rdiag_out_u64_k(o, K("status"), F(NULL, " status 0x%04" PRIx64), m->status);
	rdiag_out_hex64_k(o, K("tid"), F(NULL, " tid 0x%016" PRIx64), m->tid);
	rdiag_out_u64_k(o, K("attr_id"), HAS(p, CM) ? F(NULL, " attr 0x%04" PRIx64) :
		      " attr 0x%04" PRIx64, m->attr_id);
	rdiag_out_u64_k(o, K("attr_mod"), F(NULL, " attr_mod 0x%08" PRIx64), m->attr_mod);
	if (HAS(p, CM))
		cm(o, p, verbose);
	rdiag_out_obj_end(o);
}

static void ext_headers(struct rdiag_out *o, const struct rdiag_pkt *p, bool verbose)
{
	if (HAS(p, RDETH)) {
		rdiag_out_obj_begin_k(o, K("rdeth"));
		rdiag_out_u64_k(o, K("eecnxt"), F(" eecnxt 0x%06" PRIx64, "\n    rdeth eecnxt 0x%06" PRIx64),
			      p->rdeth_eecnxt);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, DETH)) {
		rdiag_out_obj_begin_k(o, K("deth"));
		rdiag_out_u64_k(o, K("qkey"), F(" qkey 0x%08" PRIx64, "\n    deth qkey 0x%08" PRIx64),
			      p->deth_qkey);
		rdiag_out_u64_k(o, K("srcqp"), " srcqp 0x%06" PRIx64, p->deth_srcqp);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, XRCETH)) {
		rdiag_out_obj_begin_k(o, K("xrceth"));
		rdiag_out_u64_k(o, K("xrcsrq"), F(" xrcsrq 0x%06" PRIx64, "\n    xrceth xrcsrq 0x%06" PRIx64),
			      p->xrceth_xrcsrq);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, RETH)) {
		rdiag_out_obj_begin_k(o, K("reth"));
		rdiag_out_hex64_k(o, K("va"), F(" va 0x%" PRIx64, "\n    reth va 0x%016" PRIx64), p->reth.va);
		rdiag_out_u64_k(o, K("rkey"), " rkey 0x%08" PRIx64, p->reth.rkey);
		rdiag_out_u64_k(o, K("dmalen"), " dmalen %" PRIu64, p->reth.dmalen);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, ATOMICETH)) {
		const struct rdiag_atomiceth *a = &p->atomiceth;

		rdiag_out_obj_begin_k(o, K("atomiceth"));
		rdiag_out_hex64_k(o, K("va"), F(" va 0x%" PRIx64, "\n    atomiceth va 0x%016" PRIx64), a->va);
		rdiag_out_u64_k(o, K("rkey"), " rkey 0x%08" PRIx64, a->rkey);
		rdiag_out_hex64_k(o, K("swap"), " swap 0x%" PRIx64, a->swap);
		rdiag_out_hex64_k(o, K("compare"), " compare 0x%" PRIx64, a->compare);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, AETH))
		aeth(o, p, verbose);
	if (HAS(p, ATOMICACKETH)) {
		rdiag_out_obj_begin_k(o, K("atomicacketh"));
		rdiag_out_hex64_k(o, K("orig"), F(" orig 0x%" PRIx64, "\n    atomicacketh orig 0x%016" PRIx64),
				p->atomicacketh_orig);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, IMMDT))
		rdiag_out_u64_k(o, K("immdt"), F(" imm 0x%08" PRIx64, "\n    immdt 0x%08" PRIx64), p->immdt);
	if (HAS(p, IETH))
		rdiag_out_u64_k(o, K("ieth"), F(" inv_rkey 0x%08" PRIx64, "\n    ieth rkey 0x%08" PRIx64),
			      p->ieth_rkey);
	if (HAS(p, FETH)) {
		rdiag_out_obj_begin_k(o, K("feth"));
		rdiag_out_u64_k(o, K("sel"), F(" sel %" PRIu64, "\n    feth sel %" PRIu64), p->feth.sel);
		rdiag_out_u64_k(o, K("plt"), " plt %" PRIu64, p->feth.plt);
		rdiag_out_obj_end(o);
	}
	if (HAS(p, MAD))
		mad(o, p, verbose);
}

static void analysis(struct rdiag_out *o, const struct rdiag_flow_verdict *v)
{
	const uint32_t shown = RDIAG_FV_GAP | RDIAG_FV_DUP | RDIAG_FV_OOO | RDIAG_FV_RETX | RDIAG_FV_CM_RETRY |
			       RDIAG_FV_READ_DONE | RDIAG_FV_ACKED;

	if (!v || !(v->flags & shown))
		return;
	rdiag_out_obj_begin_k(o, K("analysis"));
	if (v->flags & RDIAG_FV_GAP) {
		rdiag_out_u64_k(o, K("lost"), " [gap: %" PRIu64 " lost", v->lost);
		rdiag_out_u64_k(o, K("expected_psn"), ", expected psn %" PRIu64 "]", v->expected_psn);
	}
	if (v->flags & RDIAG_FV_DUP)
		rdiag_out_bool_k(o, K("dup"), " [dup]", true);
	if (v->flags & RDIAG_FV_RETX)
		rdiag_out_bool_k(o, K("retx"), " [retransmission]", true);
	if (v->flags & RDIAG_FV_OOO)
		rdiag_out_bool_k(o, K("ooo"), " [out of order]", true);
	if (v->flags & RDIAG_FV_CM_RETRY)
		rdiag_out_bool_k(o, K("cm_retry"), " [CM retry]", true);
	if (v->flags & RDIAG_FV_READ_DONE)
		rdiag_out_u64_k(o, K("read_latency_ns"), NULL, v->latency_ns);
	if (v->flags & RDIAG_FV_ACKED)
		rdiag_out_u64_k(o, K("ack_latency_ns"), NULL, v->latency_ns);
	rdiag_out_obj_end(o);
}

void dump_packet(struct rdiag_out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		 const struct rdiag_flow_verdict *v, bool verbose)
{
	char ts[48];

	rdiag_out_obj_begin(o, NULL);
	rdiag_out_u64_k(o, K("n"), F(NULL, "#%" PRIu64 " "), f->n);
	if (rdiag_out_json(o)) {
		char *q = ts + sizeof(ts);
		uint64_t sec = f->ts_sec;
		uint32_t ns = f->ts_nsec;

		/* "sec.nsec" by hand: this runs for every packet of a -j dump */
		*--q = '\0';
		for (int i = 0; i < 9; i++, ns /= 10)
			*--q = (char)('0' + ns % 10);
		*--q = '.';
		do {
			*--q = (char)('0' + sec % 10);
			sec /= 10;
		} while (sec);
		rdiag_out_str_k(o, K("ts"), NULL, q);
	} else {
		dump_time(ts, sizeof(ts), f->ts_sec, f->ts_nsec);
		rdiag_out_text(o, "%s", ts);
	}
	rdiag_out_u64_k(o, K("caplen"), F(NULL, " caplen %" PRIu64), p->caplen);
	rdiag_out_u64_k(o, K("len"), F(NULL, " len %" PRIu64), p->len);
	rdiag_out_str_k(o, K("encap"), F(NULL, " %s"), rdiag_encap_name(p->encap));
	link_layer(o, p, verbose);
	addr_pair(o, p, verbose);
	if (HAS(p, BTH)) {
		bth(o, p, verbose);
		ext_headers(o, p, verbose);
		if (HAS(p, PAYLOAD) || p->payload_len)
			rdiag_out_u64_k(o, K("payload"), F(p->payload_len ? " len %" PRIu64 : NULL,
				      "\n    payload %" PRIu64), p->payload_len);
		if (verbose && p->pad)
			rdiag_out_text(o, " pad %u", p->pad);
	} else if (!verbose) {
		rdiag_out_text(o, " %s", p->encap == RDIAG_ENCAP_IB ? "IB" : "RoCE");
	}
	if (HAS(p, ICRC)) {
		rdiag_out_obj_begin_k(o, K("icrc"));
		rdiag_out_u64_k(o, K("value"), F(NULL, "\n    icrc 0x%08" PRIx64), p->icrc);
		if (p->icrc_checked)
			rdiag_out_bool_k(o, K("ok"), NULL, p->icrc_ok);
		rdiag_out_obj_end(o);
		if (verbose && p->icrc_checked)
			rdiag_out_text(o, p->icrc_ok ? " ok" : " (computed 0x%08x)", p->icrc_computed);
		else if (verbose)
			rdiag_out_text(o, " not checked");
		if (p->icrc_checked && !p->icrc_ok)
			rdiag_out_text(o, " [bad icrc]");
	}
	if (verbose && p->vcrc_checked)
		rdiag_out_text(o, "\n    vcrc 0x%04x %s", p->vcrc, p->vcrc_ok ? "ok" : "[bad vcrc]");
	if (p->status == RDIAG_PKT_TRUNCATED) {
		rdiag_out_bool_k(o, K("truncated"), " [truncated]", true);
		if (verbose)
			rdiag_out_text(o, " in %s", rdiag_hdr_name(p->stopped_in));
	} else if (p->status == RDIAG_PKT_INVALID) {
		rdiag_out_str_k(o, K("invalid"), " [invalid %s]", rdiag_hdr_name(p->stopped_in));
	}
	analysis(o, v);
	rdiag_out_text(o, "\n");
	rdiag_out_obj_end(o);
}
