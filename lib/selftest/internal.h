/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal to the self-tests (the files of lib/selftest); not installed.
 *
 * Ownership: struct rdiag_selftest owns every verbs object and buffer a test creates.  Each
 * object is pushed on st->objs when created; rd_st_release_to(st, mark) destroys everything
 * above mark, newest first (QP before CQ before MR before PD before the buffer), so one call
 * at the end of a test cleans up after success, failure and interruption alike.  An object
 * whose destroy call fails is not forgotten: it is counted in st->held (by type, with the
 * first failed call and its errno), so rdiag_selftest_live_objects() stays above 0 and the
 * tool can say what is still held. */
#ifndef RD_SELFTEST_INT_H
#define RD_SELFTEST_INT_H
#include "verbs/verbs.h"
#include <net/if.h>
#include <signal.h>

#include "rdmadiag/catalog.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/resources.h"
#include "rdmadiag/selftest.h"

/* the names the results print: the library's tables (NULL when unnamed) with the fallback
 * the self-tests have always printed */
static inline const char *rd_st_qp_type_name(int type)
{
	const char *n = rdiag_qp_type_name((unsigned int)type);

	return n ? n : "UNKNOWN";
}

static inline const char *rd_st_qp_state_name(int state)
{
	const char *n = rdiag_qp_state_name((unsigned int)state);

	return n ? n : "UNKNOWN";
}

static inline const char *rd_st_wc_name(int status)
{
	const char *n = rdiag_wc_status_name(status);

	return n ? n : "IBV_WC_UNKNOWN";
}

enum rd_obj_type {
	RD_OBJ_PD,
	RD_OBJ_CQ,
	RD_OBJ_QP,
	RD_OBJ_MR,
	RD_OBJ_AH,
	RD_OBJ_MEM,	/* malloc/posix_memalign */
	RD_OBJ_MMAP,	/* mmap, len bytes */
	RD_OBJ_NTYPES
};

struct rd_obj {
	enum rd_obj_type type;
	void *p;
	size_t len;
};

/* one end: a device port and the GID it uses */
struct rd_port {
	struct ibv_context *ctx;
	bool own_ctx;			/* false for the loopback peer (shares a's) */
	char dev[64];
	int port;
	int gid_index;
	struct ibv_port_attr pattr;
	struct ibv_device_attr_ex dattr;
	union ibv_gid gid;
	int gid_type;			/* IBV_GID_TYPE_* */
	char ndev[IF_NAMESIZE];
	bool eth;			/* link layer Ethernet (RoCE): AV needs a GRH */
};

struct rdiag_selftest {
	struct rdiag_selftest_opts opts;
	struct rd_port a, b;		/* b is a copy of a in loopback */
	bool loopback;
	struct rd_obj *objs;
	size_t nobj, cap;
	size_t held[RD_OBJ_NTYPES];	/* objects whose release failed, by type */
	int held_err;			/* the first such failure: errno and call */
	const char *held_call;
	volatile sig_atomic_t interrupted;
	const char *test;		/* running test name (for on_step) */
	struct rdiag_st_result *res;	/* running test's result */
	struct rdiag_counters *ctr;	/* counter reader, opened on first use */
	bool ctr_failed;
	uint32_t ctr_cache_ms;		/* how old a counter value may be (sysfs lifespan) */
	char err[320];			/* rdiag_selftest_errmsg(st) */
};

/* a QP with its own PD, CQ and registered buffer */
struct rd_ep {
	struct rd_port *port;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char *buf;
	size_t buflen;
	struct ibv_mr *mr;		/* whole buf, LOCAL_WRITE|REMOTE_* */
};

/* RC/UC connection parameters (UD uses qkey and psn only) */
struct rd_conn {
	int path_mtu;			/* IBV_MTU_*; 0: the port's active MTU */
	uint32_t psn;
	int timeout, retry_cnt, rnr_retry, min_rnr_timer;
	int rd_atomic;			/* max_rd_atomic and max_dest_rd_atomic */
	unsigned int access;		/* QP access flags */
};

#define RD_QKEY 0x11111111u
#define RD_GRH 40

/* selftest_res.c: objects and their release */
size_t rd_st_mark(const struct rdiag_selftest *st);
void rd_st_release_to(struct rdiag_selftest *st, size_t mark);
void *rd_st_track(struct rdiag_selftest *st, enum rd_obj_type type, void *p, size_t len);
/* an object of type whose release by call failed with err: count it as still held */
void rd_st_held(struct rdiag_selftest *st, enum rd_obj_type type, int err, const char *call);
size_t rd_st_held_count(const struct rdiag_selftest *st);
void *rd_st_alloc(struct rdiag_selftest *st, size_t len);	/* page aligned, zeroed */
struct ibv_mr *rd_st_reg_mr(struct rdiag_selftest *st, struct ibv_pd *pd, void *addr,
			    size_t len, unsigned int access);
int rd_st_ep_create(struct rdiag_selftest *st, struct rd_ep *ep, struct rd_port *port,
		    enum ibv_qp_type type, size_t buflen);
int rd_st_ep_create_ex(struct rdiag_selftest *st, struct rd_ep *ep, struct rd_port *port,
		       enum ibv_qp_type type, size_t buflen, uint64_t send_ops);

/* selftest_res.c: steps, QP transitions, posting and polling */
void rd_st_step(struct rdiag_selftest *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rd_st_fail(struct rdiag_selftest *st, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rd_st_hint(struct rdiag_selftest *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rd_st_attr(struct rdiag_st_result *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct rdiag_st_check *rd_st_check(struct rdiag_st_result *r, enum rdiag_verdict v,
				   const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void rd_st_check_num(struct rdiag_st_check *c, const char *key, double v);
void rd_st_conn_default(struct rdiag_selftest *st, struct rd_conn *c);
int rd_st_modify(struct rdiag_selftest *st, struct rd_ep *ep, struct ibv_qp_attr *attr,
		 int mask, const char *what);
int rd_st_to_init(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c);
int rd_st_to_rtr(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_ep *peer,
		 const struct rd_conn *c);
int rd_st_to_rts(struct rdiag_selftest *st, struct rd_ep *ep, const struct rd_conn *c);
int rd_st_connect(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
		  const struct rd_conn *ca, const struct rd_conn *cb);
int rd_st_pair(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
	       enum ibv_qp_type type, size_t buflen, const struct rd_conn *c);
int rd_st_qp_state(struct ibv_qp *qp);
void rd_st_record_qp(struct rdiag_selftest *st, struct rd_ep *ep);
int rd_st_post_recv(struct rdiag_selftest *st, struct rd_ep *ep, void *addr, uint32_t len,
		    uint32_t lkey, uint64_t id);
void rd_st_wr_init(struct ibv_send_wr *wr, struct ibv_sge *sge, enum ibv_wr_opcode op,
		   void *addr, uint32_t len, uint32_t lkey);
int rd_st_post_send(struct rdiag_selftest *st, struct rd_ep *ep, struct ibv_send_wr *wr);
int rd_st_poll(struct rdiag_selftest *st, struct ibv_cq *cq, struct ibv_wc *wc,
	       unsigned int timeout_ms);
int rd_st_wc_fail(struct rdiag_selftest *st, const struct ibv_wc *wc, const char *what);
void rd_st_sleep_ms(struct rdiag_selftest *st, double ms);
int rd_st_fill_av(struct rdiag_selftest *st, struct ibv_ah_attr *ah, const struct rd_port *from,
		  const struct rd_port *to);
/* selftest_fmt.c: a GID as text (IPv6 notation), a GID type's name */
void rd_st_gid_str(const union ibv_gid *gid, char *buf, size_t len);
const char *rd_st_gid_type_name(int type);

/* selftest_counters.c: counter deltas by catalogue concept */
struct rd_ctr_snap;
struct rd_ctr_snap *rd_ctr_snap(struct rdiag_selftest *st, const struct rd_port *p);
void rd_ctr_snap_free(struct rd_ctr_snap *s);
/* record the delta of concept between two snaps into the result; returns the entry or NULL
 * when the driver has no counter for that concept */
struct rdiag_st_counter *rd_ctr_delta(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
				      const struct rd_ctr_snap *b, const char *concept, int dir);
/* sum of the deltas of every counter of concept and direction between two snaps; returns
 * how many counters the driver has for it (0: not counted by this driver) */
size_t rd_ctr_sum(const struct rd_ctr_snap *a, const struct rd_ctr_snap *b, const char *concept,
		  int dir, int64_t *sum);
/* record every counter of concept and direction into the result (*first: the first entry,
 * NULL when none); returns how many were recorded */
size_t rd_ctr_delta_all(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
			const struct rd_ctr_snap *b, const char *concept, int dir,
			struct rdiag_st_counter **first);
/* assert that n counters of one concept at one end moved by lo..hi for one event count:
 * each by 0..hi (lo..hi when alone), together by lo..hi*n; sets checked/expect/ok on each and
 * *sum; true when it holds (false for n == 0) */
bool rd_ctr_expect_sum(struct rdiag_st_counter *c, size_t n, int64_t lo, int64_t hi,
		       int64_t *sum);
/* record every counter that moved between two snaps (the evidence of a failure whose test
 * recorded none); returns how many */
size_t rd_ctr_moved(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
		    const struct rd_ctr_snap *b);
void rd_ctr_close(struct rdiag_selftest *st);
/* wait until counters read now reflect everything that happened before (sysfs lifespan) */
void rd_ctr_settle(struct rdiag_selftest *st, const struct rd_port *p);

/* selftest.c: the defaults of rdiag_selftest_opts (0 fields): mr-cost up to 256 MiB, 5 s
 * per completion */
#define RD_ST_MAX_MEM_DEFAULT	(256ULL << 20)
#define RD_ST_TIMEOUT_DEFAULT	5000u
void rd_st_opts_defaults(struct rdiag_selftest_opts *o);

/* selftest.c: RLIMIT_MEMLOCK as the no-device message shows it ("unlimited", "8192 KiB") */
void rd_st_memlock_str(unsigned long long cur, char *buf, size_t len);

/* selftest_align.c: the atomics part of alignment (a skip with the reason, without touching
 * a or b, when either device reports atomic_cap NONE) */
int rd_align_atomics(struct rdiag_selftest *st, struct rdiag_st_result *r, struct rd_ep *a,
		     struct rd_ep *b, char *sum, size_t sl);

/* the tests */
int rd_test_qp_states(struct rdiag_selftest *st, struct rdiag_st_result *r);
int rd_test_gid_sweep(struct rdiag_selftest *st, struct rdiag_st_result *r);
int rd_test_rnr(struct rdiag_selftest *st, struct rdiag_st_result *r);
int rd_test_alignment(struct rdiag_selftest *st, struct rdiag_st_result *r);
int rd_test_access(struct rdiag_selftest *st, struct rdiag_st_result *r);
int rd_test_mr_cost(struct rdiag_selftest *st, struct rdiag_st_result *r);

#endif
