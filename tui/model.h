/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop model: what the views draw, built from collector snapshots.
 *
 * collector (collect.c, library calls, may be slow) -> struct rt_snap -> rt_model_ingest()
 * -> struct rt_model -> views (view_*.c, draw only).  Nothing here touches curses, so the
 * unit tests drive the model with synthetic snapshots.  Rates are never computed here by
 * subtraction: every counter carries the library's rate state and rt_model_ingest() feeds it
 * through the library's rate function. */
#ifndef RDMATOP_MODEL_H
#define RDMATOP_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eth.h"
#include "hist.h"
#include "rate_glue.h"
#include "rdmadiag/resources.h"	/* enum rdiag_qp_state */

/* ---- collector output ---------------------------------------------------------------- */
struct rt_snap_ctr {
	const char *name;		/* opaque: may hold spaces, commas, mixed case; borrowed
					 * from the snapshot's owner */
	uint64_t value;
	struct rt_meta meta;		/* catalogue facts for the rate function and views */
};

struct rt_snap_port {
	char dev[64];
	unsigned port;			/* 0 = device-level counters */
	char state[24];			/* "ACTIVE", "DOWN", ... */
	char phys[24];			/* "LINK_UP", ... */
	char netdev[64];
	char link[48];			/* "2.5 Gb/sec (1X SDR)" as the kernel says */
	double link_gbps;		/* 0 when unknown */
	int err;			/* 0, or -errno: the port could not be sampled */
	uint64_t t_ns;			/* CLOCK_MONOTONIC when it was sampled */
	uint64_t took_ns;		/* how long sampling this device took */
	bool slow;			/* took longer than one interval */
	struct rt_snap_ctr *ctr;
	size_t nctr;
	struct rt_eth_snap *eth;	/* the netdev's ethtool -S (eth.h), NULL none */
};

struct rt_qp {
	char dev[64];
	unsigned port;
	uint32_t lqpn, rqpn;
	char type[8];			/* RC UC UD XRC ... */
	char state[8];			/* RESET INIT RTR RTS SQD SQE ERR */
	uint8_t qp_state;		/* the same as a number: enum rdiag_qp_state */
	uint32_t sq_psn, rq_psn;
	bool has_rqpn, has_psn;
	int64_t pid;			/* -1 = kernel */
	char comm[64];
	bool has_counter;		/* a counter is bound to this QP */
	uint64_t ctr_packets;		/* when has_counter: packets sent + received */
	uint64_t ctr_errors;		/* when has_counter: error-class sum */
};

struct rt_cmid {
	char dev[64];
	unsigned port;
	char state[24];			/* ADDR_QUERY, ROUTE_QUERY, CONNECT, ESTABLISHED ... */
	char ps[8];			/* TCP, UDP, IPOIB, IB */
	char src[64], dst[64];		/* "198.18.0.1:18515" */
	int64_t pid;
	char comm[64];
	uint32_t lqpn;
};

struct rt_snap {
	uint64_t t_ns;			/* when the snapshot started */
	uint64_t took_ns;		/* how long collecting it took */
	struct rt_snap_port *ports;
	size_t nports;
	struct rt_qp *qps;
	size_t nqps;
	int qp_err;			/* 0 or -errno of the QP dump (EPERM, EOPNOTSUPP ...) */
	struct rt_cmid *cms;
	size_t ncms;
	int cm_err;
	unsigned lifespan_ms;		/* largest hw_counters lifespan seen, 0 = none */
	void *owner;			/* keeps borrowed names alive; freed with the snapshot */
	void (*owner_free)(void *owner);
};

void rt_snap_free(struct rt_snap *s);

/* ---- model ------------------------------------------------------------------------- */
enum rt_role {				/* what the Ports screen takes from a counter */
	RT_ROLE_NONE = 0,
	RT_ROLE_RX_PKTS,
	RT_ROLE_TX_PKTS,
	RT_ROLE_RX_BYTES,
	RT_ROLE_TX_BYTES,
};

struct rt_ctr {
	char *name;
	struct rt_meta meta;
	enum rt_role role;
	uint64_t raw;			/* as read (PMA data: 4-octet words) */
	uint64_t value;			/* scaled (bytes for PMA data), minus the baseline */
	uint64_t base;			/* 'r': value at the last baseline reset */
	uint64_t delta;			/* scaled, this interval */
	double rate;			/* per second, scaled */
	enum rt_rate_state state;
	struct rt_rate_prev prev;	/* previous fresh sample for the rate function */
	struct rdiag_rate last;		/* the library's verdict on the last sample */
	uint64_t ts_ns;			/* when the last sample was read */
	bool present;			/* in the last sample */
	bool moved;			/* delta > 0 this interval */
	bool breach;			/* a threshold matched */
	unsigned breach_line;		/* the first matching rule's line in the file */
	double observed;		/* what it matched with (value, delta or rate) */
	struct rt_hist *hist;		/* its rates, one sample per snapshot (hist.h) */
};

struct rt_port {
	char dev[64];
	unsigned port;
	char state[24], phys[24], netdev[64], link[48];
	double link_gbps;
	bool gone;			/* vanished: kept, greyed out, last values frozen */
	int err;			/* last sampling error */
	uint64_t t_ns;			/* last good sample */
	uint64_t took_ns;
	bool slow;
	bool seen;			/* in the last snapshot (ingest bookkeeping) */
	struct rt_ctr *ctr;
	size_t nctr, cap;
	struct rt_eth *eth;		/* the netdev's Ethernet side (eth.h), NULL none */

	/* derived each interval */
	double rx_pps, tx_pps, rx_Bps, tx_Bps;
	bool have_pkts, have_bytes, have_rates;
	double util;			/* 0..1 of the link rate, <0 unknown */
	unsigned err_moving;		/* error-class counters that moved */
	uint64_t err_delta;		/* their summed deltas */
	const char *top_err;		/* name of the largest moving one, or NULL */
	unsigned breaches;
	struct rt_hist pkts;		/* rx + tx packets per second, one sample per snapshot */
};

struct rt_thresholds;			/* thresh.h */

struct rt_model {
	struct rt_port *ports;
	size_t nports, cap;
	struct rt_qp *qps;
	size_t nqps;
	int qp_err;
	struct rt_cmid *cms;
	size_t ncms;
	int cm_err;

	uint64_t t_ns, prev_t_ns;
	uint64_t took_ns;
	unsigned frames;		/* snapshots ingested */
	unsigned ndevs;			/* distinct present devices */
	unsigned qps_in_err;
	uint64_t err_deltas;
	unsigned breaches;		/* counters breaching this interval */
	unsigned lifespan_ms;

	const struct rt_thresholds *th;	/* borrowed; NULL = none */
	bool th_enabled;
	bool baseline_reset;		/* 'r' pending: take the next sample as the baseline */
};

void rt_model_init(struct rt_model *m);
void rt_model_free(struct rt_model *m);
/* take ownership of nothing: the snapshot is copied into the model */
int rt_model_ingest(struct rt_model *m, const struct rt_snap *s);
/* 'r': values count from the next sample on, rates restart */
void rt_model_reset_baseline(struct rt_model *m);
/* re-evaluate thresholds (after 't' toggled them) without a new sample */
void rt_model_eval_thresholds(struct rt_model *m);
bool rt_ctr_is_error(const struct rt_ctr *c);

/* ---- ordering and filtering (views call these; tests too) ---------------------------- */
enum rt_port_key { RT_PK_NAME, RT_PK_RX_PPS, RT_PK_TX_PPS, RT_PK_RX_BPS, RT_PK_TX_BPS,
		   RT_PK_UTIL, RT_PK_ERRS, RT_PK__N };
enum rt_ctr_key { RT_CK_NAME, RT_CK_VALUE, RT_CK_DELTA, RT_CK_RATE, RT_CK_SEV, RT_CK__N };
enum rt_qp_key { RT_QK_DEV, RT_QK_LQPN, RT_QK_STATE, RT_QK_TYPE, RT_QK_PID, RT_QK__N };
enum rt_cm_key { RT_MK_STATE, RT_MK_DEV, RT_MK_PID, RT_MK__N };

const char *rt_port_key_name(enum rt_port_key k);
const char *rt_ctr_key_name(enum rt_ctr_key k);
const char *rt_qp_key_name(enum rt_qp_key k);
const char *rt_cm_key_name(enum rt_cm_key k);

/* each fills idx[] (room for the full count) and returns how many entries it selected */
size_t rt_sort_ports(const struct rt_model *m, enum rt_port_key k, bool rev, size_t *idx);
/* filter: a counter name, alias, concept or glob (rdiag_counter_match), case-insensitive,
 * and text without glob characters matches a part of them (NULL/"" = all); hide_quiet: drop
 * counters that are zero and did not move */
size_t rt_sort_ctrs(const struct rt_port *p, const char *filter, bool hide_quiet,
		    enum rt_ctr_key k, bool rev, size_t *idx);
size_t rt_sort_qps(const struct rt_model *m, enum rt_qp_key k, bool rev, size_t *idx);
size_t rt_sort_cms(const struct rt_model *m, enum rt_cm_key k, bool rev, size_t *idx);

bool rt_qp_is_bad(const struct rt_qp *q);	/* ERR or SQE */
bool rt_cm_is_pending(const struct rt_cmid *c);	/* stuck-looking states */
struct rt_port *rt_model_find(struct rt_model *m, const char *dev, unsigned port);

/* ---- history (hist.h) ------------------------------------------------------------------ */
/* The last n rates (oldest first, gaps NaN) into out[n] of what a graph or sparkline shows
 * for port p: name NULL or "" is the port's packet rate (rx + tx); otherwise the counter of
 * that name, or with concept set every counter of that concept (the largest per sample, as
 * the Ports figures take it).  *unit (may be NULL) gets the unit for rt_hist_scale().
 * Returns false when the port has no such counter. */
bool rt_port_series(const struct rt_port *p, const char *name, bool concept, size_t n,
		    double *out, const char **unit);

#endif
