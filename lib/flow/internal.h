/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internals of the per-QP analysis shared by the files of lib/flow (never exported). */
#ifndef RD_FLOW_INT_H
#define RD_FLOW_INT_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "rdmadiag/flow.h"

/* ---- distribution of latencies (or sizes): the first RD_HIST_EXACT values are kept, so
 * quantiles are exact (nearest rank) up to that many; past it they go into buckets, 8
 * log-spaced per power of two (bucket width <= 12.5 %, a quantile within 6.25 %) ---- */
#define RD_HIST_EXACT 128
#define RD_HIST_SUB_BITS 3
#define RD_HIST_SUB (1u << RD_HIST_SUB_BITS)
#define RD_HIST_BUCKETS (RD_HIST_SUB * 32)	/* 2^34 (17 s in ns); above: the last bucket */

struct rd_hist {
	uint64_t n, min, max;
	double sum;
	uint64_t *v;			/* the values while n <= RD_HIST_EXACT, else NULL */
	uint32_t nv, capv;
	uint32_t *b;			/* RD_HIST_BUCKETS counts once n > RD_HIST_EXACT */
};
unsigned int rd_hist_bucket(uint64_t v);
uint64_t rd_hist_bucket_lo(unsigned int b);
uint64_t rd_hist_bucket_hi(unsigned int b);	/* exclusive */
/* 0, or -ENOMEM: the value still counts in n/min/max/mean, not in the quantiles */
int rd_hist_add(struct rd_hist *h, uint64_t v);
/* frees what h holds (not h itself) and zeroes it */
void rd_hist_free(struct rd_hist *h);
/* quantile q in [0,1], nearest rank ceil(q*n): the sample itself while the values are kept,
 * else the middle of the bucket holding that rank, clamped to [min,max] */
uint64_t rd_hist_quantile(const struct rd_hist *h, double q);
void rd_hist_latency(const struct rd_hist *h, struct rdiag_latency *out);

/* ---- 24-bit PSN arithmetic ---- */
#define RD_PSN_MASK 0xffffffu
/* signed distance a - b in [-2^23, 2^23) */
static inline int32_t rd_psn_diff(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & RD_PSN_MASK;

	return d & 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

/* ---- requests waiting for a response: bounded, FIFO eviction ---- */
enum rd_pend_kind { RD_PEND_READ = 1, RD_PEND_ACKREQ = 2, RD_PEND_ATOMIC = 3 };

struct rd_pend_key {
	uint8_t kind;			/* enum rdiag_addr_kind */
	uint8_t src[16], dst[16];	/* of the request */
	uint32_t psn;
};

struct rd_pend_entry {
	struct rd_pend_key key;
	uint64_t ts;
	uint32_t flow;			/* requester flow index */
	uint32_t next;			/* hash chain, UINT32_MAX = end */
	uint8_t what;			/* enum rd_pend_kind, 0 = free */
};

struct rd_pending {
	struct rd_pend_entry *e;	/* ring of cap entries, oldest at head */
	uint32_t *bucket;		/* nbuckets heads */
	uint32_t cap, nbuckets, head, used;
	uint64_t evicted;		/* live entries dropped because the ring was full */
	uint64_t evicted_reads;
};
int rd_pending_init(struct rd_pending *t, size_t cap);
void rd_pending_free(struct rd_pending *t);
/* insert; an entry evicted to make room is reported through *evicted_flow (or UINT32_MAX) */
void rd_pending_put(struct rd_pending *t, const struct rd_pend_key *k, uint8_t what,
		    uint64_t ts, uint32_t flow, uint32_t *evicted_flow, uint8_t *evicted_what);
/* find and remove; 0 and the entry copied, or -ENOENT */
int rd_pending_take(struct rd_pending *t, const struct rd_pend_key *k,
		    struct rd_pend_entry *out);

/* ---- CM connections ---- */
struct rd_cm_table {
	struct rdiag_cm_conn_info *c;
	size_t n, cap;
	uint32_t *idx;			/* open addressing on (client comm id, client address) */
	size_t nidx;
	struct rdiag_sidr_info *sidr;	/* SIDR exchanges, first-seen order */
	size_t nsidr, capsidr;
};
void rd_cm_free(struct rd_cm_table *t);
/* account one CM MAD; returns RDIAG_FV_CM_* (and RDIAG_FV_SIDR_STATUS) flags or -ENOMEM */
int rd_cm_add(struct rd_cm_table *t, const struct rdiag_pkt *p, unsigned int kind,
	      const uint8_t src[16], const uint8_t dst[16], uint64_t ts);
/* a CM LAP or APR MAD (decoded as a MAD body, not as p->cm): counted in the connection its
 * comm IDs name; 1 when it is one (counted), 0 when not, -ENOMEM */
int rd_cm_add_lap_apr(struct rd_cm_table *t, const struct rdiag_pkt *p, unsigned int kind,
		      const uint8_t src[16], const uint8_t dst[16], uint64_t ts);

size_t rd_cm_sidr_count(const struct rd_cm_table *t);
int rd_cm_sidr_get(const struct rd_cm_table *t, size_t i, struct rdiag_sidr_info *out);

/* after a REP: the QPNs of both ends of the connection whose client has this address and
 * comm ID; 0, or -ENOENT when the REQ was not seen */
int rd_cm_qpns(const struct rd_cm_table *t, unsigned int kind, const uint8_t client[16],
	       uint32_t client_comm_id, uint32_t *client_qpn, uint32_t *server_qpn);

/* ---- RMPP reassembly (flow_rmpp.c) ---- */
#define RD_RMPP_MAX_LEN (1u << 20)	/* data bytes of one transfer; larger ones are dropped */
#define RD_RMPP_OPEN 64			/* transfers open at a time; the oldest is dropped */
struct rd_rmpp;
/* one MAD with an active RMPP header: stores a DATA segment, ends a transfer on STOP/ABORT;
 * sets RDIAG_FV_RMPP_* and, on completion, v->rmpp_data (valid until the next completion or
 * rd_rmpp_free), rmpp_len, rmpp_segments.  0 or -ENOMEM.  *r is created on first use. */
int rd_rmpp_add(struct rd_rmpp **r, const struct rdiag_pkt *p, unsigned int kind,
		const uint8_t src[16], const uint8_t dst[16], struct rdiag_flow_verdict *v);
void rd_rmpp_free(struct rd_rmpp *r);

/* ---- management datagrams, Q_Key/P_Key consistency (flow_mad.c) ---- */
struct rd_mad;
/* a MAD (or, once connections or SIDR answers are known, any packet: its keys are checked);
 * fi is the packet's flow.  Sets v flags; 0 or -ENOMEM.  *m is created on first use. */
int rd_mad_add(struct rd_mad **m, const struct rdiag_pkt *p, unsigned int kind,
	       const uint8_t src[16], const uint8_t dst[16], uint64_t ts, int64_t fi,
	       struct rdiag_flow_verdict *v);
/* true when packets that are not MADs need rd_mad_add (keys to check) */
bool rd_mad_watching(const struct rd_mad *m);
void rd_mad_free(struct rd_mad *m);
size_t rd_mad_txn_count(const struct rd_mad *m);
int rd_mad_txn_get(const struct rd_mad *m, size_t i, struct rdiag_mad_txn *out);
size_t rd_mad_stat_count(const struct rd_mad *m);
int rd_mad_stat_get(const struct rd_mad *m, size_t i, struct rdiag_mad_stat *out);
size_t rd_mad_event_count(const struct rd_mad *m);
int rd_mad_event_get(const struct rd_mad *m, size_t i, struct rdiag_fabric_event *out);
size_t rd_mad_mismatch_count(const struct rd_mad *m);
int rd_mad_mismatch_get(const struct rd_mad *m, size_t i, struct rdiag_key_mismatch *out);

/* ---- PAUSE / PFC frames (flow_pause.c) ---- */
#define RD_PAUSE_ROWS (RDIAG_PAUSE_PRIOS + 1)	/* the priorities, then the link (802.3x) */
#define RD_PAUSE_SENDERS_MAX 1024		/* more senders share one state */

struct rd_pause_state {
	uint64_t run;			/* current XOFF run */
	uint64_t since, until;		/* paused from since (not counted yet) until until */
};

struct rd_pause_sender {
	struct rdiag_pause_sender s;		/* this sender's counts */
	struct rd_pause_state st[RD_PAUSE_ROWS];
};

struct rd_pause {
	struct rdiag_flow_pause s;
	uint64_t link_bps;
	struct rd_pause_sender *snd;
	size_t n, cap, last;
	struct rd_pause_sender shared;	/* past RD_PAUSE_SENDERS_MAX, or out of memory */
	bool shared_used;
};
struct rdiag_pkt;
/* account one PAUSE or PFC frame captured at ts; sets RDIAG_FV_PAUSE (and _TRUNCATED /
 * _INVALID) in v */
void rd_pause_add(struct rd_pause *ps, const struct rdiag_pkt *p, uint64_t ts,
		  struct rdiag_flow_verdict *v);
/* the counts, with the pauses still running at the last frame */
void rd_pause_get(const struct rd_pause *ps, struct rdiag_flow_pause *out);
void rd_pause_free(struct rd_pause *ps);
size_t rd_pause_sender_count(const struct rd_pause *ps);
int rd_pause_sender_get(const struct rd_pause *ps, size_t i, struct rdiag_pause_sender *out);

/* ---- the CE-marked flows by address pair, for the CNPs that answer them (flow_ce.c) ---- */
struct rd_ce_pair {
	bool used, ambiguous;		/* ambiguous: several CE-marked flows share the pair */
	uint8_t kind;			/* enum rdiag_addr_kind */
	uint8_t src[16], dst[16];
	uint32_t flow;			/* the first CE-marked flow of the pair */
};
struct rd_ce_pairs {
	struct rd_ce_pair *e;		/* open addressing, cap a power of two */
	size_t n, cap;
};
/* at a flow's first CE-marked packet; 0 or -ENOMEM */
int rd_ce_pairs_add(struct rd_ce_pairs *t, const struct rdiag_flow_key *k, uint32_t flow);
enum { RD_CE_NONE = 0, RD_CE_ONE = 1, RD_CE_AMBIGUOUS = 2 };
/* the CE-marked flow from src to dst: RD_CE_ONE and *flow, RD_CE_NONE (none so far) or
 * RD_CE_AMBIGUOUS (more than one) */
int rd_ce_pairs_find(const struct rd_ce_pairs *t, unsigned int kind, const uint8_t src[16],
		     const uint8_t dst[16], uint32_t *flow);
void rd_ce_pairs_free(struct rd_ce_pairs *t);

/* ---- what a flow carries: IP codepoints and message sizes (flow_traffic.c) ---- */
struct rd_traffic {
	bool have_dscp, in_req, in_rsp;	/* in_*: inside a request / READ-response message */
	uint8_t last_dscp;
	uint64_t req_bytes, rsp_bytes;	/* payload of the message so far */
	struct rd_hist *msg_h;		/* message sizes, NULL until the first message */
};
/* what the analysis asks of an opcode, looked up once per table (rdiag_flow_open) instead of
 * through the packet module's functions several times per packet */
struct rd_opclass {
	uint8_t kind;			/* enum rdiag_op_kind */
	uint8_t pos;			/* enum rdiag_op_position */
	uint8_t tr;			/* enum rdiag_transport */
	bool resp, reliable;
};
/* account one packet of the flow (i: its public counters; c: its opcode's class);
 * seen_before: a resent packet */
void rd_traffic_add(struct rd_traffic *t, struct rdiag_flow_info *i, const struct rdiag_pkt *p,
		    const struct rd_opclass *c, bool seen_before);
/* msgs and msg_min/median/max into out */
void rd_traffic_info(const struct rd_traffic *t, struct rdiag_flow_info *out);
void rd_traffic_free(struct rd_traffic *t);

uint32_t rd_hash_bytes(const void *p, size_t n, uint32_t seed);
#endif
