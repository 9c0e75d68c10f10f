/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MADs on QP0/QP1: the 24-byte common header, and for the CM class (0x07) the key fields of
 * REQ, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ and SIDR_REP plus the rdma_cm IP private
 * data header.
 *
 * Offsets are bytes from the start of the CM message body (MAD byte 24), as laid out in
 * IBTA vol 1 ch. 12 tables 106-120 (the kernel's ibta_vol1_c12.h describes the same
 * layout).  Sub-byte fields are counted from the most significant bit of their byte. */
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "internal.h"

enum {
	CM_REQ_LEN = 140, CM_REQ_PRIV = 92,
	CM_MRA_LEN = 10,
	CM_REJ_LEN = 84,
	CM_REP_LEN = 36,
	CM_RTU_LEN = 8,
	CM_DREQ_LEN = 12,
	CM_DREP_LEN = 8,
	CM_SIDR_REQ_LEN = 16,
	CM_SIDR_REP_LEN = 96,
	CMA_HDR_LEN = 36,	/* rdma_cm: version, ip version, port, src[16], dst[16] */
	CM_BODY_LEN = RD_MAD_LEN - RD_MAD_HDR_LEN,
};

/* RDMA IP service IDs: 0x00000000_01PP_PPPP where the port space is 0x01xx (cma.c) */
static void split_service_id(struct rdiag_cm *cm)
{
	cm->sid_is_ip = (cm->service_id & 0xFFFFFFFFFF000000ULL) == 0x0000000001000000ULL;
	if (cm->sid_is_ip) {
		cm->port_space = (uint16_t)(cm->service_id >> 16);
		cm->port = (uint16_t)cm->service_id;
	}
}

/* the rdma_cm header at the start of REQ / SIDR_REQ private data */
static void decode_cma_hdr(struct rdiag_cm *cm, const uint8_t *b)
{
	unsigned int ipv = b[1] >> 4;

	if (ipv != 4 && ipv != 6)
		return;
	cm->has_ip = true;
	cm->ip_cma_version = b[0];
	cm->ip_src_port = rd_be16(b + 2);
	if (ipv == 4) {
		cm->ip_family = AF_INET;
		memcpy(cm->ip_src, b + 4 + 12, 4);
		memcpy(cm->ip_dst, b + 20 + 12, 4);
	} else {
		cm->ip_family = AF_INET6;
		memcpy(cm->ip_src, b + 4, 16);
		memcpy(cm->ip_dst, b + 20, 16);
	}
}

/* record where the private data is and how much of it was captured */
static const uint8_t *priv_data(struct rd_cur *c, struct rdiag_cm *cm, uint32_t max)
{
	uint32_t n = rd_left_cap(c);

	if (n > max)
		n = max;
	cm->priv_off = c->off;
	cm->priv_len = n;
	return rd_at(c, c->off, n);
}

static void decode_req(struct rdiag_cm *cm, const uint8_t *b)
{
	cm->local_comm_id = rd_be32(b);
	cm->service_id = rd_be64(b + 8);
	cm->local_ca_guid = rd_be64(b + 16);
	cm->qkey = rd_be32(b + 28);
	cm->local_qpn = rd_be24(b + 32);
	cm->resp_resources = b[35];
	cm->initiator_depth = b[39];
	cm->remote_cm_timeout = b[43] >> 3;
	cm->transport = (b[43] >> 1) & 3;
	cm->starting_psn = rd_be24(b + 44);
	cm->local_cm_timeout = b[47] >> 3;
	cm->retry_count = b[47] & 7;
	cm->pkey = rd_be16(b + 48);
	cm->path_mtu = b[50] >> 4;
	cm->rnr_retry_count = b[50] & 7;
	cm->max_cm_retries = b[51] >> 4;
	cm->primary_slid = rd_be16(b + 52);
	cm->primary_dlid = rd_be16(b + 54);
	memcpy(cm->primary_sgid, b + 56, 16);
	memcpy(cm->primary_dgid, b + 72, 16);
	split_service_id(cm);
}

static void decode_cm(struct rd_cur *c, struct rdiag_pkt *p)
{
	struct rdiag_cm *cm = &p->cm;
	const uint8_t *b, *pd;
	uint32_t need;

	switch (p->mad.attr_id) {
	case RDIAG_CM_REQ:
		need = CM_REQ_LEN;
		break;
	case RDIAG_CM_MRA:
		need = CM_MRA_LEN;
		break;
	case RDIAG_CM_REJ:
		need = CM_REJ_LEN;
		break;
	case RDIAG_CM_REP:
		need = CM_REP_LEN;
		break;
	case RDIAG_CM_RTU:
		need = CM_RTU_LEN;
		break;
	case RDIAG_CM_DREQ:
		need = CM_DREQ_LEN;
		break;
	case RDIAG_CM_DREP:
		need = CM_DREP_LEN;
		break;
	case RDIAG_CM_SIDR_REQ:
		need = CM_SIDR_REQ_LEN;
		break;
	case RDIAG_CM_SIDR_REP:
		need = CM_SIDR_REP_LEN;
		break;
	default:
		return;		/* ClassPortInfo, LAP, APR: header only */
	}
	b = rd_take(c, need);
	if (!b) {
		rd_stop(p, c, RDIAG_HDR_CM);
		return;
	}
	cm->msg = p->mad.attr_id;
	switch (cm->msg) {
	case RDIAG_CM_REQ:
		decode_req(cm, b);
		pd = priv_data(c, cm, CM_REQ_PRIV);
		if (pd && cm->priv_len >= CMA_HDR_LEN && cm->sid_is_ip)
			decode_cma_hdr(cm, pd);
		break;
	case RDIAG_CM_MRA:
		cm->local_comm_id = rd_be32(b);
		cm->remote_comm_id = rd_be32(b + 4);
		cm->msg_mraed = b[8] >> 6;
		cm->service_timeout = b[9] >> 3;
		priv_data(c, cm, CM_BODY_LEN - CM_MRA_LEN);
		break;
	case RDIAG_CM_REJ:
		cm->local_comm_id = rd_be32(b);
		cm->remote_comm_id = rd_be32(b + 4);
		cm->msg_rejected = b[8] >> 6;
		cm->ari_len = b[9] >> 1;
		cm->reason = rd_be16(b + 10);
		cm->reason_name = rdiag_cm_rej_reason_name(cm->reason);
		priv_data(c, cm, CM_BODY_LEN - CM_REJ_LEN);
		break;
	case RDIAG_CM_REP:
		cm->local_comm_id = rd_be32(b);
		cm->remote_comm_id = rd_be32(b + 4);
		cm->qkey = rd_be32(b + 8);
		cm->local_qpn = rd_be24(b + 12);
		cm->starting_psn = rd_be24(b + 20);
		cm->resp_resources = b[24];
		cm->initiator_depth = b[25];
		cm->target_ack_delay = b[26] >> 3;
		cm->rnr_retry_count = b[27] >> 5;
		cm->local_ca_guid = rd_be64(b + 28);
		priv_data(c, cm, CM_BODY_LEN - CM_REP_LEN);
		break;
	case RDIAG_CM_RTU:
	case RDIAG_CM_DREP:
		cm->local_comm_id = rd_be32(b);
		cm->remote_comm_id = rd_be32(b + 4);
		priv_data(c, cm, CM_BODY_LEN - CM_RTU_LEN);
		break;
	case RDIAG_CM_DREQ:
		cm->local_comm_id = rd_be32(b);
		cm->remote_comm_id = rd_be32(b + 4);
		cm->remote_qpn = rd_be24(b + 8);
		priv_data(c, cm, CM_BODY_LEN - CM_DREQ_LEN);
		break;
	case RDIAG_CM_SIDR_REQ:
		cm->local_comm_id = rd_be32(b);
		cm->pkey = rd_be16(b + 4);
		cm->service_id = rd_be64(b + 8);
		split_service_id(cm);
		pd = priv_data(c, cm, CM_BODY_LEN - CM_SIDR_REQ_LEN);
		if (pd && cm->priv_len >= CMA_HDR_LEN && cm->sid_is_ip)
			decode_cma_hdr(cm, pd);
		break;
	case RDIAG_CM_SIDR_REP:
		cm->local_comm_id = rd_be32(b);
		cm->sidr_status = b[4];
		cm->local_qpn = rd_be24(b + 8);
		cm->service_id = rd_be64(b + 12);
		cm->qkey = rd_be32(b + 20);
		split_service_id(cm);
		priv_data(c, cm, CM_BODY_LEN - CM_SIDR_REP_LEN);
		break;
	default:
		break;
	}
	p->present |= RDIAG_HAS_CM;
}

void rd_decode_mad(struct rd_cur *c, struct rdiag_pkt *p)
{
	uint32_t mad_off = c->off;
	const uint8_t *b = rd_take(c, RD_MAD_HDR_LEN);
	struct rdiag_mad *m = &p->mad;

	if (!b) {
		rd_stop(p, c, RDIAG_HDR_MAD);
		return;
	}
	memset(&m->dr, 0, sizeof(*m) - offsetof(struct rdiag_mad, dr));
	m->base_version = b[0];
	m->mgmt_class = b[1];
	m->class_version = b[2];
	m->method = b[3];
	m->status = rd_be16(b + 4);
	m->class_specific = rd_be16(b + 6);
	m->tid = rd_be64(b + 8);
	m->attr_id = rd_be16(b + 16);
	m->attr_mod = rd_be32(b + 20);
	p->present |= RDIAG_HAS_MAD;
	if (m->mgmt_class == RDIAG_MAD_CLASS_CM && m->base_version == 1)
		decode_cm(c, p);
	rd_decode_mad_class(c, p, mad_off);
}
