/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Attributes of one netlink message, walked within the message's own length; see
 * internal.h for why. */
#include <libmnl/libmnl.h>

#include "netlink.h"

int rd_nl_attr_parse(const struct nlmsghdr *nlh, unsigned int offset,
		     int (*cb)(const struct nlattr *attr, void *data), void *data)
{
	size_t start = MNL_NLMSG_HDRLEN + MNL_ALIGN(offset);

	if (nlh->nlmsg_len <= start)
		return MNL_CB_OK;
	return mnl_attr_parse_payload((const char *)nlh + start, nlh->nlmsg_len - start, cb, data);
}
