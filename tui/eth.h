/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop: the Ethernet side of a RoCE port, from its netdev's ethtool -S named through
 * lib/fabric's catalogue (mlx5, bnxt_en, ice, i40e, the tier's test device): per-priority
 * rx/tx packets, bytes and PFC pause for the Fabric screen, and the port's pause and
 * discard totals for the Ports screen.  Rates go through the library's rate function
 * (rt_rate_step), as every other rdmatop rate. */
#ifndef RDMATOP_ETH_H
#define RDMATOP_ETH_H
#include <stdbool.h>
#include <stdint.h>

#include <rdmadiag/fabric.h>

#include "rate_glue.h"

enum rt_eth_stat { RT_ES_RX_PKTS, RT_ES_TX_PKTS, RT_ES_RX_BYTES, RT_ES_TX_BYTES,
		   RT_ES_RX_PAUSE, RT_ES_TX_PAUSE, RT_ES__N };
enum rt_eth_total { RT_ET_PAUSE, RT_ET_DISCARDS, RT_ET__N };

/* one sample (collector side) */
struct rt_eth_snap {
	char driver[32];
	uint64_t t_ns;
	uint64_t prio[RDIAG_DCB_PRIOS][RT_ES__N];
	bool have[RT_ES__N];		/* the driver has this statistic per priority */
	uint64_t total[RT_ET__N];	/* pause: every PFC and link-level pause frame, both
					 * ways (ethtool netlink's standard pause statistics
					 * when ethtool -S has no pause name the catalogue
					 * knows); discards: every discard statistic */
	bool have_total[RT_ET__N];
};

/* a value with its rate (model side) */
struct rt_eth_val {
	uint64_t raw;
	double rate;			/* per second, when valid */
	bool valid;			/* a rate from two fresh samples */
	struct rt_rate_prev prev;
};

struct rt_eth {
	char driver[32];
	struct rt_eth_val prio[RDIAG_DCB_PRIOS][RT_ES__N];
	bool have[RT_ES__N];
	struct rt_eth_val total[RT_ET__N];
	bool have_total[RT_ET__N];
};

/* sample netdev IFNAME into *out through the handle *f (opened on first use).  0; -errno
 * from lib/fabric (-EOPNOTSUPP no statistics, -ENXIO a fixture tree without a replay,
 * -ENOENT none the catalogue knows) */
int rt_eth_sample(struct rdiag_fabric **f, const char *ifname, struct rt_eth_snap *out);
/* feed one sample into *e (first call: no rates yet) */
void rt_eth_ingest(struct rt_eth *e, const struct rt_eth_snap *s);
/* the model's copy of a port's Ethernet side: *e allocated on the first sample (s NULL: the
 * port had none this time: *e keeps its values, without rates).  0 or -ENOMEM */
int rt_eth_port_ingest(struct rt_eth **e, const struct rt_eth_snap *s);
struct rt_snap;
/* collector: sample the netdev of every port of s that has one; a port whose netdev has no
 * statistics the catalogue knows keeps eth NULL.  0 or -ENOMEM */
int rt_eth_collect(struct rdiag_fabric **f, struct rt_snap *s);
const char *rt_eth_stat_title(enum rt_eth_stat s);	/* "RX-PKT/s" ... */

#endif
