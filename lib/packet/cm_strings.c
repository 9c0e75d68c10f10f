/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* IB CM strings: reject reasons, message names, RDMA IP port spaces, MAD classes.
 * Kept apart from the decoder because rdmadoctor explains REJECTED events with the same
 * reject-reason names (the status of RDMA_CM_EVENT_REJECTED is this reason code).
 *
 * Reject reasons: IBTA vol 1 ch. 12 table "REJ reason", kernel enum ib_cm_rej_reason
 * (rdma-reference §3.13).  34 is unassigned. */
#include <stddef.h>

#include "rdmadiag/packet.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rej_reasons[] = {
	[RDIAG_REJ_NO_QP] = "NO_QP",
	[RDIAG_REJ_NO_EEC] = "NO_EEC",
	[RDIAG_REJ_NO_RESOURCES] = "NO_RESOURCES",
	[RDIAG_REJ_TIMEOUT] = "TIMEOUT",
	[RDIAG_REJ_UNSUPPORTED] = "UNSUPPORTED",
	[RDIAG_REJ_INVALID_COMM_ID] = "INVALID_COMM_ID",
	[RDIAG_REJ_INVALID_COMM_INSTANCE] = "INVALID_COMM_INSTANCE",
	[RDIAG_REJ_INVALID_SERVICE_ID] = "INVALID_SERVICE_ID",
	[RDIAG_REJ_INVALID_TRANSPORT_TYPE] = "INVALID_TRANSPORT_TYPE",
	[RDIAG_REJ_STALE_CONN] = "STALE_CONN",
	[RDIAG_REJ_RDC_NOT_EXIST] = "RDC_NOT_EXIST",
	[RDIAG_REJ_INVALID_GID] = "INVALID_GID",
	[RDIAG_REJ_INVALID_LID] = "INVALID_LID",
	[RDIAG_REJ_INVALID_SL] = "INVALID_SL",
	[RDIAG_REJ_INVALID_TRAFFIC_CLASS] = "INVALID_TRAFFIC_CLASS",
	[RDIAG_REJ_INVALID_HOP_LIMIT] = "INVALID_HOP_LIMIT",
	[RDIAG_REJ_INVALID_PACKET_RATE] = "INVALID_PACKET_RATE",
	[RDIAG_REJ_INVALID_ALT_GID] = "INVALID_ALT_GID",
	[RDIAG_REJ_INVALID_ALT_LID] = "INVALID_ALT_LID",
	[RDIAG_REJ_INVALID_ALT_SL] = "INVALID_ALT_SL",
	[RDIAG_REJ_INVALID_ALT_TRAFFIC_CLASS] = "INVALID_ALT_TRAFFIC_CLASS",
	[RDIAG_REJ_INVALID_ALT_HOP_LIMIT] = "INVALID_ALT_HOP_LIMIT",
	[RDIAG_REJ_INVALID_ALT_PACKET_RATE] = "INVALID_ALT_PACKET_RATE",
	[RDIAG_REJ_PORT_CM_REDIRECT] = "PORT_CM_REDIRECT",
	[RDIAG_REJ_PORT_REDIRECT] = "PORT_REDIRECT",
	[RDIAG_REJ_INVALID_MTU] = "INVALID_MTU",
	[RDIAG_REJ_INSUFFICIENT_RESP_RESOURCES] = "INSUFFICIENT_RESP_RESOURCES",
	[RDIAG_REJ_CONSUMER_DEFINED] = "CONSUMER_DEFINED",
	[RDIAG_REJ_INVALID_RNR_RETRY] = "INVALID_RNR_RETRY",
	[RDIAG_REJ_DUPLICATE_LOCAL_COMM_ID] = "DUPLICATE_LOCAL_COMM_ID",
	[RDIAG_REJ_INVALID_CLASS_VERSION] = "INVALID_CLASS_VERSION",
	[RDIAG_REJ_INVALID_FLOW_LABEL] = "INVALID_FLOW_LABEL",
	[RDIAG_REJ_INVALID_ALT_FLOW_LABEL] = "INVALID_ALT_FLOW_LABEL",
	[RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED] = "VENDOR_OPTION_NOT_SUPPORTED",
};

const char *rdiag_cm_rej_reason_name(unsigned int reason)
{
	return reason < ARRAY_SIZE(rej_reasons) ? rej_reasons[reason] : NULL;
}

/* IBTA 12.11.2 SIDR_REP status; the names of ib_cm.h's enum ib_cm_sidr_status */
const char *rdiag_cm_sidr_status_name(unsigned int status)
{
	static const char *const n[] = {
		"SUCCESS", "UNSUPPORTED", "REJECT", "NO_QP", "REDIRECT", "UNSUPPORTED_VERSION",
	};

	return status < ARRAY_SIZE(n) ? n[status] : NULL;
}

const char *rdiag_cm_msg_name(unsigned int attr_id)
{
	switch (attr_id) {
	case RDIAG_CM_CLASSPORTINFO:
		return "CLASSPORTINFO";
	case RDIAG_CM_REQ:
		return "REQ";
	case RDIAG_CM_MRA:
		return "MRA";
	case RDIAG_CM_REJ:
		return "REJ";
	case RDIAG_CM_REP:
		return "REP";
	case RDIAG_CM_RTU:
		return "RTU";
	case RDIAG_CM_DREQ:
		return "DREQ";
	case RDIAG_CM_DREP:
		return "DREP";
	case RDIAG_CM_SIDR_REQ:
		return "SIDR_REQ";
	case RDIAG_CM_SIDR_REP:
		return "SIDR_REP";
	case RDIAG_CM_LAP:
		return "LAP";
	case RDIAG_CM_APR:
		return "APR";
	default:
		return NULL;
	}
}

const char *rdiag_port_space_name(unsigned int ps)
{
	switch (ps) {
	case RDIAG_PS_IPOIB:
		return "IPOIB";
	case RDIAG_PS_TCP:
		return "TCP";
	case RDIAG_PS_UDP:
		return "UDP";
	case RDIAG_PS_IB:
		return "IB";
	default:
		return NULL;
	}
}

/* management classes (IBTA vol 1 ch. 13 "Management Class values") */
const char *rdiag_mad_class_name(unsigned int mgmt_class)
{
	switch (mgmt_class) {
	case RDIAG_MAD_CLASS_SUBN_LID_ROUTED:
		return "SUBN_LID_ROUTED";
	case RDIAG_MAD_CLASS_SUBN_DIRECTED:
		return "SUBN_DIRECTED_ROUTE";
	case RDIAG_MAD_CLASS_SUBN_ADM:
		return "SUBN_ADM";
	case RDIAG_MAD_CLASS_PERF:
		return "PERF";
	case RDIAG_MAD_CLASS_BM:
		return "BM";
	case RDIAG_MAD_CLASS_DEVICE_MGMT:
		return "DEVICE_MGMT";
	case RDIAG_MAD_CLASS_CM:
		return "CM";
	case RDIAG_MAD_CLASS_SNMP:
		return "SNMP";
	case RDIAG_MAD_CLASS_CONG_MGMT:
		return "CONG_MGMT";
	default:
		return NULL;
	}
}
