/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Self-test pieces that need no device: mask formatting, QP state names, the
 * timer encodings, the test table, the result structure, the object tracker's reverse
 * order, and the environment check on a machine without RDMA. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"
#include "rdmadiag/selftest.h"
#include "verbs/verbs.h"
#include "selftest/internal.h"

static void masks(void)
{
	char buf[256], tiny[12];

	/* the minimal RC masks of ibv_modify_qp(3), in bit order */
	EXPECT_STREQ(rdiag_qp_mask_str(IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_ACCESS_FLAGS, buf, sizeof(buf)),
		     "STATE|ACCESS_FLAGS|PKEY_INDEX|PORT");
	EXPECT_STREQ(rdiag_qp_mask_str(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
				       buf, sizeof(buf)),
		     "STATE|AV|PATH_MTU|RQ_PSN|MIN_RNR_TIMER|MAX_DEST_RD_ATOMIC|DEST_QPN");
	EXPECT_STREQ(rdiag_qp_mask_str(IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				       IBV_QP_MAX_QP_RD_ATOMIC, buf, sizeof(buf)),
		     "STATE|TIMEOUT|RETRY_CNT|RNR_RETRY|MAX_QP_RD_ATOMIC|SQ_PSN");
	EXPECT_STREQ(rdiag_qp_mask_str(IBV_QP_QKEY, buf, sizeof(buf)), "QKEY");
	EXPECT_STREQ(rdiag_qp_mask_str(0, buf, sizeof(buf)), "0");
	/* bits nobody named are shown as hex, not dropped */
	EXPECT_STREQ(rdiag_qp_mask_str(IBV_QP_STATE | (1u << 30), buf, sizeof(buf)),
		     "STATE|0x40000000");
	/* truncation keeps the string terminated and inside the buffer */
	rdiag_qp_mask_str(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU, tiny, sizeof(tiny));
	EXPECT_TRUE(strlen(tiny) < sizeof(tiny));
	EXPECT_STREQ(tiny, "STATE|AV");
}

static void names(void)
{
	EXPECT_STREQ(rd_st_qp_state_name(IBV_QPS_RTS), "RTS");
	EXPECT_STREQ(rd_st_qp_state_name(42), "UNKNOWN");
	EXPECT_STREQ(rd_st_qp_state_name(-1), "UNKNOWN");
	/* the names the results print keep their fallbacks (the tables are in test_packet_names) */
	EXPECT_STREQ(rd_st_qp_type_name(IBV_QPT_UD), "UD");
	EXPECT_STREQ(rd_st_qp_type_name(999), "UNKNOWN");
	EXPECT_STREQ(rd_st_wc_name(13), "IBV_WC_RNR_RETRY_EXC_ERR");
	EXPECT_STREQ(rd_st_wc_name(-1), "IBV_WC_UNKNOWN");
	EXPECT_STREQ(rdiag_verdict_name(RDIAG_PASS), "pass");
	EXPECT_STREQ(rdiag_verdict_name(RDIAG_FAIL), "fail");
	EXPECT_STREQ(rdiag_verdict_name(RDIAG_SKIP), "skip");
}

static void encodings(void)
{
	int m;

	/* IBA table 45 / enum ib_rnr_timeout: code 0 is the longest, 655.36 ms */
	EXPECT_EQ(rdiag_rnr_timer_us(0), 655360);
	EXPECT_EQ(rdiag_rnr_timer_us(1), 10);
	EXPECT_EQ(rdiag_rnr_timer_us(5), 60);
	EXPECT_EQ(rdiag_rnr_timer_us(12), 640);
	EXPECT_EQ(rdiag_rnr_timer_us(14), 1280);
	EXPECT_EQ(rdiag_rnr_timer_us(20), 10240);
	EXPECT_EQ(rdiag_rnr_timer_us(31), 491520);
	EXPECT_EQ(rdiag_rnr_timer_us(32), -1);
	EXPECT_EQ(rdiag_rnr_timer_us(-1), -1);
	/* the table rises monotonically from code 1 to 31 */
	for (m = 2; m <= 31; m++)
		EXPECT_TRUE(rdiag_rnr_timer_us(m) > rdiag_rnr_timer_us(m - 1));
	EXPECT_EQ(rdiag_rnr_timer_code(10), 1);
	EXPECT_EQ(rdiag_rnr_timer_code(11), 2);
	EXPECT_EQ(rdiag_rnr_timer_code(10240), 20);
	EXPECT_EQ(rdiag_rnr_timer_code(491520), 31);
	EXPECT_EQ(rdiag_rnr_timer_code(491521), 0);

	/* local ACK timeout: 4.096 us * 2^code, 0 = infinite */
	EXPECT_DBL(rdiag_ack_timeout_us(0), 0, 1e-9);
	EXPECT_DBL(rdiag_ack_timeout_us(1), 8.192, 1e-9);
	EXPECT_DBL(rdiag_ack_timeout_us(14), 67108.864, 1e-6);
	EXPECT_DBL(rdiag_ack_timeout_us(31), 4.096 * 2147483648.0, 1);
	EXPECT_DBL(rdiag_ack_timeout_us(32), 0, 1e-9);
}

static void table(void)
{
	static const char *const want[] = { "qp-states", "gid-sweep", "rnr", "alignment",
					    "access", "mr-cost" };
	size_t i;

	EXPECT_EQ(rdiag_selftest_count(), 6);
	for (i = 0; i < 6; i++) {
		EXPECT_STREQ(rdiag_selftest_name(i), want[i]);
		EXPECT_EQ(rdiag_selftest_find(want[i]), (long long)i);
		EXPECT_TRUE(rdiag_selftest_description(i) && rdiag_selftest_description(i)[0]);
	}
	EXPECT_EQ(rdiag_selftest_find("nope"), -ENOENT);
	EXPECT_EQ(rdiag_selftest_find(NULL), -ENOENT);
	EXPECT_TRUE(rdiag_selftest_name(6) == NULL);
}

/* the tracker must release newest first: record the order through a fake 'free' of
 * RD_OBJ_MEM objects and compare */
static void tracker(void)
{
	struct rdiag_selftest st;
	struct rdiag_st_result r;
	void *p[5];
	char buf[128], tiny[8];
	size_t mark, i;
	int rc;

	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	st.res = &r;
	for (i = 0; i < 5; i++)
		p[i] = rd_st_alloc(&st, 64 + i);
	EXPECT_EQ(st.nobj, 5);
	mark = rd_st_mark(&st);
	EXPECT_TRUE(rd_st_alloc(&st, 4096) != NULL);
	EXPECT_TRUE(((uintptr_t)st.objs[5].p & 4095) == 0);	/* page aligned */
	rd_st_release_to(&st, mark);
	EXPECT_EQ(st.nobj, 5);
	for (i = 0; i < 5; i++)
		EXPECT_TRUE(st.objs[i].p == p[i]);
	/* NULL is not tracked */
	EXPECT_TRUE(rd_st_track(&st, RD_OBJ_MEM, NULL, 0) == NULL);
	EXPECT_EQ(st.nobj, 5);
	EXPECT_EQ(rdiag_selftest_live_objects(&st), 5);
	rd_st_release_to(&st, 0);
	EXPECT_EQ(st.nobj, 0);
	EXPECT_EQ(rdiag_selftest_live_objects(&st), 0);
	EXPECT_EQ(rdiag_selftest_live_str(&st, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "");

	/* a release that fails leaves the object counted as held, named with the call and its
	 * errno (munmap of an address that is not page aligned: EINVAL) */
	EXPECT_TRUE(rd_st_alloc(&st, 64) != NULL);
	EXPECT_TRUE(rd_st_track(&st, RD_OBJ_MMAP, (void *)1, 4096) == (void *)1);
	EXPECT_EQ(rdiag_selftest_live_str(&st, buf, sizeof(buf)), 2);
	EXPECT_STREQ(buf, "1 buffer, 1 mapping");
	rd_st_release_to(&st, 0);
	EXPECT_EQ(st.nobj, 0);
	EXPECT_EQ(rdiag_selftest_live_objects(&st), 1);
	EXPECT_EQ(rdiag_selftest_live_str(&st, buf, sizeof(buf)), 1);
	EXPECT_STREQ(buf, "1 mapping (munmap: Invalid argument)");
	/* the first failure is the one named */
	rd_st_held(&st, RD_OBJ_QP, EBUSY, "ibv_destroy_qp");
	EXPECT_EQ(rdiag_selftest_live_str(&st, buf, sizeof(buf)), 2);
	EXPECT_STREQ(buf, "1 QP, 1 mapping (munmap: Invalid argument)");
	/* a short buffer stays terminated */
	rdiag_selftest_live_str(&st, tiny, sizeof(tiny));
	EXPECT_TRUE(strlen(tiny) < sizeof(tiny));
	free(st.objs);
	memset(st.held, 0, sizeof(st.held));
	st.held_call = NULL;
	st.objs = NULL;
	st.cap = 0;

	/* the first failure is the one reported; later ones do not overwrite it */
	rc = rd_st_fail(&st, EINVAL, "step %d", 1);
	EXPECT_EQ(rc, -EINVAL);
	rc = rd_st_fail(&st, -ETIMEDOUT, "step %d", 2);
	EXPECT_EQ(rc, -ETIMEDOUT);
	EXPECT_EQ(r.verdict, RDIAG_FAIL);
	EXPECT_STREQ(r.step, "step 1");
	EXPECT_EQ(r.err, EINVAL);
	EXPECT_EQ(rd_st_fail(&st, 0, "x"), -EIO);
	rd_st_hint(&st, "first %s", "hint");
	rd_st_hint(&st, "second");
	EXPECT_STREQ(r.hint, "first hint");
	/* attributes and checks are bounded by their tables */
	for (i = 0; i < RDIAG_ST_MAX_ATTRS + 5; i++)
		rd_st_attr(&r, "k", "%zu", i);
	EXPECT_EQ(r.nattrs, RDIAG_ST_MAX_ATTRS);
	for (i = 0; i < RDIAG_ST_MAX_CHECKS + 5; i++)
		rd_st_check(&r, RDIAG_PASS, "w", "%zu", i);
	EXPECT_EQ(r.nchecks, RDIAG_ST_MAX_CHECKS);
	EXPECT_EQ(r.checks[0].wc_status, -1);
	for (i = 0; i < RDIAG_ST_MAX_NUMS + 2; i++)
		rd_st_check_num(&r.checks[0], "n", (double)i);
	EXPECT_EQ(r.checks[0].nnum, RDIAG_ST_MAX_NUMS);
}

/* the memlock part of the no-device line: the value, "unlimited" included */
static void memlock(void)
{
	char buf[64];

	rd_st_memlock_str(RLIM_INFINITY, buf, sizeof(buf));
	EXPECT_STREQ(buf, "unlimited");
	rd_st_memlock_str(8ULL << 20, buf, sizeof(buf));
	EXPECT_STREQ(buf, "8192 KiB");
	rd_st_memlock_str(65536, buf, sizeof(buf));
	EXPECT_STREQ(buf, "64 KiB");
}

/* whether the memlock limit applies: CAP_IPC_LOCK (bit 14) in CapEff, not the uid (root in
 * a container without the capability is limited) - the doctor and mr-cost share this */
static bool capeff(const char *text)
{
	char path[] = "/tmp/test_selftest_status.XXXXXX";
	int fd = mkstemp(path);
	bool r;

	EXPECT_TRUE(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	if (fd >= 0)
		close(fd);
	r = rd_cap_ipc_lock_in(path);
	unlink(path);
	return r;
}

static void ipc_lock(void)
{
	EXPECT_TRUE(capeff("Name:\tx\nCapInh:\t0000000000004000\nCapPrm:\t0000000000004000\n"
			   "CapEff:\t0000000000004000\n"));
	/* root's usual set, and root in a container that dropped CAP_IPC_LOCK */
	EXPECT_TRUE(capeff("CapEff:\t000001ffffffffff\n"));
	EXPECT_TRUE(!capeff("CapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffbfff\n"));
	EXPECT_TRUE(!capeff("CapEff:\t0000000000000000\n"));
	/* nothing to read: not held */
	EXPECT_TRUE(!capeff("Name:\tx\n"));
	EXPECT_TRUE(!rd_cap_ipc_lock_in("/nonexistent/status"));
}

/* the counter expectation of the access test: one event per case, counted at most once by
 * each counter of the concept at one end, at least once by one of them */
static void counter_expect(void)
{
	struct rdiag_st_counter c[3];
	int64_t sum;

	memset(c, 0, sizeof(c));
	/* one counter (mlx5 req_remote_access_errors): exactly lo..hi */
	c[0].delta = 1;
	EXPECT_TRUE(rd_ctr_expect_sum(c, 1, 1, 1, &sum));
	EXPECT_EQ(sum, 1);
	EXPECT_TRUE(c[0].checked && c[0].ok);
	EXPECT_EQ(c[0].expect_min, 1);
	EXPECT_EQ(c[0].expect_max, 1);
	c[0].delta = 0;		/* the driver did not count it */
	EXPECT_TRUE(!rd_ctr_expect_sum(c, 1, 1, 1, &sum));
	EXPECT_TRUE(!c[0].ok);
	c[0].delta = 2;		/* counted twice, or other traffic */
	EXPECT_TRUE(!rd_ctr_expect_sum(c, 1, 1, 1, &sum));
	c[0].delta = 3;		/* the whole test: three cases */
	EXPECT_TRUE(rd_ctr_expect_sum(c, 1, 3, 3, &sum));
	/* several counters of the concept at one end (bnxt_re res_rx_invalid_rkey,
	 * res_rx_range_err, ...): each 0..hi, one at least */
	c[0].delta = 0;
	c[1].delta = 1;
	c[2].delta = 0;
	EXPECT_TRUE(rd_ctr_expect_sum(c, 3, 1, 1, &sum));
	EXPECT_EQ(sum, 1);
	EXPECT_EQ(c[0].expect_min, 0);
	EXPECT_TRUE(c[0].ok && c[1].ok && c[2].ok);
	c[1].delta = 0;		/* none of them moved */
	EXPECT_TRUE(!rd_ctr_expect_sum(c, 3, 1, 1, &sum));
	EXPECT_EQ(sum, 0);
	c[0].delta = 1;		/* two counters for one event: allowed */
	c[1].delta = 1;
	EXPECT_TRUE(rd_ctr_expect_sum(c, 3, 1, 1, &sum));
	c[2].delta = 2;		/* one counter twice for one event: not */
	EXPECT_TRUE(!rd_ctr_expect_sum(c, 3, 1, 1, &sum));
	EXPECT_TRUE(!c[2].ok);
	EXPECT_TRUE(c[0].ok);
	/* no counter: nothing to assert, and not a pass */
	EXPECT_TRUE(!rd_ctr_expect_sum(c, 0, 1, 1, &sum));
	EXPECT_EQ(sum, 0);
}

/* alignment's atomics are skipped, with the reason, on a device without atomic support;
 * the endpoints are not touched then (NULL here) */
static void atomics_skip(void)
{
	struct rdiag_selftest st;
	struct rdiag_st_result r;
	char sum[128];

	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	st.res = &r;
	snprintf(st.a.dev, sizeof(st.a.dev), "mock0");
	snprintf(st.b.dev, sizeof(st.b.dev), "mock1");
	st.a.dattr.orig_attr.atomic_cap = IBV_ATOMIC_HCA;
	st.b.dattr.orig_attr.atomic_cap = IBV_ATOMIC_NONE;
	EXPECT_EQ(rd_align_atomics(&st, &r, NULL, NULL, sum, sizeof(sum)), 0);
	EXPECT_EQ(r.nchecks, 1);
	EXPECT_EQ(r.checks[0].verdict, RDIAG_SKIP);
	EXPECT_STREQ(r.checks[0].what, "atomics");
	EXPECT_TRUE(strstr(r.checks[0].detail, "mock1 reports atomic_cap NONE") != NULL);
	EXPECT_TRUE(strstr(sum, "atomics skipped: mock1 has no atomic support") != NULL);
	EXPECT_TRUE(r.verdict != RDIAG_FAIL);
}

/* the option defaults: --max-mem 256 MiB, --timeout 5000 ms; given values are kept */
static void defaults(void)
{
	struct rdiag_selftest_opts o;

	memset(&o, 0, sizeof(o));
	rd_st_opts_defaults(&o);
	EXPECT_EQ(o.max_mem, 256ULL << 20);
	EXPECT_EQ(o.timeout_ms, 5000);
	o.max_mem = 1 << 20;
	o.timeout_ms = 200;
	rd_st_opts_defaults(&o);
	EXPECT_EQ(o.max_mem, 1 << 20);
	EXPECT_EQ(o.timeout_ms, 200);
}

static void env(void)
{
	const char *why;
	struct rdiag_selftest *st = (struct rdiag_selftest *)1;
	struct rdiag_selftest_opts o;
	int rc;

	/* only meaningful on a machine without RDMA (the build host); elsewhere say so */
	if (access("/sys/class/infiniband", F_OK) == 0) {
		printf("ok %d - # SKIP this machine has RDMA devices\n", ++tap_n);
		return;
	}
	rc = rdiag_selftest_env_check();
	EXPECT_EQ(rc, -ENODEV);
	why = rdiag_selftest_errmsg(NULL);
	EXPECT_TRUE(strstr(why, "/sys/class/infiniband") != NULL);
	EXPECT_TRUE(strstr(why, "ulimit -l") != NULL || strstr(why, "memlock") != NULL);
	EXPECT_TRUE(strstr(why, "/dev/infiniband/uverbs* and its permissions") != NULL);
	EXPECT_TRUE(strstr(why, "ib_uverbs") != NULL);
	EXPECT_TRUE(strstr(why, "container") != NULL);
	EXPECT_TRUE(strchr(why, '\n') == NULL);	/* one line */
	memset(&o, 0, sizeof(o));
	o.gid_index = -1;
	rc = rdiag_selftest_open(&st, &o);
	EXPECT_EQ(rc, -ENODEV);
	EXPECT_TRUE(st == NULL);
	EXPECT_TRUE(strstr(rdiag_selftest_errmsg(NULL), "/sys/class/infiniband") != NULL);
	/* the options are optional; a bad call says so in errmsg(NULL) too */
	EXPECT_EQ(rdiag_selftest_open(&st, NULL), -ENODEV);
	EXPECT_EQ(rdiag_selftest_open(NULL, &o), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_selftest_errmsg(NULL), "rdiag_selftest_open") != NULL);
	EXPECT_EQ(rdiag_selftest_env_check(), -ENODEV);
}

int main(void)
{
	masks();
	names();
	encodings();
	table();
	tracker();
	memlock();
	ipc_lock();
	counter_expect();
	atomics_skip();
	defaults();
	env();
	return tap_done();
}
