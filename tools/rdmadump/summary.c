/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump -S: totals, one table row per QP and direction, opcodes per flow, and the CM
 * handshake timeline of every connection; text tables or one JSON object ("summary"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "mad.h"
#include "dur.h"
#include "common/put_u64.h"

/* s padded with spaces to width w, on the left (right-aligned, as %ws) or on the right */
static char *put_pad(char *p, const char *s, unsigned int w, bool right_align)
{
	size_t n = strlen(s), pad = n < w ? w - n : 0;

	if (right_align) {
		memset(p, ' ', pad);
		p += pad;
	}
	memcpy(p, s, n);
	p += n;
	if (!right_align) {
		memset(p, ' ', pad);
		p += pad;
	}
	return p;
}

/* " %<w>" PRIu64 */
static char *put_col(char *p, uint64_t v, unsigned int w)
{
	char d[24];

	*put_u64(d, v) = '\0';
	*p++ = ' ';
	return put_pad(p, d, w, true);
}

/* the text table's latency column: " %8s/%-8s" of median and p99, or " %17s" of "-" */
static char *put_latency_col(char *p, const struct rdiag_latency *l)
{
	char a[24], b[24];

	*p++ = ' ';
	if (!l->n)
		return put_pad(p, "-", 17, true);
	p = put_pad(p, dump_dur_ns(a, sizeof(a), l->median_ns), 8, true);
	*p++ = '/';
	return put_pad(p, dump_dur_ns(b, sizeof(b), l->p99_ns), 8, false);
}

static void latency(struct out *o, const char *key, const struct rdiag_latency *l)
{
	char a[24], b[24];

	if (out_json(o)) {
		out_obj_begin(o, key);
		out_u64(o, "n", NULL, l->n);
		out_u64(o, "min_ns", NULL, l->min_ns);
		out_u64(o, "median_ns", NULL, l->median_ns);
		out_u64(o, "p99_ns", NULL, l->p99_ns);
		out_u64(o, "max_ns", NULL, l->max_ns);
		out_dbl(o, "mean_ns", NULL, l->mean_ns);
		out_obj_end(o);
		return;
	}
	if (!l->n) {
		out_text(o, " %17s", "-");
		return;
	}
	dump_dur(a, sizeof(a), (double)l->median_ns);
	dump_dur(b, sizeof(b), (double)l->p99_ns);
	out_text(o, " %8s/%-8s", a, b);
}

/* text: "READ latency: n 3 min .. median .. p99 .. max .." (nothing when there is none) */
static void latency_line(struct out *o, const char *indent, const char *what,
			 const struct rdiag_latency *l)
{
	char a[24], b[24], c[24], d[24];

	if (!l->n)
		return;
	out_text(o, "%s%s latency: n %" PRIu64 " min %s median %s p99 %s max %s\n", indent, what,
		       l->n, dump_dur(a, sizeof(a), (double)l->min_ns),
		       dump_dur(b, sizeof(b), (double)l->median_ns), dump_dur(c, sizeof(c), (double)l->p99_ns),
		       dump_dur(d, sizeof(d), (double)l->max_ns));
}

/* "812 B/s", "12.3 kB/s", "1.23 MB/s", "4.56 GB/s", "33.3k messages/s" (SI prefixes, as link
 * speeds are given) */
static const char *rate(char *buf, size_t len, double v, const char *unit)
{
	bool glue = unit[0] == ' ';
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	unsigned int i = 0;

	while (v >= 999.5 && i + 1 < sizeof(pfx) / sizeof(pfx[0])) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, glue ? "%.3g%s%s" : "%.3g %s%s", v, pfx[i], unit);
	return buf;
}

/* ---- what a flow carries: codepoints, messages, throughput ---- */

static bool has_ip(const struct rdiag_flow_info *f)
{
	return f->ecn_pkts[0] || f->ecn_pkts[1] || f->ecn_pkts[2] || f->ecn_pkts[3];
}

/* RoCE data a switch cannot mark, on a fabric that marks (the capture holds CE marks or CNPs):
 * under congestion it is dropped or paused instead, and DCQCN never slows its sender */
static bool not_ect_on_marking_fabric(const struct rdiag_flow_info *f, bool fabric_marks)
{
	return fabric_marks && f->not_ect_data;
}

static double active_s(const struct rdiag_flow_info *f)
{
	return f->last_ns > f->first_ns ? (double)(f->last_ns - f->first_ns) / 1e9 : 0;
}

static const char *const ecn_key[4] = { "not_ect", "ect1", "ect0", "ce" };
static const char *const ecn_text[4] = { "Not-ECT", "ECT(1)", "ECT(0)", "CE" };

static void traffic_json(struct out *o, const struct rdiag_flow_info *f, bool fabric_marks)
{
	double s = active_s(f);

	if (has_ip(f)) {
		out_arr_begin(o, "dscp");
		for (unsigned int d = 0; d < 64; d++)
			if (f->dscp_seen >> d & 1)
				out_u64(o, NULL, NULL, d);
		out_arr_end(o);
		out_u64(o, "dscp_changes", NULL, f->dscp_changes);
		out_obj_begin(o, "ecn");
		for (unsigned int e = 0; e < 4; e++)
			out_u64(o, ecn_key[e], NULL, f->ecn_pkts[e]);
		out_obj_end(o);
		out_u64(o, "not_ect_data", NULL, f->not_ect_data);
	}
	if (f->msgs) {
		out_obj_begin(o, "messages");
		out_u64(o, "n", NULL, f->msgs);
		out_u64(o, "min", NULL, f->msg_min);
		out_u64(o, "median", NULL, f->msg_median);
		out_u64(o, "max", NULL, f->msg_max);
		out_obj_end(o);
	}
	if (s > 0) {
		out_obj_begin(o, "throughput");
		out_u64(o, "active_ns", NULL, f->last_ns - f->first_ns);
		out_u64(o, "bytes_per_s", NULL, (uint64_t)((double)f->bytes / s + 0.5));
		out_u64(o, "payload_per_s", NULL, (uint64_t)((double)f->payload / s + 0.5));
		out_dbl(o, "msgs_per_s", NULL, (double)f->msgs / s);
		out_obj_end(o);
	}
	if (f->dscp_changes || not_ect_on_marking_fabric(f, fabric_marks)) {
		out_arr_begin(o, "warnings");
		if (f->dscp_changes)
			out_str(o, NULL, NULL, "dscp_changed");
		if (not_ect_on_marking_fabric(f, fabric_marks))
			out_str(o, NULL, NULL, "not_ect_on_marking_fabric");
		out_arr_end(o);
	}
}

/* "    DSCP 26, ECN ECT(0) 40, CE 2", the warnings, "    messages ..." and "    throughput ..." */
static void traffic_text(struct out *o, const struct rdiag_flow_info *f, bool fabric_marks)
{
	char a[32], b[32], c[32], d[24];
	double s = active_s(f);
	const char *sep = " ";

	if (has_ip(f)) {
		out_text(o, "    DSCP");
		for (unsigned int v = 0; v < 64; v++)
			if (f->dscp_seen >> v & 1) {
				out_text(o, "%s%u", sep, v);
				sep = ",";
			}
		out_text(o, "; ECN");
		sep = " ";
		for (unsigned int e = 0; e < 4; e++)
			if (f->ecn_pkts[e]) {
				out_text(o, "%s%s %" PRIu64, sep, ecn_text[e], f->ecn_pkts[e]);
				sep = ", ";
			}
		out_text(o, "\n");
		if (f->dscp_changes)
			out_text(o, "    warning: the DSCP changed %" PRIu64 " times within the flow (the "
				       "QP's traffic class moved, or a path re-marks it): its packets may "
				       "change priority and queue\n", f->dscp_changes);
		if (not_ect_on_marking_fabric(f, fabric_marks))
			out_text(o, "    warning: %" PRIu64 " RoCE data packets Not-ECT on a fabric that "
				       "marks (CE marks or CNPs in this capture): switches cannot mark "
				       "them, only drop or pause, and their sender gets no CNP\n",
				       f->not_ect_data);
	}
	if (f->msgs)
		out_text(o, "    messages: %" PRIu64 ", payload min %" PRIu64 " median %" PRIu64
			       " max %" PRIu64 " bytes\n", f->msgs, f->msg_min, f->msg_median,
			       f->msg_max);
	if (s > 0) {
		out_text(o, "    throughput: %s on the wire (%s payload)",
			       rate(a, sizeof(a), (double)f->bytes / s, "B/s"),
			       rate(b, sizeof(b), (double)f->payload / s, "B/s"));
		if (f->msgs)
			out_text(o, ", %s", rate(c, sizeof(c), (double)f->msgs / s, " messages/s"));
		out_text(o, " over %s active\n", dump_dur(d, sizeof(d), s * 1e9));
	}
}

void dump_flow_name(char *buf, size_t len, const struct rdiag_flow_key *k)
{
	static const char hex[] = "0123456789abcdef";
	char s[64], d[64], *p = buf;
	uint32_t qp = k->destqp;
	unsigned int n = 6;
	size_t ls, ld;

	rdiag_flow_addr_str(k->kind, k->src, s, sizeof(s));
	rdiag_flow_addr_str(k->kind, k->dst, d, sizeof(d));
	ls = strlen(s);
	ld = strlen(d);
	if (len < ls + ld + 3 + 6 + 8 + 1) {
		snprintf(buf, len, "%s > %s qp 0x%06x", s, d, qp);
		return;
	}
	memcpy(p, s, ls);
	p += ls;
	memcpy(p, " > ", 3);
	p += 3;
	memcpy(p, d, ld);
	p += ld;
	memcpy(p, " qp 0x", 6);
	p += 6;
	while (n < 8 && qp >> (4 * n))
		n++;
	for (unsigned int i = n; i-- > 0; qp >>= 4)
		p[i] = hex[qp & 15];
	p[n] = '\0';
}

bool dump_flow_of_qp(const struct rdiag_flow_info *f, uint32_t qp)
{
	return f->key.destqp == qp || f->src_qpn == qp;
}

static bool wanted(const struct dump_summary_opts *so, const struct rdiag_flow_info *f)
{
	return !so || !so->have_qp || dump_flow_of_qp(f, so->qp);
}

static uint64_t naks(const uint64_t *n)
{
	uint64_t s = 0;

	for (unsigned int i = 0; i < RDIAG_NAK_KINDS; i++)
		s += n[i];
	return s;
}

/* JSON: the PSN gaps the capture missed, then every resent request by cause */
static void loss_json(struct out *o, const struct rdiag_flow_loss *l)
{
	out_u64(o, "not_captured_gaps", NULL, l->not_captured_gaps);
	out_u64(o, "not_captured_psns", NULL, l->not_captured_psns);
	out_u64(o, "resent_lost_gaps", NULL, l->resent_lost_gaps);
	out_u64(o, "resent_lost_psns", NULL, l->resent_lost_psns);
	if (l->ud_lost_to_dest)
		out_u64(o, "ud_lost_to_dest", NULL, l->ud_lost_to_dest);
	out_obj_begin(o, "retries");
	out_u64(o, "nak_seq", NULL, l->retry_nak_seq);
	out_u64(o, "rnr", NULL, l->retry_rnr);
	out_u64(o, "timeout", NULL, l->retry_timeout);
	if (l->timeout_gap_max_ns) {
		out_u64(o, "timeout_gap_min_ns", NULL, l->timeout_gap_min_ns);
		out_u64(o, "timeout_gap_max_ns", NULL, l->timeout_gap_max_ns);
	}
	out_obj_end(o);
	out_u64(o, "duplicates", NULL, l->duplicates);
}

static uint64_t retries(const struct rdiag_flow_loss *l)
{
	return l->retry_nak_seq + l->retry_rnr + l->retry_timeout;
}

/* text: "resent: 8 after a NAK-sequence error, 0 after an RNR NAK, 1 after a timeout
 * (4.1ms..4.1ms after the original); 0 duplicates" */
static void loss_resent_text(struct out *o, const char *indent, const struct rdiag_flow_loss *l)
{
	char a[24], b[24];

	out_text(o, "%sresent: %" PRIu64 " after a NAK-sequence error, %" PRIu64
		 " after an RNR NAK, %" PRIu64 " after a timeout", indent, l->retry_nak_seq,
		 l->retry_rnr, l->retry_timeout);
	if (l->timeout_gap_max_ns)
		out_text(o, " (%s..%s after the original)",
			 dump_dur(a, sizeof(a), (double)l->timeout_gap_min_ns),
			 dump_dur(b, sizeof(b), (double)l->timeout_gap_max_ns));
	out_text(o, "; %" PRIu64 " duplicates\n", l->duplicates);
}

static void flow_json(struct out *o, const struct rdiag_flow_info *f, bool fabric_marks)
{
	char a[64];
	uint32_t sq = f->src_qpn;

	out_obj_begin(o, NULL);
	out_str(o, "encap", NULL, rdiag_encap_name(f->key.encap));
	out_str(o, "src", NULL, rdiag_flow_addr_str(f->key.kind, f->key.src, a, sizeof(a)));
	out_str(o, "dst", NULL, rdiag_flow_addr_str(f->key.kind, f->key.dst, a, sizeof(a)));
	out_u64(o, "destqp", NULL, f->key.destqp);
	if (sq != RDIAG_QPN_NONE)
		out_u64(o, "srcqp", NULL, sq);
	out_u64(o, "pkts", NULL, f->pkts);
	out_u64(o, "bytes", NULL, f->bytes);
	out_u64(o, "payload", NULL, f->payload);
	out_u64(o, "mtu", NULL, f->mtu);
	out_u64(o, "psn_gaps", NULL, f->psn_gaps);
	out_u64(o, "psn_lost", NULL, f->psn_lost);
	out_u64(o, "lost", NULL, f->psn_lost + f->loss.resent_lost_psns);
	out_u64(o, "psn_dup", NULL, f->psn_dup);
	out_u64(o, "psn_retx", NULL, f->psn_retx);
	out_u64(o, "psn_ooo", NULL, f->psn_ooo);
	out_u64(o, "psn_goback", NULL, f->psn_goback);
	loss_json(o, &f->loss);
	out_u64(o, "acks", NULL, f->acks);
	out_obj_begin(o, "naks");
	for (unsigned int k = 0; k < RDIAG_NAK_KINDS; k++)
		if (f->naks[k])
			out_u64(o, k == RDIAG_NAK_OTHER ? "OTHER" : rdiag_nak_name(k), NULL,
				      f->naks[k]);
	out_obj_end(o);
	out_u64(o, "rnr_naks", NULL, f->rnr_naks);
	if (f->rnr_naks) {
		out_dbl(o, "rnr_timer_ms_min", NULL, f->rnr_timer_ms_min);
		out_dbl(o, "rnr_timer_ms_max", NULL, f->rnr_timer_ms_max);
	}
	out_u64(o, "icrc_bad", NULL, f->icrc_bad);
	out_u64(o, "ecn_ce", NULL, f->ecn_ce);
	out_u64(o, "becn", NULL, f->becn);
	out_u64(o, "cnp", NULL, f->cnp);
	out_u64(o, "cnp_for_ce", NULL, f->cnp_for_ce);
	out_u64(o, "cnp_no_ce", NULL, f->cnp_no_ce);
	traffic_json(o, f, fabric_marks);
	out_u64(o, "truncated", NULL, f->truncated);
	out_u64(o, "invalid", NULL, f->invalid);
	out_u64(o, "reads", NULL, f->reads);
	out_u64(o, "reads_unanswered", NULL, f->reads_unanswered);
	latency(o, "read_latency", &f->read_lat);
	out_u64(o, "ack_reqs", NULL, f->ack_reqs);
	latency(o, "ack_latency", &f->ack_lat);
	out_arr_begin(o, "opcodes");
	for (unsigned int k = 0; k < f->n_ops; k++) {
		out_obj_begin(o, NULL);
		out_u64(o, "opcode", NULL, f->ops[k].opcode);
		out_str(o, "op", NULL, rdiag_opcode_name(f->ops[k].opcode));
		out_u64(o, "pkts", NULL, f->ops[k].pkts);
		out_u64(o, "bytes", NULL, f->ops[k].bytes);
		out_u64(o, "payload", NULL, f->ops[k].payload);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_u64(o, "first_ns", NULL, f->first_ns);
	out_u64(o, "last_ns", NULL, f->last_ns);
	out_obj_end(o);
}

static void flow_text(struct out *o, const struct rdiag_flow_info *f)
{
	char name[160];

	/* "%-44s %7" PRIu64 " %9" PRIu64 then eleven " %4" PRIu64, the two latency columns and
	 * the newline, made here and written at once (printf made most of the summary's cost) */
	/* LOST: every packet the capture shows lost, first sends and resends */
	const uint64_t small[11] = { f->psn_gaps, f->psn_lost + f->loss.resent_lost_psns,
				     f->loss.not_captured_psns,
				     retries(&f->loss), f->loss.duplicates, f->psn_ooo,
				     naks(f->naks), f->rnr_naks, f->ecn_ce, f->cnp, f->icrc_bad };
	char row[160 + 9 + 21 * 13 + 2 * 48 + 1], *p = row;

	dump_flow_name(name, sizeof(name), &f->key);
	p = put_pad(p, name, 44, false);
	p = put_col(p, f->pkts, 7);
	p = put_col(p, f->bytes, 9);
	for (unsigned int i = 0; i < 11; i++)
		p = put_col(p, small[i], 4);
	p = put_latency_col(p, &f->read_lat);
	p = put_latency_col(p, &f->ack_lat);
	*p++ = '\n';
	out_text_lit(o, row, (size_t)(p - row));
}

/* details under the table: opcodes, NAK kinds, RNR timers, CNP correlation, peers */
static void flow_details(struct out *o, const struct rdiag_flow_info *f, bool fabric_marks)
{
	char name[160];
	uint32_t sq = f->src_qpn;

	dump_flow_name(name, sizeof(name), &f->key);
	out_text(o, "  %s", name);
	if (sq != RDIAG_QPN_NONE)
		out_text(o, " (from qp 0x%06x)", sq);
	if (f->mtu)
		out_text(o, " mtu %u", f->mtu);
	out_text(o, "\n   ");
	for (unsigned int k = 0; k < f->n_ops; k++)
		out_text(o, " %s %" PRIu64 "%s", rdiag_opcode_name(f->ops[k].opcode),
			       f->ops[k].pkts, k + 1 < f->n_ops ? "," : "");
	out_text(o, "\n");
	if (naks(f->naks)) {
		out_text(o, "    NAKs:");
		for (unsigned int k = 0; k < RDIAG_NAK_KINDS; k++)
			if (f->naks[k])
				out_text(o, " %s %" PRIu64, k == RDIAG_NAK_OTHER ? "OTHER" :
					       rdiag_nak_name(k), f->naks[k]);
		out_text(o, "\n");
	}
	if (f->rnr_naks) {
		if (f->rnr_timer_ms_min == f->rnr_timer_ms_max)
			out_text(o, "    RNR NAKs: %" PRIu64 ", timer %g ms\n", f->rnr_naks,
				       f->rnr_timer_ms_min);
		else
			out_text(o, "    RNR NAKs: %" PRIu64 ", timer %g..%g ms\n", f->rnr_naks,
				       f->rnr_timer_ms_min, f->rnr_timer_ms_max);
	}
	if (f->psn_gaps || f->loss.resent_lost_gaps || f->loss.not_captured_gaps || f->psn_retx ||
	    f->psn_ooo || f->psn_goback)
		out_text(o, "    PSN: %" PRIu64 " packets lost in the fabric: %" PRIu64 " first "
			       "sends in %" PRIu64 " gaps, %" PRIu64 " resends in %" PRIu64
			       " gaps; %" PRIu64 " gaps not captured (%" PRIu64 " PSNs), %" PRIu64
			       " lost packets resent, %" PRIu64 " out of order, %" PRIu64
			       " go-back retries\n", f->psn_lost + f->loss.resent_lost_psns,
			       f->psn_lost, f->psn_gaps, f->loss.resent_lost_psns,
			       f->loss.resent_lost_gaps, f->loss.not_captured_gaps,
			       f->loss.not_captured_psns, f->psn_retx, f->psn_ooo, f->psn_goback);
	if (f->loss.ud_lost_to_dest)
		out_text(o, "    lost on their way here: %" PRIu64 " of the UD sender's sends (its one "
			       "PSN sequence to all destinations: a MAD sent here again with its TID "
			       "after the hole)\n", f->loss.ud_lost_to_dest);
	if (retries(&f->loss) || f->loss.duplicates)
		loss_resent_text(o, "    ", &f->loss);
	if (f->ecn_ce || f->cnp_for_ce)
		out_text(o, "    ECN: %" PRIu64 " CE-marked packets, %" PRIu64
			       " CNPs sent back for them\n", f->ecn_ce, f->cnp_for_ce);
	if (f->cnp_no_ce)
		out_text(o, "    CNPs received by this QP: %" PRIu64 ", %" PRIu64 " with no "
			       "CE-marked packet before them in this capture (marked past the "
			       "capture point)\n", f->cnp, f->cnp_no_ce);
	else if (f->cnp)
		out_text(o, "    CNPs received by this QP: %" PRIu64 "\n", f->cnp);
	if (f->icrc_bad)
		out_text(o, "    bad ICRC: %" PRIu64 "\n", f->icrc_bad);
	if (f->reads)
		out_text(o, "    READs: %" PRIu64 " (%" PRIu64 " unanswered)\n", f->reads,
			       f->reads_unanswered);
	latency_line(o, "    ", "READ", &f->read_lat);
	latency_line(o, "    ", "ACK", &f->ack_lat);
	traffic_text(o, f, fabric_marks);
}

static void cm_conn(struct out *o, const struct rdiag_cm_conn_info *c)
{
	char a[64], b[64], t[32];
	const char *rn = c->n_rej ? c->rej_reason_name : NULL;
	uint64_t t0 = c->n_req ? c->req_ns : 0;
	const char *ps = c->sid_is_ip ? rdiag_port_space_name(c->port_space) : NULL;

	rdiag_flow_addr_str(c->kind, c->client, a, sizeof(a));
	rdiag_flow_addr_str(c->kind, c->server, b, sizeof(b));
	out_obj_begin(o, NULL);
	out_str(o, "client", "  %s", a);
	out_str(o, "server", " > %s", b);
	out_u64(o, "client_comm_id", " comm 0x%08" PRIx64, c->client_comm_id);
	out_u64(o, "server_comm_id", NULL, c->server_comm_id);
	out_hex64(o, "service_id", NULL, c->service_id);
	if (c->sid_is_ip) {
		out_str(o, "port_space", " %s", ps ? ps : "?");
		out_u64(o, "port", ":%" PRIu64, c->port);
	}
	out_u64(o, "client_qpn", " qp 0x%06" PRIx64, c->client_qpn);
	out_u64(o, "server_qpn", " <> 0x%06" PRIx64, c->server_qpn);
	out_str(o, "state", ": %s\n", rdiag_flow_cm_state_name(c->state));
	out_u64(o, "req", NULL, c->n_req);
	out_u64(o, "req_retries", NULL, c->n_req ? c->n_req - 1 : 0);
	out_u64(o, "mra", NULL, c->n_mra);
	out_u64(o, "rep", NULL, c->n_rep);
	out_u64(o, "rtu", NULL, c->n_rtu);
	out_u64(o, "rej", NULL, c->n_rej);
	out_u64(o, "dreq", NULL, c->n_dreq);
	out_u64(o, "drep", NULL, c->n_drep);
	if (c->n_lap)
		out_u64(o, "lap", NULL, c->n_lap);
	if (c->n_apr) {
		out_u64(o, "apr", NULL, c->n_apr);
		out_u64(o, "apr_status", NULL, c->apr_status);
	}
	if (c->n_rej) {
		out_u64(o, "rej_reason", NULL, c->rej_reason);
		out_str(o, "rej_reason_name", NULL, rn ? rn : "unassigned");
		out_str(o, "rej_by", NULL, c->rej_by_client ? "client" : "server");
	}
	/* the timeline: times relative to the first REQ */
	out_arr_begin(o, "timeline");
	out_text(o, "   ");
#define EV(cnt, ts, label) do { \
	if (cnt) { \
		out_obj_begin(o, NULL); \
		out_str(o, "msg", " %s", label); \
		out_u64(o, "count", (cnt) > 1 ? " x%" PRIu64 : NULL, cnt); \
		out_u64(o, "t_ns", NULL, (ts) - t0); \
		if ((ts) != t0 || strcmp(label, "REQ")) \
			out_text(o, " +%s", dump_dur(t, sizeof(t), (double)((ts) - t0))); \
		out_obj_end(o); \
	} \
} while (0)
	EV(c->n_req, c->req_ns, "REQ");
	EV(c->n_mra, c->mra_ns, "MRA");
	EV(c->n_rep, c->rep_ns, "REP");
	EV(c->n_rtu, c->rtu_ns, "RTU");
	EV(c->n_rej, c->rej_ns, "REJ");
	EV(c->n_dreq, c->dreq_ns, "DREQ");
	EV(c->n_drep, c->drep_ns, "DREP");
	EV(c->n_lap, c->lap_ns, "LAP");
	EV(c->n_apr, c->apr_ns, "APR");
#undef EV
	out_arr_end(o);
	out_text(o, "\n");
	if (c->n_rej)
		out_text(o, "    rejected by the %s: reason %u %s\n",
			       c->rej_by_client ? "client" : "server", c->rej_reason,
			       rn ? rn : "(unassigned)");
	if (c->n_req > 1 && !c->n_rep)
		out_text(o, "    REQ sent %u times over %s with no reply: CM retries, what an "
			       "rdma_connect() timeout looks like on the wire\n", c->n_req,
			       dump_dur(t, sizeof(t), (double)(c->req_last_ns - c->req_ns)));
	else if (c->n_req > 1)
		out_text(o, "    REQ retried %u times before the reply\n", c->n_req - 1);
	out_obj_end(o);
}

const char *dump_sidr_meaning(unsigned int status)
{
	static const char *const m[] = {
		"", ": no listener for the service ID", ": the listener rejected it",
		": no QP available", ": redirected", ": unsupported CM class version",
	};

	return status < sizeof(m) / sizeof(m[0]) ? m[status] : "";
}

/* a SIDR exchange: the service asked for and what the answer gave (or its error status) */
static void sidr_line(struct out *o, const struct rdiag_sidr_info *s)
{
	char a[64], b[64], t[32];
	const char *ps = s->sid_is_ip ? rdiag_port_space_name(s->port_space) : NULL;
	const char *sn = rdiag_cm_sidr_status_name(s->status);

	rdiag_flow_addr_str(s->kind, s->client, a, sizeof(a));
	rdiag_flow_addr_str(s->kind, s->server, b, sizeof(b));
	out_obj_begin(o, NULL);
	out_str(o, "client", "  %s", a);
	out_str(o, "server", " > %s", b);
	out_u64(o, "request_id", " request 0x%08" PRIx64, s->request_id);
	out_hex64(o, "service_id", NULL, s->service_id);
	if (s->sid_is_ip) {
		out_str(o, "port_space", " %s", ps ? ps : "?");
		out_u64(o, "port", ":%" PRIu64, s->port);
	}
	out_u64(o, "sidr_req", NULL, s->n_req);
	out_u64(o, "sidr_rep", NULL, s->n_rep);
	if (!s->n_rep) {
		out_text(o, ": no answer");
	} else {
		out_u64(o, "status", ": status %" PRIu64, s->status);
		out_str(o, "status_name", " %s", sn ? sn : "?");
		if (s->status)
			out_text(o, "%s", dump_sidr_meaning(s->status));
		else {
			out_u64(o, "qpn", ", qp 0x%06" PRIx64, s->qpn);
			out_u64(o, "qkey", " qkey 0x%08" PRIx64, s->qkey);
		}
	}
	if (s->n_req > 1)
		out_text(o, "; SIDR_REQ sent %u times", s->n_req);
	if (s->n_req && s->n_rep) {
		out_u64(o, "latency_ns", NULL, s->rep_ns - s->req_last_ns);
		out_text(o, " (answered in %s)", dump_dur_ns(t, sizeof(t), s->rep_ns - s->req_last_ns));
	}
	out_text(o, "\n");
	out_obj_end(o);
}

/* one pause quantum is 512 bit times (IEEE 802.3 31B.3.2, 802.1Q 36.1.3.1) */
static double quanta_ns(uint64_t quanta, uint64_t link_bps)
{
	return (double)quanta * 512.0 * 1e9 / (double)link_bps;
}

/* one row: a priority, or the link (prio < 0); text rows of the sender table start with the
 * sender's address */
static void pause_row(struct out *o, const char *sender, const char *label, int prio,
		      const struct rdiag_pause_stat *st, uint64_t link_bps)
{
	char d[24];

	if (!out_json(o) && !st->frames)
		return;
	out_obj_begin(o, prio < 0 ? "link" : NULL);
	if (prio >= 0)
		out_u64(o, "priority", NULL, (uint64_t)prio);
	if (sender)
		out_text(o, "%-17s ", sender);
	out_text(o, "%-6s", label);
	out_u64(o, "frames", " %8" PRIu64, st->frames);
	out_u64(o, "xoff", " %8" PRIu64, st->xoff);
	out_u64(o, "xon", " %8" PRIu64, st->xon);
	out_u64(o, "quanta", " %12" PRIu64, st->quanta);
	out_u64(o, "xoff_run_max", " %8" PRIu64, st->xoff_run_max);
	if (link_bps) {
		double ns = quanta_ns(st->quanta, link_bps);

		/* asked for: the quanta as time; paused: as the frame times say (a renewal or
		 * an XON ends a pause early) */
		out_u64(o, "requested_ns", NULL, (uint64_t)(ns + 0.5));
		out_text(o, " %10s", dump_dur(d, sizeof(d), ns));
		out_u64(o, "paused_ns", NULL, st->paused_ns);
		out_text(o, " %10s", dump_dur(d, sizeof(d), (double)st->paused_ns));
	}
	out_text(o, "\n");
	out_obj_end(o);
}

static void pause_rows(struct out *o, const char *sender, const struct rdiag_pause_stat *link,
		       const struct rdiag_pause_stat *prio, uint64_t link_bps)
{
	char label[8];

	pause_row(o, sender, "link", -1, link, link_bps);
	out_arr_begin(o, "priorities");
	for (int i = 0; i < RDIAG_PAUSE_PRIOS; i++) {
		snprintf(label, sizeof(label), "%d", i);
		pause_row(o, sender, label, i, &prio[i], link_bps);
	}
	out_arr_end(o);
}

/* who paused its peer: the same rows per source MAC address */
static void pause_senders(struct out *o, struct rdiag_flow_table *ft, uint64_t link_bps)
{
	size_t n = rdiag_flow_pause_sender_count(ft);
	struct rdiag_pause_sender s;
	char mac[24];

	out_text(o, "by sender (who paused its peer):\n%-17s %-6s %8s %8s %8s %12s %8s%s\n",
		 "SENDER", "PRIO", "FRAMES", "XOFF", "XON", "QUANTA", "XOFF_RUN",
		 link_bps ? "      ASKED     PAUSED" : "");
	out_arr_begin(o, "senders");
	for (size_t i = 0; i < n; i++) {
		if (rdiag_flow_pause_sender_get(ft, i, &s) < 0)
			continue;
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", s.mac[0], s.mac[1],
			 s.mac[2], s.mac[3], s.mac[4], s.mac[5]);
		out_obj_begin(o, NULL);
		out_str(o, "eth_src", NULL, mac);
		pause_rows(o, mac, &s.link, s.prio, link_bps);
		out_obj_end(o);
	}
	out_arr_end(o);
}

/* PAUSE and PFC frames, per priority and per sender (nothing when the capture has none) */
static void pause_summary(struct out *o, struct rdiag_flow_table *ft,
			  const struct rdiag_flow_pause *ps, uint64_t link_bps)
{
	if (!ps->frames)
		return;
	out_obj_begin(o, "pause");
	out_u64(o, "frames", "PAUSE/PFC: %" PRIu64 " frames", ps->frames);
	out_u64(o, "pause_frames", " (%" PRIu64 " PAUSE", ps->pause_frames);
	out_u64(o, "pfc_frames", ", %" PRIu64 " PFC", ps->pfc_frames);
	out_u64(o, "truncated", ", %" PRIu64 " truncated", ps->truncated);
	out_u64(o, "invalid", ", %" PRIu64 " invalid)", ps->invalid);
	if (link_bps)
		out_u64(o, "link_bps", "; link %" PRIu64 " bit/s, 1 quantum = 512 bit times",
			link_bps);
	out_text(o, "\n%-6s %8s %8s %8s %12s %8s%s\n", "PRIO", "FRAMES", "XOFF", "XON",
		 "QUANTA", "XOFF_RUN", link_bps ? "      ASKED     PAUSED" : "");
	pause_rows(o, NULL, &ps->link, ps->prio, link_bps);
	pause_senders(o, ft, link_bps);
	out_obj_end(o);
}

/* text: the one line that says the capture, not the fabric, dropped packets */
static void lossy_capture_line(struct out *o, const struct rdiag_flow_total *t,
			       const struct rdiag_capture_stats *st)
{
	if (!t->loss.not_captured_psns)
		return;
	out_text(o, "capture looks lossy: the receivers acknowledged %" PRIu64 " PSNs (%" PRIu64
		 " gaps) that this capture never saw; not counted as loss", t->loss.not_captured_psns,
		 t->loss.not_captured_gaps);
	if (st && st->have_drops)
		out_text(o, " (the kernel dropped %" PRIu64 " packets of this capture)", st->dropped);
	out_text(o, "\n");
}

static void totals(struct out *o, const struct rdiag_flow_total *t,
		   const struct rdiag_flow_pause *ps, uint64_t max_flows,
		   const struct rdiag_capture_stats *st)
{
	char d[24];
	double span = t->last_ns > t->first_ns ? (double)(t->last_ns - t->first_ns) : 0;

	out_obj_begin(o, "total");
	out_u64(o, "frames", "%" PRIu64 " frames", t->frames);
	out_u64(o, "rdma", ", %" PRIu64 " RDMA packets", t->rdma);
	out_u64(o, "other", ", %" PRIu64 " other", t->frames - t->rdma - ps->frames);
	if (ps->frames)
		out_text(o, ", %" PRIu64 " PAUSE/PFC", ps->frames);
	out_u64(o, "bytes", ", %" PRIu64 " bytes", t->bytes);
	out_u64(o, "payload", " (%" PRIu64 " payload)", t->payload);
	out_u64(o, "duration_ns", NULL, (uint64_t)span);
	out_text(o, " in %s\n", dump_dur(d, sizeof(d), span));
	out_u64(o, "flows", "%" PRIu64 " flows", t->flows);
	out_u64(o, "cm_conns", ", %" PRIu64 " CM connections", t->cm_conns);
	out_u64(o, "truncated", ", %" PRIu64 " truncated", t->truncated);
	out_u64(o, "invalid", ", %" PRIu64 " invalid", t->invalid);
	out_u64(o, "no_bth", NULL, t->no_bth);
	out_u64(o, "icrc_bad", ", %" PRIu64 " bad ICRC\n", t->icrc_bad);
	/* the flow table's bound: what lies beyond it was counted, not analysed */
	out_u64(o, "untracked", NULL, t->untracked);
	if (max_flows)
		out_u64(o, "max_flows", NULL, max_flows);
	if (t->untracked)
		out_text(o, "%" PRIu64 " packets of flows beyond the first %" PRIu64
			 " not analysed (counted only; --max-flows raises the bound)\n",
			 t->untracked, max_flows);
	/* every loss the capture shows: first sends (psn_*), resends lost again (resent_lost_*) */
	out_u64(o, "lost", "PSN: %" PRIu64 " packets lost in the fabric:",
		t->psn_lost + t->loss.resent_lost_psns);
	out_u64(o, "psn_lost", " %" PRIu64, t->psn_lost);
	out_u64(o, "psn_gaps", " first sends in %" PRIu64 " gaps", t->psn_gaps);
	out_u64(o, "resent_lost_psns", ", %" PRIu64, t->loss.resent_lost_psns);
	out_u64(o, "resent_lost_gaps", " resends in %" PRIu64 " gaps", t->loss.resent_lost_gaps);
	if (t->loss.ud_lost_to_dest)
		out_u64(o, "ud_lost_to_dest", NULL, t->loss.ud_lost_to_dest);
	out_u64(o, "not_captured_gaps", ", %" PRIu64 " not captured",
		t->loss.not_captured_gaps);
	out_u64(o, "not_captured_psns", " (%" PRIu64 " PSNs)", t->loss.not_captured_psns);
	out_u64(o, "psn_dup", NULL, t->psn_dup);
	out_u64(o, "psn_retx", ", %" PRIu64 " resent", t->psn_retx);
	out_u64(o, "psn_ooo", ", %" PRIu64 " out of order", t->psn_ooo);
	out_u64(o, "psn_goback", ", %" PRIu64 " go-back retries", t->psn_goback);
	if (out_json(o)) {
		out_obj_begin(o, "retries");
		out_u64(o, "nak_seq", NULL, t->loss.retry_nak_seq);
		out_u64(o, "rnr", NULL, t->loss.retry_rnr);
		out_u64(o, "timeout", NULL, t->loss.retry_timeout);
		if (t->loss.timeout_gap_max_ns) {
			out_u64(o, "timeout_gap_min_ns", NULL, t->loss.timeout_gap_min_ns);
			out_u64(o, "timeout_gap_max_ns", NULL, t->loss.timeout_gap_max_ns);
		}
		out_obj_end(o);
		out_u64(o, "duplicates", NULL, t->loss.duplicates);
	}
	out_u64(o, "acks", "; %" PRIu64 " ACKs", t->acks);
	out_u64(o, "naks", ", %" PRIu64 " NAKs", naks(t->naks));
	out_u64(o, "rnr_naks", ", %" PRIu64 " RNR NAKs\n", t->rnr_naks);
	if (!out_json(o)) {
		loss_resent_text(o, "", &t->loss);
		lossy_capture_line(o, t, st);
	}
	out_u64(o, "ecn_ce", "ECN: %" PRIu64 " CE-marked", t->ecn_ce);
	out_u64(o, "becn", ", %" PRIu64 " BECN", t->becn);
	out_u64(o, "cnp", ", %" PRIu64 " CNPs", t->cnp);
	out_u64(o, "cnp_for_ce", " (%" PRIu64 " matched to a CE-marked flow)", t->cnp_for_ce);
	out_u64(o, "cnp_no_ce", NULL, t->cnp_no_ce);
	out_u64(o, "cm_msgs", "; CM: %" PRIu64 " messages", t->cm_msgs);
	out_u64(o, "cm_rej", ", %" PRIu64 " rejects", t->cm_rej);
	out_u64(o, "cm_req_retries", ", %" PRIu64 " REQ retries\n", t->cm_req_retries);
	if (t->cnp_no_ce)
		out_text(o, "  %" PRIu64 " CNPs received, no CE-marked packet in this capture "
			       "(marked past the capture point)\n", t->cnp_no_ce);
	out_u64(o, "reads", "READ: %" PRIu64, t->reads);
	out_u64(o, "reads_unanswered", " (%" PRIu64 " unanswered)", t->reads_unanswered);
	out_u64(o, "ack_reqs", "; A-bit requests %" PRIu64 "\n", t->ack_reqs);
	out_u64(o, "pending_dropped", NULL, t->pending_dropped);
	if (out_json(o)) {
		latency(o, "read_latency", &t->read_lat);
		latency(o, "ack_latency", &t->ack_lat);
	} else {
		latency_line(o, "  ", "READ", &t->read_lat);
		latency_line(o, "  ", "ACK", &t->ack_lat);
	}
	out_arr_begin(o, "opcodes");
	for (unsigned int op = 0; op < 256; op++) {
		if (!t->per_opcode_pkts[op])
			continue;
		out_obj_begin(o, NULL);
		out_u64(o, "opcode", NULL, op);
		out_str(o, "op", NULL, rdiag_opcode_name((uint8_t)op));
		out_u64(o, "pkts", NULL, t->per_opcode_pkts[op]);
		out_u64(o, "bytes", NULL, t->per_opcode_bytes[op]);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

static void opcode_table_text(struct out *o, const struct rdiag_flow_total *t)
{
	out_text(o, "\n%-30s %9s %12s\n", "OPCODE", "PKTS", "BYTES");
	for (unsigned int op = 0; op < 256; op++)
		if (t->per_opcode_pkts[op])
			out_text(o, "%-30s %9" PRIu64 " %12" PRIu64 "\n",
				       rdiag_opcode_name((uint8_t)op), t->per_opcode_pkts[op],
				       t->per_opcode_bytes[op]);
}

#define DETAILS_ALL 64

bool dump_flow_troubled(const struct rdiag_flow_info *f)
{
	return f->psn_gaps || f->psn_dup || f->psn_retx || f->psn_ooo || f->psn_goback ||
	       f->loss.not_captured_gaps ||
	       naks(f->naks) || f->rnr_naks || f->icrc_bad || f->ecn_ce || f->cnp || f->reads_unanswered ||
	       f->truncated || f->invalid;
}

void dump_summary(struct out *o, struct rdiag_flow_table *ft,
		  const struct dump_summary_opts *so)
{
	struct rdiag_flow_total t;
	struct rdiag_flow_pause ps;
	struct rdiag_flow_info f;
	size_t n = rdiag_flow_count(ft), ncm = rdiag_flow_cm_count(ft), nsidr, i;
	bool json = out_json(o), fabric_marks;

	rdiag_flow_total(ft, &t);
	rdiag_flow_pause(ft, &ps);
	fabric_marks = t.ecn_ce || t.cnp;
	out_obj_begin(o, NULL);
	out_obj_begin(o, "summary");
	out_text(o, "== rdmadump summary ==\n");
	totals(o, &t, &ps, so ? so->max_flows : 0, so ? so->stats : NULL);
	if (so && so->stats && so->stats->have_drops) {
		out_obj_begin(o, "capture");
		out_u64(o, "received", "capture: %" PRIu64 " received by filter",
			      so->stats->received);
		out_u64(o, "dropped", ", %" PRIu64 " dropped by kernel", so->stats->dropped);
		out_u64(o, "if_dropped", ", %" PRIu64 " dropped by interface\n",
			      so->stats->if_dropped);
		out_obj_end(o);
	}
	pause_summary(o, ft, &ps, so ? so->link_bps : 0);
	if (!json)
		opcode_table_text(o, &t);
	out_text(o, "\n%-44s %7s %9s %4s %4s %4s %4s %4s %4s %4s %4s %4s %4s %4s %17s %17s\n",
		       "FLOW (src > dst, dest QP)", "PKTS", "BYTES", "GAP", "LOST", "NCAP", "RTRY",
		       "DUP", "OOO",
		       "NAK", "RNR", "CE", "CNP", "ICRC", "READ p50/p99", "ACK p50/p99");
	out_arr_begin(o, "flows");
	for (i = 0; i < n; i++) {
		if (rdiag_flow_get(ft, i, &f) < 0 || !wanted(so, &f))
			continue;
		if (json)
			flow_json(o, &f, fabric_marks);
		else
			flow_text(o, &f);
	}
	out_arr_end(o);
	if (!json) {
		/* with many flows only the ones with something wrong get their details */
		bool all = n <= DETAILS_ALL;

		out_text(o, all ? "\nper flow:\n" : "\nper flow, those with transport "
			       "problems (more than %d flows):\n", DETAILS_ALL);
		for (i = 0; i < n; i++)
			if (rdiag_flow_get(ft, i, &f) == 0 && wanted(so, &f) &&
			    (all || dump_flow_troubled(&f)))
				flow_details(o, &f, fabric_marks);
	}
	if (ncm)
		out_text(o, "\nCM connections (client > server, comm ID, service, QPs: state; "
			       "timeline from the first REQ):\n");
	out_arr_begin(o, "cm");
	for (i = 0; i < ncm; i++) {
		struct rdiag_cm_conn_info c;

		if (rdiag_flow_cm_get(ft, i, &c) == 0)
			cm_conn(o, &c);
	}
	out_arr_end(o);
	nsidr = rdiag_flow_sidr_count(ft);
	if (nsidr) {
		/* in the CM section: the exchanges of rdma_cm's UDP port space */
		out_text(o, "\nCM SIDR exchanges (client > server, request ID, service: the "
			       "answer):\n");
		out_arr_begin(o, "sidr");
		for (i = 0; i < nsidr; i++) {
			struct rdiag_sidr_info s;

			if (rdiag_flow_sidr_get(ft, i, &s) == 0)
				sidr_line(o, &s);
		}
		out_arr_end(o);
	}
	dump_mad_summary(o, ft);
	out_obj_end(o);
	out_obj_end(o);
}
