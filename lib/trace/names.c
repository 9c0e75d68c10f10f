/* Names of the IB CM's MAD attributes and states, as ib_cm's tracepoints print them. */
#include "internal.h"

const char *rdiag_trace_cm_attr_name(unsigned int attr_id)
{
	/* IBA 12.11: the CM attribute ids */
	switch (attr_id) {
	case 0x0010: return "REQ";
	case 0x0011: return "MRA";
	case 0x0012: return "REJ";
	case 0x0013: return "REP";
	case 0x0014: return "RTU";
	case 0x0015: return "DREQ";
	case 0x0016: return "DREP";
	case 0x0017: return "SIDR_REQ";
	case 0x0018: return "SIDR_REP";
	case 0x0019: return "LAP";
	case 0x001a: return "APR";
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
	}
	return "?";
}
