/* Internal to the library: what every netlink walk needs before it trusts a reply (the
 * RDMA family in lib/counters, rtnetlink in lib/doctor, and any family added later). */
#ifndef RD_NETLINK_INTERNAL_H
#define RD_NETLINK_INTERNAL_H
#include <stddef.h>

/* 0 when every message of the datagram buf[0..len) has a length that fits in what remains
 * of it (at least a header, at most the rest; trailing bytes shorter than a header are
 * left to the caller), -EBADMSG otherwise.
 *
 * Why: libmnl's mnl_nlmsg_ok() compares the message length as an int, so a length with the
 * sign bit set passes and mnl_nlmsg_next() jumps about 4 GiB, and lengths 0xfffffffd to
 * 0xffffffff align to 0 and the walk never advances.  Call this on every datagram before
 * mnl_cb_run() or a walk with mnl_nlmsg_ok()/mnl_nlmsg_next(). */
int rd_nl_datagram_check(const void *buf, size_t len);

/* mnl_attr_parse(nlh, offset, cb, data) that stops at the message's length (nlmsg_len).
 * Why: libmnl walks attributes up to the message's aligned end, NLMSG_ALIGN(nlmsg_len),
 * which for a last message that is not padded (rd_nl_datagram_check lets it through) is up
 * to 3 bytes past the datagram: an attribute there was read past the reply (fuzz_rtnl).
 * Returns what mnl_attr_parse returns (MNL_CB_ERROR, MNL_CB_STOP or MNL_CB_OK). */
struct nlmsghdr;
struct nlattr;
int rd_nl_attr_parse(const struct nlmsghdr *nlh, unsigned int offset,
		     int (*cb)(const struct nlattr *attr, void *data), void *data);

#endif
