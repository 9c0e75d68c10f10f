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

#include "dump_mad.h"

enum {
	CLASS_SMP_LID = 0x01, CLASS_SA = 0x03, CLASS_PERF = 0x04, CLASS_CM = 0x07,
	CLASS_SMP_DR = 0x81,
	NOTICE_ATTR = 0x0002,
	STATUS_BUSY = 1 << 0, STATUS_REDIRECT = 1 << 1,
};

#define HAS(p, h) ((p)->present & RDIAG_HAS(RDIAG_HDR_##h))

static const char *class_prefix(unsigned int mgmt_class)
{
	switch (mgmt_class) {
	case CLASS_SMP_LID:
	case CLASS_SMP_DR:
		return "smp";
	case CLASS_SA:
		return "sa";
	case CLASS_PERF:
		return "perf";
	case CLASS_CM:
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
	if (a->attr_id == NOTICE_ATTR && strcmp(a->key, "notice") == 0 &&
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
		n = m->mgmt_class == CLASS_SA ? rdiag_sa_status_name(cls) : NULL;
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
	if (m->mgmt_class == CLASS_SA)
		out_arr_begin(o, key);
	for (unsigned int i = 0; i < m->n_records; i++) {
		if (v)
			out_text(o, "\n    %s", key);
		out_obj_begin(o, m->mgmt_class == CLASS_SA ? NULL : key);
		record(o, m->layout, data + m->data_off + (size_t)i * m->rec_stride, 0, v);
		out_obj_end(o);
	}
	if (m->mgmt_class == CLASS_SA)
		out_arr_end(o);
	if (!v && m->mgmt_class == CLASS_SA && (m->method & 0x80))
		out_text(o, " records %u", m->n_records);
}

void dump_mad_body(struct out *o, const struct rdiag_pkt *p, const uint8_t *data,
		   bool verbose)
{
	const struct rdiag_mad *m = &p->mad;
	bool cm = HAS(p, CM);

	if (!verbose && !cm && (m->dr ? m->status & 0x7FFF : m->status))
		out_text(o, " status 0x%04x", m->status);
	status(o, m, verbose || !cm);
	if (HAS(p, MAD_CLASS) && (m->mgmt_class == CLASS_SMP_LID ||
				  m->mgmt_class == CLASS_SMP_DR))
		smp_hdr(o, p, data, verbose);
	if (HAS(p, RMPP))
		rmpp_hdr(o, &m->rmpp, verbose);
	if (HAS(p, MAD_CLASS) && m->mgmt_class == CLASS_SA)
		sa_hdr(o, p, verbose);
	if (HAS(p, MAD_DATA) && m->layout)
		records(o, p, data, verbose);
}
