/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace: what real applications' rdma_cm connections went through, read passively from
 * the kernel's rdma_cma/ib_cma/ib_mad tracepoints (librdmadiag's trace module,
 * rdmadiag/trace.h): one line per event as it happens, or with -c one line per connection
 * when it ends, with its steps and a verdict whose cause id rdmadoctor shares
 * (rdmadiag/cause.h); a summary by outcome, cause and destination on exit. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "common/clock.h"
#include "common/cmd.h"
#include "common/esc.h"
#include "common/interval.h"
#include "common/out.h"
#include "common/timefmt.h"
#include "common/tool.h"
#include "rdmadiag/cause.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/resources.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/selftest.h"
#include "rdmadiag/trace.h"
#include "cmds.h"

enum { OPT_VERSION = 256, OPT_FAILED, OPT_PID, OPT_COMM, OPT_DST, OPT_DURATION, OPT_INPUT,
	OPT_TRACEFS };

static struct {
	bool conns, failed, all, list, json;
	int pid;			/* 0: any */
	const char *comm;
	bool has_dst, dst_port_set;
	struct sockaddr_storage dst;
	int dst_port;
	double duration;		/* 0: until interrupted */
	uint64_t count;			/* 0: no limit */
	const char *input, *tracefs;
} opts;

static volatile sig_atomic_t stop_requested;
static struct out *output;
static struct rdiag_trace *trace;
static struct rdiag_trace_conns *conns;
static uint64_t printed;
static int64_t mono_to_real_ns;		/* live: wall clock = trace clock (mono) + this */

/* one destination of the summary: where the connections went, seen from this host.  An
 * active end's is its destination; a passive end's the local address it listens on (its
 * source), not the client's ephemeral port, which differs for every connection */
struct dst_sum {
	char dst[64];
	bool passive;
	unsigned int n[4];		/* by enum rdiag_trace_outcome */
	const char *causes[16];
	unsigned int cause_n[16];
	size_t ncauses;
};
static struct dst_sum *sums;
static size_t nsums;
static unsigned int total[4];
static const char *all_causes[32];
static unsigned int all_cause_n[32];
static size_t nall_causes;

static void usage(void)
{
	printf("Usage: rdmatrace [OPTION]...\n"
	       "Trace the rdma_cm connections of every process on this host, passively, from the\n"
	       "kernel's rdma_cma, ib_cma and ib_mad tracepoints (a private ftrace instance).\n"
	       "Default: one line per rdma_cm event as it happens; a summary on exit.\n"
	       "\n"
	       "  -c, --connections        one line per connection when it ends: steps, outcome,\n"
	       "                           verdict with a cause id shared with rdmadoctor\n"
	       "      --failed             only failures (failed connections; error events)\n"
	       "      --pid PID            only this process\n"
	       "      --comm NAME          only processes with this name\n"
	       "      --dst ADDR[:PORT]    only connections to this address (and port)\n"
	       "      --duration SECONDS   stop after SECONDS (default: until interrupted)\n"
	       "  -n, --count COUNT        stop after COUNT lines (events, or connections with -c)\n"
	       "  -a, --all                events: the ib_mad records too\n"
	       "  -l, --list               list the events this kernel has and exit\n"
	       "  -j, --json               JSON lines, each object with a \"type\" key\n"
	       "      --input DIR          decode a saved copy of tracefs instead of the live kernel\n"
	       "      --tracefs DIR        tracefs mount point (default: from /proc/mounts)\n"
	       "  -h, --help               this help\n"
	       "      --version            version\n"
	       "\n"
	       "Flight recorder: 'rdmatrace record --ring SIZE FILE' keeps events, connections,\n"
	       "counters, port states, GID and QP changes in a ring on disk; 'rdmatrace dump\n"
	       "FILE' prints it (see their --help):\n"
	       "      --ring SIZE          record: ring size, k or M suffix; FILE never grows\n"
	       "      --counters SECONDS   record: counter snapshot interval (default 1)\n"
	       "      --thresholds FILE    record: trigger on rdmastat threshold rules\n"
	       "      --pause-max FRAMES   record: trigger on pause frames above FRAMES/s (default 1000)\n"
	       "      --gid-scan SECONDS   record: full GID table look interval (default 60)\n"
	       "      --snapshots N        record: FILE.snap.N copies kept (default 8, 0 all)\n"
	       "      --since TIME         dump: from TIME (RFC 3339 in UTC, or epoch seconds)\n"
	       "      --until TIME         dump: up to TIME\n"
	       "      --around TIME        dump: within 30 seconds of TIME\n"
	       "\n"
	       "Exit status: 0 no failed connection seen, 1 a failed connection was seen, 2 usage\n"
	       "error or tracing unavailable (no tracefs, no rdma_cm events, no permission).\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void parse_dst(const char *arg)
{
	char host[80], *colon;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&opts.dst;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&opts.dst;
	const char *port = NULL;
	uint64_t p;

	if (strlen(arg) >= sizeof(host))
		tool_usage_error("invalid --dst '%s': ADDR or ADDR:PORT ([ADDR]:PORT for IPv6)", arg);
	snprintf(host, sizeof(host), "%s", arg);
	if (host[0] == '[') {
		char *end = strchr(host, ']');

		if (!end || (end[1] && end[1] != ':'))
			tool_usage_error("invalid --dst '%s': ADDR or ADDR:PORT ([ADDR]:PORT for IPv6)", arg);
		*end = 0;
		if (end[1] == ':')
			port = end + 2;
		memmove(host, host + 1, strlen(host));
	} else if ((colon = strchr(host, ':')) && !strchr(colon + 1, ':')) {
		*colon = 0;
		port = colon + 1;
	}
	memset(&opts.dst, 0, sizeof(opts.dst));
	if (inet_pton(AF_INET, host, &a4->sin_addr) == 1)
		opts.dst.ss_family = AF_INET;
	else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1)
		opts.dst.ss_family = AF_INET6;
	else
		tool_usage_error("invalid --dst '%s': ADDR or ADDR:PORT ([ADDR]:PORT for IPv6)", arg);
	if (port) {
		if (tool_parse_u64(port, 65535, &p) || !p)
			tool_usage_error("invalid port in --dst '%s': 1 to 65535", arg);
		opts.dst_port = (int)p;
		opts.dst_port_set = true;
	}
	opts.has_dst = true;
}

/* "198.18.0.2:7499", "[fe80::1]:7499"; "" when there is no address */
static const char *addr_str(const struct sockaddr_storage *s, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;

	buf[0] = 0;
	if (s->ss_family == AF_INET) {
		memcpy(&a4, s, sizeof(a4));
		inet_ntop(AF_INET, &a4.sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, ntohs(a4.sin_port));
	} else if (s->ss_family == AF_INET6) {
		memcpy(&a6, s, sizeof(a6));
		inet_ntop(AF_INET6, &a6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, ntohs(a6.sin6_port));
	}
	return buf;
}

static bool dst_matches(const struct sockaddr_storage *s)
{
	struct sockaddr_in a4, w4;
	struct sockaddr_in6 a6, w6;

	if (!opts.has_dst)
		return true;
	if (s->ss_family != opts.dst.ss_family)
		return false;
	if (s->ss_family == AF_INET) {
		memcpy(&a4, s, sizeof(a4));
		memcpy(&w4, &opts.dst, sizeof(w4));
		return a4.sin_addr.s_addr == w4.sin_addr.s_addr &&
		       (!opts.dst_port_set || ntohs(a4.sin_port) == opts.dst_port);
	}
	memcpy(&a6, s, sizeof(a6));
	memcpy(&w6, &opts.dst, sizeof(w6));
	return !memcmp(&a6.sin6_addr, &w6.sin6_addr, 16) &&
	       (!opts.dst_port_set || ntohs(a6.sin6_port) == opts.dst_port);
}

/* live: RFC 3339 of the wall clock; --input: seconds of the capture's trace clock */
static void put_time(const char *key, uint64_t ts_ns)
{
	char buf[48];
	int64_t r = (int64_t)ts_ns + mono_to_real_ns;

	if (opts.input) {
		if (!out_json(output))
			out_text(output, "%" PRIu64 ".%06" PRIu64, ts_ns / 1000000000u,
				 ts_ns % 1000000000u / 1000u);
		return;
	}
	if (r < 0)
		r = 0;
	tool_time_str(buf, sizeof(buf), (uint64_t)r / 1000000000u, (uint32_t)((uint64_t)r % 1000000000u));
	out_str(output, key, "%s", buf);
}

static void stop_on_count(void)
{
	printed++;
	if (opts.count && printed >= opts.count)
		stop_requested = 1;
}

/* --- events ------------------------------------------------------------------------ */
static bool event_is_failure(const struct rdiag_trace_event *ev)
{
	if (ev->cm_event >= 0 && rdiag_cm_event_is_error(ev->cm_event) &&
	    !strcmp(ev->name, "cm_event_handler"))
		return true;
	return strstr(ev->name, "_err") != NULL || !strcmp(ev->name, "icm_send_rej") ||
	       !strcmp(ev->name, "cm_send_rej");
}

static void print_event(const struct rdiag_trace_event *ev)
{
	char src[64], dst[64], stx[96];
	const char *cmev = ev->cm_event >= 0 ? rdiag_cm_event_name(ev->cm_event) : NULL;
	bool handler = !strcmp(ev->name, "cm_event_handler");

	out_obj_begin(output, NULL);
	out_str(output, "type", NULL, "event");
	put_time("time", ev->ts_ns);
	out_u64(output, "ts_ns", NULL, ev->ts_ns);
	out_i64(output, "cpu", NULL, ev->cpu);
	out_i64(output, "pid", " %" PRId64, ev->pid);
	out_str(output, "comm", "/%s", ev->comm[0] || out_json(output) ? ev->comm : "?");
	out_str(output, "system", NULL, ev->system);
	out_str(output, "event", NULL, ev->name);
	if (ev->has_cm_id)
		out_u64(output, "cm_id", " cm.id %" PRIu64, ev->cm_id);
	if (ev->has_addrs) {
		addr_str(&ev->src, src, sizeof(src));
		addr_str(&ev->dst, dst, sizeof(dst));
		if (src[0])
			out_str(output, "src", " %s", src);
		else if (!out_json(output))
			out_text(output, " -");
		if (dst[0])
			out_str(output, "dst", " -> %s", dst);
		else if (!out_json(output))
			out_text(output, " -> -");
	}
	if (ev->tos >= 0)
		out_i64(output, "tos", " tos %" PRId64, ev->tos);
	if (handler && cmev) {
		out_str(output, "cm_event", " %s", cmev);
		out_i64(output, "status", NULL, ev->status);
		rdiag_cm_status_str(ev->cm_event, ev->status, stx, sizeof(stx));
		out_str(output, "status_str", " status %s", stx);
		if (ev->cm_event == 8 && ev->status > 0)
			out_str(output, "reason_meaning", ": %s",
				rdiag_cm_rej_reason_meaning((unsigned int)ev->status));
	} else {
		if (!out_json(output))
			out_text(output, " %s:%s", ev->system, ev->name);
		if (cmev)
			out_str(output, "cm_event", " %s", cmev);
		if (ev->has_status)
			out_i64(output, "status", " status %" PRId64, ev->status);
		if (ev->device[0])
			out_str(output, "device", " device %s", ev->device);
		if (ev->has_ib_ids) {
			out_u64(output, "local_id", NULL, ev->local_id);
			out_u64(output, "remote_id", NULL, ev->remote_id);
		}
		if (ev->ib_state >= 0 && rdiag_trace_ib_cm_state_name(ev->ib_state))
			out_str(output, "ib_state", NULL, rdiag_trace_ib_cm_state_name(ev->ib_state));
		if (ev->rej_reason >= 0) {
			const char *rn = rdiag_cm_rej_reason_name((unsigned int)ev->rej_reason);

			out_i64(output, "reason", NULL, ev->rej_reason);
			if (rn)
				out_str(output, "reason_name", NULL, rn);
		}
		if (ev->wc_status >= 0) {
			const char *wn = rdiag_wc_status_name(ev->wc_status);

			out_i64(output, "wc_status", NULL, ev->wc_status);
			if (wn)
				out_str(output, "wc_status_name", " %s", wn);
		}
		if (ev->has_mad) {
			const char *an = ev->mgmt_class == RDIAG_MAD_CLASS_CM ? rdiag_trace_cm_attr_name(ev->attr_id) : NULL;

			out_u64(output, "mgmt_class", NULL, ev->mgmt_class);
			out_u64(output, "method", NULL, ev->method);
			out_u64(output, "attr_id", NULL, ev->attr_id);
			if (an)
				out_str(output, "attr", NULL, an);
			out_hex64(output, "tid", NULL, ev->tid);
			if (ev->retries_left >= 0)
				out_i64(output, "retries_left", NULL, ev->retries_left);
			if (ev->max_retries >= 0)
				out_i64(output, "max_retries", NULL, ev->max_retries);
		}
		/* the kernel's own rendering for what has no column of its own: all of it, or
		 * what follows the addresses and the ToS ("qp_num=17", "REQ_RECEIVED (1)") */
		if (out_json(output)) {
			out_str(output, "detail", NULL, ev->detail);
		} else if (!ev->has_cm_id) {
			out_text(output, " %s", tool_esc_tmp(ev->detail));
		} else {
			const char *tail = strstr(ev->detail, " tos=");

			tail = tail ? strchr(tail + 1, ' ') : NULL;
			if (tail && tail[1] && !cmev)
				out_text(output, " %s", tool_esc_tmp(tail + 1));
		}
	}
	out_obj_end(output);
	if (!out_json(output))
		out_text(output, "\n");
	stop_on_count();
}

static bool event_selected(const struct rdiag_trace_event *ev)
{
	if (!strcmp(ev->system, "ib_mad") && !opts.all)
		return false;
	if (!strcmp(ev->name, "cm_event_done") && !(ev->has_status && ev->status))
		return false;	/* the consumer's return: shown when it refused the event */
	if (opts.failed && !event_is_failure(ev))
		return false;
	if (opts.pid && ev->pid != opts.pid)
		return false;
	if (opts.comm && strcmp(ev->comm, opts.comm))
		return false;
	if (opts.has_dst && !(ev->has_addrs && dst_matches(&ev->dst)))
		return false;
	return true;
}

/* --- connections and the summary --------------------------------------------------- */
static void count_cause(const char **names, unsigned int *n, size_t *len, size_t cap,
			const char *cause)
{
	size_t i;

	for (i = 0; i < *len && strcmp(names[i], cause); i++)
		;
	if (i == *len) {
		if (*len == cap)
			return;
		names[(*len)++] = cause;
	}
	n[i]++;
}

static void summarize(const struct rdiag_trace_conn *c)
{
	char dst[64];
	struct dst_sum *s = NULL;
	size_t i;

	addr_str(c->passive ? &c->src : &c->dst, dst, sizeof(dst));
	for (i = 0; i < nsums; i++)
		if (sums[i].passive == c->passive && !strcmp(sums[i].dst, dst))
			s = &sums[i];
	if (!s) {
		struct dst_sum *n = nsums < 4096 ? realloc(sums, (nsums + 1) * sizeof(*sums)) : NULL;

		if (!n)
			return;
		sums = n;
		s = &sums[nsums++];
		memset(s, 0, sizeof(*s));
		snprintf(s->dst, sizeof(s->dst), "%s", dst);
		s->passive = c->passive;
	}
	s->n[c->outcome]++;
	total[c->outcome]++;
	count_cause(s->causes, s->cause_n, &s->ncauses, 16, c->cause);
	count_cause(all_causes, all_cause_n, &nall_causes, 32, c->cause);
}

static bool conn_selected(const struct rdiag_trace_conn *c)
{
	if (opts.failed && c->outcome != RDIAG_TRACE_FAILED)
		return false;
	if (opts.pid && c->pid != opts.pid)
		return false;
	if (opts.comm && strcmp(c->comm, opts.comm))
		return false;
	return dst_matches(&c->dst);
}

static void print_conn(const struct rdiag_trace_conn *c)
{
	const struct rdiag_cause *k = rdiag_cause_find(c->cause);
	char src[64], dst[64], stx[96];
	size_t i;

	addr_str(&c->src, src, sizeof(src));
	addr_str(&c->dst, dst, sizeof(dst));
	out_obj_begin(output, NULL);
	out_str(output, "type", NULL, "connection");
	put_time("time", c->start_ns);
	if (out_json(output) && !opts.input)
		put_time("end_time", c->end_ns);
	out_u64(output, "ts_ns", NULL, c->start_ns);
	if (c->pid)
		out_i64(output, "pid", " %" PRId64, c->pid);
	else if (!out_json(output))
		out_text(output, " ?");
	if (c->comm[0])
		out_str(output, "comm", "/%s", c->comm);
	out_u64(output, "cm_id", " cm.id %" PRIu64, c->cm_id);
	out_str(output, "src", " %s", src);
	out_str(output, "dst", " -> %s", dst);
	if (c->device[0])
		out_str(output, "device", " %s", c->device);
	if (c->tos >= 0)
		out_i64(output, "tos", " tos %" PRId64, c->tos);
	out_str(output, "side", " %s", c->passive ? "passive" : "active");
	out_str(output, "outcome", " %s", rdiag_trace_outcome_name(c->outcome));
	out_str(output, "cause", " cause=%s", c->cause);
	if (k) {
		out_str(output, "layer", NULL, k->layer);
		out_str(output, "meaning", NULL, k->meaning);
	}
	out_dbl(output, "duration_ms", " %.1f ms", (double)(c->end_ns - c->start_ns) / 1e6);
	out_u64(output, "req_sent", NULL, c->req_sent);
	out_u64(output, "req_resent", NULL, c->req_resent);
	if (c->fail_event >= 0) {
		const char *n = rdiag_cm_event_name(c->fail_event);

		out_str(output, "fail_event", NULL, n ? n : "?");
		out_i64(output, "fail_status", NULL, c->fail_status);
		rdiag_cm_status_str(c->fail_event, c->fail_status, stx, sizeof(stx));
		out_str(output, "fail_status_str", NULL, stx);
	}
	if (c->peer_no_listener)
		out_bool(output, "peer_no_listener", NULL, true);
	if (!out_json(output))
		out_text(output, "\n  steps:");
	out_arr_begin(output, "steps");
	for (i = 0; i < c->nsteps; i++) {
		const struct rdiag_trace_step *s = &c->steps[i];

		out_obj_begin(output, NULL);
		out_dbl(output, "ms", " +%.1f ms", (double)(s->ts_ns - c->start_ns) / 1e6);
		out_str(output, "what", " %s", s->what);
		if (s->cm_event >= 0 && rdiag_cm_event_is_error(s->cm_event)) {
			rdiag_cm_status_str(s->cm_event, s->status, stx, sizeof(stx));
			out_str(output, "status_str", " (%s)", stx);
		}
		out_obj_end(output);
		if (!out_json(output) && i + 1 < c->nsteps)
			out_text(output, ",");
	}
	out_arr_end(output);
	if (c->steps_lost)
		out_u64(output, "steps_lost", " (+%" PRIu64 " more)", c->steps_lost);
	out_str(output, "verdict", "\n  verdict: %s", c->verdict);
	out_obj_end(output);
	if (!out_json(output))
		out_text(output, "\n");
	stop_on_count();
}

static void on_conn(const struct rdiag_trace_conn *c, void *arg)
{
	(void)arg;
	if (!conn_selected(c))
		return;
	summarize(c);
	if (opts.conns && !(opts.count && printed >= opts.count))
		print_conn(c);
}

static int on_event(const struct rdiag_trace_event *ev, void *arg)
{
	(void)arg;
	if (!opts.conns && event_selected(ev) && !(opts.count && printed >= opts.count))
		print_event(ev);
	return rdiag_trace_conns_add(conns, ev, on_conn, NULL);
}

static void print_summary(uint64_t lost)
{
	unsigned int n = total[0] + total[1] + total[2] + total[3];
	size_t i, j;

	out_obj_begin(output, NULL);
	out_str(output, "type", NULL, "summary");
	out_u64(output, "connections", "summary: %" PRIu64 " connection(s)", n);
	out_u64(output, "established", ": %" PRIu64 " established", total[RDIAG_TRACE_ESTABLISHED]);
	out_u64(output, "failed", ", %" PRIu64 " failed", total[RDIAG_TRACE_FAILED]);
	out_u64(output, "open", ", %" PRIu64 " open", total[RDIAG_TRACE_OPEN]);
	/* a UD service's SIDR REP: neither established nor failed (cause ud_answered) */
	out_u64(output, "answered", total[RDIAG_TRACE_ANSWERED] ?
		", %" PRIu64 " answered (UD: accepted or rejected, untold)" : NULL,
		total[RDIAG_TRACE_ANSWERED]);
	if (lost)
		out_u64(output, "lost_buffers", " (%" PRIu64 " ring buffer page(s) overwritten: events were lost)", lost);
	out_obj_begin(output, "causes");
	for (i = 0; i < nall_causes; i++)
		out_u64(output, all_causes[i], NULL, all_cause_n[i]);
	out_obj_end(output);
	out_arr_begin(output, "destinations");
	for (i = 0; i < nsums; i++) {
		if (!out_json(output))
			out_text(output, "\n ");
		out_obj_begin(output, NULL);
		out_str(output, "dst", " %s", sums[i].dst);
		out_str(output, "side", sums[i].passive ? " (%s)" : NULL,
			sums[i].passive ? "passive" : "active");
		if (!out_json(output))
			out_text(output, ":");
		out_u64(output, "established", " %" PRIu64 " established", sums[i].n[RDIAG_TRACE_ESTABLISHED]);
		out_u64(output, "failed", ", %" PRIu64 " failed", sums[i].n[RDIAG_TRACE_FAILED]);
		out_u64(output, "open", ", %" PRIu64 " open", sums[i].n[RDIAG_TRACE_OPEN]);
		out_u64(output, "answered", sums[i].n[RDIAG_TRACE_ANSWERED] ?
			", %" PRIu64 " answered" : NULL, sums[i].n[RDIAG_TRACE_ANSWERED]);
		if (!out_json(output))
			out_text(output, " (");
		out_obj_begin(output, "causes");
		for (j = 0; j < sums[i].ncauses; j++) {
			if (!out_json(output) && j)
				out_text(output, ", ");
			out_u64(output, sums[i].causes[j], NULL, sums[i].cause_n[j]);
			if (!out_json(output))
				out_text(output, "%s %u", sums[i].causes[j], sums[i].cause_n[j]);
		}
		out_obj_end(output);
		if (!out_json(output))
			out_text(output, ")");
		out_obj_end(output);
	}
	out_arr_end(output);
	out_obj_end(output);
	if (!out_json(output))
		out_text(output, "\n");
}

/* --- setting up ---------------------------------------------------------------------- */
static void open_failed(int err, enum rdiag_trace_fail why)
{
	const char *dir = opts.tracefs ? opts.tracefs : "/sys/kernel/tracing";

	if (opts.input)
		tool_die("cannot read '%s': %s", opts.input,
			 why == RDIAG_TRACE_NO_EVENTS ? "no rdma_cma event formats under events/ (not a saved copy of tracefs)" :
			 strerror(-err));
	switch (why) {
	case RDIAG_TRACE_NO_TRACEFS:
		if (opts.tracefs)
			tool_die("no tracefs at '%s': %s", opts.tracefs, strerror(-err));
		tool_die("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	case RDIAG_TRACE_NO_PERMISSION:
		tool_die("cannot use tracefs at '%s': permission denied (run as root, or give this user's group access to tracefs: mount -o remount,gid=GROUP,mode=750 %s)",
			 dir, dir);
	case RDIAG_TRACE_NO_EVENTS:
		tool_die("no rdma_cma tracepoints in '%s/events': load rdma_cm (modprobe rdma_cm); the kernel needs CONFIG_INFINIBAND_ADDR_TRANS=y and CONFIG_TRACEPOINTS=y",
			 dir);
	case RDIAG_TRACE_FORMAT:
		tool_die("cannot parse the event formats in '%s/events': %s", dir, strerror(-err));
	default:
		tool_die("cannot set up the ftrace instance rdmadiag-%d: %s", (int)getpid(),
			 err == -EEXIST ? "it exists already" : strerror(-err));
	}
}

static void list_events(void)
{
	size_t i;

	for (i = 0; i < rdiag_trace_nevents(trace); i++) {
		out_obj_begin(output, NULL);
		out_str(output, "type", NULL, "tracepoint");
		out_str(output, "event", "%s", rdiag_trace_event_at(trace, i));
		out_bool(output, "present", NULL, true);
		out_obj_end(output);
		if (!out_json(output))
			out_text(output, "\n");
	}
	for (i = 0; i < rdiag_trace_nmissing(trace); i++) {
		out_obj_begin(output, NULL);
		out_str(output, "type", NULL, "tracepoint");
		out_str(output, "event", "%s", rdiag_trace_missing_at(trace, i));
		out_bool(output, "present", " (missing in this kernel)", false);
		out_obj_end(output);
		if (!out_json(output))
			out_text(output, "\n");
	}
}

static void set_clock_offset(void)
{
	mono_to_real_ns = tool_mono_to_real_ns();
}

/* connections whose events all ran in kernel threads (begun before the trace): the process
 * of the cm_id with the same addresses, from RES_CM_ID over RDMA netlink, at most twice a
 * second and only while such a connection is open */
static struct rdiag_counters *nl;

static void attribute_from_netlink(uint64_t now_ns)
{
	static uint64_t last_ns;
	static bool unavailable;
	struct rdiag_cm_id *ids = NULL;
	size_t n = 0, i;

	if (unavailable || !rdiag_trace_conns_unattributed(conns) || now_ns - last_ns < 500000000ull)
		return;
	last_ns = now_ns;
	if (!nl && rdiag_counters_open(&nl, NULL) < 0) {
		unavailable = true;
		return;
	}
	if (rdiag_counters_cm_ids(nl, NULL, &ids, &n) < 0)
		return;
	for (i = 0; i < n; i++)
		if (ids[i].has_src && ids[i].has_dst && ids[i].pid)
			rdiag_trace_conns_attribute(conns, (const struct sockaddr *)&ids[i].src,
						    (const struct sockaddr *)&ids[i].dst,
						    (int)ids[i].pid, ids[i].comm);
	free(ids);
}

static int run(void)
{
	struct timespec batch = { 0, 20 * 1000 * 1000 };
	uint64_t lost = 0, end = opts.duration > 0 ? tool_mono_ns() + (uint64_t)(opts.duration * 1e9) : 0;
	int err;

	if (opts.input) {
		err = rdiag_trace_read(trace, on_event, NULL, &lost);
		if (err < 0 && err != -ECANCELED)
			tool_err("cannot decode '%s': %s", opts.input, strerror(-err));
		rdiag_trace_conns_flush(conns, 0, on_conn, NULL);
		print_summary(lost);
		return err < 0 ? EXIT_USAGE : EXIT_OK;
	}
	while (!stop_requested) {
		err = rdiag_trace_read(trace, on_event, NULL, &lost);
		if (err < 0) {
			tool_err("cannot read the trace: %s", strerror(-err));
			break;
		}
		attribute_from_netlink(tool_mono_ns());
		out_flush(output);
		fflush(stdout);
		if (ferror(stdout))
			break;		/* a closed pipe: stop, and remove the instance */
		if (end && tool_mono_ns() >= end)
			break;
		if (!stop_requested) {
			/* asleep until the kernel records an event, the end of --duration, a
			 * signal, or (while a connection waits for its process) half a second */
			int ms = rdiag_trace_conns_unattributed(conns) ? 500 : -1;

			if (end) {
				uint64_t left = (end - tool_mono_ns()) / 1000000u + 1;

				if (ms < 0 || left < (uint64_t)ms)
					ms = (int)left;
			}
			if (rdiag_trace_wait(trace, ms) > 0 && !stop_requested)
				nanosleep(&batch, NULL);	/* let a burst gather */
		}
	}
	/* what the kernel recorded up to the stop */
	rdiag_trace_read(trace, on_event, NULL, &lost);
	rdiag_trace_conns_flush(conns, tool_mono_ns(), on_conn, NULL);
	print_summary(lost);
	return EXIT_OK;
}

/* rdmatrace without a subcommand: trace the connections live */
static int trace_live_main(int argc, char **argv, void *ctx)
{
	static const struct option lo[] = {
		{ "connections", no_argument, NULL, 'c' },
		{ "failed", no_argument, NULL, OPT_FAILED },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "dst", required_argument, NULL, OPT_DST },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "count", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "tracefs", required_argument, NULL, OPT_TRACEFS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct rdiag_trace_opts to = { .with_ib_mad = true };
	struct rdiag_trace_conns_opts co = { .live = false };
	enum rdiag_trace_fail why = RDIAG_TRACE_OK;
	struct sigaction sa;
	uint64_t v;
	int c, err, ret;

	memset(&opts, 0, sizeof(opts));
	while ((c = getopt_long(argc, argv, "cn:aljh", lo, NULL)) != -1) {
		switch (c) {
		case 'c': opts.conns = true; break;
		case OPT_FAILED: opts.failed = true; break;
		case OPT_PID:
			if (tool_parse_u64(optarg, 4194304, &v) || !v)
				tool_usage_error("invalid --pid '%s': a process id from 1 to 4194304", optarg);
			opts.pid = (int)v;
			break;
		case OPT_COMM:
			if (!*optarg || strlen(optarg) > 15)
				tool_usage_error("invalid --comm '%s': a process name of 1 to 15 bytes", optarg);
			opts.comm = optarg;
			break;
		case OPT_DST: parse_dst(optarg); break;
		case OPT_DURATION:
			if (tool_parse_double(optarg, 0.001, 86400 * 365, &opts.duration))
				tool_usage_error("invalid --duration '%s': seconds from 0.001", optarg);
			break;
		case 'n': opts.count = tool_count_arg(optarg); break;
		case 'a': opts.all = true; break;
		case 'l': opts.list = true; break;
		case 'j': opts.json = true; break;
		case OPT_INPUT: opts.input = optarg; break;
		case OPT_TRACEFS: opts.tracefs = optarg; break;
		case 'h': usage(); return EXIT_OK;
		case OPT_VERSION: tool_version(); return EXIT_OK;
		default:
			fprintf(stderr, "Try 'rdmatrace --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	if (opts.input && opts.tracefs)
		tool_usage_error("--input and --tracefs exclude each other");
	if (opts.input && opts.duration > 0)
		tool_usage_error("--duration applies to live tracing, not to --input");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the sleep returns early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe ends the loop, which removes the instance */

	to.tracefs = opts.tracefs;
	err = opts.input ? rdiag_trace_open_dir(&trace, opts.input, &why) :
			   rdiag_trace_open(&trace, &to, &why);
	if (err < 0)
		open_failed(err, why);
	if (!opts.input) {
		size_t i, n = rdiag_trace_stale_removed(trace);

		if (n)
			tool_warn("removed %zu stale ftrace instance(s) of runs that are gone", n);
		for (i = 0; i < rdiag_trace_nmissing(trace) && !opts.list; i++)
			tool_warn("this kernel has no %s tracepoint: its steps are not shown",
				  rdiag_trace_missing_at(trace, i));
	}
	set_clock_offset();
	output = out_new(stdout, opts.json ? OUT_JSON : OUT_TEXT);
	co.live = !opts.input;
	if (!output || rdiag_trace_conns_open(&conns, &co) < 0) {
		rdiag_trace_close(trace);
		tool_die("out of memory");
	}
	if (opts.list) {
		list_events();
		ret = EXIT_OK;
	} else {
		ret = run();
		if (ret == EXIT_OK && total[RDIAG_TRACE_FAILED])
			ret = EXIT_FOUND;
	}
	out_free(output);
	rdiag_trace_conns_close(conns);
	rdiag_trace_close(trace);
	rdiag_counters_close(nl);
	free(sums);
	return ret;
}

static const struct tool_cmd commands[] = {
	{ NULL, trace_live_main, NULL },
	{ "record", trace_record_main, NULL },
	{ "dump", trace_dump_main, NULL },
};

int main(int argc, char **argv)
{
	tool_init("rdmatrace", argv);
	return tool_dispatch(commands, sizeof(commands) / sizeof(commands[0]), argc, argv, NULL);
}
