/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat --prom's Ethernet families (prom_eth.h).  The statistics are the driver's own
 * (ethtool -S), picked and classified by lib/fabric's catalogue; one family per catalogue
 * concept, the driver's statistic name kept as label statistic (mlx5 counts a priority's
 * discards under three names, all prio_discards). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/fabric.h>

#include "common/out.h"
#include "prom_eth.h"
#include "common/tool.h"

/* catalogue concept -> family; per-priority concepts get a priority label.  us_to_s: the
 * statistic counts microseconds, exported in seconds (Prometheus's base unit), as an exact decimal */
static const struct eth_family {
	const char *concept, *family, *help;
	bool us_to_s;
} families[] = {
	{ "prio_packets", "rdma_eth_priority_packets_total",
	  "Packets per 802.1Q priority on the RDMA port's netdev (ethtool -S)", false },
	{ "prio_bytes", "rdma_eth_priority_bytes_total",
	  "Bytes per 802.1Q priority on the RDMA port's netdev (ethtool -S)", false },
	{ "prio_pause", "rdma_eth_priority_pause_frames_total",
	  "PFC pause frames per priority: rx the peer paused this port, tx this port paused the peer (ethtool -S)", false },
	{ "prio_pause_duration", "rdma_eth_priority_pause_seconds_total",
	  "Time a priority was paused, seconds (ethtool -S microseconds / 1e6)", true },
	{ "prio_pause_transition", "rdma_eth_priority_pause_transitions_total",
	  "Times a priority went from XON to XOFF (ethtool -S)", false },
	{ "prio_xon", "rdma_eth_priority_xon_frames_total",
	  "PFC XON (resume) frames per priority (ethtool -S)", false },
	{ "prio_discards", "rdma_eth_priority_discards_total",
	  "Packets of a priority the port dropped; label statistic says which drop (ethtool -S)", false },
	{ "prio_ecn_marked", "rdma_eth_priority_ecn_marked_packets_total",
	  "Packets of a priority marked CE on receive (ethtool -S)", false },
	{ "pause", "rdma_eth_pause_frames_total",
	  "Link-level (global) pause frames (ethtool -S)", false },
	{ "discards_phy", "rdma_eth_discards_total",
	  "Packets the port dropped for lack of buffer (ethtool -S)", false },
	{ "pause_storm", "rdma_eth_pause_storm_events_total",
	  "Pause storm events: the port paused too long and the watchdog fired (ethtool -S)", false },
};

struct eth_port {
	const char *dev, *netdev;
	uint32_t port;
	struct rdiag_ethstats *s;	/* NULL: no ethtool -S statistics */
	bool has_pause;
	struct rdiag_eth_pause pause;	/* ethtool netlink's standard pause statistics */
};

/* the standard pause statistics, apart from the driver's own names: a driver may count the
 * same frames under a name of its own (mlx5 rx_pause_ctrl_phy in rdma_eth_pause_frames_total),
 * so summing the two families would count them twice */
#define STD_PAUSE "rdma_eth_standard_pause_frames_total"

static struct rdiag_fabric *fab;
static bool fab_failed;
static bool warned;	/* a statistics read failed: said once, not in every interval */

void prom_eth_done(void)
{
	rdiag_fabric_close(fab);
	fab = NULL;
}

/* the handle, kept so that a replay's successive samples follow the intervals */
static struct rdiag_fabric *fabric(void)
{
	if (!fab && !fab_failed && rdiag_fabric_open(&fab, NULL) < 0) {
		tool_warn("Ethernet statistics: %s", rdiag_fabric_errmsg(NULL));
		fab_failed = true;
		fab = NULL;
	}
	return fab;
}

/* no statistics to export, not a failure: no driver support, no such netdev here, a fake
 * tree without a replay, nothing recorded for it */
static bool quiet_err(int err)
{
	return err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO || err == -ENOENT;
}

static void sample_line(const struct eth_family *fm, const struct eth_port *p,
			const struct rdiag_eth_catalog_entry *e, const char *stat, int prio,
			uint64_t v, int64_t ts_ms)
{
	printf("%s{device=\"", fm->family);
	prom_label_escape(stdout, p->dev);
	printf("\",port=\"%u\",netdev=\"", p->port);
	prom_label_escape(stdout, p->netdev);
	printf("\"");
	if (prio >= 0)
		printf(",priority=\"%d\"", prio);
	printf(",direction=\"");
	prom_label_escape(stdout, e->dir);
	printf("\",statistic=\"");
	prom_label_escape(stdout, stat);
	printf("\"} ");
	if (fm->us_to_s)
		printf("%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);	/* exact */
	else
		printf("%" PRIu64, v);
	if (ts_ms >= 0)
		printf(" %" PRId64, ts_ms);
	printf("\n");
}

static void print_family(const struct eth_family *fm, const struct eth_port *ps, size_t np,
			 int64_t ts_ms)
{
	bool head = false;
	size_t i, k;

	for (i = 0; i < np; i++) {
		const char *drv;

		if (!ps[i].s)
			continue;
		drv = rdiag_ethstats_driver(ps[i].s);
		for (k = 0; k < rdiag_ethstats_count(ps[i].s); k++) {
			const char *nm = rdiag_ethstats_name(ps[i].s, k);
			const struct rdiag_eth_catalog_entry *e;
			int prio;

			e = rdiag_eth_catalog_lookup(drv, nm, &prio);
			if (!e || strcmp(e->concept, fm->concept))
				continue;
			if (!head) {
				printf("# HELP %s %s\n# TYPE %s counter\n", fm->family, fm->help,
				       fm->family);
				head = true;
			}
			sample_line(fm, &ps[i], e, nm, prio, rdiag_ethstats_value(ps[i].s, k),
				    ts_ms);
		}
	}
}

static void std_pause_line(const struct eth_port *p, const char *dir, uint64_t v, int64_t ts_ms)
{
	printf(STD_PAUSE "{device=\"");
	prom_label_escape(stdout, p->dev);
	printf("\",port=\"%u\",netdev=\"", p->port);
	prom_label_escape(stdout, p->netdev);
	printf("\",direction=\"%s\"} %" PRIu64, dir, v);
	if (ts_ms >= 0)
		printf(" %" PRId64, ts_ms);
	printf("\n");
}

/* the family of the ports whose driver has pause statistics (ethtool netlink) */
static void print_std_pause(const struct eth_port *ps, size_t np, int64_t ts_ms)
{
	bool head = false;
	size_t i;

	for (i = 0; i < np; i++) {
		const struct rdiag_eth_pause *pp = &ps[i].pause;

		if (!ps[i].has_pause || (!pp->has_rx_frames && !pp->has_tx_frames))
			continue;
		if (!head) {
			printf("# HELP " STD_PAUSE " IEEE 802.3x pause frames, the kernel's standard statistics (ethtool netlink, ethtool -I -a); a driver may count the same frames in rdma_eth_pause_frames_total\n# TYPE " STD_PAUSE " counter\n");
			head = true;
		}
		if (pp->has_rx_frames)
			std_pause_line(&ps[i], "rx", pp->rx_frames, ts_ms);
		if (pp->has_tx_frames)
			std_pause_line(&ps[i], "tx", pp->tx_frames, ts_ms);
	}
}

/* the port's pause through ethtool netlink into *p (has_pause false when there is none) */
static void sample_pause(struct rdiag_fabric *fb, struct eth_port *p)
{
	int ret = rdiag_fabric_pause(fb, p->netdev, &p->pause);

	p->has_pause = ret == 0;
	if (ret < 0 && !quiet_err(ret) && !warned) {
		tool_warn("%s", rdiag_fabric_errmsg(fb));
		warned = true;
	}
}

void prom_eth(struct rdiag_counters *c, const char *dev, uint32_t port, int64_t ts_ms)
{
	struct rdiag_devices *ds = NULL;
	struct eth_port *ps = NULL;
	size_t np = 0, d, j, f;
	struct rdiag_fabric *fb = fabric();

	if (!fb || rdiag_counters_discover(c, &ds) < 0)
		return;
	for (d = 0; d < ds->n; d++) {
		const struct rdiag_device *dv = &ds->dev[d];

		if (dev && strcmp(dev, dv->name))
			continue;
		for (j = 0; j < dv->n_ports; j++) {
			const struct rdiag_port *pt = &dv->ports[j];
			struct rdiag_ethstats *s;
			struct eth_port *n2;
			int ret;

			if ((port && pt->port != port) || !pt->netdev[0])
				continue;
			ret = rdiag_fabric_ethstats(fb, pt->netdev, &s);
			if (ret < 0) {
				if (!quiet_err(ret) && !warned)
					tool_warn("%s", rdiag_fabric_errmsg(fb));
				warned |= !quiet_err(ret);
				s = NULL;
			}
			n2 = realloc(ps, (np + 1) * sizeof(*ps));
			if (!n2) {
				rdiag_ethstats_free(s);
				break;
			}
			ps = n2;
			memset(&ps[np], 0, sizeof(ps[np]));
			ps[np].dev = dv->name;
			ps[np].netdev = pt->netdev;
			ps[np].port = pt->port;
			ps[np].s = s;
			sample_pause(fb, &ps[np++]);
		}
	}
	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		print_family(&families[f], ps, np, ts_ms);
	print_std_pause(ps, np, ts_ms);
	for (j = 0; j < np; j++)
		rdiag_ethstats_free(ps[j].s);
	free(ps);
	rdiag_counters_devices_free(ds);
}
