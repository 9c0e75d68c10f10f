/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop Fabric screen ('F', and `rdmatop -b --screen fabric`): the per-priority Ethernet
 * rates of a RoCE port's netdev (eth.h) - which priority carries the traffic, and where
 * PFC pause flows.  The cells and rows are shared by the curses and the batch view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/esc.h"
#include "common/out.h"

#include "fmt.h"
#include "view_fabric.h"

const struct rt_col rt_fab_cols[FC__N] = {
	[FC_PRIO]     = { "PRIO", 4, true, 0 },
	[FC_RXP]      = { "RX PKT/s", 8, true, 0 },
	[FC_TXP]      = { "TX PKT/s", 8, true, 0 },
	[FC_RXB]      = { "RX B/s", 8, true, 1 },
	[FC_TXB]      = { "TX B/s", 8, true, 1 },
	[FC_RXPAUSE]  = { "RX PAUSE/s", 10, true, 0 },
	[FC_TXPAUSE]  = { "TX PAUSE/s", 10, true, 0 },
};

static const enum rt_eth_stat fab_stat[FC__N] = {
	[FC_RXP] = RT_ES_RX_PKTS, [FC_TXP] = RT_ES_TX_PKTS, [FC_RXB] = RT_ES_RX_BYTES,
	[FC_TXB] = RT_ES_TX_BYTES, [FC_RXPAUSE] = RT_ES_RX_PAUSE, [FC_TXPAUSE] = RT_ES_TX_PAUSE,
};

void rt_fab_cells(const struct rt_eth *e, int prio, char cells[FC__N][RT_CELL])
{
	char b[RT_CELL];
	int c;

	snprintf(cells[FC_PRIO], RT_CELL, "%d", prio);
	for (c = FC_PRIO + 1; c < FC__N; c++) {
		enum rt_eth_stat s = fab_stat[c];
		const struct rt_eth_val *v = &e->prio[prio][s];

		if (!e->have[s] || !v->valid)
			snprintf(cells[c], RT_CELL, "-");
		else if (s == RT_ES_RX_BYTES || s == RT_ES_TX_BYTES)
			snprintf(cells[c], RT_CELL, "%s", rt_fmt_bytes(b, sizeof(b), v->rate));
		else
			snprintf(cells[c], RT_CELL, "%s", rt_fmt_si(b, sizeof(b), v->rate));
	}
}

bool rt_fab_moving(const struct rt_eth *e, int prio)
{
	int s;

	for (s = 0; s < RT_ES__N; s++)
		if (e->have[s] && e->prio[prio][s].valid && e->prio[prio][s].rate > 0)
			return true;
	return false;
}

bool rt_fab_storm(const struct rt_eth *e, double max, char *buf, size_t len)
{
	static const enum rt_eth_stat dirs[] = { RT_ES_RX_PAUSE, RT_ES_TX_PAUSE };
	const struct rt_eth_val *worst = NULL;
	enum rt_eth_stat wd = RT_ES_RX_PAUSE;
	char b[RT_CELL];
	int prio, wp = 0;
	size_t k;

	for (prio = 0; prio < RDIAG_DCB_PRIOS; prio++)
		for (k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
			const struct rt_eth_val *v = &e->prio[prio][dirs[k]];

			if (e->have[dirs[k]] && v->valid && (!worst || v->rate > worst->rate)) {
				worst = v;
				wp = prio;
				wd = dirs[k];
			}
		}
	if (!worst || !(worst->rate > max))
		return false;
	snprintf(buf, len, "pause storm: priority %d %s %s PFC pause frames/s (the threshold is %.0f/s, --pause-max) [fabric.pause_rate]",
		 wp, wd == RT_ES_RX_PAUSE ? "received" : "sent",
		 rt_fmt_si(b, sizeof(b), worst->rate), max);
	return true;
}

const char *rt_fab_title(const struct rt_port *p, char *buf, size_t len)
{
	if (!p)
		snprintf(buf, len, "Fabric: no port selected (select one on the Ports screen)");
	else if (!p->eth)
		snprintf(buf, len, "Fabric %s/%u %s: no per-priority Ethernet statistics%s",
			 tool_esc_tmp(p->dev), p->port, p->netdev[0] ? tool_esc_tmp(p->netdev) : "-",
			 p->netdev[0] ? " (the driver has none rdmadiag knows)" : " (no netdev)");
	else
		snprintf(buf, len, "Fabric %s/%u %s (%s): per-priority rates", tool_esc_tmp(p->dev),
			 p->port, tool_esc_tmp(p->netdev), tool_esc_tmp(p->eth->driver));
	return buf;
}

/* batch: every port that has per-priority statistics, by name; a line when none has */
bool rt_view_batch_fabric(struct out *o, const struct rt_model *m,
			  const struct rt_frame_info *fi)
{
	struct rt_layout l;
	char cells[FC__N][RT_CELL], line[1024];
	size_t idx_buf[256], *idx = idx_buf, n, i;
	int prio;
	unsigned done = 0;
	bool storm = false;

	out_text(o, "%s\n", rt_view_header(m, fi, line, sizeof(line)));
	if (m->nports > sizeof(idx_buf) / sizeof(idx_buf[0]))
		idx = malloc(m->nports * sizeof(*idx));
	n = idx ? rt_sort_ports(m, RT_PK_NAME, false, idx) : 0;
	for (i = 0; i < n; i++) {
		const struct rt_port *p = &m->ports[idx[i]];

		if (!p->eth || p->gone)
			continue;
		/* the columns as wide as this port's widest cells */
		rt_layout_init(&l, rt_fab_cols, FC__N);
		for (prio = 0; prio < RDIAG_DCB_PRIOS; prio++) {
			rt_fab_cells(p->eth, prio, cells);
			rt_layout_widen(&l, cells);
		}
		rt_layout_fit(&l, 0, NULL);
		out_text(o, "%s\n", rt_fab_title(p, line, sizeof(line)));
		out_text(o, "%s\n", rt_row(&l, NULL, line, sizeof(line)));
		for (prio = 0; prio < RDIAG_DCB_PRIOS; prio++) {
			rt_fab_cells(p->eth, prio, cells);
			out_text(o, "%s\n", rt_row(&l, cells, line, sizeof(line)));
		}
		if (rt_fab_storm(p->eth, fi->pause_max, line, sizeof(line))) {
			out_text(o, "%s\n", line);
			storm = true;
		}
		done++;
	}
	if (!done)
		out_text(o, "no port's netdev has per-priority Ethernet statistics\n");
	out_text(o, "\n");
	if (idx != idx_buf)
		free(idx);
	return storm;
}
