/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop curses view: Ports, Detail, QPs, rdma_cm IDs and Help screens.  Draws only: every
 * figure comes from the model, every cell's text from table.c. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/catalog.h>

#include "fmt.h"
#include "hist.h"
#include "table.h"
#include "view.h"
#include "view_fabric.h"

#define HEAD_ROWS 3	/* header, screen line, column titles */
#define FOOT_ROWS 1	/* status line */

static bool use_color;
static bool use_utf8;		/* sparkline and graph glyphs: Unicode blocks or ASCII */

/* a sparkline's scale beside it ("1.23k pkt/s" is the longest) and the narrowest room a row's
 * sparkline gets (a few samples and the scale); less, and the rows go without */
#define SCALE_W 11
#define SPARK_MIN (4 + 1 + SCALE_W)

/* colour where there is colour, a plain attribute everywhere (NO_COLOR, monochrome) */
static attr_t a_err(void) { return use_color ? (COLOR_PAIR(1) | A_BOLD) : A_BOLD; }
static attr_t a_warn(void) { return use_color ? COLOR_PAIR(2) : A_BOLD; }
static attr_t a_breach(void) { return use_color ? (COLOR_PAIR(1) | A_BOLD | A_REVERSE) :
					   (A_BOLD | A_UNDERLINE); }
static attr_t a_title(void) { return use_color ? COLOR_PAIR(5) : A_REVERSE; }
static attr_t a_gone(void) { return A_DIM; }

/* write s at row y from column x, clipped to the screen, padding to the right edge when
 * fill is set (so a reverse-video selection bar spans the row) */
static void put(int y, int x, const char *s, attr_t a, bool fill)
{
	int w = COLS - x;

	if (y < 0 || y >= LINES || w <= 0)
		return;
	attrset(a);
	mvaddnstr(y, x, s, w);
	if (fill) {
		int cx = getcurx(stdscr);

		if (getcury(stdscr) == y)
			while (cx++ < COLS)
				addch(' ');
	}
	attrset(A_NORMAL);
}

/* a string of glyphs the caller has fitted to the screen (UTF-8 is more bytes than cells) */
static void put_glyphs(int y, int x, const char *s, attr_t a)
{
	if (y < 0 || y >= LINES || x >= COLS)
		return;
	attrset(a);
	mvaddstr(y, x, s);
	attrset(A_NORMAL);
}

/* "<sparkline of the last n rates of hist> <scale>": n glyphs, then the scale right-aligned
 * in SCALE_W */
static const char *spark_cell(char *buf, size_t len, const struct rt_hist *h, size_t n,
			      const char *unit)
{
	double v[RT_HIST_CAP];
	char sp[RT_HIST_CAP * 4 + 1], sc[32];
	double max;

	if (n > RT_HIST_CAP)
		n = RT_HIST_CAP;
	rt_hist_last(h, n, v);
	max = rt_hist_max(v, n);
	snprintf(buf, len, "%s %*s", rt_spark(sp, sizeof(sp), v, n, max, use_utf8), SCALE_W,
		 rt_hist_scale(sc, sizeof(sc), max, unit));
	return buf;
}

static void draw_titles(const struct rt_layout *l)
{
	char line[1024];

	put(2, 0, rt_row(l, NULL, line, sizeof(line)), a_title(), true);
}

static int body_rows(void)
{
	int r = LINES - HEAD_ROWS - FOOT_ROWS;

	return r > 0 ? r : 0;
}

static void draw_ports(struct rt_model *m, struct rt_ui *ui)
{
	struct rt_layout l;
	char cells[PC__N][RT_CELL], line[1024], info[160];
	size_t *idx = NULL, n = 0, i;
	int rows = body_rows();

	if (m->nports) {
		idx = malloc(m->nports * sizeof(*idx));
		if (idx)
			n = rt_sort_ports(m, ui->port_key, ui->port_rev, idx);
	}
	rt_ui_clamp(ui, n, rows);
	/* the widths of the rows in view, capped by the terminal */
	rt_port_layout(&l, m, idx, ui->top[RT_SCR_PORTS], idx ? (size_t)rows : 0, COLS);
	snprintf(info, sizeof(info), "Ports %zu  sort: %s%s   Enter: counters  Q: QPs  C: cm IDs  h: help",
		 n, rt_port_key_name(ui->port_key), ui->port_rev ? " (rev)" : "");
	put(1, 0, info, A_BOLD, false);
	draw_titles(&l);
	if (!n)
		put(HEAD_ROWS, 0, m->frames ? "no RDMA devices" : "collecting ...", A_NORMAL, false);
	for (i = ui->top[RT_SCR_PORTS]; i < n && (int)(i - ui->top[RT_SCR_PORTS]) < rows; i++) {
		const struct rt_port *p = &m->ports[idx[i]];
		int y = HEAD_ROWS + (int)(i - ui->top[RT_SCR_PORTS]);
		bool sel = i == ui->sel[RT_SCR_PORTS];
		attr_t a = p->gone ? a_gone() : A_NORMAL;
		int x;

		rt_port_cells(p, cells);
		put(y, 0, rt_row(&l, cells, line, sizeof(line)),
		    a | (sel ? A_REVERSE : 0), true);
		if (p->gone || sel)
			continue;
		/* highlight the trouble columns in place */
		if ((p->slow || p->err) && (x = rt_col_x(&l, PC_SAMPLE)) >= 0)
			put(y, x, cells[PC_SAMPLE], p->err ? a_err() : a_warn(), false);
		if (p->err_moving && (x = rt_col_x(&l, PC_ERRS)) >= 0) {
			snprintf(line, sizeof(line), "%*s", l.w[PC_ERRS], cells[PC_ERRS]);
			put(y, x, line, a_err(), false);
		}
		if ((p->top_err || p->breaches) &&
		    (x = rt_col_x(&l, PC_TOP)) >= 0)
			put(y, x, cells[PC_TOP], p->breaches ? a_breach() : a_err(), false);
		if (p->util >= 0 && (x = rt_col_x(&l, PC_UTIL)) >= 0 &&
		    use_color)
			put(y, x, cells[PC_UTIL], COLOR_PAIR(3), false);
	}
	free(idx);
}

static void draw_explain(const struct rt_ctr *c)
{
	const struct rdiag_catalog_entry *e = c->meta.cat;
	char l[12][512];
	int n = 0, i, w = COLS - 4, h, y0;

	snprintf(l[n++], sizeof(l[0]), "%s", c->name);
	if (!e) {
		snprintf(l[n++], sizeof(l[0]), "not in the catalogue: shown with its raw name");
	} else {
		snprintf(l[n++], sizeof(l[0]), "concept    %s", e->concept ? e->concept : "-");
		snprintf(l[n++], sizeof(l[0]), "driver     %s", e->driver ? e->driver : "-");
		snprintf(l[n++], sizeof(l[0]), "unit       %s (x%u)", rdiag_unit_name(e->unit),
			 e->scale ? e->scale : 1);
		snprintf(l[n++], sizeof(l[0]), "width      %u bits, %s", e->width,
			 rdiag_behaviour_name(e->behaviour));
		snprintf(l[n++], sizeof(l[0]), "severity   %s  %s", rdiag_severity_name(e->severity),
			 rdiag_direction_name(e->direction));
		if (e->aliases[0])
			snprintf(l[n++], sizeof(l[0]), "aliases    %s%s%s", e->aliases[0],
				 e->aliases[1] ? " " : "", e->aliases[1] ? e->aliases[1] : "");
		snprintf(l[n++], sizeof(l[0]), "meaning    %s", e->meaning ? e->meaning : "");
		if (e->hint)
			snprintf(l[n++], sizeof(l[0]), "check      %s", e->hint);
	}
	snprintf(l[n++], sizeof(l[0]), "value %llu  delta %llu  rate state %s",
		 (unsigned long long)c->value, (unsigned long long)c->delta,
		 rt_rate_state_name(c->state));
	h = n + 2;
	if (w < 10 || LINES - HEAD_ROWS - FOOT_ROWS < h) {
		/* no room for a box: use the whole body */
		for (i = 0; i < n && HEAD_ROWS + i < LINES - FOOT_ROWS; i++)
			put(HEAD_ROWS + i, 0, l[i], i ? A_NORMAL : A_BOLD, true);
		return;
	}
	y0 = HEAD_ROWS + 1;
	for (i = 0; i < h; i++) {
		move(y0 + i, 2);
		hline(' ', w);
	}
	attrset(A_BOLD);
	mvhline(y0, 2, ACS_HLINE, w);
	mvhline(y0 + h - 1, 2, ACS_HLINE, w);
	mvvline(y0, 2, ACS_VLINE, h);
	mvvline(y0, 2 + w - 1, ACS_VLINE, h);
	mvaddch(y0, 2, ACS_ULCORNER);
	mvaddch(y0, 2 + w - 1, ACS_URCORNER);
	mvaddch(y0 + h - 1, 2, ACS_LLCORNER);
	mvaddch(y0 + h - 1, 2 + w - 1, ACS_LRCORNER);
	attrset(A_NORMAL);
	for (i = 0; i < n; i++) {
		attrset(i ? A_NORMAL : A_BOLD);
		mvaddnstr(y0 + 1 + i, 4, l[i], w - 4);
	}
	attrset(A_NORMAL);
}

/* the Detail table's layout for the rows in view, fitted to width */
static void detail_layout(struct rt_layout *l, const struct rt_port *p, const size_t *idx,
			  size_t top, size_t n, int rows, int width)
{
	char cells[CC__N][RT_CELL];
	size_t i;

	rt_layout_init(l, rt_ctr_cols, CC__N);
	for (i = top; i < n && (int)(i - top) < rows; i++) {
		rt_ctr_cells(&p->ctr[idx[i]], cells);
		rt_layout_widen(l, cells);
	}
	rt_layout_fit(l, width, NULL);
}

static void draw_detail(struct rt_model *m, struct rt_ui *ui, char *status, size_t slen)
{
	struct rt_port *p = rt_ui_detail_port(ui, m);
	struct rt_layout l;
	char cells[CC__N][RT_CELL], line[1024], info[512], label[80];
	size_t *idx = NULL, n = 0, i;
	int rows = body_rows(), spark_x = -1;
	const struct rt_ctr *selc = NULL;
	char sbuf[RT_HIST_CAP * 4 + 64];

	if (!p) {
		put(1, 0, "the port is no longer there (Esc: back)", A_BOLD, false);
		return;
	}
	if (p->nctr) {
		idx = malloc(p->nctr * sizeof(*idx));
		if (idx)
			n = rt_sort_ctrs(p, ui->filter, ui->hide_quiet, ui->ctr_key, ui->ctr_rev, idx);
	}
	if (n && rows > 1)
		rows--;		/* the selected counter's history under the rows */
	rt_ui_clamp(ui, n, rows);
	/* each row's sparkline right of the table when the table fits beside one (dropping
	 * its least important columns first); else the table as before, without them */
	detail_layout(&l, p, idx, ui->top[RT_SCR_DETAIL], n, rows, COLS - SPARK_MIN - 1);
	if (rt_layout_width(&l) <= COLS - SPARK_MIN - 1)
		spark_x = rt_layout_width(&l) + 1;
	else
		detail_layout(&l, p, idx, ui->top[RT_SCR_DETAIL], n, rows, COLS);
	if (p->port)
		snprintf(label, sizeof(label), "%.64s/%u", p->dev, p->port);
	else
		snprintf(label, sizeof(label), "%.64s/dev", p->dev);
	snprintf(info, sizeof(info), "%s %s %s %s  counters %zu/%zu  sort: %s%s%s%s%s%s",
		 label, p->gone ? "GONE" : p->state, p->netdev[0] ? p->netdev : "-", p->link,
		 n, p->nctr, rt_ctr_key_name(ui->ctr_key), ui->ctr_rev ? " (rev)" : "",
		 ui->filter[0] ? "  filter: " : "", ui->filter,
		 ui->hide_quiet ? "  [z: hiding zeros]" : "", p->breaches ? "  OVER THRESHOLD" : "");
	put(1, 0, info, A_BOLD, false);
	draw_titles(&l);
	if (spark_x >= 0) {
		snprintf(line, sizeof(line), "%-*s%*s", COLS - spark_x - SCALE_W, "HISTORY",
			 SCALE_W, "MAX");
		put(2, spark_x, line, a_title(), false);
	}
	if (!n)
		put(HEAD_ROWS, 0, ui->filter[0] ? "no counter matches the filter" :
						   "no counters", A_NORMAL, false);
	for (i = ui->top[RT_SCR_DETAIL]; i < n && (int)(i - ui->top[RT_SCR_DETAIL]) < rows; i++) {
		const struct rt_ctr *c = &p->ctr[idx[i]];
		int y = HEAD_ROWS + (int)(i - ui->top[RT_SCR_DETAIL]);
		bool sel = i == ui->sel[RT_SCR_DETAIL];
		attr_t a = A_NORMAL;

		if (p->gone || !c->present)
			a = a_gone();
		else if (c->breach)
			a = a_breach();
		else if (c->moved && rt_ctr_is_error(c))
			a = rt_meta_sev(&c->meta) == RT_SEV_ERR ? a_err() : a_warn();
		if (sel) {
			a |= A_REVERSE;
			selc = c;
		}
		rt_ctr_cells(c, cells);
		put(y, 0, rt_row(&l, cells, line, sizeof(line)), a, true);
		if (spark_x >= 0)
			put_glyphs(y, spark_x, spark_cell(sbuf, sizeof(sbuf), c->hist,
							  (size_t)(COLS - spark_x - SCALE_W - 1),
							  rt_meta_unit(&c->meta)), a);
	}
	if (selc) {
		const char *mean = rt_meta_meaning(&selc->meta);
		/* the selected counter's history over the whole width */
		int ns = COLS - (int)strlen("history ") - (int)strlen(" max ") - SCALE_W;

		if (ns >= 4 && HEAD_ROWS + rows < LINES - FOOT_ROWS) {
			double v[RT_HIST_CAP], max;
			char sp[RT_HIST_CAP * 4 + 1], sc[32];

			if (ns > RT_HIST_CAP)
				ns = RT_HIST_CAP;
			rt_hist_last(selc->hist, (size_t)ns, v);
			max = rt_hist_max(v, (size_t)ns);
			snprintf(sbuf, sizeof(sbuf), "history %s max %s",
				 rt_spark(sp, sizeof(sp), v, (size_t)ns, max, use_utf8),
				 rt_hist_scale(sc, sizeof(sc), max, rt_meta_unit(&selc->meta)));
			put_glyphs(HEAD_ROWS + rows, 0, sbuf, A_BOLD);
		}
		if (selc->breach && m->th)
			snprintf(status, slen, "%s: over threshold (rule on line %u, observed %g)",
				 selc->name, selc->breach_line, selc->observed);
		else
			snprintf(status, slen, "%s: %s", selc->name,
				 *mean ? mean : "not in the catalogue");
		if (ui->explain)
			draw_explain(selc);
	}
	free(idx);
}

/* why a resource list is empty: none, or netlink cannot tell us */
static void unavailable(char *buf, size_t len, const char *what, int err)
{
	if (!err)
		snprintf(buf, len, "no %s", what);
	else if (err == -EPROTONOSUPPORT || err == -EOPNOTSUPP)
		snprintf(buf, len, "%s unavailable: they come from netlink (RDMA_NLDEV), which is "
			 "off with --source sysfs or a fake sysfs root, or not in this kernel", what);
	else
		snprintf(buf, len, "%s unavailable: %s", what, strerror(-err));
}

static void draw_qps(struct rt_model *m, struct rt_ui *ui)
{
	struct rt_layout l;
	char cells[QC__N][RT_CELL], line[1024], info[160];
	size_t *idx = NULL, n = 0, i;
	int rows = body_rows();

	if (m->nqps) {
		idx = malloc(m->nqps * sizeof(*idx));
		if (idx)
			n = rt_sort_qps(m, ui->qp_key, ui->qp_rev, idx);
	}
	rt_ui_clamp(ui, n, rows);
	snprintf(info, sizeof(info), "QPs %zu  in ERR/SQE %u  sort: %s%s   Esc: ports", n,
		 m->qps_in_err, rt_qp_key_name(ui->qp_key), ui->qp_rev ? " (rev)" : "");
	put(1, 0, info, A_BOLD, false);
	rt_layout_init(&l, rt_qp_cols, QC__N);
	for (i = ui->top[RT_SCR_QPS]; i < n && (int)(i - ui->top[RT_SCR_QPS]) < rows; i++) {
		rt_qp_cells(&m->qps[idx[i]], cells);
		rt_layout_widen(&l, cells);
	}
	rt_layout_fit(&l, COLS, NULL);
	draw_titles(&l);
	if (!n) {
		unavailable(line, sizeof(line), "QPs", m->qp_err);
		put(HEAD_ROWS, 0, line, A_NORMAL, false);
	}
	for (i = ui->top[RT_SCR_QPS]; i < n && (int)(i - ui->top[RT_SCR_QPS]) < rows; i++) {
		const struct rt_qp *q = &m->qps[idx[i]];
		int y = HEAD_ROWS + (int)(i - ui->top[RT_SCR_QPS]);
		attr_t a = rt_qp_is_bad(q) ? a_err() : A_NORMAL;

		if (i == ui->sel[RT_SCR_QPS])
			a |= A_REVERSE;
		rt_qp_cells(q, cells);
		put(y, 0, rt_row(&l, cells, line, sizeof(line)), a, true);
	}
	free(idx);
}

static void draw_cms(struct rt_model *m, struct rt_ui *ui)
{
	struct rt_layout l;
	char cells[MC__N][RT_CELL], line[1024], info[160];
	size_t *idx = NULL, n = 0, i;
	int rows = body_rows();

	if (m->ncms) {
		idx = malloc(m->ncms * sizeof(*idx));
		if (idx)
			n = rt_sort_cms(m, ui->cm_key, ui->cm_rev, idx);
	}
	rt_ui_clamp(ui, n, rows);
	snprintf(info, sizeof(info), "rdma_cm IDs %zu  sort: %s%s   Esc: ports", n,
		 rt_cm_key_name(ui->cm_key), ui->cm_rev ? " (rev)" : "");
	put(1, 0, info, A_BOLD, false);
	rt_layout_init(&l, rt_cm_cols, MC__N);
	for (i = ui->top[RT_SCR_CM]; i < n && (int)(i - ui->top[RT_SCR_CM]) < rows; i++) {
		rt_cm_cells(&m->cms[idx[i]], cells);
		rt_layout_widen(&l, cells);
	}
	rt_layout_fit(&l, COLS, NULL);
	draw_titles(&l);
	if (!n) {
		unavailable(line, sizeof(line), "rdma_cm IDs", m->cm_err);
		put(HEAD_ROWS, 0, line, A_NORMAL, false);
	}
	for (i = ui->top[RT_SCR_CM]; i < n && (int)(i - ui->top[RT_SCR_CM]) < rows; i++) {
		const struct rt_cmid *c = &m->cms[idx[i]];
		int y = HEAD_ROWS + (int)(i - ui->top[RT_SCR_CM]);
		/* a connect that hangs sits in one of these states */
		attr_t a = rt_cm_is_pending(c) ? a_warn() : A_NORMAL;

		if (i == ui->sel[RT_SCR_CM])
			a |= A_REVERSE;
		rt_cm_cells(c, cells);
		put(y, 0, rt_row(&l, cells, line, sizeof(line)), a, true);
	}
	free(idx);
}

/* the Fabric screen: the selected port's netdev, one row per priority, a moving one bold */
static void draw_fabric(struct rt_model *m, struct rt_ui *ui, const struct rt_frame_info *fi)
{
	struct rt_layout l;
	char cells[FC__N][RT_CELL], line[1024];
	const struct rt_port *p = rt_ui_detail_port(ui, m);
	int prio;

	put(1, 0, rt_fab_title(p, line, sizeof(line)), A_BOLD, false);
	if (!p || !p->eth)
		return;
	rt_layout_init(&l, rt_fab_cols, FC__N);
	for (prio = 0; prio < RDIAG_DCB_PRIOS; prio++) {
		rt_fab_cells(p->eth, prio, cells);
		rt_layout_widen(&l, cells);
	}
	rt_layout_fit(&l, COLS, NULL);
	draw_titles(&l);
	for (prio = 0; prio < RDIAG_DCB_PRIOS && HEAD_ROWS + prio < LINES - FOOT_ROWS; prio++) {
		rt_fab_cells(p->eth, prio, cells);
		put(HEAD_ROWS + prio, 0, rt_row(&l, cells, line, sizeof(line)),
		    p->gone ? a_gone() : rt_fab_moving(p->eth, prio) ? A_BOLD : A_NORMAL, true);
	}
	if (HEAD_ROWS + prio < LINES - FOOT_ROWS &&
	    rt_fab_storm(p->eth, fi->pause_max, line, sizeof(line)))
		put(HEAD_ROWS + prio, 0, line, A_BOLD | A_REVERSE, false);
}

/* the Graph screen: one counter or concept (or each port's packet rate) across ports, a graph
 * of gh rows per port over the last samples, newest at the right, bmon-style; the y scale
 * (0 at the bottom, the port's max at the top) left of each */
static void draw_graph(struct rt_model *m, struct rt_ui *ui, const struct rt_frame_info *fi)
{
	int avail = LINES - HEAD_ROWS - FOOT_ROWS, gh, per, shown, k, r, x, lw, ns;
	size_t *idx = NULL, n = 0, i;
	char line[1024], ib[16];
	const char *what = ui->graph_name[0] ? ui->graph_name : "packets (rx + tx)";

	if (m->nports && (idx = malloc(m->nports * sizeof(*idx))))
		n = rt_ui_graph_ports(ui, m, idx);
	/* each port: a title line and gh rows; as tall as the ports fit, 2 to 8 rows */
	gh = n ? avail / (int)n - 1 : 2;
	gh = gh < 2 ? 2 : gh > 8 ? 8 : gh;
	per = avail / (gh + 1);
	if (per < 1)
		per = 1;
	rt_ui_clamp(ui, n, per);
	/* y labels: the longest scale, then a rule */
	lw = SCALE_W;
	ns = COLS - lw - 1;
	if (ns > RT_HIST_CAP)
		ns = RT_HIST_CAP;
	snprintf(line, sizeof(line), "Graph %s%s per second, ports %zu, %d samples every %s, "
		 "newest right   Esc: back", what, ui->graph_concept ? " (concept)" : "", n,
		 ns > 0 ? ns : 0, rt_fmt_interval(ib, sizeof(ib), fi->interval));
	put(1, 0, line, A_BOLD, false);
	put(2, 0, "", a_title(), true);
	if (!n)
		put(HEAD_ROWS, 0, m->frames ? "no port has this counter" : "collecting ...",
		    A_NORMAL, false);
	if (ns < 4) {
		free(idx);
		return;
	}
	shown = 0;
	for (i = ui->top[RT_SCR_GRAPH]; i < n && shown < per; i++, shown++) {
		const struct rt_port *p = &m->ports[idx[i]];
		int y0 = HEAD_ROWS + shown * (gh + 1);
		double v[RT_HIST_CAP], max;
		const char *unit = "";
		char sc[32];

		rt_port_series(p, ui->graph_name, ui->graph_concept, (size_t)ns, v, &unit);
		max = rt_hist_max(v, (size_t)ns);
		if (p->port)
			snprintf(line, sizeof(line), "%.64s/%u %s  max %s", p->dev, p->port,
				 p->gone ? "GONE" : p->netdev[0] ? p->netdev : "",
				 rt_hist_scale(sc, sizeof(sc), max, unit));
		else
			snprintf(line, sizeof(line), "%.64s/dev  max %s", p->dev,
				 rt_hist_scale(sc, sizeof(sc), max, unit));
		put(y0, 0, line, i == ui->sel[RT_SCR_GRAPH] ? A_BOLD | A_REVERSE : A_BOLD, false);
		for (r = 0; r < gh; r++) {
			int y = y0 + 1 + r, row = gh - 1 - r;	/* row 0 is the bottom */
			attr_t a = p->gone ? a_gone() : use_color ? COLOR_PAIR(3) : A_NORMAL;

			if (r == 0)
				snprintf(line, sizeof(line), "%*s", lw,
					 rt_hist_scale(sc, sizeof(sc), max, unit));
			else if (row == 0)
				snprintf(line, sizeof(line), "%*s", lw, "0");
			else
				snprintf(line, sizeof(line), "%*s", lw, "");
			put(y, 0, line, A_NORMAL, false);
			put_glyphs(y, lw, use_utf8 ? "\u2502" : "|", A_NORMAL);
			for (k = 0, x = lw + 1; k < ns; k++, x++) {
				/* eighths of this row the column fills: a zero rate is a thin line
				 * on the bottom row, a gap nothing */
				int h = rt_hist_height(v[k], max, gh);
				int e = h < 0 ? 0 : h + 1 - row * RT_HIST_LEVELS;

				if (e <= 0)
					continue;
				put_glyphs(y, x, rt_spark_glyph(e >= RT_HIST_LEVELS ?
								RT_HIST_LEVELS - 1 : e - 1,
								use_utf8), a);
			}
		}
	}
	free(idx);
}

static const char *const help_lines[] = {
	"rdmatop keys",
	"",
	"  Up/Down j/k    select a row        PgUp/PgDn Space  page",
	"  Home/g End/G   first / last row",
	"  Enter          counters of the selected port (Detail)",
	"  Esc/Left       back to Ports (or close Help / the catalogue entry)",
	"  Q              QPs (netlink RES_QP)    C  rdma_cm IDs    P  Ports",
	"  F              Fabric: per-priority rates of the selected port's netdev",
	"  H              Graph over time across ports: Detail's selected counter (its",
	"                 concept), elsewhere each port's packet rate; H or Esc: back",
	"  s / S          next sort column / reverse the order",
	"  /              Detail: filter counters by name or concept (Enter keeps, Esc clears)",
	"  z              Detail: hide counters that are zero and did not move",
	"  ?              Detail: the catalogue entry of the selected counter",
	"  p              pause / resume sampling",
	"  + / -          longer / shorter interval",
	"  r              reset the baseline: values count from the next sample",
	"  t              thresholds on / off",
	"  Ctrl-L         repaint        h ?  this help        q  quit",
	"",
	"Rates show '-' or a state (first, stale, reset) when there is no valid rate yet;",
	"in sparklines and graphs such a sample is a gap, not a zero.",
	"GONE rows are devices that vanished (rdma link delete, hot-unplug).",
};

static void draw_help(struct rt_ui *ui)
{
	size_t i, n = sizeof(help_lines) / sizeof(help_lines[0]);
	int rows = LINES - 1 - FOOT_ROWS;

	rt_ui_clamp(ui, n, rows);
	for (i = ui->top[RT_SCR_HELP]; i < n && (int)(i - ui->top[RT_SCR_HELP]) < rows; i++)
		put(1 + (int)(i - ui->top[RT_SCR_HELP]), 0, help_lines[i],
		    i == 0 ? A_BOLD : A_NORMAL, false);
}

/* s over as many screen lines as it needs, broken at spaces where it can (a terminal too small
 * for the tables still shows the whole "enlarge the terminal" message) */
static void put_wrapped(const char *s, attr_t a)
{
	char line[512];
	int y = 0;

	while (*s && y < LINES && COLS > 0) {
		size_t n = strlen(s), take = n;

		if (n > (size_t)COLS) {
			take = (size_t)COLS;
			while (take > 0 && s[take] != ' ')
				take--;
			if (take == 0)
				take = (size_t)COLS;	/* one word wider than the screen: cut it */
		}
		if (take >= sizeof(line))
			take = sizeof(line) - 1;
		memcpy(line, s, take);
		line[take] = '\0';
		put(y++, 0, line, a, false);
		s += take;
		while (*s == ' ')
			s++;
	}
}

void rt_view_curses_draw(struct rt_model *m, struct rt_ui *ui, const struct rt_frame_info *fi,
			 bool color)
{
	char buf[512], status[512] = "";

	use_color = color;
	use_utf8 = fi->utf8;
	erase();
	if (COLS < RT_MIN_COLS || LINES < RT_MIN_ROWS) {
		snprintf(buf, sizeof(buf), "rdmatop: enlarge the terminal (%dx%d, need %dx%d)",
			 COLS, LINES, RT_MIN_COLS, RT_MIN_ROWS);
		put_wrapped(buf, A_BOLD);
		refresh();
		return;
	}
	put(0, 0, rt_view_header(m, fi, buf, sizeof(buf)), m->breaches ? a_err() : A_BOLD, false);
	switch (ui->screen) {
	case RT_SCR_PORTS: draw_ports(m, ui); break;
	case RT_SCR_DETAIL: draw_detail(m, ui, status, sizeof(status)); break;
	case RT_SCR_QPS: draw_qps(m, ui); break;
	case RT_SCR_CM: draw_cms(m, ui); break;
	case RT_SCR_FABRIC: draw_fabric(m, ui, fi); break;
	case RT_SCR_HELP: draw_help(ui); break;
	case RT_SCR_GRAPH: draw_graph(m, ui, fi); break;
	case RT_SCR__N: break;
	}
	if (ui->filter_edit)
		snprintf(status, sizeof(status), "filter: %s_", ui->filter);
	else if (ui->msg[0])
		snprintf(status, sizeof(status), "%s", ui->msg);
	else if (!status[0])
		snprintf(status, sizeof(status), "%s",
			 "h help  q quit  Enter counters  H graph  Q QPs  C cm IDs  s sort  p pause  +/- interval");
	put(LINES - 1, 0, status, ui->filter_edit ? A_BOLD : A_NORMAL, false);
	refresh();
}
