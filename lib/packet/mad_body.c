/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAD class headers and attribute data: where the records of an SMP, SA, PerfMgt or CM
 * LAP/APR/SIDR attribute are, checked through the cursor so that a body cut by the snap
 * length (truncated) and a MAD shorter on the wire than its layout (invalid) stay apart.
 * The fields themselves are read on demand with rdiag_mad_bits() from rdiag_mad.layout:
 * nothing here copies a body.
 *
 * MAD layout (IBTA vol 1 13.4.2, 14.2.1, 15.2.1, 16.1.1; the kernel's ib_mad.h, ib_smi.h,
 * ib_sa.h and ib_pma.h):
 *	0   common header (24)
 *	24  SMP: M_Key (8), DR: DrSLID DrDLID (2+2), reserved to 64; data 64..127 (64);
 *	    DR: initial path 128..191, return path 192..255
 *	24  SA: RMPP header (12), SM_Key (8), AttributeOffset (2), reserved (2),
 *	    ComponentMask (8); data 56..255 (200)
 *	24  PerfMgt: reserved (40); data 64..255 (192)
 *	24  CM: data 24..255 (232)
 *	24  vendor classes 0x30..0x4F: RMPP header (12) */
#include "internal.h"
#include "mad_fields.h"

enum {
	SMP_HDR_LEN = 40,		/* MAD bytes 24..63 */
	SMP_DATA_LEN = 64,
	SMP_PATH_LEN = 64,
	RMPP_HDR_LEN = 12,
	SA_HDR_LEN = 20,		/* after RMPP: SM_Key, AttributeOffset, ComponentMask */
	SA_DATA_LEN = 200,
	PERF_HDR_LEN = 40,
	CM_DATA_OFF = 24,
	RMPP_TYPE_DATA = 1,
	NOTICE_TRAP_NUMBER_OFF = 32,	/* bits */
};

/* one record of layout at the cursor: present, or the stop recorded */
static void one_record(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_mad_attr *a,
		       uint32_t len)
{
	struct rdiag_mad *m = &p->mad;
	uint32_t off = c->off;

	if (!rd_take(c, len)) {
		rd_stop(p, c, RDIAG_HDR_MAD_DATA);
		return;
	}
	m->layout = a;
	m->data_off = off;
	m->n_records = 1;
	m->rec_stride = (uint16_t)len;
	p->present |= RDIAG_HAS_MAD_DATA;
}

static void smp(struct rd_cur *c, struct rdiag_pkt *p)
{
	struct rdiag_mad *m = &p->mad;
	const struct rdiag_mad_attr *a, *t;
	const uint8_t *b;
	uint32_t data, len;

	if (m->mgmt_class == RDIAG_MAD_CLASS_SUBN_DIRECTED) {
		m->dr = true;
		m->d_bit = m->status >> 15;
		m->hop_ptr = (uint8_t)(m->class_specific >> 8);
		m->hop_cnt = (uint8_t)m->class_specific;
	}
	b = rd_take(c, SMP_HDR_LEN);
	if (!b) {
		rd_stop(p, c, RDIAG_HDR_MAD_CLASS);
		return;
	}
	m->m_key = rd_be64(b);
	if (m->dr) {
		m->dr_slid = rd_be16(b + 8);
		m->dr_dlid = rd_be16(b + 10);
	}
	p->present |= RDIAG_HAS_MAD_CLASS;
	a = rd_mad_smp_layout(m->attr_id);
	data = c->off;
	if (a) {
		len = a->len;
		/* a Notice is as long as the details of its trap */
		if (a->attr_id == RDIAG_MAD_ATTR_NOTICE) {
			b = rd_at(c, c->off, a->len);
			t = b && (b[0] & 0x80) ? rdiag_mad_notice_layout(
				(unsigned int)rdiag_mad_bits(b, NOTICE_TRAP_NUMBER_OFF, 16)) : NULL;
			if (t && t->len > len)
				len = t->len;
		}
		one_record(c, p, a, len);
	}
	if (!m->dr || c->err)
		return;
	/* the paths follow the whole 64-byte data */
	c->off = data;
	if (!rd_take(c, SMP_DATA_LEN) || !rd_take(c, 2 * SMP_PATH_LEN)) {
		rd_stop(p, c, RDIAG_HDR_MAD_CLASS);
		return;
	}
	m->path_off = data + SMP_DATA_LEN;
}

static void rmpp(struct rd_cur *c, struct rdiag_pkt *p)
{
	struct rdiag_rmpp *r = &p->mad.rmpp;
	const uint8_t *b = rd_take(c, RMPP_HDR_LEN);

	if (!b) {
		rd_stop(p, c, RDIAG_HDR_RMPP);
		return;
	}
	r->version = b[0];
	r->type = b[1];
	r->resp_time = b[2] >> 3;
	r->flags = b[2] & 7;
	r->status = b[3];
	r->seg_num = rd_be32(b + 4);
	r->paylen = rd_be32(b + 8);
	p->present |= RDIAG_HAS_RMPP;
}

/* the complete records of this segment: a table segmented by RMPP is one run of records
 * attr_offset * 8 bytes apart across the 200-byte data of every segment */
static void sa_records(struct rd_cur *c, struct rdiag_pkt *p, const struct rdiag_mad_attr *a)
{
	struct rdiag_mad *m = &p->mad;
	const struct rdiag_rmpp *r = &m->rmpp;
	uint32_t stride = (uint32_t)m->attr_offset * 8, avail = SA_DATA_LEN, pos = 0, first = 0;
	uint32_t off, n = 0, cap;

	if (!stride || !(r->flags & RDIAG_RMPP_FLAG_ACTIVE)) {
		one_record(c, p, a, a->len);	/* a request's template, or a single record */
		return;
	}
	if (stride < a->len) {
		/* the SA says its records are shorter than the attribute */
		c->err = RD_INVAL;
		rd_stop(p, c, RDIAG_HDR_MAD_DATA);
		return;
	}
	if (r->type == RMPP_TYPE_DATA && r->seg_num > 1)
		pos = (r->seg_num - 1) * SA_DATA_LEN;
	if (r->type == RMPP_TYPE_DATA && (r->flags & RDIAG_RMPP_FLAG_LAST) &&
	    r->paylen >= SA_HDR_LEN && r->paylen - SA_HDR_LEN < SA_DATA_LEN)
		avail = r->paylen - SA_HDR_LEN;
	first = (pos + stride - 1) / stride;
	off = first * stride - pos;
	while (off + n * stride + a->len <= avail)
		n++;
	if (!n)
		return;		/* a segment with only the middle of a record */
	if (rd_need(c, off + (n - 1) * stride + a->len)) {
		/* keep what the capture holds whole */
		cap = rd_left_cap(c);
		if (c->err != RD_TRUNC || cap < off + a->len) {
			rd_stop(p, c, RDIAG_HDR_MAD_DATA);
			return;
		}
		n = (cap - off - a->len) / stride + 1;
		rd_stop(p, c, RDIAG_HDR_MAD_DATA);
	}
	m->layout = a;
	m->data_off = c->off + off;
	m->n_records = (uint16_t)n;
	m->rec_stride = (uint16_t)stride;
	m->first_record = first;
	p->present |= RDIAG_HAS_MAD_DATA;
}

static void sa(struct rd_cur *c, struct rdiag_pkt *p)
{
	struct rdiag_mad *m = &p->mad;
	const struct rdiag_mad_attr *a;
	const uint8_t *b;

	rmpp(c, p);
	if (c->err)
		return;
	b = rd_take(c, SA_HDR_LEN);
	if (!b) {
		rd_stop(p, c, RDIAG_HDR_MAD_CLASS);
		return;
	}
	m->sm_key = rd_be64(b);
	m->attr_offset = rd_be16(b + 8);
	m->comp_mask = rd_be64(b + 12);
	p->present |= RDIAG_HAS_MAD_CLASS;
	a = rd_mad_sa_layout(m->attr_id);
	if (a && !(m->rmpp.type > RMPP_TYPE_DATA))	/* ACK, STOP, ABORT carry no records */
		sa_records(c, p, a);
}

static void perf(struct rd_cur *c, struct rdiag_pkt *p)
{
	const struct rdiag_mad_attr *a;

	if (!rd_take(c, PERF_HDR_LEN)) {
		rd_stop(p, c, RDIAG_HDR_MAD_CLASS);
		return;
	}
	p->present |= RDIAG_HAS_MAD_CLASS;
	a = rd_mad_perf_layout(p->mad.attr_id);
	if (a)
		one_record(c, p, a, a->len);
}

void rd_decode_mad_class(struct rd_cur *c, struct rdiag_pkt *p, uint32_t mad_off)
{
	const struct rdiag_mad_attr *a;
	struct rd_cur d;

	if (p->mad.base_version != 1)
		return;
	switch (p->mad.mgmt_class) {
	case RDIAG_MAD_CLASS_SUBN_LID_ROUTED:
	case RDIAG_MAD_CLASS_SUBN_DIRECTED:
		smp(c, p);
		break;
	case RDIAG_MAD_CLASS_SUBN_ADM:
		sa(c, p);
		break;
	case RDIAG_MAD_CLASS_PERF:
		perf(c, p);
		break;
	case RDIAG_MAD_CLASS_CM:
		/* mad.c read the key fields; LAP, APR and SIDR are laid out in full */
		a = rd_mad_cm_layout(p->mad.attr_id);
		if (!a || c->err)
			break;
		d = *c;
		d.off = mad_off + CM_DATA_OFF;
		one_record(&d, p, a, a->len);
		break;
	default:
		if (p->mad.mgmt_class >= RDIAG_MAD_CLASS_VENDOR_RANGE2_START &&
		    p->mad.mgmt_class <= RDIAG_MAD_CLASS_VENDOR_RANGE2_END)
			rmpp(c, p);
		break;
	}
}
