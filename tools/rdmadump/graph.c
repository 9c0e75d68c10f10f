/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --graph: one QP's sequence graph (SVG) or its points (CSV); see graph.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/html.h"
#include "common/out.h"
#include "dump.h"
#include "graph.h"

enum mark_kind { MK_NAK_SEQ, MK_NAK, MK_RNR, MK_RETRY_NAK, MK_RETRY_RNR, MK_TIMEOUT, MK_DUP,
		 MK_CE, MK_CNP, MK_PAUSE, MK_KINDS };

/* each kind: its class (SVG) and kind (CSV), the legend's words, its shape (a path from
 * (dx, dy) off the point; the CSS colours it), and (comment) the key of rdmadump -q -j that
 * counts the same verdicts */
static const struct mark_def {
	const char *cls, *label;
	double dx, dy;
	const char *path;
} marks[MK_KINDS] = {
	[MK_NAK_SEQ] = { "nak-seq", "NAK: PSN sequence error", -5, -5, "h10l-5 9z" },
							/* naks.PSN_SEQ_ERR */
	[MK_NAK] = { "nak", "NAK: another code", -4, -4, "l8 8m0 -8l-8 8" },	/* other naks */
	[MK_RNR] = { "rnr", "RNR NAK (shaded: its timer)", -4, -4, "h8v8h-8z" },	/* rnr_naks */
	[MK_RETRY_NAK] = { "retry-nak", "resent after a NAK (go-back-N)", -4, 0,
			   "a4 4 0 1 0 8 0a4 4 0 1 0 -8 0" },		/* retries.nak_seq */
	[MK_RETRY_RNR] = { "retry-rnr", "resent after an RNR NAK", -4, 0,
			   "a4 4 0 1 0 8 0a4 4 0 1 0 -8 0" },		/* retries.rnr */
	[MK_TIMEOUT] = { "timeout", "resent after a timeout", 0, -5, "l5 5l-5 5l-5 -5z" },
							/* retries.timeout */
	[MK_DUP] = { "dup", "duplicate", -4, 0, "h8m-4 -4v8" },	/* duplicates */
	[MK_CE] = { "ce", "ECN CE-marked", -2.5, 0, "a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0 -5 0" },
							/* ecn_ce */
	[MK_CNP] = { "cnp", "CNP", 0, -5, "l5 9h-10z" },	/* cnp */
	[MK_PAUSE] = { "pause", "PAUSE/PFC frame", 0, -6, "v12" },	/* pause.frames (all) */
};

struct gpt {
	uint64_t ts;
	int64_t y;			/* the PSN, unwrapped (24-bit PSNs wrap) */
};

struct mark {
	uint64_t ts;
	int64_t y;
	uint32_t flow;			/* the graph's flow, UINT32_MAX: none (PAUSE/PFC) */
	bool lane;			/* no PSN: drawn in the CNP lane above the plot */
	uint8_t code;			/* NAK: its code; PAUSE: 1 PFC */
	float timer_ms;			/* RNR NAK: its timer */
};

/* a line: every point while there are at most budget, else per time slice the lowest and the
 * highest PSN */
struct bucket {
	struct gpt lo, hi;
	bool used;
};
struct series {
	struct gpt *raw;
	size_t nraw, capraw;
	uint64_t n;
	struct bucket *b;
};

struct gflow {
	size_t index;			/* in the flow table */
	char name[160];
	uint32_t space;			/* the graph's flow whose request PSNs its responses carry */
	struct series req, rsp;
	bool init;			/* unwrapping of the PSNs of its requests (and their answers) */
	uint32_t last_psn;
	int64_t last_y;
};

struct range {
	bool have;
	int64_t lo, hi;
};

struct dump_graph {
	struct dump_graph_opts o;
	struct gflow *f;
	size_t nf;
	size_t budget, nb;		/* points per line, time slices per line */
	uint64_t t0, t1;		/* the flows' time span in the first reading: the slices */
	struct mark *m[MK_KINDS];
	size_t nm[MK_KINDS], capm[MK_KINDS];
	uint64_t total[MK_KINDS];
	size_t marks_max;		/* drawn of each kind */
	struct range x, y;		/* what is drawn: times (ns), PSNs (unwrapped) */
	uint64_t *wire, *pay;		/* embed: bytes per slice of [t0, t1] */
};

int dump_graph_new(struct dump_graph **gp, struct rdiag_flow_table *ft,
		   const struct dump_graph_opts *opts)
{
	size_t n = rdiag_flow_count(ft), i, k;
	struct rdiag_flow_info fi;
	struct dump_graph *g;

	*gp = NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = *opts;
	g->marks_max = opts->marks_max ? opts->marks_max : GRAPH_MARKS_MAX;
	if (opts->embed && (!(g->wire = calloc(GRAPH_RATE_SLICES, sizeof(*g->wire))) ||
			    !(g->pay = calloc(GRAPH_RATE_SLICES, sizeof(*g->pay))))) {
		dump_graph_free(g);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct gflow *nf;

		if (rdiag_flow_get(ft, i, &fi) < 0 || !dump_flow_of_qp(&fi, opts->qp))
			continue;
		nf = realloc(g->f, (g->nf + 1) * sizeof(*g->f));
		if (!nf) {
			dump_graph_free(g);
			return -ENOMEM;
		}
		g->f = nf;
		memset(&g->f[g->nf], 0, sizeof(g->f[0]));
		g->f[g->nf].index = i;
		/* its peer's index for now: made the graph's below */
		g->f[g->nf].space = fi.peer >= 0 ? (uint32_t)fi.peer : UINT32_MAX;
		dump_flow_name(g->f[g->nf].name, sizeof(g->f[0].name), &fi.key);
		if (!g->nf || fi.first_ns < g->t0)
			g->t0 = fi.first_ns;
		if (fi.last_ns > g->t1)
			g->t1 = fi.last_ns;
		g->nf++;
	}
	if (!g->nf) {
		dump_graph_free(g);
		return -ENOENT;
	}
	/* a response carries the PSN of the request it answers: it is drawn in the PSN space
	 * of its peer, the requester's flow, when that is in the graph */
	for (i = 0; i < g->nf; i++) {
		uint32_t sp = (uint32_t)i;

		for (k = 0; k < g->nf; k++)
			if (g->f[k].index == g->f[i].space)
				sp = (uint32_t)k;
		g->f[i].space = sp;
	}
	g->budget = GRAPH_POINTS_MAX / (2 * g->nf);
	if (g->budget < 2)
		g->budget = 2;
	g->nb = g->budget / 2;
	*gp = g;
	return 0;
}

void dump_graph_free(struct dump_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nf; i++) {
		free(g->f[i].req.raw);
		free(g->f[i].req.b);
		free(g->f[i].rsp.raw);
		free(g->f[i].rsp.b);
	}
	for (int k = 0; k < MK_KINDS; k++)
		free(g->m[k]);
	free(g->f);
	free(g->wire);
	free(g->pay);
	free(g);
}

/* the graph's flow of flow table index fi, or -1 (the flows are in index order) */
static int64_t local_flow(const struct dump_graph *g, int64_t fi)
{
	size_t lo = 0, hi = g->nf;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((int64_t)g->f[mid].index < fi)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nf && (int64_t)g->f[lo].index == fi ? (int64_t)lo : -1;
}

/* slice i of n of the time span [t0, t1] that ts falls in */
static size_t slice(uint64_t t0, uint64_t t1, uint64_t ts, size_t n)
{
	double at;

	if (t1 <= t0 || ts <= t0)
		return 0;
	at = (double)(ts - t0) / (double)(t1 - t0 + 1) * (double)n;
	return at >= (double)n ? n - 1 : (size_t)at;
}

/* the PSN of a packet in the space of flow sp, unwrapped: a step of more than half the
 * 24-bit space is one backwards */
static int64_t unwrap(struct gflow *sp, uint32_t psn)
{
	psn &= 0xffffff;
	if (!sp->init) {
		sp->init = true;
		sp->last_y = psn;
	} else {
		uint32_t d = (psn - sp->last_psn) & 0xffffff;

		sp->last_y += d & 0x800000 ? (int64_t)d - 0x1000000 : (int64_t)d;
	}
	sp->last_psn = psn;
	return sp->last_y;
}

static void widen(struct range *r, int64_t v)
{
	if (!r->have || v < r->lo)
		r->lo = v;
	if (!r->have || v > r->hi)
		r->hi = v;
	r->have = true;
}

/* one marker: counted always, kept up to marks_max of its kind */
static void mark_add(struct dump_graph *g, enum mark_kind k, const struct mark *m)
{
	g->total[k]++;
	if (g->nm[k] == g->marks_max)
		return;
	if (g->nm[k] == g->capm[k]) {
		size_t cap = g->capm[k] ? g->capm[k] * 2 : 64;
		struct mark *nm;

		if (cap > g->marks_max)
			cap = g->marks_max;
		nm = realloc(g->m[k], cap * sizeof(*nm));
		if (!nm)
			return;		/* not drawn: the note counts it with the rest */
		g->m[k] = nm;
		g->capm[k] = cap;
	}
	g->m[k][g->nm[k]++] = *m;
	widen(&g->x, (int64_t)m->ts);
	if (!m->lane && m->flow != UINT32_MAX)
		widen(&g->y, m->y);
}

static void series_add(struct dump_graph *g, struct series *s, uint64_t ts, int64_t y)
{
	struct gpt pt = { ts, y };
	struct bucket *b;
	size_t i;

	s->n++;
	if (s->nraw < g->budget) {
		if (s->nraw == s->capraw) {
			size_t cap = s->capraw ? s->capraw * 2 : 64;
			struct gpt *nr;

			if (cap > g->budget)
				cap = g->budget;
			nr = realloc(s->raw, cap * sizeof(*nr));
			if (nr) {
				s->raw = nr;
				s->capraw = cap;
			}
		}
		if (s->nraw < s->capraw)
			s->raw[s->nraw++] = pt;
	}
	if (!s->b && !(s->b = calloc(g->nb, sizeof(*s->b))))
		return;
	i = slice(g->t0, g->t1, ts, g->nb);
	b = &s->b[i];
	if (!b->used || y < b->lo.y)
		b->lo = pt;
	if (!b->used || y > b->hi.y)
		b->hi = pt;
	b->used = true;
	widen(&g->x, (int64_t)ts);
	widen(&g->y, y);
}

void dump_graph_add(struct dump_graph *g, const struct rdiag_pkt *p, uint64_t ts,
		    const struct rdiag_flow_verdict *v)
{
	struct mark m = { .ts = ts, .flow = UINT32_MAX };
	struct gflow *f;
	uint32_t fl = v->flags;
	int64_t lf;
	bool resp;

	if (fl & RDIAG_FV_PAUSE) {
		m.lane = true;
		m.code = p->encap == RDIAG_ENCAP_PFC;
		mark_add(g, MK_PAUSE, &m);
		return;
	}
	if (v->flow < 0 || (lf = local_flow(g, v->flow)) < 0)
		return;
	f = &g->f[lf];
	m.flow = (uint32_t)lf;
	if (g->wire) {
		size_t i = slice(g->t0, g->t1, ts, GRAPH_RATE_SLICES);

		g->wire[i] += p->len;
		g->pay[i] += p->payload_len;
	}
	if (fl & RDIAG_FV_CNP) {
		/* a CNP's PSN says nothing: it goes to the lane, and so does its CE mark */
		m.lane = true;
		if (fl & RDIAG_FV_CE)
			mark_add(g, MK_CE, &m);
		mark_add(g, MK_CNP, &m);
		return;
	}
	resp = rdiag_opcode_is_response(p->bth.opcode);
	m.y = unwrap(&g->f[resp ? f->space : (uint32_t)lf], p->bth.psn);
	if (fl & RDIAG_FV_CE)
		mark_add(g, MK_CE, &m);
	if (fl & RDIAG_FV_NAK) {
		m.code = p->aeth.nak;
		mark_add(g, p->aeth.nak == 0 ? MK_NAK_SEQ : MK_NAK, &m);
	}
	if (fl & RDIAG_FV_RNR) {
		m.timer_ms = (float)p->aeth.timer_ms;
		mark_add(g, MK_RNR, &m);
	}
	if (fl & RDIAG_FV_RETRY_NAK)
		mark_add(g, MK_RETRY_NAK, &m);
	if (fl & RDIAG_FV_RETRY_RNR)
		mark_add(g, MK_RETRY_RNR, &m);
	if (fl & RDIAG_FV_RETRY_TIMEOUT)
		mark_add(g, MK_TIMEOUT, &m);
	/* a READ response seen again is no duplicate request (psn_dup, not duplicates) */
	if ((fl & RDIAG_FV_DUP) && !resp)
		mark_add(g, MK_DUP, &m);
	if (resp && !(fl & (RDIAG_FV_NAK | RDIAG_FV_RNR)))
		series_add(g, &f->rsp, ts, m.y);
	else if (!resp && rdiag_opcode_is_request(p->bth.opcode))
		series_add(g, &f->req, ts, m.y);
}

/* the points a line draws, in time order, into pts (NULL: only counted); how many */
static size_t series_points(const struct dump_graph *g, const struct series *s, struct gpt *pts)
{
	size_t n = 0;

	if (s->n <= s->nraw) {
		if (pts && s->nraw)
			memcpy(pts, s->raw, s->nraw * sizeof(*pts));
		return s->nraw;
	}
	for (size_t i = 0; s->b && i < g->nb; i++) {
		const struct bucket *b = &s->b[i];
		bool hi_first = b->hi.ts < b->lo.ts;

		if (!b->used)
			continue;
		if (pts)
			pts[n] = hi_first ? b->hi : b->lo;
		n++;
		if (b->hi.ts == b->lo.ts && b->hi.y == b->lo.y)
			continue;
		if (pts)
			pts[n] = hi_first ? b->lo : b->hi;
		n++;
	}
	return n;
}

/* ---- the SVG ---- */

#define W 1100
#define H 640
#define PX0 90.0		/* the plot area */
#define PX1 730.0
#define PY0 120.0
#define PY1 570.0
#define LANE_CNP 86.0		/* the lanes of what has no PSN, above it */
#define LANE_PAUSE 104.0
#define LX 750			/* the legend */

struct scale {
	uint64_t x0;
	double xspan, unit;
	const char *uname;
	double y0, yspan;
};

static double sx(const struct scale *sc, uint64_t t)
{
	return PX0 + (double)(t - sc->x0) / sc->xspan * (PX1 - PX0);
}

static double sy(const struct scale *sc, int64_t y)
{
	return PY1 - ((double)y - sc->y0) / sc->yspan * (PY1 - PY0);
}

static void make_scale(const struct dump_graph *g, struct scale *sc)
{
	uint64_t span = g->x.have ? (uint64_t)(g->x.hi - g->x.lo) : 0;

	sc->x0 = g->x.have ? (uint64_t)g->x.lo : 0;
	sc->xspan = span ? (double)span : 1;
	if (span >= 2000000000ull) {
		sc->unit = 1e9;
		sc->uname = "s";
	} else if (span >= 2000000) {
		sc->unit = 1e6;
		sc->uname = "ms";
	} else if (span >= 2000) {
		sc->unit = 1e3;
		sc->uname = "\xc2\xb5s";
	} else {
		sc->unit = 1;
		sc->uname = "ns";
	}
	/* half a PSN of room above and below */
	sc->y0 = g->y.have ? (double)g->y.lo - 0.5 : -0.5;
	sc->yspan = g->y.have ? (double)(g->y.hi - g->y.lo) + 1 : 1;
}

/* a flow's colour (requests solid, responses dashed in the same colour) */
static const char *flow_colour(size_t i)
{
	static const char *const c[] = { "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
					 "#7f7f7f", "#bcbd22", "#17becf" };

	return c[i % (sizeof(c) / sizeof(c[0]))];
}

/* "12.345 µs" from the graph's origin */
static void fmt_t(char *buf, size_t len, const struct scale *sc, uint64_t t)
{
	snprintf(buf, len, "%.6g %s", (double)(t - sc->x0) / sc->unit, sc->uname);
}

/* the path of a marker's shape at (x, y), its class cls and its kind's */
static void shape(FILE *f, enum mark_kind k, const char *cls, double x, double y)
{
	fprintf(f, "<path class=\"%s %s\" d=\"M%.1f %.1f%s\"", cls, marks[k].cls, x + marks[k].dx,
		y + marks[k].dy, marks[k].path);
}

static void marker_title(FILE *f, const struct dump_graph *g, const struct scale *sc,
			 enum mark_kind k, const struct mark *m)
{
	char t[48];

	fmt_t(t, sizeof(t), sc, m->ts);
	fputs("<title>", f);
	xml_escape(f, marks[k].label);
	fprintf(f, " at %s", t);
	if (k == MK_NAK) {
		fputs(" (", f);
		xml_escape(f, rdiag_nak_name(m->code));
		fputs(")", f);
	}
	if (k == MK_RNR)
		fprintf(f, ", timer %g ms", m->timer_ms);
	if (k == MK_PAUSE)
		fputs(m->code ? ", PFC" : ", PAUSE", f);
	if (!m->lane)
		fprintf(f, ", PSN %" PRIu64, (uint64_t)m->y & 0xffffff);
	if (m->flow != UINT32_MAX) {
		fputs(", ", f);
		xml_escape(f, g->f[m->flow].name);
	}
	fputs("</title></path>\n", f);
}

static void svg_axes(FILE *f, const struct scale *sc)
{
	double st = html_nice_step(sc->xspan / sc->unit, 6), ys = html_nice_step(sc->yspan, 8), v;
	char t[32];

	if (ys < 1)
		ys = 1;
	fprintf(f, "<g class=\"axes\">\n<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/>\n", PX0, PY0, PX1 - PX0, PY1 - PY0);
	for (v = 0; v <= sc->xspan / sc->unit * (1 + 1e-9); v += st) {
		double x = PX0 + v * sc->unit / sc->xspan * (PX1 - PX0);

		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/>", x, PY0, PY1);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.6g</text>\n", x,
			PY1 + 16, v);
	}
	for (v = ceil(sc->y0 / ys) * ys; v <= sc->y0 + sc->yspan; v += ys) {
		double y = sy(sc, (int64_t)v);

		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fH%.1f\"/>", PX0, y, PX1);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%" PRIu64 "</text>\n",
			PX0 - 6, y + 4, (uint64_t)(int64_t)v & 0xffffff);
	}
	dump_time(t, sizeof(t), sc->x0 / 1000000000ull, (uint32_t)(sc->x0 % 1000000000ull));
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">time (%s) "
		"from %s UTC</text>\n", (PX0 + PX1) / 2, (int)PY1 + 40, sc->uname, t);
	fprintf(f, "<text class=\"label\" transform=\"translate(%d %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">PSN</text>\n", 24, (PY0 + PY1) / 2);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">CNP</text>\n", PX0 - 6,
		LANE_CNP + 4);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">PAUSE/PFC</text>\n", PX0 - 6,
		LANE_PAUSE + 4);
	fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>\n</g>\n", PX0,
		LANE_CNP, PX1, PX0, LANE_PAUSE, PX1);
}

static void svg_lines(FILE *f, const struct dump_graph *g, const struct scale *sc)
{
	size_t most = g->budget, n;
	struct gpt *pts = malloc(most * 2 * sizeof(*pts) + sizeof(*pts));

	if (!pts)
		return;
	for (size_t i = 0; i < g->nf; i++) {
		const struct series *s[2] = { &g->f[i].req, &g->f[i].rsp };

		for (int k = 0; k < 2; k++) {
			n = series_points(g, s[k], pts);
			if (!n)
				continue;
			/* responses in the colour of the requests they answer */
			fprintf(f, "<polyline class=\"line %s\" stroke=\"%s\" points=\"",
				k ? "rsp" : "req", flow_colour(k ? g->f[i].space : i));
			for (size_t j = 0; j < n; j++)
				fprintf(f, "%s%.1f,%.1f", j ? " " : "", sx(sc, pts[j].ts),
					sy(sc, pts[j].y));
			fputs("\"/>\n", f);
		}
	}
	free(pts);
}

static void svg_marks(FILE *f, const struct dump_graph *g, const struct scale *sc)
{
	/* the RNR timers first, under everything; cut at the end of the time axis (a timer of
	 * up to 655 ms would otherwise make the rest of the graph a line) */
	for (size_t j = 0; j < g->nm[MK_RNR]; j++) {
		const struct mark *m = &g->m[MK_RNR][j];
		double x = sx(sc, m->ts), y = sy(sc, m->y);
		double end = sx(sc, m->ts + (uint64_t)((double)m->timer_ms * 1e6));

		if (m->timer_ms > 0)
			fprintf(f, "<rect class=\"rnr-wait\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"14\"/>\n", x, y - 7, (end < PX1 ? end : PX1) - x);
	}
	svg_lines(f, g, sc);
	for (int k = 0; k < MK_KINDS; k++) {
		for (size_t j = 0; j < g->nm[k]; j++) {
			const struct mark *m = &g->m[k][j];
			double y = k == MK_PAUSE ? LANE_PAUSE : m->lane ? LANE_CNP : sy(sc, m->y);

			shape(f, (enum mark_kind)k, "m", sx(sc, m->ts), y);
			fputs(">", f);
			marker_title(f, g, sc, (enum mark_kind)k, m);
		}
	}
}

#define LEGEND_FLOWS 8

/* does any flow answer the requests of flow i (its responses drawn in i's PSN space)? */
static bool answered(const struct dump_graph *g, size_t i)
{
	for (size_t k = 0; k < g->nf; k++)
		if (g->f[k].space == i && g->f[k].rsp.n)
			return true;
	return false;
}

static void svg_legend(FILE *f, const struct dump_graph *g)
{
	static const char *const what[2] = { "requests: PSN", "responses: ACKed PSN" };
	double y = PY0 + 6;
	size_t shown = 0, i;

	fprintf(f, "<g class=\"legend\">\n");
	/* per requester flow: its name, its requests, the responses to them */
	for (i = 0; i < g->nf; i++) {
		bool has[2] = { g->f[i].req.n > 0, answered(g, i) };

		if (!has[0] && !has[1])
			continue;
		if (shown++ == LEGEND_FLOWS)
			break;
		fprintf(f, "<text class=\"flow\" x=\"%d\" y=\"%.1f\">", LX, y);
		xml_escape(f, g->f[i].name);
		fputs("</text>\n", f);
		y += 15;
		for (int k = 0; k < 2; k++) {
			if (!has[k])
				continue;
			fprintf(f, "<path class=\"line %s\" stroke=\"%s\" d=\"M%d %.1fh18\"/>",
				k ? "rsp" : "req", flow_colour(i), LX + 6, y - 4);
			fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LX + 30, y, what[k]);
			y += 15;
		}
		y += 6;
	}
	if (i < g->nf) {
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">and more flows</text>\n", LX, y);
		y += 20;
	}
	for (int k = 0; k < MK_KINDS; k++) {
		if (!g->total[k])
			continue;
		shape(f, (enum mark_kind)k, "k", LX + 8, y - 4);
		fprintf(f, "/><text x=\"%d\" y=\"%.1f\">", LX + 24, y);
		xml_escape(f, marks[k].label);
		fprintf(f, " (%" PRIu64 ")</text>\n", g->total[k]);
		y += 16;
		if (g->total[k] > g->nm[k]) {
			fprintf(f, "<text class=\"more\" x=\"%d\" y=\"%.1f\">+%" PRIu64
				" more not drawn</text>\n", LX + 24, y, g->total[k] - g->nm[k]);
			y += 16;
		}
	}
	fputs("</g>\n", f);
}

#define GRAPH_CSS \
	".frame{fill:none;stroke:#000}.grid{stroke:#e4e4e4;fill:none}\n" \
	".line{fill:none;stroke-width:1.2}.rsp{stroke-dasharray:4 2}\n" \
	".m,.k{stroke-width:1.3}.label{font-size:13px}.more{fill:#b00}\n" \
	".nak-seq{fill:#d62728;stroke:#d62728}.nak{fill:none;stroke:#8c1c13}\n" \
	".rnr{fill:#ff7f0e;stroke:#ff7f0e}.rnr-wait{fill:#ff7f0e;fill-opacity:.2}\n" \
	".retry-nak{fill:none;stroke:#1f77b4}.retry-rnr{fill:none;stroke:#ff7f0e}\n" \
	".timeout{fill:#9467bd;stroke:#9467bd}.dup{fill:none;stroke:#555}\n" \
	".ce{fill:#2ca02c}.cnp{fill:#17becf;stroke:#17becf}.pause{fill:none;stroke:#8c564b}\n"
static const char graph_css[] = GRAPH_CSS;
/* the page's: the throughput's too */
static const char page_css[] = GRAPH_CSS
	".wire{stroke:#1f77b4}.pay{stroke:#2ca02c;stroke-dasharray:4 2}\n";

const char *dump_graph_css(void)
{
	return page_css;
}

uint64_t dump_graph_marks(const struct dump_graph *g, const char *cls)
{
	for (int k = 0; k < MK_KINDS; k++)
		if (!strcmp(marks[k].cls, cls))
			return g->total[k];
	return 0;
}

/* the <svg> start tag: a document's (with its namespace) or an element of an HTML page */
static void svg_start(const struct dump_graph *g, FILE *f, const char *cls, int h)
{
	if (!g->o.embed)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\"", f);
	else
		fprintf(f, "<svg class=\"%s\"", cls);
	fprintf(f, " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n", W, h, W, h);
}

static int write_svg(const struct dump_graph *g, FILE *f)
{
	struct scale sc;

	make_scale(g, &sc);
	svg_start(g, f, "graph zoomable", H);
	fprintf(f, "<title>rdmadump: QP 0x%06x in ", g->o.qp);
	xml_escape(f, g->o.source ? g->o.source : "");
	fputs("</title>\n", f);
	if (!g->o.embed)
		fprintf(f, "<style>\n%s</style>\n", graph_css);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"30\" font-size=\"16\">QP 0x%06x: PSN "
		"against time</text>\n<text x=\"%.1f\" y=\"50\">", PX0, g->o.qp, PX0);
	xml_escape(f, g->o.source ? g->o.source : "");
	fprintf(f, ", %zu flow%s</text>\n", g->nf, g->nf == 1 ? "" : "s");
	svg_axes(f, &sc);
	svg_marks(f, g, &sc);
	svg_legend(f, g);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- the throughput below it (embed) ---- */

#define RH 190			/* its height */
#define RY0 20.0		/* its plot area, between PX0 and PX1 as the graph's */
#define RY1 150.0

/* "12.3 MB/s" of v B/s at a round value */
static void fmt_rate(char *buf, size_t len, double v)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	unsigned int i = 0;

	while (v >= 1000 && i + 1 < sizeof(pfx) / sizeof(pfx[0])) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.4g %sB/s", v, pfx[i]);
}

int dump_graph_write_rate(const struct dump_graph *g, FILE *f)
{
	double dt = (double)(g->t1 - g->t0 + 1) / GRAPH_RATE_SLICES / 1e9, most = 0, st, v;
	const uint64_t *series[2] = { g->wire, g->pay };
	static const char *const cls[2] = { "wire", "pay" };
	struct scale sc;
	char t[32];

	if (!g->wire)
		return 0;
	make_scale(g, &sc);
	for (size_t i = 0; i < GRAPH_RATE_SLICES; i++)
		if ((double)g->wire[i] / dt > most)
			most = (double)g->wire[i] / dt;
	svg_start(g, f, "rate zoomable", RH);
	fprintf(f, "<title>rdmadump: QP 0x%06x, throughput</title>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", g->o.qp);
	fprintf(f, "<g class=\"axes\">\n<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/>\n", PX0, RY0, PX1 - PX0, RY1 - RY0);
	if (!(most > 0))
		most = 1;
	st = html_nice_step(most, 4);
	for (v = 0; v <= most * (1 + 1e-9); v += st) {
		double y = RY1 - v / most * (RY1 - RY0);

		fmt_rate(t, sizeof(t), v);
		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fH%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n", PX0, y, PX1, PX0 - 6, y + 4, t);
	}
	st = html_nice_step(sc.xspan / sc.unit, 6);
	for (v = 0; v <= sc.xspan / sc.unit * (1 + 1e-9); v += st)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.6g</text>\n",
			PX0 + v * sc.unit / sc.xspan * (PX1 - PX0), RY1 + 16, v);
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time (%s), "
		"throughput per %.3g %s</text>\n</g>\n", (PX0 + PX1) / 2, RY1 + 36, sc.uname,
		dt * 1e9 / sc.unit, sc.uname);
	for (int k = 0; k < 2; k++) {
		fprintf(f, "<polyline class=\"line %s\" points=\"", cls[k]);
		for (size_t i = 0; i < GRAPH_RATE_SLICES; i++) {
			uint64_t mid = g->t0 + (uint64_t)(((double)i + 0.5) * dt * 1e9);
			double x = mid < sc.x0 ? PX0 : sx(&sc, mid);

			fprintf(f, "%s%.1f,%.1f", i ? " " : "", x > PX1 ? PX1 : x,
				RY1 - (double)series[k][i] / dt / most * (RY1 - RY0));
		}
		fputs("\"/>\n", f);
	}
	fprintf(f, "<g class=\"legend\"><path class=\"line wire\" d=\"M%d 40h18\"/><text x=\"%d\" "
		"y=\"44\">on the wire (frames)</text><path class=\"line pay\" d=\"M%d 60h18\"/>"
		"<text x=\"%d\" y=\"64\">payload</text></g>\n</svg>\n", LX, LX + 24, LX, LX + 24);
	return ferror(f) ? -EIO : 0;
}

/* ---- the CSV: the same points ---- */

static void csv_row(FILE *f, const struct scale *sc, uint64_t ts, const int64_t *y,
		    const char *kind, const char *flow, const char *detail)
{
	fprintf(f, "%.9f,%" PRIu64 ",", (double)(ts - sc->x0) / 1e9, ts);
	if (y)
		fprintf(f, "%" PRIu64, (uint64_t)*y & 0xffffff);
	fprintf(f, ",%s,", kind);
	csv_escape(f, flow ? flow : "");
	putc(',', f);
	csv_escape(f, detail ? detail : "");
	putc('\n', f);
}

static int write_csv(const struct dump_graph *g, FILE *f)
{
	struct gpt *pts = malloc(g->budget * 2 * sizeof(*pts) + sizeof(*pts));
	struct scale sc;
	char d[48];

	if (!pts)
		return -ENOMEM;
	make_scale(g, &sc);
	fputs("time_s,time_ns,psn,kind,flow,detail\n", f);
	for (size_t i = 0; i < g->nf; i++) {
		const struct series *s[2] = { &g->f[i].req, &g->f[i].rsp };

		for (int k = 0; k < 2; k++) {
			size_t n = series_points(g, s[k], pts);

			for (size_t j = 0; j < n; j++)
				csv_row(f, &sc, pts[j].ts, &pts[j].y, k ? "rsp" : "req",
					g->f[i].name, NULL);
		}
	}
	free(pts);
	for (int k = 0; k < MK_KINDS; k++)
		for (size_t j = 0; j < g->nm[k]; j++) {
			const struct mark *m = &g->m[k][j];

			d[0] = '\0';
			if (k == MK_NAK)
				snprintf(d, sizeof(d), "%s", rdiag_nak_name(m->code));
			else if (k == MK_RNR)
				snprintf(d, sizeof(d), "timer %g ms", m->timer_ms);
			else if (k == MK_PAUSE)
				snprintf(d, sizeof(d), "%s", m->code ? "PFC" : "PAUSE");
			csv_row(f, &sc, m->ts, m->lane ? NULL : &m->y, marks[k].cls,
				m->flow != UINT32_MAX ? g->f[m->flow].name : NULL, d);
		}
	return ferror(f) ? -EIO : 0;
}

int dump_graph_write(const struct dump_graph *g, FILE *f)
{
	return g->o.csv ? write_csv(g, f) : write_svg(g, f);
}
