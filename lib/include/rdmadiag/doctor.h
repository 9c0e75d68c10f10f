/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/doctor.h: explain why rdma_connect fails (rdmadoctor).
 *
 * One handle (struct rdiag_doctor) owns every result of these parts:
 *   1. host checks: each appends structured findings (level, stable cause id, summary,
 *      evidence, fix hint).  rdiag_doctor_check_local() covers what needs no destination
 *      (devices, modules, device nodes, ports, GIDs, RoCE mode, MTU, netns, firewall, memlock);
 *      rdiag_doctor_check_path() what depends on the destination (route via RTM_GETROUTE,
 *      the RDMA port behind the egress netdev, the RoCE v2 GID of the source, the next hop's
 *      neighbour via RTM_GETNEIGH, MTU of the egress netdev).
 *   2. a real attempt: rdma_create_id -> rdma_resolve_addr -> rdma_resolve_route -> QP ->
 *      rdma_connect -> ESTABLISHED or the failure event (-> rdma_disconnect), every step
 *      timed with its event and status, and the IB CM / hw counter deltas around it.
 *   3. a verdict: the first failing layer, a stable cause id, one sentence, evidence and
 *      the next step.
 *   4. a listener (rdiag_doctor_listen) accepts attempts and reports each one; the two sides
 *      exchange a small record (MTU, GID type) in the CM private data so that each can
 *      compare the other end.
 *   5. both ends: the listener serves this host's description (rdmadiag/describe.h) on a TCP
 *      side channel, and its counters; the client compares the two ends
 *      (rdiag_doctor_compare_peer) and takes the peer's counter deltas.
 *   6. env: the device, port, GID index and ToS a job should use on this host.
 * The completion-error explainer (rdmadiag/explain.h) and the fleet compare
 * (rdmadiag/describe.h) need no doctor handle and are modules of their own.
 *
 * Functions return 0 or -errno and never print; rdiag_doctor_errmsg() explains the last
 * failure of the handle itself (a failed check is a finding, not an error).
 */
#ifndef RDMADIAG_DOCTOR_H
#define RDMADIAG_DOCTOR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_doctor;

enum rdiag_doc_level {
	RDIAG_DOC_OK = 0,
	RDIAG_DOC_INFO,		/* nothing wrong, worth knowing (e.g. not readable here) */
	RDIAG_DOC_WARN,		/* may break some setups */
	RDIAG_DOC_PROBLEM,	/* breaks rdma_connect */
};
const char *rdiag_doc_level_name(enum rdiag_doc_level l);	/* "ok" "info" "warning" "problem" */

struct rdiag_doc_finding {
	const char *check;	/* stable check id: "devices", "modules", "device_nodes", "port",
				 * "gid", "roce_mode", "route", "neighbour", "mtu", "netns",
				 * "firewall", "memlock", "data_path"; "peer" (the two ends compared,
				 * rdiag_doctor_compare_peer) */
	const char *layer;	/* "host", "link", "address", "network", "firewall", "transport" */
	enum rdiag_doc_level level;
	const char *cause;	/* stable cause id of a warning or problem, else NULL: one of
				 * the verdict causes, or "memlock_low", "gid_ipv4_missing" (only
				 * ever warnings) */
	char subject[64];	/* what was checked: "rxe0/1", "veth0", "198.18.0.2" ... */
	char summary[384];	/* as long as the verdict's sentence, which can be one (the data path's) */
	char evidence[768];
	char hint[256];
};

/* the steps of the rdma_cm attempt, in the order they run */
enum rdiag_doc_step_id {
	RDIAG_DOC_STEP_CREATE_ID,
	RDIAG_DOC_STEP_RESOLVE_ADDR,
	RDIAG_DOC_STEP_RESOLVE_ROUTE,
	RDIAG_DOC_STEP_CREATE_QP,
	RDIAG_DOC_STEP_CONNECT,
	RDIAG_DOC_STEP_DISCONNECT,
	RDIAG_DOC_STEP__COUNT
};
/* "create_id" "resolve_addr" "resolve_route" "create_qp" "connect" "disconnect"; NULL */
const char *rdiag_doc_step_name(enum rdiag_doc_step_id id);

struct rdiag_doc_step {
	enum rdiag_doc_step_id id;
	const char *name;	/* rdiag_doc_step_name(id) */
	bool done;		/* attempted */
	bool ok;
	int err;		/* -errno of the call itself (0 = call accepted), or
				 * -ETIMEDOUT when the doctor gave up waiting (timed_out) */
	int event;		/* rdma_cm event received (-1: none) */
	int status;		/* event->status */
	bool timed_out;		/* no event within the timeout (the doctor gave up) */
	double ms;		/* call to event */
	char detail[256];	/* decoded: device, port, path MTU, reject reason ... */
};

/* one counter that moved during the attempt */
struct rdiag_doc_delta {
	char dev[64];
	uint32_t port;
	char name[64];		/* "cm_tx_retries/req", "sent_pkts" ... */
	uint64_t before, after;
	bool cm;		/* an IB CM MAD counter */
};

/* what each side tells the other in the CM private data (zero when the peer is no doctor) */
struct rdiag_doc_peer_info {
	bool valid;
	unsigned int netdev_mtu;	/* bytes */
	unsigned int path_mtu;		/* RoCE path MTU the netdev allows (iboe_get_mtu) */
	unsigned int active_mtu;	/* the port's active MTU, bytes */
	unsigned int gid_type;		/* enum rdiag_gid_type of the GID used (rdmadiag/counters.h) */
	char dev[20];			/* RDMA device name */
};

struct rdiag_doc_verdict {
	bool ok;
	const char *layer;	/* first failing layer: "host", "link", "address", "network",
				 * "firewall", "cm", "transport"; "none" when ok */
	const char *cause;	/* stable id: "ok", "no_rdma_device", "no_cm_device_node",
				 * "no_uverbs_device_node", "device_node_access", "module_not_loaded",
				 * "port_not_active", "ib_no_sm", "netdev_other_netns",
				 * "no_gid_for_source", "gid_roce_v1_only", "gid_link_local_only",
				 * "not_rdma_netdev", "no_route", "neighbour_unresolved",
				 * "mtu_too_small", "firewall_drops_roce", "no_listener",
				 * "rejected_by_application", "rejected", "cm_no_response",
				 * "connect_error", "device_removed" (DEVICE_REMOVAL during the
				 * attempt or its disconnect), "addr_error", "route_error",
				 * "qp_create_failed",
				 * "mtu_mismatch", "datapath_mtu_fails" (established, but a
				 * data-path size up to the path MTU does not complete),
				 * "datapath_drops" (rdiag_doctor_paths: established, but its
				 * data exchange does not complete),
				 * "attempt_failed"; the peer causes of struct
				 * rdiag_doc_side; and "disconnect_failed" with ok
				 * true: established, but the disconnect did not complete */
	char sentence[640];
	char evidence[768];
	char next[256];
};

/* the default per-step timeout: long enough to see rdma_cm resend an unanswered REQ once
 * (on RoCE after 2 x packet lifetime + the CM response timeout, ~6.3 s on rxe), so that
 * cm_tx_retries/req shows that the REQ went out and nothing came back */
#define RDIAG_DOC_DEFAULT_TIMEOUT_MS 8000
/* rdma_resolve_addr/rdma_resolve_route get min(timeout, this) as rdma_cm's own timeout (what
 * rping and perftest give): when the next hop's neighbour is not cached, rdma_cm may complete
 * the address resolution only when that timer fires, so a long one only slows the attempt */
#define RDIAG_DOC_RESOLVE_TIMEOUT_MS 2000
#define RDIAG_DOC_RESOLVE_MS(timeout_ms) \
	((timeout_ms) > 0 && (timeout_ms) < RDIAG_DOC_RESOLVE_TIMEOUT_MS ? (timeout_ms) : \
	 RDIAG_DOC_RESOLVE_TIMEOUT_MS)

struct rdiag_doc_opts {
	const char *dst;	/* destination address (IPv4 or IPv6 literal or a name) */
	uint16_t port;		/* 0 = 7471 */
	const char *src;	/* source address or NULL */
	int timeout_ms;		/* the wait for the connect and disconnect events, and (at most
				 * RDIAG_DOC_RESOLVE_TIMEOUT_MS of it) rdma_cm's address and route
				 * resolution timeout; 0 = RDIAG_DOC_DEFAULT_TIMEOUT_MS */
	int ps;			/* enum rdma_port_space; 0 = RDMA_PS_TCP */
};

/* what a listener's side channel serves (rdmadoctor(1), BOTH ENDS, lists every field) */
enum rdiag_doc_serve {
	RDIAG_DOC_SERVE_AUTO = 0,	/* PORT when listening on one address, HOST on all */
	RDIAG_DOC_SERVE_PORT,		/* the port whose netdev carries the address the client
					 * connected to, with that address alone, and its counters;
					 * no hostname, kernel, memlock nor other ports */
	RDIAG_DOC_SERVE_HOST,		/* every port and address of the host, hostname, kernel,
					 * memlock, every counter */
};
#define RDIAG_DOC_SIDE_MAX_CLIENTS 64	/* side-channel clients served at once by default */

/* zeroed: the defaults (NULL too) */
struct rdiag_doctor_opts {
	/* the listener's side channel: at most side_max_clients connections served at once
	 * (0: RDIAG_DOC_SIDE_MAX_CLIENTS; more wait in the kernel's accept queue, in order),
	 * and what it serves */
	unsigned int side_max_clients;
	enum rdiag_doc_serve side_serve;
};

/* 0 or -errno; on failure rdiag_doctor_errmsg(NULL) says why */
int rdiag_doctor_open(struct rdiag_doctor **out, const struct rdiag_doctor_opts *opts);
void rdiag_doctor_close(struct rdiag_doctor *d);
/* one line about the handle's last failure ("" when none); with d == NULL why the last failed
 * rdiag_doctor_open() of the process failed (librdmadiag(3), Conventions) */
const char *rdiag_doctor_errmsg(const struct rdiag_doctor *d);

/* number of RDMA devices seen by the last check (0 = none: the doctor cannot run) */
size_t rdiag_doctor_ndevices(const struct rdiag_doctor *d);

#define RDIAG_DOC_ALL_PORTS 1u	/* also check every port (rdmadoctor local) */
int rdiag_doctor_check_local(struct rdiag_doctor *d, unsigned int flags);
int rdiag_doctor_check_path(struct rdiag_doctor *d, const struct rdiag_doc_opts *o);
/* after rdiag_doctor_check_path: why an attempt through the egress device would hang (one
 * line naming the firewall rule: an output hook dropping UDP 4791 on rxe), NULL none */
const char *rdiag_doctor_attempt_hazard(const struct rdiag_doctor *d);
/* the rdma_cm attempt; 0 when it ran (whatever the outcome), -errno when it could not */
int rdiag_doctor_attempt(struct rdiag_doctor *d, const struct rdiag_doc_opts *o);
void rdiag_doctor_verdict(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v);

size_t rdiag_doctor_nfindings(const struct rdiag_doctor *d);
const struct rdiag_doc_finding *rdiag_doctor_finding(const struct rdiag_doctor *d, size_t i);
size_t rdiag_doctor_nsteps(const struct rdiag_doctor *d);
const struct rdiag_doc_step *rdiag_doctor_step(const struct rdiag_doctor *d, size_t i);
size_t rdiag_doctor_ndeltas(const struct rdiag_doctor *d);
const struct rdiag_doc_delta *rdiag_doctor_delta(const struct rdiag_doctor *d, size_t i);
/* what the peer sent in its private data (valid = false when nothing usable came back) */
const struct rdiag_doc_peer_info *rdiag_doctor_peer(const struct rdiag_doctor *d);

/* ---- listener ---- */
struct rdiag_doc_conn {
	char peer[64];		/* address:port of the connecting side */
	char local[64];
	char dev[20];		/* RDMA device that got the request */
	uint32_t port;
	int event;		/* the event being reported */
	int status;
	double ms;		/* since the CONNECT_REQUEST */
	struct rdiag_doc_peer_info peer_info;	/* what the client sent */
	char note[256];		/* e.g. MTU mismatch between the two ends */
};
/* called for every event on a connection; return non-zero to stop listening */
typedef int (*rdiag_doc_listen_cb)(void *arg, const struct rdiag_doc_conn *c);
/* bind to addr (NULL = any) and port (0 = 7471), then accept and report until the callback
 * asks to stop, *stop becomes true, or max_conns connections were established and closed
 * (0 = no limit).  ready() is called once the id listens. */
int rdiag_doctor_listen(struct rdiag_doctor *d, const char *addr, uint16_t port, int ps,
			rdiag_doc_listen_cb cb, void (*ready)(void *arg, const char *where),
			void *arg, unsigned int max_conns, volatile bool *stop);

/* ---- env: the settings a job should use on this host (rdmadoctor env) ---- */
struct rdiag_doc_env {
	char dev[64];		/* RDMA device */
	uint32_t port;
	char netdev[64];	/* its netdev ("" on InfiniBand without IPoIB) */
	bool roce;		/* Ethernet link layer (else InfiniBand: GID 0, no ToS) */
	char addr[46];		/* the address whose GID is used ("" on InfiniBand) */
	int gid_index;		/* the RoCE v2 GID of addr, never a link-local one; 0 on IB */
	char gid[46];		/* as sysfs prints it */
	int tos;		/* configfs default_roce_tos (0 when the configfs group is absent:
				 * rdma_cm's default) */
	bool tos_from_configfs;	/* the value was read from configfs */
	char roce_mode[16];	/* configfs default_roce_mode ("" when not readable) */
};
/* target: an IPv4/IPv6 address of an RDMA port's netdev, a netdev name, or NULL for the
 * first ACTIVE port with a routable RoCE v2 GID (IPv4 first).  0 and *e filled; -ENODEV when
 * nothing RDMA answers to target (no device, no such netdev or address on an RDMA port);
 * -ENOENT when the port has no RoCE v2 GID for the address (only v1 or link-local ones);
 * rdiag_doctor_errmsg(d) says which. */
int rdiag_doctor_env(struct rdiag_doctor *d, const char *target, struct rdiag_doc_env *e);

/* The environment variables that tell a communication library the port of e, as its
 * documentation names them: NCCL (NCCL_IB_HCA, NCCL_IB_GID_INDEX, NCCL_IB_TC,
 * NCCL_SOCKET_IFNAME), UCX (UCX_NET_DEVICES, UCX_IB_GID_INDEX, UCX_IB_TRAFFIC_CLASS) and
 * libfabric's verbs provider (FI_PROVIDER, FI_VERBS_DEVICE_NAME, FI_VERBS_IFACE,
 * FI_VERBS_GID_IDX); the GID and traffic-class ones only on RoCE, the netdev ones only where
 * there is a netdev. */
enum rdiag_env_for {
	RDIAG_ENV_NCCL = 1,
	RDIAG_ENV_UCX = 2,
	RDIAG_ENV_LIBFABRIC = 4,
	RDIAG_ENV_ALL = 7,
};
struct rdiag_doc_env_var {
	const char *name;	/* static */
	char value[160];
};
#define RDIAG_DOC_ENV_VARS_MAX 16
/* "nccl", "ucx", "libfabric", "all" (any case) -> its rdiag_env_for; 0 when unknown */
unsigned int rdiag_doctor_env_for(const char *name);
/* the variables of the libraries in mask (rdiag_env_for bits) for e, in v[0 .. max), NCCL's
 * first, then UCX's, then libfabric's; their number (never more than max) */
size_t rdiag_doctor_env_vars(const struct rdiag_doc_env *e, unsigned int mask,
			     struct rdiag_doc_env_var *v, size_t max);

/* ---- both ends of one connection ----
 * A listener also serves a description of its host (the "host" object of rdmadoctor local
 * -j: devices, ports, netdevs and their MTUs, the GIDs that carry each address, the configfs
 * RoCE mode and ToS, versions) and the rdma_cm port space it listens in, as one line of JSON
 * on TCP, same address and port number as its rdma_cm id: reachable when rdma_cm itself
 * fails.  The client fetches it and compares the two ends. */
struct rdiag_doc_side {
	const char *what;	/* "device", "netdev MTU", "active MTU", "RDMA MTU both allow",
				 * "address", "GID index", "GID type", "RoCE mode", "default ToS",
				 * "link speed", "kernel", "rdmadiag", "rdma_cm port space" */
	char here[96];
	char peer[96];
	bool differs;
	const char *cause;	/* the finding this difference made, else NULL: "peer_mtu_mismatch",
				 * "peer_no_rocev2_gid", "peer_gid_type_mismatch",
				 * "peer_gid_index_differs", "peer_tos_mismatch",
				 * "peer_speed_mismatch", "peer_version_mismatch",
				 * "peer_addr_not_rdma", "peer_port_space_mismatch" (the
				 * listener is on the port in another port space: the
				 * verdict when the REQ is rejected for want of a
				 * listener) */
};
/* fetch the description served by the listener at o->dst, TCP port o->port (0 = 7471),
 * within o->timeout_ms (0: RDIAG_DOC_DEFAULT_TIMEOUT_MS), and compare it with this host's port towards o->dst
 * (rdiag_doctor_check_path first): rows of the side-by-side table, and a finding ("peer"
 * check) for each difference that breaks or degrades RDMA.  0, or -errno with the errmsg:
 * -ECONNREFUSED no side channel there (not a rdmadoctor listener, or an older one),
 * -ETIMEDOUT, -EBADMSG a reply that is not a description */
int rdiag_doctor_compare_peer(struct rdiag_doctor *d, const struct rdiag_doc_opts *o);
size_t rdiag_doctor_nsides(const struct rdiag_doctor *d);
const struct rdiag_doc_side *rdiag_doctor_side(const struct rdiag_doctor *d, size_t i);
/* this host's description, the line the side channel serves (malloc'd, the caller frees):
 * {"rdmadoctor_description":2,"host":HOST} and a newline */
int rdiag_doctor_describe(struct rdiag_doctor *d, char **json);
/* HOST alone, the "host" object of 'rdmadoctor local -j' (one line of JSON without a newline,
 * malloc'd); rdmadoctor(1) describes its members */
int rdiag_doctor_host_json(struct rdiag_doctor *d, char **json);
/* the peer's counters, from the listener's side channel at o->dst/o->port (request line
 * "counters"), as they are before rdiag_doctor_attempt(): when the attempt's data-path step
 * fails, the attempt fetches them again and keeps the ones that moved.  0, or -errno with
 * the errmsg as rdiag_doctor_compare_peer's (-EBADMSG: the reply is not a counter set) */
int rdiag_doctor_peer_counters(struct rdiag_doctor *d, const struct rdiag_doc_opts *o);
/* the peer's counters that moved during the attempt (*n of them, maybe 0), or NULL when they
 * were not fetched after it (no data-path failure, no set from before, or the fetch failed) */
const struct rdiag_doc_delta *rdiag_doctor_peer_deltas(const struct rdiag_doctor *d, size_t *n);
/* a listener's side channel: "tcp ADDR:PORT", or why there is none ("" before listening) */
const char *rdiag_doctor_side_channel(const struct rdiag_doctor *d);
/* what the listener's side channel serves: RDIAG_DOC_SERVE_PORT or _HOST once listening
 * (AUTO resolved), RDIAG_DOC_SERVE_AUTO before */
enum rdiag_doc_serve rdiag_doctor_side_serve(const struct rdiag_doctor *d);

/* ---- paths: which UDP source ports (ECMP paths) to one listener work (rdmadoctor paths) ----
 * RoCE v2 switches spread a connection's packets by the 5-tuple, whose only varying part
 * between two hosts is the UDP source port, which the RDMA device picks per QP.  Each probe
 * is a real rdma_cm attempt (rdiag_doctor_attempt's steps) to a rdmadoctor listener, then K
 * RDMA WRITEs (SENDs when the peer offers no buffer) each waited for, timed (RTT), and the
 * source port of the connection read from the QP's attributes (its QPN, the remote QPN, the
 * flow label of its address vector) through the driver's rule.  Connections are made until
 * `paths` distinct ports are covered or max_attempts (the device picks the QPNs). */
struct rdiag_doc_paths_opts {
	unsigned int paths;		/* distinct source ports wanted; 0 = RDIAG_DOC_PATHS_DEFAULT */
	unsigned int probes;		/* data exchanges per connection; 0 = RDIAG_DOC_PROBES_DEFAULT */
	unsigned int concurrency;	/* connections at once; 0 = 1 (only then are the
					 * counters that moved taken per connection) */
	unsigned int max_attempts;	/* connections at most; 0 = 2 * paths + 8 */
	unsigned int budget_ms;		/* start no connection after this; 0 = no budget */
	bool no_capture;		/* no live capture on the egress netdev to confirm the
					 * ports (see rdiag_doctor_paths_capture) */
	bool set_tos;			/* rdma_set_option(TOS, tos) on every id */
	uint8_t tos;
	/* called after every connection, from the thread that made it (serialised) */
	void (*progress)(void *arg, unsigned int attempts, unsigned int ports,
			 unsigned int want);
	void *arg;
};
#define RDIAG_DOC_PATHS_DEFAULT 16
#define RDIAG_DOC_PROBES_DEFAULT 4
#define RDIAG_DOC_PATHS_MAX 1024

/* how the source port of a probe was found (rdiag_doc_path_probe.sport_how) */
enum rdiag_doc_sport_how {
	RDIAG_SPORT_UNKNOWN = 0,	/* no QP was connected: no data packet was sent */
	RDIAG_SPORT_RXE_FLOW,		/* rxe, Linux >= 5.18: rdma_get_udp_sport(flow label, QPN,
					 * remote QPN) set when the QP got its address vector */
	RDIAG_SPORT_RXE_QPN,		/* rxe before 5.18: 0xc000 + hash_32(QPN, 14) */
	RDIAG_SPORT_FLOW_LABEL,		/* another driver, a flow label in the address vector:
					 * rdma_flow_label_to_udp_sport(); computed, not confirmed */
	RDIAG_SPORT_COMPUTED,		/* another driver, no flow label: the kernel's
					 * rdma_get_udp_sport(0, QPN, remote QPN); computed, not
					 * confirmed */
};
/* "unknown" "QPN and flow label on rxe" ...: one line */
const char *rdiag_doc_sport_how_str(enum rdiag_doc_sport_how h);
/* the kernel's rules (include/rdma/ib_verbs.h and drivers/infiniband/sw/rxe): */
uint16_t rdiag_roce_sport_flow_label(uint32_t flow_label);	/* rdma_flow_label_to_udp_sport */
uint32_t rdiag_roce_calc_flow_label(uint32_t lqpn, uint32_t rqpn);	/* rdma_calc_flow_label */
uint16_t rdiag_roce_sport_rxe_qpn(uint32_t qpn);		/* 0xc000 + hash_32(qpn, 14) */

#define RDIAG_DOC_PATH_DELTAS 12
/* one connection of the run */
struct rdiag_doc_path_probe {
	unsigned int seq;		/* 1, 2, ... in the order they were started */
	uint16_t sport;			/* the port: sport_seen when the capture saw it, else
					 * sport_computed; 0 unknown (RDIAG_SPORT_UNKNOWN) */
	enum rdiag_doc_sport_how sport_how;
	uint16_t sport_computed;	/* what the driver's rule gives */
	uint16_t sport_seen;		/* the UDP source port of its first data packet in the
					 * capture (BTH destination QP = remote_qpn), 0 not seen */
	uint32_t qpn, remote_qpn, flow_label;
	char dev[20];			/* the RDMA device of the connection */
	bool connected;			/* ESTABLISHED */
	bool ok;			/* connected and every exchange completed */
	const char *cause;		/* "ok" or the verdict's cause id (rdmadiag/cause.h) */
	const char *layer;
	char detail[256];		/* what failed: the step, or the exchange's completion */
	unsigned int exchanges;		/* asked for (probes) */
	unsigned int completed;		/* completed in order; the rest are lost (the QP is in
					 * the error state after the first that fails) */
	int wc_status;			/* of the first that failed: > 0 a WC status,
					 * -ETIMEDOUT none came, 0 none failed */
	double rtt_min, rtt_med, rtt_max;	/* ms, over the completed ones (0: none) */
	double ms;			/* the whole connection, create_id to destroy */
	bool deltas_exact;		/* alone in flight (concurrency 1): the counters below
					 * moved for this connection only */
	size_t ndeltas;			/* the counters that moved (not the CM's unmoved ones) */
	struct rdiag_doc_delta deltas[RDIAG_DOC_PATH_DELTAS];
};

/* one source port, every probe that used it merged */
struct rdiag_doc_path {
	uint16_t sport;
	enum rdiag_doc_sport_how sport_how;
	unsigned int probes, ok;	/* connections, of which worked */
	unsigned int exchanges, completed;	/* loss = exchanges - completed */
	double rtt_min, rtt_med, rtt_max;	/* ms, over all its completed exchanges */
	bool bad;			/* a probe failed (flaky when another worked) */
	const char *cause;		/* the first failing probe's cause, else "ok" */
	uint64_t retries;		/* transport retransmissions of its probes: the moved
					 * counters named *retry_err (rxe: completer_retry_err)
					 * or *ack_timeout_err (mlx5), of exact probes only */
};

/* a good/bad mark per probe, what the classifier takes (sport 0: a probe that failed
 * before any data packet, which names no port) */
struct rdiag_doc_path_mark {
	uint16_t sport;
	bool ok;
};
enum rdiag_doc_paths_class {
	RDIAG_PATHS_NONE = 0,		/* nothing probed */
	RDIAG_PATHS_ALL_GOOD,
	RDIAG_PATHS_ALL_BAD,		/* not a path problem: the doctor's verdict says why */
	RDIAG_PATHS_SUBSET,		/* some ports fail, others work */
};
#define RDIAG_DOC_PATHS_RANGES 64
struct rdiag_doc_paths_range {
	uint16_t lo, hi;		/* bad ports with no good probed port between them */
	unsigned int nbad;		/* probed ports in it (all bad) */
};
struct rdiag_doc_paths_verdict {
	enum rdiag_doc_paths_class cls;
	const char *name;		/* "none" "all_good" "all_bad" "subset" */
	unsigned int nports, nbad, ngood;	/* distinct probed ports */
	unsigned int nflaky;		/* bad ports with a probe that worked too */
	unsigned int nunplaced;		/* failed probes with no port (failed before data) */
	double bad_fraction;		/* nbad / nports */
	size_t nranges;			/* up to RDIAG_DOC_PATHS_RANGES (more merge into the last) */
	struct rdiag_doc_paths_range ranges[RDIAG_DOC_PATHS_RANGES];
	char bad_list[256];		/* "49160-49170 (3 ports), 52301" (ranges as above,
					 * with the probed ports in each; "..." when longer) */
	char sentence[640];
	char next[768];			/* the commands that confirm it (subset) */
	struct rdiag_doc_verdict doctor;	/* all_bad: the first failed probe's verdict */
};
/* the pure classifier: marks of n probes (any order, a port may repeat: a port is bad when
 * any of its probes failed) -> the verdict's class, counts, ranges and sentence; 0 */
int rdiag_doc_paths_classify(const struct rdiag_doc_path_mark *m, size_t n,
			     struct rdiag_doc_paths_verdict *v);

/* the run: o as for rdiag_doctor_attempt (dst, port, src, timeout_ms: each step's wait and
 * each exchange's; ps), po the run's; run rdiag_doctor_check_path first for the run's
 * counter deltas on the egress port.  0 when it ran (whatever the outcome), -errno when it
 * could not (-EINVAL bad options, errmsg says which) */
int rdiag_doctor_paths(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
		       const struct rdiag_doc_paths_opts *po);
size_t rdiag_doctor_paths_nprobes(const struct rdiag_doctor *d);
const struct rdiag_doc_path_probe *rdiag_doctor_paths_probe(const struct rdiag_doctor *d,
							    size_t i);
/* the distinct ports, ascending */
size_t rdiag_doctor_paths_nports(const struct rdiag_doctor *d);
const struct rdiag_doc_path *rdiag_doctor_paths_port(const struct rdiag_doctor *d, size_t i);
/* the run: connections made, whether the budget stopped it, its length in ms */
void rdiag_doctor_paths_run(const struct rdiag_doctor *d, unsigned int *attempts,
			    bool *budget_hit, double *ms);
/* the live capture that confirms the ports: a line saying where it ran ("eth0") or why not
 * ("off", "cannot capture on eth0: ..."), and of the connections that carried data how many
 * were seen (*seen) and of those how many at another port than the rule gives (*differ) */
const char *rdiag_doctor_paths_capture(const struct rdiag_doctor *d, unsigned int *seen,
				       unsigned int *differ);
/* the verdict of the run (the classifier's, with the confirming commands for the egress
 * netdev and addresses) */
void rdiag_doctor_paths_verdict(const struct rdiag_doctor *d, struct rdiag_doc_paths_verdict *v);

/* RoCE path MTU for a netdev MTU (kernel iboe_get_mtu: MTU - 96, largest IB MTU that fits;
 * 0 when even 256 does not fit) */
unsigned int rdiag_roce_path_mtu(unsigned int netdev_mtu);

#ifdef __cplusplus
}
#endif
#endif
