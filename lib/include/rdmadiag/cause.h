/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/cause.h: the one table of connection-failure cause ids.
 *
 * rdmadoctor's verdicts (rdmadiag/doctor.h) and rdmatrace's connection verdicts
 * (rdmadiag/trace.h) name the cause of a failure with a stable id such as "no_listener" or
 * "cm_no_response".  Both take the ids, the layer each belongs to, its one-line meaning and
 * the evidence that produces it from this table, and both decide the id of what an rdma_cm
 * id went through with one function, rdiag_cause_decide(), so that the same evidence gives
 * the same id in both tools' output.
 */
#ifndef RDMADIAG_CAUSE_H
#define RDMADIAG_CAUSE_H
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_cause {
	const char *id;		/* "no_listener" */
	const char *layer;	/* "host", "link", "address", "network", "firewall", "cm",
				 * "transport", "application"; "none" for ok */
	const char *meaning;	/* one line, no trailing period */
	const char *evidence;	/* what produces it: the rdma_cm event and status, the steps,
				 * the check ("rdmadoctor: ..." when only rdmadoctor's checks can
				 * see it); one line, no trailing period */
};

/* the destination in this host's routing table (what 'ip route get DST' answers) */
enum rdiag_cause_route {
	RDIAG_CAUSE_ROUTE_UNKNOWN,	/* not looked up (e.g. a saved trace read elsewhere) */
	RDIAG_CAUSE_ROUTE_OK,		/* a unicast (or local) route */
	RDIAG_CAUSE_ROUTE_NONE,		/* none: unreachable, or a blackhole/prohibit route */
};

/* what was seen of one rdma_cm id: by rdmatrace from the kernel's tracepoints, by
 * rdmadoctor from its own attempt and its checks.  Zeroed, then event = -1: nothing seen. */
struct rdiag_cause_evidence {
	int event;		/* the failing rdma_cm event (RDMA_CM_EVENT_* values), -1 none */
	int status;		/* its status: -errno; REJECTED: the IB CM reject reason;
				 * UNREACHABLE of a SIDR REQ: the SIDR REP status (> 0) */
	bool passive;		/* the side that got the connection request */
	bool req_sent;		/* a REQ or SIDR REQ went out */
	bool rej_sent;		/* this end rejected the request (rdma_reject: REJ, or a SIDR
				 * REP with status REJECT) */
	bool established;	/* ESTABLISHED; an active side's RTU; a UD (SIDR) id's
				 * ESTABLISHED (active; the passive side's SIDR REP does not
				 * say whether it accepted: ud_answered) */
	bool disconnected;	/* rdma_disconnect was called or DISCONNECTED came */
	bool ud;		/* a UD id (SIDR REQ or REP: the UDP port space), which has
				 * no connection to disconnect; passive: it sent its SIDR REP
				 * (ud_answered: accepting or rejecting, untold) */
	bool destroyed;		/* its end was seen: the id was destroyed */
	bool open;		/* still in progress when the observation ended */
	enum rdiag_cause_route route;	/* the destination in the routing table */
	bool neighbour_failed;	/* the next hop's neighbour entry is FAILED or INCOMPLETE
				 * (rdmadoctor's check) */
	bool firewall_drops_roce;	/* a firewall rule drops UDP 4791 (rdmadoctor's check) */
	bool port_space_mismatch;	/* the peer's listener is on that port in another port
					 * space (rdmadoctor's side channel) */
};

/* the entry of id; NULL when the table has none (ids are compared exactly) */
const struct rdiag_cause *rdiag_cause_find(const char *id);
/* the whole table, *n entries (for listings and tests) */
const struct rdiag_cause *rdiag_cause_table(size_t *n);
/* the cause id of what e says happened, one of the table's: the one decision rdmatrace's
 * connection verdicts and rdmadoctor's attempt verdicts both make ("ok" for an
 * established id that was disconnected or is still up) */
const char *rdiag_cause_decide(const struct rdiag_cause_evidence *e);

#ifdef __cplusplus
}
#endif
#endif
