/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/flow.h: per-QP analysis of decoded RDMA packets.
 *
 * A flow is one direction towards one QP: (source address, destination address, destination
 * QPN), where addresses are IPv4/IPv6 (RoCEv2), GIDs (RoCEv1, IB with GRH) or LIDs (IB).  UD
 * packets also key on the DETH source QP.  Per flow and in total the table keeps packets and
 * bytes per opcode, PSN gaps / duplicates / out-of-order arrivals (24-bit PSN arithmetic), NAKs
 * by kind, RNR NAKs and their timers, READ request -> response and A-bit request -> ACK
 * latencies, ECN-CE marks and the CNPs that answer them, ICRC failures; and the CM handshake
 * of every connection (REQ, MRA, REP, RTU, REJ, DREQ, DREP, REQ retries).
 *
 * Memory grows with the number of flows and CM connections, never with packets: no packet is
 * stored, latencies go into bounded distributions (the first 128 kept, then log buckets), and
 * requests waiting for a response sit in one bounded table (the oldest is dropped when it is
 * full and counted as unanswered).
 *
 *	struct rdiag_flow_table *ft;
 *	rdiag_flow_open(&ft, NULL);
 *	for each decoded packet p with time t_ns:
 *		rdiag_flow_add(ft, &p, t_ns, &verdict);    verdict: gap/dup/NAK... of this packet
 *	for (i = 0; i < rdiag_flow_count(ft); i++)
 *		rdiag_flow_get(ft, i, &info);
 *	rdiag_flow_total(ft, &total);
 *	rdiag_flow_close(ft);
 */
#ifndef RDMADIAG_FLOW_H
#define RDMADIAG_FLOW_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_pkt;
struct rdiag_flow_table;

enum rdiag_addr_kind {
	RDIAG_ADDR_NONE = 0,
	RDIAG_ADDR_IP4 = 1,	/* first 4 bytes */
	RDIAG_ADDR_IP6 = 2,
	RDIAG_ADDR_GID = 3,	/* RoCEv1 / IB GRH */
	RDIAG_ADDR_LID = 4,	/* first 2 bytes, network order */
};

#define RDIAG_QPN_NONE 0xffffffffu

struct rdiag_flow_key {
	uint8_t encap;		/* enum rdiag_encap */
	uint8_t kind;		/* enum rdiag_addr_kind */
	uint8_t src[16], dst[16];
	uint32_t destqp;
	uint32_t srcqp;		/* UD: DETH source QP; else RDIAG_QPN_NONE */
};

/* an address of kind (enum rdiag_addr_kind) -> "198.18.0.1", "fe80::1", "lid 0x0012" into
 * buf (always NUL-terminated); returns buf */
char *rdiag_flow_addr_str(unsigned int kind, const uint8_t addr[16], char *buf, size_t len);

/* NAK codes 0..4 by their value; everything else in RDIAG_NAK_OTHER */
#define RDIAG_NAK_KINDS 6
#define RDIAG_NAK_OTHER 5

struct rdiag_latency {
	uint64_t n;
	uint64_t min_ns, median_ns, p99_ns, max_ns;	/* median/p99: nearest rank, exact (a
						 * sample) up to 128 samples, past that from
						 * a log-bucket histogram, within 6.25 % */
	double mean_ns;
};

struct rdiag_flow_opstat {
	uint8_t opcode;
	uint64_t pkts;
	uint64_t bytes;		/* frame length on the wire */
	uint64_t payload;	/* RDMA payload bytes */
};

/* Loss and resends, per flow and in total.
 * A PSN gap whose PSNs were never NAKed (PSN sequence error) nor resent, and that a later
 * response of the receiver covers (an ACK or READ response at or past its last PSN, a NAK or
 * RNR NAK past it), was received by the receiver and only missed by the capture: it moves from
 * psn_gaps/psn_lost to not_captured_*.  Every resent request (a PSN behind the next expected
 * one that is not a late packet) is counted once by its cause. */
struct rdiag_flow_loss {
	uint64_t not_captured_gaps;	/* gaps the receiver acknowledged: the capture missed them */
	uint64_t not_captured_psns;	/* the PSNs in them */
	uint64_t retry_nak_seq;		/* resent after a NAK PSN sequence error (go-back-N) */
	uint64_t retry_rnr;		/* resent after an RNR NAK (no receive WQE, not loss) */
	uint64_t retry_timeout;		/* resent with no NAK seen: the ACK timer fired */
	uint64_t duplicates;		/* the same PSN again within RDIAG_DUP_MAX_NS of its previous
					 * transmission, with no NAK for it */
	uint64_t timeout_gap_min_ns;	/* timeout retries: the previous transmission of the PSN
					 * (the original, or the last resend) -> this resend; 0
					 * when no original was seen */
	uint64_t timeout_gap_max_ns;
	/* loss inside a resend run (go-back-N after a NAK, a timeout or an RNR NAK): the sender
	 * resends its PSNs in order, so a forward skip among them is a resent packet lost again.
	 * psn_gaps/psn_lost count the first sends' losses only; these the resends'.  Settled as
	 * a first-send gap is (NAKed or resent again: fabric; acknowledged without: moved to
	 * not_captured_*). */
	uint64_t resent_lost_gaps;	/* skips forward in a resend run */
	uint64_t resent_lost_psns;	/* resent packets missing in them */
	/* UD: sends of the sender's one sequence (all its destinations) lost on their way to
	 * this flow's destination, as far as the capture shows it: a hole of the sequence
	 * between two sends of one MAD (same TID) to this destination counts one (a lower
	 * bound: per hole and TID one resend is known lost) */
	uint64_t ud_lost_to_dest;
};
/* a request seen again sooner than this after its original, with no NAK, is a duplicate (the
 * smallest IBTA local ACK timeout is 4.096 us x 2^1) */
#define RDIAG_DUP_MAX_NS 8192

struct rdiag_flow_info {
	struct rdiag_flow_key key;
	int64_t peer;			/* index of the reverse flow of the same QP pair, -1 unknown */
	uint32_t src_qpn;		/* the QP that sends on this flow, RDIAG_QPN_NONE unknown */
	uint64_t first_ns, last_ns;
	uint64_t pkts, bytes, payload;
	const struct rdiag_flow_opstat *ops;	/* valid until the next add / free */
	unsigned int n_ops;
	uint32_t mtu;			/* path MTU seen in FIRST/MIDDLE packets, 0 unknown */
	uint64_t truncated, invalid;	/* packets cut by the snap length / malformed */

	uint64_t psn_gaps;		/* times the PSN jumped forward, lost in the fabric (the
					 * receiver NAKed a PSN of the gap or the sender resent
					 * one) or not explained (nothing acknowledged it later) */
	uint64_t psn_lost;		/* packets missing in those jumps (not filled later) */
	uint64_t psn_dup;		/* a request PSN seen before, whatever the cause (a retry
					 * below or a duplicate); READ responses seen again */
	uint64_t psn_retx;		/* a PSN filling a gap after a NAK-sequence error for it (or
					 * too late to be reordering): a lost packet, resent */
	uint64_t psn_ooo;		/* a PSN filling a recent gap with no NAK for it: late */
	uint64_t psn_goback;		/* times the sender went back behind its previous packet's
					 * PSN: one per go-back-N retry (after a NAK-sequence error
					 * or a timeout; a resend after an RNR NAK is not one) */

	uint64_t acks;
	uint64_t naks[RDIAG_NAK_KINDS];	/* NAKs received on this flow by code */
	uint64_t rnr_naks;
	double rnr_timer_ms_min, rnr_timer_ms_max;	/* of those RNR NAKs */

	uint64_t icrc_bad;
	uint64_t ecn_ce;		/* packets with IP ECN = CE (or BTH FECN) */
	uint64_t becn;			/* BTH BECN set */
	uint64_t cnp;			/* CNPs received on this flow (sent to its dest QP) */
	uint64_t cnp_for_ce;		/* CNPs sent back for this flow's CE marks: CNPs that came
					 * after a CE-marked packet of this flow */
	uint64_t cnp_no_ce;		/* of cnp: those whose answered flow had no CE-marked
					 * packet before them in the capture (marked past the
					 * capture point, e.g. a capture at the sender) */

	uint64_t reads;			/* READ requests seen */
	uint64_t reads_unanswered;	/* dropped from the pending table without a response */
	struct rdiag_latency read_lat;	/* READ request -> last response packet */
	uint64_t ack_reqs;		/* requests with the A bit */
	struct rdiag_latency ack_lat;	/* A-bit request (or atomic) -> its ACK */

	/* IP codepoints (RoCEv2) of the flow's packets other than CNPs (a CNP carries its own
	 * DSCP, 48 on mlx5 by default); all 0 for a flow without IP */
	uint64_t dscp_seen;		/* bit d set: DSCP d seen */
	uint64_t dscp_changes;		/* packets whose DSCP differs from the previous packet's */
	uint64_t ecn_pkts[4];		/* per ECN codepoint: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE */
	uint64_t not_ect_data;		/* SEND/WRITE/READ-response packets sent Not-ECT */
	/* messages seen whole: SEND, RDMA WRITE and READ-response messages, FIRST..LAST or ONLY,
	 * by payload bytes (packets seen before, i.e. resent, left out); median as the
	 * latencies' (exact up to 128 messages, then within 6.25 %) */
	uint64_t msgs;
	uint64_t msg_min, msg_median, msg_max;
	struct rdiag_flow_loss loss;	/* gaps the capture missed, resends by cause */
};

struct rdiag_flow_total {
	uint64_t frames;		/* every frame offered, RDMA or not */
	uint64_t rdma;			/* RDMA packets */
	uint64_t bytes, payload;
	uint64_t truncated, invalid;
	uint64_t no_bth;		/* cut before the BTH: counted, not analysed */
	uint64_t per_opcode_pkts[256], per_opcode_bytes[256];
	uint64_t flows, cm_conns;
	uint64_t psn_gaps, psn_lost, psn_dup, psn_retx, psn_ooo, psn_goback;
	uint64_t acks, naks[RDIAG_NAK_KINDS], rnr_naks;
	uint64_t icrc_bad, ecn_ce, becn, cnp;
	uint64_t cnp_for_ce;		/* CNPs after a CE-marked packet of the flow they answer
					 * (also when several CE-marked flows link the same two
					 * addresses and no flow can be told: then in no flow's) */
	uint64_t cnp_no_ce;		/* CNPs with no CE-marked packet before them */
	uint64_t reads, reads_unanswered, ack_reqs;
	struct rdiag_latency read_lat, ack_lat;
	uint64_t cm_msgs, cm_rej, cm_req_retries;
	uint64_t pending_dropped;	/* pending-table overflows */
	uint64_t untracked;		/* RDMA packets of flows beyond max_flows: counted only */
	uint64_t first_ns, last_ns;
	struct rdiag_flow_loss loss;
};

/* what one packet meant (for --errors, annotations) */
enum {
	RDIAG_FV_GAP = 1u << 0,		/* PSN jumped: lost packets before this one */
	RDIAG_FV_DUP = 1u << 1,		/* PSN seen before with no cause (a request resent within
					 * RDIAG_DUP_MAX_NS with no NAK), or a READ response
					 * seen again */
	RDIAG_FV_OOO = 1u << 2,		/* late packet filling a gap */
	RDIAG_FV_NAK = 1u << 3,
	RDIAG_FV_RNR = 1u << 4,
	RDIAG_FV_BAD_ICRC = 1u << 5,
	RDIAG_FV_CM_REJ = 1u << 6,
	RDIAG_FV_CM_RETRY = 1u << 7,	/* a REQ repeated with the same comm ID */
	RDIAG_FV_CE = 1u << 8,
	RDIAG_FV_CNP = 1u << 9,
	RDIAG_FV_READ_DONE = 1u << 10,	/* last READ response: latency_ns set */
	RDIAG_FV_ACKED = 1u << 11,	/* ACK matched an A-bit request: latency_ns set */
	RDIAG_FV_TRUNCATED = 1u << 12,
	RDIAG_FV_INVALID = 1u << 13,
	RDIAG_FV_RETX = 1u << 14,	/* fills a gap after a NAK or too late: a resent lost packet */
	RDIAG_FV_RMPP_DONE = 1u << 22,	/* the last missing segment of an RMPP transfer: rmpp_data
					 * holds the whole data */
	RDIAG_FV_RMPP_MISSING = 1u << 23,	/* an RMPP transfer's last segment, earlier ones
						 * missing: rmpp_missing_seg, rmpp_segments */
	RDIAG_FV_RMPP_DUP = 1u << 25,	/* an RMPP segment seen before (resent), not stored again */
	RDIAG_FV_RESENT_LOST = 1u << 27,	/* a resend run skipped PSNs: lost resent packets
						 * before this one (resent_lost, resent_psn) */
	RDIAG_FV_SIDR_STATUS = 1u << 26,	/* a SIDR_REP with a non-zero status (1: no listener
						 * for the service ID): sidr_status */
	RDIAG_FV_PAUSE = 1u << 24,	/* a PAUSE or PFC frame (not a transport error: rdmadump
					 * --errors shows them, --fail-on-errors does not count them) */
	/* a resent request, by cause (exactly one of these or DUP for a request seen before) */
	RDIAG_FV_RETRY_NAK = 1u << 15,	/* after a NAK PSN sequence error (go-back-N) */
	RDIAG_FV_RETRY_RNR = 1u << 16,	/* after an RNR NAK */
	RDIAG_FV_RETRY_TIMEOUT = 1u << 17,	/* no NAK seen: retry_gap_ns after the original */
	/* management datagrams and keys (flow_mad.c) */
	RDIAG_FV_MAD_RETRY = 1u << 18,	/* a MAD request sent again with the same TID before (or
					 * without) an answer: retry_gap_ns after the previous */
	RDIAG_FV_MAD_STATUS = 1u << 19,	/* a MAD response with an error status */
	RDIAG_FV_QKEY_MISMATCH = 1u << 20,	/* a UD packet to a QP whose SIDR_REP gave another
						 * Q_Key: expected_key */
	RDIAG_FV_PKEY_MISMATCH = 1u << 21,	/* a data packet (or CM REQ) whose P_Key's partition
						 * differs from its connection's CM REQ (or the
						 * PathRecord the REQ used): expected_key */
};
/* the set rdmadump --errors and --fail-on-errors use */
#define RDIAG_FV_RETRY (RDIAG_FV_RETRY_NAK | RDIAG_FV_RETRY_RNR | RDIAG_FV_RETRY_TIMEOUT)
#define RDIAG_FV_MAD_FINDINGS (RDIAG_FV_MAD_RETRY | RDIAG_FV_MAD_STATUS | \
			       RDIAG_FV_QKEY_MISMATCH | RDIAG_FV_PKEY_MISMATCH | \
			       RDIAG_FV_RMPP_MISSING)
#define RDIAG_FV_ERRORS (RDIAG_FV_GAP | RDIAG_FV_RESENT_LOST | RDIAG_FV_DUP | RDIAG_FV_RETX | RDIAG_FV_RETRY | \
			 RDIAG_FV_NAK | RDIAG_FV_RNR | RDIAG_FV_BAD_ICRC | RDIAG_FV_CM_REJ | \
			 RDIAG_FV_SIDR_STATUS | RDIAG_FV_MAD_FINDINGS)

struct rdiag_flow_verdict {
	uint32_t flags;
	uint32_t lost;			/* GAP: packets missing before this one */
	uint32_t expected_psn;		/* GAP/DUP/OOO: the PSN the flow expected */
	int64_t flow;			/* index, -1 when not analysed */
	uint32_t src_qpn;		/* the QP that sends on this flow (the DETH source QP, the
					 * reverse flow's destination QP or the QPN a CM REP gave),
					 * as known after this packet; RDIAG_QPN_NONE when not */
	uint64_t latency_ns;
	uint32_t expected_key;		/* QKEY_MISMATCH / PKEY_MISMATCH: the key the SIDR_REP,
					 * CM REQ or PathRecord gave (the packet has the other) */
	uint64_t retry_gap_ns;		/* RETRY_*, DUP of a request: time since the previous
					 * transmission of the PSN, to 16 ns, up to 68 s (0 when
					 * none was seen) */
	/* RMPP_DONE: the transfer's data after the class header of each segment (SA: the
	 * records, attr_offset * 8 bytes apart), valid until the next rdiag_flow_add() */
	const uint8_t *rmpp_data;
	uint32_t rmpp_len;
	uint32_t rmpp_segments;		/* RMPP_DONE, RMPP_MISSING: segments of the transfer */
	uint32_t rmpp_missing_seg;	/* RMPP_MISSING: the first one not seen */
	uint8_t sidr_status;		/* SIDR_STATUS: the SIDR_REP's status */
	uint32_t resent_lost;		/* RESENT_LOST: resent packets missing before this one */
	uint32_t resent_psn;		/* RESENT_LOST: the first of them (where the run was) */
};

struct rdiag_flow_opts {
	size_t pending_max;		/* outstanding requests kept (0 = 32768) */
	size_t max_flows;		/* 0 = unlimited; beyond it packets are counted only */
	uint64_t link_bps;		/* link speed in bit/s for PAUSE/PFC paused time, 0 unknown */
};

/* 0 or -errno (-ENOMEM); on failure rdiag_flow_errmsg(NULL) says why */
int rdiag_flow_open(struct rdiag_flow_table **ftp, const struct rdiag_flow_opts *opts);
void rdiag_flow_close(struct rdiag_flow_table *ft);
/* one line about the table's last failure (a packet only counted: -ENOSPC beyond max_flows,
 * -ENOMEM), "" when none; with ft == NULL why the last failed rdiag_flow_open() of the process
 * failed (librdmadiag(3), Conventions) */
const char *rdiag_flow_errmsg(const struct rdiag_flow_table *ft);

/* Account one decoded packet (rdiag_pkt_decode returned 0).  ts_ns: capture time.
 * v may be NULL.  0 or -ENOMEM (the packet is then only counted in the total).  The frame
 * the packet was decoded from (p->data) must still be there: a MAD's records are read from
 * it during the call (nothing is kept after it). */
int rdiag_flow_add(struct rdiag_flow_table *ft, const struct rdiag_pkt *p, uint64_t ts_ns,
		   struct rdiag_flow_verdict *v);
/* a frame that was not RDMA (counted in total.frames only).  A PAUSE or PFC frame goes to
 * rdiag_flow_add(): it counts in total.frames and in rdiag_flow_pause(), not in total.rdma */
void rdiag_flow_add_other(struct rdiag_flow_table *ft);

size_t rdiag_flow_count(const struct rdiag_flow_table *ft);
/* flows in first-seen order; 0 or -ENOENT */
int rdiag_flow_get(struct rdiag_flow_table *ft, size_t i, struct rdiag_flow_info *out);
int rdiag_flow_total(struct rdiag_flow_table *ft, struct rdiag_flow_total *out);

/* ---- PAUSE and PFC frames (rdiag_pkt_decode's RDIAG_ENCAP_PAUSE / RDIAG_ENCAP_PFC) -------- */
/* what the frames said about one priority (PFC), or about the whole link (802.3x PAUSE).  A
 * PFC frame counts for a priority only when its enable bit is set.  Quanta are 512 bit times:
 * quanta * 512 / link speed is the pause time the frames asked for.  Each sender (source MAC
 * address) pauses its peer on its own: runs and paused time are followed per sender, then
 * summed (paused_ns) or the largest taken (xoff_run_max). */
struct rdiag_pause_stat {
	uint64_t frames;		/* frames for it */
	uint64_t xoff, xon;		/* quanta > 0, quanta 0 */
	uint64_t quanta;		/* sum of the XOFF quanta */
	uint64_t xoff_run_max;		/* longest run of XOFF frames from one sender with no XON
					 * between */
	uint64_t paused_ns;		/* with rdiag_flow_opts.link_bps (else 0): the time it was
					 * paused, by the frame times: an XOFF pauses for its
					 * quanta unless the sender's next frame for it (XON, or a
					 * new XOFF) comes sooner; a pause still running at the
					 * last frame counts whole */
};

#define RDIAG_PAUSE_PRIOS 8

struct rdiag_flow_pause {
	uint64_t frames;		/* PAUSE and PFC frames, whole or not */
	uint64_t pause_frames, pfc_frames;	/* decoded whole (their parameters were read) */
	uint64_t truncated, invalid;	/* cut by the snap length / malformed (a PFC frame with
					 * the reserved octet of its vector set is counted, and
					 * read, as invalid) */
	struct rdiag_pause_stat link;	/* 802.3x PAUSE */
	struct rdiag_pause_stat prio[RDIAG_PAUSE_PRIOS];	/* 802.1Qbb PFC, by priority */
};
/* the PAUSE/PFC counts so far (rdiag_flow_add() takes those frames); 0 or -EINVAL */
int rdiag_flow_pause(const struct rdiag_flow_table *ft, struct rdiag_flow_pause *out);

/* the same for each sender (source MAC address: who paused its peer), in first-seen order.
 * Senders past the 1024th share one entry whose address is all zero. */
struct rdiag_pause_sender {
	uint8_t mac[6];
	struct rdiag_pause_stat link;
	struct rdiag_pause_stat prio[RDIAG_PAUSE_PRIOS];
};
size_t rdiag_flow_pause_sender_count(const struct rdiag_flow_table *ft);
/* 0 or -ENOENT (-EINVAL for NULL) */
int rdiag_flow_pause_sender_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_pause_sender *out);

/* ---- CM connections ------------------------------------------------------------------------ */
enum rdiag_cm_state {
	RDIAG_CMS_REQ_SENT = 0,		/* REQ seen, nothing back (yet): a timeout if it stays */
	RDIAG_CMS_REP_RCVD,		/* REP seen, no RTU */
	RDIAG_CMS_ESTABLISHED,		/* RTU seen */
	RDIAG_CMS_REJECTED,
	RDIAG_CMS_DREQ_SENT,
	RDIAG_CMS_DISCONNECTED,		/* DREP seen */
};
const char *rdiag_flow_cm_state_name(unsigned int state);	/* "req-sent", ... */

struct rdiag_cm_conn_info {
	uint8_t kind;				/* enum rdiag_addr_kind */
	uint8_t client[16], server[16];		/* REQ sender / receiver */
	uint32_t client_comm_id, server_comm_id;	/* server: 0 until REP/REJ */
	uint64_t service_id;
	bool sid_is_ip;
	uint16_t port_space, port;
	uint32_t client_qpn, server_qpn, client_psn, server_psn;
	uint8_t path_mtu;			/* IB MTU code from the REQ */
	uint8_t state;				/* enum rdiag_cm_state */
	uint32_t n_req, n_mra, n_rep, n_rtu, n_rej, n_dreq, n_drep;
	uint64_t req_ns, req_last_ns, mra_ns, rep_ns, rtu_ns, rej_ns, dreq_ns, drep_ns; /* first */
	uint16_t rej_reason;			/* enum rdiag_cm_rej_reason */
	const char *rej_reason_name;		/* the decoder's name of it, NULL when unassigned */
	bool rej_by_client;			/* the client sent the REJ (e.g. after timeouts) */
	uint8_t rej_msg;			/* msg_rejected: 0 REQ, 1 REP, 2 other */
	bool dreq_by_client;
	/* alternate path: LAP (load alternate path) and its APR answer, from either end */
	uint32_t n_lap, n_apr;
	uint64_t lap_ns, apr_ns;		/* first */
	uint8_t apr_status;			/* ap_status of the first APR */
};
size_t rdiag_flow_cm_count(const struct rdiag_flow_table *ft);
int rdiag_flow_cm_get(const struct rdiag_flow_table *ft, size_t i, struct rdiag_cm_conn_info *out);

/* ---- SIDR exchanges (service ID resolution for UD: SIDR_REQ and its SIDR_REP) ------------
 * named by the requester's address and request ID, in first-seen order */
struct rdiag_sidr_info {
	uint8_t kind;				/* enum rdiag_addr_kind */
	uint8_t client[16], server[16];		/* SIDR_REQ sender / receiver */
	uint32_t request_id;
	uint64_t service_id;			/* of the SIDR_REQ (of the SIDR_REP without one) */
	bool sid_is_ip;
	uint16_t port_space, port;
	uint32_t n_req, n_rep;			/* SIDR_REQs (1 + retries), SIDR_REPs */
	uint64_t req_ns, req_last_ns, rep_ns;	/* first SIDR_REQ, last SIDR_REQ, first SIDR_REP */
	uint8_t status;				/* of the first SIDR_REP: 0 SUCCESS, 1 UNSUPPORTED
						 * (no listener), ... rdiag_cm_sidr_status_name() */
	uint32_t qpn, qkey;			/* the SIDR_REP's QP and Q_Key (status 0) */
};
size_t rdiag_flow_sidr_count(const struct rdiag_flow_table *ft);
/* 0, -ENOENT, -EINVAL */
int rdiag_flow_sidr_get(const struct rdiag_flow_table *ft, size_t i, struct rdiag_sidr_info *out);

/* ---- management datagrams (flow_mad.c) ------------------------------------------------------
 * A transaction is a request (Get, Set, GetTable, GetMulti, GetTraceTable, Delete, Report,
 * Trap, ...: a method without the response bit, Send excepted) and its response (the method
 * with the response bit; TrapRepress for a Trap), paired by TID, class and the two ends.  A
 * request sent again with its TID is a retry; RMPP ACKs and later DATA segments are parts of a
 * transaction, not new sends.  CM Sends are the CM analysis's (rdiag_flow_cm_*). */
struct rdiag_mad_txn {
	uint8_t kind;				/* enum rdiag_addr_kind */
	uint8_t requester[16], responder[16];
	uint8_t mgmt_class, method;		/* of the request */
	uint16_t attr_id;
	uint64_t tid;
	uint64_t first_ns, last_send_ns;	/* first send, last resend */
	uint32_t sends;				/* 1 + retries */
	uint64_t retry_gap_min_ns, retry_gap_max_ns;	/* between consecutive sends */
	bool answered;
	uint8_t resp_method;
	uint16_t status;			/* of the response (DR SMP: without the D bit) */
	uint64_t resp_ns, latency_ns;		/* first response; its time after the last send */
	uint32_t resp_segments;			/* RMPP DATA segments of the response (0: none) */
	/* SA PathRecord: the DGID asked for (when the component mask has it) and the first
	 * record of the answer */
	bool pr_asked, pr_answer;
	uint8_t pr_dgid[16];
	uint8_t pr_ans_dgid[16];
	uint16_t pr_dlid, pr_pkey;
	uint8_t pr_sl, pr_mtu;
	/* the CM REQ from the requester to that destination that came after it */
	bool req_seen;
	uint64_t req_ns;
	uint16_t req_pkey;
};
size_t rdiag_flow_mad_txn_count(const struct rdiag_flow_table *ft);
/* in first-request order; 0, -ENOENT, -EINVAL */
int rdiag_flow_mad_txn_get(const struct rdiag_flow_table *ft, size_t i,
			   struct rdiag_mad_txn *out);

/* per class and attribute (in first-seen order) */
struct rdiag_mad_stat {
	uint8_t mgmt_class;
	uint16_t attr_id;
	uint64_t requests;			/* transactions */
	uint64_t answered, unanswered;
	uint64_t retries;			/* resends of a TID */
	uint64_t error_status;			/* answers with a non-zero status */
	uint64_t unmatched;			/* responses to no request seen */
	struct rdiag_latency lat;		/* last send -> first response */
};
size_t rdiag_flow_mad_stat_count(const struct rdiag_flow_table *ft);
int rdiag_flow_mad_stat_get(const struct rdiag_flow_table *ft, size_t i,
			    struct rdiag_mad_stat *out);

/* fabric events: SMP traps (Trap with a Notice) and port state changes seen in PortInfo
 * responses (the port's LID and number from the PortInfo, the state before from the previous
 * PortInfo of that port, 0 when none) */
enum { RDIAG_FE_TRAP = 1, RDIAG_FE_PORT_STATE = 2 };
struct rdiag_fabric_event {
	uint8_t what;				/* RDIAG_FE_* */
	uint64_t ts_ns;
	uint16_t issuer_lid, trap_number;	/* TRAP */
	uint16_t lid;				/* TRAP: the LID in its details (0: none) */
	uint8_t port;				/* PORT_STATE */
	uint8_t old_state, new_state;		/* PORT_STATE: PortInfo PortState codes */
};
#define RDIAG_FABRIC_EVENTS_MAX 4096		/* kept; more are counted */
size_t rdiag_flow_fabric_event_count(const struct rdiag_flow_table *ft);
int rdiag_flow_fabric_event_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_fabric_event *out);

/* Q_Key / P_Key mismatches, one entry per (sender, receiver, QP, kind, key seen) */
enum { RDIAG_KEY_QKEY_SIDR = 1, RDIAG_KEY_PKEY_REQ = 2, RDIAG_KEY_PKEY_PATH = 3 };
struct rdiag_key_mismatch {
	uint8_t what;				/* RDIAG_KEY_*: Q_Key vs SIDR_REP, P_Key vs CM REQ,
						 * CM REQ's P_Key vs the PathRecord it used */
	uint8_t kind;				/* enum rdiag_addr_kind */
	uint8_t src[16], dst[16];
	uint32_t destqp;
	uint32_t expected, seen;
	uint64_t packets, first_ns;
};
size_t rdiag_flow_key_mismatch_count(const struct rdiag_flow_table *ft);
int rdiag_flow_key_mismatch_get(const struct rdiag_flow_table *ft, size_t i,
				struct rdiag_key_mismatch *out);

#ifdef __cplusplus
}
#endif
#endif
