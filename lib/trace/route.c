/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Is there a route to a failed connection's destination?  The evidence rdmadoctor's route
 * check has (lib/doctor/doctor_path.c), for a live trace's ADDR_ERROR: bound to its netdev,
 * rdma_cm assumes an unrouted destination is on-link and ARPs for it there, so the event's
 * ETIMEDOUT alone cannot tell a missing route from an unanswered neighbour.  The lookup is
 * lib/netlink's rd_nl_route_get, the doctor's too. */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "internal.h"
#include "netlink/netlink.h"
#include "rdmadiag/cause.h"

int rd_trace_route(int family, const unsigned char *src, const unsigned char *dst)
{
	static const unsigned char zero[16];
	struct rd_nl_route r;
	struct rd_nl nl;
	size_t n = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	int ret;

	if (!n || !dst)
		return RDIAG_CAUSE_ROUTE_UNKNOWN;
	rd_nl_init(&nl, NETLINK_ROUTE, "rtnetlink");
	nl.seq = (uint32_t)time(NULL);
	ret = rd_nl_route_get(&nl, family, dst, src && memcmp(src, zero, n) ? src : NULL, 0, &r);
	rd_nl_close(&nl);
	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH || ret == -EINVAL)
		return RDIAG_CAUSE_ROUTE_NONE;
	if (ret < 0 || r.type < 0)
		return RDIAG_CAUSE_ROUTE_UNKNOWN;
	return r.type == RTN_UNICAST || r.type == RTN_LOCAL ? RDIAG_CAUSE_ROUTE_OK :
	       RDIAG_CAUSE_ROUTE_NONE;
}
