/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop collector: the only part that calls into the library's counters layer.
 *
 * rt_collect_once() takes one snapshot synchronously (batch mode, bench, tests).  The threaded
 * collector runs it on its own thread every interval and hands finished snapshots to the UI,
 * so a slow or hung device read never freezes the screen: the UI keeps answering keys and
 * shows which device the collector is waiting for. */
#ifndef RDMATOP_COLLECT_H
#define RDMATOP_COLLECT_H
#include <stdbool.h>
#include <stdint.h>

#include <rdmadiag/counters.h>

#include "model.h"

struct rt_collector;

struct rt_collect_opts {
	enum rdiag_source source;
	double interval;		/* seconds */
	bool qps;			/* also dump QPs, cm_ids and bound QP counters */
	const char *nl_record;		/* record netlink exchanges to this file */
	void (*wake)(void);		/* called from the thread when a snapshot is ready */
};

int rt_collector_new(struct rt_collector **out, const struct rt_collect_opts *o);
void rt_collector_free(struct rt_collector *c);
/* read the Ethernet statistics (ethtool -S of each port's netdev) that keys name, as port
 * counters next to the RDMA ones (rdiag_counters_set_eth), before the collector starts.
 * 0, or -errno of lib/fabric (rdiag_fabric_errmsg(NULL) says why) */
int rt_collector_set_eth(struct rt_collector *c, const char *const *keys, size_t n);
const char *rt_collector_errmsg(const struct rt_collector *c);

/* one snapshot, now, on the calling thread */
int rt_collect_once(struct rt_collector *c, struct rt_snap *out);

/* threaded operation */
int rt_collector_start(struct rt_collector *c);
void rt_collector_stop(struct rt_collector *c);
void rt_collector_set_interval(struct rt_collector *c, double seconds);
void rt_collector_pause(struct rt_collector *c, bool paused);
/* move the newest finished snapshot into *out (caller frees); false when none is waiting */
bool rt_collector_take(struct rt_collector *c, struct rt_snap *out);
/* true while a collection runs; *since_ns its start, dev the device being read */
bool rt_collector_busy(struct rt_collector *c, uint64_t *since_ns, char *dev, size_t len);

#endif
