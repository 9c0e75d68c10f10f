/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop: per-priority Ethernet statistics of a port's netdev; see eth.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eth.h"
#include "model.h"

/* the slot of a per-priority statistic, by the catalogue's concept and direction; -1 none */
static int prio_slot(const struct rdiag_eth_catalog_entry *e)
{
	bool rx = !strcmp(e->dir, "rx");

	if (!strcmp(e->concept, "prio_packets"))
		return rx ? RT_ES_RX_PKTS : RT_ES_TX_PKTS;
	if (!strcmp(e->concept, "prio_bytes"))
		return rx ? RT_ES_RX_BYTES : RT_ES_TX_BYTES;
	if (!strcmp(e->concept, "prio_pause"))
		return rx ? RT_ES_RX_PAUSE : RT_ES_TX_PAUSE;
	return -1;
}

static int total_slot(const struct rdiag_eth_catalog_entry *e)
{
	if (!strcmp(e->concept, "prio_pause") || !strcmp(e->concept, "pause"))
		return RT_ET_PAUSE;
	if (!strcmp(e->concept, "prio_discards") || !strcmp(e->concept, "discards_phy"))
		return RT_ET_DISCARDS;
	return -1;
}

/* the pause total from ethtool netlink's standard statistics (both ways), for a driver whose
 * ethtool -S has no pause name the catalogue knows; left absent where those are absent too */
static void std_pause(struct rdiag_fabric *f, const char *ifname, struct rt_eth_snap *out)
{
	struct rdiag_eth_pause p;

	if (rdiag_fabric_pause(f, ifname, &p) < 0 || (!p.has_rx_frames && !p.has_tx_frames))
		return;
	out->total[RT_ET_PAUSE] = p.rx_frames + p.tx_frames;
	out->have_total[RT_ET_PAUSE] = true;
}

int rt_eth_sample(struct rdiag_fabric **f, const char *ifname, struct rt_eth_snap *out)
{
	struct rdiag_ethstats *st = NULL;
	const char *drv;
	size_t i, known = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (!*f && (r = rdiag_fabric_open(f, NULL)) < 0)
		return r;
	if ((r = rdiag_fabric_ethstats(*f, ifname, &st)) < 0)
		return r;
	drv = rdiag_ethstats_driver(st);
	snprintf(out->driver, sizeof(out->driver), "%s", drv);
	out->t_ns = rdiag_ethstats_time_ns(st);
	for (i = 0; i < rdiag_ethstats_count(st); i++) {
		int prio, s, t;
		const struct rdiag_eth_catalog_entry *e = rdiag_ethstats_catalog(st, i, &prio);
		uint64_t v = rdiag_ethstats_value(st, i);

		if (!e)
			continue;
		known++;
		s = prio >= 0 && prio < RDIAG_DCB_PRIOS ? prio_slot(e) : -1;
		if (s >= 0) {
			out->prio[prio][s] = v;
			out->have[s] = true;
		}
		if ((t = total_slot(e)) >= 0) {
			out->total[t] += v;
			out->have_total[t] = true;
		}
	}
	rdiag_ethstats_free(st);
	if (!known)
		return -ENOENT;
	if (!out->have_total[RT_ET_PAUSE])
		std_pause(*f, ifname, out);
	return 0;
}

static void step(struct rt_eth_val *v, uint64_t raw, uint64_t t_ns)
{
	static const struct rt_meta meta = { .origin = RDIAG_ORIG_NETLINK };
	struct rdiag_rate r;

	rt_rate_step(&v->prev, &meta, raw, t_ns, &r);
	v->raw = raw;
	v->valid = r.state == RDIAG_RATE_VALID;
	v->rate = v->valid ? r.per_sec : 0;
}

void rt_eth_ingest(struct rt_eth *e, const struct rt_eth_snap *s)
{
	int p, k;

	snprintf(e->driver, sizeof(e->driver), "%s", s->driver);
	for (k = 0; k < RT_ES__N; k++) {
		e->have[k] = s->have[k];
		for (p = 0; p < RDIAG_DCB_PRIOS; p++)
			if (s->have[k])
				step(&e->prio[p][k], s->prio[p][k], s->t_ns);
	}
	for (k = 0; k < RT_ET__N; k++) {
		e->have_total[k] = s->have_total[k];
		if (s->have_total[k])
			step(&e->total[k], s->total[k], s->t_ns);
	}
}

const char *rt_eth_stat_title(enum rt_eth_stat s)
{
	static const char *const t[RT_ES__N] = {
		"RX-PKT/s", "TX-PKT/s", "RX-B/s", "TX-B/s", "RX-PAUSE/s", "TX-PAUSE/s"
	};

	return s < RT_ES__N ? t[s] : "";
}

int rt_eth_port_ingest(struct rt_eth **e, const struct rt_eth_snap *s)
{
	int p, k;

	if (!s) {
		/* no sample this time (the read failed): no rate, rather than the last one */
		for (p = 0; *e && p < RDIAG_DCB_PRIOS; p++)
			for (k = 0; k < RT_ES__N; k++)
				(*e)->prio[p][k].valid = false;
		for (k = 0; *e && k < RT_ET__N; k++)
			(*e)->total[k].valid = false;
		return 0;
	}
	if (!*e && !(*e = calloc(1, sizeof(**e))))
		return -ENOMEM;
	rt_eth_ingest(*e, s);
	return 0;
}

int rt_eth_collect(struct rdiag_fabric **f, struct rt_snap *s)
{
	struct rt_eth_snap e;
	size_t i;

	for (i = 0; i < s->nports; i++) {
		struct rt_snap_port *p = &s->ports[i];

		if (p->err || !p->netdev[0] || rt_eth_sample(f, p->netdev, &e) < 0)
			continue;
		if (!(p->eth = malloc(sizeof(*p->eth))))
			return -ENOMEM;
		*p->eth = e;
	}
	return 0;
}
