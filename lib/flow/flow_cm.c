/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* CM handshake timeline per connection.  A connection is named by its client (the REQ sender)
 * address and the client's comm ID, which every later message carries as either its local or
 * its remote comm ID; a REQ that repeats a known (address, comm ID) is a CM retry, the on-wire
 * signature of an rdma_connect() that times out. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rdmadiag/packet.h"
#include "internal.h"

static const char *const state_names[] = {
	[RDIAG_CMS_REQ_SENT] = "req-sent",
	[RDIAG_CMS_REP_RCVD] = "rep-received",
	[RDIAG_CMS_ESTABLISHED] = "established",
	[RDIAG_CMS_REJECTED] = "rejected",
	[RDIAG_CMS_DREQ_SENT] = "disconnecting",
	[RDIAG_CMS_DISCONNECTED] = "disconnected",
};

const char *rdiag_flow_cm_state_name(unsigned int state)
{
	return state < sizeof(state_names) / sizeof(state_names[0]) ? state_names[state] : "unknown";
}

void rd_cm_free(struct rd_cm_table *t)
{
	free(t->c);
	free(t->idx);
	free(t->sidr);
	memset(t, 0, sizeof(*t));
}

static uint32_t conn_hash(unsigned int kind, const uint8_t addr[16], uint32_t id)
{
	uint8_t k[21];

	k[0] = (uint8_t)kind;
	memcpy(k + 1, addr, 16);
	memcpy(k + 17, &id, 4);
	return rd_hash_bytes(k, sizeof(k), 0x43u);
}

static int64_t find(const struct rd_cm_table *t, unsigned int kind, const uint8_t addr[16],
		    uint32_t id)
{
	size_t mask = t->nidx - 1, i;

	if (!t->nidx)
		return -1;
	for (i = conn_hash(kind, addr, id) & mask; t->idx[i]; i = (i + 1) & mask) {
		const struct rdiag_cm_conn_info *c = &t->c[t->idx[i] - 1];

		if (c->client_comm_id == id && c->kind == kind && !memcmp(c->client, addr, 16))
			return t->idx[i] - 1;
	}
	return -1;
}

static void index_put(uint32_t *idx, size_t nidx, const struct rdiag_cm_conn_info *c, uint32_t v)
{
	size_t mask = nidx - 1, i;

	for (i = conn_hash(c->kind, c->client, c->client_comm_id) & mask; idx[i]; i = (i + 1) & mask)
		;
	idx[i] = v;
}

static int64_t create(struct rd_cm_table *t, unsigned int kind, const uint8_t client[16],
		      const uint8_t server[16], uint32_t id)
{
	struct rdiag_cm_conn_info *c;

	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 16;
		void *q = realloc(t->c, nc * sizeof(*t->c));

		if (!q)
			return -ENOMEM;
		t->c = q;
		t->cap = nc;
	}
	if ((t->n + 1) * 2 > t->nidx) {
		size_t ni = t->nidx ? t->nidx * 2 : 64;
		uint32_t *q = calloc(ni, sizeof(*q));

		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < t->n; i++)
			index_put(q, ni, &t->c[i], (uint32_t)i + 1);
		free(t->idx);
		t->idx = q;
		t->nidx = ni;
	}
	c = &t->c[t->n];
	memset(c, 0, sizeof(*c));
	c->kind = (uint8_t)kind;
	memcpy(c->client, client, 16);
	memcpy(c->server, server, 16);
	c->client_comm_id = id;
	index_put(t->idx, t->nidx, c, (uint32_t)t->n + 1);
	return (int64_t)t->n++;
}

int rd_cm_qpns(const struct rd_cm_table *t, unsigned int kind, const uint8_t client[16],
	       uint32_t client_comm_id, uint32_t *client_qpn, uint32_t *server_qpn)
{
	int64_t i = find(t, kind, client, client_comm_id);

	if (i < 0 || !t->c[i].n_req || !t->c[i].n_rep)
		return -ENOENT;
	*client_qpn = t->c[i].client_qpn;
	*server_qpn = t->c[i].server_qpn;
	return 0;
}

static void first(uint64_t *slot, uint32_t count, uint64_t ts)
{
	if (count == 1)
		*slot = ts;
}

/* a SIDR_REQ or SIDR_REP: its exchange is (requester address, request ID); the latest one
 * of that name is searched first (request IDs are reused only after a long while) */
static int sidr_add(struct rd_cm_table *t, const struct rdiag_pkt *p, unsigned int kind,
		    const uint8_t src[16], const uint8_t dst[16], uint64_t ts)
{
	const struct rdiag_cm *m = &p->cm;
	bool req = m->msg == RDIAG_CM_SIDR_REQ;
	const uint8_t *client = req ? src : dst;
	struct rdiag_sidr_info *s = NULL;

	for (size_t i = t->nsidr; i-- > 0;) {
		if (t->sidr[i].request_id == m->local_comm_id && t->sidr[i].kind == kind &&
		    !memcmp(t->sidr[i].client, client, 16)) {
			s = &t->sidr[i];
			break;
		}
	}
	if (!s) {
		if (t->nsidr == t->capsidr) {
			size_t cap = t->capsidr ? t->capsidr * 2 : 16;
			struct rdiag_sidr_info *n = realloc(t->sidr, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			t->sidr = n;
			t->capsidr = cap;
		}
		s = &t->sidr[t->nsidr++];
		memset(s, 0, sizeof(*s));
		s->kind = (uint8_t)kind;
		memcpy(s->client, client, 16);
		memcpy(s->server, req ? dst : src, 16);
		s->request_id = m->local_comm_id;
		s->service_id = m->service_id;
		s->sid_is_ip = m->sid_is_ip;
		s->port_space = m->port_space;
		s->port = m->port;
	}
	if (req) {
		if (!s->n_req++) {
			s->req_ns = ts;
			s->service_id = m->service_id;
			s->sid_is_ip = m->sid_is_ip;
			s->port_space = m->port_space;
			s->port = m->port;
		}
		s->req_last_ns = ts;
		return 0;
	}
	if (!s->n_rep++) {
		s->rep_ns = ts;
		s->status = m->sidr_status;
		s->qpn = m->local_qpn;
		s->qkey = m->qkey;
	}
	return m->sidr_status ? RDIAG_FV_SIDR_STATUS : 0;
}

size_t rd_cm_sidr_count(const struct rd_cm_table *t)
{
	return t->nsidr;
}

int rd_cm_sidr_get(const struct rd_cm_table *t, size_t i, struct rdiag_sidr_info *out)
{
	if (!out)
		return -EINVAL;
	if (i >= t->nsidr)
		return -ENOENT;
	*out = t->sidr[i];
	return 0;
}

int rd_cm_add(struct rd_cm_table *t, const struct rdiag_pkt *p, unsigned int kind,
	      const uint8_t src[16], const uint8_t dst[16], uint64_t ts)
{
	const struct rdiag_cm *m = &p->cm;
	struct rdiag_cm_conn_info *c;
	bool from_client;
	int64_t i;
	int flags = 0;

	switch (m->msg) {
	case RDIAG_CM_REQ: case RDIAG_CM_MRA: case RDIAG_CM_REJ: case RDIAG_CM_REP:
	case RDIAG_CM_RTU: case RDIAG_CM_DREQ: case RDIAG_CM_DREP:
		break;
	case RDIAG_CM_SIDR_REQ: case RDIAG_CM_SIDR_REP:
		return sidr_add(t, p, kind, src, dst, ts);
	default:
		return 0;	/* LAP/APR, ClassPortInfo: no connection timeline */
	}
	/* which end sent it: the client's comm ID is the local one in its own messages */
	i = find(t, kind, src, m->local_comm_id);
	from_client = i >= 0;
	if (i < 0 && m->msg != RDIAG_CM_REQ)
		i = find(t, kind, dst, m->remote_comm_id);
	if (i < 0) {
		/* first sight of this connection; for a handshake that began before the capture
		 * guess the client from the message type */
		bool sender_is_client = m->msg == RDIAG_CM_REQ || m->msg == RDIAG_CM_RTU ||
					m->msg == RDIAG_CM_DREQ || m->msg == RDIAG_CM_REJ;

		if (sender_is_client)
			i = create(t, kind, src, dst, m->local_comm_id);
		else
			i = create(t, kind, dst, src, m->remote_comm_id);
		if (i < 0)
			return (int)i;
		from_client = sender_is_client;
		if (!sender_is_client)
			t->c[i].server_comm_id = m->local_comm_id;
		t->c[i].state = m->msg == RDIAG_CM_REQ ? RDIAG_CMS_REQ_SENT : RDIAG_CMS_ESTABLISHED;
	}
	c = &t->c[i];
	switch (m->msg) {
	case RDIAG_CM_REQ:
		c->n_req++;
		first(&c->req_ns, c->n_req, ts);
		c->req_last_ns = ts;
		if (c->n_req > 1) {
			flags |= RDIAG_FV_CM_RETRY;
		} else {
			c->service_id = m->service_id;
			c->sid_is_ip = m->sid_is_ip;
			c->port_space = m->port_space;
			c->port = m->port;
			c->client_qpn = m->local_qpn;
			c->client_psn = m->starting_psn;
			c->path_mtu = m->path_mtu;
		}
		break;
	case RDIAG_CM_MRA:
		c->n_mra++;
		first(&c->mra_ns, c->n_mra, ts);
		break;
	case RDIAG_CM_REP:
		c->n_rep++;
		first(&c->rep_ns, c->n_rep, ts);
		c->server_comm_id = m->local_comm_id;
		c->server_qpn = m->local_qpn;
		c->server_psn = m->starting_psn;
		if (c->state < RDIAG_CMS_REP_RCVD)
			c->state = RDIAG_CMS_REP_RCVD;
		break;
	case RDIAG_CM_RTU:
		c->n_rtu++;
		first(&c->rtu_ns, c->n_rtu, ts);
		if (c->state < RDIAG_CMS_ESTABLISHED)
			c->state = RDIAG_CMS_ESTABLISHED;
		break;
	case RDIAG_CM_REJ:
		c->n_rej++;
		first(&c->rej_ns, c->n_rej, ts);
		c->rej_reason = m->reason;
		c->rej_reason_name = m->reason_name;
		c->rej_msg = m->msg_rejected;
		c->rej_by_client = from_client;
		if (!from_client && !c->server_comm_id)
			c->server_comm_id = m->local_comm_id;
		c->state = RDIAG_CMS_REJECTED;
		flags |= RDIAG_FV_CM_REJ;
		break;
	case RDIAG_CM_DREQ:
		c->n_dreq++;
		first(&c->dreq_ns, c->n_dreq, ts);
		if (c->n_dreq == 1)
			c->dreq_by_client = from_client;
		if (c->state != RDIAG_CMS_REJECTED && c->state < RDIAG_CMS_DREQ_SENT)
			c->state = RDIAG_CMS_DREQ_SENT;
		break;
	case RDIAG_CM_DREP:
		c->n_drep++;
		first(&c->drep_ns, c->n_drep, ts);
		if (c->state != RDIAG_CMS_REJECTED)
			c->state = RDIAG_CMS_DISCONNECTED;
		break;
	}
	return flags;
}

/* LAP and APR bodies begin with the sender's and the receiver's comm IDs (IBTA 12.6.10/11);
 * the sender is either end of an established connection */
int rd_cm_add_lap_apr(struct rd_cm_table *t, const struct rdiag_pkt *p, unsigned int kind,
		      const uint8_t src[16], const uint8_t dst[16], uint64_t ts)
{
	const struct rdiag_mad *h = &p->mad;
	struct rdiag_cm_conn_info *c;
	const uint8_t *b;
	uint32_t local, remote;
	int64_t i;

	if (h->mgmt_class != RDIAG_MAD_CLASS_CM || (h->attr_id != RDIAG_CM_LAP && h->attr_id != RDIAG_CM_APR))
		return 0;
	if (!(p->present & RDIAG_HAS_MAD_DATA) || !h->n_records || !p->data)
		return 0;
	b = p->data + h->data_off;
	local = (uint32_t)rdiag_mad_bits(b, 0, 32);
	remote = (uint32_t)rdiag_mad_bits(b, 32, 32);
	i = find(t, kind, src, local);
	if (i < 0)
		i = find(t, kind, dst, remote);
	if (i < 0)
		return 0;	/* its connection began before the capture: counted as a MAD */
	c = &t->c[i];
	if (h->attr_id == RDIAG_CM_LAP) {
		c->n_lap++;
		first(&c->lap_ns, c->n_lap, ts);
	} else {
		c->n_apr++;
		first(&c->apr_ns, c->n_apr, ts);
		if (c->n_apr == 1)
			c->apr_status = (uint8_t)rdiag_mad_bits(b, 72, 8);
	}
	return 1;
}
