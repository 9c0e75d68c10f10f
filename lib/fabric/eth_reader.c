/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The fabric handle as the counters module's Ethernet reader (rdiag_fabric_eth_reader): each
 * statistic of a netdev's ethtool -S set with its catalogue concept and priority, so a
 * counters sample set can hold them (RDIAG_ORIG_ETH) without lib/counters calling back
 * into lib/fabric. */
#include <errno.h>

#include <rdmadiag/counters.h>
#include "internal.h"

static int eth_read(void *ctx, const char *ifname, rdiag_eth_stat_cb cb, void *arg)
{
	struct rdiag_fabric *f = ctx;
	struct rdiag_ethstats *es;
	struct rdiag_eth_stat st;
	size_t i, n;
	int ret = rdiag_fabric_ethstats(f, ifname, &es);

	if (ret < 0)
		return ret;
	n = rdiag_ethstats_count(es);
	st.ts_ns = rdiag_ethstats_time_ns(es);
	for (i = 0; i < n && !ret; i++) {
		st.name = rdiag_ethstats_name(es, i);
		st.value = rdiag_ethstats_value(es, i);
		st.cat = rdiag_ethstats_catalog(es, i, &st.prio);
		st.concept = st.cat ? st.cat->concept : NULL;
		ret = cb(&st, arg);
	}
	rdiag_ethstats_free(es);
	return ret;
}

static const char *eth_errmsg(void *ctx)
{
	return rdiag_fabric_errmsg(ctx);
}

void rdiag_fabric_eth_reader(struct rdiag_fabric *f, struct rdiag_eth_reader *out)
{
	out->read = eth_read;
	out->errmsg = eth_errmsg;
	out->ctx = f;
}
