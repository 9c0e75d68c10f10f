/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A description cut to one port: what a listener serves with --serve port.  A client reaches
 * the side channel on one address; it is told about the RDMA port whose netdev carries that
 * address and nothing else of the host: no other port, no other address of that port (an
 * address on another network, a management one), no hostname, kernel nor memlock limit.  The
 * rdmadiag version stays: it says which fields the client may expect. */
#include <string.h>

#include "describe.h"

void rd_desc_scope_port(struct rd_desc *h, const char *ip)
{
	const struct rd_desc_addr *a = NULL;
	const struct rd_desc_port *p = rd_desc_port_of(h, ip, &a);
	struct rd_desc_addr only;

	h->host[0] = h->kernel[0] = h->memlock[0] = 0;
	if (!p || !a) {
		h->nports = 0;
		return;
	}
	only = *a;
	if (p != &h->port[0])
		h->port[0] = *p;
	h->nports = 1;
	h->port[0].naddrs = 1;
	h->port[0].addr[0] = only;
	/* the GID a job would use is the address's own v2 GID: the port's choice may name
	 * another of its addresses */
	h->port[0].gid_index = only.gid_v2;
	if (only.gid_v2 >= 0)
		memcpy(h->port[0].gid_addr, only.ip, sizeof(only.ip));
	else
		h->port[0].gid_addr[0] = 0;
}
