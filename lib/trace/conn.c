/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Connection assembly: the events of one rdma_cm id, from its first event with both
 * addresses to its cm_id_destroy, joined into steps, an outcome and a verdict.
 *
 * What the kernel's events allow (seen on Debian's 6.1, tests/fixtures/trace/README):
 *  - cm.id is rdma_cm's restrack id, per device and reused: a connection is keyed on
 *    (cm.id, source, destination) while it lives, and forgotten at its cm_id_destroy;
 *  - cm_id_attach fires before the id has its cm.id (it shows 0) and before the source port
 *    is bound: it is kept aside and joined to the next connection from the same source
 *    address; it runs in the application's thread, which gives the process and the device
 *    (a client that bound no source address is attached at address resolution, in a
 *    kworker, with both addresses: that gives the device only);
 *  - the rdma_cm events (cm_event_handler) run in kworker context: the process comes from
 *    the process-context events (cm_id_attach, cm_send_req, cm_send_rep, cm_id_destroy);
 *  - ib_cma's events carry the IB CM's ids, not cm.id: icm_send_req follows cm_send_req in
 *    the same thread, which gives the REQ's local id; the MAD's transaction id carries that
 *    local id, which finds the REQ's resends (ib_mad_ib_send_mad with retries_left below
 *    max_retries) and, on a host that is both ends, the peer's icm_no_listener_err; a
 *    cm_send_rej (rdma_reject) is followed in its thread by icm_send_rej, which has the reason;
 *  - rdma_cm arms a deferred MRA (cm_send_mra: ib_send_cm_mra with IB_CM_MRA_FLAG_DELAY) that
 *    the IB CM sends only for a duplicate REQ or REP (icm_send_dup_req/rep in an MRA state)
 *    or when not deferred (icm_send_mra): "MRA armed", and "MRA sent" only when one went out;
 *  - a UD id (the UDP port space) has a SIDR REQ and a SIDR REP instead of REQ/REP/RTU: the
 *    active side gets ESTABLISHED or UNREACHABLE with the SIDR REP's status, the passive side
 *    no event after its cm_send_sidr_rep, which rdma_accept and rdma_reject both make and
 *    no tracepoint gives the status of: its outcome is "answered" (cause ud_answered), never
 *    established nor failed.
 * The cause id is rdiag_cause_decide()'s, from what the steps show (rdmadoctor decides with
 * the same function). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "internal.h"
#include "open_error.h"
#include "rdmadiag/cause.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"

enum { EV_ADDR_RESOLVED = 0, EV_ADDR_ERROR = 1, EV_ROUTE_ERROR = 3, EV_CONNECT_REQUEST = 4,
	EV_CONNECT_RESPONSE = 5, EV_CONNECT_ERROR = 6, EV_UNREACHABLE = 7, EV_REJECTED = 8,
	EV_ESTABLISHED = 9, EV_DISCONNECTED = 10, EV_DEVICE_REMOVAL = 11 };

#define MAX_ATTACH 32
#define MAX_REMOVALS 8
#define REMOVAL_JOIN_NS (10ull * 1000000000ull)
#define ATTACH_MAX_AGE_NS (60ull * 1000000000ull)
#define REQ_JOIN_NS (1000000000ull)
/* the IB CM's states (ib_cm's enum ib_cm_state) in which a duplicate gets the armed MRA */
#define IB_MRA_REQ_SENT 4
#define IB_MRA_REP_SENT 8

struct slot {
	struct rdiag_trace_conn c;
	int used;
	int answered;		/* REP (CONNECT_RESPONSE), REJ or an error came back */
	int joined;		/* its cm_id_attach was found */
	int removed_established;	/* DEVICE_REMOVAL came after it was established */
	int removal_pid;	/* the process whose thread delivered DEVICE_REMOVAL (the
				 * removal's own: rdma link delete, modprobe -r), 0 unknown */
	char removal_comm[16];
	int rej_sent;		/* the passive side sent a REJ (rdma_reject) */
	int rej_reason;		/* its reason (icm_send_rej), -1 unknown */
	int sidr_rep_sent;	/* the passive side of a UD id answered (cm_send_sidr_rep) */
	int sidr;		/* a UD id: SIDR REQ or SIDR REP sent */
	int disconnected;	/* cm_disconnect, or DISCONNECTED came */
	int route;		/* enum rdiag_cause_route of the destination, at its ADDR_ERROR */
	int proc_ended;		/* at the destroy: 1 its process had ended, 0 it ran, -1 unknown */
};

struct attach {
	int used, pid;
	char comm[16], device[32];
	struct sockaddr_storage src, dst;
	uint64_t ts;
};

/* an RDMA device's removal (rdma_cma:cm_remove_one, in the removing process's thread) */
struct removal {
	int used, pid;
	char comm[16], device[32];
	uint64_t ts;
};

struct rdiag_trace_conns {
	struct slot *slots;
	size_t nslots;
	struct attach attaches[MAX_ATTACH];
	size_t next_attach;
	struct removal removals[MAX_REMOVALS];
	size_t next_removal;
	/* the last cm_send_req: its thread and connection, for icm_send_req */
	int req_pid;
	size_t req_slot;
	uint64_t req_ts;
	int req_valid;
	/* the last cm_send_rej, cm_send_rep: the same for icm_send_rej, icm_send_rep */
	int rej_pid, rep_pid;
	size_t rej_slot, rep_slot;
	uint64_t rej_ts, rep_ts;
	int rej_valid, rep_valid;
	bool live;		/* rdiag_trace_conns_opts.live */
	char err[128];		/* rdiag_trace_conns_errmsg(cs) */
};

/* why the last failed rdiag_trace_conns_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_trace_conns_open(struct rdiag_trace_conns **cs,
			   const struct rdiag_trace_conns_opts *opts)
{
	if (!cs) {
		rd_open_error_set(&open_err, "rdiag_trace_conns_open: no place for the handle");
		return -EINVAL;
	}
	*cs = calloc(1, sizeof(**cs));
	if (!*cs) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	(*cs)->live = opts && opts->live;
	return 0;
}

const char *rdiag_trace_conns_errmsg(const struct rdiag_trace_conns *cs)
{
	return cs ? cs->err : rd_open_error_get(&open_err);
}

void rdiag_trace_conns_close(struct rdiag_trace_conns *cs)
{
	if (!cs)
		return;
	free(cs->slots);
	free(cs);
}

/* the address's bytes and port, read with memcpy: the storage is written as a whole
 * struct, and reading it through a sockaddr_in pointer would break strict aliasing */
static int sa_ip(const struct sockaddr_storage *s, unsigned char ip[16], int *port)
{
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;

	memset(ip, 0, 16);
	*port = 0;
	if (s->ss_family == AF_INET) {
		memcpy(&a4, s, sizeof(a4));
		memcpy(ip, &a4.sin_addr, 4);
		*port = ntohs(a4.sin_port);
		return 4;
	}
	if (s->ss_family == AF_INET6) {
		memcpy(&a6, s, sizeof(a6));
		memcpy(ip, &a6.sin6_addr, 16);
		*port = ntohs(a6.sin6_port);
		return 16;
	}
	return 0;
}

static int sa_port(const struct sockaddr_storage *s)
{
	unsigned char ip[16];
	int port;

	sa_ip(s, ip, &port);
	return port;
}

static int sa_same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	unsigned char x[16], y[16];
	int px, py, n = sa_ip(a, x, &px);

	return n && a->ss_family == b->ss_family && sa_ip(b, y, &py) == n && !memcmp(x, y, 16);
}

static int sa_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	return sa_same_ip(a, b) && sa_port(a) == sa_port(b);
}

/* no address, or the wildcard with port 0 (a listener's "destination") */
static int sa_unset(const struct sockaddr_storage *s)
{
	static const unsigned char zero[16];
	unsigned char ip[16];
	int port;

	return !sa_ip(s, ip, &port) || (!memcmp(ip, zero, 16) && !port);
}

static int kernel_thread(const char *comm)
{
	return !comm[0] || !strncmp(comm, "kworker", 7) || !strncmp(comm, "ksoftirqd", 9) ||
	       !strncmp(comm, "swapper", 7);
}

static struct slot *slot_new(struct rdiag_trace_conns *cs)
{
	size_t i;
	struct slot *s;

	for (i = 0; i < cs->nslots; i++)
		if (!cs->slots[i].used)
			break;
	if (i == cs->nslots) {
		size_t n = cs->nslots ? cs->nslots * 2 : 16;

		if (n > 65536)
			return NULL;	/* a flood of never-destroyed ids: stop tracking more */
		s = realloc(cs->slots, n * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + cs->nslots, 0, (n - cs->nslots) * sizeof(*s));
		cs->slots = s;
		cs->nslots = n;
	}
	s = &cs->slots[i];
	memset(s, 0, sizeof(*s));
	s->used = 1;
	return s;
}

static struct slot *slot_find(struct rdiag_trace_conns *cs, const struct rdiag_trace_event *ev)
{
	size_t i;

	for (i = 0; i < cs->nslots; i++) {
		struct slot *s = &cs->slots[i];

		if (s->used && s->c.cm_id == ev->cm_id && sa_same(&s->c.src, &ev->src) &&
		    sa_same(&s->c.dst, &ev->dst))
			return s;
	}
	return NULL;
}

static void step(struct rdiag_trace_conn *c, uint64_t ts, const char *what, int cm_event,
		 int status)
{
	struct rdiag_trace_step *st;

	if (c->nsteps >= RDIAG_TRACE_MAX_STEPS) {
		c->steps_lost++;
		return;
	}
	st = &c->steps[c->nsteps++];
	st->ts_ns = ts;
	snprintf(st->what, sizeof(st->what), "%s", what);
	st->cm_event = cm_event;
	st->status = status;
}

/* the start of /proc/PID/WHAT into buf (NUL-terminated); false when it cannot be read */
static bool proc_read(int pid, const char *what, char *buf, size_t len)
{
	char path[48];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

/* the process (thread group) of thread tid and its command, from /proc while it lives;
 * 0 when it is gone or cannot be read */
static int thread_group(int tid, char *comm, size_t len)
{
	char buf[512], *p;
	int tgid = 0;

	if (!proc_read(tid, "status", buf, sizeof(buf)) || !(p = strstr(buf, "\nTgid:")) ||
	    sscanf(p + 6, "%d", &tgid) != 1 || tgid <= 0 || !proc_read(tgid, "comm", buf, sizeof(buf)))
		return 0;
	buf[strcspn(buf, "\n")] = 0;
	snprintf(comm, len, "%.15s", buf);
	return tgid;
}

/* the event's pid is ftrace's common_pid, a thread's id: live, the connection is named by
 * its thread group (the process a shell or ps shows: rping's cm thread is rping's pid) and
 * that process's command; from a saved trace, or once the thread is gone, by the thread */
static void take_process(const struct rdiag_trace_conns *cs, struct rdiag_trace_conn *c,
			 int pid, const char *comm)
{
	char pcomm[16];
	int tgid;

	if (c->pid || pid <= 0 || kernel_thread(comm))
		return;
	c->pid = pid;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	if (cs->live && (tgid = thread_group(pid, pcomm, sizeof(pcomm))) > 0) {
		c->pid = tgid;
		snprintf(c->comm, sizeof(c->comm), "%s", pcomm);
	}
}

/* the cm_id_attach kept aside for a connection: the passive side's has both addresses, the
 * active side's the source address (port 0 or the bound one) and no destination when the
 * application bound it (rdma_bind_addr, or rdma_resolve_addr with a source); a client that
 * bound no source address is attached at address resolution (addr_handler, in a kworker,
 * just before ADDR_RESOLVED), with both of the connection's addresses.  Several
 * applications may resolve from the same source at once: an attach with the connection's
 * destination is taken first, then the attach of the thread that made the connection's
 * first process-context event (pid_hint), then the latest. */
static int score(const struct attach *a, const struct rdiag_trace_conn *c, int pid_hint)
{
	/* an attach at address resolution names this very connection (both its addresses):
	 * it goes before another thread's bound attach from the same address */
	return (pid_hint > 0 && a->pid == pid_hint) +
	       2 * (!c->passive && !sa_unset(&a->dst) && sa_same(&a->dst, &c->dst));
}

static void join_attach(struct rdiag_trace_conns *cs, struct slot *s, int pid_hint)
{
	struct rdiag_trace_conn *c = &s->c;
	struct attach *best = NULL;
	size_t i;

	if (s->joined)
		return;
	for (i = 0; i < MAX_ATTACH; i++) {
		struct attach *a = &cs->attaches[i];

		if (!a->used || a->ts > c->start_ns || c->start_ns - a->ts > ATTACH_MAX_AGE_NS)
			continue;
		if (c->passive ? !(sa_same(&a->src, &c->src) && sa_same(&a->dst, &c->dst)) :
		    !((sa_same_ip(&a->src, &c->src) && (!sa_port(&a->src) || sa_same(&a->src, &c->src)) &&
		       sa_unset(&a->dst)) ||
		      (sa_same(&a->src, &c->src) && sa_same(&a->dst, &c->dst))))
			continue;
		if (!best || score(a, c, pid_hint) > score(best, c, pid_hint) ||
		    (score(a, c, pid_hint) == score(best, c, pid_hint) && a->ts > best->ts))
			best = a;
	}
	if (!best)
		return;
	s->joined = 1;
	/* the connection began there: rdma_resolve_addr (or the bind) ran in that thread */
	if (!c->passive && best->ts < c->start_ns) {
		char what[48];
		size_t n = c->nsteps < RDIAG_TRACE_MAX_STEPS ? c->nsteps : RDIAG_TRACE_MAX_STEPS - 1;

		if (c->nsteps == RDIAG_TRACE_MAX_STEPS)
			c->steps_lost++;
		memmove(&c->steps[1], &c->steps[0], n * sizeof(c->steps[0]));
		c->nsteps = n + 1;
		c->start_ns = best->ts;
		snprintf(what, sizeof(what), "attached to %.30s", best->device);
		memset(&c->steps[0], 0, sizeof(c->steps[0]));
		c->steps[0].ts_ns = best->ts;
		snprintf(c->steps[0].what, sizeof(c->steps[0].what), "%s", what);
		c->steps[0].cm_event = -1;
	}
	snprintf(c->device, sizeof(c->device), "%s", best->device);
	take_process(cs, c, best->pid, best->comm);
	best->used = 0;
}

static void fmt_addr(const struct sockaddr_storage *s, char *buf, size_t len)
{
	char txt[INET6_ADDRSTRLEN] = "?";
	unsigned char ip[16];
	int port, n = sa_ip(s, ip, &port);

	if (n)
		inet_ntop(n == 4 ? AF_INET : AF_INET6, ip, txt, sizeof(txt));
	snprintf(buf, len, "%s port %d", txt, port);
}

/* the removal of c's device that its application's disconnect followed (within
 * REMOVAL_JOIN_NS): an application that saw DEVICE_REMOVAL on another of its ids (its
 * listener, say) and disconnected this one before the kernel came to it; NULL none */
static const struct removal *removal_before_disconnect(const struct rdiag_trace_conns *cs,
						       const struct rdiag_trace_conn *c,
						       uint64_t *disc)
{
	const struct removal *best = NULL;
	size_t i;

	*disc = 0;
	for (i = 0; i < c->nsteps; i++)
		if (!strcmp(c->steps[i].what, "disconnect")) {
			*disc = c->steps[i].ts_ns;
			break;
		}
	if (!*disc || !c->device[0])
		return NULL;
	for (i = 0; i < MAX_REMOVALS; i++) {
		const struct removal *r = &cs->removals[i];

		if (r->used && !strcmp(r->device, c->device) && r->ts <= *disc &&
		    *disc - r->ts <= REMOVAL_JOIN_NS && r->ts >= c->start_ns &&
		    (!best || r->ts > best->ts))
			best = r;
	}
	return best;
}

/* what the steps of c show, for rdiag_cause_decide() (rdmadoctor's evidence is the same
 * struct, filled from its attempt and checks) */
static void evidence(const struct rdiag_trace_conn *c, const struct slot *s, bool ended,
		     struct rdiag_cause_evidence *e)
{
	memset(e, 0, sizeof(*e));
	e->event = c->fail_event;
	e->status = c->fail_status;
	e->passive = c->passive;
	e->req_sent = c->req_sent > 0;
	e->rej_sent = s->rej_sent;
	e->established = c->outcome == RDIAG_TRACE_ESTABLISHED;
	e->disconnected = s->disconnected;
	e->ud = s->sidr;
	e->destroyed = ended;
	e->open = !ended && c->outcome == RDIAG_TRACE_OPEN;
	e->route = (enum rdiag_cause_route)s->route;
}

static double step_ms(const struct rdiag_trace_conn *c, int cm_event, double dflt)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].cm_event == cm_event)
			return (double)(c->steps[i].ts_ns - c->start_ns) / 1e6;
	return dflt;
}

static void verdict(const struct rdiag_trace_conns *cs, struct rdiag_trace_conn *c,
		    const struct slot *s, uint64_t end, bool ended)
{
	char dst[80], stx[96];
	double ms = (double)(end - c->start_ns) / 1e6;
	const struct rdiag_cause *k;
	struct rdiag_cause_evidence e;
	int ev = c->fail_event, st = c->fail_status;

	fmt_addr(&c->dst, dst, sizeof(dst));
	c->end_ns = end;
	if (c->fail_event >= 0)
		c->outcome = RDIAG_TRACE_FAILED;
	evidence(c, s, ended, &e);
	c->cause = rdiag_cause_decide(&e);
	k = rdiag_cause_find(c->cause);
	if (!strcmp(c->cause, "ud_answered")) {
		snprintf(c->verdict, sizeof(c->verdict),
			 "UD service: answered the SIDR REQ of %s (SIDR REP sent); whether it accepted or rejected it, no tracepoint tells (rdma_accept and rdma_reject both send it): the other end's trace has the status",
			 dst);
		return;
	}
	if (!strcmp(c->cause, "ok")) {
		const struct removal *r;
		uint64_t disc;

		r = removal_before_disconnect(cs, c, &disc);
		if (r)
			snprintf(c->verdict, sizeof(c->verdict),
				 "established with %s, then disconnected by its application %.1f ms after its RDMA device %s began to be removed (by %.15s, pid %d)",
				 dst, (double)(disc - r->ts) / 1e6, c->device, r->comm, r->pid);
		else
			snprintf(c->verdict, sizeof(c->verdict), "established with %s", dst);
		return;
	}
	if (!strcmp(c->cause, "ended_without_disconnect")) {
		snprintf(c->verdict, sizeof(c->verdict),
			 "established with %s, then destroyed without a disconnect: %s (after %.1f ms)",
			 dst, s->proc_ended > 0 ? "the process ended" : s->proc_ended == 0 ?
			 "its application destroyed the id while connected (no rdma_disconnect)" :
			 "the process ended or destroyed the id while connected (no rdma_disconnect)",
			 ms);
		return;
	}
	if (!strcmp(c->cause, "rejected_here")) {
		c->outcome = RDIAG_TRACE_FAILED;
		if (s->rej_reason > 0)
			rdiag_cm_status_str(EV_REJECTED, s->rej_reason, stx, sizeof(stx));
		snprintf(c->verdict, sizeof(c->verdict),
			 "this application rejected the connection request of %s (rdma_reject: REJ sent%s%s after %.1f ms)",
			 dst, s->rej_reason > 0 ? " with " : "", s->rej_reason > 0 ? stx : "", ms);
		return;
	}
	if (ev >= 0) {
		const char *n = rdiag_cm_event_name(ev);

		ms = step_ms(c, ev, ms);
		rdiag_cm_status_str(ev, st, stx, sizeof(stx));
		if (ev == EV_DEVICE_REMOVAL && s->removed_established) {
			char by[48] = "";

			if (s->removal_pid)
				snprintf(by, sizeof(by), " (by %.15s, pid %d)", s->removal_comm,
					 s->removal_pid);
			snprintf(c->verdict, sizeof(c->verdict),
				 "established with %s, then DEVICE_REMOVAL after %.1f ms: its RDMA device %s was removed%s",
				 dst, ms, c->device[0] ? c->device : "(unknown)", by);
		} else if (!strcmp(c->cause, "no_listener") && ev == EV_REJECTED)
			snprintf(c->verdict, sizeof(c->verdict),
				 "REJECTED, %s: nothing listens on %s%s", stx, dst,
				 c->peer_no_listener ? " (its CM reported icm_no_listener_err here)" : "");
		else if (!strcmp(c->cause, "no_listener"))
			snprintf(c->verdict, sizeof(c->verdict),
				 "UNREACHABLE, %s, %.1f ms after the SIDR REQ: nothing listens on %s in the UDP port space",
				 stx, ms, dst);
		else if (!strcmp(c->cause, "no_route") && st == -ETIMEDOUT)
			snprintf(c->verdict, sizeof(c->verdict),
				 "%s %s after %.1f ms: no route to %s in the routing table (bound to its netdev the kernel assumed it on-link and its ARP went unanswered)",
				 n ? n : "event", stx, ms, dst);
		else
			snprintf(c->verdict, sizeof(c->verdict), "%s %s after %.1f ms: %s",
				 n ? n : "event", stx, ms, k ? k->meaning : c->cause);
		return;
	}
	c->outcome = RDIAG_TRACE_FAILED;
	if (!strcmp(c->cause, "cm_no_response")) {
		snprintf(c->verdict, sizeof(c->verdict),
			 "REQ to %s sent %u time%s (%u resend%s), no REP or REJ in %.1f ms, then the application gave up: the peer does not answer at the CM level",
			 dst, c->req_sent + c->req_resent, c->req_sent + c->req_resent == 1 ? "" : "s",
			 c->req_resent, c->req_resent == 1 ? "" : "s", ms);
		return;
	}
	snprintf(c->verdict, sizeof(c->verdict),
		 "the application destroyed the id after %.1f ms, before %s", ms,
		 c->passive ? "the connection was established" :
		 c->req_sent ? "the connection was established" : "a REQ was sent");
}

/* 1 when process pid has ended or is ending (gone, a zombie, or PF_EXITING in its flags:
 * /proc/PID/stat's ninth field), 0 when it runs, -1 unknown */
static int proc_ended(int pid)
{
	char path[64], buf[512], state;
	unsigned long flags;
	const char *p;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? 1 : -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 && errno == ESRCH ? 1 : -1;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
		return -1;
	return state == 'Z' || state == 'X' || (flags & 0x4 /* PF_EXITING */) ? 1 : 0;
}

static void finish(struct rdiag_trace_conns *cs, struct slot *s, uint64_t ts,
		   rdiag_trace_conn_cb cb, void *arg)
{
	join_attach(cs, s, 0);
	s->proc_ended = cs->live && s->c.outcome == RDIAG_TRACE_ESTABLISHED && !s->disconnected ?
			proc_ended(s->c.pid) : -1;
	verdict(cs, &s->c, s, ts, true);
	if (cb)
		cb(&s->c, arg);
	if (cs->req_valid && &cs->slots[cs->req_slot] == s)
		cs->req_valid = 0;
	if (cs->rej_valid && &cs->slots[cs->rej_slot] == s)
		cs->rej_valid = 0;
	if (cs->rep_valid && &cs->slots[cs->rep_slot] == s)
		cs->rep_valid = 0;
	s->used = 0;
}

static struct slot *slot_by_ib_id(struct rdiag_trace_conns *cs, uint32_t id)
{
	size_t i;

	if (!id)
		return NULL;
	for (i = 0; i < cs->nslots; i++)
		if (cs->slots[i].used && cs->slots[i].c.ib_local_id == id)
			return &cs->slots[i];
	return NULL;
}

static void on_ib(struct rdiag_trace_conns *cs, const struct rdiag_trace_event *ev)
{
	struct slot *s;

	if (!strcmp(ev->system, "ib_cma") && ev->has_ib_ids) {
		if (!strcmp(ev->name, "icm_send_req") && cs->req_valid && cs->req_pid == ev->pid &&
		    ev->ts_ns - cs->req_ts < REQ_JOIN_NS) {
			cs->slots[cs->req_slot].c.ib_local_id = ev->local_id;
			cs->req_valid = 0;
		} else if (!strcmp(ev->name, "icm_send_rej") && cs->rej_valid &&
			   cs->rej_pid == ev->pid && ev->ts_ns - cs->rej_ts < REQ_JOIN_NS) {
			s = &cs->slots[cs->rej_slot];
			s->rej_reason = ev->rej_reason;
			if (!s->c.ib_local_id)
				s->c.ib_local_id = ev->local_id;
			cs->rej_valid = 0;
		} else if (!strcmp(ev->name, "icm_send_rep") && cs->rep_valid &&
			   cs->rep_pid == ev->pid && ev->ts_ns - cs->rep_ts < REQ_JOIN_NS) {
			s = &cs->slots[cs->rep_slot];
			if (!s->c.ib_local_id)
				s->c.ib_local_id = ev->local_id;
			cs->rep_valid = 0;
		} else if ((!strcmp(ev->name, "icm_send_mra") ||
			    (!strcmp(ev->name, "icm_send_dup_req") && ev->ib_state == IB_MRA_REQ_SENT) ||
			    (!strcmp(ev->name, "icm_send_dup_rep") && ev->ib_state == IB_MRA_REP_SENT)) &&
			   (s = slot_by_ib_id(cs, ev->local_id))) {
			/* the armed MRA went out: not deferred, or for a duplicate */
			step(&s->c, ev->ts_ns, "MRA sent", -1, 0);
		} else if (!strcmp(ev->name, "icm_no_listener_err") &&
			   (s = slot_by_ib_id(cs, ev->remote_id))) {
			s->c.peer_no_listener = true;
		}
		return;
	}
	/* a resend of a REQ: the same transaction, fewer retries left than it started with */
	if (!strcmp(ev->name, "ib_mad_ib_send_mad") && ev->has_mad && ev->mgmt_class == RDIAG_MAD_CLASS_CM &&
	    ev->attr_id == RDIAG_CM_REQ && ev->retries_left >= 0 && ev->retries_left < ev->max_retries) {
		s = slot_by_ib_id(cs, (uint32_t)(ev->tid >> 32));
		if (!s)
			s = slot_by_ib_id(cs, (uint32_t)ev->tid);
		if (s && !s->answered) {
			s->c.req_resent++;
			step(&s->c, ev->ts_ns, "REQ resent", -1, ev->max_retries - ev->retries_left);
		}
	}
}

static const char *const sent_steps[][2] = {
	{ "cm_send_req", "REQ sent" }, { "cm_send_rep", "REP sent" },
	{ "cm_send_rtu", "RTU sent" }, { "cm_send_rej", "REJ sent" },
	{ "cm_send_mra", "MRA armed" }, { "cm_disconnect", "disconnect" },
	{ "cm_send_sidr_req", "SIDR REQ sent" }, { "cm_send_sidr_rep", "SIDR REP sent" },
	{ "cm_sent_dreq", "DREQ sent" }, { "cm_sent_drep", "DREP sent" },
	{ "cm_id_destroy", "destroyed" },
};

int rdiag_trace_conns_add(struct rdiag_trace_conns *cs, const struct rdiag_trace_event *ev,
			  rdiag_trace_conn_cb cb, void *arg)
{
	struct slot *s;
	size_t i;

	if (!cs || !ev)
		return -EINVAL;
	if (strcmp(ev->system, "rdma_cma")) {
		on_ib(cs, ev);
		return 0;
	}
	if (!strcmp(ev->name, "cm_remove_one") && ev->device[0]) {
		struct removal *r = &cs->removals[cs->next_removal++ % MAX_REMOVALS];

		r->used = 1;
		r->pid = ev->pid;
		snprintf(r->comm, sizeof(r->comm), "%s", ev->comm);
		snprintf(r->device, sizeof(r->device), "%s", ev->device);
		r->ts = ev->ts_ns;
		return 0;
	}
	if (!strcmp(ev->name, "cm_id_attach")) {
		struct attach *a = &cs->attaches[cs->next_attach++ % MAX_ATTACH];

		a->used = 1;
		a->pid = ev->pid;
		snprintf(a->comm, sizeof(a->comm), "%s", ev->comm);
		snprintf(a->device, sizeof(a->device), "%s", ev->device);
		a->src = ev->src;
		a->dst = ev->dst;
		a->ts = ev->ts_ns;
		return 0;
	}
	/* an id never bound (no address) or a listener (no destination) is no connection */
	if (!ev->has_cm_id || !ev->has_addrs || ev->src.ss_family == AF_UNSPEC ||
	    sa_unset(&ev->dst))
		return 0;
	if (!strcmp(ev->name, "cm_event_done") && !(ev->has_status && ev->status))
		return 0;
	s = slot_find(cs, ev);
	if (!s) {
		if (!strcmp(ev->name, "cm_id_destroy") || !strcmp(ev->name, "cm_event_done"))
			return 0;	/* begun before the trace */
		s = slot_new(cs);
		if (!s) {
			snprintf(cs->err, sizeof(cs->err), "no room for another connection: %s",
				 strerror(ENOMEM));
			return -ENOMEM;
		}
		s->c.cm_id = ev->cm_id;
		s->c.src = ev->src;
		s->c.dst = ev->dst;
		s->c.tos = ev->tos;
		s->c.start_ns = ev->ts_ns;
		s->c.fail_event = -1;
		s->c.outcome = RDIAG_TRACE_OPEN;
		s->rej_reason = -1;
		s->proc_ended = -1;
		s->c.passive = ev->cm_event == EV_CONNECT_REQUEST &&
			       !strcmp(ev->name, "cm_event_handler");
		if (s->c.passive)
			join_attach(cs, s, 0);
	}
	/* DEVICE_REMOVAL runs in the thread removing the device (rdma link delete's,
	 * modprobe -r's), not in the application's */
	if (strcmp(ev->name, "cm_event_handler") || ev->cm_event != EV_DEVICE_REMOVAL)
		take_process(cs, &s->c, ev->pid, ev->comm);
	/* the first event in the application's thread says whose cm_id_attach it was */
	if (s->c.pid)
		join_attach(cs, s, s->c.pid);
	if (ev->tos >= 0)
		s->c.tos = ev->tos;
	if (!strcmp(ev->name, "cm_event_handler") && ev->cm_event >= 0) {
		const char *n = rdiag_cm_event_name(ev->cm_event);
		char what[48];

		snprintf(what, sizeof(what), "%s", n ? n : "EVENT");
		step(&s->c, ev->ts_ns, what, ev->cm_event, ev->status);
		if (ev->cm_event == EV_DISCONNECTED)
			s->disconnected = 1;
		/* the evidence rdmadoctor's route check has: is there a route at all?  (only
		 * for this host's events, as they come) */
		if (ev->cm_event == EV_ADDR_ERROR && cs->live && s->c.fail_event < 0) {
			unsigned char a[16], b[16];
			int port, len = sa_ip(&s->c.dst, b, &port);

			if (len && sa_ip(&s->c.src, a, &port) == len)
				s->route = rd_trace_route(len == 4 ? AF_INET : AF_INET6, a, b);
		}
		if (ev->cm_event == EV_ESTABLISHED && s->c.fail_event < 0)
			s->c.outcome = RDIAG_TRACE_ESTABLISHED;
		if (ev->cm_event == EV_CONNECT_RESPONSE || ev->cm_event == EV_ESTABLISHED)
			s->answered = 1;
		if (rdiag_cm_event_is_error(ev->cm_event)) {
			s->answered = 1;
			/* an error after ESTABLISHED is the connection's own business (a peer's
			 * DREQ is no error), except its device going away under it */
			if (ev->cm_event == EV_DEVICE_REMOVAL && s->c.fail_event < 0 &&
			    s->c.outcome == RDIAG_TRACE_ESTABLISHED) {
				s->removed_established = 1;
				s->c.outcome = RDIAG_TRACE_OPEN;
			}
			if (ev->cm_event == EV_DEVICE_REMOVAL && !kernel_thread(ev->comm)) {
				s->removal_pid = ev->pid;
				snprintf(s->removal_comm, sizeof(s->removal_comm), "%s", ev->comm);
			}
			if (s->c.fail_event < 0 && s->c.outcome != RDIAG_TRACE_ESTABLISHED) {
				s->c.fail_event = ev->cm_event;
				s->c.fail_status = ev->status;
				s->c.outcome = RDIAG_TRACE_FAILED;
			}
		}
		return 0;
	}
	if (!strcmp(ev->name, "cm_event_done")) {
		char what[48];

		snprintf(what, sizeof(what), "consumer returned %d", ev->status);
		step(&s->c, ev->ts_ns, what, ev->cm_event, ev->status);
		return 0;
	}
	for (i = 0; i < sizeof(sent_steps) / sizeof(sent_steps[0]); i++)
		if (!strcmp(ev->name, sent_steps[i][0])) {
			step(&s->c, ev->ts_ns, sent_steps[i][1], -1, 0);
			break;
		}
	/* the active side's RTU: rdma_cm reports no ESTABLISHED to an id whose QP the
	 * application moves itself (CONNECT_RESPONSE, then rdma_establish/accept) */
	if (!strcmp(ev->name, "cm_send_rtu") && s->c.fail_event < 0)
		s->c.outcome = RDIAG_TRACE_ESTABLISHED;
	if (!strcmp(ev->name, "cm_disconnect"))
		s->disconnected = 1;
	if (!strcmp(ev->name, "cm_send_rej") && s->c.passive) {
		s->rej_sent = 1;
		cs->rej_valid = 1;
		cs->rej_pid = ev->pid;
		cs->rej_slot = (size_t)(s - cs->slots);
		cs->rej_ts = ev->ts_ns;
	}
	if (!strcmp(ev->name, "cm_send_rep")) {
		cs->rep_valid = 1;
		cs->rep_pid = ev->pid;
		cs->rep_slot = (size_t)(s - cs->slots);
		cs->rep_ts = ev->ts_ns;
	}
	if (!strcmp(ev->name, "cm_send_sidr_req") || !strcmp(ev->name, "cm_send_sidr_rep"))
		s->sidr = 1;
	if (!strcmp(ev->name, "cm_send_sidr_req"))
		s->c.req_sent++;
	/* a UD service answered, accepting or rejecting (the REP's status is in no
	 * tracepoint): no event follows on the passive side */
	if (!strcmp(ev->name, "cm_send_sidr_rep") && s->c.passive && s->c.fail_event < 0) {
		s->sidr_rep_sent = 1;
		s->answered = 1;
		s->c.outcome = RDIAG_TRACE_ANSWERED;
	}
	if (!strcmp(ev->name, "cm_send_req")) {
		s->c.req_sent++;
		cs->req_valid = 1;
		cs->req_pid = ev->pid;
		cs->req_slot = (size_t)(s - cs->slots);
		cs->req_ts = ev->ts_ns;
	}
	if (!strcmp(ev->name, "cm_id_destroy"))
		finish(cs, s, ev->ts_ns, cb, arg);
	return 0;
}

void rdiag_trace_conns_flush(struct rdiag_trace_conns *cs, uint64_t now_ns,
			     rdiag_trace_conn_cb cb, void *arg)
{
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->nslots; i++) {
		struct slot *s = &cs->slots[i];

		if (!s->used)
			continue;
		join_attach(cs, s, 0);
		if (s->c.outcome == RDIAG_TRACE_OPEN && !s->rej_sent) {
			char dst[80];

			fmt_addr(&s->c.dst, dst, sizeof(dst));
			s->c.end_ns = now_ns > s->c.start_ns ? now_ns : s->c.start_ns;
			s->c.cause = "incomplete";
			snprintf(s->c.verdict, sizeof(s->c.verdict),
				 "still in progress with %s when the trace ended%s", dst,
				 s->c.req_sent && !s->answered ? " (REQ sent, no answer yet)" : "");
			if (cb)
				cb(&s->c, arg);
		} else {
			verdict(cs, &s->c, s, now_ns > s->c.start_ns ? now_ns : s->c.start_ns,
				false);
			if (cb)
				cb(&s->c, arg);
		}
		s->used = 0;
	}
	cs->req_valid = cs->rej_valid = cs->rep_valid = 0;
}

size_t rdiag_trace_conns_unattributed(const struct rdiag_trace_conns *cs)
{
	size_t i, n = 0;

	for (i = 0; cs && i < cs->nslots; i++)
		n += cs->slots[i].used && !cs->slots[i].c.pid;
	return n;
}

void rdiag_trace_conns_attribute(struct rdiag_trace_conns *cs, const struct sockaddr *src,
				 const struct sockaddr *dst, int pid, const char *comm)
{
	struct sockaddr_storage a, b;
	size_t i;

	if (!cs || !src || !dst || pid <= 0)
		return;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memcpy(&a, src, src->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	memcpy(&b, dst, dst->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	for (i = 0; i < cs->nslots; i++) {
		struct slot *s = &cs->slots[i];

		if (s->used && !s->c.pid && sa_same(&s->c.src, &a) && sa_same(&s->c.dst, &b))
			take_process(cs, &s->c, pid, comm ? comm : "");
	}
}
