/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Performance management (class 0x04): the layouts in the 192-byte PerfMgt data (IBTA vol 1
 * 16.1.3 and 16.1.4; the kernel's ib_pma.h and libibmad lay out the same bits). */
#include <stddef.h>

#include "mad_fields.h"

static const struct rdiag_mad_field port_counters_f[] = {
	MF("port_select", 8, 8, -1), MF("counter_select", 16, 16, -1),
	MF("symbol_error_counter", 32, 16, -1), MF("link_error_recovery_counter", 48, 8, -1),
	MF("link_downed_counter", 56, 8, -1), MF("port_rcv_errors", 64, 16, -1),
	MF("port_rcv_remote_physical_errors", 80, 16, -1),
	MF("port_rcv_switch_relay_errors", 96, 16, -1), MF("port_xmit_discards", 112, 16, -1),
	MF("port_xmit_constraint_errors", 128, 8, -1),
	MF("port_rcv_constraint_errors", 136, 8, -1), MF("counter_select2", 144, 8, -1),
	MF("local_link_integrity_errors", 152, 4, -1),
	MF("excessive_buffer_overrun_errors", 156, 4, -1), MF("vl15_dropped", 176, 16, -1),
	MF("port_xmit_data", 192, 32, -1), MF("port_rcv_data", 224, 32, -1),
	MF("port_xmit_pkts", 256, 32, -1), MF("port_rcv_pkts", 288, 32, -1),
	MF("port_xmit_wait", 320, 32, -1),
};

static const struct rdiag_mad_field port_counters_ext_f[] = {
	MF("port_select", 8, 8, -1), MF("counter_select", 16, 16, -1),
	MF("port_xmit_data", 64, 64, -1), MF("port_rcv_data", 128, 64, -1),
	MF("port_xmit_pkts", 192, 64, -1), MF("port_rcv_pkts", 256, 64, -1),
	MF("port_unicast_xmit_pkts", 320, 64, -1), MF("port_unicast_rcv_pkts", 384, 64, -1),
	MF("port_multicast_xmit_pkts", 448, 64, -1), MF("port_multicast_rcv_pkts", 512, 64, -1),
};

static const struct rdiag_mad_field port_samples_control_f[] = {
	MF("op_code", 0, 8, -1), MF("port_select", 8, 8, -1), MF("tick", 16, 8, -1),
	MF("counter_width", 29, 3, -1), MF("counter_mask0", 34, 3, -1),
	MF("counter_masks1to9", 37, 27, -1), MF("counter_masks10to14", 65, 15, -1),
	MF("sample_mechanisms", 80, 8, -1), MF("sample_status", 94, 2, -1),
	MF("option_mask", 96, 64, -1), MF("vendor_mask", 160, 64, -1),
	MF("sample_start", 224, 32, -1), MF("sample_interval", 256, 32, -1),
	MF("tag", 288, 16, -1), MFA("counter_select", 304, 16, 15, 16, -1),
};

static const struct rdiag_mad_field port_samples_result_f[] = {
	MF("tag", 0, 16, -1), MF("sample_status", 30, 2, -1),
	MFA("counter", 32, 32, 15, 32, -1),
};

static const struct rdiag_mad_field xmit_data_sl_f[] = {
	MF("port_select", 8, 8, -1), MFA("port_xmit_data_sl", 32, 32, 16, 32, -1),
};

static const struct rdiag_mad_field rcv_data_sl_f[] = {
	MF("port_select", 8, 8, -1), MFA("port_rcv_data_sl", 32, 32, 16, 32, -1),
};

static const struct rdiag_mad_attr perf_attrs[] = {
	MA(0x0010, "PortSamplesControl", "port_samples_control", 68, port_samples_control_f),
	MA(0x0011, "PortSamplesResult", "port_samples_result", 64, port_samples_result_f),
	MA(0x0012, "PortCounters", "port_counters", 44, port_counters_f),
	MA(0x001D, "PortCountersExtended", "port_counters_extended", 72, port_counters_ext_f),
	MA(0x0036, "PortXmitDataSL", "port_xmit_data_sl", 68, xmit_data_sl_f),
	MA(0x0037, "PortRcvDataSL", "port_rcv_data_sl", 68, rcv_data_sl_f),
};

const struct rdiag_mad_attr *rd_mad_perf_layout(unsigned int attr_id)
{
	if (attr_id == rd_mad_class_port_info.attr_id)
		return &rd_mad_class_port_info;
	return rd_mad_find(perf_attrs, MF_N(perf_attrs), attr_id);
}
