/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/rtmon.h: rtnetlink changes as they happen (the flight recorder's netdev,
 * address, neighbour and route record), from the kernel's multicast groups through libmnl.
 *
 * rdiag_rtmon_open() joins RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR, RTNLGRP_IPV6_IFADDR,
 * RTNLGRP_NEIGH, RTNLGRP_IPV4_ROUTE and RTNLGRP_IPV6_ROUTE on a non-blocking socket;
 * rdiag_rtmon_read() walks what arrived (every datagram bounds-checked first, each message's
 * attributes within its own length) and calls back with one line per change, in the words
 * of iproute2's "ip monitor".  rdiag_rtmon_parse() does the same for one datagram in memory.
 *
 * Functions return 0 or -errno and never print; rdiag_rtmon_errmsg() says why.
 */
#ifndef RDMADIAG_RTMON_H
#define RDMADIAG_RTMON_H
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_rtmon;

struct rdiag_rtmon_change {
	const char *kind;		/* "link", "addr", "neigh", "route" */
	bool deleted;			/* RTM_DEL* */
	int ifindex;			/* 0 when the message names none */
	char ifname[16];		/* "" when unknown (an index already gone) */
	char text[256];			/* "198.18.0.2 dev eth1 lladdr 52:54:00:12:34:56 REACHABLE" */
};
typedef void (*rdiag_rtmon_cb)(const struct rdiag_rtmon_change *c, void *arg);

struct rdiag_rtmon_opts {
	int rcvbuf_kib;		/* the socket's receive buffer in KiB; 0 = the kernel's default
				 * (a bigger one loses fewer changes in a burst: -ENOBUFS) */
};

/* 0 or -errno (rdiag_rtmon_errmsg(NULL) says why); opts may be NULL */
int rdiag_rtmon_open(struct rdiag_rtmon **m, const struct rdiag_rtmon_opts *opts);
/* the socket, to poll() for POLLIN */
int rdiag_rtmon_fd(const struct rdiag_rtmon *m);
/* everything queued now (non-blocking); -ENOBUFS when the kernel dropped changes because the
 * socket's buffer was full (the walk goes on with the next read) */
int rdiag_rtmon_read(struct rdiag_rtmon *m, rdiag_rtmon_cb cb, void *arg);
/* one datagram of rtnetlink messages: -EBADMSG when a message's length does not fit */
int rdiag_rtmon_parse(const void *buf, size_t len, rdiag_rtmon_cb cb, void *arg);
void rdiag_rtmon_close(struct rdiag_rtmon *m);
/* one line about the handle's last failed read ("" when none); with m == NULL, why the last
 * failed rdiag_rtmon_open() of the process failed.  Never NULL. */
const char *rdiag_rtmon_errmsg(const struct rdiag_rtmon *m);

#ifdef __cplusplus
}
#endif
#endif
