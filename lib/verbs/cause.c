/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cause ids shared by rdmadoctor's and rdmatrace's verdicts; see rdmadiag/cause.h. */
#include <string.h>

#include "rdmadiag/cause.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* rdmadoctor's ids first (doctor.h lists them), then the ones only a passive trace sees */
static const struct rdiag_cause causes[] = {
	{ "ok", "none", "the connection was established (and closed cleanly)" },
	{ "no_rdma_device", "host", "there is no RDMA device on this host" },
	{ "no_cm_device_node", "host", "/dev/infiniband/rdma_cm is missing (rdma_ucm not loaded)" },
	{ "no_uverbs_device_node", "host", "/dev/infiniband/uverbsN is missing (ib_uverbs not loaded)" },
	{ "device_node_access", "host", "no permission to open the /dev/infiniband device nodes" },
	{ "module_not_loaded", "host", "a kernel module of the RDMA stack is not loaded" },
	{ "memlock_low", "host", "RLIMIT_MEMLOCK is too low to register memory" },
	{ "qp_create_failed", "host", "creating the QP failed (memlock limit, device QP/CQ limits)" },
	{ "attempt_failed", "host", "a step of the connection attempt failed outside rdma_cm" },
	{ "port_not_active", "link", "the RDMA port is not ACTIVE" },
	{ "ib_no_sm", "link", "InfiniBand port without a subnet manager" },
	{ "not_rdma_netdev", "address", "the address is on a netdev without an RDMA device" },
	{ "netdev_other_netns", "address", "the RDMA device's netdev is in another network namespace" },
	{ "no_gid_for_source", "address", "the source address has no GID (not a local address of an RDMA netdev)" },
	{ "gid_roce_v1_only", "address", "only a RoCE v1 GID exists for the address" },
	{ "gid_link_local_only", "address", "only link-local GIDs exist on the port" },
	{ "gid_ipv4_missing", "address", "the IPv4 address of the netdev has no GID" },
	{ "no_route", "network", "there is no usable route to the destination" },
	{ "neighbour_unresolved", "network", "the next hop's neighbour entry (ARP/ND) never resolved" },
	{ "mtu_too_small", "network", "the netdev MTU is too small for RoCE" },
	{ "addr_error", "network", "address resolution failed (ADDR_ERROR)" },
	{ "route_error", "network", "route resolution failed (ROUTE_ERROR)" },
	{ "firewall_drops_roce", "firewall", "a firewall rule drops RoCE v2 (UDP 4791)" },
	{ "no_listener", "cm", "nothing listens on the destination port (REJECTED, reason 8 INVALID_SERVICE_ID)" },
	{ "rejected_by_application", "cm", "the peer application called rdma_reject() (REJECTED, reason 28 CONSUMER_DEFINED)" },
	{ "rejected", "cm", "the peer's CM rejected the connection (REJECTED with another reason)" },
	{ "cm_no_response", "cm", "the CM REQ got no REP or REJ: the peer does not answer at the CM level" },
	{ "connect_error", "cm", "the connection failed while the QP was moved to RTR/RTS (CONNECT_ERROR)" },
	{ "disconnect_failed", "cm", "established, but the disconnect did not complete" },
	{ "mtu_mismatch", "transport", "established, but the two ends' MTUs differ" },
	{ "datapath_mtu_fails", "transport", "established, but packets of a size the path MTU allows did not complete: a hop drops them" },
	/* the two ends compared through rdmadoctor listen's side channel */
	{ "peer_addr_not_rdma", "address", "no RDMA port of the peer carries the address connected to" },
	{ "peer_no_rocev2_gid", "address", "the peer has no RoCE v2 GID for the address (none, or RoCE v1 only)" },
	{ "peer_gid_type_mismatch", "transport", "the two ends would use different RoCE versions" },
	{ "peer_gid_index_differs", "address", "the address's GID index differs between the two ends: one job-wide GID index is wrong on one of them" },
	{ "peer_mtu_mismatch", "transport", "the two ends' netdev or active MTUs differ: packets above the smaller RDMA MTU are dropped" },
	{ "peer_tos_mismatch", "network", "the two ends' default ToS differ: the two directions travel in different traffic classes" },
	{ "peer_speed_mismatch", "link", "the two ends' link speeds differ: the faster end can overrun the slower one" },
	{ "peer_port_space_mismatch", "cm", "the listener is on the port in another rdma_cm port space: the REQ names a service ID nothing listens on" },
	/* seen by rdmatrace */
	{ "address_unresolved", "network", "rdma_resolve_addr failed (ADDR_ERROR): no route, no RDMA device or no neighbour for the destination" },
	{ "route_unresolved", "network", "rdma_resolve_route failed (ROUTE_ERROR)" },
	{ "rejected_by_peer", "cm", "the peer rejected the connection (REJECTED); the reason says why" },
	{ "peer_unreachable", "cm", "rdma_cm gave up: UNREACHABLE after the REQ's retries" },
	{ "timeout", "application", "the application gave up (destroyed the id) before any answer or error" },
	{ "device_removed", "host", "the RDMA device under the id was removed (DEVICE_REMOVAL)" },
	{ "incomplete", "none", "still in progress when the trace ended" },
};

const struct rdiag_cause *rdiag_cause_find(const char *id)
{
	size_t i;

	if (!id)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(causes); i++)
		if (!strcmp(causes[i].id, id))
			return &causes[i];
	return NULL;
}

const struct rdiag_cause *rdiag_cause_table(size_t *n)
{
	if (n)
		*n = ARRAY_SIZE(causes);
	return causes;
}
