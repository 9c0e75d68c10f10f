/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One name table per concept, one rule for unknown values: every *_name() function returns
 * NULL for a value without a name, and each table agrees with the enum of the library that
 * defines the values (libibverbs, librdmacm), so the one table serves the capture decoder,
 * the counters, the self-tests and the doctor alike. */
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "tap.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/resources.h"
#include "rdmadiag/selftest.h"

static void qp_types(void)
{
	/* libibverbs' enum ibv_qp_type has the kernel's values */
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_RC), "RC");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_UC), "UC");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_UD), "UD");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_RAW_PACKET), "RAW_PACKET");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_XRC_SEND), "XRC_INI");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_XRC_RECV), "XRC_TGT");
	EXPECT_STREQ(rdiag_qp_type_name(IBV_QPT_DRIVER), "DRIVER");
	EXPECT_STREQ(rdiag_qp_type_name(1), "GSI");
	EXPECT_TRUE(rdiag_qp_type_name(7) == NULL);	/* unused in enum ib_qp_type */
	EXPECT_TRUE(rdiag_qp_type_name(11) == NULL);
}

static void qp_states(void)
{
	/* libibverbs' enum ibv_qp_state has the kernel's values */
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_RESET), "RESET");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_INIT), "INIT");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_RTR), "RTR");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_RTS), "RTS");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_SQD), "SQD");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_SQE), "SQE");
	EXPECT_STREQ(rdiag_qp_state_name(IBV_QPS_ERR), "ERR");
	EXPECT_TRUE(rdiag_qp_state_name(IBV_QPS_ERR + 1) == NULL);
	/* and so has enum rdiag_qp_state */
	EXPECT_EQ(RDIAG_QPS_RESET, IBV_QPS_RESET);
	EXPECT_EQ(RDIAG_QPS_INIT, IBV_QPS_INIT);
	EXPECT_EQ(RDIAG_QPS_RTR, IBV_QPS_RTR);
	EXPECT_EQ(RDIAG_QPS_RTS, IBV_QPS_RTS);
	EXPECT_EQ(RDIAG_QPS_SQD, IBV_QPS_SQD);
	EXPECT_EQ(RDIAG_QPS_SQE, IBV_QPS_SQE);
	EXPECT_EQ(RDIAG_QPS_ERR, IBV_QPS_ERR);
	EXPECT_STREQ(rdiag_qp_state_name(RDIAG_QPS_ERR), "ERR");
	/* the port and rdma_cm states follow the same rule */
	EXPECT_STREQ(rdiag_port_state_name(4), "ACTIVE");
	EXPECT_TRUE(rdiag_port_state_name(6) == NULL);
	EXPECT_STREQ(rdiag_port_phys_state_name(5), "LINK_UP");
	EXPECT_TRUE(rdiag_port_phys_state_name(8) == NULL);	/* a hole in the table */
	EXPECT_TRUE(rdiag_port_phys_state_name(12) == NULL);
	EXPECT_STREQ(rdiag_res_cm_state_name(8), "LISTEN");
	EXPECT_TRUE(rdiag_res_cm_state_name(11) == NULL);
}

static void port_spaces(void)
{
	/* librdmacm's enum rdma_port_space, the full value netlink reports */
	EXPECT_STREQ(rdiag_port_space_name(RDMA_PS_TCP), "TCP");
	EXPECT_STREQ(rdiag_port_space_name(RDMA_PS_UDP), "UDP");
	EXPECT_STREQ(rdiag_port_space_name(RDMA_PS_IPOIB), "IPOIB");
	EXPECT_STREQ(rdiag_port_space_name(RDMA_PS_IB), "IB");
	EXPECT_TRUE(rdiag_port_space_name(0x003F) == NULL);	/* IB's low byte alone */
	EXPECT_TRUE(rdiag_port_space_name(0) == NULL);
}

static void mtus(void)
{
	int m;

	/* libibverbs' enum ibv_mtu is the IBA PathMTU code */
	for (m = IBV_MTU_256; m <= IBV_MTU_4096; m++) {
		EXPECT_EQ(rdiag_mtu_bytes((unsigned int)m), 128 << m);
		EXPECT_EQ(rdiag_mtu_from_bytes(rdiag_mtu_bytes((unsigned int)m)), m);
	}
	EXPECT_EQ(rdiag_mtu_bytes(IBV_MTU_1024), 1024);
	EXPECT_EQ(rdiag_mtu_bytes(0), 0);
	EXPECT_EQ(rdiag_mtu_bytes(6), 0);
	EXPECT_EQ(rdiag_mtu_from_bytes(1500), 0);
	EXPECT_EQ(rdiag_mtu_from_bytes(0), 0);
}

static void unknown_is_null(void)
{
	EXPECT_TRUE(rdiag_wc_status_name(-1) == NULL);
	EXPECT_TRUE(rdiag_wc_status_name(IBV_WC_TM_RNDV_INCOMPLETE + 1) == NULL);
	EXPECT_STREQ(rdiag_wc_status_name(IBV_WC_TM_RNDV_INCOMPLETE), "IBV_WC_TM_RNDV_INCOMPLETE");
	EXPECT_TRUE(rdiag_cm_event_name(-1) == NULL);
	EXPECT_TRUE(rdiag_cm_event_name(1000) == NULL);
	EXPECT_STREQ(rdiag_cm_event_name(RDMA_CM_EVENT_ESTABLISHED), "ESTABLISHED");
	EXPECT_TRUE(rdiag_cm_rej_reason_name(34) == NULL);
	EXPECT_TRUE(rdiag_cm_rej_reason_name(36) == NULL);
	EXPECT_TRUE(rdiag_cm_msg_name(0) == NULL);
	EXPECT_TRUE(rdiag_mad_class_name(0) == NULL);
	/* the texts are never NULL */
	EXPECT_TRUE(rdiag_wc_status_str(-1) != NULL);
	EXPECT_TRUE(rdiag_wc_status_hint(-1) != NULL);
	EXPECT_TRUE(rdiag_cm_event_meaning(-1) != NULL);
	EXPECT_TRUE(rdiag_cm_rej_reason_meaning(34) != NULL);
	/* IBTA names every opcode byte */
	EXPECT_STREQ(rdiag_opcode_name(0x1F), "RESERVED");
	EXPECT_STREQ(rdiag_opcode_name(0xC0), "MSP");
}

static void rej_reasons(void)
{
	/* the enum is the table's index: RDIAG_REJ_X is named "X" */
	EXPECT_STREQ(rdiag_cm_rej_reason_name(RDIAG_REJ_NO_QP), "NO_QP");
	EXPECT_STREQ(rdiag_cm_rej_reason_name(RDIAG_REJ_INVALID_SERVICE_ID), "INVALID_SERVICE_ID");
	EXPECT_STREQ(rdiag_cm_rej_reason_name(RDIAG_REJ_INVALID_MTU), "INVALID_MTU");
	EXPECT_STREQ(rdiag_cm_rej_reason_name(RDIAG_REJ_CONSUMER_DEFINED), "CONSUMER_DEFINED");
	EXPECT_STREQ(rdiag_cm_rej_reason_name(RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED),
		     "VENDOR_OPTION_NOT_SUPPORTED");
	EXPECT_EQ(RDIAG_REJ_INVALID_SERVICE_ID, 8);
	EXPECT_EQ(RDIAG_REJ_CONSUMER_DEFINED, 28);
	/* every named reason has a meaning, the causes use the same numbers */
	EXPECT_TRUE(strcmp(rdiag_cm_rej_reason_meaning(RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED),
			   "unassigned reject reason") != 0);
	EXPECT_TRUE(strstr(rdiag_cm_status_cause(RDMA_CM_EVENT_REJECTED,
						 RDIAG_REJ_INVALID_SERVICE_ID), "listens") != NULL);
}

static void port_states(void)
{
	/* enum rdiag_port_state has the values of libibverbs' enum ibv_port_state */
	EXPECT_EQ(RDIAG_PORT_NOP, IBV_PORT_NOP);
	EXPECT_EQ(RDIAG_PORT_DOWN, IBV_PORT_DOWN);
	EXPECT_EQ(RDIAG_PORT_INIT, IBV_PORT_INIT);
	EXPECT_EQ(RDIAG_PORT_ARMED, IBV_PORT_ARMED);
	EXPECT_EQ(RDIAG_PORT_ACTIVE, IBV_PORT_ACTIVE);
	EXPECT_EQ(RDIAG_PORT_ACTIVE_DEFER, IBV_PORT_ACTIVE_DEFER);
	EXPECT_STREQ(rdiag_port_state_name(RDIAG_PORT_NOP), "NOP");
	EXPECT_STREQ(rdiag_port_state_name(RDIAG_PORT_DOWN), "DOWN");
	EXPECT_STREQ(rdiag_port_state_name(RDIAG_PORT_INIT), "INIT");
	EXPECT_STREQ(rdiag_port_state_name(RDIAG_PORT_ARMED), "ARMED");
	EXPECT_STREQ(rdiag_port_state_name(RDIAG_PORT_ACTIVE_DEFER), "ACTIVE_DEFER");
	EXPECT_TRUE(rdiag_port_state_name(255) == NULL);
}

static void mad_classes(void)
{
	/* enum rdiag_mad_class: the IBTA numbers, and the one name table agrees with them */
	EXPECT_EQ(RDIAG_MAD_CLASS_SUBN_LID_ROUTED, 0x01);
	EXPECT_EQ(RDIAG_MAD_CLASS_SUBN_ADM, 0x03);
	EXPECT_EQ(RDIAG_MAD_CLASS_PERF, 0x04);
	EXPECT_EQ(RDIAG_MAD_CLASS_CM, 0x07);
	EXPECT_EQ(RDIAG_MAD_CLASS_SUBN_DIRECTED, 0x81);
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_SUBN_LID_ROUTED), "SUBN_LID_ROUTED");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_SUBN_DIRECTED), "SUBN_DIRECTED_ROUTE");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_SUBN_ADM), "SUBN_ADM");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_BM), "BM");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_DEVICE_MGMT), "DEVICE_MGMT");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_SNMP), "SNMP");
	EXPECT_STREQ(rdiag_mad_class_name(RDIAG_MAD_CLASS_CONG_MGMT), "CONG_MGMT");
	EXPECT_TRUE(rdiag_mad_class_name(RDIAG_MAD_CLASS_VENDOR_RANGE2_START) == NULL);
	/* attributes */
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_ADM, RDIAG_MAD_ATTR_PATH_RECORD),
		     "PathRecord");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_LID_ROUTED, RDIAG_MAD_ATTR_PORT_INFO),
		     "PortInfo");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_DIRECTED, RDIAG_MAD_ATTR_NODE_INFO),
		     "NodeInfo");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_DIRECTED, RDIAG_MAD_ATTR_NODE_DESC),
		     "NodeDescription");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_LID_ROUTED, RDIAG_MAD_ATTR_NOTICE),
		     "Notice");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_SUBN_ADM, RDIAG_MAD_ATTR_CLASS_PORT_INFO),
		     "ClassPortInfo");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_CM, RDIAG_CM_REQ), "REQ");
	EXPECT_STREQ(rdiag_mad_attr_name(RDIAG_MAD_CLASS_CM, RDIAG_CM_APR), "APR");
}

int main(void)
{
	rej_reasons();
	qp_types();
	qp_states();
	port_states();
	mad_classes();
	port_spaces();
	mtus();
	unknown_is_null();
	return tap_done();
}
