/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop UI state and key handling: which screen, selection, sort, filter, pause.
 *
 * Kept apart from drawing so that key handling is unit-testable without a terminal: the
 * curses view reads this state, rt_ui_key() changes it. */
#ifndef RDMATOP_UI_H
#define RDMATOP_UI_H
#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum rt_screen { RT_SCR_PORTS, RT_SCR_DETAIL, RT_SCR_QPS, RT_SCR_CM, RT_SCR_FABRIC, RT_SCR_HELP,
		 RT_SCR_GRAPH, RT_SCR__N };

/* what rt_ui_key() asks the main loop to do */
enum rt_act {
	RT_ACT_NONE     = 0,
	RT_ACT_REDRAW   = 1 << 0,
	RT_ACT_QUIT     = 1 << 1,
	RT_ACT_INTERVAL = 1 << 2,	/* interval changed: tell the collector */
	RT_ACT_RESET    = 1 << 3,	/* baseline reset */
	RT_ACT_PAUSE    = 1 << 4,	/* pause toggled */
};

#define RT_INTERVAL_MIN 0.1
#define RT_INTERVAL_MAX 3600.0

struct rt_ui {
	enum rt_screen screen;
	enum rt_screen help_from;	/* where Esc/h returns to from Help */
	size_t sel[RT_SCR__N];		/* selected row (index into the sorted view) */
	size_t top[RT_SCR__N];		/* first row shown */
	int rows;			/* body rows the view last had (for PgUp/PgDn) */

	enum rt_port_key port_key;
	bool port_rev;
	enum rt_ctr_key ctr_key;
	bool ctr_rev;
	enum rt_qp_key qp_key;
	bool qp_rev;
	enum rt_cm_key cm_key;
	bool cm_rev;

	char detail_dev[64];		/* the port Detail and Fabric show */
	unsigned detail_port;
	char filter[64];		/* Detail name filter ('/') */
	bool filter_edit;		/* typing into the filter */
	bool hide_quiet;		/* 'z' */
	bool explain;			/* '?' in Detail: full catalogue entry of the selection */

	/* the Graph screen ('H'): one counter or concept across ports, over time */
	char graph_name[64];		/* "" = each port's packet rate (rx + tx) */
	bool graph_concept;		/* graph_name is a concept: every counter of it */
	enum rt_screen graph_from;	/* where Esc returns to */

	bool paused;
	double interval;		/* seconds */
	char msg[160];			/* one-shot status message */
};

void rt_ui_init(struct rt_ui *ui, double interval);
/* key: a curses key code (KEY_UP ...) or a character; returns RT_ACT_* bits */
unsigned rt_ui_key(struct rt_ui *ui, struct rt_model *m, int key);
/* keep selection and scroll inside n rows of which rows are visible */
void rt_ui_clamp(struct rt_ui *ui, size_t n, int rows);
/* the port Detail shows, or NULL */
struct rt_port *rt_ui_detail_port(const struct rt_ui *ui, struct rt_model *m);
/* the ports the Graph screen shows, in Ports order, into idx (room for m->nports) */
size_t rt_ui_graph_ports(const struct rt_ui *ui, const struct rt_model *m, size_t *idx);
/* number of rows of the current screen */
size_t rt_ui_count(const struct rt_ui *ui, struct rt_model *m);

#endif
