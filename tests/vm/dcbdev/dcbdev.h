/* SPDX-License-Identifier: GPL-2.0 */
/* rdmadiag_dcbdev: shared state of the pair (dcbdev_net.c), its DCB/ethtool side
 * (dcbdev_dcb.c) and link-level pause (dcbdev_pause.c). */
#ifndef RDMADIAG_DCBDEV_H
#define RDMADIAG_DCBDEV_H

#include <linux/atomic.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <net/dcbnl.h>

#define DCBDEV_PRIOS	IEEE_8021QAZ_MAX_TCS	/* 8 */
#define DCBDEV_DSCPS	64
#define DCBDEV_ECN_ROLES	2	/* roce_np, roce_rp (dcbdev_ecn.c) */

/* the per-priority counters ethtool -S shows, in its order */
enum dcbdev_stat {
	DCBDEV_RX_PACKETS, DCBDEV_RX_BYTES, DCBDEV_TX_PACKETS, DCBDEV_TX_BYTES,
	DCBDEV_RX_PAUSE, DCBDEV_TX_PAUSE, DCBDEV_NSTATS
};

/* link-level pause frames (dcbdev_pause.c) */
enum dcbdev_pause_dir { DCBDEV_PAUSE_RX, DCBDEV_PAUSE_TX, DCBDEV_PAUSE_DIRS };

struct dcbdev_priv {
	struct net_device __rcu *peer;
	/* DCB configuration, written under RTNL by dcbnl */
	struct ieee_pfc pfc;		/* requests/indications are filled from the counters */
	struct ieee_ets ets;
	u8 dcbx;
	/* the APP table's DSCP -> priority, rebuilt from the kernel's app list on every
	 * change and read locklessly by the transmit path */
	u8 dscp_prio[DCBDEV_DSCPS];
	atomic64_t stats[DCBDEV_PRIOS][DCBDEV_NSTATS];
	/* how many times ethtool -S read them (sysfs dcbdev/stats_reads): a test knows when
	 * a tool's sample was taken */
	atomic64_t stats_reads;
	/* link-level pause: the settings ethtool -A wrote, the 802.3x frames simulated */
	struct ethtool_pauseparam pause;
	atomic64_t pause_frames[DCBDEV_PAUSE_DIRS];
	/* OFED-style ECN enable bits per role and priority, and their sysfs directories */
	u8 ecn[DCBDEV_ECN_ROLES][DCBDEV_PRIOS];
	struct kobject *ecn_dir, *ecn_role[DCBDEV_ECN_ROLES], *ecn_enable[DCBDEV_ECN_ROLES];
};

static inline void dcbdev_count(struct dcbdev_priv *p, unsigned int prio,
				enum dcbdev_stat s, u64 n)
{
	atomic64_add(n, &p->stats[prio][s]);
}

extern const struct dcbnl_rtnl_ops dcbdev_dcbnl_ops;
extern const struct ethtool_ops dcbdev_ethtool_ops;
void dcbdev_dcb_init(struct dcbdev_priv *p);
int dcbdev_ecn_add(struct net_device *dev);
void dcbdev_ecn_del(struct net_device *dev);
void dcbdev_pause_init(struct dcbdev_priv *p);
void dcbdev_pause_count(struct net_device *dev, struct net_device *peer, u64 n);
void dcbdev_get_pauseparam(struct net_device *dev, struct ethtool_pauseparam *pp);
int dcbdev_set_pauseparam(struct net_device *dev, struct ethtool_pauseparam *pp);
void dcbdev_get_pause_stats(struct net_device *dev, struct ethtool_pause_stats *st);
u8 dcbdev_classify(const struct dcbdev_priv *p, const struct sk_buff *skb);

#endif
