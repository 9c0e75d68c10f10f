// SPDX-License-Identifier: GPL-2.0
/* rdmadiag_dcbdev: what the pair answers to dcbnl (IEEE PFC, ETS, APP, DCBX) and to
 * ethtool (mlx5-style per-priority counters), and how it classifies a frame. */
#include <linux/bitops.h>
#include <linux/ethtool.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/dsfield.h>
#include "dcbdev.h"

#define DCBDEV_DCBX_MODE	(DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE)

/* Default configuration: PFC off, every priority in TC 0, TC 0 ETS 100 %, no APP entry
 * (so every IP frame is priority 0), DCBX host-managed IEEE. */
void dcbdev_dcb_init(struct dcbdev_priv *p)
{
	int i;

	p->pfc.pfc_cap = DCBDEV_PRIOS;
	p->ets.ets_cap = DCBDEV_PRIOS;
	for (i = 0; i < DCBDEV_PRIOS; i++)
		p->ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	p->ets.tc_tx_bw[0] = 100;
	p->ets.tc_rx_bw[0] = 100;
	p->dcbx = DCBDEV_DCBX_MODE;
}

/* The priority a frame travels on, as this device classifies it (skb->data at the
 * Ethernet header): the PCP of a VLAN tag; else the DSCP of IPv4/IPv6 through the APP
 * table (no entry: 0); else 0. */
u8 dcbdev_classify(const struct dcbdev_priv *p, const struct sk_buff *skb)
{
	struct ethhdr _eth;
	const struct ethhdr *eth;
	u8 dscp;

	if (skb_vlan_tag_present(skb))
		return skb_vlan_tag_get_prio(skb);
	eth = skb_header_pointer(skb, 0, sizeof(_eth), &_eth);
	if (!eth)
		return 0;
	if (eth->h_proto == htons(ETH_P_8021Q) || eth->h_proto == htons(ETH_P_8021AD)) {
		struct vlan_hdr _vh;
		const struct vlan_hdr *vh = skb_header_pointer(skb, ETH_HLEN, sizeof(_vh), &_vh);

		return vh ? (ntohs(vh->h_vlan_TCI) & VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT : 0;
	}
	if (eth->h_proto == htons(ETH_P_IP)) {
		struct iphdr _ip;
		const struct iphdr *ip = skb_header_pointer(skb, ETH_HLEN, sizeof(_ip), &_ip);

		if (!ip || ip->version != 4)
			return 0;
		dscp = ipv4_get_dsfield(ip) >> 2;
	} else if (eth->h_proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6;
		const struct ipv6hdr *ip6 = skb_header_pointer(skb, ETH_HLEN, sizeof(_ip6), &_ip6);

		if (!ip6 || ip6->version != 6)
			return 0;
		dscp = ipv6_get_dsfield(ip6) >> 2;
	} else {
		return 0;
	}
	return READ_ONCE(p->dscp_prio[dscp]);
}

/* --- dcbnl (called under RTNL) ------------------------------------------------------ */
static int dcbdev_ieee_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	int i;

	*pfc = p->pfc;
	for (i = 0; i < DCBDEV_PRIOS; i++) {
		/* as mlx5: requests = pause frames sent, indications = received */
		pfc->requests[i] = atomic64_read(&p->stats[i][DCBDEV_TX_PAUSE]);
		pfc->indications[i] = atomic64_read(&p->stats[i][DCBDEV_RX_PAUSE]);
	}
	return 0;
}

static int dcbdev_ieee_setpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct dcbdev_priv *p = netdev_priv(dev);

	p->pfc.pfc_en = pfc->pfc_en;
	p->pfc.mbc = pfc->mbc;
	p->pfc.delay = pfc->delay;
	return 0;
}

static int dcbdev_ieee_getets(struct net_device *dev, struct ieee_ets *ets)
{
	*ets = ((struct dcbdev_priv *)netdev_priv(dev))->ets;
	return 0;
}

/* as a NIC would: known TSAs, priorities mapped to existing TCs, ETS shares adding up
 * to 100 % when any TC is ETS */
static int dcbdev_ieee_setets(struct net_device *dev, struct ieee_ets *ets)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	unsigned int sum = 0, n_ets = 0;
	int i;

	for (i = 0; i < DCBDEV_PRIOS; i++) {
		if (ets->prio_tc[i] >= DCBDEV_PRIOS)
			return -EINVAL;
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_ETS:
			n_ets++;
			sum += ets->tc_tx_bw[i];
			break;
		case IEEE_8021QAZ_TSA_STRICT:
		case IEEE_8021QAZ_TSA_CB_SHAPER:
		case IEEE_8021QAZ_TSA_VENDOR:
			break;
		default:
			return -EINVAL;
		}
	}
	if (n_ets && sum != 100)
		return -EINVAL;
	p->ets.willing = ets->willing;
	p->ets.cbs = ets->cbs;
	memcpy(p->ets.tc_tx_bw, ets->tc_tx_bw, sizeof(ets->tc_tx_bw));
	memcpy(p->ets.tc_rx_bw, ets->tc_rx_bw, sizeof(ets->tc_rx_bw));
	memcpy(p->ets.tc_tsa, ets->tc_tsa, sizeof(ets->tc_tsa));
	memcpy(p->ets.prio_tc, ets->prio_tc, sizeof(ets->prio_tc));
	memcpy(p->ets.tc_reco_bw, ets->tc_reco_bw, sizeof(ets->tc_reco_bw));
	memcpy(p->ets.tc_reco_tsa, ets->tc_reco_tsa, sizeof(ets->tc_reco_tsa));
	memcpy(p->ets.reco_prio_tc, ets->reco_prio_tc, sizeof(ets->reco_prio_tc));
	return 0;
}

/* the DSCP table from the kernel's app list (which dcbnl also answers getapp from):
 * a DSCP with several priorities takes the highest */
static void dcbdev_rebuild_dscp(struct net_device *dev)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	struct dcb_app app = { .selector = IEEE_8021QAZ_APP_SEL_DSCP };
	u8 mask;

	for (app.protocol = 0; app.protocol < DCBDEV_DSCPS; app.protocol++) {
		mask = dcb_ieee_getapp_mask(dev, &app);
		WRITE_ONCE(p->dscp_prio[app.protocol], mask ? fls(mask) - 1 : 0);
	}
}

static int dcbdev_app_valid(const struct dcb_app *app)
{
	if (app->priority >= DCBDEV_PRIOS)
		return -EINVAL;
	switch (app->selector) {
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return app->protocol < DCBDEV_DSCPS ? 0 : -EINVAL;
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
	case IEEE_8021QAZ_APP_SEL_STREAM:
	case IEEE_8021QAZ_APP_SEL_DGRAM:
	case IEEE_8021QAZ_APP_SEL_ANY:
		return 0;
	}
	return -EINVAL;
}

static int dcbdev_ieee_setapp(struct net_device *dev, struct dcb_app *app)
{
	int err = dcbdev_app_valid(app);

	if (!err)
		err = dcb_ieee_setapp(dev, app);
	if (!err && app->selector == IEEE_8021QAZ_APP_SEL_DSCP)
		dcbdev_rebuild_dscp(dev);
	return err;
}

static int dcbdev_ieee_delapp(struct net_device *dev, struct dcb_app *app)
{
	int err = dcb_ieee_delapp(dev, app);

	if (!err && app->selector == IEEE_8021QAZ_APP_SEL_DSCP)
		dcbdev_rebuild_dscp(dev);
	return err;
}

static u8 dcbdev_getdcbx(struct net_device *dev)
{
	return ((struct dcbdev_priv *)netdev_priv(dev))->dcbx;
}

/* dcbnl's convention: 0 accepted, 1 refused.  Only host-managed IEEE is implemented. */
static u8 dcbdev_setdcbx(struct net_device *dev, u8 mode)
{
	if (mode != DCBDEV_DCBX_MODE)
		return 1;
	((struct dcbdev_priv *)netdev_priv(dev))->dcbx = mode;
	return 0;
}

const struct dcbnl_rtnl_ops dcbdev_dcbnl_ops = {
	.ieee_getpfc = dcbdev_ieee_getpfc,
	.ieee_setpfc = dcbdev_ieee_setpfc,
	.ieee_getets = dcbdev_ieee_getets,
	.ieee_setets = dcbdev_ieee_setets,
	.ieee_setapp = dcbdev_ieee_setapp,
	.ieee_delapp = dcbdev_ieee_delapp,
	.getdcbx = dcbdev_getdcbx,
	.setdcbx = dcbdev_setdcbx,
};

/* --- ethtool ------------------------------------------------------------------------ */
static const char *const dcbdev_stat_fmt[DCBDEV_NSTATS] = {
	[DCBDEV_RX_PACKETS] = "rx_prio%d_packets",
	[DCBDEV_RX_BYTES] = "rx_prio%d_bytes",
	[DCBDEV_TX_PACKETS] = "tx_prio%d_packets",
	[DCBDEV_TX_BYTES] = "tx_prio%d_bytes",
	[DCBDEV_RX_PAUSE] = "rx_prio%d_pause",
	[DCBDEV_TX_PAUSE] = "tx_prio%d_pause",
};

static void dcbdev_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, "virtual", sizeof(info->bus_info));
}

static int dcbdev_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? DCBDEV_PRIOS * DCBDEV_NSTATS : -EOPNOTSUPP;
}

/* per priority, like mlx5's per-priority group: rx_prio0_packets ... tx_prio0_pause,
 * rx_prio1_packets ... */
static void dcbdev_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	int prio, s;

	if (sset != ETH_SS_STATS)
		return;
	for (prio = 0; prio < DCBDEV_PRIOS; prio++)
		for (s = 0; s < DCBDEV_NSTATS; s++) {
			snprintf(buf, ETH_GSTRING_LEN, dcbdev_stat_fmt[s], prio);
			buf += ETH_GSTRING_LEN;
		}
}

static void dcbdev_get_ethtool_stats(struct net_device *dev, struct ethtool_stats *st, u64 *data)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	int prio, s;

	for (prio = 0; prio < DCBDEV_PRIOS; prio++)
		for (s = 0; s < DCBDEV_NSTATS; s++)
			*data++ = atomic64_read(&p->stats[prio][s]);
	atomic64_inc(&p->stats_reads);	/* after the values: a test waiting on it sees them read */
}

/* a fixed 25G full-duplex link, so that rxe reports a plausible port rate */
static int dcbdev_get_link_ksettings(struct net_device *dev, struct ethtool_link_ksettings *ks)
{
	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ks->base.speed = SPEED_25000;
	ks->base.duplex = DUPLEX_FULL;
	ks->base.port = PORT_OTHER;
	ks->base.autoneg = AUTONEG_DISABLE;
	return 0;
}

const struct ethtool_ops dcbdev_ethtool_ops = {
	.get_drvinfo = dcbdev_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = dcbdev_get_link_ksettings,
	.get_sset_count = dcbdev_get_sset_count,
	.get_strings = dcbdev_get_strings,
	.get_ethtool_stats = dcbdev_get_ethtool_stats,
	.get_pauseparam = dcbdev_get_pauseparam,
	.set_pauseparam = dcbdev_set_pauseparam,
	.get_pause_stats = dcbdev_get_pause_stats,
};
