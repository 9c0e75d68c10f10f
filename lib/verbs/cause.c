/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cause ids shared by rdmadoctor's and rdmatrace's verdicts, what produces each, and the
 * one decision both make from what they saw of an rdma_cm id; see rdmadiag/cause.h. */
#include <errno.h>
#include <string.h>

#include "rdmadiag/cause.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* rdma_cm's event numbers (librdmacm's enum rdma_cm_event_type, stable ABI) and the SIDR REP
 * statuses (IBA 16.3.4.2, the kernel's enum ib_cm_sidr_status) */
enum { EV_ADDR_ERROR = 1, EV_ROUTE_ERROR = 3, EV_CONNECT_ERROR = 6, EV_UNREACHABLE = 7,
	EV_REJECTED = 8, EV_DEVICE_REMOVAL = 11 };
enum { SIDR_UNSUPPORTED = 1, SIDR_REJECT = 2 };
enum { REJ_INVALID_SERVICE_ID = 8, REJ_CONSUMER_DEFINED = 28 };

/* rdmadoctor's ids first (doctor.h lists them), then the ones only a passive trace sees.
 * "rdmadoctor:" in the evidence: only its checks (or its attempt) can see it */
static const struct rdiag_cause causes[] = {
	{ "ok", "none", "the connection was established (and disconnected, or still up)",
	  "ESTABLISHED (an active side's RTU; the active side of a UD id: its ESTABLISHED), then rdma_disconnect or DISCONNECTED, or not yet ended" },
	{ "no_rdma_device", "host", "there is no RDMA device on this host",
	  "rdmadoctor: no device under /sys/class/infiniband" },
	{ "no_cm_device_node", "host", "/dev/infiniband/rdma_cm is missing (rdma_ucm not loaded)",
	  "rdmadoctor: the device node check" },
	{ "no_uverbs_device_node", "host", "/dev/infiniband/uverbsN is missing (ib_uverbs not loaded)",
	  "rdmadoctor: the device node check" },
	{ "device_node_access", "host", "no permission to open the /dev/infiniband device nodes",
	  "rdmadoctor: opening the device nodes fails with EACCES" },
	{ "module_not_loaded", "host", "a kernel module of the RDMA stack is not loaded",
	  "rdmadoctor: /sys/module lacks one" },
	{ "memlock_low", "host", "RLIMIT_MEMLOCK is too low to register memory",
	  "rdmadoctor: getrlimit(RLIMIT_MEMLOCK)" },
	{ "qp_create_failed", "host", "creating the QP failed (memlock limit, device QP/CQ limits)",
	  "rdmadoctor: rdma_create_qp fails in its attempt" },
	{ "attempt_failed", "host", "a step of the connection attempt failed outside rdma_cm",
	  "rdmadoctor: a step of its attempt fails without an rdma_cm event" },
	{ "port_not_active", "link", "the RDMA port is not ACTIVE",
	  "rdmadoctor: the port's state in sysfs" },
	{ "ib_no_sm", "link", "InfiniBand port without a subnet manager",
	  "rdmadoctor: sm_lid 0 on an InfiniBand port" },
	{ "not_rdma_netdev", "address", "the address is on a netdev without an RDMA device",
	  "ADDR_ERROR -ENODEV; rdmadoctor: the route's netdev has no RDMA device" },
	{ "netdev_other_netns", "address", "the RDMA device's netdev is in another network namespace",
	  "rdmadoctor: the GID's netdev is not in this namespace" },
	{ "no_gid_for_source", "address", "the source address has no GID (not a local address of an RDMA netdev)",
	  "ADDR_ERROR -EADDRNOTAVAIL; rdmadoctor: the source is on no interface" },
	{ "gid_roce_v1_only", "address", "only a RoCE v1 GID exists for the address",
	  "rdmadoctor: the GID table" },
	{ "gid_link_local_only", "address", "only link-local GIDs exist on the port",
	  "rdmadoctor: the GID table" },
	{ "gid_ipv4_missing", "address", "the IPv4 address of the netdev has no GID",
	  "rdmadoctor: the GID table against 'ip addr'" },
	{ "no_route", "network", "there is no usable route to the destination",
	  "ADDR_ERROR -ENETUNREACH, -EHOSTUNREACH or -EINVAL; or ADDR_ERROR -ETIMEDOUT/-ENODATA while the routing table has no route to the destination ('ip route get': unreachable; bound to a netdev the kernel ARPs for it on-link)" },
	{ "neighbour_unresolved", "network", "the next hop's neighbour entry (ARP/ND) never resolved",
	  "ADDR_ERROR -ETIMEDOUT or -ENODATA (or rdmadoctor's neighbour entry FAILED) with a route to the destination, or no routing table to look at" },
	{ "mtu_too_small", "network", "the netdev MTU is too small for RoCE",
	  "rdmadoctor: the egress netdev's MTU" },
	{ "addr_error", "network", "address resolution failed (ADDR_ERROR)",
	  "ADDR_ERROR with another status" },
	{ "route_error", "network", "route resolution failed (ROUTE_ERROR)",
	  "ROUTE_ERROR" },
	{ "firewall_drops_roce", "firewall", "a firewall rule drops RoCE v2 (UDP 4791)",
	  "no answer to the REQ (UNREACHABLE -ETIMEDOUT or a give-up) while rdmadoctor's firewall check finds a rule dropping UDP 4791" },
	{ "no_listener", "cm", "nothing listens on the destination port in that port space",
	  "REJECTED with reason 8 INVALID_SERVICE_ID; or, a SIDR REQ (UDP port space), UNREACHABLE with SIDR REP status 1 (no such service)" },
	{ "rejected_by_application", "cm", "the peer application called rdma_reject()",
	  "REJECTED with reason 28 CONSUMER_DEFINED; or, a SIDR REQ, UNREACHABLE with SIDR REP status 2 (REJECT)" },
	{ "rejected", "cm", "the peer's CM rejected the connection for another reason",
	  "REJECTED with a reason other than 8 and 28, or a SIDR REP status other than 0, 1 and 2" },
	{ "rejected_here", "application", "this application rejected the connection request (rdma_reject)",
	  "the passive side sent a REJ (rdma_cma:cm_send_rej; the reason from ib_cma:icm_send_rej)" },
	{ "cm_no_response", "cm", "the CM REQ got no REP or REJ: the peer does not answer at the CM level",
	  "UNREACHABLE -ETIMEDOUT (rdma_cm's retries ran out), or a REQ sent and nothing back before the id was destroyed (or rdmadoctor gave up)" },
	{ "peer_unreachable", "cm", "rdma_cm reported the peer unreachable with an error other than a timeout",
	  "UNREACHABLE with an errno other than ETIMEDOUT" },
	{ "connect_error", "cm", "the connection failed while the QP was moved to RTR/RTS (CONNECT_ERROR)",
	  "CONNECT_ERROR" },
	{ "disconnect_failed", "cm", "established, but the disconnect did not complete",
	  "rdmadoctor: rdma_disconnect failed or no DISCONNECTED came in its timeout" },
	{ "mtu_mismatch", "transport", "established, but the two ends' MTUs differ",
	  "rdmadoctor: the peer's path MTU (private data) differs from this end's" },
	{ "datapath_mtu_fails", "transport", "established, but packets of a size the path MTU allows did not complete: a hop drops them",
	  "rdmadoctor: its data-path step" },
	{ "datapath_drops", "transport", "established, but the connection's data did not complete: the path of its UDP source port drops its packets",
	  "rdmadoctor paths: its data exchange on the connection ended in an error completion or none" },
	/* the two ends compared through rdmadoctor listen's side channel */
	{ "peer_addr_not_rdma", "address", "no RDMA port of the peer carries the address connected to",
	  "rdmadoctor: the peer's description" },
	{ "peer_no_rocev2_gid", "address", "the peer has no RoCE v2 GID for the address (none, or RoCE v1 only)",
	  "rdmadoctor: the peer's description" },
	{ "peer_gid_type_mismatch", "transport", "the two ends would use different RoCE versions",
	  "rdmadoctor: both descriptions" },
	{ "peer_gid_index_differs", "address", "the address's GID index differs between the two ends: one job-wide GID index is wrong on one of them",
	  "rdmadoctor: both descriptions" },
	{ "peer_mtu_mismatch", "transport", "the two ends' netdev or active MTUs differ: packets above the smaller RDMA MTU are dropped",
	  "rdmadoctor: both descriptions" },
	{ "peer_tos_mismatch", "network", "the two ends' default ToS differ: the two directions travel in different traffic classes",
	  "rdmadoctor: both descriptions" },
	{ "peer_speed_mismatch", "link", "the two ends' link speeds differ: the faster end can overrun the slower one",
	  "rdmadoctor: both descriptions" },
	{ "peer_port_space_mismatch", "cm", "the listener is on the port in another rdma_cm port space: the REQ names a service ID nothing listens on",
	  "no_listener's evidence while rdmadoctor's side channel finds the peer's listener on that port in another port space" },
	/* seen by rdmatrace */
	{ "ended_without_disconnect", "application", "established, then destroyed without a disconnect (the process ended, or destroyed the id while connected)",
	  "ESTABLISHED (not a UD id), then cm_id_destroy with neither rdma_disconnect nor DISCONNECTED before it" },
	{ "timeout", "application", "the application gave up (destroyed the id) before any answer or error",
	  "cm_id_destroy before ESTABLISHED, with no error event, no REQ sent (active) and no REJ sent (passive)" },
	{ "device_removed", "host", "the RDMA device under the id was removed (DEVICE_REMOVAL)",
	  "DEVICE_REMOVAL" },
	{ "incomplete", "none", "still in progress when the trace ended",
	  "no end (cm_id_destroy) and no error before the trace ended" },
	{ "ud_answered", "none", "this UD service answered a SIDR REQ: accepted or rejected, which no tracepoint tells",
	  "the passive side of a UD id sent its SIDR REP (rdma_cma:cm_send_sidr_rep, for rdma_accept and rdma_reject alike); the active side's trace has the status: ESTABLISHED, or UNREACHABLE with status 2" },
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

static const char *addr_error(const struct rdiag_cause_evidence *e)
{
	switch (-e->status) {
	case ETIMEDOUT: case ENODATA:
		/* bound to a netdev, the kernel assumes an unrouted destination is on-link and
		 * ARPs for it there: the timeout is the symptom, the missing route the cause */
		return e->route == RDIAG_CAUSE_ROUTE_NONE ? "no_route" : "neighbour_unresolved";
	case ENETUNREACH: case EHOSTUNREACH: case EINVAL:
		return "no_route";
	case ENODEV:
		return "not_rdma_netdev";
	case EADDRNOTAVAIL:
		return "no_gid_for_source";
	default:
		if (e->neighbour_failed)
			return e->route == RDIAG_CAUSE_ROUTE_NONE ? "no_route" :
			       "neighbour_unresolved";
		return "addr_error";
	}
}

static const char *no_answer(const struct rdiag_cause_evidence *e)
{
	return e->firewall_drops_roce ? "firewall_drops_roce" : "cm_no_response";
}

const char *rdiag_cause_decide(const struct rdiag_cause_evidence *e)
{
	if (!e)
		return "incomplete";
	switch (e->event) {
	case -1:
		break;
	case EV_ADDR_ERROR:
		return addr_error(e);
	case EV_ROUTE_ERROR:
		return "route_error";
	case EV_REJECTED:
		if (e->status == REJ_INVALID_SERVICE_ID)
			return e->port_space_mismatch ? "peer_port_space_mismatch" : "no_listener";
		return e->status == REJ_CONSUMER_DEFINED ? "rejected_by_application" : "rejected";
	case EV_UNREACHABLE:
		/* a positive status is a SIDR REP's (the UDP port space): errnos are negative */
		if (e->status == SIDR_UNSUPPORTED)
			return e->port_space_mismatch ? "peer_port_space_mismatch" : "no_listener";
		if (e->status == SIDR_REJECT)
			return "rejected_by_application";
		if (e->status > 0)
			return "rejected";
		return e->status == -ETIMEDOUT ? no_answer(e) : "peer_unreachable";
	case EV_DEVICE_REMOVAL:
		return "device_removed";
	case EV_CONNECT_ERROR:
	default:
		return "connect_error";
	}
	if (e->rej_sent)
		return "rejected_here";
	/* the passive side of a UD id sends a SIDR REP for rdma_accept and rdma_reject alike */
	if (e->passive && e->ud)
		return "ud_answered";
	if (e->established)
		return e->destroyed && !e->disconnected && !e->ud ? "ended_without_disconnect" :
		       "ok";
	if (e->open)
		return "incomplete";
	if (e->req_sent && !e->passive)
		return no_answer(e);
	return "timeout";
}
