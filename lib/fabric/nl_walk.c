/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The attribute walk every lib/fabric parser uses (see internal.h). */
#include <libmnl/libmnl.h>

#include "internal.h"
#include "netlink/netlink.h"

/* a walk that counts the bytes its attributes cover */
struct strict {
	mnl_attr_cb_t cb;
	void *data;
	size_t used;
};

static int strict_cb(const struct nlattr *a, void *data)
{
	struct strict *s = data;

	s->used += MNL_ALIGN(a->nla_len);
	return s->cb(a, s->data);
}

int rd_fabric_walk(const struct nlmsghdr *nlh, unsigned int offset, const struct nlattr *nest,
		   mnl_attr_cb_t cb, void *data)
{
	struct strict s = { cb, data, 0 };
	size_t payload;
	int ret;

	if (nest) {
		payload = mnl_attr_get_payload_len(nest);
		ret = mnl_attr_parse_nested(nest, strict_cb, &s);
	} else {
		size_t start = MNL_NLMSG_HDRLEN + MNL_ALIGN(offset);

		payload = nlh->nlmsg_len > start ? nlh->nlmsg_len - start : 0;
		ret = rd_nl_attr_parse(nlh, offset, strict_cb, &s);
	}
	if (ret == MNL_CB_ERROR)
		return ret;
	if (s.used < payload)
		return RD_WALK_SHORT;
	return ret;
}
