/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdma_cm event names, event->status decoding and likely causes; see rdmadiag/cmstr.h.
 *
 * The causes are distilled from the kernel (drivers/infiniband/core/cma.c, addr.c, cm.c) and
 * from the user threads collected in rdma-reference.md ("Connection-failure threads"). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct ev_info {
	const char *name;
	const char *meaning;
	int error;
};

/* enum rdma_cm_event_type order (librdmacm rdma_cma.h) */
static const struct ev_info events[] = {
	{ "ADDR_RESOLVED", "the destination address was resolved to an RDMA device and next hop", 0 },
	{ "ADDR_ERROR", "address resolution failed: no route, no RDMA device for the address, or the next hop's neighbour entry did not resolve", 1 },
	{ "ROUTE_RESOLVED", "a path to the destination was resolved (IB: SA PathRecord; RoCE: built locally)", 0 },
	{ "ROUTE_ERROR", "route resolution failed (IB: the subnet administrator did not answer)", 1 },
	{ "CONNECT_REQUEST", "a connection request arrived on a listening id", 0 },
	{ "CONNECT_RESPONSE", "the peer answered a connect on an id without a QP; call rdma_accept/establish", 0 },
	{ "CONNECT_ERROR", "an error happened while establishing the connection (often a QP transition)", 1 },
	{ "UNREACHABLE", "the peer did not answer at the CM level (REQ retries exhausted) or is unreachable", 1 },
	{ "REJECTED", "the peer (or its CM) rejected the connection; status is the reject reason", 1 },
	{ "ESTABLISHED", "the connection is established", 0 },
	{ "DISCONNECTED", "the connection was disconnected", 0 },
	{ "DEVICE_REMOVAL", "the RDMA device used by this id was removed", 1 },
	{ "MULTICAST_JOIN", "a multicast join completed", 0 },
	{ "MULTICAST_ERROR", "a multicast group error occurred", 1 },
	{ "ADDR_CHANGE", "the address of the id's netdev changed (bonding failover, IP change)", 0 },
	{ "TIMEWAIT_EXIT", "the QP left the CM timewait state and may be reused", 0 },
	{ "ADDRINFO_RESOLVED", "rdma_resolve_addrinfo completed", 0 },
	{ "ADDRINFO_ERROR", "rdma_resolve_addrinfo failed", 1 },
	{ "USER", "a user-generated event", 0 },
	{ "INTERNAL", "an internal librdmacm event", 0 },
};

const char *rdiag_cm_event_name(int event)
{
	if (event < 0 || (size_t)event >= ARRAY_SIZE(events))
		return NULL;
	return events[event].name;
}

int rdiag_cm_event_from_name(const char *name)
{
	size_t i;

	if (!name)
		return -1;
	if (strncasecmp(name, "RDMA_CM_EVENT_", 14) == 0)
		name += 14;
	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (strcasecmp(name, events[i].name) == 0)
			return (int)i;
	return -1;
}

const char *rdiag_cm_event_meaning(int event)
{
	if (event < 0 || (size_t)event >= ARRAY_SIZE(events))
		return "unknown rdma_cm event";
	return events[event].meaning;
}

int rdiag_cm_event_is_error(int event)
{
	if (event < 0 || (size_t)event >= ARRAY_SIZE(events))
		return 0;
	return events[event].error;
}

const char *rdiag_errno_name(int err)
{
	const char *s;

	if (err < 0)
		err = -err;
	if (err == 0)
		return "0";
	s = strerrorname_np(err);
	return s ? s : "E?";
}

enum { EV_ADDR_ERROR = 1, EV_ROUTE_ERROR = 3, EV_CONNECT_ERROR = 6, EV_UNREACHABLE = 7,
	EV_REJECTED = 8, EV_DEVICE_REMOVAL = 11, EV_MULTICAST_ERROR = 13 };

char *rdiag_cm_status_str(int event, int status, char *buf, size_t len)
{
	const char *n;

	if (!buf || !len)
		return buf;
	if (event == EV_REJECTED) {
		n = status > 0 ? rdiag_cm_rej_reason_name((unsigned int)status) : NULL;
		snprintf(buf, len, "reject reason %d %s", status, n ? n : "(unassigned)");
	} else if (event == EV_UNREACHABLE && status > 0 && status < 256) {
		/* a SIDR REP's status (IBA 16.3.4.2, enum ib_cm_sidr_status): UD ids only */
		static const char *const sidr[] = { NULL, "UNSUPPORTED (no such service)",
			"REJECT", "NO_QP", "REDIRECT", "UNSUPPORTED_VERSION" };

		n = (size_t)status < sizeof(sidr) / sizeof(sidr[0]) ? sidr[status] : NULL;
		snprintf(buf, len, "SIDR status %d %s", status, n ? n : "(unassigned)");
	} else if (status == 0) {
		snprintf(buf, len, "0 (success)");
	} else if (status < 0 && status > -4096) {
		snprintf(buf, len, "%d %s (%s)", status, rdiag_errno_name(status), strerror(-status));
	} else {
		/* unexpected */
		snprintf(buf, len, "%d", status);
	}
	return buf;
}

struct cause {
	int event;
	int status;	/* or ANY */
	const char *text;
};

#define ANY INT_MIN	/* any status (reasons are positive, errnos negative) */
static const struct cause causes[] = {
	{ EV_ADDR_ERROR, -ENODEV, "the address is not on an RDMA-capable netdev visible here: the IP is on a netdev without an RDMA device, or the netdev/RDMA device is in another network namespace; check the GID table's ndevs and 'ip addr' in this namespace" },
	{ EV_ADDR_ERROR, -EADDRNOTAVAIL, "the source address is not configured on any local interface; check --src and 'ip addr'" },
	{ EV_ADDR_ERROR, -ETIMEDOUT, "the neighbour (ARP/ND) of the next hop did not resolve within the timeout: the destination or gateway does not answer on the egress netdev; check 'ip neigh' and the route" },
	{ EV_ADDR_ERROR, -ENETUNREACH, "there is no route to the destination; check 'ip route get DST'" },
	{ EV_ADDR_ERROR, -EHOSTUNREACH, "the destination is unreachable (an unreachable/prohibit route or a failed neighbour); check 'ip route get DST' and 'ip neigh'" },
	{ EV_ADDR_ERROR, -ENODATA, "the neighbour entry is not resolved yet; retry or check 'ip neigh'" },
	{ EV_ADDR_ERROR, -EINVAL, "the route is unusable (blackhole route, or source and destination families differ)" },
	{ EV_ADDR_ERROR, ANY, "address resolution failed; check the route and neighbour of the destination and that the source is on an RDMA netdev" },
	{ EV_ROUTE_ERROR, -ETIMEDOUT, "IB: the subnet administrator did not answer the PathRecord query (SM down or overloaded); RoCE: rarely seen, check the netdev" },
	{ EV_ROUTE_ERROR, -EINVAL, "RoCE: the netdev MTU is too small for any RoCE path MTU (needs at least 352 bytes)" },
	{ EV_ROUTE_ERROR, -ENODEV, "the bound netdev disappeared or is in another namespace" },
	{ EV_ROUTE_ERROR, ANY, "route resolution failed; on IB check the SM (sm_lid, port state), on RoCE the netdev" },
	{ EV_CONNECT_ERROR, -ETIMEDOUT, "a QP transition timed out resolving the destination MAC (neighbour); check 'ip neigh'" },
	{ EV_CONNECT_ERROR, -EINVAL, "a QP transition was refused: attributes such as path MTU or GID index do not fit the port" },
	{ EV_CONNECT_ERROR, ANY, "the connection failed while moving the QP through INIT/RTR/RTS or exchanging CM messages" },
	{ EV_UNREACHABLE, -ETIMEDOUT, "the CM REQ got no answer after all retries: the peer is not reachable at the CM level (firewall dropping UDP 4791, wrong GID or route, lossy fabric, peer host down); compare cm_tx_retries/req with cm_rx_msgs/rep" },
	{ EV_UNREACHABLE, -ENETUNREACH, "the neighbour of the peer changed or vanished during the connection (cma_netevent_work_handler)" },
	{ EV_UNREACHABLE, 1, "SIDR REP status 1 (no such service): nothing listens on that port in the UDP port space of the peer; check the server, the port and the port space" },
	{ EV_UNREACHABLE, 2, "SIDR REP status 2 (REJECT): the peer application called rdma_reject() on the UD service request; its log or private data may say why" },
	{ EV_UNREACHABLE, ANY, "the peer is unreachable at the CM level; check the path and the firewall on both ends" },
	{ EV_REJECTED, RDIAG_REJ_INVALID_SERVICE_ID, "nothing listens on that port in that port space on the peer: start the server, check the port and the port space (TCP vs IB)" },
	{ EV_REJECTED, RDIAG_REJ_CONSUMER_DEFINED, "the peer application called rdma_reject(); its private data may carry the application's reason" },
	{ EV_REJECTED, RDIAG_REJ_INVALID_MTU, "the path MTU in the REQ does not fit the peer; compare the netdev MTUs of both ends" },
	{ EV_REJECTED, RDIAG_REJ_INVALID_GID, "the peer does not accept the GID used; check GID index/type (RoCE v1 vs v2) on both ends" },
	{ EV_REJECTED, RDIAG_REJ_NO_QP, "the peer could not create or find a QP for the connection (resources or QP limits)" },
	{ EV_REJECTED, RDIAG_REJ_NO_RESOURCES, "the peer ran out of resources" },
	{ EV_REJECTED, RDIAG_REJ_TIMEOUT, "the peer's CM timed out waiting for our answer (or our REP/RTU was lost)" },
	{ EV_REJECTED, RDIAG_REJ_STALE_CONN, "the peer still holds a connection with this QP/communication id (stale connection); wait for timewait or restart" },
	{ EV_REJECTED, RDIAG_REJ_INSUFFICIENT_RESP_RESOURCES, "responder resources / initiator depth exceed what the peer supports" },
	{ EV_REJECTED, RDIAG_REJ_INVALID_RNR_RETRY, "the RNR retry count is not acceptable to the peer" },
	{ EV_REJECTED, ANY, "the peer's CM rejected the connection; the reason names the parameter to compare on both ends" },
	{ EV_DEVICE_REMOVAL, ANY, "the RDMA device was removed (driver unload, 'rdma link delete', hot unplug)" },
	{ EV_MULTICAST_ERROR, ANY, "the multicast group join failed or the group was lost (IB: SM; RoCE: IGMP/MLD)" },
};

const char *rdiag_cm_status_cause(int event, int status)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(causes); i++) {
		if (causes[i].event != event)
			continue;
		if (causes[i].status == status || causes[i].status == ANY)
			return causes[i].text;
	}
	if (rdiag_cm_event_is_error(event))
		return "no specific cause known for this status; see rdma_get_cm_event(3)";
	return "not an error";
}

/* meanings of the IB CM reject reasons (IBTA vol. 1 table 112 "REJ reason codes"; kernel
 * include/rdma/ib_cm.h); the names live in lib/packet/ */
static const char *const rej_meaning[RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED + 1] = {
	[RDIAG_REJ_NO_QP] = "no QP available on the peer",
	[RDIAG_REJ_NO_EEC] = "no EE context available (RD only)",
	[RDIAG_REJ_NO_RESOURCES] = "the peer has insufficient resources",
	[RDIAG_REJ_TIMEOUT] = "the peer's CM timed out",
	[RDIAG_REJ_UNSUPPORTED] = "the request is not supported by the peer",
	[RDIAG_REJ_INVALID_COMM_ID] = "the communication id is invalid",
	[RDIAG_REJ_INVALID_COMM_INSTANCE] = "the communication instance is invalid",
	[RDIAG_REJ_INVALID_SERVICE_ID] = "no listener matched the service ID (port and port space)",
	[RDIAG_REJ_INVALID_TRANSPORT_TYPE] = "the transport type is not supported (e.g. RC vs UC)",
	[RDIAG_REJ_STALE_CONN] = "stale connection: the QP/communication id is still in use",
	[RDIAG_REJ_RDC_NOT_EXIST] = "the RD channel does not exist",
	[RDIAG_REJ_INVALID_GID] = "the primary GID is not acceptable",
	[RDIAG_REJ_INVALID_LID] = "the primary LID is not acceptable",
	[RDIAG_REJ_INVALID_SL] = "the primary SL is not acceptable",
	[RDIAG_REJ_INVALID_TRAFFIC_CLASS] = "the primary traffic class is not acceptable",
	[RDIAG_REJ_INVALID_HOP_LIMIT] = "the primary hop limit is not acceptable",
	[RDIAG_REJ_INVALID_PACKET_RATE] = "the primary packet rate is not acceptable",
	[RDIAG_REJ_INVALID_ALT_GID] = "the alternate GID is not acceptable",
	[RDIAG_REJ_INVALID_ALT_LID] = "the alternate LID is not acceptable",
	[RDIAG_REJ_INVALID_ALT_SL] = "the alternate SL is not acceptable",
	[RDIAG_REJ_INVALID_ALT_TRAFFIC_CLASS] = "the alternate traffic class is not acceptable",
	[RDIAG_REJ_INVALID_ALT_HOP_LIMIT] = "the alternate hop limit is not acceptable",
	[RDIAG_REJ_INVALID_ALT_PACKET_RATE] = "the alternate packet rate is not acceptable",
	[RDIAG_REJ_PORT_CM_REDIRECT] = "redirect to another CM port",
	[RDIAG_REJ_PORT_REDIRECT] = "redirect to another port",
	[RDIAG_REJ_INVALID_MTU] = "the path MTU is not acceptable",
	[RDIAG_REJ_INSUFFICIENT_RESP_RESOURCES] = "insufficient responder resources (initiator depth too large)",
	[RDIAG_REJ_CONSUMER_DEFINED] = "rejected by the consumer (the peer application called rdma_reject)",
	[RDIAG_REJ_INVALID_RNR_RETRY] = "the RNR retry count is not acceptable",
	[RDIAG_REJ_DUPLICATE_LOCAL_COMM_ID] = "duplicate local communication id",
	[RDIAG_REJ_INVALID_CLASS_VERSION] = "unsupported CM class version",
	[RDIAG_REJ_INVALID_FLOW_LABEL] = "the primary flow label is not acceptable",
	[RDIAG_REJ_INVALID_ALT_FLOW_LABEL] = "the alternate flow label is not acceptable",
	[RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED] = "a vendor option is not supported",
};

const char *rdiag_cm_rej_reason_meaning(unsigned int reason)
{
	if (reason >= ARRAY_SIZE(rej_meaning) || !rej_meaning[reason])
		return "unassigned reject reason";
	return rej_meaning[reason];
}
