/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Per-QP flow table and the per-packet analysis; see rdmadiag/flow.h.
 *
 * A flow carries two PSN spaces: the requests its source sends to the destination QP, and the
 * responses (ACKs, READ responses) its source sends back for requests that went the other way.
 * Requests advance by one PSN per packet, except READ requests, which reserve one PSN per
 * response packet (dmalen / path MTU); responses follow the PSNs of the requests they answer.
 *
 * Classification of a request PSN against the next expected one (24-bit, with wrap):
 *   equal: in order;  ahead: a gap (the packets between are counted lost);
 *   behind: a 128-PSN bitmap of what was seen tells a duplicate (seen: a retransmission) from a
 *   hole being filled; a hole filled within RD_OOO_WINDOW packets and RD_OOO_MAX_NS of the gap
 *   is out of order (the "lost" packets were only late), later it is a retransmission of a
 *   lost packet.
 *
 * Loss: the fabric or the capture.  A gap stays open (struct rd_gap) until the receiver's
 * responses settle it: a NAK PSN sequence error for one of its PSNs, or a resend of one, makes
 * it lost in the fabric; a response that covers its last PSN (ACK or READ response at or past
 * it, NAK or RNR NAK past it) while neither happened means the receiver had every PSN of it,
 * so the capture missed them (not captured).  A gap nothing settles stays in psn_gaps.
 *
 * Retries by cause: a resend (a PSN behind the next expected one that is not a late packet)
 * that starts a retry takes its cause from the responder's last unconsumed NAK for the flow:
 * RNR NAK -> rnr, PSN sequence error -> nak_seq; with none, a resend at least RDIAG_DUP_MAX_NS
 * after the previous transmission of that PSN is a timeout (the ACK timer), sooner a
 * duplicate.  The packets that follow
 * it while the sender is still behind (the rest of a go-back-N) share its cause.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include "rdmadiag/packet.h"
#include "internal.h"
#include "open_error.h"

#define RD_OOO_WINDOW 8		/* packets after a gap in which a filler counts as reordering */
#define RD_OOO_MAX_NS 1000000	/* and its time (1 ms): a sender that stalls after the gap and
				 * resends it on its ACK timer (rxe: tens of ms) sends few
				 * packets in between, but its resend is no reordering */
#define NIL UINT32_MAX
#define RD_OPS_INLINE 8		/* distinct opcodes per flow looked up inside struct rd_flow */
#define RD_GAPS_OPEN 8		/* gaps per flow waiting for the receiver to settle them */
#define RD_ORIG_TS 128		/* send times of the last PSNs (as far back as the bitmap) */
#define RD_TS_SHIFT 4		/* kept in 16 ns units, 32 bits: time differences to 68 s */

/* a PSN gap not settled yet: lost in the fabric, or only missed by the capture? */
struct rd_gap {
	uint32_t first;		/* first missing PSN */
	uint32_t n;		/* PSNs missing */
	uint32_t left;		/* of those, not filled by a late packet */
	bool fabric;		/* NAKed or resent (a READ response: re-read or resent) */
	bool resend;		/* a skip in a resend run (loss.resent_lost_*) */
	bool covered;		/* a READ-response gap: its READ's LAST response came after it */
};

/* the READ-response gaps of a flow not settled yet (allocated with its first gap): a gap the
 * requester never re-read, in a READ whose last response was seen, was received and only
 * missed by the capture; a re-read (a READ request of the reverse flow at a PSN of the gap)
 * or a response resent into it was lost in the fabric */
struct rd_rsp_gaps {
	struct rd_gap gap[RD_GAPS_OPEN];
	unsigned int n;
};

/* what a request flow keeps to settle its gaps and date its resends (allocated with the
 * flow's first request) */
struct rd_req_track {
	uint32_t orig_ts[RD_ORIG_TS];	/* by PSN % RD_ORIG_TS: when it was last sent, as
					 * (ts >> RD_TS_SHIFT) + 1 (0: not seen) */
	struct rd_gap gap[RD_GAPS_OPEN];
	unsigned int n_gaps;
};

enum rd_retry_cause { RD_RC_NONE = 0, RD_RC_NAK, RD_RC_RNR, RD_RC_TIMEOUT, RD_RC_DUP };

struct rd_flow {
	struct rdiag_flow_info i;
	uint32_t hash;
	uint32_t cap_ops;
	struct rdiag_flow_opstat *ops;
	uint8_t op_first[RD_OPS_INLINE];	/* opcodes of ops[0..7]: found without a second
						 * cache line (ops past 8: searched in ops) */
	/* request PSN state */
	bool req_init;
	uint32_t req_next;
	uint32_t req_end;	/* the PSN after the previous request packet's last one */
	uint32_t read_slack;	/* READ with unknown MTU: how far the next PSN may jump */
	uint64_t seen[2];	/* bit k: PSN req_next-1-k was seen */
	uint64_t gap_pkt;	/* i.pkts when the last gap opened */
	uint64_t gap_ns;	/* and the time */
	struct rd_req_track *track;
	struct rd_rsp_gaps *rgaps;	/* READ-response gaps waiting for a re-read */
	uint8_t retry_cause;	/* enum rd_retry_cause of the resends in progress */
	/* response PSN state */
	bool rsp_init, in_read;
	uint32_t rsp_last;
	uint32_t read_req_flow;
	uint64_t read_start;
	uint64_t reads_pending;	/* still waiting at the last read of the table */
	uint32_t hint_srcqp;	/* the sending QP, from a CM REQ/REP pair; RDIAG_QPN_NONE */
	struct rd_hist *read_h, *ack_h;
	struct rd_traffic tr;	/* codepoints, message sizes */
};

/* recent NAKs (PSN sequence errors and RNR NAKs): a PSN that fills a hole after the responder
 * asked for it is a retransmission of a lost packet, not a late (reordered) one; and the first
 * resend after a NAK takes it as its cause (consumed) */
#define RD_NAK_RING 64
struct rd_nak_seen {
	uint8_t kind, used;
	bool rnr, consumed;
	uint8_t src[16], dst[16];	/* of the NAK (responder -> requester) */
	uint32_t destqp;		/* the requester's QP */
	uint32_t psn;
	uint64_t ts;
};

/* QP pairs learnt from CM handshakes for flows not seen yet: flow key -> sending QPN */
struct rd_qp_hint {
	struct rdiag_flow_key key;
	uint32_t qpn;
	bool used;
};

/* A UD QP sends one PSN sequence to every destination (the GSI QP1 of a host to all its peers
 * among them): its gaps are judged per sender, (source address, DETH source QP), not per flow.
 * A gap is counted in the flow of the packet that shows it. */
struct rd_ud_gap {
	uint32_t first, n, left;	/* as struct rd_gap */
	uint32_t flow;			/* the flow that counted it */
	uint32_t placed;		/* of its PSNs, those known to be for a destination */
};

/* the last MADs a UD sender sent: a hole between two sends of one TID to one destination was
 * (at least once) that MAD, resent, for that destination */
#define RD_UD_MADS 32
struct rd_ud_mad {
	uint64_t tid;
	uint32_t psn, flow;
	bool used;
};

struct rd_ud_sender {
	bool used, init;
	uint8_t encap, kind;
	uint8_t src[16];
	uint32_t srcqp;
	uint32_t hash;
	uint32_t next;			/* the PSN expected next */
	uint64_t seen[2];		/* bit k: PSN next-1-k was seen */
	struct rd_ud_gap gap[RD_GAPS_OPEN];
	unsigned int n_gaps;
	struct rd_ud_mad *mads;		/* RD_UD_MADS, a ring, allocated with the first MAD */
	unsigned int mad_head;
};

struct rd_flow_slot {
	uint32_t flow;		/* index into f + 1, 0 = empty */
	uint32_t hash;		/* key_hash() of that flow's key */
};

struct rdiag_flow_table {
	struct rd_qp_hint *hints;
	size_t nhints, hint_cap;
	struct rd_nak_seen naks[RD_NAK_RING];
	unsigned int nak_head;
	struct rd_flow *f;
	size_t n, cap, max_flows;
	int op_slot;		/* rdiag_flow_add: the packet's slot in its flow's ops, or -1 */
	/* open addressing: flow index + 1 (0 = empty) beside the flow's key hash, so that a
	 * probe of another flow does not read that flow (a cache miss each with thousands) */
	struct rd_flow_slot *idx;
	size_t nidx;
	struct rd_pending pend;
	struct rd_cm_table cm;
	struct rd_mad *mad;	/* MAD transactions, key consistency (flow_mad.c) */
	struct rd_rmpp *rmpp;	/* RMPP transfers being reassembled */
	bool mad_watch;		/* rd_mad_watching(mad): keys to check on every packet */
	struct rd_ce_pairs ce;	/* CE-marked flows by address pair, for CNPs */
	struct rd_ud_sender *ud;	/* UD senders, open addressing, ud_cap a power of two */
	size_t n_ud, ud_cap;
	struct rdiag_flow_total t;
	struct rd_pause pause;		/* PAUSE / PFC frames */
	struct rd_opclass opc[256];	/* by opcode */
	struct rd_hist read_h, ack_h;
	bool dirty;
	int64_t last;		/* the previous packet's flow: trains of one QP are common */
	char err[128];		/* rdiag_flow_errmsg() */
};

/* why the last failed rdiag_flow_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_flow_open(struct rdiag_flow_table **ftp, const struct rdiag_flow_opts *opts)
{
	struct rdiag_flow_table *ft;
	int r;

	if (!ftp) {
		rd_open_error_set(&open_err, "rdiag_flow_open: no place for the handle");
		return -EINVAL;
	}
	*ftp = NULL;
	ft = calloc(1, sizeof(*ft));
	if (!ft) {
		rd_open_error_set(&open_err, "flow table: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	r = rd_pending_init(&ft->pend, opts && opts->pending_max ? opts->pending_max : 32768);
	if (r < 0) {
		rd_open_error_set(&open_err, "pending request table: %s", strerror(-r));
		free(ft);
		return r;
	}
	for (unsigned int op = 0; op < 256; op++) {
		struct rd_opclass *c = &ft->opc[op];

		c->kind = (uint8_t)rdiag_opcode_kind((uint8_t)op);
		c->pos = (uint8_t)rdiag_opcode_position((uint8_t)op);
		c->tr = (uint8_t)rdiag_opcode_transport_class((uint8_t)op);
		c->resp = rdiag_opcode_is_response((uint8_t)op);
		c->reliable = rdiag_opcode_is_reliable((uint8_t)op);
	}
	ft->max_flows = opts ? opts->max_flows : 0;
	ft->pause.link_bps = opts ? opts->link_bps : 0;
	ft->last = -1;
	*ftp = ft;
	return 0;
}

void rdiag_flow_close(struct rdiag_flow_table *ft)
{
	if (!ft)
		return;
	rd_pause_free(&ft->pause);
	for (size_t i = 0; i < ft->n; i++) {
		free(ft->f[i].track);
		free(ft->f[i].rgaps);
		free(ft->f[i].ops);
		rd_hist_free(ft->f[i].read_h);
		rd_hist_free(ft->f[i].ack_h);
		free(ft->f[i].read_h);
		free(ft->f[i].ack_h);
		rd_traffic_free(&ft->f[i].tr);
	}
	rd_hist_free(&ft->read_h);
	rd_hist_free(&ft->ack_h);
	free(ft->f);
	free(ft->idx);
	free(ft->hints);
	rd_pending_free(&ft->pend);
	rd_cm_free(&ft->cm);
	rd_mad_free(ft->mad);
	rd_rmpp_free(ft->rmpp);
	rd_ce_pairs_free(&ft->ce);
	for (size_t i = 0; i < ft->ud_cap; i++)
		free(ft->ud[i].mads);
	free(ft->ud);
	free(ft);
}

const char *rdiag_flow_errmsg(const struct rdiag_flow_table *ft)
{
	return ft ? ft->err : rd_open_error_get(&open_err);
}

/* why a packet was only counted: the text of rdiag_flow_errmsg(ft) */
static int add_failed(struct rdiag_flow_table *ft, int r)
{
	if (r == -ENOSPC) {
		ft->t.untracked++;
		snprintf(ft->err, sizeof(ft->err), "more than %zu flows: packet counted only",
			 ft->max_flows);
	}
	else
		snprintf(ft->err, sizeof(ft->err), "packet counted only: %s", strerror(-r));
	return r;
}

/* dotted quad without inet_ntop's printf (a summary names every flow by its addresses) */
static bool ip4_str(const uint8_t a[4], char *buf, size_t len)
{
	char t[16], *q = t;

	for (int i = 0; i < 4; i++) {
		unsigned int v = a[i];

		if (v >= 100)
			*q++ = (char)('0' + v / 100);
		if (v >= 10)
			*q++ = (char)('0' + v / 10 % 10);
		*q++ = (char)('0' + v % 10);
		*q++ = i < 3 ? '.' : '\0';
	}
	if ((size_t)(q - t) > len)
		return false;
	memcpy(buf, t, (size_t)(q - t));
	return true;
}

char *rdiag_flow_addr_str(unsigned int kind, const uint8_t a[16], char *buf, size_t len)
{
	switch (kind) {
	case RDIAG_ADDR_IP4:
		if (!ip4_str(a, buf, len) && !inet_ntop(AF_INET, a, buf, (socklen_t)len))
			snprintf(buf, len, "?");
		break;
	case RDIAG_ADDR_IP6:
	case RDIAG_ADDR_GID:
		if (!inet_ntop(AF_INET6, a, buf, (socklen_t)len))
			snprintf(buf, len, "?");
		break;
	case RDIAG_ADDR_LID:
		snprintf(buf, len, "lid 0x%04x", (unsigned int)(a[0] << 8 | a[1]));
		break;
	default:
		snprintf(buf, len, "-");
	}
	return buf;
}

/* addresses of a packet: IP for RoCEv2, GIDs when there is a GRH, else LIDs */
static unsigned int pkt_addrs(const struct rdiag_pkt *p, uint8_t src[16], uint8_t dst[16])
{
	memset(src, 0, 16);
	memset(dst, 0, 16);
	if (p->ip_family == AF_INET) {
		memcpy(src, p->ip_src, 4);
		memcpy(dst, p->ip_dst, 4);
		return RDIAG_ADDR_IP4;
	}
	if (p->ip_family == AF_INET6) {
		memcpy(src, p->ip_src, 16);
		memcpy(dst, p->ip_dst, 16);
		return RDIAG_ADDR_IP6;
	}
	if (p->present & RDIAG_HAS_GRH) {
		memcpy(src, p->grh.sgid, 16);
		memcpy(dst, p->grh.dgid, 16);
		return RDIAG_ADDR_GID;
	}
	if (p->present & RDIAG_HAS_LRH) {
		src[0] = (uint8_t)(p->lrh.slid >> 8);
		src[1] = (uint8_t)p->lrh.slid;
		dst[0] = (uint8_t)(p->lrh.dlid >> 8);
		dst[1] = (uint8_t)p->lrh.dlid;
		return RDIAG_ADDR_LID;
	}
	return RDIAG_ADDR_NONE;
}

static uint32_t key_hash(const struct rdiag_flow_key *k)
{
	return rd_hash_bytes(k, sizeof(*k), 0x51u);
}

static void index_put(struct rd_flow_slot *idx, size_t nidx, uint32_t h, uint32_t v)
{
	size_t mask = nidx - 1, i;

	for (i = h & mask; idx[i].flow; i = (i + 1) & mask)
		;
	idx[i].flow = v;
	idx[i].hash = h;
}

static int64_t flow_find(const struct rdiag_flow_table *ft, const struct rdiag_flow_key *k,
			 uint32_t h)
{
	size_t mask = ft->nidx - 1, i;

	if (!ft->nidx)
		return -1;
	for (i = h & mask; ft->idx[i].flow; i = (i + 1) & mask) {
		const struct rd_flow *f;

		if (ft->idx[i].hash != h)
			continue;
		f = &ft->f[ft->idx[i].flow - 1];
		if (memcmp(&f->i.key, k, sizeof(*k)) == 0)
			return ft->idx[i].flow - 1;
	}
	return -1;
}

static struct rd_qp_hint *hint_slot(struct rd_qp_hint *h, size_t cap,
				    const struct rdiag_flow_key *k)
{
	size_t mask = cap - 1, i;

	for (i = key_hash(k) & mask; h[i].used; i = (i + 1) & mask)
		if (!memcmp(&h[i].key, k, sizeof(*k)))
			break;
	return &h[i];
}

static uint32_t hint_get(const struct rdiag_flow_table *ft, const struct rdiag_flow_key *k)
{
	const struct rd_qp_hint *h;

	if (!ft->hint_cap)
		return RDIAG_QPN_NONE;
	h = hint_slot(ft->hints, ft->hint_cap, k);
	return h->used ? h->qpn : RDIAG_QPN_NONE;
}

static void hint_put(struct rdiag_flow_table *ft, const struct rdiag_flow_key *k, uint32_t qpn)
{
	struct rd_qp_hint *h;

	if ((ft->nhints + 1) * 2 > ft->hint_cap) {
		size_t nc = ft->hint_cap ? ft->hint_cap * 2 : 64;
		struct rd_qp_hint *q = calloc(nc, sizeof(*q));

		if (!q)
			return;		/* a hint is a nicety: drop it */
		for (size_t i = 0; i < ft->hint_cap; i++)
			if (ft->hints[i].used)
				*hint_slot(q, nc, &ft->hints[i].key) = ft->hints[i];
		free(ft->hints);
		ft->hints = q;
		ft->hint_cap = nc;
	}
	h = hint_slot(ft->hints, ft->hint_cap, k);
	if (!h->used)
		ft->nhints++;
	h->key = *k;
	h->qpn = qpn;
	h->used = true;
}

/* a REP completes the QP pair of a connection: remember which QP sends on each of its two
 * data flows, so that --qp and the summary know it before the first ACK */
static void learn_cm_qps(struct rdiag_flow_table *ft, const struct rdiag_pkt *p,
			 unsigned int kind, const uint8_t src[16], const uint8_t dst[16])
{
	uint32_t cq, sq;
	struct rdiag_flow_key k;
	int64_t i;

	/* the REP goes server (src) -> client (dst) and names the client's comm ID as remote */
	if (rd_cm_qpns(&ft->cm, kind, dst, p->cm.remote_comm_id, &cq, &sq) < 0)
		return;
	for (int dir = 0; dir < 2; dir++) {
		memset(&k, 0, sizeof(k));
		k.encap = p->encap;
		k.kind = (uint8_t)kind;
		memcpy(k.src, dir ? src : dst, 16);
		memcpy(k.dst, dir ? dst : src, 16);
		k.destqp = dir ? cq : sq;
		k.srcqp = RDIAG_QPN_NONE;
		i = flow_find(ft, &k, key_hash(&k));
		if (i >= 0)
			ft->f[i].hint_srcqp = dir ? sq : cq;
		else
			hint_put(ft, &k, dir ? sq : cq);
	}
}

static int64_t flow_get_or_add(struct rdiag_flow_table *ft, const struct rdiag_flow_key *k,
			       uint64_t ts)
{
	uint32_t h;
	int64_t i;
	struct rd_flow *f;

	if (ft->last >= 0 && memcmp(&ft->f[ft->last].i.key, k, sizeof(*k)) == 0)
		return ft->last;
	h = key_hash(k);
	i = flow_find(ft, k, h);
	if (i >= 0)
		return ft->last = i;
	if (ft->max_flows && ft->n >= ft->max_flows)
		return -ENOSPC;
	if (ft->n == ft->cap) {
		size_t nc = ft->cap ? ft->cap * 2 : 64;
		void *q = realloc(ft->f, nc * sizeof(*ft->f));

		if (!q)
			return -ENOMEM;
		ft->f = q;
		ft->cap = nc;
	}
	if ((ft->n + 1) * 2 > ft->nidx) {
		size_t ni = ft->nidx ? ft->nidx * 2 : 128;
		struct rd_flow_slot *q = calloc(ni, sizeof(*q));

		if (!q)
			return -ENOMEM;
		for (size_t j = 0; j < ft->n; j++)
			index_put(q, ni, ft->f[j].hash, (uint32_t)j + 1);
		free(ft->idx);
		ft->idx = q;
		ft->nidx = ni;
	}
	f = &ft->f[ft->n];
	memset(f, 0, sizeof(*f));
	f->i.key = *k;
	f->i.peer = -1;
	f->i.first_ns = ts;
	f->hint_srcqp = hint_get(ft, k);
	f->hash = h;
	index_put(ft->idx, ft->nidx, h, (uint32_t)ft->n + 1);
	ft->t.flows++;
	ft->last = (int64_t)ft->n;
	return (int64_t)ft->n++;
}

/* the slot of op in f->ops, made (zeroed) when new: its index, or -ENOMEM.  Its counts are
 * added by count_opcode() once the packet's analysis is done: the slot's line of f->ops
 * (another allocation than the flow, so a cache miss of its own with thousands of flows) is
 * fetched meanwhile */
static int opcode_slot(struct rd_flow *f, uint8_t op)
{
	unsigned int n = f->i.n_ops, j;

	/* a flow sees a handful of opcodes: a scan of the bytes beside the ops pointer beats a
	 * per-opcode index (one more cache miss per packet with thousands of flows) */
	for (j = 0; j < n && j < RD_OPS_INLINE; j++)
		if (f->op_first[j] == op)
			goto found;
	for (; j < n; j++)
		if (f->ops[j].opcode == op)
			goto found;
	if (n == f->cap_ops) {
		uint32_t nc = f->cap_ops ? f->cap_ops * 2 : 4;
		void *q = realloc(f->ops, nc * sizeof(*f->ops));

		if (!q)
			return -ENOMEM;
		f->ops = q;
		f->cap_ops = nc;
	}
	memset(&f->ops[j], 0, sizeof(f->ops[j]));
	f->ops[j].opcode = op;
	if (j < RD_OPS_INLINE)
		f->op_first[j] = op;
	f->i.n_ops++;
found:
	__builtin_prefetch(&f->ops[j], 1);
	return (int)j;
}

static void count_opcode(struct rd_flow *f, int slot, uint32_t len, uint32_t payload)
{
	f->ops[slot].pkts++;
	f->ops[slot].bytes += len;
	f->ops[slot].payload += payload;
}

static void seen_shift(uint64_t s[2], uint32_t by)
{
	if (by >= 128) {
		s[0] = s[1] = 0;
	} else if (by >= 64) {
		s[1] = s[0] << (by - 64);
		s[0] = 0;
	} else if (by) {
		s[1] = (s[1] << by) | (s[0] >> (64 - by));
		s[0] <<= by;
	}
}

static bool seen_test_set(uint64_t s[2], uint32_t k)
{
	uint64_t bit = 1ull << (k & 63);
	bool was = s[k >> 6] & bit;

	s[k >> 6] |= bit;
	return was;
}

/* PSNs a request uses: a READ reserves one per response packet */
static uint32_t request_span(const struct rd_flow *f, const struct rdiag_pkt *p, bool is_read,
			     uint32_t *slack)
{
	uint32_t len = p->reth.dmalen, span, worst;

	*slack = 0;
	if (!is_read || !(p->present & RDIAG_HAS_RETH) || len == 0)
		return 1;
	if (f->i.mtu) {
		span = (uint32_t)(((uint64_t)len + f->i.mtu - 1) / f->i.mtu);
		return span ? span : 1;
	}
	/* MTU unknown: assume 4096 (the fewest PSNs, so a go-back is never seen where there is
	 * none) and let the next PSN land anywhere up to the 256 B case */
	span = (uint32_t)(((uint64_t)len + 4095) / 4096);
	worst = (uint32_t)(((uint64_t)len + 255) / 256);
	*slack = worst - span;
	return span;
}

static uint32_t src_qpn(const struct rdiag_flow_table *ft, size_t i);

/* is NAK n addressed to the requester of flow fi (same hosts; same QP when it is known)? */
static bool nak_for(const struct rdiag_flow_table *ft, size_t fi, const struct rd_nak_seen *n)
{
	const struct rd_flow *f = &ft->f[fi];
	uint32_t sq;

	if (!n->used || n->kind != f->i.key.kind || memcmp(n->src, f->i.key.dst, 16) ||
	    memcmp(n->dst, f->i.key.src, 16))
		return false;
	sq = src_qpn(ft, fi);
	return sq == RDIAG_QPN_NONE || sq == n->destqp;
}

/* did the responder NAK (PSN sequence error) a PSN at or before psn, after the last gap
 * opened and while psn was missing? */
static bool nak_asked(const struct rdiag_flow_table *ft, size_t fi, uint32_t psn)
{
	const struct rd_flow *f = &ft->f[fi];

	for (unsigned int i = 0; i < RD_NAK_RING; i++) {
		const struct rd_nak_seen *n = &ft->naks[i];

		if (!n->rnr && n->ts >= f->gap_ns && nak_for(ft, fi, n) &&
		    rd_psn_diff(psn, n->psn) >= 0 && rd_psn_diff(f->req_next, n->psn) > 0)
			return true;
	}
	return false;
}

/* the NAK that made the sender resend psn: the latest unconsumed one for this flow at or
 * before psn while psn was outstanding; consumed so that one NAK starts one retry */
static enum rd_retry_cause nak_cause(struct rdiag_flow_table *ft, size_t fi, uint32_t psn)
{
	struct rd_nak_seen *best = NULL;

	for (unsigned int i = 0; i < RD_NAK_RING; i++) {
		struct rd_nak_seen *n = &ft->naks[i];

		if (n->consumed || !nak_for(ft, fi, n) || rd_psn_diff(psn, n->psn) < 0 ||
		    rd_psn_diff(ft->f[fi].req_next, n->psn) <= 0)
			continue;
		if (!best || n->ts >= best->ts)
			best = n;
	}
	if (!best)
		return RD_RC_NONE;
	best->consumed = true;
	return best->rnr ? RD_RC_RNR : RD_RC_NAK;
}

/* ---- gaps: the fabric or the capture ---- */

static struct rd_req_track *track_of(struct rd_flow *f)
{
	if (!f->track)
		f->track = calloc(1, sizeof(*f->track));
	return f->track;
}

static void gap_drop(struct rd_req_track *t, unsigned int i)
{
	memmove(&t->gap[i], &t->gap[i + 1], (t->n_gaps - i - 1) * sizeof(t->gap[0]));
	t->n_gaps--;
}

static void gap_open(struct rd_flow *f, uint32_t first, uint32_t n, bool resend)
{
	struct rd_req_track *t = track_of(f);

	if (!t)
		return;		/* the gap stays counted as lost: nothing will settle it */
	if (t->n_gaps == RD_GAPS_OPEN)
		gap_drop(t, 0);	/* the oldest stays as it is counted */
	t->gap[t->n_gaps++] = (struct rd_gap){ .first = first, .n = n, .left = n,
					       .resend = resend };
}

/* the newest open gap holding psn (a resend's skip lies inside its first send's gap), or
 * NULL */
static struct rd_gap *gap_find(struct rd_flow *f, uint32_t psn)
{
	struct rd_req_track *t = f->track;

	for (unsigned int i = t ? t->n_gaps : 0; i-- > 0;) {
		int32_t d = rd_psn_diff(psn, t->gap[i].first);

		if (d >= 0 && (uint32_t)d < t->gap[i].n)
			return &t->gap[i];
	}
	return NULL;
}

/* the receiver has every PSN up to covered: settle the gaps it covers */
static void gaps_covered(struct rdiag_flow_table *ft, struct rd_flow *f, uint32_t covered)
{
	struct rd_req_track *t = f->track;
	unsigned int i = 0;

	while (t && i < t->n_gaps) {
		struct rd_gap *g = &t->gap[i];

		if (rd_psn_diff(covered, (g->first + g->n - 1) & RD_PSN_MASK) < 0) {
			i++;
			continue;
		}
		if (!g->fabric && g->left && g->resend) {
			f->i.loss.resent_lost_gaps--;
			ft->t.loss.resent_lost_gaps--;
			f->i.loss.resent_lost_psns -= g->left;
			ft->t.loss.resent_lost_psns -= g->left;
		} else if (!g->fabric && g->left) {
			f->i.psn_gaps--;
			ft->t.psn_gaps--;
			f->i.psn_lost -= g->left;
			ft->t.psn_lost -= g->left;
		}
		if (!g->fabric && g->left) {
			f->i.loss.not_captured_gaps++;
			ft->t.loss.not_captured_gaps++;
			f->i.loss.not_captured_psns += g->left;
			ft->t.loss.not_captured_psns += g->left;
		}
		gap_drop(t, i);
	}
}

/* a response from the receiver of request flow rq: what it says about rq's gaps */
static void gaps_settle(struct rdiag_flow_table *ft, struct rd_flow *rq, const struct rdiag_pkt *p)
{
	uint32_t psn = p->bth.psn & RD_PSN_MASK;
	enum rdiag_op_kind k = (enum rdiag_op_kind)ft->opc[p->bth.opcode].kind;

	if (!rq->track || !rq->track->n_gaps)
		return;
	if (p->present & RDIAG_HAS_AETH && p->aeth.kind != RDIAG_AETH_ACK) {
		struct rd_gap *g;

		if (p->aeth.kind == RDIAG_AETH_NAK && p->aeth.nak == 0 && (g = gap_find(rq, psn)))
			g->fabric = true;	/* the receiver asked for it: it never arrived */
		/* a NAK names the PSN it is missing or refusing: everything before arrived */
		gaps_covered(ft, rq, (psn - 1) & RD_PSN_MASK);
		return;
	}
	if (k == RDIAG_OPK_ACK || k == RDIAG_OPK_ATOMIC_ACK || k == RDIAG_OPK_READ_RESP)
		gaps_covered(ft, rq, psn);
}

/* PSNs psn .. psn+span-1 are sent at ts (ts 0: not seen, a gap) */
static void orig_stamp(struct rd_flow *f, uint32_t psn, uint32_t span, uint64_t ts)
{
	struct rd_req_track *t = track_of(f);

	if (!t)
		return;
	for (uint32_t k = 0; k < span && k < RD_ORIG_TS; k++)
		t->orig_ts[(psn + k) % RD_ORIG_TS] = ts ? (uint32_t)(ts >> RD_TS_SHIFT) + 1 : 0;
}

/* the resent PSN psn of flow fi: its cause (one per packet), counted; seen: its original
 * was seen within the last RD_ORIG_TS PSNs (so its time is known) */
static void retry_count(struct rdiag_flow_table *ft, size_t fi, uint32_t psn, bool back,
			bool seen, uint64_t ts, struct rdiag_flow_verdict *v)
{
	struct rd_flow *f = &ft->f[fi];
	struct rd_gap *g = gap_find(f, psn);
	uint32_t orig = seen && f->track ? f->track->orig_ts[psn % RD_ORIG_TS] : 0;
	/* modulo 2^32 units: right for resends within 68 s of the previous send */
	uint64_t since = orig ? (uint64_t)((uint32_t)(ts >> RD_TS_SHIFT) + 1 - orig) << RD_TS_SHIFT : 0;

	if (g)
		g->fabric = true;	/* resent: the sender had lost it */
	if (back || f->retry_cause == RD_RC_NONE) {
		enum rd_retry_cause c = nak_cause(ft, fi, psn);

		if (c == RD_RC_NONE)
			c = orig && since < RDIAG_DUP_MAX_NS ? RD_RC_DUP : RD_RC_TIMEOUT;
		f->retry_cause = (uint8_t)c;
		/* a go-back-N retry starts here; a resend after an RNR NAK is not one */
		if (back && (c == RD_RC_NAK || c == RD_RC_TIMEOUT)) {
			f->i.psn_goback++;
			ft->t.psn_goback++;
		}
	}
	v->retry_gap_ns = since;
	if (seen)
		orig_stamp(f, psn, 1, ts);	/* a later resend is timed from this one */
	switch (f->retry_cause) {
	case RD_RC_NAK:
		f->i.loss.retry_nak_seq++;
		ft->t.loss.retry_nak_seq++;
		v->flags |= RDIAG_FV_RETRY_NAK;
		break;
	case RD_RC_RNR:
		f->i.loss.retry_rnr++;
		ft->t.loss.retry_rnr++;
		v->flags |= RDIAG_FV_RETRY_RNR;
		break;
	case RD_RC_TIMEOUT: {
		struct rdiag_flow_loss *l[2] = { &f->i.loss, &ft->t.loss };

		/* the gap is known only when the original was seen */
		for (int i = 0; i < 2; i++) {
			if (since && (!l[i]->timeout_gap_min_ns || since < l[i]->timeout_gap_min_ns))
				l[i]->timeout_gap_min_ns = since;
			if (since > l[i]->timeout_gap_max_ns)
				l[i]->timeout_gap_max_ns = since;
			l[i]->retry_timeout++;
		}
		v->flags |= RDIAG_FV_RETRY_TIMEOUT;
		break;
	}
	default:
		f->i.loss.duplicates++;
		ft->t.loss.duplicates++;
		v->flags |= RDIAG_FV_DUP;
		break;
	}
}


/* n resent packets from first on were skipped by flow fi's resend run: lost again */
static void resent_lost(struct rdiag_flow_table *ft, size_t fi, uint32_t first, uint32_t n,
			struct rdiag_flow_verdict *v)
{
	struct rd_flow *f = &ft->f[fi];

	f->i.loss.resent_lost_gaps++;
	ft->t.loss.resent_lost_gaps++;
	f->i.loss.resent_lost_psns += n;
	ft->t.loss.resent_lost_psns += n;
	v->flags |= RDIAG_FV_RESENT_LOST;
	v->resent_lost = n;
	v->resent_psn = first;
	gap_open(f, first, n, true);
}

/* returns true when the packet is a resend (a request PSN the flow had already passed) */
static bool request_psn(struct rdiag_flow_table *ft, size_t fi, const struct rdiag_pkt *p,
			bool is_read, uint64_t ts, struct rdiag_flow_verdict *v)
{
	struct rd_flow *f = &ft->f[fi];
	uint32_t psn = p->bth.psn & RD_PSN_MASK, slack = f->read_slack, new_slack, span;
	int32_t d;
	bool back;

	span = request_span(f, p, is_read, &new_slack);
	if (!f->req_init) {
		f->req_init = true;
		f->read_slack = new_slack;
		f->req_next = (psn + span) & RD_PSN_MASK;
		f->req_end = f->req_next;
		f->seen[0] = f->seen[1] = 0;
		seen_shift(f->seen, span);
		f->seen[0] |= span >= 64 ? ~0ull : (1ull << span) - 1;
		orig_stamp(f, psn, span, ts);
		return false;
	}
	/* a sender emits PSNs in order except when it retries (go-back-N, after a NAK or a
	 * timeout): a step back behind its previous packet that is not a late packet is one
	 * retry (back implies d < 0: req_next is never behind req_end) */
	back = rd_psn_diff(psn, f->req_end) < 0;
	/* inside a resend run the sender resends in order: a skip forward from its previous
	 * packet, up to the first-send front, is resent packets lost again */
	if (!back && f->retry_cause != RD_RC_NONE && f->retry_cause != RD_RC_DUP) {
		int32_t skip = rd_psn_diff(psn, f->req_end);
		int32_t front = rd_psn_diff(f->req_next, f->req_end);

		if (skip > front)
			skip = front;
		if (skip > 0 && (uint32_t)skip > slack)
			resent_lost(ft, fi, f->req_end, (uint32_t)skip, v);
	}
	f->req_end = (psn + span) & RD_PSN_MASK;
	d = rd_psn_diff(psn, f->req_next);
	if (d >= 0) {
		if (d > 0 && (uint32_t)d > slack) {
			f->i.psn_gaps++;
			f->i.psn_lost += (uint32_t)d;
			ft->t.psn_gaps++;
			ft->t.psn_lost += (uint32_t)d;
			f->gap_pkt = f->i.pkts;
			f->gap_ns = f->i.last_ns;
			v->flags |= RDIAG_FV_GAP;
			v->lost = (uint32_t)d;
			v->expected_psn = f->req_next;
			seen_shift(f->seen, (uint32_t)d);
			gap_open(f, f->req_next, (uint32_t)d, false);
			orig_stamp(f, f->req_next, (uint32_t)d, 0);
		} else if (d > 0) {
			/* the READ before used more PSNs than a 4096 MTU needs: mark them used */
			seen_shift(f->seen, (uint32_t)d);
			f->seen[0] |= d >= 64 ? ~0ull : (1ull << d) - 1;
			orig_stamp(f, f->req_next, (uint32_t)d, ts);
		}
		f->read_slack = new_slack;
		seen_shift(f->seen, span);
		f->seen[0] |= span >= 64 ? ~0ull : (1ull << span) - 1;
		f->req_next = (psn + span) & RD_PSN_MASK;
		f->retry_cause = RD_RC_NONE;	/* at the front again: a retry is over */
		orig_stamp(f, psn, span, ts);
		return false;
	}
	/* behind the expected PSN */
	v->expected_psn = f->req_next;
	{
		uint32_t k = (uint32_t)(-d) - 1;

		if (k < 128 && !seen_test_set(f->seen, k)) {
			/* a hole filled: late, or resent because it was lost */
			if (!nak_asked(ft, fi, psn) && f->i.pkts - f->gap_pkt <= RD_OOO_WINDOW &&
			    ts - f->gap_ns <= RD_OOO_MAX_NS) {
				struct rd_gap *g = gap_find(f, psn);

				f->i.psn_ooo++;
				ft->t.psn_ooo++;
				if (f->i.psn_lost) {
					f->i.psn_lost--;
					ft->t.psn_lost--;
				}
				if (g && g->left)
					g->left--;
				orig_stamp(f, psn, 1, ts);
				v->flags |= RDIAG_FV_OOO;
				return false;
			}
			f->i.psn_retx++;
			ft->t.psn_retx++;
			v->flags |= RDIAG_FV_RETX;
			retry_count(ft, fi, psn, back, false, ts, v);
			orig_stamp(f, psn, 1, ts);	/* a later resend is timed from this one */
			return true;
		}
		f->i.psn_dup++;
		ft->t.psn_dup++;
		retry_count(ft, fi, psn, back, k < RD_ORIG_TS, ts, v);
		return true;
	}
}

/* ---- UD: one PSN sequence per sending QP ---- */

static uint32_t ud_hash(unsigned int encap, unsigned int kind, const uint8_t src[16],
			uint32_t srcqp)
{
	uint8_t k[22];

	k[0] = (uint8_t)encap;
	k[1] = (uint8_t)kind;
	memcpy(k + 2, src, 16);
	memcpy(k + 18, &srcqp, 4);
	return rd_hash_bytes(k, sizeof(k), 0x55445321u);
}

static struct rd_ud_sender *ud_slot(struct rd_ud_sender *t, size_t cap, uint32_t h,
				    unsigned int encap, unsigned int kind, const uint8_t src[16],
				    uint32_t srcqp)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		struct rd_ud_sender *u = &t[i];

		if (!u->used || (u->hash == h && u->encap == encap && u->kind == kind &&
				 u->srcqp == srcqp && !memcmp(u->src, src, 16)))
			return u;
	}
}

/* the sender of a UD packet, created on first sight; NULL without memory */
static struct rd_ud_sender *ud_sender(struct rdiag_flow_table *ft, const struct rdiag_pkt *p,
				      unsigned int kind, const uint8_t src[16])
{
	uint32_t srcqp = p->deth_srcqp & RD_PSN_MASK;
	uint32_t h = ud_hash(p->encap, kind, src, srcqp);
	struct rd_ud_sender *u;

	if ((ft->n_ud + 1) * 2 > ft->ud_cap) {
		size_t cap = ft->ud_cap ? ft->ud_cap * 2 : 16;
		struct rd_ud_sender *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < ft->ud_cap; i++)
			if (ft->ud[i].used)
				*ud_slot(t, cap, ft->ud[i].hash, ft->ud[i].encap, ft->ud[i].kind,
					 ft->ud[i].src, ft->ud[i].srcqp) = ft->ud[i];
		free(ft->ud);
		ft->ud = t;
		ft->ud_cap = cap;
	}
	u = ud_slot(ft->ud, ft->ud_cap, h, p->encap, kind, src, srcqp);
	if (!u->used) {
		u->used = true;
		u->hash = h;
		u->encap = p->encap;
		u->kind = (uint8_t)kind;
		memcpy(u->src, src, 16);
		u->srcqp = srcqp;
		ft->n_ud++;
	}
	return u;
}

/* a MAD of flow fi from UD sender u at psn: when the sender sent the same TID to the same
 * destination before, each hole of its sequence between the two sends held (at least) one
 * resend of it, lost on its way to this destination */
static void ud_mad_place(struct rdiag_flow_table *ft, struct rd_ud_sender *u, size_t fi,
			 uint64_t tid, uint32_t psn)
{
	struct rd_ud_mad *m = NULL;

	if (!u->mads && !(u->mads = calloc(RD_UD_MADS, sizeof(*u->mads))))
		return;
	for (unsigned int k = 1; k <= RD_UD_MADS; k++) {
		struct rd_ud_mad *c = &u->mads[(u->mad_head + RD_UD_MADS - k) % RD_UD_MADS];

		if (c->used && c->tid == tid && c->flow == (uint32_t)fi) {
			m = c;
			break;
		}
	}
	for (unsigned int i = 0; m && i < u->n_gaps; i++) {
		struct rd_ud_gap *g = &u->gap[i];

		if (g->placed < g->left && rd_psn_diff(g->first, m->psn) > 0 &&
		    rd_psn_diff(psn, (g->first + g->n - 1) & RD_PSN_MASK) > 0) {
			g->placed++;
			ft->f[fi].i.loss.ud_lost_to_dest++;
			ft->t.loss.ud_lost_to_dest++;
		}
	}
	if (!m) {
		m = &u->mads[u->mad_head];
		u->mad_head = (u->mad_head + 1) % RD_UD_MADS;
	}
	*m = (struct rd_ud_mad){ .tid = tid, .psn = psn, .flow = (uint32_t)fi, .used = true };
}

/* a UD request of flow fi against its sender's one sequence: a gap, a late packet filling one
 * (the flow that counted the gap gives the packet back), or a packet seen before */
static void ud_psn(struct rdiag_flow_table *ft, size_t fi, const struct rdiag_pkt *p,
		   unsigned int kind, const uint8_t src[16], struct rdiag_flow_verdict *v)
{
	struct rd_ud_sender *u = ud_sender(ft, p, kind, src);
	struct rd_flow *f = &ft->f[fi];
	uint32_t psn = p->bth.psn & RD_PSN_MASK, k;
	int32_t d;

	if (!u) {
		add_failed(ft, -ENOMEM);
		return;
	}
	if (!u->init) {
		u->init = true;
		u->next = (psn + 1) & RD_PSN_MASK;
		u->seen[0] = 1;
		if (p->present & RDIAG_HAS_MAD)
			ud_mad_place(ft, u, fi, p->mad.tid, psn);
		return;
	}
	d = rd_psn_diff(psn, u->next);
	if (d >= 0) {
		if (d > 0) {
			f->i.psn_gaps++;
			f->i.psn_lost += (uint32_t)d;
			ft->t.psn_gaps++;
			ft->t.psn_lost += (uint32_t)d;
			v->flags |= RDIAG_FV_GAP;
			v->lost = (uint32_t)d;
			v->expected_psn = u->next;
			if (u->n_gaps == RD_GAPS_OPEN) {
				memmove(&u->gap[0], &u->gap[1], (RD_GAPS_OPEN - 1) * sizeof(u->gap[0]));
				u->n_gaps--;
			}
			u->gap[u->n_gaps++] = (struct rd_ud_gap){ .first = u->next, .n = (uint32_t)d,
								   .left = (uint32_t)d,
								   .flow = (uint32_t)fi };
			seen_shift(u->seen, (uint32_t)d);
		}
		seen_shift(u->seen, 1);
		u->seen[0] |= 1;
		u->next = (psn + 1) & RD_PSN_MASK;
		if (p->present & RDIAG_HAS_MAD)
			ud_mad_place(ft, u, fi, p->mad.tid, psn);
		return;
	}
	v->expected_psn = u->next;
	k = (uint32_t)(-d) - 1;
	if (k < 128 && !seen_test_set(u->seen, k)) {
		/* a hole filled: the packet was late, not lost */
		for (unsigned int i = 0; i < u->n_gaps; i++) {
			struct rd_ud_gap *g = &u->gap[i];
			int32_t o = rd_psn_diff(psn, g->first);

			if (o >= 0 && (uint32_t)o < g->n && g->left) {
				g->left--;
				ft->f[g->flow].i.psn_lost--;
				ft->t.psn_lost--;
				break;
			}
		}
		f->i.psn_ooo++;
		ft->t.psn_ooo++;
		v->flags |= RDIAG_FV_OOO;
		return;
	}
	f->i.psn_dup++;
	ft->t.psn_dup++;
	f->i.loss.duplicates++;
	ft->t.loss.duplicates++;
	v->flags |= RDIAG_FV_DUP;
}

static void link_peers(struct rdiag_flow_table *ft, uint32_t req, uint32_t rsp)
{
	if (req == rsp || req >= ft->n)
		return;
	ft->f[req].i.peer = rsp;
	ft->f[rsp].i.peer = req;
}

static struct rd_hist *hist_of(struct rd_hist **h)
{
	if (!*h)
		*h = calloc(1, sizeof(**h));
	return *h;
}

static void add_latency(struct rdiag_flow_table *ft, uint32_t req, bool read, uint64_t start,
			uint64_t ts, struct rdiag_flow_verdict *v)
{
	uint64_t lat = ts >= start ? ts - start : 0;
	struct rd_flow *f = &ft->f[req];
	struct rd_hist *h = hist_of(read ? &f->read_h : &f->ack_h);

	/* out of memory: the latency is still counted (n, min, max, mean) */
	if (h)
		(void)rd_hist_add(h, lat);
	(void)rd_hist_add(read ? &ft->read_h : &ft->ack_h, lat);
	v->latency_ns = lat;
	v->flags |= read ? RDIAG_FV_READ_DONE : RDIAG_FV_ACKED;
}

static void pend_key(struct rd_pend_key *k, unsigned int kind, const uint8_t src[16],
		     const uint8_t dst[16], uint32_t psn)
{
	memset(k, 0, sizeof(*k));
	k->kind = (uint8_t)kind;
	memcpy(k->src, src, 16);
	memcpy(k->dst, dst, 16);
	k->psn = psn & RD_PSN_MASK;
}

static void pend_put(struct rdiag_flow_table *ft, const struct rd_pend_key *k, uint8_t what,
		     uint64_t ts, uint32_t flow)
{
	uint32_t ef;
	uint8_t ew;

	rd_pending_put(&ft->pend, k, what, ts, flow, &ef, &ew);
	if (ef != NIL) {
		ft->t.pending_dropped++;
		if (ew == RD_PEND_READ && ef < ft->n) {
			ft->f[ef].i.reads_unanswered++;
			ft->t.reads_unanswered++;
		}
	}
}

static void nak_remember(struct rdiag_flow_table *ft, const struct rdiag_pkt *p,
			 unsigned int kind, const uint8_t src[16], const uint8_t dst[16],
			 uint64_t ts, bool rnr)
{
	struct rd_nak_seen *n = &ft->naks[ft->nak_head++ % RD_NAK_RING];

	n->used = 1;
	n->rnr = rnr;
	n->consumed = false;
	n->kind = (uint8_t)kind;
	memcpy(n->src, src, 16);
	memcpy(n->dst, dst, 16);
	n->destqp = p->bth.destqp;
	n->psn = p->bth.psn & RD_PSN_MASK;
	n->ts = ts;
}

/* ---- READ-response gaps: a re-read, or only missed by the capture ---- */

static bool rsp_gap_not_captured(const struct rd_gap *g)
{
	return g->covered && !g->fabric && g->left;
}

/* a settled gap the requester never re-read moves to not_captured for good */
static void rsp_gap_settle(struct rdiag_flow_table *ft, struct rd_flow *f, const struct rd_gap *g)
{
	if (!rsp_gap_not_captured(g))
		return;		/* re-read, or its READ never ended here: stays a gap */
	f->i.psn_gaps--;
	ft->t.psn_gaps--;
	f->i.psn_lost -= g->left;
	ft->t.psn_lost -= g->left;
	f->i.loss.not_captured_gaps++;
	ft->t.loss.not_captured_gaps++;
	f->i.loss.not_captured_psns += g->left;
	ft->t.loss.not_captured_psns += g->left;
}

static void rsp_gap_open(struct rdiag_flow_table *ft, struct rd_flow *f, uint32_t first,
			 uint32_t n)
{
	struct rd_rsp_gaps *r = f->rgaps;

	if (!r && !(r = f->rgaps = calloc(1, sizeof(*r))))
		return;		/* stays counted as lost: nothing will settle it */
	if (r->n == RD_GAPS_OPEN) {
		rsp_gap_settle(ft, f, &r->gap[0]);	/* the oldest is decided now */
		memmove(&r->gap[0], &r->gap[1], (r->n - 1) * sizeof(r->gap[0]));
		r->n--;
	}
	r->gap[r->n++] = (struct rd_gap){ .first = first, .n = n, .left = n };
}

static struct rd_gap *rsp_gap_find(struct rd_flow *f, uint32_t psn)
{
	struct rd_rsp_gaps *r = f->rgaps;

	for (unsigned int i = 0; r && i < r->n; i++) {
		int32_t d = rd_psn_diff(psn, r->gap[i].first);

		if (d >= 0 && (uint32_t)d < r->gap[i].n)
			return &r->gap[i];
	}
	return NULL;
}

/* the READ's last response at psn: the gaps before it are covered */
static void rsp_gaps_cover(struct rd_flow *f, uint32_t psn)
{
	struct rd_rsp_gaps *r = f->rgaps;

	for (unsigned int i = 0; r && i < r->n; i++)
		if (rd_psn_diff(psn, (r->gap[i].first + r->gap[i].n - 1) & RD_PSN_MASK) > 0)
			r->gap[i].covered = true;
}

/* a READ request from requester flow fi: a PSN inside a response gap of its responder's
 * flow is a re-read of what was lost */
static void rsp_gap_reread(struct rdiag_flow_table *ft, size_t fi, uint32_t psn)
{
	int64_t rs = ft->f[fi].i.peer;
	struct rd_gap *g;

	if (rs >= 0 && (g = rsp_gap_find(&ft->f[rs], psn)))
		g->fabric = true;
}

/* the gaps still open that count as not captured when the counts are read: psns and gaps */
static void rsp_gaps_pending(const struct rd_flow *f, uint64_t *gaps, uint64_t *psns)
{
	const struct rd_rsp_gaps *r = f->rgaps;

	*gaps = *psns = 0;
	for (unsigned int i = 0; r && i < r->n; i++)
		if (rsp_gap_not_captured(&r->gap[i])) {
			(*gaps)++;
			*psns += r->gap[i].left;
		}
}

static void loss_move(uint64_t *psn_gaps, uint64_t *psn_lost, struct rdiag_flow_loss *l,
		      uint64_t gaps, uint64_t psns)
{
	*psn_gaps -= gaps;
	*psn_lost -= psns;
	l->not_captured_gaps += gaps;
	l->not_captured_psns += psns;
}

static void response_psn(struct rdiag_flow_table *ft, uint32_t fi, const struct rdiag_pkt *p,
			 unsigned int kind, const uint8_t src[16], const uint8_t dst[16],
			 uint64_t ts, struct rdiag_flow_verdict *v);

/* a response: the request PSNs it answers, then what it says about the requester's gaps */
static void response(struct rdiag_flow_table *ft, uint32_t fi, const struct rdiag_pkt *p,
		     unsigned int kind, const uint8_t src[16], const uint8_t dst[16], uint64_t ts,
		     struct rdiag_flow_verdict *v)
{
	int64_t rq;

	response_psn(ft, fi, p, kind, src, dst, ts, v);
	rq = ft->f[fi].i.peer;
	if (rq >= 0)
		gaps_settle(ft, &ft->f[rq], p);
}

static void response_psn(struct rdiag_flow_table *ft, uint32_t fi, const struct rdiag_pkt *p,
		     unsigned int kind, const uint8_t src[16], const uint8_t dst[16], uint64_t ts,
		     struct rdiag_flow_verdict *v)
{
	struct rd_flow *f = &ft->f[fi];
	enum rdiag_op_kind op_kind = (enum rdiag_op_kind)ft->opc[p->bth.opcode].kind;
	enum rdiag_op_position pos = (enum rdiag_op_position)ft->opc[p->bth.opcode].pos;
	uint32_t psn = p->bth.psn & RD_PSN_MASK;
	struct rd_pend_key k;
	struct rd_pend_entry e;

	if (p->present & RDIAG_HAS_AETH) {
		switch (p->aeth.kind) {
		case RDIAG_AETH_ACK:
			f->i.acks++;
			ft->t.acks++;
			break;
		case RDIAG_AETH_RNR_NAK:
			if (!f->i.rnr_naks || p->aeth.timer_ms < f->i.rnr_timer_ms_min)
				f->i.rnr_timer_ms_min = p->aeth.timer_ms;
			if (!f->i.rnr_naks || p->aeth.timer_ms > f->i.rnr_timer_ms_max)
				f->i.rnr_timer_ms_max = p->aeth.timer_ms;
			f->i.rnr_naks++;
			ft->t.rnr_naks++;
			v->flags |= RDIAG_FV_RNR;
			nak_remember(ft, p, kind, src, dst, ts, true);
			break;
		case RDIAG_AETH_NAK: {
			unsigned int c = p->aeth.nak < RDIAG_NAK_OTHER ? p->aeth.nak : RDIAG_NAK_OTHER;

			f->i.naks[c]++;
			ft->t.naks[c]++;
			v->flags |= RDIAG_FV_NAK;
			if (p->aeth.nak == 0)
				nak_remember(ft, p, kind, src, dst, ts, false);
			break;
		}
		default:
			break;
		}
	}
	/* the response answers a request that went dst -> src */
	pend_key(&k, kind, dst, src, psn);
	switch (op_kind) {
	case RDIAG_OPK_ACK:
		if ((p->present & RDIAG_HAS_AETH) && p->aeth.kind == RDIAG_AETH_ACK &&
		    rd_pending_take(&ft->pend, &k, &e) == 0) {
			link_peers(ft, e.flow, fi);
			if (e.what != RD_PEND_READ)
				add_latency(ft, e.flow, false, e.ts, ts, v);
		}
		return;
	case RDIAG_OPK_ATOMIC_ACK:
		if (rd_pending_take(&ft->pend, &k, &e) == 0) {
			link_peers(ft, e.flow, fi);
			add_latency(ft, e.flow, false, e.ts, ts, v);
		}
		return;
	default:
		break;
	}
	/* READ responses: FIRST, MIDDLE, LAST or ONLY */
	if (f->rsp_init) {
		int32_t d = rd_psn_diff(psn, f->rsp_last);
		bool cont = pos == RDIAG_OPP_MIDDLE || pos == RDIAG_OPP_LAST;

		if (d <= 0) {
			struct rd_gap *g = rsp_gap_find(f, psn);

			if (g)
				g->fabric = true;	/* resent into the gap: it was re-read */
			f->i.psn_dup++;
			ft->t.psn_dup++;
			v->flags |= RDIAG_FV_DUP;
			v->expected_psn = (f->rsp_last + 1) & RD_PSN_MASK;
		} else if (cont && d > 1) {
			f->i.psn_gaps++;
			f->i.psn_lost += (uint32_t)d - 1;
			ft->t.psn_gaps++;
			ft->t.psn_lost += (uint32_t)d - 1;
			v->flags |= RDIAG_FV_GAP;
			v->lost = (uint32_t)d - 1;
			v->expected_psn = (f->rsp_last + 1) & RD_PSN_MASK;
			rsp_gap_open(ft, f, (f->rsp_last + 1) & RD_PSN_MASK, (uint32_t)d - 1);
		}
		if (d > 0) {
			f->rsp_last = psn;
			if (pos == RDIAG_OPP_LAST || pos == RDIAG_OPP_ONLY)
				rsp_gaps_cover(f, psn);
		}
	} else {
		f->rsp_init = true;
		f->rsp_last = psn;
	}
	if (pos == RDIAG_OPP_FIRST || pos == RDIAG_OPP_ONLY) {
		if (rd_pending_take(&ft->pend, &k, &e) == 0 && e.what == RD_PEND_READ) {
			link_peers(ft, e.flow, fi);
			if (pos == RDIAG_OPP_ONLY) {
				add_latency(ft, e.flow, true, e.ts, ts, v);
				f->in_read = false;
			} else {
				f->in_read = true;
				f->read_start = e.ts;
				f->read_req_flow = e.flow;
			}
		}
	} else if (pos == RDIAG_OPP_LAST && f->in_read) {
		add_latency(ft, f->read_req_flow, true, f->read_start, ts, v);
		f->in_read = false;
	}
}

static void learn_mtu(struct rd_flow *f, const struct rdiag_pkt *p, enum rdiag_op_position pos)
{
	uint32_t n = p->payload_len;

	/* FIRST and MIDDLE packets carry exactly one path MTU */
	if (pos != RDIAG_OPP_FIRST && pos != RDIAG_OPP_MIDDLE)
		return;
	if (rdiag_mtu_from_bytes(n) && n > f->i.mtu)
		f->i.mtu = n;
}

/* the QP that sends on flow i: the DETH source QP (UD), else the destination QP of the
 * reverse flow, else what a CM REP taught; RDIAG_QPN_NONE when not known yet */
static uint32_t src_qpn(const struct rdiag_flow_table *ft, size_t i)
{
	const struct rd_flow *f = &ft->f[i];

	if (f->i.key.srcqp != RDIAG_QPN_NONE)
		return f->i.key.srcqp;
	if (f->i.peer >= 0)
		return ft->f[f->i.peer].i.key.destqp;
	return f->hint_srcqp;
}

/* a CNP on flow f (sent to the QP whose packets were marked): it answers the reverse flow when
 * the two are paired (by an ACK or a READ response), else the one CE-marked flow with f's
 * addresses swapped.  It counts as matched only when that flow had CE-marked packets before
 * it; otherwise the marking happened past the capture point (the normal picture when capturing
 * at the sender), or the capture missed it. */
static void cnp_answers(struct rdiag_flow_table *ft, struct rd_flow *f)
{
	uint32_t ce = 0;
	int r;

	if (f->i.peer >= 0) {
		ce = (uint32_t)f->i.peer;
		r = ft->f[ce].i.ecn_ce ? RD_CE_ONE : RD_CE_NONE;
	} else {
		r = rd_ce_pairs_find(&ft->ce, f->i.key.kind, f->i.key.dst, f->i.key.src, &ce);
	}
	switch (r) {
	case RD_CE_ONE:
		ft->f[ce].i.cnp_for_ce++;
		ft->t.cnp_for_ce++;
		break;
	case RD_CE_AMBIGUOUS:
		ft->t.cnp_for_ce++;	/* a CE-marked flow, but which of them is unknown */
		break;
	default:
		f->i.cnp_no_ce++;
		ft->t.cnp_no_ce++;
		break;
	}
}

static int flow_add(struct rdiag_flow_table *ft, const struct rdiag_pkt *p, uint64_t ts,
		    struct rdiag_flow_verdict *v)
{
	struct rdiag_flow_key key;
	uint8_t src[16], dst[16];
	unsigned int kind;
	enum rdiag_transport tr;
	const struct rd_opclass *oc;
	struct rd_flow *f;
	uint8_t op;
	int64_t fi;

	ft->dirty = true;
	ft->t.frames++;
	ft->t.rdma++;
	ft->t.bytes += p->len;
	ft->t.payload += p->payload_len;
	if (!ft->t.first_ns || ts < ft->t.first_ns)
		ft->t.first_ns = ts;
	if (ts > ft->t.last_ns)
		ft->t.last_ns = ts;
	if (p->status == RDIAG_PKT_TRUNCATED) {
		ft->t.truncated++;
		v->flags |= RDIAG_FV_TRUNCATED;
	} else if (p->status == RDIAG_PKT_INVALID) {
		ft->t.invalid++;
		v->flags |= RDIAG_FV_INVALID;
	}
	if (!(p->present & RDIAG_HAS_BTH)) {
		ft->t.no_bth++;
		return 0;
	}
	op = p->bth.opcode;
	ft->t.per_opcode_pkts[op]++;
	ft->t.per_opcode_bytes[op] += p->len;

	kind = pkt_addrs(p, src, dst);
	memset(&key, 0, sizeof(key));
	key.encap = p->encap;
	key.kind = (uint8_t)kind;
	memcpy(key.src, src, 16);
	memcpy(key.dst, dst, 16);
	key.destqp = p->bth.destqp;
	key.srcqp = (p->present & RDIAG_HAS_DETH) ? p->deth_srcqp : RDIAG_QPN_NONE;
	fi = flow_get_or_add(ft, &key, ts);
	if (fi < 0)
		return add_failed(ft, (int)fi);
	v->flow = fi;
	f = &ft->f[fi];
	f->i.pkts++;
	f->i.bytes += p->len;
	f->i.payload += p->payload_len;
	f->i.last_ns = ts;
	ft->op_slot = opcode_slot(f, op);
	if (ft->op_slot < 0)
		return add_failed(ft, -ENOMEM);
	if (p->status == RDIAG_PKT_TRUNCATED)
		f->i.truncated++;
	else if (p->status == RDIAG_PKT_INVALID)
		f->i.invalid++;

	if (p->icrc_checked && !p->icrc_ok) {
		f->i.icrc_bad++;
		ft->t.icrc_bad++;
		v->flags |= RDIAG_FV_BAD_ICRC;
	}
	if ((p->ip_family && p->ecn == 3) || p->bth.fecn) {
		/* from its first CE mark on, a CNP can answer this flow */
		if (!f->i.ecn_ce && rd_ce_pairs_add(&ft->ce, &f->i.key, (uint32_t)fi) < 0)
			add_failed(ft, -ENOMEM);
		f->i.ecn_ce++;
		ft->t.ecn_ce++;
		v->flags |= RDIAG_FV_CE;
	}
	if (p->bth.becn) {
		f->i.becn++;
		ft->t.becn++;
	}
	oc = &ft->opc[op];
	if (oc->kind == RDIAG_OPK_CNP) {
		/* a CNP goes back to the QP that sent the CE-marked traffic */
		f->i.cnp++;
		ft->t.cnp++;
		v->flags |= RDIAG_FV_CNP;
		cnp_answers(ft, f);
		return 0;
	}
	if (p->present & RDIAG_HAS_CM) {
		int r = rd_cm_add(&ft->cm, p, kind, src, dst, ts);

		if (r < 0)
			return r;
		ft->t.cm_msgs++;
		if (p->cm.msg == RDIAG_CM_REP)
			learn_cm_qps(ft, p, kind, src, dst);
		if (r & RDIAG_FV_CM_REJ)
			ft->t.cm_rej++;
		if (r & RDIAG_FV_CM_RETRY)
			ft->t.cm_req_retries++;
		if (r & RDIAG_FV_SIDR_STATUS)
			v->sidr_status = p->cm.sidr_status;
		v->flags |= (uint32_t)r;
	} else if ((p->present & RDIAG_HAS_MAD) && p->mad.mgmt_class == RDIAG_MAD_CLASS_CM &&
		   (p->mad.attr_id == RDIAG_CM_LAP || p->mad.attr_id == RDIAG_CM_APR)) {
		int r = rd_cm_add_lap_apr(&ft->cm, p, kind, src, dst, ts);

		if (r < 0)
			return r;
		ft->t.cm_msgs++;
	}
	/* QP0/QP1 only, until a CM or SIDR answer gives keys to check */
	if ((p->present & RDIAG_HAS_RMPP) && rd_rmpp_add(&ft->rmpp, p, kind, src, dst, v) < 0)
		add_failed(ft, -ENOMEM);
	if ((p->present & RDIAG_HAS_MAD) || ft->mad_watch) {
		if (rd_mad_add(&ft->mad, p, kind, src, dst, ts, fi, v) < 0)
			add_failed(ft, -ENOMEM);
		ft->mad_watch = rd_mad_watching(ft->mad);
	}
	learn_mtu(f, p, (enum rdiag_op_position)oc->pos);
	tr = (enum rdiag_transport)oc->tr;
	if (tr == RDIAG_TR_CNP || tr == RDIAG_TR_MSP)
		return 0;		/* CC, reserved, manufacturer-specific: no PSN semantics */
	if (oc->resp) {
		response(ft, (uint32_t)fi, p, kind, src, dst, ts, v);
		return 0;
	}
	if (tr == RDIAG_TR_UD && (p->present & RDIAG_HAS_DETH)) {
		ud_psn(ft, (size_t)fi, p, kind, src, v);
		return 0;
	}
	{
		bool reliable = oc->reliable;
		bool is_read = oc->kind == RDIAG_OPK_READ_REQ;
		bool is_atomic = oc->kind == RDIAG_OPK_ATOMIC;
		struct rd_pend_key k;
		bool resent = request_psn(ft, (size_t)fi, p, is_read, ts, v);

		if (!reliable || (resent && !(v->flags & RDIAG_FV_RETX) && !is_read))
			return 0;
		pend_key(&k, kind, src, dst, p->bth.psn);
		if (is_read) {
			rsp_gap_reread(ft, (size_t)fi, p->bth.psn & RD_PSN_MASK);
			f->i.reads++;
			ft->t.reads++;
			pend_put(ft, &k, RD_PEND_READ, ts, (uint32_t)fi);
		} else if (is_atomic || p->bth.ackreq) {
			f->i.ack_reqs++;
			ft->t.ack_reqs++;
			pend_put(ft, &k, is_atomic ? RD_PEND_ATOMIC : RD_PEND_ACKREQ, ts, (uint32_t)fi);
		}
	}
	return 0;
}

int rdiag_flow_add(struct rdiag_flow_table *ft, const struct rdiag_pkt *p, uint64_t ts,
		   struct rdiag_flow_verdict *vout)
{
	struct rdiag_flow_verdict vv;
	struct rdiag_flow_verdict *v = vout ? vout : &vv;
	int rc;

	if (!ft || !p)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	v->flow = -1;
	v->src_qpn = RDIAG_QPN_NONE;
	if (p->encap == RDIAG_ENCAP_PAUSE || p->encap == RDIAG_ENCAP_PFC) {
		/* link-level flow control: a frame of the capture, not of an RDMA flow */
		ft->t.frames++;
		rd_pause_add(&ft->pause, p, ts, v);
		return 0;
	}
	ft->op_slot = -1;
	rc = flow_add(ft, p, ts, v);
	if (v->flow >= 0) {
		struct rd_flow *f = &ft->f[v->flow];

		/* the opcode's counts, whatever the analysis returned, as soon as the flow had its
		 * slot (the flow's and the table's counts are made before anything fails too) */
		if (ft->op_slot >= 0)
			count_opcode(f, ft->op_slot, p->len, p->payload_len);

		/* after the PSN analysis: a packet seen before (a duplicate or a resend of any cause) is
		 * no new message */
		rd_traffic_add(&f->tr, &f->i, p, &ft->opc[p->bth.opcode],
			       v->flags & (RDIAG_FV_DUP | RDIAG_FV_RETRY));
		/* a REP or the first packet of the reverse flow may have taught it */
		v->src_qpn = src_qpn(ft, (size_t)v->flow);
	}
	return rc;
}

void rdiag_flow_add_other(struct rdiag_flow_table *ft)
{
	if (ft)
		ft->t.frames++;
}

int rdiag_flow_pause(const struct rdiag_flow_table *ft, struct rdiag_flow_pause *out)
{
	if (!ft || !out)
		return -EINVAL;
	rd_pause_get(&ft->pause, out);
	return 0;
}

size_t rdiag_flow_pause_sender_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_pause_sender_count(&ft->pause) : 0;
}

int rdiag_flow_pause_sender_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_pause_sender *out)
{
	if (!ft || !out)
		return -EINVAL;
	return rd_pause_sender_get(&ft->pause, i, out);
}

size_t rdiag_flow_count(const struct rdiag_flow_table *ft)
{
	return ft ? ft->n : 0;
}

/* Work done only when results are read: READs still waiting in the pending table are counted
 * as unanswered. */
static void finalize(struct rdiag_flow_table *ft)
{
	size_t i;

	if (!ft->dirty)
		return;
	ft->dirty = false;
	for (i = 0; i < ft->n; i++)
		ft->f[i].reads_pending = 0;
	for (i = 0; i < ft->pend.cap; i++) {
		const struct rd_pend_entry *e = &ft->pend.e[i];

		if (e->what == RD_PEND_READ && e->flow < ft->n)
			ft->f[e->flow].reads_pending++;
	}
}

int rdiag_flow_get(struct rdiag_flow_table *ft, size_t i, struct rdiag_flow_info *out)
{
	const struct rd_flow *f;

	if (!ft || !out)
		return -EINVAL;
	if (i >= ft->n)
		return -ENOENT;
	finalize(ft);
	f = &ft->f[i];
	*out = f->i;
	{
		uint64_t g, n;

		rsp_gaps_pending(f, &g, &n);
		loss_move(&out->psn_gaps, &out->psn_lost, &out->loss, g, n);
	}
	out->src_qpn = src_qpn(ft, i);
	out->ops = f->ops;
	out->reads_unanswered += f->reads_pending;
	rd_hist_latency(f->read_h, &out->read_lat);
	rd_hist_latency(f->ack_h, &out->ack_lat);
	rd_traffic_info(&f->tr, out);
	return 0;
}

int rdiag_flow_total(struct rdiag_flow_table *ft, struct rdiag_flow_total *out)
{
	if (!ft || !out)
		return -EINVAL;
	finalize(ft);
	*out = ft->t;
	for (size_t i = 0; i < ft->n; i++) {
		uint64_t g, n;

		out->reads_unanswered += ft->f[i].reads_pending;
		rsp_gaps_pending(&ft->f[i], &g, &n);
		loss_move(&out->psn_gaps, &out->psn_lost, &out->loss, g, n);
	}
	out->cm_conns = ft->cm.n;
	rd_hist_latency(&ft->read_h, &out->read_lat);
	rd_hist_latency(&ft->ack_h, &out->ack_lat);
	return 0;
}

size_t rdiag_flow_cm_count(const struct rdiag_flow_table *ft)
{
	return ft ? ft->cm.n : 0;
}

int rdiag_flow_cm_get(const struct rdiag_flow_table *ft, size_t i, struct rdiag_cm_conn_info *out)
{
	if (!ft || !out)
		return -EINVAL;
	if (i >= ft->cm.n)
		return -ENOENT;
	*out = ft->cm.c[i];
	return 0;
}

size_t rdiag_flow_sidr_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_cm_sidr_count(&ft->cm) : 0;
}

int rdiag_flow_sidr_get(const struct rdiag_flow_table *ft, size_t i, struct rdiag_sidr_info *out)
{
	return ft ? rd_cm_sidr_get(&ft->cm, i, out) : -EINVAL;
}

size_t rdiag_flow_mad_txn_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_mad_txn_count(ft->mad) : 0;
}

int rdiag_flow_mad_txn_get(const struct rdiag_flow_table *ft, size_t i,
			   struct rdiag_mad_txn *out)
{
	return ft && out ? rd_mad_txn_get(ft->mad, i, out) : -EINVAL;
}

size_t rdiag_flow_mad_stat_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_mad_stat_count(ft->mad) : 0;
}

int rdiag_flow_mad_stat_get(const struct rdiag_flow_table *ft, size_t i,
			    struct rdiag_mad_stat *out)
{
	return ft && out ? rd_mad_stat_get(ft->mad, i, out) : -EINVAL;
}

size_t rdiag_flow_fabric_event_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_mad_event_count(ft->mad) : 0;
}

int rdiag_flow_fabric_event_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_fabric_event *out)
{
	return ft && out ? rd_mad_event_get(ft->mad, i, out) : -EINVAL;
}

size_t rdiag_flow_key_mismatch_count(const struct rdiag_flow_table *ft)
{
	return ft ? rd_mad_mismatch_count(ft->mad) : 0;
}

int rdiag_flow_key_mismatch_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_key_mismatch *out)
{
	return ft && out ? rd_mad_mismatch_get(ft->mad, i, out) : -EINVAL;
}
