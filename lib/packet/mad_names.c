/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* MAD names: methods, attributes of each class, status codes, RMPP types, SA component
 * bits; and the one bit extractor every layout field is read with. */
#include <stddef.h>

#include "mad_fields.h"

struct id_name {
	uint16_t id;
	const char *name;
};

const char *rdiag_mad_method_name(unsigned int method)
{
	static const struct id_name m[] = {
		{ 0x01, "Get" }, { 0x02, "Set" }, { 0x03, "Send" }, { 0x05, "Trap" },
		{ 0x06, "Report" }, { 0x07, "TrapRepress" }, { 0x12, "GetTable" },
		{ 0x13, "GetTraceTable" }, { 0x14, "GetMulti" }, { 0x15, "Delete" },
		{ 0x81, "GetResp" }, { 0x86, "ReportResp" }, { 0x92, "GetTableResp" },
		{ 0x93, "GetTraceTableResp" }, { 0x94, "GetMultiResp" }, { 0x95, "DeleteResp" },
	};

	for (size_t i = 0; i < MF_N(m); i++)
		if (m[i].id == method)
			return m[i].name;
	return NULL;
}

/* attributes named but not laid out */
static const struct id_name smp_names[] = {
	{ 0x001A, "RandomForwardingTable" }, { 0x0030, "VendorDiag" }, { 0x0031, "LedInfo" },
};
static const struct id_name sa_names[] = {
	{ 0x0013, "SLtoVLMappingTableRecord" }, { 0x0014, "SwitchInfoRecord" },
	{ 0x0015, "LinearForwardingTableRecord" }, { 0x0016, "RandomForwardingTableRecord" },
	{ 0x0017, "MulticastForwardingTableRecord" }, { 0x0018, "SMInfoRecord" },
	{ 0x0020, "LinkRecord" }, { 0x0030, "GuidInfoRecord" }, { 0x0033, "P_KeyTableRecord" },
	{ 0x0036, "VLArbitrationTableRecord" }, { 0x0039, "TraceRecord" },
	{ 0x003B, "ServiceAssociationRecord" }, { 0x00F3, "InformInfoRecord" },
};
static const struct id_name perf_names[] = {
	{ 0x0015, "PortRcvErrorDetails" }, { 0x0016, "PortXmitDiscardDetails" },
	{ 0x0017, "PortOpRcvCounters" }, { 0x0018, "PortFlowCtlCounters" },
	{ 0x0019, "PortVLOpPackets" }, { 0x001A, "PortVLOpData" },
	{ 0x001B, "PortVLXmitFlowCtlUpdateErrors" }, { 0x001C, "PortVLXmitWaitCounters" },
	{ 0x001E, "PortSamplesResultExtended" },
};

static const char *find_name(const struct id_name *t, size_t n, unsigned int id)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].id == id)
			return t[i].name;
	return NULL;
}

const struct rdiag_mad_attr *rdiag_mad_layout(unsigned int mgmt_class, unsigned int attr_id)
{
	switch (mgmt_class) {
	case RDIAG_MAD_CLASS_SUBN_LID_ROUTED:
	case RDIAG_MAD_CLASS_SUBN_DIRECTED:
		return rd_mad_smp_layout(attr_id);
	case RDIAG_MAD_CLASS_SUBN_ADM:
		return rd_mad_sa_layout(attr_id);
	case RDIAG_MAD_CLASS_PERF:
		return rd_mad_perf_layout(attr_id);
	case RDIAG_MAD_CLASS_CM:
		return rd_mad_cm_layout(attr_id);
	default:
		return NULL;
	}
}

const char *rdiag_mad_attr_name(unsigned int mgmt_class, unsigned int attr_id)
{
	const struct rdiag_mad_attr *a = rdiag_mad_layout(mgmt_class, attr_id);

	if (a)
		return a->name;
	switch (mgmt_class) {
	case RDIAG_MAD_CLASS_SUBN_LID_ROUTED:
	case RDIAG_MAD_CLASS_SUBN_DIRECTED:
		return find_name(smp_names, MF_N(smp_names), attr_id);
	case RDIAG_MAD_CLASS_SUBN_ADM:
		if (attr_id == RDIAG_MAD_ATTR_CLASS_PORT_INFO)
			return "ClassPortInfo";
		return find_name(sa_names, MF_N(sa_names), attr_id);
	case RDIAG_MAD_CLASS_PERF:
		return find_name(perf_names, MF_N(perf_names), attr_id);
	case RDIAG_MAD_CLASS_CM:
		return rdiag_cm_msg_name(attr_id);
	default:
		/* the attributes every GSI class has (IBTA 13.4.8) */
		if (attr_id == RDIAG_MAD_ATTR_CLASS_PORT_INFO)
			return "ClassPortInfo";
		if (attr_id == RDIAG_MAD_ATTR_NOTICE)
			return "Notice";
		if (attr_id == 0x0003)
			return "InformInfo";
		return NULL;
	}
}

const char *rdiag_mad_status_code_name(unsigned int code)
{
	switch (code) {
	case 1:
		return "BAD_VERSION";
	case 2:
		return "METHOD_UNSUPPORTED";
	case 3:
		return "METHOD_ATTR_UNSUPPORTED";
	case 7:
		return "INVALID_ATTR_VALUE";
	default:
		return NULL;
	}
}

const char *rdiag_sa_status_name(unsigned int code)
{
	static const char *const n[] = {
		NULL, "ERR_NO_RESOURCES", "ERR_REQ_INVALID", "ERR_NO_RECORDS",
		"ERR_TOO_MANY_RECORDS", "ERR_REQ_INVALID_GID", "ERR_REQ_INSUFFICIENT_COMPONENTS",
		"ERR_REQ_DENIED",
	};

	return code < MF_N(n) ? n[code] : NULL;
}

const char *rdiag_rmpp_type_name(unsigned int type)
{
	static const char *const n[] = { NULL, "DATA", "ACK", "STOP", "ABORT" };

	return type < MF_N(n) ? n[type] : NULL;
}

const char *rdiag_mad_comp_name(const struct rdiag_mad_attr *a, unsigned int bit)
{
	if (!a || bit > 63)
		return NULL;
	for (unsigned int i = 0; i < a->n_fields; i++) {
		const struct rdiag_mad_field *f = &a->fields[i];
		unsigned int n = f->count ? f->count : 1;

		if (f->comp < 0 || bit < (unsigned int)f->comp)
			continue;
		if (f->kind == RDIAG_MF_SUB) {
			const char *s = rdiag_mad_comp_name(f->sub, bit - (unsigned int)f->comp);

			/* an embedded attribute without component numbers is one component */
			if (s)
				return s;
			if (bit == (unsigned int)f->comp)
				return f->name;
			continue;
		}
		if (bit < (unsigned int)f->comp + n)
			return f->kind == RDIAG_MF_RESERVED ? NULL : f->name;
	}
	return NULL;
}

uint64_t rdiag_mad_bits(const uint8_t *rec, unsigned int off, unsigned int bits)
{
	unsigned int first = off / 8, last = (off + bits - 1) / 8;
	unsigned int shift = 7 - (off + bits - 1) % 8;
	uint64_t v = 0;

	if (!bits || bits > 64)
		return 0;
	/* at most 9 bytes: the bits above 64 fall off the top, then the mask keeps bits */
	for (unsigned int i = first; i <= last; i++) {
		if (i == last)
			v = (v << (8 - shift)) | (uint64_t)(rec[i] >> shift);
		else
			v = (v << 8) | rec[i];
	}
	return bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}
