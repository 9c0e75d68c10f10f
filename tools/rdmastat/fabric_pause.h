/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric: the netdev's link-level pause through ethtool netlink (lib/fabric's
 * rdiag_fabric_pause, what `ethtool -I -a IFNAME` shows), and with -i its frame deltas. */
#ifndef RDIAG_STAT_FABRIC_PAUSE_H
#define RDIAG_STAT_FABRIC_PAUSE_H
#include <stdbool.h>

#include <rdmadiag/fabric.h>

struct out;

struct fabric_pause {
	int err;			/* rdiag_fabric_pause's result for the last sample */
	bool have_a, have_b;		/* a: the first sample (-i), b: the one printed */
	struct rdiag_eth_pause a, b;
};

/* take the next sample of IFNAME into p (the first one is kept as a when -i takes two); a
 * failure other than "not available here" or "nothing recorded" is one warning */
void fabric_pause_sample(struct rdiag_fabric *f, const char *ifname, struct fabric_pause *p);
/* "pause": settings and frame counters (absent where the driver has none), deltas and rates
 * between the two samples; "not available here" in text when the driver or kernel has none,
 * nothing when it was not asked (a fixture without a recording) */
void fabric_pause_print(struct out *o, const struct fabric_pause *p);

#endif
