/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Names of the IB CM's MAD attributes and states, as ib_cm's tracepoints print them. */
#include "internal.h"
#include "rdmadiag/packet.h"	/* enum rdiag_cm_msg */

const char *rdiag_trace_cm_attr_name(unsigned int attr_id)
{
	/* IBA 12.11: the CM attribute ids */
	switch (attr_id) {
	case RDIAG_CM_REQ: return "REQ";
	case RDIAG_CM_MRA: return "MRA";
	case RDIAG_CM_REJ: return "REJ";
	case RDIAG_CM_REP: return "REP";
	case RDIAG_CM_RTU: return "RTU";
	case RDIAG_CM_DREQ: return "DREQ";
	case RDIAG_CM_DREP: return "DREP";
	case RDIAG_CM_SIDR_REQ: return "SIDR_REQ";
	case RDIAG_CM_SIDR_REP: return "SIDR_REP";
	case RDIAG_CM_LAP: return "LAP";
	case RDIAG_CM_APR: return "APR";
	case 0x0020: return "ClassPortInfo";
	default: return NULL;
	}
}

const char *rdiag_trace_ib_cm_state_name(int state)
{
	static const char *const names[] = { "IDLE", "LISTEN", "REQ_SENT", "REQ_RCVD",
		"MRA_REQ_SENT", "MRA_REQ_RCVD", "REP_SENT", "REP_RCVD", "MRA_REP_SENT",
		"MRA_REP_RCVD", "ESTABLISHED", "DREQ_SENT", "DREQ_RCVD", "TIMEWAIT",
		"SIDR_REQ_SENT", "SIDR_REQ_RCVD" };

	if (state < 0 || state >= (int)(sizeof(names) / sizeof(names[0])))
		return NULL;
	return names[state];
}

const char *rdiag_trace_outcome_name(enum rdiag_trace_outcome o)
{
	switch (o) {
	case RDIAG_TRACE_ESTABLISHED: return "established";
	case RDIAG_TRACE_FAILED: return "failed";
	case RDIAG_TRACE_OPEN: return "open";
	case RDIAG_TRACE_ANSWERED: return "answered";
	}
	return "?";
}
