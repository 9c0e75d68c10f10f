/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the rtnetlink replies (tests/fuzz/corpus-rtnl/, where
 * every crash the fuzzer finds is kept as a fixture) through the fuzz target itself
 * (tests/fuzz/fuzz_rtnl.c, which includes lib/doctor/rtnl.c), so each one stays fixed in
 * make check (and under SANITIZE=address,undefined), and checks the two reads past a reply
 * that fuzz_rtnl found:
 * - an RTM_NEWNEIGH (or RTM_NEWROUTE) message shorter than its ndmsg (rtmsg) was read as if
 *   it had one: it is a malformed reply now (EBADMSG);
 * - the attributes of a last message that is not padded were walked up to its aligned end,
 *   up to 3 bytes past the datagram: an attribute there was taken (rd_nl_attr_parse). */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_rtnl.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-rtnl"

static void test_short_neigh(void)
{
	struct nlmsghdr h = { .nlmsg_len = sizeof(h), .nlmsg_type = RTM_NEWNEIGH };
	struct rd_neigh n;
	struct neigh_ctx ctx = { &n, false };

	memset(&n, 0, sizeof(n));
	errno = 0;
	EXPECT_EQ(mnl_cb_run(&h, sizeof(h), 0, 0, neigh_cb, &ctx), MNL_CB_ERROR);
	EXPECT_EQ(errno, EBADMSG);
	EXPECT_TRUE(!ctx.found);
}

static void test_unpadded_route(void)
{
	uint8_t buf[64] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct rtmsg *rtm;
	struct rd_nl_route r;
	struct route_ctx ctx = { &r, 4 };
	uint8_t src[4] = { 198, 18, 0, 1 };

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	mnl_attr_put(nlh, RTA_PREFSRC, sizeof(src), src);	/* bytes 28..35 */
	memset(&r, 0, sizeof(r));
	/* a whole message: the address is read */
	EXPECT_EQ(mnl_cb_run(buf, nlh->nlmsg_len, 0, 0, route_cb, &ctx), MNL_CB_STOP);
	EXPECT_TRUE(r.has_prefsrc);
	/* cut after 1 byte of the address: the datagram ends at byte 33, the aligned end is 36 */
	memset(&r, 0, sizeof(r));
	nlh->nlmsg_len = 33;
	EXPECT_EQ(rd_nl_datagram_check(buf, 33), 0);
	EXPECT_EQ(mnl_cb_run(buf, 33, 0, 0, route_cb, &ctx), MNL_CB_STOP);
	EXPECT_TRUE(!r.has_prefsrc);
}

int main(void)
{
	static uint8_t b[65536];
	int n;

	test_short_neigh();
	test_unpadded_route();
	n = corpus_replay(CORPUS, b, sizeof(b));
	if (n < 0)
		return tap_done();
	printf("# %d corpus files replayed\n", n);
	EXPECT_TRUE(n >= 12);
	return tap_done();
}
