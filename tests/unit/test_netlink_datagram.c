/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rd_nl_datagram_check(): every netlink walk of the library (the RDMA family in
 * lib/counters, rtnetlink in lib/doctor) refuses a datagram whose message lengths do not fit
 * before libmnl walks it (libmnl's mnl_nlmsg_ok() compares the length as an int). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/netlink.h>

#include "netlink/netlink.h"
#include "tap.h"

/* n messages of payload sizes pl[] laid out as the kernel does (each padded to 4 bytes) */
static size_t lay(unsigned char *buf, const size_t *pl, size_t n)
{
	size_t off = 0, i;

	for (i = 0; i < n; i++) {
		struct nlmsghdr h = { .nlmsg_len = (uint32_t)NLMSG_LENGTH(pl[i]) };

		memcpy(buf + off, &h, sizeof(h));
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return off;
}

static void set_len(unsigned char *buf, size_t off, uint32_t len)
{
	struct nlmsghdr h;

	memcpy(&h, buf + off, sizeof(h));
	h.nlmsg_len = len;
	memcpy(buf + off, &h, sizeof(h));
}

int main(void)
{
	static const size_t pl[] = { 4, 7, 0 };
	unsigned char buf[256] = { 0 };
	size_t len = lay(buf, pl, 3), second = NLMSG_ALIGN(NLMSG_LENGTH(4));
	static const uint32_t bad[] = { 0x80000010u, 0xfffffffdu, 0xfffffffeu, 0xffffffffu,
					0u, 15u };
	size_t k;

	EXPECT_EQ(rd_nl_datagram_check(buf, len), 0);
	EXPECT_EQ(rd_nl_datagram_check(buf, 0), 0);
	/* the last message need not be padded; a tail shorter than a header is the caller's */
	EXPECT_EQ(rd_nl_datagram_check(buf, second + NLMSG_LENGTH(7)), 0);
	EXPECT_EQ(rd_nl_datagram_check(buf, len + 3), 0);
	/* a message cut by the end of the datagram */
	EXPECT_EQ(rd_nl_datagram_check(buf, second + NLMSG_LENGTH(7) - 1), -EBADMSG);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		unsigned char b[256];

		memcpy(b, buf, sizeof(b));
		set_len(b, second, bad[k]);
		EXPECT_EQ(rd_nl_datagram_check(b, len), -EBADMSG);
		memcpy(b, buf, sizeof(b));
		set_len(b, 0, bad[k]);
		EXPECT_EQ(rd_nl_datagram_check(b, len), -EBADMSG);
	}
	return tap_done();
}
