/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/resources.h: QPs and rdma_cm IDs over netlink (RDMA_NLDEV_CMD_RES_QP_GET,
 * RES_CM_ID_GET), and per-QP counters (STAT_GET with STAT_RES = RES_QP) where the kernel has
 * counters bound.  Unprivileged; the kernel hides other users' kernel QPs' pid.  Uses the same
 * handle, record/replay seam and errors as counters.h. */
#ifndef RDMADIAG_RESOURCES_H
#define RDMADIAG_RESOURCES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <rdmadiag/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_qp {
	char dev[64];
	uint32_t port;		/* 0 when the QP is not bound to a port yet (RESET/INIT) */
	uint32_t lqpn;
	uint32_t rqpn;		/* valid when has_rqpn */
	bool has_rqpn;
	uint8_t type;		/* IB_QPT_*: 2 RC, 3 UC, 4 UD, 1 GSI, 0 SMI ... */
	uint8_t state;		/* enum rdiag_qp_state: 0 RESET .. 6 ERR */
	uint32_t sq_psn, rq_psn;
	bool has_rq_psn;
	uint32_t pid;		/* 0 = kernel QP */
	char comm[64];		/* process name, or the kernel owner ("ib_core") */
	uint32_t counter_id;	/* bound statistic counter, 0 none */
};

struct rdiag_cm_id {
	char dev[64];		/* "" when not bound to a device yet (listening on any) */
	uint32_t port;
	uint32_t lqpn;		/* 0 when no QP */
	uint8_t ps;		/* RDMA_PS_*: 0x106 TCP, 0x111 UDP, 0x2 IPOIB, 0x3f IB */
	uint32_t ps_full;
	uint8_t state;		/* RDMA_CM_* state (0 IDLE ... ) */
	struct sockaddr_storage src, dst;
	bool has_src, has_dst;
	uint32_t pid;
	char comm[64];
};

/* dev NULL = every device.  *out is malloc'd (free()), *n may be 0. */
int rdiag_counters_qps(struct rdiag_counters *c, const char *dev, struct rdiag_qp **out,
		       size_t *n);
int rdiag_counters_cm_ids(struct rdiag_counters *c, const char *dev, struct rdiag_cm_id **out,
			  size_t *n);

/* what a device can hold, from ibv_query_device (libibverbs, loaded on first use; the
 * device's uverbs file is opened for the query): 0; -ENODEV no such verbs device, -ENOSYS no
 * libibverbs, -EACCES/-errno it cannot be opened or queried (all fields 0 then) */
struct rdiag_device_limits {
	uint32_t max_qp, max_cq, max_mr, max_pd, max_srq, max_qp_wr;
};
int rdiag_device_limits(const char *dev, struct rdiag_device_limits *out);

/* a bound per-QP statistic counter: id, its QPs and its hwcounters (names/values parallel) */
struct rdiag_qp_counter {
	char dev[64];
	uint32_t port;
	uint32_t id;
	size_t n_qpns;
	uint32_t *qpns;
	size_t n;
	char **names;
	uint64_t *values;
};
int rdiag_counters_qp_counters(struct rdiag_counters *c, const char *dev,
			       struct rdiag_qp_counter **out, size_t *n);
void rdiag_counters_qp_counters_free(struct rdiag_qp_counter *q, size_t n);

/* enum ib_qp_type (the same values as enum ibv_qp_type: IBV_QPT_RC is IB_QPT_RC) -> "SMI",
 * "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE", "RAW_PACKET", "XRC_INI", "XRC_TGT",
 * "DRIVER" (0xFF), as rdma res prints them; NULL for other values */
const char *rdiag_qp_type_name(unsigned int type);
/* QP states: the kernel's enum ib_qp_state, the same values as libibverbs' enum
 * ibv_qp_state (struct rdiag_qp's state) */
enum rdiag_qp_state {
	RDIAG_QPS_RESET = 0,
	RDIAG_QPS_INIT = 1,
	RDIAG_QPS_RTR = 2,
	RDIAG_QPS_RTS = 3,
	RDIAG_QPS_SQD = 4,
	RDIAG_QPS_SQE = 5,
	RDIAG_QPS_ERR = 6,
};
/* enum rdiag_qp_state -> "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"; NULL for other
 * values */
const char *rdiag_qp_state_name(unsigned int state);
/* enum rdma_cm_state -> "IDLE", "ADDR_QUERY" ... "DESTROYING"; NULL */
const char *rdiag_res_cm_state_name(uint8_t state);
/* port spaces (ps_full): rdiag_port_space_name() in rdmadiag/packet.h */
/* "198.18.0.1:7471" or "[fe80::1]:7471"; buf at least 64 bytes */
const char *rdiag_sockaddr_str(const struct sockaddr_storage *ss, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
