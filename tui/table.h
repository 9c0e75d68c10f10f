/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop tables: the columns of every screen and the text of each cell.
 *
 * Both the curses view and the batch text frames render rows through here, so what a person
 * sees and what a script reads from `rdmatop -b` are the same strings.  Columns have a
 * priority: on a narrow terminal the lowest-priority columns are dropped first. */
#ifndef RDMATOP_TABLE_H
#define RDMATOP_TABLE_H
#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define RT_CELL 64

struct rt_col {
	const char *title;
	int width;		/* minimum width; the last shown column may run longer */
	bool right;		/* right-aligned (numbers) */
	int prio;		/* 0 = always shown; larger = dropped earlier */
};

/* PC_SAMPLE marks a port whose last sampling was slow (longer than an interval) or failed; it
 * is shown only while some port has such a mark, and STATE always stays the port's state */
/* PC_PAUSE and PC_DISC (the netdev's PFC/link pause frames and discards per second, eth.h)
 * are shown only while some port's netdev has such statistics */
enum { PC_DEV, PC_PORT, PC_STATE, PC_SAMPLE, PC_NETDEV, PC_LINK, PC_RXP, PC_TXP, PC_RXB, PC_TXB,
       PC_PAUSE, PC_DISC, PC_UTIL, PC_ERRS, PC_TOP, PC__N };
enum { CC_NAME, CC_VALUE, CC_DELTA, CC_RATE, CC_SEV, CC_CONCEPT, CC__N };
enum { QC_DEV, QC_PORT, QC_LQPN, QC_RQPN, QC_TYPE, QC_STATE, QC_SQPSN, QC_RQPSN, QC_PID,
       QC_COMM, QC_CTR, QC__N };
enum { MC_DEV, MC_PORT, MC_STATE, MC_PS, MC_SRC, MC_DST, MC_QPN, MC_PID, MC_COMM, MC__N };

extern const struct rt_col rt_port_cols[PC__N];
extern const struct rt_col rt_ctr_cols[CC__N];
extern const struct rt_col rt_qp_cols[QC__N];
extern const struct rt_col rt_cm_cols[MC__N];

void rt_port_cells(const struct rt_port *p, char cells[PC__N][RT_CELL]);
void rt_ctr_cells(const struct rt_ctr *c, char cells[CC__N][RT_CELL]);
void rt_qp_cells(const struct rt_qp *q, char cells[QC__N][RT_CELL]);
void rt_cm_cells(const struct rt_cmid *c, char cells[MC__N][RT_CELL]);

/* A table's layout for one frame: which columns are shown and how wide each is.  A column
 * is as wide as its widest cell in view (never less than its title and minimum), as htop
 * and bmon size theirs, so a long device name widens DEVICE instead of pushing the columns
 * after it; on a narrow terminal the lowest-priority columns are dropped first, then the
 * widest columns are narrowed back towards their minimum (a cell still wider is not cut:
 * the rest of its row moves right and the screen edge clips it). */
#define RT_MAXCOLS 16

struct rt_layout {
	const struct rt_col *cols;
	int n;
	int w[RT_MAXCOLS];
	bool shown[RT_MAXCOLS];
};

/* every column shown, at max(minimum, title) */
void rt_layout_init(struct rt_layout *l, const struct rt_col *cols, int n);
/* widen the columns to one row's cells */
void rt_layout_widen(struct rt_layout *l, char cells[][RT_CELL]);
/* choose the columns wanted (want NULL: every column) that fit in width (all when
 * width <= 0) and cap the widths to it; returns how many are shown */
int rt_layout_fit(struct rt_layout *l, int width, const bool *want);
/* the Ports table: widths from the ports in m (rows first .. first+rows-1 of order idx, or
 * every port when idx is NULL), PC_SAMPLE only while a port has a mark; returns how many
 * columns are shown */
int rt_port_layout(struct rt_layout *l, const struct rt_model *m, const size_t *idx,
		   size_t first, size_t rows, int width);
/* one row (cells NULL: the title row) into buf, columns separated by one space */
const char *rt_row(const struct rt_layout *l, char cells[][RT_CELL], char *buf, size_t len);
/* the width of a row rendered with this layout (shown columns and the spaces between) */
int rt_layout_width(const struct rt_layout *l);
/* where column i starts in a row rendered with this layout (-1: not shown) */
int rt_col_x(const struct rt_layout *l, int i);

#endif
