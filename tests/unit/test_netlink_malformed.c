/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Netlink parsing on hand-built replies, fed through the replay seam exactly as the kernel's
 * would be: unknown attributes (newer kernels) are ignored; truncated messages, wrong-size
 * known attributes and missing values are errors; NLMSG_ERROR EPERM/EOPNOTSUPP come back as
 * -errno with a message; QP and cm_id dumps are parsed.  The recorded real-kernel replies are
 * exercised by tests/unit/test_netlink_replay.c and the bats tier. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/packet.h>
#include <rdmadiag/resources.h>
#include "counters/internal.h"
#include "netlink/netlink.h"
#include "tap.h"

static char path[] = "/tmp/rdiag-nl-XXXXXX";
static FILE *rec;

static struct nlmsghdr *msg(char *buf, int cmd, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, 8192);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = flags;
	return nlh;
}

/* the request exactly as rd_nl_query builds it */
static void req(int cmd, bool dump, uint32_t dev, uint32_t port, uint32_t res)
{
	char buf[8192];
	struct nlmsghdr *nlh = msg(buf, cmd, NLM_F_REQUEST | (dump ? NLM_F_DUMP : 0));

	if (dev != RD_NL_NODEV)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	if (port)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (res)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, res);
	if (res && !dump && cmd == RDMA_NLDEV_CMD_STAT_GET)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, 0);
	rd_record_write(rec, "req", buf, nlh->nlmsg_len);
}

static void rep(const struct nlmsghdr *nlh, size_t len)
{
	rd_record_write(rec, "rep", nlh, len ? len : nlh->nlmsg_len);
}

static void done(void)
{
	char buf[8192];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	memset(buf, 0, 64);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	rep(nlh, 0);
}

static void error_reply(int err)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -err;
	rep(nlh, 0);
}

/* the GET dump: one device, with attributes this library has never heard of */
static void get_dump(bool bad_index)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *n;

	req(RDMA_NLDEV_CMD_GET, true, RD_NL_NODEV, 0, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_GET, NLM_F_MULTI);
	if (bad_index)
		mnl_attr_put_u16(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);	/* u32 expected */
	else
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);	/* the first device is 0 */
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "roce");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_MAX + 7, 0xdeadbeef);	/* a newer kernel's */
	n = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_MAX + 9);
	mnl_attr_put_strz(nlh, 1, "nested unknown");
	mnl_attr_nest_end(nlh, n);
	rep(nlh, 0);
	done();
}

struct ctr { const char *name; uint64_t v; bool has_v; };

static void stat_reply(const struct ctr *c, size_t n, size_t truncate_to)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *hw, *e;
	size_t i;

	req(RDMA_NLDEV_CMD_STAT_GET, false, 0, 1, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	hw = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (i = 0; i < n; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, c[i].name);
		if (c[i].has_v)
			mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, c[i].v);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MAX + 3, 42);	/* unknown, ignored */
		mnl_attr_nest_end(nlh, e);
	}
	mnl_attr_nest_end(nlh, hw);
	rep(nlh, truncate_to);
}

/* a STAT_GET reply of the given counters whose header claims bad_len bytes (the datagram
 * itself has the real length): a length with the sign bit set, or one that aligns to 0 */
static void stat_reply_lying(const struct ctr *c, size_t n, uint32_t bad_len)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *hw, *e;
	size_t i, real;

	req(RDMA_NLDEV_CMD_STAT_GET, false, 0, 1, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET, NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	hw = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (i = 0; i < n; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, c[i].name);
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, c[i].v);
		mnl_attr_nest_end(nlh, e);
	}
	mnl_attr_nest_end(nlh, hw);
	real = nlh->nlmsg_len;
	nlh->nlmsg_len = bad_len;
	rep(nlh, real);
}

static struct rdiag_counters *open_replay(void)
{
	struct rdiag_counters *c = NULL;
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_NETLINK };

	fclose(rec);
	rec = NULL;
	setenv("RDMADIAG_NL_REPLAY", path, 1);
	if (rdiag_counters_open(&c, &o) < 0)
		return NULL;
	return c;
}

static void start(void)
{
	int fd;

	strcpy(path, "/tmp/rdiag-nl-XXXXXX");
	fd = mkstemp(path);
	rec = fdopen(fd, "w");
}

static void finish(struct rdiag_counters *c)
{
	rdiag_counters_close(c);
	unlink(path);
}

int main(void)
{
	static const struct ctr good[] = { { "sent_pkts", 78, true }, { "RNR sent", 5, true },
					   { "hfi,comma", 1ull << 40, true } };
	static const struct ctr novalue[] = { { "sent_pkts", 0, false } };
	struct rdiag_counters *c;
	struct rdiag_samples *s = NULL;
	struct rdiag_filter f = { NULL, 0 };
	const struct rdiag_sample *x;
	struct rdiag_counter_status st;
	struct rdiag_devices *ds;
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *n1, *n2;
	int ret;

	/* no sysfs from this machine in any case below */
	setenv("RDMADIAG_SYSFS_ROOT", "/nonexistent-rdiag-root", 1);

	/* 1. good replies with unknown attributes everywhere */
	start();
	get_dump(false);
	stat_reply(good, 3, 0);
	c = open_replay();
	EXPECT_TRUE(c != NULL);
	ret = rdiag_counters_sample(c, &f, &s);
	EXPECT_EQ(ret, 0);
	EXPECT_EQ(rdiag_samples_count(s), 3);
	x = rdiag_samples_find(s, "rxe0", 1, "sent_pkts");
	EXPECT_TRUE(x && x->value == 78 && x->origin == RDIAG_ORIG_NETLINK && x->cat);
	x = rdiag_samples_find(s, "rxe0", 1, "RNR sent");
	EXPECT_TRUE(x && x->value == 5);
	x = rdiag_samples_find(s, "rxe0", 1, "hfi,comma");
	EXPECT_TRUE(x && x->value == (1ull << 40) && !x->cat);
	EXPECT_TRUE(rdiag_counters_netlink_ok(c));
	rdiag_samples_free(s);
	/* a repeated request reuses the last recorded exchange (rdmastat -i on a replay) */
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	EXPECT_EQ(rdiag_samples_count(s), 3);
	rdiag_samples_free(s);
	/* discovery over the same replay: protocol from netlink */
	EXPECT_EQ(rdiag_counters_discover(c, &ds), -ENOENT);	/* PORT_GET was not recorded */
	finish(c);

	/* 2. truncated STAT_GET reply */
	start();
	get_dump(false);
	stat_reply(good, 3, 60);
	c = open_replay();
	s = NULL;
	ret = rdiag_counters_sample(c, &f, &s);
	EXPECT_EQ(ret, -EBADMSG);
	EXPECT_TRUE(s == NULL);
	printf("# %s\n", rdiag_counters_errmsg(c));
	EXPECT_TRUE(strstr(rdiag_counters_errmsg(c), "truncated") != NULL);
	finish(c);

	/* 2b. a message length past the datagram: with the sign bit set libmnl's own check
	 *     passes it and the walk jumps ~4 GiB (SIGSEGV); 0xfffffffd..0xffffffff align to 0
	 *     and the walk never advances.  Each is a malformed reply, at once. */
	{
		static const uint32_t lies[] = { 0x80000010u, 0xfffffffdu, 0xfffffffeu,
						 0xffffffffu, 0x7ffffff0u, 8u };
		size_t k;

		for (k = 0; k < sizeof(lies) / sizeof(lies[0]); k++) {
			start();
			get_dump(false);
			stat_reply_lying(good, 3, lies[k]);
			c = open_replay();
			s = NULL;
			ret = rdiag_counters_sample(c, &f, &s);
			EXPECT_EQ(ret, -EBADMSG);
			EXPECT_TRUE(s == NULL);
			EXPECT_TRUE(strstr(rdiag_counters_errmsg(c), "truncated netlink reply") != NULL);
			printf("# nlmsg_len 0x%08x: %s\n", lies[k], rdiag_counters_errmsg(c));
			finish(c);
		}
	}

	/* 3. a known attribute with the wrong size */
	start();
	get_dump(true);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), -EIO);
	finish(c);

	/* 4. a counter entry without its value */
	start();
	get_dump(false);
	stat_reply(novalue, 1, 0);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), -EBADMSG);
	printf("# %s\n", rdiag_counters_errmsg(c));
	finish(c);

	/* 5. NLMSG_ERROR EPERM on STAT_GET */
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_STAT_GET, false, 0, 1, 0);
	error_reply(EPERM);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), -EPERM);
	printf("# %s\n", rdiag_counters_errmsg(c));
	EXPECT_TRUE(strstr(rdiag_counters_errmsg(c), "Operation not permitted") != NULL);
	EXPECT_TRUE(!rdiag_counters_netlink_ok(c));
	finish(c);

	/* 6. STAT_GET_STATUS refused with EOPNOTSUPP (kernels before 6.0): no optional counters,
	 *    the counter mode still comes from STAT_GET with STAT_RES */
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_STAT_GET, false, 0, 1, RDMA_NLDEV_ATTR_RES_QP);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1);
	rep(nlh, 0);
	req(RDMA_NLDEV_CMD_STAT_GET_STATUS, false, 0, 1, 0);
	error_reply(EOPNOTSUPP);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_status(c, "rxe0", 1, &st), 0);
	EXPECT_EQ(st.mode, 1);
	EXPECT_EQ(st.auto_mask, 1);
	EXPECT_EQ(st.n, 0);
	rdiag_counters_status_free(&st);
	EXPECT_EQ(rdiag_counters_status(c, "nosuchdev", 1, &st), -ENODEV);
	finish(c);

	/* 6b. STAT_GET_STATUS as 6.1 sends it: every counter, DYNAMIC only on optional ones */
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_STAT_GET, false, 0, 1, RDMA_NLDEV_ATTR_RES_QP);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, 0);
	rep(nlh, 0);
	req(RDMA_NLDEV_CMD_STAT_GET_STATUS, false, 0, 1, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET_STATUS, 0);
	n1 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	{
		static const char *const nm[] = { "out_of_sequence", "cc_rx_ce_pkts", "rdma_tx_bytes" };
		int k;

		for (k = 0; k < 3; k++) {
			n2 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
			mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, nm[k]);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, (uint32_t)k);
			if (k)	/* optional: enabled for the second only */
				mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, k == 1);
			mnl_attr_nest_end(nlh, n2);
		}
	}
	mnl_attr_nest_end(nlh, n1);
	rep(nlh, 0);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_status(c, "rxe0", 1, &st), 0);
	EXPECT_EQ(st.mode, 0);
	EXPECT_EQ(st.n, 2);
	if (st.n == 2) {
		EXPECT_STREQ(st.names[0], "cc_rx_ce_pkts");
		EXPECT_EQ(st.enabled[0], 1);
		EXPECT_STREQ(st.names[1], "rdma_tx_bytes");
		EXPECT_EQ(st.enabled[1], 0);
	}
	rdiag_counters_status_free(&st);
	finish(c);

	/* 7. QP and cm_id dumps */
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_RES_QP_GET, true, 0, 0, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	n1 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
	n2 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 17);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, 18);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQ_PSN, 0x123);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0x456);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 4242);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MAX + 1, 7);
	mnl_attr_nest_end(nlh, n2);
	n2 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
	mnl_attr_nest_end(nlh, n2);
	mnl_attr_nest_end(nlh, n1);
	rep(nlh, 0);
	done();
	{
		struct rdiag_qp *q;
		size_t nq;

		c = open_replay();
		EXPECT_EQ(rdiag_counters_qps(c, NULL, &q, &nq), 0);
		EXPECT_EQ(nq, 2);
		if (nq == 2) {
			EXPECT_STREQ(q[0].dev, "rxe0");
			EXPECT_EQ(q[0].lqpn, 17);
			EXPECT_EQ(q[0].rqpn, 18);
			EXPECT_EQ(q[0].has_rqpn, 1);
			EXPECT_EQ(q[0].sq_psn, 0x456);
			EXPECT_EQ(q[0].rq_psn, 0x123);
			EXPECT_STREQ(rdiag_qp_type_name(q[0].type), "RC");
			EXPECT_STREQ(rdiag_qp_state_name(q[0].state), "RTS");
			EXPECT_EQ(q[0].pid, 4242);
			EXPECT_STREQ(q[0].comm, "");	/* a recorded pid is not looked up */
			EXPECT_STREQ(rdiag_qp_type_name(q[1].type), "GSI");
			EXPECT_STREQ(q[1].comm, "ib_core");
			EXPECT_EQ(q[1].has_rqpn, 0);
		}
		free(q);
		EXPECT_EQ(rdiag_counters_qps(c, "rxe9", &q, &nq), -ENODEV);
		finish(c);
	}
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_RES_CM_ID_GET, true, 0, 0, 0);
	nlh = msg(buf, RDMA_NLDEV_CMD_RES_CM_ID_GET, NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	n1 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID);
	n2 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	{
		struct sockaddr_in sin;

		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons(7330);
		inet_pton(AF_INET, "198.18.0.2", &sin.sin_addr);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x106);
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 8);
		mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(sin), &sin);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 99);
	}
	mnl_attr_nest_end(nlh, n2);
	mnl_attr_nest_end(nlh, n1);
	rep(nlh, 0);
	done();
	{
		struct rdiag_cm_id *id;
		size_t ni;
		char a[80];

		c = open_replay();
		EXPECT_EQ(rdiag_counters_cm_ids(c, NULL, &id, &ni), 0);
		EXPECT_EQ(ni, 1);
		if (ni == 1) {
			EXPECT_STREQ(rdiag_res_cm_state_name(id[0].state), "LISTEN");
			EXPECT_STREQ(rdiag_port_space_name(id[0].ps_full), "TCP");
			EXPECT_STREQ(rdiag_sockaddr_str(&id[0].src, a, sizeof(a)), "198.18.0.2:7330");
			EXPECT_EQ(id[0].has_dst, 0);
			EXPECT_EQ(id[0].pid, 99);
		}
		free(id);
		finish(c);
	}

	/* 8. bound per-QP counters (STAT_GET dump with STAT_RES = RES_QP; rxe has none, mlx5
	 *    has them in auto mode): counter 3 on rxe0/1 holding QPs 17 and 19 */
	start();
	get_dump(false);
	req(RDMA_NLDEV_CMD_STAT_GET, true, 0, 0, RDMA_NLDEV_ATTR_RES_QP);
	nlh = msg(buf, RDMA_NLDEV_CMD_STAT_GET, NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	n1 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER);
	n2 = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	{
		struct nlattr *hw, *e, *qps, *qe;
		uint32_t qpn[] = { 17, 19 };
		int k;

		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 3);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1);
		hw = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "out_of_sequence");
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 12);
		mnl_attr_nest_end(nlh, e);
		mnl_attr_nest_end(nlh, hw);
		qps = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
		for (k = 0; k < 2; k++) {
			qe = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, qpn[k]);
			mnl_attr_nest_end(nlh, qe);
		}
		mnl_attr_nest_end(nlh, qps);
	}
	mnl_attr_nest_end(nlh, n2);
	mnl_attr_nest_end(nlh, n1);
	rep(nlh, 0);
	done();
	{
		struct rdiag_qp_counter *qc;
		size_t nqc;

		c = open_replay();
		EXPECT_EQ(rdiag_counters_qp_counters(c, NULL, &qc, &nqc), 0);
		EXPECT_EQ(nqc, 1);
		if (nqc == 1) {
			EXPECT_STREQ(qc[0].dev, "rxe0");
			EXPECT_EQ(qc[0].port, 1);
			EXPECT_EQ(qc[0].id, 3);
			EXPECT_EQ(qc[0].n_qpns, 2);
			EXPECT_EQ(qc[0].qpns[1], 19);
			EXPECT_EQ(qc[0].n, 1);
			EXPECT_STREQ(qc[0].names[0], "out_of_sequence");
			EXPECT_U64(qc[0].values[0], 12);
		}
		rdiag_counters_qp_counters_free(qc, nqc);
		finish(c);
	}

	/* 9. a request that was never recorded, and a broken recording file */
	start();
	get_dump(false);
	c = open_replay();
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), -ENOENT);
	printf("# %s\n", rdiag_counters_errmsg(c));
	finish(c);
	start();
	fputs("# x\nreq 0102\nrep zz\n", rec);
	c = open_replay();
	EXPECT_TRUE(c == NULL);
	unlink(path);
	{
		char err[256];
		struct rd_replay *r;

		strcpy(path, "/tmp/rdiag-nl-XXXXXX");
		rec = fdopen(mkstemp(path), "w");
		fputs("rep 00\n", rec);
		fclose(rec);
		EXPECT_EQ(rd_replay_load(path, &r, err, sizeof(err)), -EINVAL);
		EXPECT_TRUE(strstr(err, "line 1: 'rep' before any 'req'") != NULL);
		unlink(path);
	}
	return tap_done();
}
