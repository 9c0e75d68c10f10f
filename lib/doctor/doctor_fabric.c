/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The lossless chain (lib/fabric) of one RoCE port as doctor findings: what `rdmastat fabric`
 * checks, without the traffic link (no samples here).  A broken link is a warning (the
 * connection works, lossy and slow: the verdict is not about it) with the chain's finding
 * id as its cause and the fix as its hint; a chain that holds is one ok line.  A netdev
 * with no DCB and none of the OFED/debugfs settings says nothing (rxe on veth: nothing to
 * check, and nothing wrong). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmadiag/fabric.h>

#include "internal.h"

static void all_evidence(struct rdiag_doc_finding *f, const struct rdiag_chain *c)
{
	char buf[768];
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < RDIAG_CHAIN_LINKS && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s %s: %s", i ? "; " : "",
					c->link[i].name, rdiag_link_state_name(c->link[i].state),
					c->link[i].evidence);
	rd_doc_evidence(f, "%s", buf);
}

void rd_doc_check_fabric(struct rdiag_doctor *d, const char *subj, const char *dev,
			 const struct rdiag_port *p)
{
	struct rdiag_chain c;
	struct rdiag_doc_finding *f;
	char s[160];
	int i;

	if (!p->netdev[0] || strcmp(p->link_layer, "Ethernet") ||
	    rdiag_fabric_port_chain(p->netdev, dev, p->port, &c) < 0)
		return;
	snprintf(s, sizeof(s), "%s %s", subj, p->netdev);
	if (!strcmp(c.verdict, "unknown"))
		return;
	if (!strcmp(c.verdict, "ok")) {
		f = rd_doc_add(d, "lossless", "link", RDIAG_DOC_OK, NULL, s,
			       "RoCE (ToS %d, %s) rides priority %d with PFC", c.tos, c.tos_source,
			       c.prio);
		all_evidence(f, &c);
		return;
	}
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		if (c.link[i].state != RDIAG_LINK_BROKEN)
			continue;
		/* the headline names the port; ECN is congestion control, not losslessness */
		if (!strcmp(c.link[i].name, "ecn"))
			f = rd_doc_add(d, "lossless", "link", RDIAG_DOC_WARN, c.link[i].finding, s,
				       "%s: congestion control (ECN) off on priority %d: %s", s,
				       c.prio, c.link[i].evidence);
		else
			f = rd_doc_add(d, "lossless", "link", RDIAG_DOC_WARN, c.link[i].finding, s,
				       "%s: RoCE traffic is not lossless (%s link): %s", s,
				       c.link[i].name, c.link[i].evidence);
		all_evidence(f, &c);
		rd_doc_hint(f, "%s", c.link[i].fix);
	}
}
