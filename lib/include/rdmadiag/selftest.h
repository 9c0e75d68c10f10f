/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/selftest.h: verbs self-tests (rdmacheck) and work-completion strings.
 *
 * Part 1, work-completion strings: usable without a device.  rdiag_wc_status_name() gives
 * the enumerator ("IBV_WC_RNR_RETRY_EXC_ERR"), rdiag_wc_status_str() libibverbs' wording
 * ("RNR retry counter exceeded") and rdiag_wc_status_hint() the likely causes and what to
 * check.  All three accept any int; as every name function of the library, the name is NULL
 * for a status without one (the caller prints its own fallback), the two texts never are.
 * The functions live in lib/verbs (shared with the doctor).  The QP type and state names
 * and the MTU codes are in rdmadiag/resources.h and rdmadiag/packet.h.
 *
 * Part 2, self-tests: rdiag_selftest_open() opens the device (and optionally a peer device)
 * into one context that owns every verbs object the tests create; each test is one call
 * returning a structured result; rdiag_selftest_close() releases everything still held.
 * Every test releases its own objects in reverse order of creation on every path, so the
 * context holds nothing between tests: rdiag_selftest_live_objects() is 0 ("rdma res show"
 * before = after).
 */
#ifndef RDMADIAG_SELFTEST_H
#define RDMADIAG_SELFTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- work-completion status strings (enum ibv_wc_status values) ---- */
const char *rdiag_wc_status_name(int status);	/* "IBV_WC_REM_ACCESS_ERR"; NULL */
const char *rdiag_wc_status_str(int status);	/* "remote access error" */
const char *rdiag_wc_status_hint(int status);	/* likely causes */
/* "IBV_WC_REM_ACCESS_ERR" or "REM_ACCESS_ERR" (any case) -> 10; -1 when unknown */
int rdiag_wc_status_from_name(const char *name);
/* what the status means, one sentence (never NULL; a fallback for a status without one) */
const char *rdiag_wc_status_meaning(int status);
/* one likely cause of a completion status, most likely first (rdmadoctor explain) */
struct rdiag_wc_cause {
	const char *id;		/* stable cause id: "peer_unreachable", "rnr_no_receive" ... */
	const char *text;	/* the cause, one sentence */
	const char *check;	/* the next check: rdmadiag commands; PEER, DEV and NETDEV stand
				 * for the peer address, the RDMA device and its netdev */
};
/* the ranked causes of a status into *causes; returns their number (0 when none is known) */
size_t rdiag_wc_status_causes(int status, const struct rdiag_wc_cause **causes);

/* ---- formatting helpers (no device needed) ---- */
/* IBV_QP_* attribute mask -> "STATE|AV|PATH_MTU" into buf; returns buf */
char *rdiag_qp_mask_str(unsigned int mask, char *buf, size_t len);
/* min_rnr_timer encoding (0..31) -> microseconds (0 -> 655360); -1 when out of range */
long rdiag_rnr_timer_us(int code);
/* local ACK timeout encoding (0..31) -> microseconds: 4.096 us * 2^code; 0 means infinite */
double rdiag_ack_timeout_us(int code);
/* smallest encoding whose RNR delay is >= us (for choosing a timer); 0 when above 491.52 ms */
int rdiag_rnr_timer_code(long us);

/* ---- self-tests ---- */
enum rdiag_verdict {
	RDIAG_PASS = 0,
	RDIAG_FAIL = 1,
	RDIAG_SKIP = 2,
};
const char *rdiag_verdict_name(enum rdiag_verdict v);	/* "pass" "fail" "skip" */

#define RDIAG_ST_NAME	24
#define RDIAG_ST_TEXT	256
#define RDIAG_ST_MAX_ATTRS	40
#define RDIAG_ST_MAX_COUNTERS	16
#define RDIAG_ST_MAX_CHECKS	48
#define RDIAG_ST_MAX_NUMS	6

/* one attribute passed to the failed call (or one fact about the environment) */
struct rdiag_st_attr {
	char key[32];
	char val[160];
};

/* one counter read before and after the test, by catalogue concept */
struct rdiag_st_counter {
	char dev[32];
	uint32_t port;
	char name[48];		/* raw kernel name */
	char concept[40];	/* catalogue concept ("" when unknown) */
	uint64_t before, after;
	int64_t delta;
	bool checked;		/* the test asserted the delta */
	int64_t expect_min, expect_max;	/* asserted range (when checked) */
	bool ok;		/* delta within the range (when checked) */
};

/* one sub-check of a test: a transition, a GID index, an MR size, an alignment case */
struct rdiag_st_check {
	char what[64];
	enum rdiag_verdict verdict;
	char detail[RDIAG_ST_TEXT];
	int wc_status;		/* -1 when no completion involved */
	int nnum;
	struct {
		char key[24];
		double v;
	} num[RDIAG_ST_MAX_NUMS];	/* measured numbers (us, GB/s, ms, count) */
};

struct rdiag_st_result {
	char name[RDIAG_ST_NAME];
	enum rdiag_verdict verdict;
	char summary[RDIAG_ST_TEXT];	/* the essentials in one line */
	/* on fail/skip: where and why */
	char step[128];			/* the step that failed ("RC INIT->RTR ibv_modify_qp") */
	int err;			/* errno of the failed call (positive), 0 when none */
	int wc_status;			/* -1 when no completion involved */
	char expected[RDIAG_ST_TEXT];
	char observed[RDIAG_ST_TEXT];
	char hint[2 * RDIAG_ST_TEXT];	/* likely cause */
	double elapsed_ms;
	size_t nattrs;			/* attributes of the failed call */
	struct rdiag_st_attr attrs[RDIAG_ST_MAX_ATTRS];
	size_t ncounters;
	struct rdiag_st_counter counters[RDIAG_ST_MAX_COUNTERS];
	size_t nchecks;
	struct rdiag_st_check checks[RDIAG_ST_MAX_CHECKS];
};

struct rdiag_selftest;

/* deliberate faults, to show how failures are reported (rdmacheck --force-*) */
struct rdiag_st_faults {
	int path_mtu;		/* IBV_MTU_* to use at RTR instead of the port's active MTU; 0 none */
	bool bad_dest_qpn;	/* connect RC/UC QPs to a QP number that does not exist */
};

struct rdiag_selftest_opts {
	const char *dev;	/* NULL: the first device with an ACTIVE port */
	int port;		/* 0: the first ACTIVE port of dev */
	int gid_index;		/* -1: the first RoCE v2 IPv4 GID, else the first populated one */
	const char *peer_dev;	/* NULL: loop back on dev itself; else pair dev with peer_dev */
	int peer_port;		/* 0: first ACTIVE */
	int peer_gid_index;	/* -1: a GID of the same type and family as the local one */
	uint64_t max_mem;	/* mr-cost upper size; 0: 256 MiB */
	unsigned int timeout_ms;/* per completion; 0: 5000 */
	struct rdiag_st_faults faults;
	/* called as each step starts (rdmacheck -v); may be NULL */
	void (*on_step)(void *arg, const char *test, const char *step);
	void *on_step_arg;
};

/* open the device(s); opts NULL: the defaults above.  0 or -errno; on failure
 * rdiag_selftest_errmsg(NULL) is a one-line explanation of what to check (modules,
 * /dev/infiniband/uverbs* and permissions, a container without the device, the memlock limit) */
int rdiag_selftest_open(struct rdiag_selftest **out, const struct rdiag_selftest_opts *opts);
void rdiag_selftest_close(struct rdiag_selftest *st);
/* one line about the handle's last failure (a bad test index, an interrupted run; "" when
 * none); with st == NULL why the last failed rdiag_selftest_open() or
 * rdiag_selftest_env_check() of the process failed (librdmadiag(3), Conventions) */
const char *rdiag_selftest_errmsg(const struct rdiag_selftest *st);
/* async-signal-safe: make the running test stop at its next wait (result: fail, EINTR) */
void rdiag_selftest_interrupt(struct rdiag_selftest *st);

/* what was chosen: "rxe0", port, gid index (and the peer's) */
const char *rdiag_selftest_dev(const struct rdiag_selftest *st);
int rdiag_selftest_port(const struct rdiag_selftest *st);
int rdiag_selftest_gid_index(const struct rdiag_selftest *st);
const char *rdiag_selftest_peer_dev(const struct rdiag_selftest *st);	/* NULL: loopback */
/* the peer's port and GID index (in loopback: the device's own) */
int rdiag_selftest_peer_port(const struct rdiag_selftest *st);
int rdiag_selftest_peer_gid_index(const struct rdiag_selftest *st);
/* number of verbs objects and buffers the context holds right now: 0 between tests, unless
 * a release failed (such an object stays counted: nothing else can free it) */
size_t rdiag_selftest_live_objects(const struct rdiag_selftest *st);
/* what they are, for a message: "1 QP, 1 CQ (ibv_destroy_qp: Device or resource busy)"
 * (the first failed release and its errno), "" when none; returns the same count */
size_t rdiag_selftest_live_str(const struct rdiag_selftest *st, char *buf, size_t len);

/* the test list, in run order */
size_t rdiag_selftest_count(void);
const char *rdiag_selftest_name(size_t i);
const char *rdiag_selftest_description(size_t i);
int rdiag_selftest_find(const char *name);	/* index or -ENOENT */

/* run test i; *res is filled (always, also on -errno).  Returns 0 when the test ran (whatever
 * its verdict), -EINVAL for a bad index, -EINTR when interrupted. */
int rdiag_selftest_run(struct rdiag_selftest *st, size_t i, struct rdiag_st_result *res);

/* can a device be used here?  0, or -errno (-ENODEV, -ELIBACC ...) and
 * rdiag_selftest_errmsg(NULL) explains why not, as after a failed rdiag_selftest_open() */
int rdiag_selftest_env_check(void);

#ifdef __cplusplus
}
#endif
#endif
