/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* RMPP reassembly: the DATA segments of one transfer, keyed by (TID, class, sender, receiver),
 * put back together in segment order so that a table split across segments (SA GetTable
 * responses) can be read whole.  A segment seen again (the sender's go-back after a lost ACK
 * or segment) is a duplicate and is not stored twice; a transfer whose last segment arrives
 * with earlier ones missing says so, and still completes when the resends fill the holes.
 *
 * Bounded memory: a transfer holds at most RD_RMPP_MAX_LEN bytes of data (larger ones are
 * dropped), at most RD_RMPP_OPEN transfers are open at a time (the oldest is dropped for a new
 * one), and a transfer is freed when it completes or an ABORT/STOP ends it.  A completed
 * transfer's key is kept (without its data) so that late resends of it count as duplicates. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "rdmadiag/packet.h"

enum {
	MAD_LEN = 256,
	RMPP_HDR_END = 36,		/* common MAD header 24 + RMPP header 12 */
	RMPP_SEG_LEN = MAD_LEN - RMPP_HDR_END,	/* 220: PayloadLength counts these per segment */
	SA_HDR_END = 56,		/* + the SA header 20 */
	VENDOR_HDR_END = 40,		/* + the OUI of a vendor class of range 2 */
	TYPE_DATA = 1, TYPE_STOP = 3, TYPE_ABORT = 4,
	DONE_KEPT = 64,			/* completed keys remembered for duplicates */
};

struct xkey {
	uint64_t tid;
	uint8_t cls, kind, src[16], dst[16];
};

struct xfer {
	struct xkey k;
	uint8_t *buf;			/* segment n's data at (n - 1) * seg_data */
	uint8_t *have;			/* one byte per segment: received */
	uint32_t cap_segs;		/* buf and have cover this many segments */
	uint32_t nseg;			/* from the first segment's PayloadLength or the LAST flag;
					 * 0 while unknown */
	uint32_t got;			/* distinct segments stored */
	uint32_t last_paylen;		/* the LAST segment's PayloadLength (0: not seen) */
	uint64_t seq;			/* age, for eviction */
};

struct rd_rmpp {
	struct xfer open[RD_RMPP_OPEN];
	size_t nopen;
	struct xkey done[DONE_KEPT];
	size_t ndone, done_next;
	uint64_t seq;
	uint8_t *out;			/* the last completed transfer, until the next one */
};

static uint32_t data_offset(unsigned int cls)
{
	if (cls == RDIAG_MAD_CLASS_SUBN_ADM)
		return SA_HDR_END;
	if (cls >= RDIAG_MAD_CLASS_VENDOR_RANGE2_START && cls <= RDIAG_MAD_CLASS_VENDOR_RANGE2_END)
		return VENDOR_HDR_END;
	return RMPP_HDR_END;
}

static bool same(const struct xkey *a, const struct xkey *b)
{
	return a->tid == b->tid && a->cls == b->cls && a->kind == b->kind &&
	       !memcmp(a->src, b->src, 16) && !memcmp(a->dst, b->dst, 16);
}

static void xfer_free(struct xfer *x)
{
	free(x->buf);
	free(x->have);
	memset(x, 0, sizeof(*x));
}

static void drop(struct rd_rmpp *r, size_t i)
{
	xfer_free(&r->open[i]);
	r->open[i] = r->open[--r->nopen];
	memset(&r->open[r->nopen], 0, sizeof(r->open[0]));
}

static bool was_done(const struct rd_rmpp *r, const struct xkey *k)
{
	for (size_t i = 0; i < r->ndone; i++)
		if (same(&r->done[i], k))
			return true;
	return false;
}

static void remember_done(struct rd_rmpp *r, const struct xkey *k)
{
	r->done[r->done_next] = *k;
	r->done_next = (r->done_next + 1) % DONE_KEPT;
	if (r->ndone < DONE_KEPT)
		r->ndone++;
}

void rd_rmpp_free(struct rd_rmpp *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nopen; i++)
		xfer_free(&r->open[i]);
	free(r->out);
	free(r);
}

static struct xfer *find_or_open(struct rd_rmpp *r, const struct xkey *k)
{
	size_t i, old = 0;

	for (i = 0; i < r->nopen; i++)
		if (same(&r->open[i].k, k))
			return &r->open[i];
	if (r->nopen == RD_RMPP_OPEN) {
		for (i = 1; i < r->nopen; i++)
			if (r->open[i].seq < r->open[old].seq)
				old = i;
		drop(r, old);
	}
	i = r->nopen++;
	r->open[i].k = *k;
	r->open[i].seq = ++r->seq;
	return &r->open[i];
}

static int grow(struct xfer *x, uint32_t segs, uint32_t seg_data)
{
	uint8_t *b, *h;

	if (segs <= x->cap_segs)
		return 0;
	b = realloc(x->buf, (size_t)segs * seg_data);
	if (!b)
		return -ENOMEM;
	x->buf = b;
	h = realloc(x->have, segs);
	if (!h)
		return -ENOMEM;
	memset(h + x->cap_segs, 0, segs - x->cap_segs);
	x->have = h;
	x->cap_segs = segs;
	return 0;
}

/* the first segment not received, 0 when none is missing below nseg */
static uint32_t first_missing(const struct xfer *x)
{
	for (uint32_t i = 0; i < x->nseg; i++)
		if (i >= x->cap_segs || !x->have[i])
			return i + 1;
	return 0;
}

int rd_rmpp_add(struct rd_rmpp **rp, const struct rdiag_pkt *p, unsigned int kind,
		const uint8_t src[16], const uint8_t dst[16], struct rdiag_flow_verdict *v)
{
	const struct rdiag_rmpp *h = &p->mad.rmpp;
	struct rd_rmpp *r = *rp;
	uint32_t doff = data_offset(p->mad.mgmt_class), seg_data = MAD_LEN - doff, seg;
	uint32_t total, pad;
	struct xkey k;
	struct xfer *x;
	size_t i;

	if (!(p->present & RDIAG_HAS_RMPP) || !(h->flags & RDIAG_RMPP_FLAG_ACTIVE))
		return 0;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		*rp = r;
	}
	memset(&k, 0, sizeof(k));
	k.tid = p->mad.tid;
	k.cls = p->mad.mgmt_class;
	k.kind = (uint8_t)kind;
	if (h->type == TYPE_STOP || h->type == TYPE_ABORT) {
		/* sent by the receiver: the transfer in the other direction ends */
		memcpy(k.src, dst, 16);
		memcpy(k.dst, src, 16);
		for (i = 0; i < r->nopen; i++)
			if (same(&r->open[i].k, &k)) {
				drop(r, i);
				break;
			}
		return 0;
	}
	if (h->type != TYPE_DATA)
		return 0;
	memcpy(k.src, src, 16);
	memcpy(k.dst, dst, 16);
	seg = h->seg_num;
	if (was_done(r, &k)) {
		v->flags |= RDIAG_FV_RMPP_DUP;
		return 0;
	}
	if (!seg || seg > RD_RMPP_MAX_LEN / seg_data || p->payload_caplen < MAD_LEN ||
	    p->payload_off + MAD_LEN > p->caplen)
		return 0;	/* not a segment one can store: left to the decoder's view */
	x = find_or_open(r, &k);
	x->seq = ++r->seq;
	if (seg == 1 && (h->flags & RDIAG_RMPP_FLAG_FIRST) && h->paylen) {
		x->nseg = (h->paylen + RMPP_SEG_LEN - 1) / RMPP_SEG_LEN;
		if (x->nseg > RD_RMPP_MAX_LEN / seg_data) {
			drop(r, (size_t)(x - r->open));
			return 0;
		}
	}
	if (h->flags & RDIAG_RMPP_FLAG_LAST) {
		x->nseg = seg;
		x->last_paylen = h->paylen;
	}
	if (grow(x, seg, seg_data) < 0) {
		drop(r, (size_t)(x - r->open));
		return -ENOMEM;
	}
	if (x->have[seg - 1]) {
		v->flags |= RDIAG_FV_RMPP_DUP;
		return 0;
	}
	memcpy(x->buf + (size_t)(seg - 1) * seg_data, p->data + p->payload_off + doff, seg_data);
	x->have[seg - 1] = 1;
	x->got++;
	if (!x->nseg || x->got < x->nseg) {
		if (x->nseg && (h->flags & RDIAG_RMPP_FLAG_LAST)) {
			v->flags |= RDIAG_FV_RMPP_MISSING;
			v->rmpp_missing_seg = first_missing(x);
			v->rmpp_segments = x->nseg;
		}
		return 0;
	}
	if (x->got > x->nseg || first_missing(x))
		return 0;	/* segments beyond the last: wait for a consistent end */
	/* complete: the data of every segment, less the last one's padding (IBTA 13.6.2.3:
	 * the last segment's PayloadLength counts its own bytes after the RMPP header) */
	total = x->nseg * seg_data;
	pad = x->last_paylen <= RMPP_SEG_LEN ? RMPP_SEG_LEN - x->last_paylen : 0;
	total = pad < total ? total - pad : 0;
	remember_done(r, &k);
	if (x->nseg == 1) {
		/* the one segment holds it all: the decoder showed every record already */
		drop(r, (size_t)(x - r->open));
		return 0;
	}
	free(r->out);
	r->out = x->buf;
	x->buf = NULL;
	v->flags |= RDIAG_FV_RMPP_DONE;
	v->rmpp_data = r->out;
	v->rmpp_len = total;
	v->rmpp_segments = x->nseg;
	drop(r, (size_t)(x - r->open));
	return 0;
}
