/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Management datagrams: transactions of every class paired by (TID, class, the two ends) with
 * their latency, retries and status; SA PathRecord queries and the CM REQ that followed them;
 * SMP traps and port state changes; and the keys the control plane handed out checked
 * against the data plane: the DETH Q_Key of UD packets against the SIDR_REP of their QP, the
 * BTH P_Key of connected packets against their CM REQ, the REQ's P_Key against the PathRecord
 * it used.
 *
 * Only MADs come here until a CM REP or SIDR_REP gives keys to check; from then on every
 * packet does, and a per-flow cache of the last key checked keeps that to a compare. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "rdmadiag/packet.h"

enum {
	METHOD_SEND = 0x03, METHOD_TRAP = 0x05, METHOD_TRAP_REPRESS = 0x07,
	METHOD_RESP = 0x80,
	PR_COMP_DGID = 2,
	RMPP_TYPE_DATA = 1,
	SIDR_SUCCESS = 0,
	PKEY_BASE = 0x7FFF,		/* the partition; bit 15 is the membership type */
	MISMATCH_MAX = 4096,
};

struct txn {
	struct rdiag_mad_txn t;
	uint32_t stat;			/* row in stats */
};

struct stat {
	struct rdiag_mad_stat s;
	struct rd_hist lat;
};

/* a connection learnt from a CM REQ (and its REP) */
struct conn {
	uint8_t kind, client[16], server[16];
	uint32_t client_comm_id, client_qpn, server_qpn;
	uint16_t pkey;
	bool rep;
};

struct sidr {
	uint8_t kind, server[16];
	uint32_t qpn, qkey;
};

/* per flow: the last key checked and what it gave */
struct fcache {
	uint32_t gen;			/* conns + sidrs when checked; 0 never */
	uint32_t key;			/* P_Key or Q_Key seen */
	uint32_t expected;
	int32_t mismatch;		/* index + 1 in mm, 0 when the key was right */
	bool checked;			/* a connection/SIDR applies to the flow */
};

struct rd_mad {
	struct txn *tx;
	size_t ntx, captx;
	uint32_t *idx;			/* open addressing, txn index + 1 */
	size_t nidx;
	struct stat *st;
	size_t nst, capst;
	struct rdiag_fabric_event *ev;
	size_t nev, capev;
	struct { uint8_t kind, addr[16]; uint16_t lid; uint8_t port, state; } *ports;
	size_t nports, capports;
	struct conn *cn;
	size_t ncn, capcn;
	struct sidr *sd;
	size_t nsd, capsd;
	struct rdiag_key_mismatch *mm;
	size_t nmm, capmm;
	struct fcache *fc;
	size_t nfc;
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*p = q;
	*cap = n;
	return 0;
}

/* ---- transactions ---------------------------------------------------------------------- */

struct tkey {
	uint64_t tid;
	uint8_t cls, kind, req[16], rsp[16];
};

static uint32_t tkey_hash(const struct tkey *k)
{
	return rd_hash_bytes(k, sizeof(*k), 0x4du);
}

static void tkey_of(struct tkey *k, const struct rdiag_mad_txn *t)
{
	memset(k, 0, sizeof(*k));
	k->tid = t->tid;
	k->cls = t->mgmt_class;
	k->kind = t->kind;
	memcpy(k->req, t->requester, 16);
	memcpy(k->rsp, t->responder, 16);
}

static int rehash(struct rd_mad *m)
{
	size_t n = m->nidx ? m->nidx * 2 : 256;
	uint32_t *idx = calloc(n, sizeof(*idx));
	struct tkey k;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < m->ntx; i++) {
		size_t h;

		tkey_of(&k, &m->tx[i].t);
		for (h = tkey_hash(&k) & (n - 1); idx[h]; h = (h + 1) & (n - 1))
			;
		idx[h] = (uint32_t)i + 1;
	}
	free(m->idx);
	m->idx = idx;
	m->nidx = n;
	return 0;
}

static struct txn *txn_find(const struct rd_mad *m, const struct tkey *k)
{
	struct tkey o;

	if (!m->nidx)
		return NULL;
	for (size_t h = tkey_hash(k) & (m->nidx - 1); m->idx[h]; h = (h + 1) & (m->nidx - 1)) {
		struct txn *t = &m->tx[m->idx[h] - 1];

		tkey_of(&o, &t->t);
		if (!memcmp(&o, k, sizeof(o)))
			return t;
	}
	return NULL;
}

static int stat_row(struct rd_mad *m, uint8_t cls, uint16_t attr, uint32_t *row)
{
	for (size_t i = 0; i < m->nst; i++)
		if (m->st[i].s.mgmt_class == cls && m->st[i].s.attr_id == attr) {
			*row = (uint32_t)i;
			return 0;
		}
	if (grow((void **)&m->st, &m->capst, m->nst + 1, sizeof(*m->st)) < 0)
		return -ENOMEM;
	m->st[m->nst].s.mgmt_class = cls;
	m->st[m->nst].s.attr_id = attr;
	*row = (uint32_t)m->nst++;
	return 0;
}

static struct txn *txn_new(struct rd_mad *m, const struct tkey *k, const struct rdiag_pkt *p)
{
	struct txn *t;
	uint32_t row;

	if (stat_row(m, k->cls, p->mad.attr_id, &row) < 0 ||
	    grow((void **)&m->tx, &m->captx, m->ntx + 1, sizeof(*m->tx)) < 0)
		return NULL;
	if ((m->ntx + 1) * 2 > m->nidx && rehash(m) < 0)
		return NULL;
	t = &m->tx[m->ntx];
	memset(t, 0, sizeof(*t));
	t->stat = row;
	t->t.kind = k->kind;
	memcpy(t->t.requester, k->req, 16);
	memcpy(t->t.responder, k->rsp, 16);
	t->t.mgmt_class = k->cls;
	t->t.method = p->mad.method;
	t->t.attr_id = p->mad.attr_id;
	t->t.tid = k->tid;
	m->ntx++;
	{
		size_t h;

		for (h = tkey_hash(k) & (m->nidx - 1); m->idx[h]; h = (h + 1) & (m->nidx - 1))
			;
		m->idx[h] = (uint32_t)m->ntx;
	}
	m->st[row].s.requests++;
	return t;
}

static const uint8_t *record0(const struct rdiag_pkt *p, const uint8_t *data)
{
	return (p->present & RDIAG_HAS_MAD_DATA) && p->mad.n_records ? data + p->mad.data_off :
		NULL;
}

/* bits of field `name` of the packet's first record; false when the layout has none */
static bool field(const struct rdiag_pkt *p, const uint8_t *rec, const char *name,
		  uint64_t *v, const uint8_t **bytes)
{
	const struct rdiag_mad_attr *a = p->mad.layout;

	for (unsigned int i = 0; a && rec && i < a->n_fields; i++) {
		const struct rdiag_mad_field *f = &a->fields[i];

		if (strcmp(f->name, name))
			continue;
		if (bytes)
			*bytes = rec + f->off / 8;
		if (v && f->bits <= 64)
			*v = rdiag_mad_bits(rec, f->off, f->bits);
		return true;
	}
	return false;
}

static uint16_t status_of(const struct rdiag_pkt *p)
{
	return p->mad.dr ? p->mad.status & 0x7FFF : p->mad.status;
}

/* a request's send: the first of a TID, or a resend */
static int request(struct rd_mad *m, const struct rdiag_pkt *p, const uint8_t *data,
		   const struct tkey *k, uint64_t ts, struct rdiag_flow_verdict *v)
{
	struct txn *t = txn_find(m, k);
	const uint8_t *b;

	if (t) {
		uint64_t gap = ts - t->t.last_send_ns;

		t->t.sends++;
		t->t.last_send_ns = ts;
		if (!t->t.retry_gap_min_ns || gap < t->t.retry_gap_min_ns)
			t->t.retry_gap_min_ns = gap;
		if (gap > t->t.retry_gap_max_ns)
			t->t.retry_gap_max_ns = gap;
		m->st[t->stat].s.retries++;
		v->flags |= RDIAG_FV_MAD_RETRY;
		v->retry_gap_ns = gap;
		return 0;
	}
	t = txn_new(m, k, p);
	if (!t)
		return -ENOMEM;
	t->t.first_ns = t->t.last_send_ns = ts;
	t->t.sends = 1;
	if (k->cls == RDIAG_MAD_CLASS_SUBN_ADM && p->mad.attr_id == RDIAG_MAD_ATTR_PATH_RECORD &&
	    (p->mad.comp_mask & (UINT64_C(1) << PR_COMP_DGID)) &&
	    field(p, record0(p, data), "dgid", NULL, &b)) {
		t->t.pr_asked = true;
		memcpy(t->t.pr_dgid, b, 16);
	}
	return 0;
}

static void response(struct rd_mad *m, const struct rdiag_pkt *p, const uint8_t *data,
		     const struct tkey *k, uint64_t ts, struct rdiag_flow_verdict *v)
{
	struct txn *t = txn_find(m, k);
	const uint8_t *rec = record0(p, data), *b;
	uint16_t st = status_of(p);
	uint64_t x;
	uint32_t row;

	if (st)
		v->flags |= RDIAG_FV_MAD_STATUS;
	if (!t) {
		if (stat_row(m, k->cls, p->mad.attr_id, &row) == 0)
			m->st[row].s.unmatched++;
		return;
	}
	if ((p->present & RDIAG_HAS_RMPP) && (p->mad.rmpp.flags & RDIAG_RMPP_FLAG_ACTIVE) &&
	    p->mad.rmpp.type == RMPP_TYPE_DATA)
		t->t.resp_segments++;
	if (t->t.answered)
		return;		/* a later segment, or the answer again */
	t->t.answered = true;
	t->t.resp_method = p->mad.method;
	t->t.status = st;
	t->t.resp_ns = ts;
	t->t.latency_ns = ts - t->t.last_send_ns;
	m->st[t->stat].s.answered++;
	if (st)
		m->st[t->stat].s.error_status++;
	if (rd_hist_add(&m->st[t->stat].lat, t->t.latency_ns) < 0)
		return;
	if (k->cls == RDIAG_MAD_CLASS_SUBN_ADM && t->t.attr_id == RDIAG_MAD_ATTR_PATH_RECORD && !st &&
	    p->mad.attr_id == RDIAG_MAD_ATTR_PATH_RECORD && field(p, rec, "dgid", NULL, &b)) {
		t->t.pr_answer = true;
		memcpy(t->t.pr_ans_dgid, b, 16);
		field(p, rec, "dlid", &x, NULL);
		t->t.pr_dlid = (uint16_t)x;
		field(p, rec, "p_key", &x, NULL);
		t->t.pr_pkey = (uint16_t)x;
		field(p, rec, "sl", &x, NULL);
		t->t.pr_sl = (uint8_t)x;
		field(p, rec, "mtu", &x, NULL);
		t->t.pr_mtu = (uint8_t)x;
	}
}

/* ---- fabric events ------------------------------------------------------------------------ */

static void event(struct rd_mad *m, const struct rdiag_fabric_event *e)
{
	if (m->nev >= RDIAG_FABRIC_EVENTS_MAX ||
	    grow((void **)&m->ev, &m->capev, m->nev + 1, sizeof(*m->ev)) < 0)
		return;
	m->ev[m->nev++] = *e;
}

static void trap(struct rd_mad *m, const struct rdiag_pkt *p, const uint8_t *data, uint64_t ts)
{
	const uint8_t *rec = record0(p, data);
	struct rdiag_fabric_event e = { .what = RDIAG_FE_TRAP, .ts_ns = ts };
	const struct rdiag_mad_attr *t;
	uint64_t x = 0;

	if (!rec || !field(p, rec, "is_generic", &x, NULL) || !x)
		return;
	field(p, rec, "trap_number", &x, NULL);
	e.trap_number = (uint16_t)x;
	field(p, rec, "issuer_lid", &x, NULL);
	e.issuer_lid = (uint16_t)x;
	t = rdiag_mad_notice_layout(e.trap_number);
	for (unsigned int i = 0; t && i < t->n_fields; i++)
		if (!strcmp(t->fields[i].name, "lid") || !strcmp(t->fields[i].name, "lid1")) {
			e.lid = (uint16_t)rdiag_mad_bits(rec, t->fields[i].off, 16);
			break;
		}
	event(m, &e);
}

static void port_state(struct rd_mad *m, const struct rdiag_pkt *p, const uint8_t *data,
		       unsigned int kind, const uint8_t addr[16], uint64_t ts)
{
	const uint8_t *rec = record0(p, data);
	struct rdiag_fabric_event e = { .what = RDIAG_FE_PORT_STATE, .ts_ns = ts };
	uint64_t lid, state;
	uint8_t port = (uint8_t)p->mad.attr_mod;
	size_t i;

	if (!rec || !field(p, rec, "lid", &lid, NULL) || !field(p, rec, "port_state", &state,
								 NULL) || !state)
		return;
	for (i = 0; i < m->nports; i++)
		if (m->ports[i].kind == kind && !memcmp(m->ports[i].addr, addr, 16) &&
		    m->ports[i].port == port)
			break;
	if (i == m->nports) {
		if (grow((void **)&m->ports, &m->capports, m->nports + 1, sizeof(*m->ports)) < 0)
			return;
		m->ports[i].kind = (uint8_t)kind;
		memcpy(m->ports[i].addr, addr, 16);
		m->ports[i].port = port;
		m->nports++;
	} else if (m->ports[i].state == state) {
		return;
	}
	e.lid = (uint16_t)lid;
	e.port = port;
	e.old_state = m->ports[i].state;
	e.new_state = (uint8_t)state;
	m->ports[i].state = (uint8_t)state;
	m->ports[i].lid = (uint16_t)lid;
	if (e.old_state)
		event(m, &e);
}

/* ---- keys ---------------------------------------------------------------------------------- */

static int32_t mismatch(struct rd_mad *m, uint8_t what, unsigned int kind, const uint8_t src[16],
			const uint8_t dst[16], uint32_t qp, uint32_t expected, uint32_t seen,
			uint64_t ts)
{
	struct rdiag_key_mismatch *x;

	for (size_t i = 0; i < m->nmm; i++) {
		x = &m->mm[i];
		if (x->what == what && x->kind == kind && x->destqp == qp && x->seen == seen &&
		    !memcmp(x->src, src, 16) && !memcmp(x->dst, dst, 16)) {
			x->packets++;
			return (int32_t)i + 1;
		}
	}
	if (m->nmm >= MISMATCH_MAX ||
	    grow((void **)&m->mm, &m->capmm, m->nmm + 1, sizeof(*m->mm)) < 0)
		return 0;
	x = &m->mm[m->nmm++];
	x->what = what;
	x->kind = (uint8_t)kind;
	memcpy(x->src, src, 16);
	memcpy(x->dst, dst, 16);
	x->destqp = qp;
	x->expected = expected;
	x->seen = seen;
	x->packets = 1;
	x->first_ns = ts;
	return (int32_t)m->nmm;
}

static void cm_req(struct rd_mad *m, const struct rdiag_pkt *p, unsigned int kind,
		   const uint8_t src[16], const uint8_t dst[16], uint64_t ts,
		   struct rdiag_flow_verdict *v)
{
	const struct rdiag_cm *c = &p->cm;
	struct txn *best = NULL;
	struct conn *n;
	size_t i;

	for (i = 0; i < m->ncn; i++)
		if (m->cn[i].client_comm_id == c->local_comm_id && m->cn[i].kind == kind &&
		    !memcmp(m->cn[i].client, src, 16))
			return;		/* a REQ resent: the CM analysis counts it */
	if (grow((void **)&m->cn, &m->capcn, m->ncn + 1, sizeof(*m->cn)) < 0)
		return;
	n = &m->cn[m->ncn++];
	n->kind = (uint8_t)kind;
	memcpy(n->client, src, 16);
	memcpy(n->server, dst, 16);
	n->client_comm_id = c->local_comm_id;
	n->client_qpn = c->local_qpn;
	n->pkey = c->pkey;
	/* the latest PathRecord this host asked for that destination, answered or not */
	for (i = m->ntx; i-- > 0;) {
		struct rdiag_mad_txn *t = &m->tx[i].t;

		if (t->mgmt_class != RDIAG_MAD_CLASS_SUBN_ADM ||
		    t->attr_id != RDIAG_MAD_ATTR_PATH_RECORD || t->req_seen || t->kind != kind ||
		    memcmp(t->requester, src, 16))
			continue;
		if ((t->pr_answer && (!memcmp(t->pr_ans_dgid, c->primary_dgid, 16) ||
				      t->pr_dlid == c->primary_dlid)) ||
		    (t->pr_asked && !memcmp(t->pr_dgid, c->primary_dgid, 16))) {
			best = &m->tx[i];
			break;
		}
	}
	if (!best)
		return;
	best->t.req_seen = true;
	best->t.req_ns = ts;
	best->t.req_pkey = c->pkey;
	if (best->t.pr_answer && (best->t.pr_pkey & PKEY_BASE) != (c->pkey & PKEY_BASE)) {
		v->flags |= RDIAG_FV_PKEY_MISMATCH;
		v->expected_key = best->t.pr_pkey;
		mismatch(m, RDIAG_KEY_PKEY_PATH, kind, src, dst, 1, best->t.pr_pkey, c->pkey, ts);
	}
}

static void cm_rep(struct rd_mad *m, const struct rdiag_pkt *p, unsigned int kind,
		   const uint8_t src[16], const uint8_t dst[16])
{
	for (size_t i = 0; i < m->ncn; i++) {
		struct conn *n = &m->cn[i];

		if (n->client_comm_id == p->cm.remote_comm_id && n->kind == kind &&
		    !memcmp(n->client, dst, 16) && !memcmp(n->server, src, 16)) {
			n->server_qpn = p->cm.local_qpn;
			n->rep = true;
			return;
		}
	}
}

static void sidr_rep(struct rd_mad *m, const struct rdiag_pkt *p, unsigned int kind,
		     const uint8_t src[16])
{
	struct sidr *s;

	if (p->cm.sidr_status != SIDR_SUCCESS ||
	    grow((void **)&m->sd, &m->capsd, m->nsd + 1, sizeof(*m->sd)) < 0)
		return;
	s = &m->sd[m->nsd++];
	s->kind = (uint8_t)kind;
	memcpy(s->server, src, 16);
	s->qpn = p->cm.local_qpn;
	s->qkey = p->cm.qkey;
}

/* the key a packet should carry, from the latest connection or SIDR answer for its flow */
static bool expected_key(const struct rd_mad *m, const struct rdiag_pkt *p, unsigned int kind,
			 const uint8_t dst[16], uint8_t *what, uint32_t *key)
{
	uint32_t qp = p->bth.destqp;

	if (p->present & RDIAG_HAS_DETH) {
		for (size_t i = m->nsd; i-- > 0;)
			if (m->sd[i].qpn == qp && m->sd[i].kind == kind &&
			    !memcmp(m->sd[i].server, dst, 16)) {
				*what = RDIAG_KEY_QKEY_SIDR;
				*key = m->sd[i].qkey;
				return true;
			}
		return false;
	}
	for (size_t i = m->ncn; i-- > 0;) {
		const struct conn *n = &m->cn[i];

		if (!n->rep || n->kind != kind)
			continue;
		if ((qp == n->server_qpn && !memcmp(n->server, dst, 16)) ||
		    (qp == n->client_qpn && !memcmp(n->client, dst, 16))) {
			*what = RDIAG_KEY_PKEY_REQ;
			*key = n->pkey;
			return true;
		}
	}
	return false;
}

static int check_keys(struct rd_mad *m, const struct rdiag_pkt *p, unsigned int kind,
		      const uint8_t src[16], const uint8_t dst[16], uint64_t ts, int64_t fi,
		      struct rdiag_flow_verdict *v)
{
	uint32_t gen = (uint32_t)(m->ncn + m->nsd) + 1, seen, want;
	bool qkey = p->present & RDIAG_HAS_DETH;
	struct fcache *c;
	uint8_t what;

	if (fi < 0 || p->bth.destqp <= 1)
		return 0;
	if ((size_t)fi >= m->nfc) {
		size_t n = m->nfc ? m->nfc : 64;
		struct fcache *q;

		while (n <= (size_t)fi)
			n *= 2;
		q = realloc(m->fc, n * sizeof(*q));
		if (!q)
			return -ENOMEM;
		memset(q + m->nfc, 0, (n - m->nfc) * sizeof(*q));
		m->fc = q;
		m->nfc = n;
	}
	c = &m->fc[fi];
	seen = qkey ? p->deth_qkey : p->bth.pkey;
	if (c->gen != gen || c->key != seen) {
		c->gen = gen;
		c->key = seen;
		c->mismatch = 0;
		c->checked = expected_key(m, p, kind, dst, &what, &want);
		if (c->checked) {
			c->expected = want;
			if (qkey ? want != seen : (want & PKEY_BASE) != (seen & PKEY_BASE))
				c->mismatch = mismatch(m, what, kind, src, dst, p->bth.destqp, want,
						       seen, ts);
			if (c->mismatch) {
				c->mismatch = -c->mismatch;	/* counted already */
				v->flags |= qkey ? RDIAG_FV_QKEY_MISMATCH : RDIAG_FV_PKEY_MISMATCH;
				v->expected_key = want;
			}
			return 0;
		}
	}
	if (c->checked && c->mismatch) {
		if (c->mismatch < 0)
			c->mismatch = -c->mismatch;
		else
			m->mm[c->mismatch - 1].packets++;
		v->flags |= qkey ? RDIAG_FV_QKEY_MISMATCH : RDIAG_FV_PKEY_MISMATCH;
		v->expected_key = c->expected;
	}
	return 0;
}

/* ---- entry ----------------------------------------------------------------------------------- */

bool rd_mad_watching(const struct rd_mad *m)
{
	return m && (m->ncn || m->nsd);
}

int rd_mad_add(struct rd_mad **mp, const struct rdiag_pkt *p, unsigned int kind,
	       const uint8_t src[16], const uint8_t dst[16], uint64_t ts, int64_t fi,
	       struct rdiag_flow_verdict *v)
{
	struct rd_mad *m = *mp;
	const struct rdiag_mad *h = &p->mad;
	struct tkey k;
	bool resp;
	int r;

	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return -ENOMEM;
		*mp = m;
	}
	if (!(p->present & RDIAG_HAS_MAD))
		return check_keys(m, p, kind, src, dst, ts, fi, v);
	if (p->present & RDIAG_HAS_CM) {
		if (p->cm.msg == RDIAG_CM_REQ)
			cm_req(m, p, kind, src, dst, ts, v);
		else if (p->cm.msg == RDIAG_CM_REP)
			cm_rep(m, p, kind, src, dst);
		else if (p->cm.msg == RDIAG_CM_SIDR_REP)
			sidr_rep(m, p, kind, src);
		return 0;
	}
	if (h->mgmt_class == RDIAG_MAD_CLASS_CM || h->method == METHOD_SEND || h->base_version != 1)
		return 0;
	/* RMPP: only a transfer's first DATA segment is a send; ACK/STOP/ABORT and later
	 * segments belong to the transaction */
	if ((p->present & RDIAG_HAS_RMPP) && (h->rmpp.flags & RDIAG_RMPP_FLAG_ACTIVE) &&
	    (h->rmpp.type != RMPP_TYPE_DATA || h->rmpp.seg_num > 1) &&
	    !(h->method & METHOD_RESP))
		return 0;
	resp = (h->method & METHOD_RESP) || h->method == METHOD_TRAP_REPRESS;
	memset(&k, 0, sizeof(k));
	k.tid = h->tid;
	k.cls = h->mgmt_class;
	k.kind = (uint8_t)kind;
	memcpy(k.req, resp ? dst : src, 16);
	memcpy(k.rsp, resp ? src : dst, 16);
	if (!resp) {
		r = request(m, p, p->data, &k, ts, v);
		if (r < 0)
			return r;
		if (h->method == METHOD_TRAP && h->attr_id == RDIAG_MAD_ATTR_NOTICE &&
		    (h->mgmt_class == RDIAG_MAD_CLASS_SUBN_LID_ROUTED ||
		     h->mgmt_class == RDIAG_MAD_CLASS_SUBN_DIRECTED))
			trap(m, p, p->data, ts);
		return 0;
	}
	response(m, p, p->data, &k, ts, v);
	if (h->attr_id == RDIAG_MAD_ATTR_PORT_INFO && !status_of(p) &&
	    (h->mgmt_class == RDIAG_MAD_CLASS_SUBN_LID_ROUTED ||
	     h->mgmt_class == RDIAG_MAD_CLASS_SUBN_DIRECTED))
		port_state(m, p, p->data, kind, src, ts);
	return 0;
}

/* ---- results ---------------------------------------------------------------------------------- */

void rd_mad_free(struct rd_mad *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nst; i++)
		rd_hist_free(&m->st[i].lat);
	free(m->tx);
	free(m->idx);
	free(m->st);
	free(m->ev);
	free(m->ports);
	free(m->cn);
	free(m->sd);
	free(m->mm);
	free(m->fc);
	free(m);
}

size_t rd_mad_txn_count(const struct rd_mad *m)
{
	return m ? m->ntx : 0;
}

int rd_mad_txn_get(const struct rd_mad *m, size_t i, struct rdiag_mad_txn *out)
{
	if (!m || i >= m->ntx)
		return -ENOENT;
	*out = m->tx[i].t;
	return 0;
}

size_t rd_mad_stat_count(const struct rd_mad *m)
{
	return m ? m->nst : 0;
}

int rd_mad_stat_get(const struct rd_mad *m, size_t i, struct rdiag_mad_stat *out)
{
	if (!m || i >= m->nst)
		return -ENOENT;
	*out = m->st[i].s;
	/* unanswered: the transactions of the row with no response in the capture */
	out->unanswered = out->requests - out->answered;
	rd_hist_latency(&m->st[i].lat, &out->lat);
	return 0;
}

size_t rd_mad_event_count(const struct rd_mad *m)
{
	return m ? m->nev : 0;
}

int rd_mad_event_get(const struct rd_mad *m, size_t i, struct rdiag_fabric_event *out)
{
	if (!m || i >= m->nev)
		return -ENOENT;
	*out = m->ev[i];
	return 0;
}

size_t rd_mad_mismatch_count(const struct rd_mad *m)
{
	return m ? m->nmm : 0;
}

int rd_mad_mismatch_get(const struct rd_mad *m, size_t i, struct rdiag_key_mismatch *out)
{
	if (!m || i >= m->nmm)
		return -ENOENT;
	*out = m->mm[i];
	return 0;
}
