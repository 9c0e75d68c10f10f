/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the RDMA netlink (nldev) replies (tests/fuzz/corpus-nldev/, where every
 * crash the fuzzer finds is kept as a fixture) through the fuzz target itself
 * (tests/fuzz/fuzz_nldev.c), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  The target's invariant checks trap on a violation, which
 * fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_nldev.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-nldev"

/* The fuzzer's first finding: a GET reply whose port count (PORT_INDEX in a GET reply) was
 * 0x61ffff01 made rdiag_counters_sample() allocate 6 GiB and then ask for that many ports,
 * one netlink request each (out of memory under ASan, a hang without).  A count past an
 * 8-bit port number is a malformed reply now (-EIO from a netlink-only sample, which
 * before the fix failed on the first port's missing STAT_GET reply, -ENOENT, after the
 * allocation); 255 is still a device (its ports are asked for: -ENOENT).
 * With unpadded, the message is the datagram's last and is cut 2 bytes short of its last
 * attribute (DEV_INDEX), inside the padding a last message need not have: libmnl's walk went
 * to the aligned end and took the attribute, 2 bytes of it past the datagram (found by
 * fuzz_rtnl in the same walk); within the message's length it is missing (-EIO). */
static int sample_with_ports(uint32_t nports, bool unpadded)
{
	uint8_t in[512];
	char msgbuf[256];
	struct nlmsghdr *nlh;
	struct rdiag_counters *c;
	struct rdiag_samples *s = NULL;
	int ret;

	memset(msgbuf, 0, sizeof(msgbuf));
	nlh = mnl_nlmsg_put_header(msgbuf);
	nlh->nlmsg_type = (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, nports);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	/* one exchange: GET, one datagram of two messages (the device, then DONE) */
	in[0] = RDMA_NLDEV_CMD_GET;
	in[1] = 1;
	if (unpadded) {
		nlh->nlmsg_len -= 2;
		nlh->nlmsg_flags = 0;	/* the only message */
		in[2] = (uint8_t)nlh->nlmsg_len;
		in[3] = 0;
		memcpy(in + 4, msgbuf, nlh->nlmsg_len);
		fuzz_data = in;
		fuzz_size = 4 + nlh->nlmsg_len;
	} else {
		struct nlmsghdr *done = (struct nlmsghdr *)(msgbuf + nlh->nlmsg_len);
		size_t len;

		done->nlmsg_len = sizeof(*done);
		done->nlmsg_type = NLMSG_DONE;
		len = nlh->nlmsg_len + sizeof(*done);
		in[2] = (uint8_t)len;
		in[3] = (uint8_t)(len >> 8);
		memcpy(in + 4, msgbuf, len);
		fuzz_data = in;
		fuzz_size = 4 + len;
	}
	setenv("RDMADIAG_SYSFS_ROOT", scratch_dir(), 1);
	setenv("RDMADIAG_NL_REPLAY", "test_nldev_corpus", 1);
	ret = rdiag_counters_open(&c, &(struct rdiag_counters_opts){ .source = RDIAG_SRC_NETLINK });
	EXPECT_EQ(ret, 0);
	if (ret < 0)
		return ret;
	ret = rdiag_counters_sample(c, NULL, &s);
	if (ret == 0)
		rdiag_samples_free(s);
	if (ret == -EIO)
		EXPECT_TRUE(strstr(rdiag_counters_errmsg(c), "malformed") != NULL);
	rdiag_counters_close(c);
	unsetenv("RDMADIAG_NL_REPLAY");
	return ret;
}

/* The fuzzers' second finding in this walk: an NLMSG_ERROR whose error is INT_MIN was
 * negated (undefined), and any int came back as the "-errno" of the request.  An error
 * outside the kernel's errno range (MAX_ERRNO 4095) is a malformed reply now. */
static int qps_after_error(int32_t error)
{
	uint8_t in[64];
	char msgbuf[64];
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;
	struct rdiag_counters *c;
	struct rdiag_qp *qp = NULL;
	size_t n = 0;
	int ret;

	memset(msgbuf, 0, sizeof(msgbuf));
	nlh = mnl_nlmsg_put_header(msgbuf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	in[0] = RDMA_NLDEV_CMD_GET;
	in[1] = 1;
	in[2] = (uint8_t)nlh->nlmsg_len;
	in[3] = 0;
	memcpy(in + 4, msgbuf, nlh->nlmsg_len);
	fuzz_data = in;
	fuzz_size = 4 + nlh->nlmsg_len;
	setenv("RDMADIAG_SYSFS_ROOT", scratch_dir(), 1);
	setenv("RDMADIAG_NL_REPLAY", "test_nldev_corpus", 1);
	ret = rdiag_counters_open(&c, NULL);
	EXPECT_EQ(ret, 0);
	if (ret < 0)
		return ret;
	ret = rdiag_counters_qps(c, NULL, &qp, &n);
	if (ret == 0)
		free(qp);
	rdiag_counters_close(c);
	unsetenv("RDMADIAG_NL_REPLAY");
	return ret;
}

int main(void)
{
	static uint8_t buf[1 << 20];
	int n = corpus_replay(CORPUS, buf, sizeof(buf));

	if (n < 0)
		return tap_done();
	printf("# %d corpus files replayed\n", n);
	EXPECT_TRUE(n >= 48);
	EXPECT_EQ(sample_with_ports(255, false), -ENOENT);
	EXPECT_EQ(sample_with_ports(256, false), -EIO);
	EXPECT_EQ(sample_with_ports(0x61ffff01, false), -EIO);
	EXPECT_EQ(sample_with_ports(1, true), -EIO);
	EXPECT_EQ(qps_after_error(-EPERM), -EPERM);
	EXPECT_EQ(qps_after_error(INT32_MIN), -EBADMSG);
	EXPECT_EQ(qps_after_error(-5000), -EBADMSG);
	return tap_done();
}
