/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: the MAD names, status fields, SMP / RMPP / SA headers and attribute records.
 *
 * The method and attribute names are printed with the common header (dump_print.c).
 * JSON (inside "mad", rdmadump(1) "MAD BODIES"): each record is an object named after its
 * class and attribute ("smp_port_info", "perf_port_counters", "cm_lap"; SA records are an
 * array, "sa_path_record"), with the IBTA field names in snake_case; values wider than 32
 * bits are "0x" strings, GIDs text, a field with named values gets "<field>_name" too.
 * Text: -v one line per header and per record with every field. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "dump.h"
#include "mad.h"
#include "dur.h"
#include "rdmadiag/flow.h"

enum {
	STATUS_BUSY = 1 << 0, STATUS_REDIRECT = 1 << 1,
};

#define HAS(p, h) ((p)->present & RDIAG_HAS(RDIAG_HDR_##h))

static const char *class_prefix(unsigned int mgmt_class)
{
	switch (mgmt_class) {
	case RDIAG_MAD_CLASS_SUBN_LID_ROUTED:
	case RDIAG_MAD_CLASS_SUBN_DIRECTED:
		return "smp";
	case RDIAG_MAD_CLASS_SUBN_ADM:
		return "sa";
	case RDIAG_MAD_CLASS_PERF:
		return "perf";
	case RDIAG_MAD_CLASS_CM:
		return "cm";
	default:
		return "mad";
	}
}

static void field_value(struct out *o, const struct rdiag_mad_field *f, const uint8_t *rec,
			unsigned int off, const char *key, bool text)
{
	char buf[INET6_ADDRSTRLEN + 72];
	uint64_t v;

	switch (f->kind) {
	case RDIAG_MF_GID:
		inet_ntop(AF_INET6, rec + off / 8, buf, INET6_ADDRSTRLEN);
		out_str(o, key, text ? "%s" : NULL, buf);
		return;
	case RDIAG_MF_TEXT: {
		size_t n = f->bits / 8;

		if (n > sizeof(buf) - 1)
			n = sizeof(buf) - 1;
		memcpy(buf, rec + off / 8, n);
		buf[n] = '\0';
		out_str(o, key, text ? "\"%s\"" : NULL, buf);
		return;
	}
	default:
		v = rdiag_mad_bits(rec, off, f->bits);
		if (f->bits > 32) {
			char fmt[16];

			/* text: as many hex digits as the field has */
			snprintf(fmt, sizeof(fmt), "0x%%0%u" PRIx64, (f->bits + 3) / 4);
			out_hex64(o, key, text ? fmt : NULL, v);
		}
		else
			out_u64(o, key, text ? "%" PRIu64 : NULL, v);
		return;
	}
}

static void record(struct out *o, const struct rdiag_mad_attr *a, const uint8_t *rec,
		   unsigned int base, bool text);

static void fields(struct out *o, const struct rdiag_mad_attr *a, const uint8_t *rec,
		   unsigned int base, bool text)
{
	for (unsigned int i = 0; i < a->n_fields; i++) {
		const struct rdiag_mad_field *f = &a->fields[i];
		unsigned int off = base + f->off;

		if (f->kind == RDIAG_MF_RESERVED)
			continue;
		if (f->kind == RDIAG_MF_SUB) {
			if (text)
				out_text(o, " %s {", f->name);
			out_obj_begin(o, f->name);
			record(o, f->sub, rec, off, text);
			out_obj_end(o);
			if (text)
				out_text(o, " }");
			continue;
		}
		if (text)
			out_text(o, " %s ", f->name);
		if (f->count) {
			out_arr_begin(o, f->name);
			for (unsigned int k = 0; k < f->count; k++) {
				if (text && k)
					out_text(o, ",");
				field_value(o, f, rec, off + k * f->stride, NULL, text);
			}
			out_arr_end(o);
			continue;
		}
		field_value(o, f, rec, off, f->name, text);
		if (f->vname) {
			const char *n = f->vname((unsigned int)rdiag_mad_bits(rec, off, f->bits));
			char key[64];

			if (n) {
				snprintf(key, sizeof(key), "%s_name", f->name);
				out_str(o, key, text ? " (%s)" : NULL, n);
			}
		}
	}
}

static void record(struct out *o, const struct rdiag_mad_attr *a, const uint8_t *rec,
		   unsigned int base, bool text)
{
	const struct rdiag_mad_attr *t;

	fields(o, a, rec, base, text);
	/* a generic Notice: the details of its trap */
	if (a->attr_id == RDIAG_MAD_ATTR_NOTICE && strcmp(a->key, "notice") == 0 &&
	    rdiag_mad_bits(rec, base, 1) &&
	    (t = rdiag_mad_notice_layout((unsigned int)rdiag_mad_bits(rec, base + 32, 16)))) {
		if (text)
			out_text(o, " %s {", t->key);
		out_obj_begin(o, t->key);
		fields(o, t, rec, base, text);
		out_obj_end(o);
		if (text)
			out_text(o, " }");
	}
}

static void status(struct out *o, const struct rdiag_mad *m, bool text)
{
	/* a directed-route SMP's bit 15 is the direction, not status */
	unsigned int st = m->dr ? m->status & 0x7FFF : m->status;
	unsigned int code = (st >> 2) & 7, cls = st >> 8;
	const char *n = rdiag_mad_status_code_name(code);

	if (!st)
		return;
	out_obj_begin(o, "status_fields");
	out_bool(o, "busy", text && (st & STATUS_BUSY) ? " busy" : NULL,
		 st & STATUS_BUSY);
	out_bool(o, "redirect", text && (st & STATUS_REDIRECT) ? " redirect" : NULL,
		 st & STATUS_REDIRECT);
	out_u64(o, "code", NULL, code);
	if (n)
		out_str(o, "code_name", text ? " %s" : NULL, n);
	else if (code && text)
		out_text(o, " code %u", code);
	out_u64(o, "class_code", NULL, cls);
	if (cls) {
		n = m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM ? rdiag_sa_status_name(cls) : NULL;
		if (n)
			out_str(o, "class_code_name", text ? " %s" : NULL, n);
		else if (text)
			out_text(o, " class_code %u", cls);
	}
	out_obj_end(o);
}

static void dr_path(struct out *o, const char *key, const uint8_t *path, unsigned int hops,
		    bool text)
{
	/* entry 0 is unused; entries 1..hop_cnt are the ports, at most 63 */
	if (hops > 63)
		hops = 63;
	if (text)
		out_text(o, " %s ", key);
	out_arr_begin(o, key);
	for (unsigned int i = 1; i <= hops; i++)
		out_u64(o, NULL, text ? (i > 1 ? ",%" PRIu64 : "%" PRIu64) : NULL, path[i]);
	out_arr_end(o);
	if (text && !hops)
		out_text(o, "-");
}

static void smp_hdr(struct out *o, const struct rdiag_pkt *p, const uint8_t *data, bool v)
{
	const struct rdiag_mad *m = &p->mad;

	out_hex64(o, "m_key", v ? "\n    smp m_key 0x%016" PRIx64 : NULL, m->m_key);
	if (!m->dr)
		return;
	out_obj_begin(o, "dr");
	out_u64(o, "d", v ? " dr d %" PRIu64 : NULL, m->d_bit);
	out_u64(o, "hop_ptr", v ? " hop_ptr %" PRIu64 : " hop %" PRIu64, m->hop_ptr);
	out_u64(o, "hop_cnt", v ? " hop_cnt %" PRIu64 : "/%" PRIu64, m->hop_cnt);
	out_u64(o, "dr_slid", v ? " dr_slid %" PRIu64 : NULL, m->dr_slid);
	out_u64(o, "dr_dlid", v ? " dr_dlid %" PRIu64 : NULL, m->dr_dlid);
	if (m->path_off) {
		dr_path(o, "initial_path", data + m->path_off, m->hop_cnt, v);
		dr_path(o, "return_path", data + m->path_off + 64, m->hop_cnt, v);
	}
	out_obj_end(o);
}

static void rmpp_hdr(struct out *o, const struct rdiag_rmpp *r, bool v)
{
	const char *t = rdiag_rmpp_type_name(r->type);

	out_obj_begin(o, "rmpp");
	out_u64(o, "version", v ? "\n    rmpp version %" PRIu64 : NULL, r->version);
	out_u64(o, "type", v ? " type %" PRIu64 : NULL, r->type);
	if (t)
		out_str(o, "type_name", v ? " (%s)" : NULL, t);
	out_u64(o, "resp_time", v ? " resp_time %" PRIu64 : NULL, r->resp_time);
	out_u64(o, "flags", v ? " flags 0x%" PRIx64 : NULL, r->flags);
	out_bool(o, "active", NULL, r->flags & RDIAG_RMPP_FLAG_ACTIVE);
	out_bool(o, "first", NULL, r->flags & RDIAG_RMPP_FLAG_FIRST);
	out_bool(o, "last", NULL, r->flags & RDIAG_RMPP_FLAG_LAST);
	out_u64(o, "status", v ? " status %" PRIu64 : NULL, r->status);
	out_u64(o, "seg_num", v ? " seg_num %" PRIu64 : NULL, r->seg_num);
	out_u64(o, "paylen", v ? " paylen %" PRIu64 : NULL, r->paylen);
	out_obj_end(o);
	if (!v && (r->flags & RDIAG_RMPP_FLAG_ACTIVE) && t)
		out_text(o, " rmpp %s seg %u%s%s", t, r->seg_num,
			 r->flags & RDIAG_RMPP_FLAG_FIRST ? " first" : "",
			 r->flags & RDIAG_RMPP_FLAG_LAST ? " last" : "");
}

static void sa_hdr(struct out *o, const struct rdiag_pkt *p, bool v)
{
	const struct rdiag_mad *m = &p->mad;
	const struct rdiag_mad_attr *a = rdiag_mad_layout(m->mgmt_class, m->attr_id);

	out_obj_begin(o, "sa");
	out_hex64(o, "sm_key", v ? "\n    sa sm_key 0x%016" PRIx64 : NULL, m->sm_key);
	out_u64(o, "attr_offset", v ? " attr_offset %" PRIu64 : NULL, m->attr_offset);
	out_hex64(o, "component_mask", v ? " component_mask 0x%016" PRIx64 : NULL,
		  m->comp_mask);
	out_arr_begin(o, "components");
	for (unsigned int b = 0; b < 64; b++) {
		const char *n;
		char tmp[16];

		if (!(m->comp_mask & (UINT64_C(1) << b)))
			continue;
		n = rdiag_mad_comp_name(a, b);
		if (!n) {
			snprintf(tmp, sizeof(tmp), "bit%u", b);
			n = tmp;
		}
		out_str(o, NULL, v ? " %s" : NULL, n);
	}
	out_arr_end(o);
	if (HAS(p, MAD_DATA) && m->first_record)
		out_u64(o, "first_record", v ? " first_record %" PRIu64 : NULL, m->first_record);
	out_obj_end(o);
}

static void records(struct out *o, const struct rdiag_pkt *p, const uint8_t *data, bool v)
{
	const struct rdiag_mad *m = &p->mad;
	const char *pre = class_prefix(m->mgmt_class);
	char key[64];

	snprintf(key, sizeof(key), "%s_%s", pre, m->layout->key);
	if (m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM)
		out_arr_begin(o, key);
	for (unsigned int i = 0; i < m->n_records; i++) {
		if (v)
			out_text(o, "\n    %s", key);
		out_obj_begin(o, m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM ? NULL : key);
		record(o, m->layout, data + m->data_off + (size_t)i * m->rec_stride, 0, v);
		out_obj_end(o);
	}
	if (m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM)
		out_arr_end(o);
	if (!v && m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM && (m->method & 0x80))
		out_text(o, " records %u", m->n_records);
}

/* the whole data of an RMPP transfer this segment completed: its size and, for an SA table
 * of a known attribute, every record (those split across two segments included) */
static void reassembled(struct out *o, const struct rdiag_pkt *p,
			const struct rdiag_flow_verdict *v, bool verbose)
{
	const struct rdiag_mad *m = &p->mad;
	const struct rdiag_mad_attr *a = m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM ?
		rdiag_mad_layout(m->mgmt_class, m->attr_id) : NULL;
	uint32_t stride = (uint32_t)m->attr_offset * 8, n = 0;
	char key[64];

	if (a && stride >= a->len && v->rmpp_len >= a->len)
		n = (v->rmpp_len - a->len) / stride + 1;
	out_obj_begin(o, "rmpp_reassembled");
	out_u64(o, "segments", verbose ? "\n    reassembled segments %" PRIu64 : NULL,
		v->rmpp_segments);
	out_u64(o, "length", verbose ? " length %" PRIu64 : NULL, v->rmpp_len);
	if (a) {
		out_u64(o, "records", verbose ? " records %" PRIu64 :
			" reassembled %" PRIu64 " records", n);
		snprintf(key, sizeof(key), "%s_%s", class_prefix(m->mgmt_class), a->key);
		out_arr_begin(o, key);
		for (uint32_t i = 0; i < n; i++) {
			if (verbose)
				out_text(o, "\n      %s", key);
			out_obj_begin(o, NULL);
			record(o, a, v->rmpp_data + (size_t)i * stride, 0, verbose);
			out_obj_end(o);
		}
		out_arr_end(o);
	} else if (!verbose) {
		out_text(o, " reassembled %" PRIu32 " bytes", v->rmpp_len);
	}
	out_obj_end(o);
}

void dump_mad_body(struct out *o, const struct rdiag_pkt *p, const uint8_t *data,
		   const struct rdiag_flow_verdict *v, bool verbose)
{
	const struct rdiag_mad *m = &p->mad;
	bool cm = HAS(p, CM);

	if (!verbose && !cm && (m->dr ? m->status & 0x7FFF : m->status))
		out_text(o, " status 0x%04x", m->status);
	status(o, m, verbose || !cm);
	if (HAS(p, MAD_CLASS) && (m->mgmt_class == RDIAG_MAD_CLASS_SUBN_LID_ROUTED ||
				  m->mgmt_class == RDIAG_MAD_CLASS_SUBN_DIRECTED))
		smp_hdr(o, p, data, verbose);
	if (HAS(p, RMPP))
		rmpp_hdr(o, &m->rmpp, verbose);
	if (HAS(p, MAD_CLASS) && m->mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM)
		sa_hdr(o, p, verbose);
	if (HAS(p, MAD_DATA) && m->layout)
		records(o, p, data, verbose);
	if (v && (v->flags & RDIAG_FV_RMPP_DONE) && v->rmpp_data)
		reassembled(o, p, v, verbose);
}

/* ---- summary ------------------------------------------------------------------------------ */

static const char *short_class(unsigned int c)
{
	const char *n = rdiag_mad_class_name(c);

	return n ? n : "?";
}

static void latency(struct out *o, const struct rdiag_latency *l)
{
	char a[24], b[24], c[24], d[24];

	out_obj_begin(o, "latency");
	out_u64(o, "n", NULL, l->n);
	out_u64(o, "min_ns", NULL, l->min_ns);
	out_u64(o, "median_ns", NULL, l->median_ns);
	out_u64(o, "p99_ns", NULL, l->p99_ns);
	out_u64(o, "max_ns", NULL, l->max_ns);
	out_dbl(o, "mean_ns", NULL, l->mean_ns);
	out_obj_end(o);
	out_text(o, "; latency min/p50/p99/max %s/%s/%s/%s", dump_dur_ns(a, sizeof(a), l->min_ns),
		 dump_dur_ns(b, sizeof(b), l->median_ns), dump_dur_ns(c, sizeof(c), l->p99_ns),
		 dump_dur_ns(d, sizeof(d), l->max_ns));
}

static void stats(struct out *o, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_mad_stat_count(ft);

	if (n)
		out_text(o, "\nMAD transactions (class attribute: requests, answered, unanswered, "
			 "retries, error statuses; response latency):\n");
	out_arr_begin(o, "transactions");
	for (size_t i = 0; i < n; i++) {
		struct rdiag_mad_stat s;
		const char *a;

		if (rdiag_flow_mad_stat_get(ft, i, &s) < 0)
			continue;
		a = rdiag_mad_attr_name(s.mgmt_class, s.attr_id);
		out_obj_begin(o, NULL);
		out_u64(o, "mgmt_class", NULL, s.mgmt_class);
		out_str(o, "class", "  %s", short_class(s.mgmt_class));
		out_u64(o, "attr_id", a ? NULL : " 0x%04" PRIx64, s.attr_id);
		if (a)
			out_str(o, "attr_name", " %s", a);
		out_u64(o, "requests", ": %" PRIu64 " requests", s.requests);
		out_u64(o, "answered", ", %" PRIu64 " answered", s.answered);
		out_u64(o, "unanswered", ", %" PRIu64 " unanswered", s.unanswered);
		out_u64(o, "retries", ", %" PRIu64 " retries", s.retries);
		out_u64(o, "error_status", ", %" PRIu64 " error statuses", s.error_status);
		out_u64(o, "unmatched", s.unmatched ? ", %" PRIu64 " responses to no request seen" :
			NULL, s.unmatched);
		if (s.lat.n)
			latency(o, &s.lat);
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void txn_head(struct out *o, const struct rdiag_mad_txn *t, const char *lead)
{
	char a[64], b[64];
	const char *mn = rdiag_mad_method_name(t->method);
	const char *an = rdiag_mad_attr_name(t->mgmt_class, t->attr_id);

	out_text(o, "%s", lead);
	out_str(o, "requester", "%s", rdiag_flow_addr_str(t->kind, t->requester, a, sizeof(a)));
	out_str(o, "responder", " > %s", rdiag_flow_addr_str(t->kind, t->responder, b,
								sizeof(b)));
	out_u64(o, "mgmt_class", NULL, t->mgmt_class);
	out_str(o, "class", " %s", short_class(t->mgmt_class));
	out_u64(o, "method", mn ? NULL : " method 0x%02" PRIx64, t->method);
	if (mn)
		out_str(o, "method_name", " %s", mn);
	out_u64(o, "attr_id", an ? NULL : " attr 0x%04" PRIx64, t->attr_id);
	if (an)
		out_str(o, "attr_name", " %s", an);
	out_hex64(o, "tid", " tid 0x%016" PRIx64, t->tid);
	out_u64(o, "sends", ": sent %" PRIu64 " time(s)", t->sends);
}

static void retries(struct out *o, const struct rdiag_mad_txn *t)
{
	char a[24], b[24];

	if (t->sends < 2)
		return;
	out_u64(o, "retry_gap_min_ns", NULL, t->retry_gap_min_ns);
	out_u64(o, "retry_gap_max_ns", NULL, t->retry_gap_max_ns);
	if (t->retry_gap_min_ns == t->retry_gap_max_ns)
		out_text(o, ", every %s", dump_dur_ns(a, sizeof(a), t->retry_gap_min_ns));
	else
		out_text(o, ", %s to %s apart", dump_dur_ns(a, sizeof(a), t->retry_gap_min_ns),
			 dump_dur_ns(b, sizeof(b), t->retry_gap_max_ns));
}

static void unanswered(struct out *o, struct rdiag_flow_table *ft, bool title)
{
	size_t n = rdiag_flow_mad_txn_count(ft), k = 0;
	struct rdiag_mad_txn t;

	for (size_t i = 0; i < n; i++)
		k += rdiag_flow_mad_txn_get(ft, i, &t) == 0 && !t.answered;
	if (k && title)
		out_text(o, "\nunanswered MAD requests (no response in the capture):\n");
	if (title)
		out_arr_begin(o, "unanswered");
	for (size_t i = 0; i < n; i++) {
		if (rdiag_flow_mad_txn_get(ft, i, &t) < 0 || t.answered)
			continue;
		if (title)
			out_obj_begin(o, NULL);
		else {
			out_obj_begin(o, NULL);
			out_obj_begin(o, "mad_unanswered");
		}
		txn_head(o, &t, title ? "  " : "MAD unanswered: ");
		retries(o, &t);
		out_text(o, ", no response\n");
		out_obj_end(o);
		if (!title)
			out_obj_end(o);
	}
	if (title)
		out_arr_end(o);
}

static void path_records(struct out *o, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_mad_txn_count(ft), k = 0;
	struct rdiag_mad_txn t;
	char g[INET6_ADDRSTRLEN], a[64], d[24];

	for (size_t i = 0; i < n; i++)
		k += rdiag_flow_mad_txn_get(ft, i, &t) == 0 && t.mgmt_class == RDIAG_MAD_CLASS_SUBN_ADM &&
			t.attr_id == RDIAG_MAD_ATTR_PATH_RECORD;
	if (k)
		out_text(o, "\nSA PathRecord queries (who asked for which destination, the answer, "
			 "the CM REQ that followed):\n");
	out_arr_begin(o, "path_records");
	for (size_t i = 0; i < n; i++) {
		if (rdiag_flow_mad_txn_get(ft, i, &t) < 0 || t.mgmt_class != RDIAG_MAD_CLASS_SUBN_ADM ||
		    t.attr_id != RDIAG_MAD_ATTR_PATH_RECORD)
			continue;
		out_obj_begin(o, NULL);
		out_str(o, "requester", "  %s", rdiag_flow_addr_str(t.kind, t.requester, a,
								     sizeof(a)));
		out_str(o, "method_name", " %s", rdiag_mad_method_name(t.method) ?
			rdiag_mad_method_name(t.method) : "?");
		out_hex64(o, "tid", " tid 0x%016" PRIx64, t.tid);
		if (t.pr_asked) {
			inet_ntop(AF_INET6, t.pr_dgid, g, sizeof(g));
			out_str(o, "dgid", " for %s", g);
		}
		out_u64(o, "sends", NULL, t.sends);
		out_bool(o, "answered", NULL, t.answered);
		if (!t.answered) {
			out_text(o, ": no answer (sent %u time(s))", t.sends);
			if (t.method == 0x01 || t.method == 0x12)
				out_text(o, ": rdma_resolve_route would fail with a timeout");
		} else if (t.status) {
			const char *sn = rdiag_sa_status_name(t.status >> 8);

			out_u64(o, "status", ": status 0x%04" PRIx64, t.status);
			if (sn)
				out_str(o, "status_name", " %s", sn);
			out_u64(o, "latency_ns", NULL, t.latency_ns);
		} else {
			out_u64(o, "latency_ns", NULL, t.latency_ns);
			out_text(o, ": answered in %s", dump_dur_ns(d, sizeof(d), t.latency_ns));
			if (t.pr_answer) {
				out_obj_begin(o, "answer");
				inet_ntop(AF_INET6, t.pr_ans_dgid, g, sizeof(g));
				out_str(o, "dgid", NULL, g);
				out_u64(o, "dlid", " (dlid %" PRIu64, t.pr_dlid);
				out_u64(o, "p_key", " p_key 0x%04" PRIx64, t.pr_pkey);
				out_u64(o, "sl", " sl %" PRIu64, t.pr_sl);
				out_u64(o, "mtu", " mtu %" PRIu64 ")", rdiag_mtu_bytes(t.pr_mtu));
				out_obj_end(o);
			}
		}
		if (t.req_seen) {
			out_obj_begin(o, "cm_req");
			out_u64(o, "after_ns", NULL, t.req_ns - (t.answered ? t.resp_ns : t.first_ns));
			out_u64(o, "p_key", NULL, t.req_pkey);
			out_obj_end(o);
			if (t.pr_answer && (t.req_pkey & 0x7FFF) == (t.pr_pkey & 0x7FFF))
				out_text(o, "; the REQ to it %s later used it (P_Key 0x%04x)",
					 dump_dur_ns(d, sizeof(d), t.req_ns - t.resp_ns), t.req_pkey);
			else if (t.pr_answer)
				out_text(o, "; the REQ to it %s later has P_Key 0x%04x, not the "
					 "PathRecord's", dump_dur_ns(d, sizeof(d), t.req_ns - t.resp_ns),
					 t.req_pkey);
			else
				out_text(o, "; a REQ went to it %s later without a PathRecord answer",
					 dump_dur_ns(d, sizeof(d), t.req_ns - t.first_ns));
		}
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
}

/* a PortInfo PortState code of 0..4; "?" for the others (ACTIVE_DEFER included) */
static const char *port_state_str(unsigned int s)
{
	return s < RDIAG_PORT_ACTIVE_DEFER ? rdiag_port_state_name((uint8_t)s) : "?";
}

static void events(struct out *o, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_fabric_event_count(ft);
	char ts[48];

	if (n)
		out_text(o, "\nfabric events (SMP traps, port state changes in PortInfo):\n");
	out_arr_begin(o, "fabric_events");
	for (size_t i = 0; i < n; i++) {
		struct rdiag_fabric_event e;

		if (rdiag_flow_fabric_event_get(ft, i, &e) < 0)
			continue;
		out_obj_begin(o, NULL);
		dump_time(ts, sizeof(ts), e.ts_ns / 1000000000u, (uint32_t)(e.ts_ns % 1000000000u));
		out_text(o, "  %s", ts);
		out_u64(o, "ts_ns", NULL, e.ts_ns);
		if (e.what == RDIAG_FE_TRAP) {
			const struct rdiag_mad_attr *t = rdiag_mad_notice_layout(e.trap_number);

			out_str(o, "what", NULL, "trap");
			out_u64(o, "trap_number", " trap %" PRIu64, e.trap_number);
			if (t)
				out_str(o, "trap_name", " %s", t->name);
			out_u64(o, "issuer_lid", " from lid %" PRIu64, e.issuer_lid);
			if (e.lid)
				out_u64(o, "lid", " (lid %" PRIu64 ")", e.lid);
		} else {
			out_str(o, "what", NULL, "port_state");
			out_u64(o, "lid", " port lid %" PRIu64, e.lid);
			out_u64(o, "port", "/%" PRIu64, e.port);
			out_u64(o, "old_state", NULL, e.old_state);
			out_u64(o, "new_state", NULL, e.new_state);
			out_str(o, "old_state_name", " %s", port_state_str(e.old_state));
			out_str(o, "new_state_name", " -> %s", port_state_str(e.new_state));
		}
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void mismatches(struct out *o, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_key_mismatch_count(ft);
	char a[64], b[64];

	if (n)
		out_text(o, "\nkey mismatches (the data plane against what the control plane "
			 "gave):\n");
	out_arr_begin(o, "key_mismatches");
	for (size_t i = 0; i < n; i++) {
		struct rdiag_key_mismatch x;
		static const char *const what[] = { "?", "qkey_sidr", "pkey_req", "pkey_path" };

		if (rdiag_flow_key_mismatch_get(ft, i, &x) < 0)
			continue;
		out_obj_begin(o, NULL);
		out_str(o, "what", NULL, what[x.what < 4 ? x.what : 0]);
		out_str(o, "src", "  %s", rdiag_flow_addr_str(x.kind, x.src, a, sizeof(a)));
		out_str(o, "dst", " > %s", rdiag_flow_addr_str(x.kind, x.dst, b, sizeof(b)));
		out_u64(o, "destqp", " qp 0x%06" PRIx64, x.destqp);
		if (x.what == RDIAG_KEY_QKEY_SIDR) {
			out_u64(o, "seen", ": DETH Q_Key 0x%08" PRIx64, x.seen);
			out_u64(o, "expected", ", the SIDR_REP gave 0x%08" PRIx64, x.expected);
		} else if (x.what == RDIAG_KEY_PKEY_REQ) {
			out_u64(o, "seen", ": BTH P_Key 0x%04" PRIx64, x.seen);
			out_u64(o, "expected", ", the CM REQ gave 0x%04" PRIx64, x.expected);
		} else {
			out_u64(o, "seen", ": the CM REQ's P_Key 0x%04" PRIx64, x.seen);
			out_u64(o, "expected", ", the PathRecord it used gave 0x%04" PRIx64,
				x.expected);
		}
		out_u64(o, "packets", " (%" PRIu64 " packet(s))\n", x.packets);
		out_u64(o, "first_ns", NULL, x.first_ns);
		out_obj_end(o);
	}
	out_arr_end(o);
}

void dump_mad_summary(struct out *o, struct rdiag_flow_table *ft)
{
	if (!rdiag_flow_mad_txn_count(ft) && !rdiag_flow_fabric_event_count(ft) &&
	    !rdiag_flow_key_mismatch_count(ft))
		return;
	out_obj_begin(o, "mad");
	stats(o, ft);
	unanswered(o, ft, true);
	path_records(o, ft);
	events(o, ft);
	mismatches(o, ft);
	out_obj_end(o);
}

void dump_mad_unanswered(struct out *o, struct rdiag_flow_table *ft)
{
	unanswered(o, ft, false);
}
