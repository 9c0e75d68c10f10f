/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Printable names of states, types and sources. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/rate.h>
#include <rdmadiag/resources.h>
#include <rdmadiag/threshold.h>
#include "internal.h"

#define NAME_OF(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "UNKNOWN")
/* the kernel's values: NULL for one without a name (rdmadiag/packet.h, "names and tables") */
#define NAME_OR_NULL(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : NULL)

const char *rdiag_port_phys_state_name(uint8_t s)
{
	static const char *const t[] = { "NOP", "SLEEP", "POLLING", "DISABLED", "ARMED", "LINK_UP",
					 "LINK_ERROR_RECOVER", "PHY_TEST", NULL, "OPA_OFFLINE",
					 NULL, "OPA_LINK_ERROR_RECOVER" };

	return NAME_OR_NULL(t, s);
}

const char *rdiag_gid_type_name(enum rdiag_gid_type t)
{
	switch (t) {
	case RDIAG_GID_IB_ROCE_V1: return "IB/RoCE v1";
	case RDIAG_GID_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}

const char *rdiag_origin_name(enum rdiag_origin o)
{
	static const char *const t[] = { "netlink", "sysfs", "sysfs-device", "pma", "cm",
					 "ethtool" };

	return NAME_OF(t, o);
}

const char *rdiag_qp_type_name(unsigned int type)
{
	/* enum ib_qp_type (include/rdma/ib_verbs.h), the names of iproute2's rdma res */
	static const char *const t[] = { "SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE",
					 NULL, "RAW_PACKET", "XRC_INI", "XRC_TGT" };

	if (type == 0xFF)
		return "DRIVER";
	return type < sizeof(t) / sizeof(t[0]) ? t[type] : NULL;
}

const char *rdiag_qp_state_name(unsigned int s)
{
	/* enum rdiag_qp_state: enum ib_qp_state, the same values as enum ibv_qp_state */
	static const char *const t[] = {
		[RDIAG_QPS_RESET] = "RESET", [RDIAG_QPS_INIT] = "INIT", [RDIAG_QPS_RTR] = "RTR",
		[RDIAG_QPS_RTS] = "RTS", [RDIAG_QPS_SQD] = "SQD", [RDIAG_QPS_SQE] = "SQE",
		[RDIAG_QPS_ERR] = "ERR",
	};

	return NAME_OR_NULL(t, s);
}

const char *rdiag_res_cm_state_name(uint8_t s)
{
	/* enum rdma_cm_state (drivers/infiniband/core/cma_priv.h) */
	static const char *const t[] = { "IDLE", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY",
					 "ROUTE_RESOLVED", "CONNECT", "DISCONNECT", "ADDR_BOUND",
					 "LISTEN", "DEVICE_REMOVAL", "DESTROYING" };

	return NAME_OR_NULL(t, s);
}

const char *rdiag_sockaddr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ss;

		inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)ss;

		inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s->sin6_port));
	} else if (ss->ss_family == AF_IB) {
		snprintf(buf, len, "ib");
	} else {
		snprintf(buf, len, "-");
	}
	return buf;
}

const char *rdiag_unit_name(enum rdiag_unit u)
{
	static const char *const t[] = { "events", "packets", "bytes", "4-octet words", "messages",
					 "objects", "ticks" };

	return NAME_OF(t, u);
}

const char *rdiag_behaviour_name(enum rdiag_behaviour b)
{
	static const char *const t[] = { "wrapping", "saturating", "gauge" };

	return NAME_OF(t, b);
}

const char *rdiag_severity_name(enum rdiag_severity s)
{
	static const char *const t[] = { "info", "warning", "error" };

	return NAME_OF(t, s);
}

const char *rdiag_direction_name(enum rdiag_direction d)
{
	static const char *const t[] = { "", "requester", "responder", "tx", "rx" };

	return NAME_OF(t, d);
}

const char *rdiag_rate_state_name(enum rdiag_rate_state s)
{
	static const char *const t[] = { "first", "valid", "stale", "reset" };

	return NAME_OF(t, s);
}

const char *rdiag_threshold_kind_name(enum rdiag_threshold_kind k)
{
	static const char *const t[] = { "absolute", "delta", "rate" };

	return NAME_OF(t, k);
}
