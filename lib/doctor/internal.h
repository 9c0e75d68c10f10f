/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal parts of the doctor (lib/doctor: doctor*.c, rtnl.c); not exported.  The host
 * description and the JSON reader it shares are lib/describe's (describe/describe.h). */
#ifndef RD_DOCTOR_INTERNAL_H
#define RD_DOCTOR_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "describe/describe.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/doctor.h"
#include "netlink/netlink.h"

/* a name from the library's tables (NULL for a value without one) as the doctor prints it */
static inline const char *rd_doc_name(const char *name)
{
	return name ? name : "UNKNOWN";
}

/* a port space's name as --ps takes it ("IB" -> "ib") */
static inline const char *rd_doc_ps_opt(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	buf[i] = 0;
	return buf;
}

static inline const char *rd_doc_event_name(int event)
{
	return rd_doc_name(rdiag_cm_event_name(event));
}

#define RD_DOC_MAX_FINDINGS 64
#define RD_DOC_MAX_STEPS 8
#define RD_DOC_MAX_DELTAS 64
#define RD_DOC_DEFAULT_PORT 7471

union rd_addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage ss;
};

struct rdiag_counters;
struct rdiag_devices;
struct rd_pc;
struct rd_side;
struct rd_paths;
struct rdiag_samples;

struct rdiag_doctor {
	char errmsg[256];
	/* the route and neighbour lookups' rtnetlink (rtnl.c): its socket opened on first use,
	 * or the replay RDMADIAG_NL_REPLAY names, loaded on first use */
	struct rd_nl rtnl;
	struct rd_replay *rtnl_replay;
	bool rtnl_loaded;
	int rtnl_load_ret;
	/* RDMADIAG_SYSFS_ROOT ("" = /): the checks read /sys, /dev/infiniband and
	 * /lib/modules under it, like the counters handle reads its sysfs tree */
	char root[256];
	/* one counters handle and one device discovery per doctor (rd_doc_devices) */
	struct rdiag_counters *cnt;
	struct rdiag_devices *devs;
	bool discovered;
	int discover_ret;
	char discover_err[256];
	size_t ndevices;
	bool devices_checked;
	struct rdiag_doc_finding findings[RD_DOC_MAX_FINDINGS];
	size_t nfindings;
	struct rdiag_doc_step steps[RD_DOC_MAX_STEPS];
	size_t nsteps;
	struct rdiag_doc_delta deltas[RD_DOC_MAX_DELTAS];
	size_t ndeltas;
	struct rdiag_doc_peer_info peer;
	/* the peer's counters from its side channel: before the attempt, and the ones that
	 * moved by the end of a failed data-path step (doctor_peer.c) */
	struct rd_pc *peer_before;
	bool have_peer_before, peer_after;
	char peer_dst[64];		/* where the set came from (rdiag_doctor_peer_counters' opts) */
	uint16_t peer_port;
	int peer_timeout_ms;
	struct rdiag_doc_delta peer_deltas[RD_DOC_MAX_DELTAS];
	size_t npeer_deltas;
	/* the firewall check's first strong rule on the way out (an output or postrouting
	 * hook: "nft -j list ruleset: inet t output handle 2: udp dport 4791 drop"), "" none;
	 * and why an attempt through the egress device would hang ("" it would not) */
	char fw_egress[400];
	char hazard[640];
	/* what the path check found, used by the attempt and the verdict */
	char egress_dev[64];		/* RDMA device behind the egress netdev */
	uint32_t egress_port;
	char egress_ndev[64];
	unsigned int egress_mtu;
	unsigned int egress_active_mtu;
	unsigned int egress_gid_type;
	bool attempted;
	/* active/max MTU of every port, read once through verbs (opening devices is slow) */
	bool ports_queried;
	size_t nqports;
	struct { char dev[64]; uint32_t port; unsigned int active, max; } qports[16];
	/* the attempt's parameters, for the verdict's sentences */
	char dst[64], src[64];
	uint16_t port;
	int ps;
	int timeout_ms;
	/* the next hop of the route, re-checked after an ADDR_ERROR */
	bool have_hop;
	union rd_addr hop;
	int hop_ifindex;
	/* both ends (doctor_peer.c): the rows of the side-by-side table, the side channel */
	struct rdiag_doc_side sides[16];
	size_t nsides;
	char side_channel[160];
	/* the listener's side channel (doctor_side.c): its options from rdiag_doctor_open, the
	 * scope once listening (AUTO resolved), its server while it runs */
	unsigned int side_max;
	enum rdiag_doc_serve side_opt, side_serve;
	struct rd_side *side;
	/* a listener's own rdma_cm port and port space, for its description */
	uint16_t listen_port;
	int listen_ps;
	/* what the peer's description said it listens on (peer_listen_port 0: not known) */
	uint16_t peer_listen_port;
	char peer_listen_ps[8];
	/* rdiag_doctor_paths' run (doctor_paths.c) and how rdiag_doctor_close frees it */
	struct rd_paths *paths;
	void (*paths_free)(struct rdiag_doctor *d);
};

struct rd_finding_arg {
	const char *check, *layer, *cause;
	enum rdiag_doc_level level;
};

/* the counters handle and the device list, opened/discovered on first use; *devs is NULL
 * and the return -errno when discovery failed (d->discover_err says why) */
int rd_doc_devices(struct rdiag_doctor *d, struct rdiag_counters **c,
		   const struct rdiag_devices **devs);

/* append a finding; the format strings fill summary / evidence / hint (hint may be NULL) */
struct rdiag_doc_finding *rd_doc_add(struct rdiag_doctor *d, const char *check,
				     const char *layer, enum rdiag_doc_level level,
				     const char *cause, const char *subject,
				     const char *summary, ...)
	__attribute__((format(printf, 7, 8)));
void rd_doc_evidence(struct rdiag_doc_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rd_doc_hint(struct rdiag_doc_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the attempt's step id, NULL when it did not run */
const struct rdiag_doc_step *rd_doc_step_find(const struct rdiag_doctor *d,
					      enum rdiag_doc_step_id id);
const struct rdiag_doc_finding *rd_doc_find(const struct rdiag_doctor *d, const char *check,
					    enum rdiag_doc_level min);
void rd_doc_err(struct rdiag_doctor *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* d->root followed by the formatted absolute path */
const char *rd_doc_path(const struct rdiag_doctor *d, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- rtnetlink (rtnl.c) ---- */

struct rd_route {
	int type;		/* RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE ... */
	int oif;
	char oifname[64];
	bool has_prefsrc, has_gateway;
	union rd_addr prefsrc;
	union rd_addr gateway;
	uint32_t table;
};

/* The doctor's rtnetlink exchange d->rtnl: set up by rdiag_doctor_open, closed (socket and
 * replay) by rdiag_doctor_close. */
void rd_rtnl_init(struct rdiag_doctor *d);
void rd_rtnl_close(struct rdiag_doctor *d);

/* RTM_GETROUTE for dst (optionally from src, out of oif); 0, or -errno as the kernel
 * answered it (-ENETUNREACH, -EHOSTUNREACH, -EINVAL for blackhole ...), or as the replay did
 * (-ENOENT: a request it did not record) */
int rd_rtnl_route_get(struct rdiag_doctor *d, const union rd_addr *dst,
		      const union rd_addr *src, int oif, struct rd_route *r);

struct rd_neigh {
	uint16_t state;		/* NUD_* */
	bool has_lladdr;
	uint8_t lladdr[32];
	unsigned int lladdr_len;
};
/* RTM_GETNEIGH for addr on ifindex; -ENOENT when there is no entry */
int rd_rtnl_neigh_get(struct rdiag_doctor *d, const union rd_addr *addr, int ifindex,
		      struct rd_neigh *n);
const char *rd_nud_state_name(uint16_t state, char *buf, size_t len);

int rd_addr_parse(const char *s, union rd_addr *a);	/* numeric or resolved name */
const char *rd_addr_str(const union rd_addr *a, char *buf, size_t len);
/* the interface that has this address configured (ifindex, name) or -EADDRNOTAVAIL */
int rd_addr_owner(const union rd_addr *a, char *ifname, size_t len);

/* neighbour of the next hop as a finding (doctor_path.c) */
void rd_doc_check_neigh(struct rdiag_doctor *d, const union rd_addr *hop, int ifindex,
			const char *ifname, bool after);

/* ---- firewall (doctor_fw.c) ---- */
enum { RD_FW_WEAK = 1, RD_FW_STRONG = 2 };
struct rd_fw_hit {
	int strength;		/* STRONG: matches UDP 4791 / all UDP / drop policy; WEAK: may */
	char where[128];	/* "inet t input (hook input) handle 4" or "filter INPUT" */
	char text[256];		/* the rule, as text */
	bool egress;		/* in an output or postrouting hook: drops what this host sends */
};
struct rd_fw_result {
	unsigned int nrules;	/* rules looked at */
	size_t n;
	struct rd_fw_hit hit[16];
};
/* scan 'nft -j list ruleset' output / 'iptables-save' output; 0 or -EINVAL (unparsable) */
int rd_fw_scan_nft_json(const char *json, struct rd_fw_result *res);
int rd_fw_scan_iptables(const char *text, struct rd_fw_result *res);
void rd_doc_check_firewall(struct rdiag_doctor *d);
/* software RDMA (rxe, siw: by the device's driver as discovery knows it) sends and receives
 * through the host's IP stack, so netfilter sees its packets; hardware RoCE bypasses it */
bool rd_doc_driver_software(const char *driver);
/* the firewall finding for the egress device the path check found: information only when
 * the device is hardware, and the hazard of an attempt through an output rule when it is
 * software (rdiag_doctor_attempt_hazard) */
void rd_doc_firewall_egress(struct rdiag_doctor *d);

/* ---- the CM counters of a connect (doctor_cm_counters.c) ---- */
/* what ib_cm counts of a connect in port space ps, below the port's cm_tx_msgs/,
 * cm_tx_retries/ and cm_rx_msgs/: REQ, REP and REJ for RC (TCP, IB), SIDR REQ and SIDR REP
 * for UD (UDP: rdma_cm resolves the remote QP with SIDR; there is no REJ) */
struct rd_doc_cm_counters {
	const char *req, *retries, *rep, *rej;	/* counter names; rej NULL for SIDR */
	const char *req_msg, *answer;		/* "REQ" / "SIDR REQ", "REP or REJ" / "SIDR REP" */
};
const struct rd_doc_cm_counters *rd_doc_cm_counters(int ps);
/* name is one of the counters of ps */
bool rd_doc_cm_counter(int ps, const char *name);
/* "REQ sent 3, retries 2, REP 0, REJ 0" (with_rej) or "SIDR REQ sent 3, retries 2, SIDR REP 0"
 * from d's deltas on its egress port */
void rd_doc_cm_counts(const struct rdiag_doctor *d, bool with_rej, char *buf, size_t len);

/* ---- private data exchanged by doctor client and listener (doctor_attempt.c) ---- */
#define RD_DOC_PDATA_LEN 48	/* fits a TCP-space REQ (56 bytes of private data) */
/* 32 bytes of MTU record (what older doctors send and read), then the listener's buffer
 * for the data-path step: address, rkey, length (zero from a client, or an older peer) */
void rd_doc_pdata_pack(uint8_t *buf, const struct rdiag_doc_peer_info *p);
int rd_doc_pdata_unpack(const uint8_t *buf, size_t len, struct rdiag_doc_peer_info *p);
void rd_doc_pdata_set_buf(uint8_t *buf, uint64_t addr, uint32_t rkey, uint32_t len);
/* true when the record carries a buffer */
bool rd_doc_pdata_buf(const uint8_t *buf, size_t len, uint64_t *addr, uint32_t *rkey,
		      uint32_t *blen);
/* the data-path step after ESTABLISHED (doctor_datapath.c): a "data_path" finding */
struct ibv_pd;
struct ibv_cq;
struct rdma_cm_id;
void rd_doc_datapath(struct rdiag_doctor *d, struct rdma_cm_id *id, struct ibv_pd *pd,
		     struct ibv_cq *cq, const uint8_t *rpdata, size_t rplen, int timeout_ms);
/* what rdiag_doctor_paths changes in an attempt (doctor_attempt.c): no counter samples
 * around it, a ToS, the ACK timeout exponent (0: 17), and its own step once ESTABLISHED
 * instead of the MTU data path */
struct rd_doc_hooks {
	bool no_counters;
	bool set_tos;
	uint8_t tos;
	uint8_t ack_timeout;
	void (*established)(void *arg, struct rdiag_doctor *d, struct rdma_cm_id *id,
			    struct ibv_pd *pd, struct ibv_cq *cq, const uint8_t *rpdata,
			    size_t rplen);
	void *arg;
};
int rd_doc_attempt_ex(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
		      const struct rd_doc_hooks *h);
/* the data path's one signalled work request and its completion within timeout_ms: 0, the
 * WC status (> 0), -ETIMEDOUT or -errno (doctor_datapath.c) */
struct ibv_qp;
struct ibv_send_wr;
int rd_doc_dp_one(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_send_wr *wr, int timeout_ms);
/* "WC 12 IBV_WC_RETRY_EXC_ERR (...)", "no completion within N ms", "cannot post it: ..." */
const char *rd_doc_dp_outcome(int r, int timeout_ms, char *buf, size_t len);
/* every counter of the host, and the ones that moved from a to b into d->deltas (the CM
 * counters of the egress port always) (doctor_attempt.c) */
struct rdiag_samples *rd_doc_sample_all(struct rdiag_doctor *d);
void rd_doc_take_deltas(struct rdiag_doctor *d, const struct rdiag_samples *a,
			const struct rdiag_samples *b);
#define RD_DOC_DP_RECVS 8	/* receives the listener posts for the data-path SENDs */
#define RD_DOC_DP_BUF 4096
/* what client and listener both ask of rdma_cm (doctor_attempt.c): the same small RC QP (UD
 * in the UDP port space),
 * and connection parameters carrying p packed into pdata (RD_DOC_PDATA_LEN bytes, which
 * must live until rdma_connect/rdma_accept returns) */
struct ibv_cq;
struct ibv_qp_init_attr;
struct rdma_conn_param;
void rd_doc_qp_init_attr(struct ibv_qp_init_attr *qa, struct ibv_cq *cq, bool ud);
void rd_doc_conn_param(struct rdma_conn_param *cp, uint8_t *pdata,
		       const struct rdiag_doc_peer_info *p, uint8_t retry_count);
/* fill p for the RDMA device/port behind an rdma_cm id (verbs + netdev) */
struct rdma_cm_id;
void rd_doc_local_info(struct rdma_cm_id *id, struct rdiag_doc_peer_info *p);

/* Per-port checks of the doctor (doctor_port.c); internal. */
#include "rdmadiag/counters.h"

/* the lossless chain of one RoCE port (lib/fabric) as findings (doctor_fabric.c) */
void rd_doc_check_fabric(struct rdiag_doctor *d, const char *subj, const char *dev,
			 const struct rdiag_port *p);

/* state/SM, netns, GIDs (for src when given), MTU and RoCE mode of one port */
void rd_doc_check_port(struct rdiag_doctor *d, const struct rdiag_device *dev,
		       const struct rdiag_port *p, const union rd_addr *src);
/* active/max MTU of a port through verbs (cached in d); 0 or -ENODEV */
int rd_doc_query_port(struct rdiag_doctor *d, const char *dev, uint32_t port,
		      unsigned int *active_mtu, unsigned int *max_mtu);
/* the mtu finding of a port whose netdev ndev has MTU mtu: qret is what querying the port's
 * active/max MTU returned (-errno: unknown, why says so) */
void rd_doc_mtu_finding(struct rdiag_doctor *d, const char *subj, const char *ndev,
			unsigned int mtu, int qret, unsigned int act, unsigned int max,
			const char *why);

/* the evidence of the next hop's static (PERMANENT) neighbour entry, or NULL: an unanswered
 * CM REQ may have gone to the wrong MAC (doctor_path.c) */
const char *rd_doc_static_neigh(const struct rdiag_doctor *d);
/* this host's description (lib/describe) as the doctor reads it: its sysfs root, counters
 * handle and the active MTUs its verbs queries cached (doctor_peer.c) */
int rd_doc_desc_local(struct rdiag_doctor *d, struct rd_desc *h);
/* the listener's rdma_cm port and port space into its description (doctor_peer.c) */
void rd_doc_listening(const struct rdiag_doctor *d, struct rd_desc *h);
/* the side channel of a listener (doctor_side.c): a listening TCP socket on addr (port
 * included) or -errno (d->side_channel says why); then a thread that serves it, at most
 * d->side_max clients at once, each within its deadlines, until rd_doc_side_stop (which
 * closes fd; the listener calls it, rdiag_doctor_close does not: doctor.c stays below this
 * file).  start: 0 or -errno (fd closed); d->side_serve then says what it serves */
int rd_doc_side_open(struct rdiag_doctor *d, const union rd_addr *a);
int rd_doc_side_start(struct rdiag_doctor *d, int fd);
void rd_doc_side_stop(struct rdiag_doctor *d);
/* the rows and findings of the two ends: this host (my_ip, its address towards the peer)
 * and the peer's description (peer_ip, the address connected to) */
void rd_doc_peer_compare(struct rdiag_doctor *d, const struct rd_desc *me, const char *my_ip,
			 const struct rd_desc *peer, const char *peer_ip);
/* the peer's counters (doctor_peer_counters.c): what the side channel answers to the request
 * line "counters" (every readable counter of this host, one JSON line; -E2BIG over
 * RD_DESC_MAX), its parser (-EBADMSG, why says what is wrong), the ones that moved from a to
 * b (into d->peer_deltas) */
#define RD_PC_MAX 1024
struct rd_pc {
	size_t n;
	struct { char dev[64]; uint32_t port; char name[64]; uint64_t value; } c[RD_PC_MAX];
};
int rd_pc_local_json(char **out, size_t *len);
/* the same from a sample set, only dev's port (dev NULL: every counter) */
int rd_pc_json(const struct rdiag_samples *s, const char *dev, uint32_t port, char **out,
	       size_t *len);
int rd_pc_parse(const char *text, size_t len, struct rd_pc *pc, char *why, size_t wlen);
void rd_pc_deltas(struct rdiag_doctor *d, const struct rd_pc *a, const struct rd_pc *b);
/* fetch the peer's counters on its side channel (doctor_peer.c); 0 or -errno (errmsg) */
int rd_doc_peer_fetch_counters(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
			       struct rd_pc *pc);
/* after a failed data-path step: the peer's counters again, the ones that moved kept
 * (nothing without rdiag_doctor_peer_counters' set from before the attempt) */
void rd_doc_peer_counters_after(struct rdiag_doctor *d);
/* the "rdma_cm port space" row: this end connects in port space ps to port; a listener on
 * that port in another port space is a problem finding (peer_port_space_mismatch), which
 * the verdict names when the REQ is rejected for want of a listener (doctor_peer.c) */
void rd_doc_peer_port_space(struct rdiag_doctor *d, int ps, uint16_t port,
			    const struct rd_desc *peer, const char *peer_ip);
/* an established connection whose peer comparison found a warning or problem: the verdict
 * names the first of them (doctor_peer.c); false when there is none */
bool rd_doc_peer_verdict(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v);

#endif
