/* Per-priority counts of PAUSE (802.3x) and PFC (802.1Qbb) frames: frames, XOFF (quanta > 0)
 * and XON (quanta 0), the sum of the XOFF quanta and the longest run of XOFF frames with no XON
 * between them (a sender that keeps renewing its pause: a receiver that does not drain). */
#include "internal.h"
#include "rdmadiag/packet.h"

static void count(struct rdiag_pause_stat *st, uint64_t *run, uint16_t quanta)
{
	st->frames++;
	if (!quanta) {
		st->xon++;
		*run = 0;
		return;
	}
	st->xoff++;
	st->quanta += quanta;
	if (++*run > st->xoff_run_max)
		st->xoff_run_max = *run;
}

void rd_pause_add(struct rd_pause *ps, const struct rdiag_pkt *p, struct rdiag_flow_verdict *v)
{
	const struct rdiag_macc *m = &p->macc;
	struct rdiag_flow_pause *s = &ps->s;

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
	if (p->encap == RDIAG_ENCAP_PAUSE) {
		s->pause_frames++;
		count(&s->link, &ps->run[RDIAG_PAUSE_PRIOS], m->pause_quanta);
		return;
	}
	s->pfc_frames++;
	for (unsigned int i = 0; i < RDIAG_PAUSE_PRIOS; i++)
		if (m->pfc_enable & (1u << i))
			count(&s->prio[i], &ps->run[i], m->pfc_quanta[i]);
}
