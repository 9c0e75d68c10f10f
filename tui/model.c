/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop model: snapshots in, per-port derived figures out; see model.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "thresh.h"

void rt_snap_free(struct rt_snap *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nports; i++) {
		free(s->ports[i].ctr);
		free(s->ports[i].eth);
	}
	free(s->ports);
	free(s->qps);
	free(s->cms);
	if (s->owner_free)
		s->owner_free(s->owner);
	memset(s, 0, sizeof(*s));
}

void rt_model_init(struct rt_model *m)
{
	memset(m, 0, sizeof(*m));
	m->th_enabled = true;
}

static void port_release(struct rt_port *p)
{
	size_t i;

	for (i = 0; i < p->nctr; i++) {
		free(p->ctr[i].name);
		free(p->ctr[i].hist);
	}
	free(p->ctr);
	free(p->eth);
}

void rt_model_free(struct rt_model *m)
{
	size_t i;

	for (i = 0; i < m->nports; i++)
		port_release(&m->ports[i]);
	free(m->ports);
	free(m->qps);
	free(m->cms);
	memset(m, 0, sizeof(*m));
}

struct rt_port *rt_model_find(struct rt_model *m, const char *dev, unsigned port)
{
	size_t i;

	for (i = 0; i < m->nports; i++)
		if (m->ports[i].port == port && !strcmp(m->ports[i].dev, dev))
			return &m->ports[i];
	return NULL;
}

static struct rt_port *port_add(struct rt_model *m, const struct rt_snap_port *sp)
{
	struct rt_port *p;

	if (m->nports == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		struct rt_port *n = realloc(m->ports, cap * sizeof(*n));

		if (!n)
			return NULL;
		m->ports = n;
		m->cap = cap;
	}
	p = &m->ports[m->nports++];
	memset(p, 0, sizeof(*p));
	snprintf(p->dev, sizeof(p->dev), "%s", sp->dev);
	p->port = sp->port;
	p->util = -1;
	rt_hist_init(&p->pkts);
	return p;
}

static enum rt_role role_of(const struct rt_meta *meta)
{
	const char *c = rt_meta_concept(meta);

	if (!strcmp(c, "rx_packets"))
		return RT_ROLE_RX_PKTS;
	if (!strcmp(c, "tx_packets"))
		return RT_ROLE_TX_PKTS;
	if (!strcmp(c, "rx_bytes"))
		return RT_ROLE_RX_BYTES;
	if (!strcmp(c, "tx_bytes"))
		return RT_ROLE_TX_BYTES;
	return RT_ROLE_NONE;
}

/* samples usually arrive in the same order every time: try the hinted slot first */
static bool ctr_is(const struct rt_ctr *c, const struct rt_snap_ctr *sc)
{
	return c->meta.origin == sc->meta.origin && !strcmp(c->name, sc->name);
}

static struct rt_ctr *ctr_find(struct rt_port *p, const struct rt_snap_ctr *sc, size_t hint)
{
	size_t i;

	if (hint < p->nctr && ctr_is(&p->ctr[hint], sc))
		return &p->ctr[hint];
	for (i = 0; i < p->nctr; i++)
		if (ctr_is(&p->ctr[i], sc))
			return &p->ctr[i];
	return NULL;
}

static struct rt_ctr *ctr_add(struct rt_port *p, const struct rt_snap_ctr *sc)
{
	struct rt_ctr *c;

	if (p->nctr == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct rt_ctr *n = realloc(p->ctr, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->ctr = n;
		p->cap = cap;
	}
	c = &p->ctr[p->nctr];
	memset(c, 0, sizeof(*c));
	c->name = strdup(sc->name);
	c->hist = calloc(1, sizeof(*c->hist));
	if (!c->name || !c->hist) {
		free(c->name);
		free(c->hist);
		return NULL;
	}
	c->meta = sc->meta;
	c->role = role_of(&sc->meta);
	c->state = RT_RATE_FIRST;
	p->nctr++;
	return c;
}

bool rt_ctr_is_error(const struct rt_ctr *c)
{
	return rt_meta_sev(&c->meta) >= RT_SEV_WARN;
}

static void ctr_update(struct rt_ctr *c, const struct rt_snap_ctr *sc, uint64_t ts, bool rebase)
{
	struct rdiag_rate r;
	uint64_t scaled;

	c->meta = sc->meta;
	if (rebase) {
		/* 'r': this sample becomes zero and the rate restarts from it */
		memset(&c->prev, 0, sizeof(c->prev));
		c->base = rt_meta_scale(&sc->meta, sc->value);
	}
	rt_rate_step(&c->prev, &sc->meta, sc->value, ts, &r);
	c->last = r;
	c->raw = sc->value;
	c->ts_ns = ts;
	scaled = rt_meta_scale(&sc->meta, sc->value);
	if (r.state == RDIAG_RATE_RESET)
		c->base = 0;	/* the counter restarted below our baseline */
	c->value = scaled >= c->base ? scaled - c->base : scaled;
	c->state = (enum rt_rate_state)r.state;
	c->delta = r.state == RDIAG_RATE_VALID ? r.delta : 0;
	c->rate = r.state == RDIAG_RATE_VALID ? r.per_sec : 0;
	c->moved = c->delta > 0;
	c->present = true;
}

/* the Ports-screen figures; when several counters play one role (PMA and driver
 * packet counters on the same port) they count the same packets: take the largest */
static void port_derive(struct rt_port *p)
{
	uint64_t top = 0;
	size_t i;

	p->rx_pps = p->tx_pps = p->rx_Bps = p->tx_Bps = 0;
	p->have_pkts = p->have_bytes = p->have_rates = false;
	p->err_moving = 0;
	p->err_delta = 0;
	p->top_err = NULL;
	p->util = -1;
	for (i = 0; i < p->nctr; i++) {
		struct rt_ctr *c = &p->ctr[i];
		double *slot = NULL;

		switch (c->role) {
		case RT_ROLE_RX_PKTS: slot = &p->rx_pps; p->have_pkts = true; break;
		case RT_ROLE_TX_PKTS: slot = &p->tx_pps; p->have_pkts = true; break;
		case RT_ROLE_RX_BYTES: slot = &p->rx_Bps; p->have_bytes = true; break;
		case RT_ROLE_TX_BYTES: slot = &p->tx_Bps; p->have_bytes = true; break;
		case RT_ROLE_NONE: break;
		}
		if (c->present && c->state == RT_RATE_VALID) {
			p->have_rates = true;
			if (slot && c->rate > *slot)
				*slot = c->rate;
		}
		if (c->present && rt_ctr_is_error(c) && c->moved) {
			p->err_moving++;
			p->err_delta += c->delta;
			if (c->delta > top) {
				top = c->delta;
				p->top_err = c->name;
			}
		}
	}
	if (p->have_bytes && p->have_rates && p->link_gbps > 0) {
		double b = p->rx_Bps > p->tx_Bps ? p->rx_Bps : p->tx_Bps;

		p->util = b * 8 / (p->link_gbps * 1e9);
		if (p->util > 1)
			p->util = 1;
	}
}

/* one history sample for every counter and the port's packet rate: each snapshot advances
 * every ring of the model by one, so they line up by age; no valid rate is a gap */
static void hist_push(struct rt_port *p)
{
	bool live = !p->gone && !p->err;
	size_t j;

	for (j = 0; j < p->nctr; j++) {
		const struct rt_ctr *c = &p->ctr[j];

		rt_hist_push(c->hist, live && c->present && c->state == RT_RATE_VALID ?
				      c->rate : NAN);
	}
	rt_hist_push(&p->pkts, live && p->have_pkts && p->have_rates ? p->rx_pps + p->tx_pps :
								       NAN);
}

bool rt_port_series(const struct rt_port *p, const char *name, bool concept, size_t n,
		    double *out, const char **unit)
{
	double tmp[RT_HIST_CAP];
	bool found = false;
	size_t i, j;

	if (n > RT_HIST_CAP) {
		for (i = 0; i < n - RT_HIST_CAP; i++)
			out[i] = NAN;
		out += n - RT_HIST_CAP;
		n = RT_HIST_CAP;
	}
	if (!name || !*name) {
		rt_hist_last(&p->pkts, n, out);
		if (unit)
			*unit = "packets";
		return true;
	}
	for (i = 0; i < n; i++)
		out[i] = NAN;
	for (j = 0; j < p->nctr; j++) {
		const struct rt_ctr *c = &p->ctr[j];

		if (concept ? strcmp(rt_meta_concept(&c->meta), name) : strcmp(c->name, name))
			continue;
		if (!found && unit)
			*unit = rt_meta_unit(&c->meta);
		found = true;
		rt_hist_last(c->hist, n, tmp);
		for (i = 0; i < n; i++)
			if (!isnan(tmp[i]) && (isnan(out[i]) || tmp[i] > out[i]))
				out[i] = tmp[i];
	}
	return found;
}

void rt_model_eval_thresholds(struct rt_model *m)
{
	size_t i, j;

	m->breaches = 0;
	for (i = 0; i < m->nports; i++) {
		struct rt_port *p = &m->ports[i];

		p->breaches = 0;
		for (j = 0; j < p->nctr; j++) {
			struct rt_ctr *c = &p->ctr[j];

			c->breach = m->th && m->th_enabled && c->present && !p->gone &&
				    rt_thresh_match(m->th, p->dev, p->port, c);
			if (!c->breach)
				c->breach_line = 0;
			if (c->breach)
				p->breaches++;
		}
		m->breaches += p->breaches;
	}
}

static int copy_array(void **dst, size_t *ndst, const void *src, size_t n, size_t sz)
{
	void *a = NULL;

	if (n) {
		a = malloc(n * sz);
		if (!a)
			return -ENOMEM;
		memcpy(a, src, n * sz);
	}
	free(*dst);
	*dst = a;
	*ndst = n;
	return 0;
}

int rt_model_ingest(struct rt_model *m, const struct rt_snap *s)
{
	size_t i, j;
	bool rebase = m->baseline_reset;
	int err;

	for (i = 0; i < m->nports; i++)
		m->ports[i].seen = false;
	for (i = 0; i < s->nports; i++) {
		const struct rt_snap_port *sp = &s->ports[i];
		struct rt_port *p = rt_model_find(m, sp->dev, sp->port);

		if (!p && !(p = port_add(m, sp)))
			return -ENOMEM;
		p->seen = true;
		p->err = sp->err;
		p->slow = sp->slow;
		p->took_ns = sp->took_ns;
		if (sp->err)
			continue;	/* keep the last values; the view says why */
		if (p->gone) {
			/* the device came back (re-created): its counters start again */
			for (j = 0; j < p->nctr; j++)
				memset(&p->ctr[j].prev, 0, sizeof(p->ctr[j].prev));
			p->gone = false;
		}
		memcpy(p->state, sp->state, sizeof(p->state));
		memcpy(p->phys, sp->phys, sizeof(p->phys));
		memcpy(p->netdev, sp->netdev, sizeof(p->netdev));
		memcpy(p->link, sp->link, sizeof(p->link));
		p->link_gbps = sp->link_gbps;
		p->t_ns = sp->t_ns;
		for (j = 0; j < p->nctr; j++)
			p->ctr[j].present = false;
		for (j = 0; j < sp->nctr; j++) {
			const struct rt_snap_ctr *sc = &sp->ctr[j];
			struct rt_ctr *c = ctr_find(p, sc, j);

			if (!c && !(c = ctr_add(p, sc)))
				return -ENOMEM;
			ctr_update(c, sc, sp->t_ns, rebase);
		}
		if (rt_eth_port_ingest(&p->eth, sp->eth) < 0)
			return -ENOMEM;
		for (j = 0; j < p->nctr; j++) {
			struct rt_ctr *c = &p->ctr[j];

			if (!c->present) {
				c->delta = 0;
				c->rate = 0;
				c->moved = false;
				c->state = RT_RATE_FIRST;
				memset(&c->prev, 0, sizeof(c->prev));
			}
		}
	}
	for (i = 0; i < m->nports; i++) {
		struct rt_port *p = &m->ports[i];

		if (!p->seen && !p->gone) {
			/* vanished (rdma link delete, hot-unplug): grey it out, freeze values */
			p->gone = true;
			for (j = 0; j < p->nctr; j++) {
				p->ctr[j].delta = 0;
				p->ctr[j].rate = 0;
				p->ctr[j].moved = false;
				p->ctr[j].state = RT_RATE_STALE;
			}
		}
	}

	m->ndevs = 0;
	m->err_deltas = 0;
	for (i = 0; i < m->nports; i++) {
		struct rt_port *p = &m->ports[i];

		port_derive(p);
		hist_push(p);
		if (p->gone)
			continue;
		m->err_deltas += p->err_delta;
		for (j = 0; j < i; j++)
			if (!m->ports[j].gone && !strcmp(m->ports[j].dev, p->dev))
				break;
		if (j == i)
			m->ndevs++;
	}

	err = copy_array((void **)&m->qps, &m->nqps, s->qps, s->nqps, sizeof(*s->qps));
	if (!err)
		err = copy_array((void **)&m->cms, &m->ncms, s->cms, s->ncms, sizeof(*s->cms));
	if (err)
		return err;
	m->qp_err = s->qp_err;
	m->cm_err = s->cm_err;
	m->qps_in_err = 0;
	for (i = 0; i < m->nqps; i++)
		if (rt_qp_is_bad(&m->qps[i]))
			m->qps_in_err++;

	m->prev_t_ns = m->t_ns;
	m->t_ns = s->t_ns;
	m->took_ns = s->took_ns;
	m->lifespan_ms = s->lifespan_ms;
	m->frames++;
	m->baseline_reset = false;
	rt_model_eval_thresholds(m);
	return 0;
}

void rt_model_reset_baseline(struct rt_model *m)
{
	m->baseline_reset = true;
}

bool rt_qp_is_bad(const struct rt_qp *q)
{
	return q->qp_state == RDIAG_QPS_ERR || q->qp_state == RDIAG_QPS_SQE;
}

bool rt_cm_is_pending(const struct rt_cmid *c)
{
	return !strcmp(c->state, "ADDR_QUERY") || !strcmp(c->state, "ROUTE_QUERY") ||
	       !strcmp(c->state, "CONNECT") || !strcmp(c->state, "ADDR_RESOLVED") ||
	       !strcmp(c->state, "ROUTE_RESOLVED");
}

/* ---- ordering --------------------------------------------------------------------- */

static const char *const port_keys[RT_PK__N] = {
	"port", "rx pkt/s", "tx pkt/s", "rx B/s", "tx B/s", "util", "errors",
};
static const char *const ctr_keys[RT_CK__N] = { "name", "value", "delta", "rate", "severity" };
static const char *const qp_keys[RT_QK__N] = { "device", "lqpn", "state", "type", "pid" };
static const char *const cm_keys[RT_MK__N] = { "state", "device", "pid" };

const char *rt_port_key_name(enum rt_port_key k) { return port_keys[k]; }
const char *rt_ctr_key_name(enum rt_ctr_key k) { return ctr_keys[k]; }
const char *rt_qp_key_name(enum rt_qp_key k) { return qp_keys[k]; }
const char *rt_cm_key_name(enum rt_cm_key k) { return cm_keys[k]; }

struct sort_ctx {
	const void *base;
	int key;
	bool rev;
};

static int cmp_dbl(double a, double b)
{
	return a < b ? -1 : a > b;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_port(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *x = arg;
	const struct rt_port *p = (const struct rt_port *)x->base + *(const size_t *)a;
	const struct rt_port *q = (const struct rt_port *)x->base + *(const size_t *)b;
	int r = 0;

	switch ((enum rt_port_key)x->key) {
	case RT_PK_NAME: break;
	/* numeric columns: largest first unless reversed, like top */
	case RT_PK_RX_PPS: r = -cmp_dbl(p->rx_pps, q->rx_pps); break;
	case RT_PK_TX_PPS: r = -cmp_dbl(p->tx_pps, q->tx_pps); break;
	case RT_PK_RX_BPS: r = -cmp_dbl(p->rx_Bps, q->rx_Bps); break;
	case RT_PK_TX_BPS: r = -cmp_dbl(p->tx_Bps, q->tx_Bps); break;
	case RT_PK_UTIL: r = -cmp_dbl(p->util, q->util); break;
	case RT_PK_ERRS:
		r = -cmp_u64(p->err_delta, q->err_delta);
		if (!r)
			r = -cmp_u64(p->breaches, q->breaches);
		break;
	case RT_PK__N: break;
	}
	if (!r)
		r = strcmp(p->dev, q->dev);
	if (!r)
		r = cmp_u64(p->port, q->port);
	return x->rev ? -r : r;
}

static void sort_idx(size_t *idx, size_t n, int (*cmp)(const void *, const void *, void *),
		     const void *base, int key, bool rev)
{
	struct sort_ctx ctx = { base, key, rev };

	qsort_r(idx, n, sizeof(*idx), cmp, &ctx);
}

size_t rt_sort_ports(const struct rt_model *m, enum rt_port_key k, bool rev, size_t *idx)
{
	size_t i;

	for (i = 0; i < m->nports; i++)
		idx[i] = i;
	sort_idx(idx, m->nports, cmp_port, m->ports, k, rev);
	return m->nports;
}

static int cmp_ctr(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *x = arg;
	const struct rt_ctr *p = (const struct rt_ctr *)x->base + *(const size_t *)a;
	const struct rt_ctr *q = (const struct rt_ctr *)x->base + *(const size_t *)b;
	int r = 0;

	switch ((enum rt_ctr_key)x->key) {
	case RT_CK_NAME: break;
	case RT_CK_VALUE: r = -cmp_u64(p->value, q->value); break;
	case RT_CK_DELTA: r = -cmp_u64(p->delta, q->delta); break;
	case RT_CK_RATE: r = -cmp_dbl(p->rate, q->rate); break;
	case RT_CK_SEV:
		r = -((int)rt_meta_sev(&p->meta) - (int)rt_meta_sev(&q->meta));
		if (!r)
			r = -cmp_u64(p->delta, q->delta);
		break;
	case RT_CK__N: break;
	}
	if (!r)
		r = strcmp(p->name, q->name);
	return x->rev ? -r : r;
}

/* The filter is the library's counter selection (a name, alias, concept or glob), without
 * regard to case; text typed without glob characters is a part of one ("rnr" is "*rnr*"),
 * so the list narrows while the user types. */
static bool filter_match(const char *filter, const struct rt_ctr *c)
{
	char glob[80];

	if (!filter || !*filter)
		return true;
	if (!strpbrk(filter, "*?[") && strlen(filter) + 3 <= sizeof(glob)) {
		snprintf(glob, sizeof(glob), "*%s*", filter);
		filter = glob;
	}
	return rdiag_counter_match(filter, c->name, c->meta.cat, RDIAG_MATCH_CASEFOLD);
}

size_t rt_sort_ctrs(const struct rt_port *p, const char *filter, bool hide_quiet,
		    enum rt_ctr_key k, bool rev, size_t *idx)
{
	size_t i, n = 0;

	for (i = 0; i < p->nctr; i++) {
		const struct rt_ctr *c = &p->ctr[i];

		if (!filter_match(filter, c))
			continue;
		if (hide_quiet && c->value == 0 && !c->moved)
			continue;
		idx[n++] = i;
	}
	sort_idx(idx, n, cmp_ctr, p->ctr, k, rev);
	return n;
}

static int state_rank(unsigned int s)
{
	/* trouble first: ERR, SQE, then the transient states, RTS last, an unnamed one after */
	static const uint8_t order[] = { RDIAG_QPS_ERR, RDIAG_QPS_SQE, RDIAG_QPS_SQD,
					 RDIAG_QPS_RESET, RDIAG_QPS_INIT, RDIAG_QPS_RTR,
					 RDIAG_QPS_RTS };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (s == order[i])
			return (int)i;
	return (int)i;
}

static int cmp_qp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *x = arg;
	const struct rt_qp *p = (const struct rt_qp *)x->base + *(const size_t *)a;
	const struct rt_qp *q = (const struct rt_qp *)x->base + *(const size_t *)b;
	int r = 0;

	switch ((enum rt_qp_key)x->key) {
	case RT_QK_DEV: r = strcmp(p->dev, q->dev); break;
	case RT_QK_LQPN: break;
	case RT_QK_STATE: r = state_rank(p->qp_state) - state_rank(q->qp_state); break;
	case RT_QK_TYPE: r = strcmp(p->type, q->type); break;
	case RT_QK_PID: r = p->pid < q->pid ? -1 : p->pid > q->pid; break;
	case RT_QK__N: break;
	}
	if (!r)
		r = strcmp(p->dev, q->dev);
	if (!r)
		r = cmp_u64(p->lqpn, q->lqpn);
	return x->rev ? -r : r;
}

size_t rt_sort_qps(const struct rt_model *m, enum rt_qp_key k, bool rev, size_t *idx)
{
	size_t i;

	for (i = 0; i < m->nqps; i++)
		idx[i] = i;
	sort_idx(idx, m->nqps, cmp_qp, m->qps, k, rev);
	return m->nqps;
}

static int cmp_cm(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *x = arg;
	const struct rt_cmid *p = (const struct rt_cmid *)x->base + *(const size_t *)a;
	const struct rt_cmid *q = (const struct rt_cmid *)x->base + *(const size_t *)b;
	int r = 0;

	switch ((enum rt_cm_key)x->key) {
	case RT_MK_STATE:
		/* the pending ones (where a hanging rdma_connect shows) first */
		r = (int)rt_cm_is_pending(q) - (int)rt_cm_is_pending(p);
		if (!r)
			r = strcmp(p->state, q->state);
		break;
	case RT_MK_DEV: r = strcmp(p->dev, q->dev); break;
	case RT_MK_PID: r = p->pid < q->pid ? -1 : p->pid > q->pid; break;
	case RT_MK__N: break;
	}
	if (!r)
		r = strcmp(p->dev, q->dev);
	if (!r)
		r = strcmp(p->src, q->src);
	return x->rev ? -r : r;
}

size_t rt_sort_cms(const struct rt_model *m, enum rt_cm_key k, bool rev, size_t *idx)
{
	size_t i;

	for (i = 0; i < m->ncms; i++)
		idx[i] = i;
	sort_idx(idx, m->ncms, cmp_cm, m->cms, k, rev);
	return m->ncms;
}
