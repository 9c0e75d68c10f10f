/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The CM counters a connect moves, by port space: an RC connect (TCP, IB) sends a REQ and is
 * answered by a REP or a REJ; a UD one (UDP) resolves the remote QP with a SIDR REQ answered
 * by a SIDR REP, whatever its status.  The attempt samples them around the connect and the
 * verdict quotes them. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "rdmadiag/packet.h"

static const struct rd_doc_cm_counters rc = {
	"cm_tx_msgs/req", "cm_tx_retries/req", "cm_rx_msgs/rep", "cm_rx_msgs/rej", "REQ",
	"REP or REJ",
};
static const struct rd_doc_cm_counters sidr = {
	"cm_tx_msgs/sidr_req", "cm_tx_retries/sidr_req", "cm_rx_msgs/sidr_rep", NULL, "SIDR REQ",
	"SIDR REP",
};

const struct rd_doc_cm_counters *rd_doc_cm_counters(int ps)
{
	return ps == RDIAG_PS_UDP ? &sidr : &rc;
}

bool rd_doc_cm_counter(int ps, const char *name)
{
	const struct rd_doc_cm_counters *c = rd_doc_cm_counters(ps);

	return !strcmp(name, c->req) || !strcmp(name, c->retries) || !strcmp(name, c->rep) ||
	       (c->rej && !strcmp(name, c->rej));
}

static unsigned long long delta(const struct rdiag_doctor *d, const char *name)
{
	size_t i;

	for (i = 0; name && i < d->ndeltas; i++)
		if (d->deltas[i].cm && !strcmp(d->deltas[i].name, name) &&
		    !strcmp(d->deltas[i].dev, d->egress_dev) && d->deltas[i].port == d->egress_port)
			return (unsigned long long)(d->deltas[i].after - d->deltas[i].before);
	return 0;
}

void rd_doc_cm_counts(const struct rdiag_doctor *d, bool with_rej, char *buf, size_t len)
{
	const struct rd_doc_cm_counters *c = rd_doc_cm_counters(d->ps);
	int n = snprintf(buf, len, "%s sent %llu, retries %llu, %s %llu", c->req_msg,
			 delta(d, c->req), delta(d, c->retries), c->rej ? "REP" : "SIDR REP",
			 delta(d, c->rep));

	if (with_rej && c->rej && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", REJ %llu", delta(d, c->rej));
}
