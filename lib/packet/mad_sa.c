/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Subnet administration (class 0x03): the record layouts in the SA data (IBTA vol 1
 * 15.2.5; the kernel's sa_query.c field tables and libibmad lay out the same bits), with the
 * component mask bit of each field, and ClassPortInfo, which every GSI class shares. */
#include <stddef.h>

#include "mad_fields.h"

static const char *selector_name(unsigned int v)
{
	static const char *const n[] = { "GT", "LT", "EQ", "LARGEST" };

	return v < MF_N(n) ? n[v] : NULL;
}

static const char *mtu_name(unsigned int v)
{
	static const char *const n[] = { NULL, "256", "512", "1024", "2048", "4096" };

	return v < MF_N(n) ? n[v] : NULL;
}

/* IBTA static rate codes (the values of enum ib_rate) */
static const char *rate_name(unsigned int v)
{
	static const char *const n[] = {
		NULL, NULL, "2.5", "10", "30", "5", "20", "40", "60", "80", "120", "14", "56",
		"112", "168", "25", "100", "200", "300", "28", "50", "400", "600", "800", "1200",
	};

	return v < MF_N(n) ? n[v] : NULL;
}

static const struct rdiag_mad_field class_port_info_f[] = {
	MF("base_version", 0, 8, -1), MF("class_version", 8, 8, -1),
	MF("capability_mask", 16, 16, -1), MF("capability_mask2", 32, 27, -1),
	MF("resp_time_value", 59, 5, -1), MFG("redirect_gid", 64, -1),
	MF("redirect_tc", 192, 8, -1), MF("redirect_sl", 200, 4, -1),
	MF("redirect_fl", 204, 20, -1), MF("redirect_lid", 224, 16, -1),
	MF("redirect_p_key", 240, 16, -1), MF("redirect_qp", 264, 24, -1),
	MF("redirect_q_key", 288, 32, -1), MFG("trap_gid", 320, -1),
	MF("trap_tc", 448, 8, -1), MF("trap_sl", 456, 4, -1), MF("trap_fl", 460, 20, -1),
	MF("trap_lid", 480, 16, -1), MF("trap_p_key", 496, 16, -1),
	MF("trap_hl", 512, 8, -1), MF("trap_qp", 520, 24, -1), MF("trap_q_key", 544, 32, -1),
};

const struct rdiag_mad_attr rd_mad_class_port_info = MA(0x0001, "ClassPortInfo",
							"class_port_info", 72,
							class_port_info_f);

/* kernel IB_SA_PATH_REC_SERVICE_ID is components 0 and 1 */
static const struct rdiag_mad_field path_rec_f[] = {
	MF("service_id", 0, 64, 0), MFG("dgid", 64, 2), MFG("sgid", 192, 3),
	MF("dlid", 320, 16, 4), MF("slid", 336, 16, 5), MF("raw_traffic", 352, 1, 6),
	MFR(353, 3, 7), MF("flow_label", 356, 20, 8), MF("hop_limit", 376, 8, 9),
	MF("traffic_class", 384, 8, 10), MF("reversible", 392, 1, 11),
	MF("numb_path", 393, 7, 12), MF("p_key", 400, 16, 13), MF("qos_class", 416, 12, 14),
	MF("sl", 428, 4, 15), MFN("mtu_selector", 432, 2, 16, selector_name),
	MFN("mtu", 434, 6, 17, mtu_name), MFN("rate_selector", 440, 2, 18, selector_name),
	MFN("rate", 442, 6, 19, rate_name),
	MFN("packet_life_time_selector", 448, 2, 20, selector_name),
	MF("packet_life_time", 450, 6, 21), MF("preference", 456, 8, 22),
};

static const struct rdiag_mad_field mcmember_rec_f[] = {
	MFG("mgid", 0, 0), MFG("port_gid", 128, 1), MF("q_key", 256, 32, 2),
	MF("mlid", 288, 16, 3), MFN("mtu_selector", 304, 2, 4, selector_name),
	MFN("mtu", 306, 6, 5, mtu_name), MF("traffic_class", 312, 8, 6),
	MF("p_key", 320, 16, 7), MFN("rate_selector", 336, 2, 8, selector_name),
	MFN("rate", 338, 6, 9, rate_name),
	MFN("packet_life_time_selector", 344, 2, 10, selector_name),
	MF("packet_life_time", 346, 6, 11), MF("sl", 352, 4, 12),
	MF("flow_label", 356, 20, 13), MF("hop_limit", 376, 8, 14), MF("scope", 384, 4, 15),
	MF("join_state", 388, 4, 16), MF("proxy_join", 392, 1, 17),
};

static const struct rdiag_mad_field service_rec_f[] = {
	MF("service_id", 0, 64, 0), MFG("service_gid", 64, 1), MF("service_p_key", 192, 16, 2),
	MFR(208, 16, 3), MF("service_lease", 224, 32, 4), MFG("service_key", 256, 5),
	MFT("service_name", 384, 64, 6), MFA("service_data8", 896, 8, 16, 8, 7),
	MFA("service_data16", 1024, 16, 8, 16, 23), MFA("service_data32", 1152, 32, 4, 32, 31),
	MFA("service_data64", 1280, 64, 2, 64, 35),
};

static const struct rdiag_mad_field node_desc_f[] = {
	MFT("node_string", 0, 64, -1),
};
static const struct rdiag_mad_attr node_desc = MA(0x0010, "NodeDescription",
						  "node_description", 64, node_desc_f);

/* NodeInfo's components follow at 2, NodeDescription is 14 */
static const struct rdiag_mad_field node_rec_f[] = {
	MF("lid", 0, 16, 0), MFR(16, 16, 1), MFS("node_info", 32, rd_mad_node_info, 2),
	MFS("node_description", 352, node_desc, 14),
};

/* PortInfo's components follow at 3 */
static const struct rdiag_mad_field port_info_rec_f[] = {
	MF("endport_lid", 0, 16, 0), MF("port_num", 16, 8, 1), MF("options", 24, 8, 2),
	MFS("port_info", 32, rd_mad_port_info, 3),
};

static const struct rdiag_mad_field inform_info_f[] = {
	MFG("gid", 0, 0), MF("lid_range_begin", 128, 16, 1), MF("lid_range_end", 144, 16, 2),
	MFR(160, 16, 3), MF("is_generic", 176, 8, 4), MF("subscribe", 184, 8, 5),
	MF("type", 192, 16, 6), MF("trap_number", 208, 16, 7), MF("qpn", 224, 24, 8),
	MFR(248, 3, 9), MF("resp_time_value", 251, 5, 10), MFR(256, 8, 11),
	MF("producer_type", 264, 24, 12),
};

/* the first two SDGIDs follow the fixed part at byte 24 (OpenSM's ib_multipath_rec_t, tshark);
 * sgid_count + dgid_count of them are used; the GIDs have no component bits */
static const struct rdiag_mad_field multipath_rec_f[] = {
	MF("raw_traffic", 0, 1, 0), MFR(1, 3, 1), MF("flow_label", 4, 20, 2),
	MF("hop_limit", 24, 8, 3), MF("traffic_class", 32, 8, 4), MF("reversible", 40, 1, 5),
	MF("numb_path", 41, 7, 6), MF("p_key", 48, 16, 7), MF("qos_class", 64, 12, 8),
	MF("sl", 76, 4, 9), MFN("mtu_selector", 80, 2, 10, selector_name),
	MFN("mtu", 82, 6, 11, mtu_name), MFN("rate_selector", 88, 2, 12, selector_name),
	MFN("rate", 90, 6, 13, rate_name),
	MFN("packet_life_time_selector", 96, 2, 14, selector_name),
	MF("packet_life_time", 98, 6, 15), MF("service_id_8msb", 104, 8, 16),
	MF("independence_selector", 112, 2, 17), MFR(114, 6, 18), MF("sgid_count", 120, 8, 19),
	MF("dgid_count", 128, 8, 20), MF("service_id_56lsb", 136, 56, 21),
	MFG("sdgid1", 192, -1), MFG("sdgid2", 320, -1),
};

static const struct rdiag_mad_field sa_notice_f[] = {
	MF("is_generic", 0, 1, -1), MF("type", 1, 7, -1),
	MF("producer_type", 8, 24, -1), MF("trap_number", 32, 16, -1),
	MF("issuer_lid", 48, 16, -1), MF("notice_toggle", 64, 1, -1),
	MF("notice_count", 65, 15, -1), MFG("issuer_gid", 512, -1),
};

static const struct rdiag_mad_attr sa_attrs[] = {
	MA(0x0002, "Notice", "notice", 80, sa_notice_f),
	MA(0x0003, "InformInfo", "inform_info", 36, inform_info_f),
	MA(0x0011, "NodeRecord", "node_record", 108, node_rec_f),
	MA(0x0012, "PortInfoRecord", "port_info_record", 68, port_info_rec_f),
	MA(0x0031, "ServiceRecord", "service_record", 176, service_rec_f),
	MA(0x0035, "PathRecord", "path_record", 64, path_rec_f),
	MA(0x0038, "MCMemberRecord", "mcmember_record", 52, mcmember_rec_f),
	MA(0x003A, "MultiPathRecord", "multipath_record", 56, multipath_rec_f),
};

const struct rdiag_mad_attr *rd_mad_sa_layout(unsigned int attr_id)
{
	if (attr_id == rd_mad_class_port_info.attr_id)
		return &rd_mad_class_port_info;
	return rd_mad_find(sa_attrs, MF_N(sa_attrs), attr_id);
}
