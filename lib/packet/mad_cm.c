/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* CM (class 0x07) bodies laid out field by field: LAP, APR, SIDR_REQ and SIDR_REP (IBTA vol
 * 1 ch. 12 tables; the kernel's ibta_vol1_c12.h lays out the same bits).  The other CM
 * messages keep their key fields in struct rdiag_cm (mad.c). */
#include <stddef.h>

#include "mad_fields.h"

static const char *apr_status_name(unsigned int v)
{
	static const char *const n[] = {
		"SUCCESS", "INVALID_COMM_ID", "UNSUPPORTED", "REJECTED",
		"CANNOT_REDIRECT", "IS_CURRENT", "INVALID_QPN_EECN", "INVALID_LID",
		"INVALID_GID", "INVALID_FLOW_LABEL", "INVALID_TCLASS", "INVALID_HOP_LIMIT",
		"INVALID_PACKET_RATE", "INVALID_SL",
	};

	return v < MF_N(n) ? n[v] : NULL;
}

static const char *sidr_status_name(unsigned int v)
{
	return rdiag_cm_sidr_status_name(v);
}

static const struct rdiag_mad_field lap_f[] = {
	MF("local_comm_id", 0, 32, -1), MF("remote_comm_id", 32, 32, -1),
	MF("remote_qpn_eecn", 96, 24, -1), MF("remote_cm_response_timeout", 120, 5, -1),
	MF("alternate_local_port_lid", 160, 16, -1),
	MF("alternate_remote_port_lid", 176, 16, -1),
	MFG("alternate_local_port_gid", 192, -1), MFG("alternate_remote_port_gid", 320, -1),
	MF("alternate_flow_label", 448, 20, -1), MF("alternate_traffic_class", 472, 8, -1),
	MF("alternate_hop_limit", 480, 8, -1), MF("alternate_packet_rate", 490, 6, -1),
	MF("alternate_sl", 496, 4, -1), MF("alternate_subnet_local", 500, 1, -1),
	MF("alternate_local_ack_timeout", 504, 5, -1),
};

static const struct rdiag_mad_field apr_f[] = {
	MF("local_comm_id", 0, 32, -1), MF("remote_comm_id", 32, 32, -1),
	MF("additional_info_length", 64, 8, -1), MFN("ap_status", 72, 8, -1, apr_status_name),
};

static const struct rdiag_mad_field sidr_req_f[] = {
	MF("request_id", 0, 32, -1), MF("partition_key", 32, 16, -1),
	MF("service_id", 64, 64, -1),
};

static const struct rdiag_mad_field sidr_rep_f[] = {
	MF("request_id", 0, 32, -1), MFN("status", 32, 8, -1, sidr_status_name),
	MF("additional_info_length", 40, 8, -1), MF("qpn", 64, 24, -1),
	MF("service_id", 96, 64, -1), MF("q_key", 160, 32, -1),
	MFS("class_port_info", 192, rd_mad_class_port_info, -1),
};

static const struct rdiag_mad_attr cm_attrs[] = {
	MA(0x0017, "SIDR_REQ", "sidr_req", 16, sidr_req_f),
	MA(0x0018, "SIDR_REP", "sidr_rep", 96, sidr_rep_f),
	MA(0x0019, "LAP", "lap", 64, lap_f),
	MA(0x001A, "APR", "apr", 12, apr_f),
};

const struct rdiag_mad_attr *rd_mad_cm_layout(unsigned int attr_id)
{
	return rd_mad_find(cm_attrs, MF_N(cm_attrs), attr_id);
}
