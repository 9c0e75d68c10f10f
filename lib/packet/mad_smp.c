/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Subnet management (SMP, classes 0x01 LID-routed and 0x81 directed-route): the layouts of
 * the attributes in the 64-byte SMP data (IBTA vol 1 ch. 14.2.5; the kernel's ib_smi.h and
 * libibmad's field table lay out the same bits), and the trap details of Notice. */
#include <stddef.h>

#include "mad_fields.h"

static const char *node_type_name(unsigned int v)
{
	static const char *const n[] = { NULL, "CA", "SWITCH", "ROUTER" };

	return v < MF_N(n) ? n[v] : NULL;
}

/* PortInfo PortState: the names of 0..4 (ACTIVE_DEFER, 5, is shown as its number) */
static const char *port_state_name(unsigned int v)
{
	return v < RDIAG_PORT_ACTIVE_DEFER ? rdiag_port_state_name((uint8_t)v) : NULL;
}

static const char *phys_state_name(unsigned int v)
{
	static const char *const n[] = { "NOP", "SLEEP", "POLLING", "DISABLED",
					 "PORT_CONFIGURATION_TRAINING", "LINK_UP",
					 "LINK_ERROR_RECOVERY", "PHY_TEST" };

	return v < MF_N(n) ? n[v] : NULL;
}

static const char *sm_state_name(unsigned int v)
{
	static const char *const n[] = { "NOT_ACTIVE", "DISCOVERING", "STANDBY", "MASTER" };

	return v < MF_N(n) ? n[v] : NULL;
}

/* MTU codes of NeighborMTU and MTUCap: 1..5 = 256..4096 */
static const char *mtu_name(unsigned int v)
{
	static const char *const n[] = { NULL, "256", "512", "1024", "2048", "4096" };

	return v < MF_N(n) ? n[v] : NULL;
}

static const struct rdiag_mad_field node_desc_f[] = {
	MFT("node_string", 0, 64, -1),
};

/* NodeInfo: components 0..11 in wire order (NodeRecord adds 2) */
static const struct rdiag_mad_field node_info_f[] = {
	MF("base_version", 0, 8, 0), MF("class_version", 8, 8, 1),
	MFN("node_type", 16, 8, 2, node_type_name), MF("num_ports", 24, 8, 3),
	MF("system_image_guid", 32, 64, 4), MF("node_guid", 96, 64, 5),
	MF("port_guid", 160, 64, 6), MF("partition_cap", 224, 16, 7),
	MF("device_id", 240, 16, 8), MF("revision", 256, 32, 9),
	MF("local_port_num", 288, 8, 10), MF("vendor_id", 296, 24, 11),
};

static const struct rdiag_mad_field switch_info_f[] = {
	MF("linear_fdb_cap", 0, 16, -1), MF("random_fdb_cap", 16, 16, -1),
	MF("multicast_fdb_cap", 32, 16, -1), MF("linear_fdb_top", 48, 16, -1),
	MF("default_port", 64, 8, -1), MF("default_multicast_primary_port", 72, 8, -1),
	MF("default_multicast_not_primary_port", 80, 8, -1), MF("life_time_value", 88, 5, -1),
	MF("port_state_change", 93, 1, -1), MF("optimized_sl_to_vl_mapping_programming", 94, 2, -1),
	MF("lids_per_port", 96, 16, -1), MF("partition_enforcement_cap", 112, 16, -1),
	MF("inbound_enforcement_cap", 128, 1, -1), MF("outbound_enforcement_cap", 129, 1, -1),
	MF("filter_raw_inbound_cap", 130, 1, -1), MF("filter_raw_outbound_cap", 131, 1, -1),
	MF("enhanced_port0", 132, 1, -1), MF("multicast_fdb_top", 144, 16, -1),
};

static const struct rdiag_mad_field guid_info_f[] = {
	MFA("guid", 0, 64, 8, 64, -1),
};

/* PortInfo: components counted in wire order, every reserved gap one component, so that
 * PortInfoRecord (component base 3) names them bit by bit */
static const struct rdiag_mad_field port_info_f[] = {
	MF("m_key", 0, 64, 0), MF("gid_prefix", 64, 64, 1), MF("lid", 128, 16, 2),
	MF("master_sm_lid", 144, 16, 3), MF("capability_mask", 160, 32, 4),
	MF("diag_code", 192, 16, 5), MF("m_key_lease_period", 208, 16, 6),
	MF("local_port_num", 224, 8, 7), MF("link_width_enabled", 232, 8, 8),
	MF("link_width_supported", 240, 8, 9), MF("link_width_active", 248, 8, 10),
	MF("link_speed_supported", 256, 4, 11), MFN("port_state", 260, 4, 12, port_state_name),
	MFN("port_physical_state", 264, 4, 13, phys_state_name),
	MF("link_down_default_state", 268, 4, 14), MF("m_key_protect_bits", 272, 2, 15),
	MFR(274, 3, 16), MF("lmc", 277, 3, 17), MF("link_speed_active", 280, 4, 18),
	MF("link_speed_enabled", 284, 4, 19), MFN("neighbor_mtu", 288, 4, 20, mtu_name),
	MF("master_sm_sl", 292, 4, 21), MF("vl_cap", 296, 4, 22), MF("init_type", 300, 4, 23),
	MF("vl_high_limit", 304, 8, 24), MF("vl_arbitration_high_cap", 312, 8, 25),
	MF("vl_arbitration_low_cap", 320, 8, 26), MF("init_type_reply", 328, 4, 27),
	MFN("mtu_cap", 332, 4, 28, mtu_name), MF("vl_stall_count", 336, 3, 29),
	MF("hoq_life", 339, 5, 30), MF("operational_vls", 344, 4, 31),
	MF("partition_enforcement_inbound", 348, 1, 32),
	MF("partition_enforcement_outbound", 349, 1, 33), MF("filter_raw_inbound", 350, 1, 34),
	MF("filter_raw_outbound", 351, 1, 35), MF("m_key_violations", 352, 16, 36),
	MF("p_key_violations", 368, 16, 37), MF("q_key_violations", 384, 16, 38),
	MF("guid_cap", 400, 8, 39), MF("client_reregister", 408, 1, 40),
	MF("multicast_pkey_trap_suppression_enabled", 409, 1, 41), MFR(410, 1, 42),
	MF("subnet_timeout", 411, 5, 43), MFR(416, 3, 44), MF("resp_time_value", 419, 5, 45),
	MF("local_phy_errors", 424, 4, 46), MF("overrun_errors", 428, 4, 47),
	MF("max_credit_hint", 432, 16, 48), MFR(448, 8, 49),
	MF("link_round_trip_latency", 456, 24, 50), MF("capability_mask2", 480, 16, 51),
	MF("link_speed_ext_active", 496, 4, 52), MF("link_speed_ext_supported", 500, 4, 53),
	MFR(504, 3, 54), MF("link_speed_ext_enabled", 507, 5, 55),
};

/* P_Key entries: bit 15 the membership type (1 full), 14:0 the base */
static const struct rdiag_mad_field pkey_table_f[] = {
	MFA("p_key", 0, 16, 32, 16, -1),
};

static const struct rdiag_mad_field sl2vl_f[] = {
	MFA("vl", 0, 4, 16, 4, -1),	/* SL0 is the high nibble of byte 0 */
};

static const struct rdiag_mad_field vlarb_f[] = {
	MFA("vl", 4, 4, 32, 16, -1), MFA("weight", 8, 8, 32, 16, -1),
};

static const struct rdiag_mad_field lft_f[] = {
	MFA("port", 0, 8, 64, 8, -1),
};

static const struct rdiag_mad_field mft_f[] = {
	MFA("port_mask", 0, 16, 32, 16, -1),
};

static const struct rdiag_mad_field sm_info_f[] = {
	MF("guid", 0, 64, -1), MF("sm_key", 64, 64, -1), MF("act_count", 128, 32, -1),
	MF("priority", 160, 4, -1), MFN("sm_state", 164, 4, -1, sm_state_name),
};

/* Notice: the generic/vendor header; the 54 bytes of data details depend on the trap */
static const struct rdiag_mad_field notice_f[] = {
	MF("is_generic", 0, 1, -1), MF("type", 1, 7, -1),
	MF("producer_type", 8, 24, -1), MF("trap_number", 32, 16, -1),
	MF("issuer_lid", 48, 16, -1), MF("notice_toggle", 64, 1, -1),
	MF("notice_count", 65, 15, -1),
};

const struct rdiag_mad_attr rd_mad_node_info = MA(0x0011, "NodeInfo", "node_info", 40,
						  node_info_f);
const struct rdiag_mad_attr rd_mad_port_info = MA(0x0015, "PortInfo", "port_info", 64,
						  port_info_f);

static const struct rdiag_mad_attr smp_attrs[] = {
	MA(0x0002, "Notice", "notice", 10, notice_f),
	MA(0x0010, "NodeDescription", "node_description", 64, node_desc_f),
	MA(0x0012, "SwitchInfo", "switch_info", 20, switch_info_f),
	MA(0x0014, "GUIDInfo", "guid_info", 64, guid_info_f),
	MA(0x0016, "P_KeyTable", "p_key_table", 64, pkey_table_f),
	MA(0x0017, "SLtoVLMappingTable", "sl_to_vl_mapping_table", 8, sl2vl_f),
	MA(0x0018, "VLArbitrationTable", "vl_arbitration_table", 64, vlarb_f),
	MA(0x0019, "LinearForwardingTable", "linear_forwarding_table", 64, lft_f),
	MA(0x001B, "MulticastForwardingTable", "multicast_forwarding_table", 64, mft_f),
	MA(0x0020, "SMInfo", "sm_info", 21, sm_info_f),
};

const struct rdiag_mad_attr *rd_mad_find(const struct rdiag_mad_attr *tab, unsigned int n,
					 unsigned int attr_id)
{
	for (unsigned int i = 0; i < n; i++)
		if (tab[i].attr_id == attr_id)
			return &tab[i];
	return NULL;
}

const struct rdiag_mad_attr *rd_mad_smp_layout(unsigned int attr_id)
{
	if (attr_id == rd_mad_node_info.attr_id)
		return &rd_mad_node_info;
	if (attr_id == rd_mad_port_info.attr_id)
		return &rd_mad_port_info;
	return rd_mad_find(smp_attrs, MF_N(smp_attrs), attr_id);
}

/* Trap data details, offsets from the start of the Notice (details begin at byte 10; IBTA
 * vol 1 14.2.5.1, the kernel's struct ib_mad_notice_attr) */
static const struct rdiag_mad_field trap_gid_f[] = {
	MFG("gid", 128, -1),
};
static const struct rdiag_mad_field trap_128_f[] = {
	MF("lid", 80, 16, -1),
};
static const struct rdiag_mad_field trap_129_f[] = {
	MF("lid", 96, 16, -1), MF("port_num", 112, 8, -1),
};
static const struct rdiag_mad_field trap_144_f[] = {
	MF("lid", 96, 16, -1), MF("local_changes", 127, 1, -1),
	MF("new_capability_mask", 128, 32, -1), MF("change_flags", 168, 8, -1),
	MF("capability_mask2", 176, 16, -1),
};
static const struct rdiag_mad_field trap_145_f[] = {
	MF("lid", 96, 16, -1), MF("new_system_image_guid", 128, 64, -1),
};
static const struct rdiag_mad_field trap_256_f[] = {
	MF("lid", 96, 16, -1), MF("dr_slid", 112, 16, -1), MF("method", 128, 8, -1),
	MF("attr_id", 144, 16, -1), MF("attr_mod", 160, 32, -1), MF("m_key", 192, 64, -1),
	MF("dr_notice", 264, 1, -1), MF("dr_path_truncated", 265, 1, -1),
	MF("dr_hop_count", 266, 6, -1),
};
static const struct rdiag_mad_field trap_257_f[] = {
	MF("lid1", 96, 16, -1), MF("lid2", 112, 16, -1), MF("key", 128, 32, -1),
	MF("sl", 160, 4, -1), MF("qp1", 168, 24, -1), MF("qp2", 200, 24, -1),
	MFG("gid1", 224, -1), MFG("gid2", 352, -1),
};

static const struct rdiag_mad_attr traps[] = {
	MA(64, "GIDInService", "gid_in_service", 34, trap_gid_f),
	MA(65, "GIDOutOfService", "gid_out_of_service", 34, trap_gid_f),
	MA(66, "MulticastGroupCreated", "mcast_group_created", 34, trap_gid_f),
	MA(67, "MulticastGroupDeleted", "mcast_group_deleted", 34, trap_gid_f),
	MA(128, "LinkStateChange", "link_state_change", 12, trap_128_f),
	MA(129, "LocalLinkIntegrityError", "local_link_integrity", 15, trap_129_f),
	MA(130, "ExcessiveBufferOverrun", "excessive_buffer_overrun", 15, trap_129_f),
	MA(131, "FlowControlUpdateTimer", "flow_control_update_timer", 15, trap_129_f),
	MA(144, "CapabilityMaskChange", "capability_mask_change", 24, trap_144_f),
	MA(145, "SystemImageGUIDChange", "system_image_guid_change", 24, trap_145_f),
	MA(256, "BadM_Key", "bad_m_key", 34, trap_256_f),
	MA(257, "BadP_Key", "bad_p_key", 60, trap_257_f),
	MA(258, "BadQ_Key", "bad_q_key", 60, trap_257_f),
};

const struct rdiag_mad_attr *rdiag_mad_notice_layout(unsigned int trap_number)
{
	return rd_mad_find(traps, MF_N(traps), trap_number);
}
