/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat --prom: the Ethernet statistics (ethtool -S) of every RDMA port's netdev that
 * lib/fabric's catalogue knows, per 802.1Q priority where the driver counts so, as
 * rdma_eth_* families (rdmastat(1), PROMETHEUS). */
#ifndef RDIAG_PROM_ETH_H
#define RDIAG_PROM_ETH_H
#include <stdint.h>

struct rdiag_counters;

/* the families of one exposition, for device DEV (NULL every one) and PORT (0 every one);
 * ts_ms >= 0: each sample carries that time.  A port without a netdev, a driver without
 * statistics (or a fake sysfs tree without RDMADIAG_ETHTOOL_REPLAY) has no sample. */
void prom_eth(struct rdiag_counters *c, const char *dev, uint32_t port, int64_t ts_ms);
/* close the ethtool handle prom_eth keeps between intervals */
void prom_eth_done(void);

#endif
