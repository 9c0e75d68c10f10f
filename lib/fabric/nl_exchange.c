/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/fabric's one netlink request/answer, for dcbnl (NETLINK_ROUTE) and ethtool netlink
 * (NETLINK_GENERIC), through lib/netlink's exchange: the replay when RDMADIAG_NL_REPLAY is
 * set, nothing when a sysfs root describes another machine, else the socket (opened on first
 * use), with --nl-record's copy of both directions.  Only the first reply datagram is kept:
 * every request here is a doit, answered in one. */
#include <errno.h>
#include <linux/netlink.h>

#include "internal.h"

struct first {
	const void *buf;
	size_t len;
};

static int first_dgram(const void *buf, size_t len, void *data)
{
	struct first *x = data;

	x->buf = buf;
	x->len = len;
	return 1;
}

int rd_fabric_exchange(struct rdiag_fabric *f, bool generic, void *req, const void **rep,
		       size_t *replen)
{
	struct rd_nl *nl = generic ? &f->genl : &f->rt;
	struct first x = { NULL, 0 };
	int ret;

	if (!f->replay && f->root[0])
		return -ENXIO;
	ret = rd_nl_talk(nl, req, first_dgram, &x);
	if (f->replay && (!nl->sent || ret == 0))
		return -ENOENT;		/* not recorded, or recorded without a reply */
	if (ret == -EBADMSG && nl->bad) {
		/* a datagram that does not fit: the family's parser says so in its words */
		x.buf = nl->bad;
		x.len = nl->badlen;
		ret = 1;
	}
	if (ret < 0) {
		if (nl->err[0])
			rd_fabric_seterr(f, "%s", nl->err);
		return ret;
	}
	*rep = x.buf;
	*replen = x.len;
	return 0;
}
