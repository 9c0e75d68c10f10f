/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Netlink datagrams checked before they are walked; see netlink.h for why. */
#include <errno.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "netlink.h"

int rd_nl_datagram_check(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t rem = len;

	while (rem >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t l = nlh->nlmsg_len, step;

		if (l < sizeof(struct nlmsghdr) || l > rem)
			return -EBADMSG;
		step = NLMSG_ALIGN(l);
		if (step > rem)		/* the last message need not be padded */
			step = rem;
		p += step;
		rem -= step;
	}
	return 0;
}
