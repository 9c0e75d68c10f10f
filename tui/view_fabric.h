/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop Fabric screen: per-priority Ethernet rates of a port's netdev (view_fabric.c). */
#ifndef RDMATOP_VIEW_FABRIC_H
#define RDMATOP_VIEW_FABRIC_H
#include <stdbool.h>
#include <stddef.h>

#include "table.h"
#include "view.h"

enum { FC_PRIO, FC_RXP, FC_TXP, FC_RXB, FC_TXB, FC_RXPAUSE, FC_TXPAUSE, FC__N };
extern const struct rt_col rt_fab_cols[FC__N];

/* the row of priority prio ("-" where the driver has no such statistic or no rate yet) */
void rt_fab_cells(const struct rt_eth *e, int prio, char cells[FC__N][RT_CELL]);
/* something moved on priority prio this interval */
bool rt_fab_moving(const struct rt_eth *e, int prio);
/* the screen's title line for port p (NULL: none selected) */
const char *rt_fab_title(const struct rt_port *p, char *buf, size_t len);
/* the priority with the most PFC pause frames per second received or sent, when that is
 * above max (a storm, lib/fabric's fabric.pause_rate): its line into buf, true */
bool rt_fab_storm(const struct rt_eth *e, double max, char *buf, size_t len);
/* batch: one frame of the Fabric screen, every port with per-priority statistics; true
 * when a port's pause was a storm (a finding: exit 1) */
bool rt_view_batch_fabric(struct out *o, const struct rt_model *m,
			  const struct rt_frame_info *fi);

#endif
