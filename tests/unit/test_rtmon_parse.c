/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The rtnetlink monitor's walk (rdmadiag/rtmon.h, lib/rtmon): link, address, neighbour and route
 * messages built as the kernel sends them (libmnl), each rendered as "ip monitor" says it;
 * a datagram whose lengths do not fit, and a message shorter than its header, refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "tap.h"
#include "rdmadiag/rtmon.h"

static char got[8][300];
static int ngot;

static void on_change(const struct rdiag_rtmon_change *c, void *arg)
{
	(void)arg;
	if (ngot < 8)
		snprintf(got[ngot++], sizeof(got[0]), "%s %s %s|%s", c->kind,
			 c->deleted ? "del" : "new", c->ifname, c->text);
}

static struct nlmsghdr *msg(char *buf, uint16_t type, size_t hdr)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	mnl_nlmsg_put_extra_header(nlh, hdr);
	return nlh;
}

int main(void)
{
	static char buf[8192];
	struct nlmsghdr *nlh;
	size_t len = 0;
	uint8_t ip[4], mac[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };

	/* link: eth9 (an index that does not exist here, so only IFLA_IFNAME names it) */
	nlh = msg(buf, RTM_NEWLINK, sizeof(struct ifinfomsg));
	{
		struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

		ifi->ifi_index = 99999;
		ifi->ifi_flags = IFF_UP | 0x10000;
	}
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "eth9");
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, 6);
	mnl_attr_put_u32(nlh, IFLA_MTU, 9000);
	len += nlh->nlmsg_len;
	/* address */
	nlh = msg(buf + len, RTM_DELADDR, sizeof(struct ifaddrmsg));
	{
		struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);

		ifa->ifa_family = AF_INET;
		ifa->ifa_prefixlen = 24;
		ifa->ifa_index = 1;	/* lo */
	}
	inet_pton(AF_INET, "198.18.0.1", ip);
	mnl_attr_put(nlh, IFA_LOCAL, 4, ip);
	len += nlh->nlmsg_len;
	/* neighbour */
	nlh = msg(buf + len, RTM_NEWNEIGH, sizeof(struct ndmsg));
	{
		struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);

		nd->ndm_family = AF_INET;
		nd->ndm_ifindex = 1;
		nd->ndm_state = NUD_FAILED;
	}
	inet_pton(AF_INET, "198.18.0.77", ip);
	mnl_attr_put(nlh, NDA_DST, 4, ip);
	mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
	len += nlh->nlmsg_len;
	/* route */
	nlh = msg(buf + len, RTM_NEWROUTE, sizeof(struct rtmsg));
	{
		struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);

		rt->rtm_family = AF_INET;
		rt->rtm_dst_len = 16;
		rt->rtm_table = RT_TABLE_MAIN;
	}
	inet_pton(AF_INET, "10.9.0.0", ip);
	mnl_attr_put(nlh, RTA_DST, 4, ip);
	inet_pton(AF_INET, "198.18.0.254", ip);
	mnl_attr_put(nlh, RTA_GATEWAY, 4, ip);
	mnl_attr_put_u32(nlh, RTA_OIF, 1);
	len += nlh->nlmsg_len;

	EXPECT_EQ(rdiag_rtmon_parse(buf, len, on_change, NULL), 0);
	EXPECT_EQ(ngot, 4);
	EXPECT_STREQ(got[0], "link new eth9|eth9 UP LOWER_UP state UP mtu 9000");
	EXPECT_STREQ(got[1], "addr del lo|198.18.0.1/24 dev lo");
	EXPECT_STREQ(got[2], "neigh new lo|198.18.0.77 dev lo lladdr 52:54:00:12:34:56 FAILED");
	EXPECT_STREQ(got[3], "route new lo|10.9.0.0/16 via 198.18.0.254 dev lo");

	/* an address attribute of the wrong length is not read as an address */
	ngot = 0;
	nlh = msg(buf, RTM_NEWADDR, sizeof(struct ifaddrmsg));
	((struct ifaddrmsg *)mnl_nlmsg_get_payload(nlh))->ifa_family = AF_INET6;
	mnl_attr_put(nlh, IFA_ADDRESS, 4, ip);
	EXPECT_EQ(rdiag_rtmon_parse(buf, nlh->nlmsg_len, on_change, NULL), 0);
	EXPECT_STREQ(got[0], "addr new |?/0 dev ?");

	/* a message length past the datagram, one with the sign bit set, and a message shorter
	 * than its family header: refused, nothing delivered */
	ngot = 0;
	nlh = msg(buf, RTM_NEWLINK, sizeof(struct ifinfomsg));
	len = nlh->nlmsg_len;
	nlh->nlmsg_len = (uint32_t)len + 64;
	EXPECT_EQ(rdiag_rtmon_parse(buf, len, on_change, NULL), -EBADMSG);
	nlh->nlmsg_len = 0x80000010u;
	EXPECT_EQ(rdiag_rtmon_parse(buf, len, on_change, NULL), -EBADMSG);
	nlh = msg(buf, RTM_NEWROUTE, 0);
	mnl_nlmsg_put_extra_header(nlh, 4);
	EXPECT_EQ(rdiag_rtmon_parse(buf, nlh->nlmsg_len, on_change, NULL), -EBADMSG);
	EXPECT_EQ(ngot, 0);

	/* the handle rule: _open(&h, opts), _errmsg(h) and _errmsg(NULL) for a failed open;
	 * on this host's rtnetlink, nothing queued: the read returns at once */
	{
		const struct rdiag_rtmon_opts big = { .rcvbuf_kib = 1024 }, bad = { .rcvbuf_kib = -1 };
		struct rdiag_rtmon *m = (struct rdiag_rtmon *)buf;

		EXPECT_EQ(rdiag_rtmon_open(&m, &bad), -EINVAL);
		EXPECT_TRUE(m == NULL);
		EXPECT_STREQ(rdiag_rtmon_errmsg(NULL), "rtnetlink receive buffer of -1 KiB: Invalid argument");
		EXPECT_EQ(rdiag_rtmon_open(&m, &big), 0);
		if (m) {
			EXPECT_TRUE(rdiag_rtmon_fd(m) >= 0);
			EXPECT_STREQ(rdiag_rtmon_errmsg(m), "");
			rdiag_rtmon_close(m);
		}
		EXPECT_EQ(rdiag_rtmon_open(&m, NULL), 0);
		if (m) {
			ngot = 0;
			EXPECT_EQ(rdiag_rtmon_read(m, on_change, NULL), 0);
			EXPECT_STREQ(rdiag_rtmon_errmsg(m), "");
			rdiag_rtmon_close(m);
		}
	}
	return tap_done();
}
