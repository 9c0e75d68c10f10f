/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop tables; see table.h. */
#include <stdio.h>
#include <string.h>

#include "common/esc.h"
#include "fmt.h"
#include "table.h"

const struct rt_col rt_port_cols[PC__N] = {
	[PC_DEV]    = { "DEVICE", 8, false, 0 },
	[PC_PORT]   = { "PORT", 4, true, 0 },
	[PC_STATE]  = { "STATE", 6, false, 2 },
	[PC_SAMPLE] = { "SAMPLE", 6, false, 0 },
	[PC_NETDEV] = { "NETDEV", 8, false, 5 },
	[PC_LINK]   = { "LINK", 5, true, 6 },
	[PC_RXP]    = { "RX PKT/s", 8, true, 0 },
	[PC_TXP]    = { "TX PKT/s", 8, true, 0 },
	[PC_RXB]    = { "RX B/s", 8, true, 3 },
	[PC_TXB]    = { "TX B/s", 8, true, 3 },
	[PC_PAUSE]  = { "PAUSE/s", 7, true, 4 },
	[PC_DISC]   = { "DISC/s", 6, true, 4 },
	[PC_UTIL]   = { "UTIL", 12, false, 7 },
	[PC_ERRS]   = { "ERR", 4, true, 1 },
	[PC_TOP]    = { "TOP ERROR", 14, false, 4 },
};

const struct rt_col rt_ctr_cols[CC__N] = {
	[CC_NAME]    = { "COUNTER", 28, false, 0 },
	[CC_VALUE]   = { "VALUE", 14, true, 0 },
	[CC_DELTA]   = { "DELTA", 10, true, 1 },
	[CC_RATE]    = { "RATE/s", 10, true, 0 },
	[CC_SEV]     = { "SEVERITY", 8, false, 3 },
	[CC_CONCEPT] = { "CONCEPT", 20, false, 2 },
};

const struct rt_col rt_qp_cols[QC__N] = {
	[QC_DEV]   = { "DEVICE", 8, false, 0 },
	[QC_PORT]  = { "PORT", 4, true, 5 },
	[QC_LQPN]  = { "LQPN", 6, true, 0 },
	[QC_RQPN]  = { "RQPN", 6, true, 2 },
	[QC_TYPE]  = { "TYPE", 4, false, 1 },
	[QC_STATE] = { "STATE", 5, false, 0 },
	[QC_SQPSN] = { "SQ-PSN", 8, true, 4 },
	[QC_RQPSN] = { "RQ-PSN", 8, true, 4 },
	[QC_PID]   = { "PID", 7, true, 1 },
	[QC_COMM]  = { "COMMAND", 16, false, 3 },
	[QC_CTR]   = { "COUNTER", 16, false, 6 },
};

const struct rt_col rt_cm_cols[MC__N] = {
	[MC_DEV]   = { "DEVICE", 8, false, 1 },
	[MC_PORT]  = { "PORT", 4, true, 5 },
	[MC_STATE] = { "STATE", 14, false, 0 },
	[MC_PS]    = { "PS", 5, false, 4 },
	[MC_SRC]   = { "SOURCE", 21, false, 0 },
	[MC_DST]   = { "DESTINATION", 21, false, 2 },
	[MC_QPN]   = { "QPN", 6, true, 6 },
	[MC_PID]   = { "PID", 7, true, 3 },
	[MC_COMM]  = { "COMMAND", 16, false, 4 },
};

#define CELL(i, ...) snprintf(cells[i], RT_CELL, __VA_ARGS__)
/* a cell that is one string: a copy, cut to the cell size, without format parsing */
#define CELLS(i, s) cell_copy(cells[i], (s))

static void cell_copy(char *cell, const char *s)
{
	char esc[RT_CELL];
	size_t l;

	s = tool_esc(s, esc, sizeof(esc));	/* names are data: no control byte on the screen */
	l = strlen(s);

	if (l >= RT_CELL)
		l = RT_CELL - 1;
	memcpy(cell, s, l);
	cell[l] = '\0';
}

/* a Ports-screen total of the netdev's Ethernet statistics per second, "-" none yet */
static const char *eth_rate(const struct rt_port *p, enum rt_eth_total t, char *b, size_t len)
{
	if (p->gone || !p->eth || !p->eth->have_total[t] || !p->eth->total[t].valid)
		return "-";
	return rt_fmt_si(b, len, p->eth->total[t].rate);
}

void rt_port_cells(const struct rt_port *p, char cells[PC__N][RT_CELL])
{
	char b[RT_CELL];
	bool rates = p->have_rates && !p->gone && !p->err;

	CELLS(PC_DEV, p->dev);
	if (p->port)
		CELL(PC_PORT, "%u", p->port);
	else
		CELLS(PC_PORT, "dev");
	/* STATE is the port's state (the last one read when a sampling failed); how the sampling
	 * went has its own column */
	CELLS(PC_STATE, p->gone ? "GONE" : p->state);
	CELLS(PC_SAMPLE, p->gone ? "-" : p->err ? "failed" : p->slow ? "slow" : "-");
	CELLS(PC_NETDEV, p->netdev[0] ? p->netdev : "-");
	CELLS(PC_LINK, rt_fmt_gbps(b, sizeof(b), p->link_gbps));
	/* "-": no rate yet (first sample, stale, gone) or no such counter on this port */
	CELLS(PC_RXP, rates && p->have_pkts ? rt_fmt_si(b, sizeof(b), p->rx_pps) : "-");
	CELLS(PC_TXP, rates && p->have_pkts ? rt_fmt_si(b, sizeof(b), p->tx_pps) : "-");
	CELLS(PC_RXB, rates && p->have_bytes ? rt_fmt_bytes(b, sizeof(b), p->rx_Bps) : "-");
	CELLS(PC_TXB, rates && p->have_bytes ? rt_fmt_bytes(b, sizeof(b), p->tx_Bps) : "-");
	CELLS(PC_PAUSE, eth_rate(p, RT_ET_PAUSE, b, sizeof(b)));
	CELLS(PC_DISC, eth_rate(p, RT_ET_DISCARDS, b, sizeof(b)));
	CELLS(PC_UTIL, rt_fmt_bar(b, sizeof(b), rates ? p->util : -1, 10));
	CELL(PC_ERRS, "%u", p->err_moving);
	if (p->top_err)
		CELLS(PC_TOP, p->top_err);
	else if (p->breaches)
		CELL(PC_TOP, "(%u over threshold)", p->breaches);
	else
		CELLS(PC_TOP, "-");
}

void rt_ctr_cells(const struct rt_ctr *c, char cells[CC__N][RT_CELL])
{
	const char *concept = rt_meta_concept(&c->meta);
	char b[RT_CELL];

	CELLS(CC_NAME, c->name);
	CELL(CC_VALUE, "%llu", (unsigned long long)c->value);
	if (!c->present) {
		CELLS(CC_DELTA, "-");
		CELLS(CC_RATE, "gone");
	} else if (c->state == RT_RATE_VALID) {
		CELL(CC_DELTA, "%llu", (unsigned long long)c->delta);
		/* exact while it fits the column, SI above (6.02G rather than 6016496619.6) */
		if (c->rate < 1e5)
			CELL(CC_RATE, "%.1f", c->rate);
		else
			CELLS(CC_RATE, rt_fmt_si(b, sizeof(b), c->rate));
	} else if (rt_meta_gauge(&c->meta)) {
		CELLS(CC_DELTA, "-");
		CELLS(CC_RATE, "gauge");
	} else {
		/* say why there is no rate rather than print a fake zero */
		CELLS(CC_DELTA, "-");
		CELLS(CC_RATE, rt_rate_state_name(c->state));
	}
	CELLS(CC_SEV, rt_sev_name(rt_meta_sev(&c->meta)));
	CELLS(CC_CONCEPT, *concept ? concept : "-");
}

void rt_qp_cells(const struct rt_qp *q, char cells[QC__N][RT_CELL])
{
	CELLS(QC_DEV, q->dev);
	if (q->port)
		CELL(QC_PORT, "%u", q->port);
	else
		CELLS(QC_PORT, "-");
	CELL(QC_LQPN, "%u", q->lqpn);
	if (q->has_rqpn)
		CELL(QC_RQPN, "%u", q->rqpn);
	else
		CELLS(QC_RQPN, "-");
	CELLS(QC_TYPE, q->type);
	CELLS(QC_STATE, q->state);
	CELL(QC_SQPSN, "%u", q->sq_psn);
	if (q->has_psn)
		CELL(QC_RQPSN, "%u", q->rq_psn);
	else
		CELLS(QC_RQPSN, "-");
	if (q->pid >= 0)
		CELL(QC_PID, "%lld", (long long)q->pid);
	else
		CELLS(QC_PID, "-");
	CELLS(QC_COMM, q->comm[0] ? q->comm : "-");
	if (q->has_counter)
		CELL(QC_CTR, "%llu pkts %llu err", (unsigned long long)q->ctr_packets,
		     (unsigned long long)q->ctr_errors);
	else
		CELLS(QC_CTR, "-");
}

void rt_cm_cells(const struct rt_cmid *c, char cells[MC__N][RT_CELL])
{
	CELLS(MC_DEV, c->dev[0] ? c->dev : "-");
	if (c->port)
		CELL(MC_PORT, "%u", c->port);
	else
		CELLS(MC_PORT, "-");
	CELLS(MC_STATE, c->state);
	CELLS(MC_PS, c->ps);
	CELLS(MC_SRC, c->src[0] ? c->src : "-");
	CELLS(MC_DST, c->dst[0] ? c->dst : "-");
	if (c->lqpn)
		CELL(MC_QPN, "%u", c->lqpn);
	else
		CELLS(MC_QPN, "-");
	if (c->pid >= 0)
		CELL(MC_PID, "%lld", (long long)c->pid);
	else
		CELLS(MC_PID, "-");
	CELLS(MC_COMM, c->comm[0] ? c->comm : "-");
}

void rt_layout_init(struct rt_layout *l, const struct rt_col *cols, int n)
{
	int i;

	l->cols = cols;
	l->n = n < RT_MAXCOLS ? n : RT_MAXCOLS;
	for (i = 0; i < l->n; i++) {
		int t = (int)strlen(cols[i].title);

		l->w[i] = cols[i].width > t ? cols[i].width : t;
		l->shown[i] = true;
	}
}

void rt_layout_widen(struct rt_layout *l, char cells[][RT_CELL])
{
	int i;

	for (i = 0; i < l->n; i++) {
		int c = (int)strlen(cells[i]);

		if (c > l->w[i])
			l->w[i] = c;
	}
}

/* the width of the row the layout makes: shown columns and a space between each two */
static int layout_total(const struct rt_layout *l)
{
	int i, total = 0, count = 0;

	for (i = 0; i < l->n; i++)
		if (l->shown[i])
			total += l->w[i] + (count++ ? 1 : 0);
	return total;
}

/* the narrowest a column may become: its minimum, or its title */
static int col_floor(const struct rt_col *c)
{
	int t = (int)strlen(c->title);

	return c->width > t ? c->width : t;
}

int rt_layout_fit(struct rt_layout *l, int width, const bool *want)
{
	int i, prio, maxprio = 0, count = 0, total;

	for (i = 0; i < l->n; i++) {
		l->shown[i] = !want || want[i];
		if (!l->shown[i])
			continue;
		count++;
		if (l->cols[i].prio > maxprio)
			maxprio = l->cols[i].prio;
	}
	if (width <= 0)
		return count;
	total = layout_total(l);
	/* drop whole priority classes, highest number first, until the rest fits */
	for (prio = maxprio; prio > 0 && total > width; prio--)
		for (i = l->n - 1; i >= 0 && total > width; i--)
			if (l->shown[i] && l->cols[i].prio == prio) {
				l->shown[i] = false;
				total = layout_total(l);
				count--;
			}
	/* still too wide: narrow the column that is widest beyond its floor, one at a time */
	while (total > width) {
		int best = -1, excess = 0;

		for (i = 0; i < l->n; i++)
			if (l->shown[i] && l->w[i] - col_floor(&l->cols[i]) > excess) {
				excess = l->w[i] - col_floor(&l->cols[i]);
				best = i;
			}
		if (best < 0)
			break;
		excess = total - width < excess ? total - width : excess;
		l->w[best] -= excess;
		total -= excess;
	}
	return count;
}

int rt_port_layout(struct rt_layout *l, const struct rt_model *m, const size_t *idx,
		   size_t first, size_t rows, int width)
{
	char cells[PC__N][RT_CELL];
	bool want[PC__N];
	size_t i;
	int c;

	rt_layout_init(l, rt_port_cols, PC__N);
	for (c = 0; c < PC__N; c++)
		want[c] = true;
	want[PC_SAMPLE] = want[PC_PAUSE] = want[PC_DISC] = false;
	for (i = 0; i < m->nports; i++) {
		const struct rt_port *p = &m->ports[i];

		if (!p->gone && (p->slow || p->err))
			want[PC_SAMPLE] = true;
		if (p->eth && p->eth->have_total[RT_ET_PAUSE])
			want[PC_PAUSE] = true;
		if (p->eth && p->eth->have_total[RT_ET_DISCARDS])
			want[PC_DISC] = true;
	}
	for (i = first; i < m->nports && i - first < rows; i++) {
		rt_port_cells(&m->ports[idx ? idx[i] : i], cells);
		rt_layout_widen(l, cells);
	}
	return rt_layout_fit(l, width, want);
}

int rt_layout_width(const struct rt_layout *l)
{
	return layout_total(l);
}

int rt_col_x(const struct rt_layout *l, int col)
{
	int i, x = 0;
	bool first = true;

	for (i = 0; i < l->n; i++) {
		if (!l->shown[i])
			continue;
		if (!first)
			x++;
		if (i == col)
			return x;
		x += l->w[i];
		first = false;
	}
	return -1;
}

/* append s to buf (len bytes, *off used) padded to w columns, right- or left-aligned,
 * after one space unless first: what snprintf("%s%*s") did, without the format parsing
 * (this runs for every cell of every row of every frame) */
static void put_cell(char *buf, size_t len, size_t *off, const char *s, int w, bool right)
{
	size_t l = strlen(s), pad = w > 0 && (size_t)w > l ? (size_t)w - l : 0;
	size_t o = *off, end = len - 1, k;	/* buf[end] is kept for the terminator */

	if (o) {
		if (o < end)
			buf[o] = ' ';
		o++;
	}
	if (right)
		for (k = 0; k < pad; k++, o++)
			if (o < end)
				buf[o] = ' ';
	if (o < end)
		memcpy(buf + o, s, l < end - o ? l : end - o);
	o += l;
	if (!right)
		for (k = 0; k < pad; k++, o++)
			if (o < end)
				buf[o] = ' ';
	buf[o < end ? o : end] = '\0';
	*off = o;		/* like snprintf: the length it would have had */
}

const char *rt_row(const struct rt_layout *l, char cells[][RT_CELL], char *buf, size_t len)
{
	size_t off = 0;
	int i, last = -1, w;

	for (i = 0; i < l->n; i++)
		if (l->shown[i])
			last = i;
	buf[0] = 0;
	for (i = 0; i < l->n && off < len; i++) {
		const char *s;

		if (!l->shown[i])
			continue;
		s = cells ? cells[i] : l->cols[i].title;
		/* a cell longer than its (capped) column pushes the rest right rather than
		 * being cut: names are data; the view clips at the screen edge */
		w = i == last && !l->cols[i].right ? 0 : l->w[i];
		put_cell(buf, len, &off, s, w, l->cols[i].right);
	}
	if (off >= len)
		off = len - 1;
	while (off > 0 && buf[off - 1] == ' ')
		buf[--off] = 0;
	return buf;
}
