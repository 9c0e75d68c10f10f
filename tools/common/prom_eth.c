/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Ethernet families of the exposition (prom.h, prom_eth).  The statistics are the
 * driver's own (ethtool -S), picked and classified by lib/fabric's catalogue; one family per
 * catalogue concept, the driver's statistic name kept as label statistic (mlx5 counts a priority's
 * discards under three names, all prio_discards). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/fabric.h>

#include "out.h"
#include "prom.h"

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

/* no statistics to export, not a failure: no driver support, no such netdev here, a fake
 * tree without a replay, nothing recorded for it */
static bool quiet_err(int err)
{
	return err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO || err == -ENOENT;
}

static void note_err(struct prom_out *o, struct rdiag_fabric *fb, int err)
{
	if (!quiet_err(err) && !o->eth_err[0])
		snprintf(o->eth_err, sizeof(o->eth_err), "%s", rdiag_fabric_errmsg(fb));
}

static void sample_line(struct prom_out *o, const struct eth_family *fm, const struct eth_port *p,
			const struct rdiag_eth_catalog_entry *e, const char *stat, int prio,
			uint64_t v)
{
	FILE *f = o->f;

	fprintf(f, "%s{", fm->family);
	prom_labels(f, p->dev, p->port, p->netdev);
	if (prio >= 0)
		fprintf(f, ",priority=\"%d\"", prio);
	fputs(",direction=\"", f);
	prom_label_escape(f, e->dir);
	fputs("\",statistic=\"", f);
	prom_label_escape(f, stat);
	fputs("\"} ", f);
	if (fm->us_to_s)
		fprintf(f, "%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);	/* exact */
	else
		fprintf(f, "%" PRIu64, v);
	prom_end(o);
}

static void print_family(struct prom_out *o, const struct eth_family *fm,
			 const struct eth_port *ps, size_t np)
{
	bool head = false;
	size_t i, k;

	for (i = 0; i < np; i++) {
		if (!ps[i].s)
			continue;
		for (k = 0; k < rdiag_ethstats_count(ps[i].s); k++) {
			const char *nm = rdiag_ethstats_name(ps[i].s, k);
			const struct rdiag_eth_catalog_entry *e;
			int prio;

			e = rdiag_ethstats_catalog(ps[i].s, k, &prio);
			if (!e || strcmp(e->concept, fm->concept))
				continue;
			if (!head) {
				fprintf(o->f, "# HELP %s %s\n# TYPE %s counter\n", fm->family,
					fm->help, fm->family);
				head = true;
			}
			sample_line(o, fm, &ps[i], e, nm, prio, rdiag_ethstats_value(ps[i].s, k));
		}
	}
}

static void std_pause_line(struct prom_out *o, const struct eth_port *p, const char *dir,
			   uint64_t v)
{
	fputs(STD_PAUSE "{", o->f);
	prom_labels(o->f, p->dev, p->port, p->netdev);
	fprintf(o->f, ",direction=\"%s\"} %" PRIu64, dir, v);
	prom_end(o);
}

/* the family of the ports whose driver has pause statistics (ethtool netlink) */
static void print_std_pause(struct prom_out *o, const struct eth_port *ps, size_t np)
{
	bool head = false;
	size_t i;

	for (i = 0; i < np; i++) {
		const struct rdiag_eth_pause *pp = &ps[i].pause;

		if (!ps[i].has_pause || (!pp->has_rx_frames && !pp->has_tx_frames))
			continue;
		if (!head) {
			fputs("# HELP " STD_PAUSE " IEEE 802.3x pause frames, the kernel's standard statistics (ethtool netlink, ethtool -I -a); a driver may count the same frames in rdma_eth_pause_frames_total\n# TYPE " STD_PAUSE " counter\n", o->f);
			head = true;
		}
		if (pp->has_rx_frames)
			std_pause_line(o, &ps[i], "rx", pp->rx_frames);
		if (pp->has_tx_frames)
			std_pause_line(o, &ps[i], "tx", pp->tx_frames);
	}
}

void prom_eth(struct prom_out *o, struct rdiag_fabric *fb, const struct rdiag_devices *ds)
{
	struct eth_port *ps = NULL;
	size_t np = 0, d, j, f;

	for (d = 0; d < ds->n; d++) {
		const struct rdiag_device *dv = &ds->dev[d];

		if (o->dev && strcmp(o->dev, dv->name))
			continue;
		for (j = 0; j < dv->n_ports; j++) {
			const struct rdiag_port *pt = &dv->ports[j];
			struct rdiag_ethstats *s;
			struct eth_port *n2;
			int ret;

			if ((o->port && pt->port != o->port) || !pt->netdev[0])
				continue;
			ret = rdiag_fabric_ethstats(fb, pt->netdev, &s);
			if (ret < 0) {
				note_err(o, fb, ret);
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
			ret = rdiag_fabric_pause(fb, pt->netdev, &ps[np].pause);
			ps[np].has_pause = ret == 0;
			if (ret < 0)
				note_err(o, fb, ret);
			np++;
		}
	}
	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		print_family(o, &families[f], ps, np);
	print_std_pause(o, ps, np);
	for (j = 0; j < np; j++)
		rdiag_ethstats_free(ps[j].s);
	free(ps);
}
