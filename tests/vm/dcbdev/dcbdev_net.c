// SPDX-License-Identifier: GPL-2.0
/* rdmadiag_dcbdev: a veth-like pair of Ethernet netdevs created at module load
 * (name0 <-> name1, default dcb0 <-> dcb1).  A frame sent on one end is received on
 * the other; each end counts it on the priority its own classification gives
 * (dcbdev_classify).  PFC pause is simulated on request:
 *   echo "PRIO COUNT" > /sys/class/net/dcb0/dcbdev/pause
 * means dcb0 received COUNT PFC frames for PRIO from its peer (dcb0 rx_prioPRIO_pause
 * and dcb1 tx_prioPRIO_pause grow by COUNT), and "link COUNT" that it received COUNT
 * link-level pause frames (ethtool -I -a: dcb0 rx, dcb1 tx; dcbdev_pause.c);
 * dcbdev/stats_reads counts ethtool -S reads.  ECN per priority sits where Mellanox OFED
 * keeps it, /sys/class/net/DEV/ecn/roce_np|roce_rp/enable/PRIO (dcbdev_ecn.c).  A test device for rdmadiag's real-kernel
 * tier (tests/vm/README): not for production. */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include "dcbdev.h"

static char *name0 = "dcb0";
static char *name1 = "dcb1";
module_param(name0, charp, 0444);
MODULE_PARM_DESC(name0, "name of the first end of the pair (default dcb0)");
module_param(name1, charp, 0444);
MODULE_PARM_DESC(name1, "name of the second end of the pair (default dcb1)");

static struct net_device *dcbdev_pair[2];

static netdev_tx_t dcbdev_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dcbdev_priv *p = netdev_priv(dev), *pp;
	struct net_device *peer;
	unsigned int len = skb->len;
	u8 tx_prio, rx_prio;

	rcu_read_lock();
	peer = rcu_dereference(p->peer);
	if (unlikely(!peer || !netif_running(peer))) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		goto out;
	}
	pp = netdev_priv(peer);
	/* each end by its own table: before the peer owns (and may free) the skb */
	tx_prio = dcbdev_classify(p, skb);
	rx_prio = dcbdev_classify(pp, skb);
	dcbdev_count(p, tx_prio, DCBDEV_TX_PACKETS, 1);
	dcbdev_count(p, tx_prio, DCBDEV_TX_BYTES, len);
	dev_sw_netstats_tx_add(dev, 1, len);
	if (likely(dev_forward_skb(peer, skb) == NET_RX_SUCCESS)) {
		dcbdev_count(pp, rx_prio, DCBDEV_RX_PACKETS, 1);
		dcbdev_count(pp, rx_prio, DCBDEV_RX_BYTES, len);
		dev_sw_netstats_rx_add(peer, len);
	} else {
		dev_core_stats_rx_dropped_inc(peer);
	}
out:
	rcu_read_unlock();
	return NETDEV_TX_OK;
}

/* carrier is up on both ends exactly when both are up, as on veth */
static int dcbdev_open(struct net_device *dev)
{
	struct net_device *peer = rtnl_dereference(((struct dcbdev_priv *)netdev_priv(dev))->peer);

	if (peer && netif_running(peer)) {
		netif_carrier_on(dev);
		netif_carrier_on(peer);
	}
	return 0;
}

static int dcbdev_stop(struct net_device *dev)
{
	struct net_device *peer = rtnl_dereference(((struct dcbdev_priv *)netdev_priv(dev))->peer);

	netif_carrier_off(dev);
	if (peer)
		netif_carrier_off(peer);
	return 0;
}

static int dcbdev_init(struct net_device *dev)
{
	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	return dev->tstats ? 0 : -ENOMEM;
}

static void dcbdev_uninit(struct net_device *dev)
{
	free_percpu(dev->tstats);
}

static const struct net_device_ops dcbdev_netdev_ops = {
	.ndo_init = dcbdev_init,
	.ndo_uninit = dcbdev_uninit,
	.ndo_open = dcbdev_open,
	.ndo_stop = dcbdev_stop,
	.ndo_start_xmit = dcbdev_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

/* --- the pause knob: /sys/class/net/DEV/dcbdev/pause ---------------------------------- */
/* "PRIO COUNT": DEV received COUNT PFC frames for PRIO; "link COUNT": COUNT 802.3x pause
 * frames (dcbdev_pause.c).  In both, the peer sent them. */
static ssize_t pause_store(struct device *d, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct net_device *dev = to_net_dev(d), *peer;
	struct dcbdev_priv *p = netdev_priv(dev);
	unsigned int prio;
	unsigned long long n;
	char extra;
	bool link = false;

	if (sscanf(buf, "link %llu %c", &n, &extra) == 1)
		link = true;
	else if (sscanf(buf, "%u %llu %c", &prio, &n, &extra) != 2 || prio >= DCBDEV_PRIOS)
		return -EINVAL;
	rcu_read_lock();
	peer = rcu_dereference(p->peer);
	if (link) {
		dcbdev_pause_count(dev, peer, n);
	} else {
		dcbdev_count(p, prio, DCBDEV_RX_PAUSE, n);
		if (peer)
			dcbdev_count(netdev_priv(peer), prio, DCBDEV_TX_PAUSE, n);
	}
	rcu_read_unlock();
	return len;
}
static DEVICE_ATTR_WO(pause);

/* /sys/class/net/DEV/dcbdev/stats_reads: how many times ethtool -S (ETHTOOL_GSTATS) read
 * DEV's counters, so that a test can start traffic once a tool's first sample is taken */
static ssize_t stats_reads_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct dcbdev_priv *p = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(&p->stats_reads));
}
static DEVICE_ATTR_RO(stats_reads);

static struct attribute *dcbdev_attrs[] = { &dev_attr_pause.attr, &dev_attr_stats_reads.attr,
					    NULL };
static const struct attribute_group dcbdev_group = { .name = "dcbdev", .attrs = dcbdev_attrs };

static void dcbdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &dcbdev_netdev_ops;
	dev->ethtool_ops = &dcbdev_ethtool_ops;
	dev->dcbnl_ops = &dcbdev_dcbnl_ops;
	dev->sysfs_groups[0] = &dcbdev_group;
	dev->features |= NETIF_F_LLTX;
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = 9000;
	eth_hw_addr_random(dev);
	dcbdev_dcb_init(netdev_priv(dev));
	dcbdev_pause_init(netdev_priv(dev));
}

static int __init dcbdev_module_init(void)
{
	const char *names[2] = { name0, name1 };
	int i, err;

	/* alloc_netdev() BUG()s on a name of IFNAMSIZ or more */
	for (i = 0; i < 2; i++)
		if (!dev_valid_name(names[i]))
			return -EINVAL;
	for (i = 0; i < 2; i++) {
		dcbdev_pair[i] = alloc_netdev(sizeof(struct dcbdev_priv), names[i],
					      NET_NAME_USER, dcbdev_setup);
		if (!dcbdev_pair[i]) {
			err = -ENOMEM;
			goto free;
		}
	}
	rtnl_lock();
	for (i = 0; i < 2; i++)
		rcu_assign_pointer(((struct dcbdev_priv *)netdev_priv(dcbdev_pair[i]))->peer,
				   dcbdev_pair[1 - i]);
	err = register_netdevice(dcbdev_pair[0]);
	if (!err) {
		netif_carrier_off(dcbdev_pair[0]);
		err = register_netdevice(dcbdev_pair[1]);
		if (err)
			unregister_netdevice(dcbdev_pair[0]);
		else
			netif_carrier_off(dcbdev_pair[1]);
	}
	rtnl_unlock();
	if (!err) {
		/* the OFED-style ecn/ directory of each end (dcbdev_ecn.c) */
		err = dcbdev_ecn_add(dcbdev_pair[0]);
		if (!err) {
			err = dcbdev_ecn_add(dcbdev_pair[1]);
			if (err)
				dcbdev_ecn_del(dcbdev_pair[0]);
		}
		if (!err)
			return 0;
		rtnl_lock();
		unregister_netdevice(dcbdev_pair[0]);
		unregister_netdevice(dcbdev_pair[1]);
		rtnl_unlock();
	}
free:
	for (i = 0; i < 2; i++)
		if (dcbdev_pair[i])
			free_netdev(dcbdev_pair[i]);
	return err;
}

static void __exit dcbdev_module_exit(void)
{
	int i;

	for (i = 0; i < 2; i++)
		dcbdev_ecn_del(dcbdev_pair[i]);
	rtnl_lock();
	for (i = 0; i < 2; i++)
		RCU_INIT_POINTER(((struct dcbdev_priv *)netdev_priv(dcbdev_pair[i]))->peer, NULL);
	unregister_netdevice(dcbdev_pair[0]);
	unregister_netdevice(dcbdev_pair[1]);
	rtnl_unlock();		/* waits for the last references */
	for (i = 0; i < 2; i++)
		free_netdev(dcbdev_pair[i]);
}

module_init(dcbdev_module_init);
module_exit(dcbdev_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmadiag test netdev pair with IEEE DCB and per-priority counters");
