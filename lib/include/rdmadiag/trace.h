/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/trace.h: the kernel's rdma_cm tracepoints, read passively and system-wide.
 *
 * The rdma_cma and ib_cma tracepoints (and ib_mad's, where present) record every step of
 * every rdma_cm connection on the host: the rdma_cm event with its status, the ToS, both
 * addresses, the CM MADs sent and their resends.  This module reads them through a private
 * ftrace instance (libtracefs) and decodes each record with libtraceevent from the `format`
 * files the running kernel publishes: no field offset or event id is known in advance.
 *
 * The same decoding reads a saved copy of tracefs (a directory with events/header_page,
 * events/SYSTEM/EVENT/format and per_cpu/cpuN/trace_pipe_raw files holding raw ring-buffer
 * pages, as tests/fixtures/trace/ has), so that a capture can be decoded elsewhere.
 *
 * Connections (rdiag_trace_conns_*) are assembled from the events: the steps of one cm.id
 * between its creation and its destruction, the REQ resends, the outcome and a verdict whose
 * cause id is one of rdmadiag/cause.h (shared with rdmadoctor).
 *
 * Functions return 0 or -errno and never print.
 */
#ifndef RDMADIAG_TRACE_H
#define RDMADIAG_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_trace;

/* one decoded record; a field the event does not carry is marked absent (has_* false,
 * -1 for the ints documented so) */
struct rdiag_trace_event {
	uint64_t ts_ns;			/* the instance's trace clock (CLOCK_MONOTONIC: "mono") */
	int cpu;
	int pid;			/* common_pid: the process the event ran in (0: idle) */
	char comm[16];			/* its name, from tracefs saved_cmdlines or /proc; "" when
					 * unknown */
	char system[16];		/* "rdma_cma", "ib_cma", "ib_mad" */
	char name[40];			/* "cm_event_handler" */
	bool has_cm_id;
	uint32_t cm_id;			/* rdma_cm's cm.id (rdma_cma events) */
	int tos;			/* -1 absent */
	bool has_addrs;
	struct sockaddr_storage src, dst;	/* AF_UNSPEC when the kernel's was empty */
	int cm_event;			/* rdma_cm event (cm_event_handler, cm_event_done);
					 * -1 absent */
	bool has_status;
	int status;			/* cm_event_handler's status, cm_event_done's result,
					 * cm_qp_create's rc */
	char device[32];		/* cm_id_attach's devname, cm_add_one's name; "" absent */
	/* ib_cma: the IB CM's own ids and state */
	bool has_ib_ids;
	uint32_t local_id, remote_id;
	int ib_state;			/* -1 absent */
	int rej_reason;			/* icm_send_rej's reason; -1 absent */
	int wc_status;			/* icm_mad_send_err, ib_mad_send_done_handler; -1 absent */
	/* ib_mad: the MAD's class, method, attribute, transaction id, retries */
	bool has_mad;
	unsigned int mgmt_class, method, attr_id;
	uint64_t tid;
	int retries_left, max_retries;	/* -1 absent */
	unsigned int dev_index, port_num;
	char detail[192];		/* the kernel's own rendering of the record (its print fmt
					 * through libtraceevent) */
};

/* "REQ" for a CM attribute id (0x0010), NULL when unknown */
const char *rdiag_trace_cm_attr_name(unsigned int attr_id);
/* IB CM state (ib_cm's enum ib_cm_state) -> "REQ_SENT"; NULL when unknown */
const char *rdiag_trace_ib_cm_state_name(int state);

/* --- a source of events ------------------------------------------------------------ */
struct rdiag_trace_opts {
	const char *tracefs;		/* NULL: found from /proc/mounts (tracefs, or
					 * debugfs/tracing) */
	const char *instance;		/* NULL: "rdmadiag-<pid>" */
	size_t buffer_kb;		/* per-CPU ring size of the instance; 0: 1024 */
	bool with_ib_mad;		/* also the ib_mad events (many on a busy IB fabric) */
};

/* why rdiag_trace_open failed, for the caller's one-line error */
enum rdiag_trace_fail {
	RDIAG_TRACE_OK,
	RDIAG_TRACE_NO_TRACEFS,		/* tracefs is not mounted (-ENOENT) */
	RDIAG_TRACE_NO_PERMISSION,	/* tracefs is there, but not writable (-EACCES) */
	RDIAG_TRACE_NO_EVENTS,		/* no rdma_cma events: rdma_cm not loaded or not built
					 * with tracepoints (-ENODEV) */
	RDIAG_TRACE_INSTANCE,		/* the instance could not be made or set up */
	RDIAG_TRACE_FORMAT,		/* a header or format file could not be parsed */
};

/* live: remove stale instances (named rdmadiag-<pid> with <pid> gone), create this one,
 * parse the formats, enable every rdma_cma and ib_cma event (ib_mad with with_ib_mad) and
 * start tracing.  *why says which of the failures above (may be NULL). */
int rdiag_trace_open(struct rdiag_trace **t, const struct rdiag_trace_opts *o,
		     enum rdiag_trace_fail *why);
/* offline: a saved tracefs copy in dir (see above); nothing is enabled or created */
int rdiag_trace_open_dir(struct rdiag_trace **t, const char *dir, enum rdiag_trace_fail *why);
/* one line: with NULL, why the last rdiag_trace_open or rdiag_trace_open_dir of this thread
 * failed; with t, what its last rdiag_trace_read could not do ("" when nothing failed) */
const char *rdiag_trace_errmsg(const struct rdiag_trace *t);
/* stop tracing, remove the instance (live), free everything; t may be NULL */
void rdiag_trace_close(struct rdiag_trace *t);
/* remove the instance now (for a signal handler's path: async-signal-safe, rmdir only) */
void rdiag_trace_remove_instance(struct rdiag_trace *t);

/* the tracefs mount point in use, the instance name ("" offline) */
const char *rdiag_trace_tracefs(const struct rdiag_trace *t);
const char *rdiag_trace_instance(const struct rdiag_trace *t);
/* the events found and enabled: "rdma_cma:cm_event_handler", ... */
size_t rdiag_trace_nevents(const struct rdiag_trace *t);
const char *rdiag_trace_event_at(const struct rdiag_trace *t, size_t i);
/* events this library decodes that this kernel does not have (listed, not fatal) */
size_t rdiag_trace_nmissing(const struct rdiag_trace *t);
const char *rdiag_trace_missing_at(const struct rdiag_trace *t, size_t i);

typedef int (*rdiag_trace_cb)(const struct rdiag_trace_event *ev, void *arg);

/* read what the kernel has recorded since the last call (live: non-blocking; offline: the
 * whole capture), decode it and call cb for each record in time order; a non-zero return of
 * cb stops the walk and is returned.  Records of events this module does not know are
 * skipped.  *lost (may be NULL) grows by the number of sub-buffers the kernel reported as
 * overwritten. */
int rdiag_trace_read(struct rdiag_trace *t, rdiag_trace_cb cb, void *arg, uint64_t *lost);

/* wait up to timeout_ms (-1: no limit) for the kernel to record something: 1 there is (or
 * may be) something to read, 0 the time ran out, -errno (-EINTR: a signal arrived).  Offline
 * it returns 1 at once. */
int rdiag_trace_wait(struct rdiag_trace *t, int timeout_ms);
/* the same, in one poll() with fd (>= 0; e.g. a netlink socket) as well: 1 also when fd is
 * readable */
int rdiag_trace_wait_fd(struct rdiag_trace *t, int fd, int timeout_ms);

/* decode one raw ring-buffer sub-buffer (header + events, as trace_pipe_raw gives them) of
 * len bytes: bounds-checked against len, whatever its content */
int rdiag_trace_parse_subbuf(struct rdiag_trace *t, const void *buf, size_t len, int cpu,
			     rdiag_trace_cb cb, void *arg);
/* stale instances removed by the last rdiag_trace_open */
size_t rdiag_trace_stale_removed(const struct rdiag_trace *t);

/* --- connections ------------------------------------------------------------------- */
enum rdiag_trace_outcome {
	RDIAG_TRACE_ESTABLISHED,	/* reached ESTABLISHED (later DISCONNECTED or not) */
	RDIAG_TRACE_FAILED,		/* an error event, or destroyed before any answer;
					 * also an established one whose device was removed
					 * under it (DEVICE_REMOVAL, cause device_removed) */
	RDIAG_TRACE_OPEN,		/* still in progress when the trace ended */
	RDIAG_TRACE_ANSWERED,		/* the passive side of a UD id sent its SIDR REP:
					 * accepted or rejected, which no tracepoint tells
					 * (cause ud_answered) */
};
const char *rdiag_trace_outcome_name(enum rdiag_trace_outcome o); /* "established" ... */

#define RDIAG_TRACE_MAX_STEPS 24
struct rdiag_trace_step {
	uint64_t ts_ns;
	char what[48];		/* "ADDR_RESOLVED", "REQ sent", "REQ resent", "REJECTED" ... */
	int cm_event;		/* the rdma_cm event, -1 for a CM MAD step */
	int status;
};

struct rdiag_trace_conn {
	uint32_t cm_id;
	int pid;			/* the process that made it; 0 unknown */
	char comm[16];
	char device[32];		/* from cm_id_attach; "" unknown */
	struct sockaddr_storage src, dst;
	int tos;			/* -1 unknown */
	bool passive;			/* the server side (CONNECT_REQUEST on a listener) */
	uint64_t start_ns, end_ns;
	struct rdiag_trace_step steps[RDIAG_TRACE_MAX_STEPS];
	size_t nsteps;			/* steps beyond the array are counted in steps_lost */
	size_t steps_lost;
	unsigned int req_sent, req_resent;
	uint32_t ib_local_id;		/* the IB CM's local id of its REQ (0 unknown) */
	bool peer_no_listener;		/* icm_no_listener_err for our REQ was seen here (the
					 * peer is on this host) */
	enum rdiag_trace_outcome outcome;
	int fail_event;			/* the failing rdma_cm event, -1 none */
	int fail_status;
	const char *cause;		/* a cause id of rdmadiag/cause.h ("ok" when
					 * established) */
	char verdict[384];		/* one sentence */
};

struct rdiag_trace_conns;
/* zeroed (or NULL) for the defaults: events read elsewhere (a saved trace) */
struct rdiag_trace_conns_opts {
	bool live;	/* the events are this host's, as they happen: at an ADDR_ERROR the
			 * destination is looked up in the routing table (RTM_GETROUTE, as
			 * rdmadoctor's route check: no route is no_route, not
			 * neighbour_unresolved), and an established id destroyed without a
			 * disconnect is checked for its process having ended (/proc) */
};
/* an assembler with no connection yet: 0, or -ENOMEM (rdiag_trace_conns_errmsg(NULL)) */
int rdiag_trace_conns_open(struct rdiag_trace_conns **cs,
			   const struct rdiag_trace_conns_opts *opts);
/* one line about the handle's last failed call ("" when none); with cs == NULL why the last
 * failed rdiag_trace_conns_open() of the process failed */
const char *rdiag_trace_conns_errmsg(const struct rdiag_trace_conns *cs);
void rdiag_trace_conns_close(struct rdiag_trace_conns *cs);
typedef void (*rdiag_trace_conn_cb)(const struct rdiag_trace_conn *c, void *arg);
/* feed one event (in time order); cb gets each connection when it ends (its cm.id is
 * destroyed, or it failed and is destroyed) */
int rdiag_trace_conns_add(struct rdiag_trace_conns *cs, const struct rdiag_trace_event *ev,
			  rdiag_trace_conn_cb cb, void *arg);
/* the end of the trace: cb gets every connection still open (outcome OPEN unless it was
 * established or had failed) */
void rdiag_trace_conns_flush(struct rdiag_trace_conns *cs, uint64_t now_ns,
			     rdiag_trace_conn_cb cb, void *arg);
/* how many open connections have no process yet (all their events ran in kernel threads,
 * and their cm_id_attach was not seen) */
size_t rdiag_trace_conns_unattributed(const struct rdiag_trace_conns *cs);
/* attribute connections without a process: pid and comm of the cm.id with these
 * addresses, from RES_CM_ID (the caller reads it, e.g. rdiag_counters_cm_ids()) */
void rdiag_trace_conns_attribute(struct rdiag_trace_conns *cs, const struct sockaddr *src,
				 const struct sockaddr *dst, int pid, const char *comm);

#ifdef __cplusplus
}
#endif
#endif
