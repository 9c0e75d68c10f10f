// SPDX-License-Identifier: GPL-2.0
/* rdmadiag_dcbdev: link-level (IEEE 802.3x) pause, as ethtool -a / -A and ethtool netlink's
 * PAUSE_GET with statistics see it.  The settings are kept as set; the frames are simulated
 * by the pause knob's "link COUNT" (dcbdev_net.c): DEV received COUNT pause frames from its
 * peer, so DEV's rx_pause_frames and the peer's tx_pause_frames grow by COUNT.  PFC frames
 * (the knob's "PRIO COUNT") are per-priority ethtool -S statistics and are not counted here,
 * as 30.3.4.2/30.3.4.3 aPAUSEMACCtrlFrames* count only the 802.3x PAUSE opcode. */
#include <linux/ethtool.h>
#include "dcbdev.h"

void dcbdev_pause_init(struct dcbdev_priv *p)
{
	p->pause.autoneg = AUTONEG_DISABLE;
	p->pause.rx_pause = 1;
	p->pause.tx_pause = 1;
}

void dcbdev_pause_count(struct net_device *dev, struct net_device *peer, u64 n)
{
	atomic64_add(n, &((struct dcbdev_priv *)netdev_priv(dev))->pause_frames[DCBDEV_PAUSE_RX]);
	if (peer)
		atomic64_add(n, &((struct dcbdev_priv *)netdev_priv(peer))->pause_frames[DCBDEV_PAUSE_TX]);
}

void dcbdev_get_pauseparam(struct net_device *dev, struct ethtool_pauseparam *pp)
{
	const struct dcbdev_priv *p = netdev_priv(dev);

	pp->autoneg = p->pause.autoneg;
	pp->rx_pause = p->pause.rx_pause;
	pp->tx_pause = p->pause.tx_pause;
}

int dcbdev_set_pauseparam(struct net_device *dev, struct ethtool_pauseparam *pp)
{
	struct dcbdev_priv *p = netdev_priv(dev);

	if (pp->autoneg > AUTONEG_ENABLE || pp->rx_pause > 1 || pp->tx_pause > 1)
		return -EINVAL;
	p->pause.autoneg = pp->autoneg;
	p->pause.rx_pause = pp->rx_pause;
	p->pause.tx_pause = pp->tx_pause;
	return 0;
}

void dcbdev_get_pause_stats(struct net_device *dev, struct ethtool_pause_stats *st)
{
	struct dcbdev_priv *p = netdev_priv(dev);

	st->tx_pause_frames = atomic64_read(&p->pause_frames[DCBDEV_PAUSE_TX]);
	st->rx_pause_frames = atomic64_read(&p->pause_frames[DCBDEV_PAUSE_RX]);
}
