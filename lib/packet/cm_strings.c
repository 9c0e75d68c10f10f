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
	[1] = "NO_QP",
	[2] = "NO_EEC",
	[3] = "NO_RESOURCES",
	[4] = "TIMEOUT",
	[5] = "UNSUPPORTED",
	[6] = "INVALID_COMM_ID",
	[7] = "INVALID_COMM_INSTANCE",
	[8] = "INVALID_SERVICE_ID",
	[9] = "INVALID_TRANSPORT_TYPE",
	[10] = "STALE_CONN",
	[11] = "RDC_NOT_EXIST",
	[12] = "INVALID_GID",
	[13] = "INVALID_LID",
	[14] = "INVALID_SL",
	[15] = "INVALID_TRAFFIC_CLASS",
	[16] = "INVALID_HOP_LIMIT",
	[17] = "INVALID_PACKET_RATE",
	[18] = "INVALID_ALT_GID",
	[19] = "INVALID_ALT_LID",
	[20] = "INVALID_ALT_SL",
	[21] = "INVALID_ALT_TRAFFIC_CLASS",
	[22] = "INVALID_ALT_HOP_LIMIT",
	[23] = "INVALID_ALT_PACKET_RATE",
	[24] = "PORT_CM_REDIRECT",
	[25] = "PORT_REDIRECT",
	[26] = "INVALID_MTU",
	[27] = "INSUFFICIENT_RESP_RESOURCES",
	[28] = "CONSUMER_DEFINED",
	[29] = "INVALID_RNR_RETRY",
	[30] = "DUPLICATE_LOCAL_COMM_ID",
	[31] = "INVALID_CLASS_VERSION",
	[32] = "INVALID_FLOW_LABEL",
	[33] = "INVALID_ALT_FLOW_LABEL",
	[35] = "VENDOR_OPTION_NOT_SUPPORTED",
};

const char *rdiag_cm_rej_reason_name(unsigned int reason)
{
	return reason < ARRAY_SIZE(rej_reasons) ? rej_reasons[reason] : NULL;
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
	case 0x01:
		return "SUBN_LID_ROUTED";
	case 0x81:
		return "SUBN_DIRECTED_ROUTE";
	case 0x03:
		return "SUBN_ADM";
	case 0x04:
		return "PERF";
	case 0x05:
		return "BM";
	case 0x06:
		return "DEVICE_MGMT";
	case 0x07:
		return "CM";
	case 0x08:
		return "SNMP";
	case 0x21:
		return "CONG_MGMT";
	default:
		return NULL;
	}
}
