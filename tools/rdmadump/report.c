/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --report: the capture as one HTML page; see report.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/html.h"
#include "dump.h"
#include "dur.h"
#include "graph.h"
#include "report.h"

/* latency histograms: 8 buckets a decade from 1 ns to 10 s (bucket b: 10^(b/8) ns and up) */
#define LAT_PER_DECADE 8
#define LAT_BUCKETS (10 * LAT_PER_DECADE)

struct lat {
	uint64_t n;
	uint64_t b[LAT_BUCKETS];
};

struct flat {
	struct lat read, ack;
};

/* a graph and the QPs it stands for (QPs whose flows are the same share one) */
struct rgraph {
	struct dump_graph *g;
	uint32_t *qps;
	size_t nqps;
	size_t *flows;			/* its flows (flow table indices, ascending) */
	size_t nflows;
	bool troubled;
};

struct dump_report {
	struct dump_report_opts o;
	size_t nflows;
	int64_t *peer;			/* per flow: its reverse flow (latencies are the requester's) */
	int32_t (*fg)[2];		/* per flow: the graphs it is in, -1 none */
	struct flat **lat;		/* per flow, made at its first latency */
	struct rgraph *g;
	size_t ng;
	size_t groups;			/* QP groups in all (the graphs not drawn: groups - ng) */
};

struct qpf {
	uint32_t qp;
	size_t flow;
};

static int qpf_cmp(const void *a, const void *b)
{
	const struct qpf *x = a, *y = b;

	if (x->qp != y->qp)
		return x->qp < y->qp ? -1 : 1;
	return x->flow < y->flow ? -1 : x->flow > y->flow;
}

/* a QP group: its flows, its QPs */
struct group {
	size_t *flows, nflows;
	uint32_t *qps;
	size_t nqps, capqps;
	uint64_t hash;
	bool troubled;
};

static int group_cmp_flows(const struct group *x, const struct group *y)
{
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->nflows != y->nflows)
		return x->nflows < y->nflows ? -1 : 1;
	return memcmp(x->flows, y->flows, x->nflows * sizeof(*x->flows));
}

static int group_cmp(const void *a, const void *b)
{
	return group_cmp_flows(a, b);
}

/* those with problems first, then in the order their first flow was seen */
static int group_cmp_order(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->troubled != y->troubled)
		return x->troubled ? -1 : 1;
	return x->flows[0] < y->flows[0] ? -1 : x->flows[0] > y->flows[0];
}

static bool wanted(const struct dump_report *r, const struct rdiag_flow_info *f)
{
	return !r->o.so || !r->o.so->have_qp || dump_flow_of_qp(f, r->o.so->qp);
}

void dump_report_free(struct dump_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ng; i++) {
		dump_graph_free(r->g[i].g);
		free(r->g[i].qps);
		free(r->g[i].flows);
	}
	for (size_t i = 0; r->lat && i < r->nflows; i++)
		free(r->lat[i]);
	free(r->lat);
	free(r->g);
	free(r->fg);
	free(r->peer);
	free(r);
}

/* the QPs' groups of flows, deduplicated, ordered: into r's graphs (at most
 * REPORT_GRAPHS_MAX); 0 or -ENOMEM */
static int make_graphs(struct dump_report *r, struct rdiag_flow_table *ft, bool *troubled)
{
	struct qpf *pf = malloc((2 * r->nflows + 1) * sizeof(*pf));
	struct group *gr = NULL;
	size_t npf = 0, ngr = 0, i, j, k;
	struct rdiag_flow_info fi;
	int err = -ENOMEM;

	if (!pf)
		return -ENOMEM;
	for (i = 0; i < r->nflows; i++) {
		if (rdiag_flow_get(ft, i, &fi) < 0 || !wanted(r, &fi))
			continue;
		if (!r->o.so || !r->o.so->have_qp || fi.key.destqp == r->o.so->qp)
			pf[npf++] = (struct qpf){ fi.key.destqp, i };
		if (fi.src_qpn != RDIAG_QPN_NONE && fi.src_qpn != fi.key.destqp &&
		    (!r->o.so || !r->o.so->have_qp || fi.src_qpn == r->o.so->qp))
			pf[npf++] = (struct qpf){ fi.src_qpn, i };
	}
	qsort(pf, npf, sizeof(*pf), qpf_cmp);
	gr = calloc(npf + 1, sizeof(*gr));
	if (!gr)
		goto out;
	for (i = 0; i < npf; i = j) {
		struct group *g = &gr[ngr];
		uint64_t h = 1469598103934665603ull;

		for (j = i; j < npf && pf[j].qp == pf[i].qp; j++)
			;
		g->flows = malloc((j - i) * sizeof(*g->flows));
		g->qps = malloc(sizeof(*g->qps));
		if (!g->flows || !g->qps) {
			free(g->flows);
			free(g->qps);
			goto out;
		}
		ngr++;
		g->capqps = 1;
		g->qps[g->nqps++] = pf[i].qp;
		for (k = i; k < j; k++) {
			g->flows[g->nflows++] = pf[k].flow;
			h = (h ^ pf[k].flow) * 1099511628211ull;
			g->troubled |= troubled[pf[k].flow];
		}
		g->hash = h;
	}
	/* QPs with the same flows (the two ends of a connection, as the capture sees both) share
	 * one graph: --qp of either selects the same flows */
	qsort(gr, ngr, sizeof(*gr), group_cmp);
	for (i = 0, k = 0; i < ngr; i++) {
		if (k && !group_cmp_flows(&gr[k - 1], &gr[i])) {
			struct group *d = &gr[k - 1];

			if (d->nqps == d->capqps) {
				uint32_t *nq = realloc(d->qps, 2 * d->capqps * sizeof(*nq));

				if (!nq)
					goto out;
				d->qps = nq;
				d->capqps *= 2;
			}
			d->qps[d->nqps++] = gr[i].qps[0];
			free(gr[i].flows);
			free(gr[i].qps);
			gr[i].flows = NULL;
			gr[i].qps = NULL;
			continue;
		}
		if (k != i) {
			gr[k] = gr[i];
			memset(&gr[i], 0, sizeof(gr[i]));
		}
		k++;
	}
	ngr = k;
	qsort(gr, ngr, sizeof(*gr), group_cmp_order);
	r->groups = ngr;
	r->g = calloc(ngr < REPORT_GRAPHS_MAX ? ngr + 1 : REPORT_GRAPHS_MAX, sizeof(*r->g));
	if (!r->g)
		goto out;
	for (i = 0; i < ngr && r->ng < REPORT_GRAPHS_MAX; i++) {
		struct dump_graph_opts go = { .qp = gr[i].qps[0], .source = r->o.source,
					      .embed = true, .marks_max = REPORT_MARKS_MAX };
		struct rgraph *rg = &r->g[r->ng];

		if (dump_graph_new(&rg->g, ft, &go) < 0)
			goto out;
		rg->qps = gr[i].qps;
		rg->nqps = gr[i].nqps;
		rg->flows = gr[i].flows;
		rg->nflows = gr[i].nflows;
		rg->troubled = gr[i].troubled;
		gr[i].qps = NULL;
		gr[i].flows = NULL;
		for (k = 0; k < rg->nflows; k++) {
			int32_t *slot = r->fg[rg->flows[k]];

			slot[slot[0] < 0 ? 0 : 1] = (int32_t)r->ng;
		}
		r->ng++;
	}
	err = 0;
out:
	for (i = 0; gr && i < npf; i++) {
		free(gr[i].flows);
		free(gr[i].qps);
	}
	free(gr);
	free(pf);
	return err;
}

int dump_report_new(struct dump_report **rp, struct rdiag_flow_table *ft,
		    const struct dump_report_opts *opts)
{
	struct rdiag_flow_info fi;
	struct dump_report *r;
	bool *troubled;
	size_t i;
	int err;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->o = *opts;
	r->nflows = rdiag_flow_count(ft);
	r->peer = calloc(r->nflows + 1, sizeof(*r->peer));
	r->fg = calloc(r->nflows + 1, sizeof(*r->fg));
	r->lat = calloc(r->nflows + 1, sizeof(*r->lat));
	troubled = calloc(r->nflows + 1, sizeof(*troubled));
	if (!r->peer || !r->fg || !r->lat || !troubled) {
		free(troubled);
		dump_report_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < r->nflows; i++) {
		r->fg[i][0] = r->fg[i][1] = -1;
		r->peer[i] = -1;
		if (rdiag_flow_get(ft, i, &fi) == 0) {
			r->peer[i] = fi.peer;
			troubled[i] = dump_flow_troubled(&fi);
		}
	}
	err = make_graphs(r, ft, troubled);
	free(troubled);
	if (err) {
		dump_report_free(r);
		return err;
	}
	*rp = r;
	return 0;
}

static size_t lat_bucket(uint64_t ns)
{
	double b = ns ? floor(log10((double)ns) * LAT_PER_DECADE + 1e-9) : 0;

	return b < 0 ? 0 : b >= LAT_BUCKETS ? LAT_BUCKETS - 1 : (size_t)b;
}

void dump_report_add(struct dump_report *r, const struct rdiag_pkt *p, uint64_t ts,
		     const struct rdiag_flow_verdict *v)
{
	int64_t fl = v->flow;

	if (v->flags & RDIAG_FV_PAUSE) {
		/* a PAUSE/PFC frame is in every QP's graph, as -q --qp counts it for each */
		for (size_t i = 0; i < r->ng; i++)
			dump_graph_add(r->g[i].g, p, ts, v);
		return;
	}
	if (fl < 0 || (uint64_t)fl >= r->nflows)
		return;
	for (int k = 0; k < 2; k++)
		if (r->fg[fl][k] >= 0)
			dump_graph_add(r->g[r->fg[fl][k]].g, p, ts, v);
	if (v->flags & (RDIAG_FV_READ_DONE | RDIAG_FV_ACKED)) {
		/* the analysis counts a latency on the flow of the request it answers */
		int64_t req = r->peer[fl] >= 0 && (uint64_t)r->peer[fl] < r->nflows ?
			      r->peer[fl] : fl;
		struct lat *l;

		if (!r->lat[req] && !(r->lat[req] = calloc(1, sizeof(**r->lat))))
			return;
		l = v->flags & RDIAG_FV_READ_DONE ? &r->lat[req]->read : &r->lat[req]->ack;
		l->n++;
		l->b[lat_bucket(v->latency_ns)]++;
	}
}

/* ---- the page ---- */

static const char report_css[] =
	"nav a{margin-right:1em}section.qp{margin-bottom:2em}\n"
	".hist .bar{fill:#1f77b4}.hist .pct{stroke:#d62728;stroke-dasharray:3 2}\n"
	".tl .bar{fill:#c6dbef}.tl .bar.bad{fill:#fcbba1}.cm-ev{stroke:#000;stroke-width:1}\n"
	".cm-req{fill:#1f77b4}.cm-req-resend{fill:#ff7f0e}.cm-mra{fill:#bcbd22}"
	".cm-rep{fill:#2ca02c}.cm-rtu{fill:#17becf}\n"
	".cm-rej{fill:#d62728}.cm-dreq{fill:#9467bd}.cm-drep{fill:#8c564b}"
	".cm-lap,.cm-apr{fill:#7f7f7f}\n";

static void qp_id(char *buf, size_t len, uint32_t qp)
{
	snprintf(buf, len, "qp-0x%06x", qp);
}

/* the graph a flow is drawn in, -1 none */
static int32_t graph_of(const struct dump_report *r, size_t flow)
{
	return flow < r->nflows ? r->fg[flow][0] : -1;
}

static void link_flow(FILE *f, const struct dump_report *r, size_t i, const char *name)
{
	int32_t g = graph_of(r, i);
	char id[24];

	if (g >= 0) {
		qp_id(id, sizeof(id), r->g[g].qps[0]);
		fprintf(f, "<a href=\"#%s\">", id);
	} else {
		fputs("<a href=\"#flows\">", f);
	}
	html_text(f, name);
	fputs("</a>", f);
}

static void summary_section(FILE *f, struct rdiag_flow_table *ft, const struct dump_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct out *o;

	fputs("<h2 id=\"summary\">Summary</h2>\n<p class=\"note\">What <code>rdmadump -q</code> "
	      "says of this capture.</p>\n<pre>", f);
	if (m && (o = out_new(m, OUT_TEXT))) {
		dump_summary(o, ft, r->o.so);
		out_free(o);
	}
	if (m)
		fclose(m);
	if (buf)
		html_text(f, buf);
	else
		fputs("(out of memory)", f);
	free(buf);
	fputs("</pre>\n", f);
}

static uint64_t nak_sum(const uint64_t *n)
{
	uint64_t s = 0;

	for (unsigned int i = 0; i < RDIAG_NAK_KINDS; i++)
		s += n[i];
	return s;
}

/* one problem's words: ", 3 NAKs" when v is not 0 */
static void item(FILE *f, bool *first, uint64_t v, const char *what)
{
	if (!v)
		return;
	fprintf(f, "%s%" PRIu64 " %s", *first ? ": " : ", ", v, what);
	*first = false;
}

static void problems_section(FILE *f, struct rdiag_flow_table *ft, const struct dump_report *r)
{
	size_t n = rdiag_flow_count(ft), ncm = rdiag_flow_cm_count(ft),
	       nmad = rdiag_flow_mad_txn_count(ft), shown = 0, more = 0, i;
	struct rdiag_flow_info fi;
	char name[160];

	fputs("<h2 id=\"problems\">Problems</h2>\n<ul>\n", f);
	for (i = 0; i < n; i++) {
		bool first = true;

		if (rdiag_flow_get(ft, i, &fi) < 0 || !wanted(r, &fi) || !dump_flow_troubled(&fi))
			continue;
		if (shown++ >= REPORT_ROWS_MAX) {
			more++;
			continue;
		}
		dump_flow_name(name, sizeof(name), &fi.key);
		fputs("<li class=\"problem\">", f);
		link_flow(f, r, i, name);
		item(f, &first, fi.psn_lost + fi.loss.resent_lost_psns, "packets lost");
		item(f, &first, fi.loss.not_captured_psns, "PSNs not captured");
		item(f, &first, fi.naks[0], "NAKs (PSN sequence error)");
		item(f, &first, nak_sum(fi.naks) - fi.naks[0], "other NAKs");
		item(f, &first, fi.rnr_naks, "RNR NAKs");
		item(f, &first, fi.loss.retry_nak_seq, "resent after a NAK");
		item(f, &first, fi.loss.retry_rnr, "resent after an RNR NAK");
		item(f, &first, fi.loss.retry_timeout, "resent after a timeout");
		item(f, &first, fi.loss.duplicates, "duplicates");
		item(f, &first, fi.psn_ooo, "out of order");
		item(f, &first, fi.ecn_ce, "CE-marked");
		item(f, &first, fi.cnp, "CNPs");
		item(f, &first, fi.icrc_bad, "bad ICRC");
		item(f, &first, fi.reads_unanswered, "READs unanswered");
		item(f, &first, fi.truncated, "truncated");
		item(f, &first, fi.invalid, "invalid");
		fputs("</li>\n", f);
	}
	for (i = 0; i < ncm && !(r->o.so && r->o.so->have_qp); i++) {
		struct rdiag_cm_conn_info c;
		char a[64], b[64];

		if (rdiag_flow_cm_get(ft, i, &c) < 0 || (!c.n_rej && !(c.n_req > 1 && !c.n_rep)))
			continue;
		if (shown++ >= REPORT_ROWS_MAX) {
			more++;
			continue;
		}
		rdiag_flow_addr_str(c.kind, c.client, a, sizeof(a));
		rdiag_flow_addr_str(c.kind, c.server, b, sizeof(b));
		fprintf(f, "<li class=\"problem\"><a href=\"#cm-%zu\">CM connection ", i);
		html_text(f, a);
		fputs(" &gt; ", f);
		html_text(f, b);
		fputs("</a>: ", f);
		if (c.n_rej) {
			fputs("rejected by the ", f);
			html_text(f, c.rej_by_client ? "client" : "server");
			fprintf(f, ", reason %u ", c.rej_reason);
			html_text(f, c.rej_reason_name ? c.rej_reason_name : "(unassigned)");
		} else {
			fprintf(f, "REQ sent %u times with no reply", c.n_req);
		}
		fputs("</li>\n", f);
	}
	for (i = 0; i < nmad && !(r->o.so && r->o.so->have_qp); i++) {
		struct rdiag_mad_txn t;

		if (rdiag_flow_mad_txn_get(ft, i, &t) < 0 || (t.answered && !t.status))
			continue;
		if (shown++ >= REPORT_ROWS_MAX) {
			more++;
			continue;
		}
		fprintf(f, "<li class=\"problem\"><a href=\"#mad-%zu\">MAD tid 0x%016" PRIx64
			"</a>: ", i, t.tid);
		if (!t.answered)
			fprintf(f, "sent %u time(s), no response", t.sends);
		else
			fprintf(f, "answered with status 0x%04x", t.status);
		fputs("</li>\n", f);
	}
	if (!shown)
		fputs("<li>none: no loss, NAK, resend, CE mark, CNP, bad ICRC, CM reject or "
		      "unanswered MAD</li>\n", f);
	fputs("</ul>\n", f);
	if (more)
		fprintf(f, "<p class=\"more\">+%zu more not listed (at most %d)</p>\n", more,
			REPORT_ROWS_MAX);
}

/* ---- latency histograms ---- */

#define HW 540
#define HH 170
#define HX0 50.0
#define HX1 520.0
#define HY0 24.0
#define HY1 130.0

static double hx(double ns)
{
	double lo = 0, hi = 10;		/* 1 ns .. 10 s, log */
	double v = ns > 1 ? log10(ns) : 0;

	return HX0 + (v - lo) / (hi - lo) * (HX1 - HX0);
}

static void hist(FILE *f, const char *what, const char *flow, const struct lat *l,
		 const struct rdiag_latency *q)
{
	char a[24], b[24], c[24], d[24];
	uint64_t most = 1;
	size_t lo = LAT_BUCKETS, hi = 0;

	for (size_t i = 0; i < LAT_BUCKETS; i++) {
		if (l->b[i] > most)
			most = l->b[i];
		if (l->b[i] && i < lo)
			lo = i;
		if (l->b[i])
			hi = i;
	}
	fprintf(f, "<svg class=\"hist\" data-kind=\"%s\" data-n=\"%" PRIu64 "\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<title>", what, l->n, HW, HH, HW, HH);
	html_text(f, what);
	fputs(" latency, ", f);
	html_text(f, flow);
	fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"%.0f\" y=\"14\" font-size=\"12\">%s latency: n %" PRIu64, HX0, what, q->n);
	if (q->n)
		fprintf(f, ", min %s, median %s, p99 %s, max %s",
			dump_dur(a, sizeof(a), (double)q->min_ns),
			dump_dur(b, sizeof(b), (double)q->median_ns),
			dump_dur(c, sizeof(c), (double)q->p99_ns),
			dump_dur(d, sizeof(d), (double)q->max_ns));
	fprintf(f, "</text>\n<path class=\"frame\" d=\"M%.1f %.1fV%.1fH%.1f\"/>\n", HX0, HY0, HY1,
		HX1);
	for (int dec = 0; dec <= 10; dec++) {
		static const char *const lab[] = { "1ns", "10ns", "100ns", "1us", "10us", "100us",
						   "1ms", "10ms", "100ms", "1s", "10s" };
		double x = hx(pow(10, dec));

		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n", x, HY0, HY1, x, HY1 + 14, lab[dec]);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">latency (log scale); "
		"bars: requests per %d-th of a decade</text>\n", (HX0 + HX1) / 2, HY1 + 32,
		LAT_PER_DECADE);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%" PRIu64 "</text>\n",
		HX0 - 4, HY0 + 4, most);
	for (size_t i = lo; i <= hi && lo < LAT_BUCKETS; i++) {
		double x0 = hx(pow(10, (double)i / LAT_PER_DECADE)),
		       x1 = hx(pow(10, (double)(i + 1) / LAT_PER_DECADE)),
		       h = (double)l->b[i] / (double)most * (HY1 - HY0);

		if (!l->b[i])
			continue;
		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%s.."
			"%s: %" PRIu64 "</title></rect>\n", x0, HY1 - h, x1 - x0 - 0.5, h,
			dump_dur(a, sizeof(a), pow(10, (double)i / LAT_PER_DECADE)),
			dump_dur(b, sizeof(b), pow(10, (double)(i + 1) / LAT_PER_DECADE)),
			l->b[i]);
	}
	if (q->n) {
		const uint64_t pv[2] = { q->median_ns, q->p99_ns };
		static const char *const pn[2] = { "median", "p99" };

		for (int k = 0; k < 2; k++) {
			double x = hx((double)pv[k]);

			fprintf(f, "<path class=\"pct\" d=\"M%.1f %.1fV%.1f\"/><text x=\"%.1f\" "
				"y=\"%.1f\" fill=\"#d62728\">%s %s</text>\n", x, HY0, HY1, x + 3,
				HY0 + 10 + 12 * k, pn[k], dump_dur(a, sizeof(a), (double)pv[k]));
		}
	}
	fputs("</svg>\n", f);
}

static void graph_section(FILE *f, struct rdiag_flow_table *ft, const struct dump_report *r,
			  const struct rgraph *rg)
{
	static const char *const kinds[] = { "nak-seq", "nak", "rnr", "retry-nak", "retry-rnr",
					     "timeout", "dup", "ce", "cnp", "pause" };
	struct rdiag_flow_info fi;
	char id[24], name[160];

	qp_id(id, sizeof(id), rg->qps[0]);
	fprintf(f, "<section class=\"qp\" id=\"%s\" data-qps=\"", id);
	for (size_t i = 0; i < rg->nqps; i++)
		fprintf(f, "%s0x%06x", i ? " " : "", rg->qps[i]);
	fputs("\"", f);
	/* the markers counted per kind, drawn or not (the legend says how many are not) */
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		fprintf(f, " data-%s=\"%" PRIu64 "\"", kinds[k], dump_graph_marks(rg->g, kinds[k]));
	fputs(">\n<h3>QP", f);
	for (size_t i = 0; i < rg->nqps; i++) {
		if (i)
			qp_id(id, sizeof(id), rg->qps[i]);
		/* the other QPs of the graph: anchors of their own */
		fprintf(f, "%s <span id=\"%s\">0x%06x</span>", i ? " and" : "",
			i ? id : "", rg->qps[i]);
	}
	fputs("</h3>\n<ul class=\"flows\">\n", f);
	for (size_t i = 0; i < rg->nflows; i++) {
		if (rdiag_flow_get(ft, rg->flows[i], &fi) < 0)
			continue;
		dump_flow_name(name, sizeof(name), &fi.key);
		fputs("<li>", f);
		html_text(f, name);
		if (fi.src_qpn != RDIAG_QPN_NONE)
			fprintf(f, " (from qp 0x%06x)", fi.src_qpn);
		fprintf(f, ": %" PRIu64 " packets, %" PRIu64 " bytes</li>\n", fi.pkts, fi.bytes);
	}
	fputs("</ul>\n<div class=\"scroll\">\n", f);
	dump_graph_write(rg->g, f);
	dump_graph_write_rate(rg->g, f);
	fputs("</div>\n", f);
	for (size_t i = 0; i < rg->nflows; i++) {
		size_t fl = rg->flows[i];

		if (rdiag_flow_get(ft, fl, &fi) < 0 || (!fi.read_lat.n && !fi.ack_lat.n))
			continue;
		dump_flow_name(name, sizeof(name), &fi.key);
		fputs("<div class=\"lat\"><h4>Latency: ", f);
		html_text(f, name);
		fputs("</h4>\n", f);
		if (fi.read_lat.n)
			hist(f, "READ", name, r->lat[fl] ? &r->lat[fl]->read : &(struct lat){ 0 },
			     &fi.read_lat);
		if (fi.ack_lat.n)
			hist(f, "ACK", name, r->lat[fl] ? &r->lat[fl]->ack : &(struct lat){ 0 },
			     &fi.ack_lat);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
}

/* ---- the CM connections as a timeline ---- */

#define TW 1100
#define TX0 330.0
#define TX1 860.0
#define TROW 22

struct cm_ev {
	const char *cls, *label;
	uint32_t n;
	uint64_t ts;
};
#define CM_EVS 10
enum { EV_REQ_RESEND = 1, EV_REJ = 5 };

/* a connection's messages: how many of each, the first's time (a REQ's resends: the last) */
static void cm_events(const struct rdiag_cm_conn_info *c, struct cm_ev ev[CM_EVS])
{
	const struct cm_ev e[CM_EVS] = {
		{ "cm-req", "REQ", c->n_req, c->req_ns },
		{ "cm-req-resend", "REQ resent", c->n_req > 1 ? c->n_req - 1 : 0, c->req_last_ns },
		{ "cm-mra", "MRA", c->n_mra, c->mra_ns },
		{ "cm-rep", "REP", c->n_rep, c->rep_ns },
		{ "cm-rtu", "RTU", c->n_rtu, c->rtu_ns },
		{ "cm-rej", "REJ", c->n_rej, c->rej_ns },
		{ "cm-dreq", "DREQ", c->n_dreq, c->dreq_ns },
		{ "cm-drep", "DREP", c->n_drep, c->drep_ns },
		{ "cm-lap", "LAP", c->n_lap, c->lap_ns },
		{ "cm-apr", "APR", c->n_apr, c->apr_ns },
	};

	memcpy(ev, e, sizeof(e));
}

/* widen [*lo, *hi] to the times of the messages ev holds */
static void cm_span(const struct cm_ev ev[CM_EVS], uint64_t *lo, uint64_t *hi)
{
	for (size_t k = 0; k < CM_EVS; k++) {
		if (!ev[k].n)
			continue;
		if (ev[k].ts < *lo)
			*lo = ev[k].ts;
		if (ev[k].ts > *hi)
			*hi = ev[k].ts;
	}
}

static void cm_section(FILE *f, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_cm_count(ft), rows = n < REPORT_ROWS_MAX ? n : REPORT_ROWS_MAX;
	uint64_t t0 = UINT64_MAX, t1 = 0;
	struct rdiag_cm_conn_info c;
	struct cm_ev ev[CM_EVS];
	char a[64], b[64], t[32];
	double span, st;
	int h;

	fputs("<h2 id=\"cm\">CM connections</h2>\n", f);
	if (!n) {
		fputs("<p>No CM connection in this capture.</p>\n", f);
		return;
	}
	for (size_t i = 0; i < rows; i++) {
		if (rdiag_flow_cm_get(ft, i, &c) < 0)
			continue;
		cm_events(&c, ev);
		cm_span(ev, &t0, &t1);
	}
	if (t0 > t1)
		t0 = t1 = 0;
	span = t1 > t0 ? (double)(t1 - t0) : 1;
	h = 50 + (int)rows * TROW;
	fprintf(f, "<div class=\"scroll\"><svg class=\"tl zoomable\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n<title>CM "
		"connections: from the first REQ to the outcome</title>\n<rect width=\"100%%\" "
		"height=\"100%%\" fill=\"#fff\"/>\n", TW, h, TW, h);
	dump_time(t, sizeof(t), t0 / 1000000000ull, (uint32_t)(t0 % 1000000000ull));
	fprintf(f, "<text x=\"%.1f\" y=\"14\">time from %s UTC (the first CM message)</text>\n",
		TX0, t);
	st = html_nice_step(span, 6);
	for (double v = 0; v <= span * (1 + 1e-9); v += st) {
		double x = TX0 + v / span * (TX1 - TX0);

		fprintf(f, "<path class=\"grid\" d=\"M%.1f 30V%d\"/><text x=\"%.1f\" y=\"28\" "
			"text-anchor=\"middle\">+%s</text>\n", x, h - 10, x,
			dump_dur(a, sizeof(a), v));
	}
	for (size_t i = 0; i < rows; i++) {
		double y = 40 + (double)i * TROW, x0, x1;
		const char *rn;

		uint64_t first = UINT64_MAX, last = 0;

		if (rdiag_flow_cm_get(ft, i, &c) < 0)
			continue;
		cm_events(&c, ev);
		cm_span(ev, &first, &last);
		if (first > last)
			first = last = t0;
		rdiag_flow_addr_str(c.kind, c.client, a, sizeof(a));
		rdiag_flow_addr_str(c.kind, c.server, b, sizeof(b));
		rn = c.n_rej ? (c.rej_reason_name ? c.rej_reason_name : "unassigned") : NULL;
		fprintf(f, "<g class=\"conn\" id=\"cm-%zu\"><text x=\"4\" y=\"%.1f\">", i, y + 4);
		html_text(f, a);
		fputs(" &gt; ", f);
		html_text(f, b);
		fprintf(f, " qp 0x%06x</text>\n", c.client_qpn);
		x0 = TX0 + (double)(first - t0) / span * (TX1 - TX0);
		x1 = TX0 + (double)(last - t0) / span * (TX1 - TX0);
		fprintf(f, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\">"
			"<title>", c.n_rej || (c.n_req > 1 && !c.n_rep) ? " bad" : "", x0, y - 6,
			x1 - x0 < 2 ? 2 : x1 - x0);
		html_text(f, a);
		fputs(" &gt; ", f);
		html_text(f, b);
		fprintf(f, ", comm 0x%08x, qp 0x%06x &lt;&gt; 0x%06x: ", c.client_comm_id,
			c.client_qpn, c.server_qpn);
		html_text(f, rdiag_flow_cm_state_name(c.state));
		if (rn) {
			fprintf(f, "; rejected by the %s, reason %u ", c.rej_by_client ? "client" :
				"server", c.rej_reason);
			html_text(f, rn);
		}
		fputs("</title></rect>\n", f);
		for (size_t k = 0; k < CM_EVS; k++) {
			double x = TX0 + (double)(ev[k].ts - t0) / span * (TX1 - TX0);

			if (!ev[k].n)
				continue;
			fprintf(f, "<path class=\"cm-ev %s\" d=\"M%.1f %.1fl5 6l-5 6l-5 -6z\"><title>"
				"%s", ev[k].cls, x, y - 6, ev[k].label);
			if (ev[k].n > 1 || k == EV_REQ_RESEND)
				fprintf(f, " x%u", ev[k].n);
			fprintf(f, " at +%s", dump_dur(t, sizeof(t), (double)(ev[k].ts - t0)));
			if (k == EV_REJ) {
				fputs(": reason ", f);
				fprintf(f, "%u ", c.rej_reason);
				html_text(f, rn);
			}
			fputs("</title></path>\n", f);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s>", x1 + 8 > TX1 ? TX1 + 4 : x1 + 8, y + 4,
			rn ? " fill=\"#b00\"" : "");
		html_text(f, rdiag_flow_cm_state_name(c.state));
		if (rn) {
			fputs(": ", f);
			html_text(f, rn);
		}
		fputs("</text></g>\n", f);
	}
	fputs("</svg></div>\n<p class=\"note\">Bars from the first to the last CM message of each "
	      "connection; diamonds: REQ, REQ resent (the last resend, with how many), MRA, REP, "
	      "RTU, REJ (with its reason), DREQ, DREP, LAP, APR, each at its first time.</p>\n", f);
	if (n > rows)
		fprintf(f, "<p class=\"more\">+%zu more connections not drawn (at most %d)</p>\n",
			n - rows, REPORT_ROWS_MAX);
}

/* ---- tables ---- */

static void td_n(FILE *f, uint64_t v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", v, v);
}

static void td_dur(FILE *f, bool have, uint64_t ns)
{
	char d[24];

	if (!have)
		fputs("<td class=\"n\" data-v=\"-1\">-</td>", f);
	else
		fprintf(f, "<td class=\"n\" data-v=\"%" PRIu64 "\">%s</td>", ns,
			dump_dur(d, sizeof(d), (double)ns));
}

static void td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	html_text(f, s);
	fputs("</td>", f);
}

static void mad_section(FILE *f, struct rdiag_flow_table *ft)
{
	size_t n = rdiag_flow_mad_txn_count(ft), rows = n < REPORT_ROWS_MAX ? n : REPORT_ROWS_MAX;
	struct rdiag_mad_txn t;
	char a[64], b[64], x[40];

	fputs("<h2 id=\"mad\">MAD transactions</h2>\n", f);
	if (!n) {
		fputs("<p>No MAD transaction in this capture.</p>\n", f);
		return;
	}
	fputs("<table class=\"sort\" id=\"mad-table\"><thead><tr><th>requester</th>"
	      "<th>responder</th><th>class</th><th>method</th><th>attribute</th><th>TID</th>"
	      "<th>sends</th><th>resent every</th><th>answer</th><th>status</th><th>latency</th>"
	      "</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < rows; i++) {
		const char *cn, *mn, *an;

		if (rdiag_flow_mad_txn_get(ft, i, &t) < 0)
			continue;
		cn = rdiag_mad_class_name(t.mgmt_class);
		mn = rdiag_mad_method_name(t.method);
		an = rdiag_mad_attr_name(t.mgmt_class, t.attr_id);
		fprintf(f, "<tr id=\"mad-%zu\"%s>", i, !t.answered || t.status ? " class=\"err\"" :
			"");
		td_text(f, rdiag_flow_addr_str(t.kind, t.requester, a, sizeof(a)));
		td_text(f, rdiag_flow_addr_str(t.kind, t.responder, b, sizeof(b)));
		snprintf(x, sizeof(x), "0x%02x", t.mgmt_class);
		td_text(f, cn ? cn : x);
		snprintf(x, sizeof(x), "0x%02x", t.method);
		td_text(f, mn ? mn : x);
		snprintf(x, sizeof(x), "0x%04x", t.attr_id);
		td_text(f, an ? an : x);
		snprintf(x, sizeof(x), "0x%016" PRIx64, t.tid);
		td_text(f, x);
		td_n(f, t.sends);
		td_dur(f, t.sends > 1, t.retry_gap_min_ns);
		td_text(f, t.answered ? "answered" : "none");
		if (t.answered)
			td_n(f, t.status);
		else
			fputs("<td class=\"n\" data-v=\"-1\">-</td>", f);
		td_dur(f, t.answered, t.latency_ns);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n > rows)
		fprintf(f, "<p class=\"more\">+%zu more transactions not listed (at most %d)</p>\n",
			n - rows, REPORT_ROWS_MAX);
}

static void flow_section(FILE *f, struct rdiag_flow_table *ft, const struct dump_report *r)
{
	static const char *const head[] = { "flow (src &gt; dst, dest QP)", "src QP", "pkts",
					     "bytes", "payload", "gaps", "lost", "not captured",
					     "resent", "dup", "ooo", "NAK", "RNR", "CE", "CNP", "ICRC",
					     "READ p50", "READ p99", "ACK p50", "ACK p99" };
	size_t n = rdiag_flow_count(ft), shown = 0, more = 0;
	struct rdiag_flow_info fi;
	char name[160], q[16];

	fputs("<h2 id=\"flows\">Flows</h2>\n<p class=\"note\">Click a column's head to sort by "
	      "it.</p>\n<table class=\"sort\" id=\"flow-table\"><thead><tr>", f);
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		fprintf(f, "<th>%s</th>", head[k]);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		if (rdiag_flow_get(ft, i, &fi) < 0 || !wanted(r, &fi))
			continue;
		if (shown++ >= REPORT_ROWS_MAX) {
			more++;
			continue;
		}
		dump_flow_name(name, sizeof(name), &fi.key);
		fprintf(f, "<tr%s><td>", dump_flow_troubled(&fi) ? " class=\"err\"" : "");
		link_flow(f, r, i, name);
		fputs("</td>", f);
		if (fi.src_qpn != RDIAG_QPN_NONE)
			snprintf(q, sizeof(q), "0x%06x", fi.src_qpn);
		fprintf(f, "<td data-v=\"%" PRId64 "\">%s</td>", fi.src_qpn != RDIAG_QPN_NONE ?
			(int64_t)fi.src_qpn : -1, fi.src_qpn != RDIAG_QPN_NONE ? q : "-");
		td_n(f, fi.pkts);
		td_n(f, fi.bytes);
		td_n(f, fi.payload);
		td_n(f, fi.psn_gaps);
		td_n(f, fi.psn_lost + fi.loss.resent_lost_psns);
		td_n(f, fi.loss.not_captured_psns);
		td_n(f, fi.loss.retry_nak_seq + fi.loss.retry_rnr + fi.loss.retry_timeout);
		td_n(f, fi.loss.duplicates);
		td_n(f, fi.psn_ooo);
		td_n(f, nak_sum(fi.naks));
		td_n(f, fi.rnr_naks);
		td_n(f, fi.ecn_ce);
		td_n(f, fi.cnp);
		td_n(f, fi.icrc_bad);
		td_dur(f, fi.read_lat.n, fi.read_lat.median_ns);
		td_dur(f, fi.read_lat.n, fi.read_lat.p99_ns);
		td_dur(f, fi.ack_lat.n, fi.ack_lat.median_ns);
		td_dur(f, fi.ack_lat.n, fi.ack_lat.p99_ns);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (more)
		fprintf(f, "<p class=\"more\">+%zu more flows not listed (at most %d)</p>\n", more,
			REPORT_ROWS_MAX);
}

int dump_report_write(struct dump_report *r, struct rdiag_flow_table *ft, FILE *f)
{
	const char *src = r->o.source ? r->o.source : "";
	size_t lc = strlen(dump_graph_css()) + sizeof(report_css), lt = strlen(src) + 32;
	char *css = malloc(lc), *title = malloc(lt);

	if (!css || !title) {
		free(css);
		free(title);
		return -ENOMEM;
	}
	snprintf(css, lc, "%s%s", dump_graph_css(), report_css);
	snprintf(title, lt, "rdmadump report: %s", src);
	html_begin(f, title, css);
	free(title);
	free(css);
	fputs("<h1>rdmadump report: ", f);
	html_text(f, src);
	fputs("</h1>\n<nav><a href=\"#summary\">summary</a><a href=\"#problems\">problems</a>"
	      "<a href=\"#graphs\">sequence graphs</a><a href=\"#cm\">CM connections</a>"
	      "<a href=\"#mad\">MAD transactions</a><a href=\"#flows\">flows</a></nav>\n", f);
	summary_section(f, ft, r);
	problems_section(f, ft, r);
	fprintf(f, "<h2 id=\"graphs\">Sequence graphs</h2>\n<p class=\"note\">Per QP: PSN against "
		"time of the requests (solid) and the responses (dashed, the ACKed PSN), with a "
		"marker for every NAK, RNR NAK (shaded: its timer), resend, duplicate, CE mark, CNP "
		"and PAUSE/PFC frame the summary counts (hover for details, click to zoom); the "
		"throughput on the wire and of the payload below it.  Bounds: lines of at most %d "
		"points per graph (thinned by time), at most %d markers of each kind per graph (a "
		"\"+N more\" note past that), the graphs of at most %d QPs (those with problems "
		"first).</p>\n", GRAPH_POINTS_MAX, REPORT_MARKS_MAX, REPORT_GRAPHS_MAX);
	if (!r->ng)
		fputs("<p>No QP with RDMA traffic in this capture.</p>\n", f);
	for (size_t i = 0; i < r->ng; i++)
		graph_section(f, ft, r, &r->g[i]);
	if (r->groups > r->ng)
		fprintf(f, "<p class=\"more\">+%zu more QPs not drawn (at most %d; the flow table "
			"lists them all)</p>\n", r->groups - r->ng, REPORT_GRAPHS_MAX);
	cm_section(f, ft);
	mad_section(f, ft);
	flow_section(f, ft, r);
	return html_end(f);
}
