/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --graph QP: one QP's sequence graph, PSN against time, as a standalone SVG or its
 * points as CSV (--graph-csv).
 *
 * The graph draws what the analysis decided, nothing of its own: it is fed each packet with
 * the verdict rdiag_flow_add() gave it, and a marker stands for a verdict flag that the
 * summary counts (a NAK sequence error is a marker exactly where naks.PSN_SEQ_ERR counts one),
 * so the markers of each kind are as many as rdmadump -q -j --qp QP reports.  The QP's flows
 * (those --qp QP selects: to the QP, or from it) are known only once the whole capture is
 * analysed (a flow learns its sending QP from its reverse flow or a CM REP, maybe late), so
 * the graph is made on a second reading of the capture, with a new flow table fed the same
 * frames, which gives every packet the same verdict and flow index as the first.
 *
 *	dump_graph_new(&g, ft, &opts)		ft: the table of the first reading
 *	for each frame again: rdiag_flow_add(ft2, &p, ts, &v); dump_graph_add(g, &p, ts, &v);
 *	dump_graph_write(g, f);
 *	dump_graph_free(g);
 */
#ifndef RDIAG_DUMP_GRAPH_H
#define RDIAG_DUMP_GRAPH_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "rdmadiag/flow.h"
#include "rdmadiag/packet.h"

/* the lines (requests' PSN, responses' PSN) keep at most this many points in all, thinned by
 * time (the lowest and highest PSN of each time slice); markers are never thinned: up to
 * GRAPH_MARKS_MAX of each kind are drawn, the rest counted in a "+N more" note */
#define GRAPH_POINTS_MAX 4000
#define GRAPH_MARKS_MAX 20000

struct dump_graph;
struct dump_graph_opts {
	uint32_t qp;
	bool csv;			/* CSV points instead of the SVG */
	const char *source;		/* the capture's file name, for the title */
	/* rdmadump --report: an <svg> element for an HTML page (no XML declaration, no
	 * namespace, the page's style sheet: dump_graph_css()), its throughput graph below */
	bool embed;
	size_t marks_max;		/* markers drawn of each kind, 0: GRAPH_MARKS_MAX */
};

/* the flows of opts->qp in ft (the table of the first reading, whole); 0, -ENOENT when the
 * capture has none, -ENOMEM */
int dump_graph_new(struct dump_graph **gp, struct rdiag_flow_table *ft,
		   const struct dump_graph_opts *opts);
/* one packet of the second reading, with its verdict (a PAUSE/PFC frame too) */
void dump_graph_add(struct dump_graph *g, const struct rdiag_pkt *p, uint64_t ts_ns,
		    const struct rdiag_flow_verdict *v);
/* the SVG document (or the CSV) to f; 0 or -EIO */
int dump_graph_write(const struct dump_graph *g, FILE *f);
/* embed: the throughput below the sequence graph, on its time axis: wire and payload bytes
 * per time slice (GRAPH_RATE_SLICES of the flows' span) as an <svg> element; 0 or -EIO */
#define GRAPH_RATE_SLICES 200
int dump_graph_write_rate(const struct dump_graph *g, FILE *f);
/* the style sheet of the graphs (the <style> of a standalone SVG; an HTML page's) */
const char *dump_graph_css(void);
/* the markers of kind cls ("nak-seq", ...) counted (drawn or not) */
uint64_t dump_graph_marks(const struct dump_graph *g, const char *cls);
void dump_graph_free(struct dump_graph *g);
#endif
