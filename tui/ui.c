/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop key handling; see ui.h.  No drawing here. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

void rt_ui_init(struct rt_ui *ui, double interval)
{
	memset(ui, 0, sizeof(*ui));
	ui->interval = interval;
	ui->rows = 10;
	ui->ctr_key = RT_CK_NAME;
	ui->qp_key = RT_QK_DEV;
	ui->cm_key = RT_MK_STATE;
}

struct rt_port *rt_ui_detail_port(const struct rt_ui *ui, struct rt_model *m)
{
	return ui->detail_dev[0] ? rt_model_find(m, ui->detail_dev, ui->detail_port) : NULL;
}

size_t rt_ui_count(const struct rt_ui *ui, struct rt_model *m)
{
	struct rt_port *p;
	size_t n, *idx;

	switch (ui->screen) {
	case RT_SCR_PORTS:
		return m->nports;
	case RT_SCR_DETAIL:
		p = rt_ui_detail_port(ui, m);
		if (!p || !p->nctr)
			return 0;
		idx = malloc(p->nctr * sizeof(*idx));
		if (!idx)
			return 0;
		n = rt_sort_ctrs(p, ui->filter, ui->hide_quiet, ui->ctr_key, ui->ctr_rev, idx);
		free(idx);
		return n;
	case RT_SCR_QPS:
		return m->nqps;
	case RT_SCR_CM:
		return m->ncms;
	case RT_SCR_GRAPH:		/* one graph per port: scrolls by port */
		if (!m->nports)
			return 0;
		idx = malloc(m->nports * sizeof(*idx));
		if (!idx)
			return 0;
		n = rt_ui_graph_ports(ui, m, idx);
		free(idx);
		return n;
	case RT_SCR_FABRIC:		/* eight fixed rows, nothing to select */
	case RT_SCR_HELP:
	case RT_SCR__N:
		break;
	}
	return 0;
}

size_t rt_ui_graph_ports(const struct rt_ui *ui, const struct rt_model *m, size_t *idx)
{
	size_t n, i, k = 0;
	double v;

	n = rt_sort_ports(m, RT_PK_NAME, false, idx);
	for (i = 0; i < n; i++)
		if (rt_port_series(&m->ports[idx[i]], ui->graph_name, ui->graph_concept, 1, &v,
				   NULL))
			idx[k++] = idx[i];
	return k;
}

/* H: the Graph of the counter selected in Detail (its concept when it has one, across ports),
 * elsewhere of each port's packet rate */
static void open_graph(struct rt_ui *ui, struct rt_model *m)
{
	struct rt_port *p = rt_ui_detail_port(ui, m);
	size_t *idx, n;

	ui->graph_name[0] = 0;
	ui->graph_concept = false;
	if (ui->screen == RT_SCR_DETAIL && p && p->nctr && (idx = malloc(p->nctr * sizeof(*idx)))) {
		n = rt_sort_ctrs(p, ui->filter, ui->hide_quiet, ui->ctr_key, ui->ctr_rev, idx);
		if (ui->sel[RT_SCR_DETAIL] < n) {
			const struct rt_ctr *c = &p->ctr[idx[ui->sel[RT_SCR_DETAIL]]];
			const char *concept = rt_meta_concept(&c->meta);

			ui->graph_concept = *concept != 0;
			snprintf(ui->graph_name, sizeof(ui->graph_name), "%s",
				 *concept ? concept : c->name);
		}
		free(idx);
	}
	ui->graph_from = ui->screen;
	ui->screen = RT_SCR_GRAPH;
	ui->sel[RT_SCR_GRAPH] = ui->top[RT_SCR_GRAPH] = 0;
}

void rt_ui_clamp(struct rt_ui *ui, size_t n, int rows)
{
	size_t *sel = &ui->sel[ui->screen], *top = &ui->top[ui->screen];
	size_t r = rows > 0 ? (size_t)rows : 1;

	ui->rows = rows;
	if (n == 0) {
		*sel = *top = 0;
		return;
	}
	if (*sel >= n)
		*sel = n - 1;
	if (*top > *sel)
		*top = *sel;
	if (*sel >= *top + r)
		*top = *sel - r + 1;
	if (*top + r > n)
		*top = n > r ? n - r : 0;
}

/* the interval steps '+' and '-' walk through */
static const double steps[] = { 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 30, 60, 300, 3600 };
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

static double step_interval(double cur, int dir)
{
	size_t i;

	if (dir > 0) {
		for (i = 0; i < NSTEPS; i++)
			if (steps[i] > cur + 1e-9)
				return steps[i];
		return steps[NSTEPS - 1];
	}
	for (i = NSTEPS; i-- > 0;)
		if (steps[i] < cur - 1e-9)
			return steps[i];
	return steps[0];
}

/* Enter: Detail of the port selected on Ports; F: its Fabric screen */
static void open_port(struct rt_ui *ui, struct rt_model *m, enum rt_screen to)
{
	size_t *idx, n;
	const struct rt_port *p;

	if (!m->nports)
		return;
	idx = malloc(m->nports * sizeof(*idx));
	if (!idx)
		return;
	n = rt_sort_ports(m, ui->port_key, ui->port_rev, idx);
	if (ui->sel[RT_SCR_PORTS] < n) {
		p = &m->ports[idx[ui->sel[RT_SCR_PORTS]]];
		snprintf(ui->detail_dev, sizeof(ui->detail_dev), "%s", p->dev);
		ui->detail_port = p->port;
		ui->screen = to;
		ui->sel[to] = ui->top[to] = 0;
		ui->explain = false;
	}
	free(idx);
}

static unsigned filter_key(struct rt_ui *ui, int key)
{
	size_t len = strlen(ui->filter);

	switch (key) {
	case 27:			/* Esc: drop the filter */
		ui->filter[0] = 0;
		ui->filter_edit = false;
		break;
	case '\n': case '\r': case KEY_ENTER:
		ui->filter_edit = false;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (len)
			ui->filter[len - 1] = 0;
		break;
	default:
		if (key >= 32 && key < 127 && len + 1 < sizeof(ui->filter)) {
			ui->filter[len] = (char)key;
			ui->filter[len + 1] = 0;
		}
		break;
	}
	ui->sel[RT_SCR_DETAIL] = ui->top[RT_SCR_DETAIL] = 0;
	return RT_ACT_REDRAW;
}

static void cycle(int *key, int n, bool *rev, bool reverse)
{
	if (reverse)
		*rev = !*rev;
	else
		*key = (*key + 1) % n;
}

static void sort_key(struct rt_ui *ui, bool reverse)
{
	int k;

	switch (ui->screen) {
	case RT_SCR_PORTS:
		k = ui->port_key;
		cycle(&k, RT_PK__N, &ui->port_rev, reverse);
		ui->port_key = k;
		snprintf(ui->msg, sizeof(ui->msg), "sort: %s%s", rt_port_key_name(ui->port_key),
			 ui->port_rev ? " (reversed)" : "");
		break;
	case RT_SCR_DETAIL:
		k = ui->ctr_key;
		cycle(&k, RT_CK__N, &ui->ctr_rev, reverse);
		ui->ctr_key = k;
		snprintf(ui->msg, sizeof(ui->msg), "sort: %s%s", rt_ctr_key_name(ui->ctr_key),
			 ui->ctr_rev ? " (reversed)" : "");
		break;
	case RT_SCR_QPS:
		k = ui->qp_key;
		cycle(&k, RT_QK__N, &ui->qp_rev, reverse);
		ui->qp_key = k;
		snprintf(ui->msg, sizeof(ui->msg), "sort: %s%s", rt_qp_key_name(ui->qp_key),
			 ui->qp_rev ? " (reversed)" : "");
		break;
	case RT_SCR_CM:
		k = ui->cm_key;
		cycle(&k, RT_MK__N, &ui->cm_rev, reverse);
		ui->cm_key = k;
		snprintf(ui->msg, sizeof(ui->msg), "sort: %s%s", rt_cm_key_name(ui->cm_key),
			 ui->cm_rev ? " (reversed)" : "");
		break;
	case RT_SCR_FABRIC:
	case RT_SCR_HELP:
	case RT_SCR_GRAPH:
	case RT_SCR__N:
		break;
	}
}

static void move_sel(struct rt_ui *ui, struct rt_model *m, long d)
{
	size_t n = rt_ui_count(ui, m);
	size_t *sel = &ui->sel[ui->screen];

	if (!n)
		return;
	if (d < 0)
		*sel = (size_t)-d > *sel ? 0 : *sel - (size_t)-d;
	else
		*sel = *sel + (size_t)d >= n ? n - 1 : *sel + (size_t)d;
}

unsigned rt_ui_key(struct rt_ui *ui, struct rt_model *m, int key)
{
	long page = ui->rows > 1 ? ui->rows - 1 : 1;
	double iv;

	ui->msg[0] = 0;
	if (ui->filter_edit)
		return filter_key(ui, key);

	switch (key) {
	case 'q':
		return RT_ACT_QUIT;
	case KEY_UP: case 'k':
		move_sel(ui, m, -1);
		break;
	case KEY_DOWN: case 'j':
		move_sel(ui, m, 1);
		break;
	case KEY_PPAGE:
		move_sel(ui, m, -page);
		break;
	case KEY_NPAGE: case ' ':
		move_sel(ui, m, page);
		break;
	case KEY_HOME: case 'g':
		ui->sel[ui->screen] = 0;
		break;
	case KEY_END: case 'G':
		move_sel(ui, m, (long)rt_ui_count(ui, m));
		break;
	case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
		if (ui->screen == RT_SCR_PORTS)
			open_port(ui, m, RT_SCR_DETAIL);
		break;
	case 27: case KEY_LEFT: case KEY_BACKSPACE: case 127:
		if (ui->screen == RT_SCR_HELP)
			ui->screen = ui->help_from;
		else if (ui->screen == RT_SCR_GRAPH)
			ui->screen = ui->graph_from;
		else if (ui->screen == RT_SCR_DETAIL && ui->explain)
			ui->explain = false;
		else
			ui->screen = RT_SCR_PORTS;
		break;
	case 'h': case '?': case KEY_F(1):
		if (key == '?' && ui->screen == RT_SCR_DETAIL) {
			ui->explain = !ui->explain;
			break;
		}
		if (ui->screen == RT_SCR_HELP) {
			ui->screen = ui->help_from;
		} else {
			ui->help_from = ui->screen;
			ui->screen = RT_SCR_HELP;
		}
		break;
	case 'Q':
		ui->screen = RT_SCR_QPS;
		break;
	case 'C':
		ui->screen = RT_SCR_CM;
		break;
	case 'P':
		ui->screen = RT_SCR_PORTS;
		break;
	case 'F':			/* the selected port's (Detail's) per-priority rates */
		if (ui->screen == RT_SCR_PORTS || !ui->detail_dev[0])
			open_port(ui, m, RT_SCR_FABRIC);
		else
			ui->screen = RT_SCR_FABRIC;
		break;
	case 'H':
		if (ui->screen == RT_SCR_GRAPH)
			ui->screen = ui->graph_from;
		else if (ui->screen != RT_SCR_HELP)
			open_graph(ui, m);
		break;
	case 's':
		sort_key(ui, false);
		break;
	case 'S':
		sort_key(ui, true);
		break;
	case '/':
		if (ui->screen == RT_SCR_DETAIL) {
			ui->filter_edit = true;
			ui->filter[0] = 0;
		}
		break;
	case 'z':
		if (ui->screen == RT_SCR_DETAIL) {
			ui->hide_quiet = !ui->hide_quiet;
			ui->sel[RT_SCR_DETAIL] = ui->top[RT_SCR_DETAIL] = 0;
			snprintf(ui->msg, sizeof(ui->msg), "%s",
				 ui->hide_quiet ? "hiding zero and unchanged counters" :
						  "showing every counter");
		}
		break;
	case 'p':
		ui->paused = !ui->paused;
		snprintf(ui->msg, sizeof(ui->msg), "%s", ui->paused ? "paused" : "resumed");
		return RT_ACT_PAUSE | RT_ACT_REDRAW;
	case '+': case '-':
		iv = step_interval(ui->interval, key == '+' ? 1 : -1);
		if (iv == ui->interval)
			break;
		ui->interval = iv;
		snprintf(ui->msg, sizeof(ui->msg), "interval %gs", iv);
		return RT_ACT_INTERVAL | RT_ACT_REDRAW;
	case 'r':
		rt_model_reset_baseline(m);
		snprintf(ui->msg, sizeof(ui->msg), "baseline reset: values count from the next sample");
		return RT_ACT_RESET | RT_ACT_REDRAW;
	case 't':
		m->th_enabled = !m->th_enabled;
		rt_model_eval_thresholds(m);
		snprintf(ui->msg, sizeof(ui->msg), "thresholds %s", m->th_enabled ? "on" : "off");
		break;
	case 'L' & 0x1f:		/* Ctrl-L: repaint */
		break;
	default:
		return RT_ACT_NONE;
	}
	return RT_ACT_REDRAW;
}
