/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Per-priority counts of PAUSE (802.3x) and PFC (802.1Qbb) frames: frames, XOFF (quanta > 0)
 * and XON (quanta 0), the sum of the XOFF quanta, the longest run of XOFF frames with no XON
 * between them (a sender that keeps renewing its pause: a receiver that does not drain) and,
 * with the link speed, the time paused.
 *
 * A pause is a state of one sender towards its peer: the switch pausing the host and the host
 * pausing the switch are two, and a capture on the link sees both.  So the runs and the paused
 * time follow each sender (source MAC address) apart.  An XOFF at t for q quanta pauses until
 * t + q * 512 bit times; the sender's next frame for the same priority ends that early (XON)
 * or starts a new pause from its own time (XOFF), as a receiver of PFC does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "rdmadiag/packet.h"

/* q quanta of 512 bit times at bps, in ns (q <= 65535: no overflow) */
static uint64_t quanta_ns(uint16_t q, uint64_t bps)
{
	return ((uint64_t)q * 512 * 1000000000ull + bps / 2) / bps;
}

/* past RD_PAUSE_SENDERS_MAX senders, or out of memory: one entry for the rest, listed last,
 * its address all zero */
static struct rd_pause_sender *shared(struct rd_pause *ps)
{
	ps->shared_used = true;
	return &ps->shared;
}

static struct rd_pause_sender *sender(struct rd_pause *ps, const uint8_t mac[6])
{
	struct rd_pause_sender *s;

	if (ps->last < ps->n && !memcmp(ps->snd[ps->last].s.mac, mac, 6))
		return &ps->snd[ps->last];
	for (size_t i = 0; i < ps->n; i++)
		if (!memcmp(ps->snd[i].s.mac, mac, 6)) {
			ps->last = i;
			return &ps->snd[i];
		}
	if (ps->n == RD_PAUSE_SENDERS_MAX)
		return shared(ps);
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 4;
		void *m = realloc(ps->snd, cap * sizeof(*ps->snd));

		if (!m)
			return shared(ps);
		ps->snd = m;
		ps->cap = cap;
	}
	s = &ps->snd[ps->n];
	memset(s, 0, sizeof(*s));
	memcpy(s->s.mac, mac, 6);
	ps->last = ps->n++;
	return s;
}

static void add(struct rdiag_pause_stat *st, uint16_t quanta, uint64_t paused, uint64_t run)
{
	st->frames++;
	st->paused_ns += paused;
	if (!quanta) {
		st->xon++;
		return;
	}
	st->xoff++;
	st->quanta += quanta;
	if (run > st->xoff_run_max)
		st->xoff_run_max = run;
}

/* one frame of one sender for one row (a priority, or the link): in the total and in the
 * sender's own counts */
static void count(struct rd_pause *ps, struct rdiag_pause_stat *total,
		  struct rd_pause_sender *snd, unsigned int row, uint16_t quanta, uint64_t ts)
{
	struct rd_pause_state *x = &snd->st[row];
	struct rdiag_pause_stat *mine = row < RDIAG_PAUSE_PRIOS ? &snd->s.prio[row] : &snd->s.link;
	uint64_t paused = 0;

	if (ps->link_bps) {
		if (ts < x->since)
			ts = x->since;	/* time stamps going back: no negative pause */
		if (x->until > x->since)
			paused = (x->until < ts ? x->until : ts) - x->since;
		x->since = ts;
		x->until = quanta ? ts + quanta_ns(quanta, ps->link_bps) : ts;
	}
	x->run = quanta ? x->run + 1 : 0;
	add(total, quanta, paused, x->run);
	add(mine, quanta, paused, x->run);
}

void rd_pause_add(struct rd_pause *ps, const struct rdiag_pkt *p, uint64_t ts,
		  struct rdiag_flow_verdict *v)
{
	const struct rdiag_macc *m = &p->macc;
	struct rdiag_flow_pause *s = &ps->s;
	struct rd_pause_sender *snd;

	v->flags |= RDIAG_FV_PAUSE;
	s->frames++;
	if (p->status == RDIAG_PKT_TRUNCATED) {
		s->truncated++;
		v->flags |= RDIAG_FV_TRUNCATED;
	} else if (p->status == RDIAG_PKT_INVALID) {
		s->invalid++;
		v->flags |= RDIAG_FV_INVALID;
	}
	if (!(p->present & RDIAG_HAS_MACC))
		return;
	snd = sender(ps, p->eth_src);
	if (p->encap == RDIAG_ENCAP_PAUSE) {
		s->pause_frames++;
		count(ps, &s->link, snd, RDIAG_PAUSE_PRIOS, m->pause_quanta, ts);
		return;
	}
	s->pfc_frames++;
	for (unsigned int i = 0; i < RDIAG_PAUSE_PRIOS; i++)
		if (m->pfc_enable & (1u << i))
			count(ps, &s->prio[i], snd, i, m->pfc_quanta[i], ts);
}

/* add the pauses of snd still running at its last frame to link and prio[] */
static void pending(struct rdiag_pause_stat *link, struct rdiag_pause_stat *prio,
		    const struct rd_pause_sender *snd)
{
	for (unsigned int i = 0; i < RD_PAUSE_ROWS; i++) {
		const struct rd_pause_state *x = &snd->st[i];
		struct rdiag_pause_stat *st = i < RDIAG_PAUSE_PRIOS ? &prio[i] : link;

		if (x->until > x->since)
			st->paused_ns += x->until - x->since;
	}
}

void rd_pause_get(const struct rd_pause *ps, struct rdiag_flow_pause *out)
{
	*out = ps->s;
	for (size_t i = 0; i < ps->n; i++)
		pending(&out->link, out->prio, &ps->snd[i]);
	pending(&out->link, out->prio, &ps->shared);
}

size_t rd_pause_sender_count(const struct rd_pause *ps)
{
	return ps->n + (ps->shared_used ? 1 : 0);
}

int rd_pause_sender_get(const struct rd_pause *ps, size_t i, struct rdiag_pause_sender *out)
{
	const struct rd_pause_sender *snd;

	if (i < ps->n)
		snd = &ps->snd[i];
	else if (i == ps->n && ps->shared_used)
		snd = &ps->shared;
	else
		return -ENOENT;
	*out = snd->s;
	pending(&out->link, out->prio, snd);
	return 0;
}

void rd_pause_free(struct rd_pause *ps)
{
	free(ps->snd);
	ps->snd = NULL;
	ps->n = ps->cap = 0;
}
