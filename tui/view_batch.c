/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop batch view (-b): one frame per interval on stdout, like top -b.  Text frames are the
 * Ports screen (same cells as the curses view); -j writes one JSON object per frame with every
 * port, counter, QP and rdma_cm ID, keys following iproute2 (ifname, port). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/esc.h"
#include "common/out.h"
#include "common/timefmt.h"

#include "hist.h"
#include "table.h"
#include "thresh.h"
#include "view.h"

static void text_frame(struct out *o, const struct rt_model *m,
		       const struct rt_frame_info *fi)
{
	struct rt_layout l;
	char cells[PC__N][RT_CELL], line[1024], rule[256];
	size_t idx_buf[256], *idx = idx_buf, n, i, j;

	out_text(o, "%s\n", rt_view_header(m, fi, line, sizeof(line)));
	if (m->nports > sizeof(idx_buf) / sizeof(idx_buf[0]))
		idx = malloc(m->nports * sizeof(*idx));
	n = idx ? rt_sort_ports(m, RT_PK_NAME, false, idx) : 0;
	/* no terminal to fit: every column, each as wide as its widest cell */
	rt_port_layout(&l, m, idx, 0, n, 0);
	if (!fi->spark) {
		out_text(o, "%s\n", rt_row(&l, NULL, line, sizeof(line)));
		for (i = 0; i < n; i++) {
			rt_port_cells(&m->ports[idx[i]], cells);
			out_text(o, "%s\n", rt_row(&l, cells, line, sizeof(line)));
		}
	} else {
		/* --spark: each row padded to the table's width, then its packet rate over the
		 * last frames (a gap where there was no rate) and the max it is scaled to */
		int tw = rt_layout_width(&l), sw = (int)fi->spark;

		out_text(o, "%-*s %-*s MAX\n", tw, rt_row(&l, NULL, line, sizeof(line)),
			 sw > 13 ? sw : 13, "PKT/s HISTORY");
		for (i = 0; i < n; i++) {
			double v[RT_HIST_CAP], max;
			char sp[RT_HIST_CAP * 4 + 1], sc[32];

			rt_port_cells(&m->ports[idx[i]], cells);
			rt_port_series(&m->ports[idx[i]], NULL, false, fi->spark, v, NULL);
			max = rt_hist_max(v, fi->spark);
			out_text(o, "%-*s %s%*s %s\n", tw, rt_row(&l, cells, line, sizeof(line)),
				 rt_spark(sp, sizeof(sp), v, fi->spark, max, fi->utf8),
				 sw < 13 ? 13 - sw : 0, "",
				 rt_hist_scale(sc, sizeof(sc), max, "packets"));
		}
	}
	/* breaches spelled out: a script grepping the frame sees which rule fired */
	for (i = 0; i < n; i++) {
		const struct rt_port *p = &m->ports[idx[i]];

		for (j = 0; j < p->nctr; j++) {
			const struct rt_ctr *c = &p->ctr[j];

			if (!c->breach)
				continue;
			out_text(o, "breach %s/%u %s: %g (rule line %u: %s)\n",
				 tool_esc_tmp(p->dev), p->port, tool_esc_tmp(c->name), c->observed, c->breach_line,
				       rt_thresh_rule_text(fi->th, c->breach_line, rule, sizeof(rule)));
		}
	}
	out_text(o, "\n");
	if (idx != idx_buf)
		free(idx);
}

/* a field that does not apply is left out, never null (rdmadiag(7)) */
static void dbl_if(struct out *o, const char *key, bool have, double v)
{
	if (have)
		out_dbl(o, key, NULL, v);
}

static void u64_if(struct out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		out_u64(o, key, NULL, v);
}

/* the process behind a QP or rdma_cm ID: no pid for a kernel one */
static void owner(struct out *o, int64_t pid, const char *comm)
{
	if (pid >= 0)
		out_i64(o, "pid", NULL, pid);
	out_str(o, "comm", NULL, comm);
}

static void json_port(struct out *o, const struct rt_port *p)
{
	bool rates = p->have_rates && !p->gone && !p->err;
	size_t j;

	out_obj_begin(o, NULL);
	out_str(o, "ifname", NULL, p->dev);
	out_u64(o, "port", NULL, p->port);
	out_str(o, "state", NULL, p->gone ? "GONE" : p->state);
	out_str(o, "physical_state", NULL, p->phys);
	out_str(o, "netdev", NULL, p->netdev);
	out_str(o, "link", NULL, p->link);
	out_dbl(o, "link_gbps", NULL, p->link_gbps);
	out_bool(o, "gone", NULL, p->gone);
	out_bool(o, "slow", NULL, p->slow);
	if (p->err)
		out_str(o, "error", NULL, strerror(-p->err));
	dbl_if(o, "rx_pps", rates && p->have_pkts, p->rx_pps);
	dbl_if(o, "tx_pps", rates && p->have_pkts, p->tx_pps);
	dbl_if(o, "rx_bytes_per_sec", rates && p->have_bytes, p->rx_Bps);
	dbl_if(o, "tx_bytes_per_sec", rates && p->have_bytes, p->tx_Bps);
	dbl_if(o, "utilisation", rates && p->util >= 0, p->util);
	out_u64(o, "errors_moving", NULL, p->err_moving);
	out_u64(o, "error_delta", NULL, p->err_delta);
	if (p->top_err)
		out_str(o, "top_error", NULL, p->top_err);
	out_u64(o, "breaches", NULL, p->breaches);
	out_arr_begin(o, "counters");
	for (j = 0; j < p->nctr; j++) {
		const struct rt_ctr *c = &p->ctr[j];
		const char *concept = rt_meta_concept(&c->meta);
		bool valid = c->present && c->state == RT_RATE_VALID;

		out_obj_begin(o, NULL);
		out_str(o, "name", NULL, c->name);
		out_u64(o, "value", NULL, c->value);
		dbl_if(o, "delta", valid, (double)c->delta);
		dbl_if(o, "rate", valid, c->rate);
		out_str(o, "rate_state", NULL, c->present ? rt_rate_state_name(c->state) :
								   "gone");
		if (*concept)
			out_str(o, "concept", NULL, concept);
		out_str(o, "severity", NULL, rt_sev_name(rt_meta_sev(&c->meta)));
		out_str(o, "origin", NULL, rdiag_origin_name(c->meta.origin));
		out_bool(o, "breach", NULL, c->breach);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

static void json_frame(struct out *o, const struct rt_model *m,
		       const struct rt_frame_info *fi)
{
	char when[TOOL_TIME_LEN];
	size_t i, j;

	out_obj_begin(o, NULL);
	out_u64(o, "frame", NULL, m->frames);
	out_str(o, "time", NULL, tool_time_str(when, sizeof(when), (uint64_t)fi->wall,
						 fi->wall_nsec));
	out_str(o, "host", NULL, fi->host);
	out_dbl(o, "interval", NULL, fi->interval);
	out_u64(o, "devices", NULL, m->ndevs);
	out_u64(o, "qps_in_err", NULL, m->qps_in_err);
	out_u64(o, "error_deltas", NULL, m->err_deltas);
	out_u64(o, "breach_count", NULL, m->breaches);
	out_arr_begin(o, "ports");
	for (i = 0; i < m->nports; i++)
		json_port(o, &m->ports[i]);
	out_arr_end(o);

	if (m->qp_err)
		out_str(o, "qps_error", NULL, strerror(-m->qp_err));
	out_arr_begin(o, "qps");
	for (i = 0; i < m->nqps; i++) {
		const struct rt_qp *q = &m->qps[i];

		out_obj_begin(o, NULL);
		out_str(o, "ifname", NULL, q->dev);
		out_u64(o, "port", NULL, q->port);
		out_u64(o, "lqpn", NULL, q->lqpn);
		u64_if(o, "rqpn", q->has_rqpn, q->rqpn);
		out_str(o, "type", NULL, q->type);
		out_str(o, "state", NULL, q->state);
		out_u64(o, "sq-psn", NULL, q->sq_psn);
		u64_if(o, "rq-psn", q->has_psn, q->rq_psn);
		owner(o, q->pid, q->comm);
		if (q->has_counter) {
			out_u64(o, "counter_packets", NULL, q->ctr_packets);
			out_u64(o, "counter_errors", NULL, q->ctr_errors);
		}
		out_obj_end(o);
	}
	out_arr_end(o);

	if (m->cm_err)
		out_str(o, "cm_ids_error", NULL, strerror(-m->cm_err));
	out_arr_begin(o, "cm_ids");
	for (i = 0; i < m->ncms; i++) {
		const struct rt_cmid *c = &m->cms[i];

		out_obj_begin(o, NULL);
		out_str(o, "ifname", NULL, c->dev);
		out_u64(o, "port", NULL, c->port);
		out_str(o, "state", NULL, c->state);
		out_str(o, "ps", NULL, c->ps);
		out_str(o, "src-addr", NULL, c->src);
		out_str(o, "dst-addr", NULL, c->dst);
		u64_if(o, "lqpn", c->lqpn, c->lqpn);
		owner(o, c->pid, c->comm);
		out_obj_end(o);
	}
	out_arr_end(o);

	out_arr_begin(o, "breaches");
	for (i = 0; i < m->nports; i++) {
		const struct rt_port *p = &m->ports[i];

		for (j = 0; j < p->nctr; j++) {
			const struct rt_ctr *c = &p->ctr[j];

			if (!c->breach)
				continue;
			out_obj_begin(o, NULL);
			out_str(o, "ifname", NULL, p->dev);
			out_u64(o, "port", NULL, p->port);
			out_str(o, "counter", NULL, c->name);
			out_u64(o, "rule_line", NULL, c->breach_line);
			out_dbl(o, "observed", NULL, c->observed);
			out_obj_end(o);
		}
	}
	out_arr_end(o);
	out_obj_end(o);
}

void rt_view_batch_frame(struct out *o, const struct rt_model *m,
			 const struct rt_frame_info *fi)
{
	if (out_json(o))
		json_frame(o, m, fi);
	else
		text_frame(o, m, fi);
	fflush(out_file(o));
}
