/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --report FILE.html: the capture as one self-contained HTML page (common/html.h):
 * the summary (what -q says) with each problem linked to its place, per QP its sequence graph
 * (graph.c, as an element of the page) and the throughput below it, the READ and ACK latency
 * histograms of its flows with the -q percentiles, the CM connections as a timeline, the MAD
 * transactions and the flows as tables that sort by any column.
 *
 * Like --graph it draws what the analysis decided, on a second reading of the capture fed to
 * a new flow table (graph.h says why):
 *
 *	dump_report_new(&r, ft, &opts)		ft: the first reading's table, whole
 *	for each frame again: rdiag_flow_add(ft2, &p, ts, &v); dump_report_add(r, &p, ts, &v);
 *	dump_report_write(r, ft, f);
 *	dump_report_free(r);
 *
 * Bounds (stated in the page): the sequence graphs of at most REPORT_GRAPHS_MAX QPs (those
 * with problems first; QPs whose flows are the same share one graph), lines of at most
 * GRAPH_POINTS_MAX points per graph, at most REPORT_MARKS_MAX markers of each kind per graph
 * and a "+N more" note past that, at most REPORT_ROWS_MAX rows per table and timeline. */
#ifndef RDIAG_DUMP_REPORT_H
#define RDIAG_DUMP_REPORT_H
#include <stdio.h>
#include "dump.h"

#define REPORT_GRAPHS_MAX 32
#define REPORT_MARKS_MAX 2000
#define REPORT_ROWS_MAX 2000

struct dump_report;
struct dump_report_opts {
	const char *source;			/* the capture's file name */
	const struct dump_summary_opts *so;	/* the run's (--qp: that QP only) */
};

/* 0 or -ENOMEM */
int dump_report_new(struct dump_report **rp, struct rdiag_flow_table *ft,
		    const struct dump_report_opts *opts);
void dump_report_add(struct dump_report *r, const struct rdiag_pkt *p, uint64_t ts_ns,
		     const struct rdiag_flow_verdict *v);
/* the page to f: 0, -EIO, -ENOMEM */
int dump_report_write(struct dump_report *r, struct rdiag_flow_table *ft, FILE *f);
void dump_report_free(struct dump_report *r);
#endif
