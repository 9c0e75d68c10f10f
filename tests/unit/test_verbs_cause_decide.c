/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_cause_decide() (rdmadiag/cause.h): the one decision of rdmatrace's and rdmadoctor's
 * verdicts, each row of evidence to the id the issue names for it (issue 28): a UD service
 * that answered is ok, a SIDR REP status 1 is no_listener and 2 rejected_by_application, the
 * passive side of an rdma_reject() is rejected_here, an ADDR_ERROR timeout with no route is
 * no_route in both tools, an established id destroyed without a disconnect is
 * ended_without_disconnect; every id it returns is in the table. */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "rdmadiag/cause.h"

enum { ADDR_ERROR = 1, ROUTE_ERROR = 3, CONNECT_ERROR = 6, UNREACHABLE = 7, REJECTED = 8,
	DEVICE_REMOVAL = 11 };

static struct rdiag_cause_evidence none(void)
{
	struct rdiag_cause_evidence e;

	memset(&e, 0, sizeof(e));
	e.event = -1;
	return e;
}

static const char *ev(int event, int status)
{
	struct rdiag_cause_evidence e = none();

	e.event = event;
	e.status = status;
	e.destroyed = true;
	return rdiag_cause_decide(&e);
}

static const char *addr(int status, enum rdiag_cause_route r, bool nb)
{
	struct rdiag_cause_evidence e = none();

	e.event = ADDR_ERROR;
	e.status = status;
	e.route = r;
	e.neighbour_failed = nb;
	return rdiag_cause_decide(&e);
}

int main(void)
{
	struct rdiag_cause_evidence e;
	size_t n, i;
	static const int events[] = { -1, ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE,
				      REJECTED, DEVICE_REMOVAL };
	static const int statuses[] = { 0, 1, 2, 3, 8, 28, 26, -ETIMEDOUT, -ENODATA,
					-ENETUNREACH, -EHOSTUNREACH, -EINVAL, -ENODEV,
					-EADDRNOTAVAIL, -ECONNRESET };
	int missing = 0, mask;

	/* ADDR_ERROR: the status, and the route as evidence (item 5) */
	EXPECT_STREQ(addr(-ETIMEDOUT, RDIAG_CAUSE_ROUTE_UNKNOWN, false), "neighbour_unresolved");
	EXPECT_STREQ(addr(-ETIMEDOUT, RDIAG_CAUSE_ROUTE_OK, false), "neighbour_unresolved");
	EXPECT_STREQ(addr(-ETIMEDOUT, RDIAG_CAUSE_ROUTE_NONE, false), "no_route");
	EXPECT_STREQ(addr(-ENODATA, RDIAG_CAUSE_ROUTE_NONE, false), "no_route");
	EXPECT_STREQ(addr(-ENETUNREACH, RDIAG_CAUSE_ROUTE_UNKNOWN, false), "no_route");
	EXPECT_STREQ(addr(-EHOSTUNREACH, RDIAG_CAUSE_ROUTE_OK, false), "no_route");
	EXPECT_STREQ(addr(-EINVAL, RDIAG_CAUSE_ROUTE_UNKNOWN, false), "no_route");
	EXPECT_STREQ(addr(-ENODEV, RDIAG_CAUSE_ROUTE_OK, false), "not_rdma_netdev");
	EXPECT_STREQ(addr(-EADDRNOTAVAIL, RDIAG_CAUSE_ROUTE_OK, false), "no_gid_for_source");
	EXPECT_STREQ(addr(-ECONNRESET, RDIAG_CAUSE_ROUTE_OK, false), "addr_error");
	EXPECT_STREQ(addr(-ECONNRESET, RDIAG_CAUSE_ROUTE_OK, true), "neighbour_unresolved");
	EXPECT_STREQ(addr(-ECONNRESET, RDIAG_CAUSE_ROUTE_NONE, true), "no_route");
	EXPECT_STREQ(ev(ROUTE_ERROR, -ETIMEDOUT), "route_error");

	/* REJECTED by reason; UNREACHABLE of a SIDR REQ by the SIDR REP's status (item 3) */
	EXPECT_STREQ(ev(REJECTED, 8), "no_listener");
	EXPECT_STREQ(ev(REJECTED, 28), "rejected_by_application");
	EXPECT_STREQ(ev(REJECTED, 26), "rejected");
	EXPECT_STREQ(ev(UNREACHABLE, 1), "no_listener");
	EXPECT_STREQ(ev(UNREACHABLE, 2), "rejected_by_application");
	EXPECT_STREQ(ev(UNREACHABLE, 3), "rejected");
	EXPECT_STREQ(ev(UNREACHABLE, -ETIMEDOUT), "cm_no_response");
	EXPECT_STREQ(ev(UNREACHABLE, -ENETUNREACH), "peer_unreachable");
	e = none();
	e.event = UNREACHABLE;
	e.status = -ETIMEDOUT;
	e.firewall_drops_roce = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "firewall_drops_roce");
	e.status = 1;
	e.port_space_mismatch = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "peer_port_space_mismatch");
	e.event = REJECTED;
	e.status = 8;
	EXPECT_STREQ(rdiag_cause_decide(&e), "peer_port_space_mismatch");
	EXPECT_STREQ(ev(CONNECT_ERROR, -EINVAL), "connect_error");
	EXPECT_STREQ(ev(DEVICE_REMOVAL, 0), "device_removed");

	/* no error event: what the steps show */
	e = none();
	e.passive = true;
	e.established = true;	/* SIGKILLed while connected (item 7) */
	e.destroyed = true;
	e.disconnected = false;
	EXPECT_STREQ(rdiag_cause_decide(&e), "ended_without_disconnect");
	e.ud = true;	/* the passive side of a UD id: its SIDR REP, accepting or rejecting */
	EXPECT_STREQ(rdiag_cause_decide(&e), "ud_answered");
	e.passive = false;	/* the active side: ESTABLISHED, and nothing to disconnect */
	EXPECT_STREQ(rdiag_cause_decide(&e), "ok");
	e.passive = true;
	e.ud = false;
	e.disconnected = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "ok");
	e.destroyed = false;
	e.disconnected = false;
	EXPECT_STREQ(rdiag_cause_decide(&e), "ok");	/* still up when the trace ended */
	e = none();
	e.passive = true;
	e.rej_sent = true;	/* item 4 */
	e.destroyed = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "rejected_here");
	e = none();
	e.req_sent = true;
	e.destroyed = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "cm_no_response");
	e.firewall_drops_roce = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "firewall_drops_roce");
	e = none();
	e.destroyed = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "timeout");
	e.passive = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "timeout");
	e = none();
	e.open = true;
	EXPECT_STREQ(rdiag_cause_decide(&e), "incomplete");
	EXPECT_STREQ(rdiag_cause_decide(NULL), "incomplete");

	/* whatever the evidence, the id is one of the table's */
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		for (n = 0; n < sizeof(statuses) / sizeof(statuses[0]); n++)
			for (mask = 0; mask < 1 << 9; mask++) {
				const char *id;

				e = none();
				e.event = events[i];
				e.status = statuses[n];
				e.passive = mask & 1;
				e.req_sent = mask & 2;
				e.rej_sent = mask & 4;
				e.established = mask & 8;
				e.disconnected = mask & 16;
				e.destroyed = mask & 32;
				e.open = mask & 64;
				e.route = mask & 128 ? RDIAG_CAUSE_ROUTE_NONE : RDIAG_CAUSE_ROUTE_OK;
				e.ud = mask & 256;
				id = rdiag_cause_decide(&e);
				if (!rdiag_cause_find(id)) {
					printf("# %s is not in the table\n", id);
					missing++;
				}
			}
	EXPECT_EQ(missing, 0);
	return tap_done();
}
