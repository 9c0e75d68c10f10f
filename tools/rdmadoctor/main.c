/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor: explain why rdma_connect fails or times out.
 *
 *   rdmadoctor connect DST[:PORT] [--src ADDR] [--timeout MS] [--ps tcp|udp|ib]
 *   rdmadoctor paths DST[:PORT] [--paths N] [--probes K] [--concurrency C] [--budget SECS]
 *                    [--tos TOS]
 *   rdmadoctor listen [ADDR][:PORT] [--count N] [--serve port|host] [--max-clients N]
 *   rdmadoctor local
 *   rdmadoctor explain 'LINE' | -
 *   rdmadoctor env [--for nccl|ucx|libfabric|all] [ADDR|NETDEV]
 *   rdmadoctor compare FILE... | -
 *
 * The work is in librdmadiag (rdmadiag/doctor.h); this file parses arguments and prints the
 * findings, steps, counter deltas and verdict through the one output path (common/out.h). */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <rdma/rdma_cma.h>

#include "compare.h"
#include "env.h"
#include "explain.h"
#include "host.h"
#include "paths.h"
#include "common/cmd.h"
#include "common/esc.h"
#include "common/tool.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/doctor.h"
#include "rdmadiag/packet.h"
#include "common/out.h"

struct cfg {
	bool json, verbose, no_peer_info, force;
	const char *src;
	int timeout_ms;
	int ps;
	unsigned int count;
	unsigned int max_clients;	/* listen: side-channel clients at once (0: default) */
	enum rdiag_doc_serve serve;	/* listen: what the side channel serves (0: auto) */
	unsigned int env_for;
	const char *hosts;
	bool timeout_set;
	struct rdiag_doc_paths_opts paths;	/* paths: --paths --probes --concurrency
						 * --budget --tos */
};

static volatile bool stop;

static void usage(void)
{
	printf("Usage: %s connect DST[:PORT] [--src ADDR] [--timeout MS] [--ps tcp|udp|ib] [--no-peer-info]\n"
	       "                  [--force]\n"
	       "       %s paths DST[:PORT] [--paths N] [--probes K] [--concurrency C] [--budget SECS]\n"
	       "                  [--tos TOS] [--src ADDR] [--timeout MS] [--ps tcp|ib]\n"
	       "       %s listen [ADDR][:PORT] [--count N] [--ps tcp|udp|ib] [--serve port|host]\n"
	       "                  [--max-clients N]\n"
	       "       %s local\n"
	       "       %s explain 'LINE' | -\n"
	       "       %s env [--for nccl|ucx|libfabric|all] [--hosts FILE] [ADDR|NETDEV]\n"
	       "       %s compare FILE... | -\n"
	       "Explain why rdma_connect fails: host checks, a real rdma_cm attempt, a verdict.\n\n"
	       "  connect DST[:PORT]  check the path to DST, try to connect (port 7471), give a verdict\n"
	       "  paths DST[:PORT]    which UDP source ports (ECMP paths) to a listener work: many\n"
	       "                      connections, a short data exchange on each, a verdict per\n"
	       "                      source port (the bad ones as ranges)\n"
	       "  listen [ADDR][:PORT] accept connections and report each attempt (run on the peer)\n"
	       "  local               the host checks alone, no destination\n"
	       "  explain 'LINE' | -  explain a completion-error line (NCCL, UCX, libfabric, MPI,\n"
	       "                      kernel...): status, vendor error, likely causes, next checks;\n"
	       "                      '-' reads a log on standard input\n"
	       "  env [ADDR|NETDEV]   the settings a job should use here (device, RoCE v2 GID index,\n"
	       "                      traffic class) as shell export lines\n"
	       "  compare FILE... | - the 'local -j' output of many hosts: each property's majority\n"
	       "                      value and the hosts that differ, most harmful first\n\n"
	       "  -s, --src ADDR      source address to bind (rdma_resolve_addr's src)\n"
	       "  -t, --timeout MS    wait MS milliseconds for the connect and disconnect events\n"
	       "                      (default %d: long enough to see rdma_cm resend an\n"
	       "                      unanswered CM REQ once); address and route resolution get\n"
	       "                      the smaller of MS and %d (rdma_cm's own timeout)\n"
	       "  -p, --ps tcp|udp|ib rdma_cm port space (default tcp; udp: a UD QP, SIDR)\n"
	       "  -c, --count N       listen: exit after N connections ended\n"
	       "      --paths N       paths: distinct source ports to cover (default %d, 1..%d)\n"
	       "      --probes K      paths: data exchanges (RDMA WRITEs) per connection\n"
	       "                      (default %d, 1..1000)\n"
	       "      --concurrency C paths: connections at once (default 1, 1..64; only 1 gives\n"
	       "                      each connection's own counter deltas)\n"
	       "      --budget SECS   paths: start no connection after SECS seconds (1..86400)\n"
	       "      --tos TOS       paths: the IP ToS of the connections (0..255; rdma_cm's\n"
	       "                      RDMA_OPTION_ID_TOS), e.g. the RoCE traffic class's\n"
	       "      --serve port|host\n"
	       "                      listen: what the side channel serves a client: port, the\n"
	       "                      RDMA port of the address it reached and that address\n"
	       "                      alone (default on one address), or host, every port,\n"
	       "                      address and counter, the hostname and kernel (default on\n"
	       "                      all addresses)\n"
	       "      --max-clients N listen: side-channel clients served at once (default %d);\n"
	       "                      more wait their turn\n"
	       "      --for LIB       env: nccl, ucx, libfabric or all (default all)\n"
	       "      --hosts FILE    env: other hosts' 'local -j' (JSON lines, - for stdin): warn\n"
	       "                      when the port's GID index differs across them\n"
	       "      --force         connect: attempt even when it would hang (rxe with a\n"
	       "                      firewall rule dropping UDP 4791 on output)\n"
	       "      --no-peer-info  connect: do not fetch the listener's description of its\n"
	       "                      host (TCP, same port) nor compare the two ends\n"
	       "  -j, --json          JSON output\n"
	       "  -v, --verbose       show passed checks too (compare: the properties that agree)\n"
	       "  -h, --help          this help\n"
	       "      --version       print the version\n\n"
	       "Exit status: 0 the connection works (or no problem found), 1 a problem was found\n"
	       "(a missing or inaccessible /dev/infiniband/rdma_cm too, for connect and local),\n"
	       "2 usage error or the doctor cannot run: no RDMA device, librdmacm or libibverbs\n"
	       "cannot be loaded (connect, listen), or listen cannot create its rdma_cm id\n"
	       "(e.g. no /dev/infiniband/rdma_cm), or connect refused an attempt that would hang\n"
	       "(without --force).  explain: 1 a completion error was recognised,\n"
	       "0 none was, 2 the input cannot be read.  env: 1 the port has no RoCE v2 GID for\n"
	       "the address, 2 no RDMA port answers to ADDR or NETDEV.  compare: 1 a property\n"
	       "that breaks or degrades RDMA differs, 2 unreadable input or fewer than 2 hosts.\n"
	       "paths: 0 every source port works, 1 some fail and others work, or all fail\n"
	       "(the doctor's verdict of a failed connection then says why), 2 as connect.\n",
	       tool_name(), tool_name(), tool_name(), tool_name(), tool_name(), tool_name(),
	       tool_name(), RDIAG_DOC_DEFAULT_TIMEOUT_MS,
	       RDIAG_DOC_RESOLVE_TIMEOUT_MS, RDIAG_DOC_PATHS_DEFAULT, RDIAG_DOC_PATHS_MAX,
	       RDIAG_DOC_PROBES_DEFAULT, RDIAG_DOC_SIDE_MAX_CLIENTS);
}

/* "a.b.c.d[:port]", "[v6][:port]", "v6", ":port" */
static void split_hostport(const char *arg, char *host, size_t hlen, uint16_t *port)
{
	const char *colon;
	uint64_t v;

	*port = 0;
	host[0] = 0;
	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');

		if (!end)
			tool_usage_error("bad address '%s'", arg);
		snprintf(host, hlen, "%.*s", (int)(end - arg - 1), arg + 1);
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] && !colon)
			tool_usage_error("bad address '%s'", arg);
	} else {
		colon = strrchr(arg, ':');
		if (colon && strchr(arg, ':') != colon)
			colon = NULL;	/* a bare IPv6 address */
		snprintf(host, hlen, "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
	}
	if (colon) {
		if (tool_parse_u64(colon + 1, 65535, &v) || v == 0)
			tool_usage_error("bad port in '%s'", arg);
		*port = (uint16_t)v;
	}
}

/* a host name to its first address (getaddrinfo, as rping and rdma_getaddrinfo take names):
 * addr gets the numeric form; false, with why, when it does not resolve.  A literal address
 * is left as it is (true, addr empty). */
static bool resolve_host(const char *host, char *addr, size_t alen, char *why, size_t wlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG }, *res;
	unsigned char buf[sizeof(struct in6_addr)];
	const void *p;
	int ret;

	addr[0] = 0;
	if (inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1)
		return true;
	ret = getaddrinfo(host, NULL, &hints, &res);
	if (ret == EAI_NONAME || ret == EAI_NODATA || ret == EAI_ADDRFAMILY) {
		/* AI_ADDRCONFIG hides the loopback names on a host without other addresses */
		hints.ai_flags = 0;
		ret = getaddrinfo(host, NULL, &hints, &res);
	}
	if (ret) {
		snprintf(why, wlen, "%s", ret == EAI_SYSTEM ? strerror(errno) : gai_strerror(ret));
		return false;
	}
	p = res->ai_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)(void *)res->ai_addr)->sin6_addr
				       : (const void *)&((struct sockaddr_in *)(void *)res->ai_addr)->sin_addr;
	if (!inet_ntop(res->ai_family, p, addr, (socklen_t)alen))
		snprintf(why, wlen, "%s", strerror(errno));
	freeaddrinfo(res);
	return addr[0] != 0;
}

static void out_lines(struct out *o, const char *key, const char *text, const char *indent)
{
	char buf[1024], *line, *save;

	snprintf(buf, sizeof(buf), "%s", text);
	out_arr_begin(o, key);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		out_text(o, "%s", indent);
		out_str(o, NULL, "%s\n", line);
	}
	out_arr_end(o);
}

static const char *level_tag(enum rdiag_doc_level l)
{
	switch (l) {
	case RDIAG_DOC_OK: return "ok";
	case RDIAG_DOC_INFO: return "info";
	case RDIAG_DOC_WARN: return "WARNING";
	case RDIAG_DOC_PROBLEM: return "PROBLEM";
	}
	return "?";
}

static void print_findings(struct out *o, const struct rdiag_doctor *d,
			   const struct cfg *cfg)
{
	size_t i, n = rdiag_doctor_nfindings(d), shown = 0;

	out_text(o, "checks\n");
	out_arr_begin(o, "findings");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);
		bool detail = f->level >= RDIAG_DOC_WARN || cfg->verbose;

		if (!out_json(o) && f->level < RDIAG_DOC_WARN && !cfg->verbose)
			continue;
		shown++;
		out_obj_begin(o, NULL);
		out_text(o, "  %-8s ", level_tag(f->level));
		out_str(o, "check", "%-12s ", f->check);
		out_str(o, "layer", NULL, f->layer);
		out_str(o, "level", NULL, rdiag_doc_level_name(f->level));
		if (f->cause)		/* absent when there is none (rdmadiag(7)) */
			out_str(o, "cause", NULL, f->cause);
		out_str(o, "subject", NULL, f->subject);
		out_str(o, "summary", "%s\n", f->summary);
		if (detail || out_json(o))
			out_lines(o, "evidence", f->evidence, "             evidence: ");
		if (f->hint[0])
			out_str(o, "hint", detail ? "             fix: %s\n" : NULL, f->hint);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!shown)
		out_text(o, "  no warnings or problems (-v shows every check)\n");
}

static void print_steps(struct out *o, const struct rdiag_doctor *d)
{
	size_t i, n = rdiag_doctor_nsteps(d);
	char st[96];

	out_text(o, "attempt\n");
	out_arr_begin(o, "steps");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_step *s = rdiag_doctor_step(d, i);

		out_obj_begin(o, NULL);
		out_str(o, "name", "  %-14s ", s->name);
		out_bool(o, "ok", NULL, s->ok);
		out_text(o, "%-7s ", s->ok ? "ok" : s->timed_out ? "TIMEOUT" : "FAILED");
		out_dbl(o, "ms", "%9.1f ms  ", s->ms);
		out_i64(o, "errno", NULL, s->err);
		if (s->event >= 0) {
			out_str(o, "event", NULL, tool_name_or(rdiag_cm_event_name(s->event), "UNKNOWN"));
			out_i64(o, "status", NULL, s->status);
			out_str(o, "status_str", NULL,
				      rdiag_cm_status_str(s->event, s->status, st, sizeof(st)));
		}
		out_bool(o, "timed_out", NULL, s->timed_out);
		out_str(o, "detail", "%s\n", s->detail);
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void print_delta(struct out *o, const struct rdiag_doc_delta *x)
{
	out_obj_begin(o, NULL);
	out_text(o, "  %s/%u ", tool_esc_tmp(x->dev), x->port);
	out_str(o, "dev", NULL, x->dev);
	out_u64(o, "port", NULL, x->port);
	out_str(o, "name", "%-22s ", x->name);
	out_bool(o, "cm", NULL, x->cm);
	out_u64(o, "before", "%" PRIu64, x->before);
	out_u64(o, "after", " -> %" PRIu64, x->after);
	out_u64(o, "delta", " (+%" PRIu64 ")\n", x->after - x->before);
	out_obj_end(o);
}

static void print_deltas(struct out *o, const struct rdiag_doctor *d)
{
	size_t i, n = rdiag_doctor_ndeltas(d), np;
	const struct rdiag_doc_delta *peer = rdiag_doctor_peer_deltas(d, &np);

	out_text(o, "counters during the attempt\n");
	out_arr_begin(o, "counters");
	for (i = 0; i < n; i++)
		print_delta(o, rdiag_doctor_delta(d, i));
	if (!n)
		out_text(o, "  (no counter moved or none readable)\n");
	out_arr_end(o);
	/* after a data-path failure: the peer's, from its side channel */
	if (!peer)
		return;
	out_text(o, "counters on the peer during the attempt (from its side channel)\n");
	out_arr_begin(o, "peer_counters");
	for (i = 0; i < np; i++)
		print_delta(o, &peer[i]);
	if (!np)
		out_text(o, "  (no counter moved)\n");
	out_arr_end(o);
}

static void print_verdict(struct out *o, const struct rdiag_doc_verdict *v)
{
	/* ok with another cause than "ok": the connection works, with a warning (a failed
	 * disconnect) */
	bool warn = v->ok && strcmp(v->cause, "ok");

	out_obj_begin(o, "verdict");
	out_text(o, "verdict: %s", warn ? "OK, WARNING" : v->ok ? "OK" : "PROBLEM");
	out_bool(o, "ok", NULL, v->ok);
	out_str(o, "level", NULL, warn ? "warning" : v->ok ? "ok" : "problem");
	out_str(o, "layer", " [layer %s]", v->layer);
	out_str(o, "cause", " cause=%s\n", v->cause);
	out_str(o, "sentence", "  %s\n", v->sentence);
	out_lines(o, "evidence", v->evidence, "  evidence: ");
	out_str(o, "next", v->next[0] ? "  next: %s\n" : NULL, v->next);
	out_obj_end(o);
}

/* the two ends side by side (rdiag_doctor_compare_peer), or why the peer's description is
 * missing; nothing with --no-peer-info */
static void print_sides(struct out *o, const struct rdiag_doctor *d, int ret)
{
	size_t i, n = rdiag_doctor_nsides(d);

	out_obj_begin(o, "both_ends");
	out_text(o, "both ends (the peer's side from its side channel)\n");
	out_bool(o, "fetched", NULL, ret == 0);
	if (ret) {
		out_str(o, "error", "  no description of the peer: %s; carrying on without it\n",
			rdiag_doctor_errmsg(d));
		out_obj_end(o);
		return;
	}
	out_text(o, "  %-20s %-34s %s\n", "", "here", "peer");
	out_arr_begin(o, "rows");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_side *s = rdiag_doctor_side(d, i);

		out_obj_begin(o, NULL);
		out_text(o, "%s ", s->differs ? "!" : " ");
		out_str(o, "what", "%-20s ", s->what);
		out_text(o, "%-34s ", tool_esc_tmp(s->here));
		out_str(o, "here", NULL, s->here);
		out_text(o, "%s", tool_esc_tmp(s->peer));
		out_str(o, "peer", NULL, s->peer);
		out_bool(o, "differs", NULL, s->differs);
		if (s->cause)
			out_str(o, "cause", "  (%s)", s->cause);
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

static int finish2(struct out *o, struct rdiag_doctor *d, bool attempted, bool sides,
		   int peer_ret)
{
	struct rdiag_doc_verdict v;
	const struct rdiag_doc_peer_info *p = rdiag_doctor_peer(d);

	rdiag_doctor_verdict(d, &v);
	if (attempted) {
		print_steps(o, d);
		print_deltas(o, d);
		if (p->valid) {
			out_obj_begin(o, "peer");
			out_text(o, "peer (from its private data)\n");
			out_str(o, "dev", "  device %s", p->dev);
			out_u64(o, "netdev_mtu", ", netdev MTU %" PRIu64, p->netdev_mtu);
			out_u64(o, "path_mtu", ", RoCE path MTU %" PRIu64, p->path_mtu);
			out_u64(o, "active_mtu", ", active MTU %" PRIu64 "\n", p->active_mtu);
			out_obj_end(o);
		}
	}
	if (sides)
		print_sides(o, d, peer_ret);
	print_verdict(o, &v);
	out_obj_end(o);
	out_free(o);
	rdiag_doctor_close(d);
	if (!strcmp(v.cause, "no_rdma_device")) {
		tool_err("cannot run: %s; %s", v.sentence, v.next);
		return EXIT_USAGE;
	}
	return v.ok ? EXIT_OK : EXIT_FOUND;
}

static int finish(struct out *o, struct rdiag_doctor *d, const char *cmd, bool attempted)
{
	(void)cmd;
	return finish2(o, d, attempted, false, 0);
}

/* connect after an attempt: with the two ends side by side unless --no-peer-info */
static int finish_both(struct out *o, struct rdiag_doctor *d, int skipped, int peer_ret)
{
	return finish2(o, d, true, !skipped, peer_ret);
}

static struct out *start(const struct cfg *cfg, const char *cmd)
{
	struct out *o = out_new(stdout, cfg->json ? OUT_JSON : OUT_TEXT);

	if (!o)
		tool_die("out of memory");
	out_obj_begin(o, NULL);
	out_str(o, "command", NULL, cmd);
	return o;
}

static int cmd_local(const struct cfg *cfg)
{
	struct rdiag_doctor *d;
	struct out *o;

	if (rdiag_doctor_open(&d, NULL))
		tool_die("%s", rdiag_doctor_errmsg(NULL));
	o = start(cfg, "local");
	doctor_host_out(o, d);		/* JSON: what rdmadoctor compare reads */
	rdiag_doctor_check_local(d, RDIAG_DOC_ALL_PORTS);
	print_findings(o, d, cfg);
	return finish(o, d, "local", false);
}

/* the egress port found by the path check is not ACTIVE: why no attempt is made, or NULL */
static const char *egress_port_down(const struct rdiag_doctor *d)
{
	static char why[160];
	size_t i;

	for (i = 0; i < rdiag_doctor_nfindings(d); i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		if (!strcmp(f->check, "port") && f->cause && !strcmp(f->cause, "port_not_active")) {
			snprintf(why, sizeof(why),
				 "port %s is not ACTIVE: rdma_connect through it could only fail or time out",
				 f->subject);
			return why;
		}
	}
	return NULL;
}

static int cmd_connect(const struct cfg *cfg, const char *arg)
{
	struct rdiag_doc_opts opts = { 0 };
	struct rdiag_doctor *d;
	struct out *o;
	const char *down, *hazard;
	char host[256], addr[INET6_ADDRSTRLEN], why[128];
	int ret, peer_ret = 0;

	split_hostport(arg, host, sizeof(host), &opts.port);
	if (!host[0])
		tool_usage_error("connect needs a destination address");
	if (!resolve_host(host, addr, sizeof(addr), why, sizeof(why)))
		tool_die("cannot resolve destination '%s': %s", host, why);
	opts.dst = addr[0] ? addr : host;
	opts.src = cfg->src;
	opts.timeout_ms = cfg->timeout_ms;
	opts.ps = cfg->ps;
	if (!opts.port)
		opts.port = 7471;
	if (rdiag_doctor_open(&d, NULL))
		tool_die("%s", rdiag_doctor_errmsg(NULL));
	o = start(cfg, "connect");
	out_str(o, "dst", "connect %s", host);
	if (addr[0])		/* a host name: the address it resolved to */
		out_str(o, "dst_addr", " (%s)", addr);
	out_u64(o, "port", " port %" PRIu64, opts.port);
	if (cfg->src)
		out_str(o, "src", " from %s", cfg->src);
	out_str(o, "ps", " (port space %s,", tool_name_or(rdiag_port_space_name((unsigned int)cfg->ps),
							    "?"));
	out_i64(o, "timeout_ms", " timeout %" PRId64 " ms,", opts.timeout_ms);
	out_i64(o, "resolve_timeout_ms", " resolve %" PRId64 " ms)\n\n",
		      RDIAG_DOC_RESOLVE_MS(opts.timeout_ms));

	rdiag_doctor_check_local(d, 0);
	if (!rdiag_doctor_ndevices(d)) {
		print_findings(o, d, cfg);
		return finish(o, d, "connect", false);
	}
	ret = rdiag_doctor_check_path(d, &opts);
	if (ret) {
		out_free(o);
		tool_die("%s", rdiag_doctor_errmsg(d));
	}
	down = egress_port_down(d);
	if (down) {
		/* rdma_cm would only time out or fail: the verdict comes at once */
		print_findings(o, d, cfg);
		out_text(o, "attempt\n");
		out_str(o, "attempt_skipped", "  skipped: %s\n", down);
		out_arr_begin(o, "steps");
		out_arr_end(o);
		return finish(o, d, "connect", false);
	}
	/* an attempt that would hang this process and later rdma_cm users: refuse (exit 2),
	 * the findings and the reason in the output, the reason as the error line */
	hazard = rdiag_doctor_attempt_hazard(d);
	if (hazard && !cfg->force) {
		char line[700];

		snprintf(line, sizeof(line), "refusing to attempt the connection: %s (--force attempts it anyway)",
			 hazard);
		print_findings(o, d, cfg);
		out_text(o, "attempt\n");
		out_str(o, "attempt_skipped", "  skipped: %s\n", line);
		out_arr_begin(o, "steps");
		out_arr_end(o);
		out_obj_end(o);
		out_free(o);
		rdiag_doctor_close(d);
		tool_err("%s", line);
		return EXIT_USAGE;
	}
	/* the peer's side, before the attempt (a listener with --count may be gone after it);
	 * reachable on TCP even when rdma_cm fails */
	if (!cfg->no_peer_info)
		peer_ret = rdiag_doctor_compare_peer(d, &opts);
	/* the peer's counters, for a data-path failure: a second request on the side channel */
	if (!cfg->no_peer_info && !peer_ret)
		(void)rdiag_doctor_peer_counters(d, &opts);
	ret = rdiag_doctor_attempt(d, &opts);
	print_findings(o, d, cfg);
	if (ret) {
		out_free(o);
		tool_die("cannot attempt the connection: %s", rdiag_doctor_errmsg(d));
	}
	return finish_both(o, d, cfg->no_peer_info ? 1 : 0, peer_ret);
}

struct listen_ctx {
	struct out *o;
	const struct cfg *cfg;
	const struct rdiag_doctor *d;
};

static void on_ready(void *arg, const char *where)
{
	struct listen_ctx *l = arg;

	out_obj_begin(l->o, NULL);
	out_str(l->o, "event", NULL, "LISTENING");
	out_str(l->o, "local", "listening on %s", where);
	out_str(l->o, "ps", " in port space %s\n",
		tool_name_or(rdiag_port_space_name((unsigned int)l->cfg->ps), "?"));
	/* "tcp ADDR:PORT", or "none: why" */
	out_str(l->o, "side_channel", "  host description served on: %s",
		rdiag_doctor_side_channel(l->d));
	switch (rdiag_doctor_side_serve(l->d)) {
	case RDIAG_DOC_SERVE_PORT:
		out_str(l->o, "serve", " (%s: the port of the address reached)", "port");
		break;
	case RDIAG_DOC_SERVE_HOST:
		out_str(l->o, "serve", " (%s: every port)", "host");
		break;
	default:
		break;		/* no side channel */
	}
	out_text(l->o, "\n");
	out_obj_end(l->o);
	fflush(stdout);
}

static int on_event(void *arg, const struct rdiag_doc_conn *c)
{
	struct listen_ctx *l = arg;
	struct out *o = l->o;
	char st[96];

	out_obj_begin(o, NULL);
	out_str(o, "event", "%-16s ", tool_name_or(rdiag_cm_event_name(c->event), "UNKNOWN"));
	out_str(o, "peer", "from %s", c->peer);
	out_str(o, "local", " to %s", c->local);
	out_str(o, "dev", " on %s", c->dev);
	out_u64(o, "port", "/%" PRIu64, c->port);
	out_i64(o, "status", NULL, c->status);
	out_str(o, "status_str", ", status %s",
		      rdiag_cm_status_str(c->event, c->status, st, sizeof(st)));
	out_dbl(o, "ms", ", %.1f ms\n", c->ms);
	if (c->peer_info.valid) {
		out_obj_begin(o, "client");
		out_str(o, "dev", c->event == 4 ? "  client device %s" : NULL, c->peer_info.dev);
		out_u64(o, "netdev_mtu", c->event == 4 ? ", netdev MTU %" PRIu64 : NULL,
			      c->peer_info.netdev_mtu);
		out_u64(o, "path_mtu", c->event == 4 ? ", RoCE path MTU %" PRIu64 "\n" : NULL,
			      c->peer_info.path_mtu);
		out_u64(o, "active_mtu", NULL, c->peer_info.active_mtu);
		out_obj_end(o);
	}
	if (c->note[0])
		out_str(o, "note", "  note: %s\n", c->note);
	if (rdiag_cm_event_is_error(c->event))
		out_str(o, "cause", "  cause: %s\n", rdiag_cm_status_cause(c->event, c->status));
	out_obj_end(o);
	fflush(stdout);
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = true;
}

static int cmd_listen(const struct cfg *cfg, const char *arg)
{
	struct rdiag_doctor_opts dopts = { .side_max_clients = cfg->max_clients,
					   .side_serve = cfg->serve };
	struct rdiag_doctor *d;
	struct listen_ctx l = { NULL, cfg, NULL };
	struct sigaction sa;
	char host[256] = "";
	uint16_t port = 0;
	size_t i;
	int ret;

	if (arg)
		split_hostport(arg, host, sizeof(host), &port);
	if (rdiag_doctor_open(&d, &dopts))
		tool_die("%s", rdiag_doctor_errmsg(NULL));
	l.d = d;
	rdiag_doctor_check_local(d, 0);
	if (!rdiag_doctor_ndevices(d))
		tool_die("cannot run: there is no RDMA device on this host; load the RDMA driver or create a soft device (rdma link add rxe0 type rxe netdev NETDEV)");
	/* a firewall that drops UDP 4791 here makes every client time out: say so up front */
	for (i = 0; i < rdiag_doctor_nfindings(d); i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		if (f->level >= RDIAG_DOC_WARN)
			tool_warn("%s", f->summary);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	l.o = out_new(stdout, cfg->json ? OUT_JSON : OUT_TEXT);
	if (!l.o)
		tool_die("out of memory");
	ret = rdiag_doctor_listen(d, host[0] ? host : NULL, port ? port : 7471, cfg->ps, on_event,
				  on_ready, &l, cfg->count, &stop);
	out_free(l.o);
	if (ret)
		tool_die("%s", rdiag_doctor_errmsg(d));
	rdiag_doctor_close(d);
	return EXIT_OK;
}

/* ---- the subcommands: each checks what it takes, then runs --------------------------- */

static int run_connect(int argc, char **argv, void *ctx)
{
	if (argc != 2)
		tool_usage_error("usage: connect DST[:PORT]");
	return cmd_connect(ctx, argv[1]);
}

/* paths: the default timeout is shorter than connect's: a probe to a listener that answers
 * takes milliseconds, and a dropped port fails in the data exchange, not the connect */
#define PATHS_DEFAULT_TIMEOUT_MS 2000

static int run_paths(int argc, char **argv, void *ctx)
{
	const struct cfg *cfg = ctx;
	struct doctor_paths_cfg pc = { 0 };
	char host[256], addr[INET6_ADDRSTRLEN], why[128];

	if (argc != 2)
		tool_usage_error("usage: paths DST[:PORT]");
	split_hostport(argv[1], host, sizeof(host), &pc.port);
	if (!host[0])
		tool_usage_error("paths needs a destination address");
	if (cfg->ps == RDMA_PS_UDP)
		tool_usage_error("bad --ps 'udp' for paths: the UDP port space has no connection to exchange data on (tcp or ib)");
	if (!resolve_host(host, addr, sizeof(addr), why, sizeof(why)))
		tool_die("cannot resolve destination '%s': %s", host, why);
	pc.host = host;
	pc.addr = addr[0] ? addr : host;
	if (!pc.port)
		pc.port = 7471;
	pc.src = cfg->src;
	pc.timeout_ms = cfg->timeout_set ? cfg->timeout_ms : PATHS_DEFAULT_TIMEOUT_MS;
	pc.ps = cfg->ps;
	pc.json = cfg->json;
	pc.verbose = cfg->verbose;
	pc.force = cfg->force;
	pc.po = cfg->paths;
	return doctor_paths(&pc);
}

static int run_listen(int argc, char **argv, void *ctx)
{
	if (argc > 2)
		tool_usage_error("usage: listen [ADDR][:PORT]");
	return cmd_listen(ctx, argc > 1 ? argv[1] : NULL);
}

static int run_local(int argc, char **argv, void *ctx)
{
	if (argc != 1)
		tool_usage_error("local takes no argument");
	return cmd_local(ctx);
}

static int run_explain(int argc, char **argv, void *ctx)
{
	const struct cfg *cfg = ctx;

	if (argc != 2)
		tool_usage_error("usage: explain 'LINE' (one argument; - reads standard input)");
	return doctor_explain(argv[1], cfg->json);
}

static int run_env(int argc, char **argv, void *ctx)
{
	const struct cfg *cfg = ctx;

	if (argc > 2)
		tool_usage_error("usage: env [--for nccl|ucx|libfabric|all] [--hosts FILE] [ADDR|NETDEV]");
	return doctor_env(argc > 1 ? argv[1] : NULL, cfg->env_for, cfg->json, cfg->hosts);
}

static int run_compare(int argc, char **argv, void *ctx)
{
	const struct cfg *cfg = ctx;

	if (argc < 2)
		tool_usage_error("usage: compare FILE... (or - for JSON lines on standard input)");
	return doctor_compare(argv + 1, argc - 1, cfg->json, cfg->verbose);
}

static const struct tool_cmd commands[] = {
	{ "connect", run_connect, NULL },
	{ "paths", run_paths, NULL },
	{ "listen", run_listen, NULL },
	{ "local", run_local, NULL },
	{ "explain", run_explain, NULL },
	{ "env", run_env, NULL },
	{ "compare", run_compare, NULL },
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "src", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "ps", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "serve", required_argument, NULL, 'S' },
		{ "max-clients", required_argument, NULL, 'M' },
		{ "for", required_argument, NULL, 'F' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "no-peer-info", no_argument, NULL, 'P' },
		{ "force", no_argument, NULL, 'f' },
		{ "paths", required_argument, NULL, 'N' },
		{ "probes", required_argument, NULL, 'K' },
		{ "concurrency", required_argument, NULL, 'C' },
		{ "budget", required_argument, NULL, 'B' },
		{ "tos", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfg cfg = { .timeout_ms = RDIAG_DOC_DEFAULT_TIMEOUT_MS, .ps = RDMA_PS_TCP,
			   .env_for = RDIAG_ENV_ALL };
	uint64_t v;
	int c;

	tool_init("rdmadoctor", argv);
	while ((c = getopt_long(argc, argv, "s:t:p:c:jvh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			cfg.src = optarg;
			break;
		case 't':
			if (tool_parse_u64(optarg, 3600000, &v) || v == 0)
				tool_usage_error("bad --timeout '%s' (milliseconds, 1..3600000)", optarg);
			cfg.timeout_ms = (int)v;
			cfg.timeout_set = true;
			break;
		case 'N':
			if (tool_parse_u64(optarg, RDIAG_DOC_PATHS_MAX, &v) || v == 0)
				tool_usage_error("bad --paths '%s' (1..%d)", optarg, RDIAG_DOC_PATHS_MAX);
			cfg.paths.paths = (unsigned int)v;
			break;
		case 'K':
			if (tool_parse_u64(optarg, 1000, &v) || v == 0)
				tool_usage_error("bad --probes '%s' (1..1000)", optarg);
			cfg.paths.probes = (unsigned int)v;
			break;
		case 'C':
			if (tool_parse_u64(optarg, 64, &v) || v == 0)
				tool_usage_error("bad --concurrency '%s' (1..64)", optarg);
			cfg.paths.concurrency = (unsigned int)v;
			break;
		case 'B':
			if (tool_parse_u64(optarg, 86400, &v) || v == 0)
				tool_usage_error("bad --budget '%s' (seconds, 1..86400)", optarg);
			cfg.paths.budget_ms = (unsigned int)v * 1000;
			break;
		case 'T':
			if (tool_parse_u64(optarg, 255, &v))
				tool_usage_error("bad --tos '%s' (0..255)", optarg);
			cfg.paths.set_tos = true;
			cfg.paths.tos = (uint8_t)v;
			break;
		case 'p':
			if (!strcasecmp(optarg, "tcp"))
				cfg.ps = RDMA_PS_TCP;
			else if (!strcasecmp(optarg, "udp"))
				cfg.ps = RDMA_PS_UDP;
			else if (!strcasecmp(optarg, "ib"))
				cfg.ps = RDMA_PS_IB;
			else
				tool_usage_error("bad --ps '%s' (tcp, udp or ib)", optarg);
			break;
		case 'c':
			if (tool_parse_u64(optarg, 1000000, &v))
				tool_usage_error("bad --count '%s'", optarg);
			cfg.count = (unsigned int)v;
			break;
		case 'S':
			if (!strcasecmp(optarg, "port"))
				cfg.serve = RDIAG_DOC_SERVE_PORT;
			else if (!strcasecmp(optarg, "host"))
				cfg.serve = RDIAG_DOC_SERVE_HOST;
			else
				tool_usage_error("bad --serve '%s' (port or host)", optarg);
			break;
		case 'M':
			if (tool_parse_u64(optarg, 1024, &v) || v == 0)
				tool_usage_error("bad --max-clients '%s' (1..1024)", optarg);
			cfg.max_clients = (unsigned int)v;
			break;
		case 'F':
			cfg.env_for = rdiag_doctor_env_for(optarg);
			if (!cfg.env_for)
				tool_usage_error("bad --for '%s' (nccl, ucx, libfabric or all)", optarg);
			break;
		case 'H':
			cfg.hosts = optarg;
			break;
		case 'P':
			cfg.no_peer_info = true;
			break;
		case 'f':
			cfg.force = true;
			break;
		case 'j':
			cfg.json = true;
			break;
		case 'v':
			cfg.verbose = true;
			break;
		case 'h':
			usage();
			return EXIT_OK;
		case 'V':
			tool_version();
			return EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", tool_name());
			return EXIT_USAGE;
		}
	}
	/* the options are parsed: the program's name goes where the last of them was, just before
	 * the command (argv[optind]), as tool_dispatch takes its command line */
	argv[optind - 1] = argv[0];
	return tool_dispatch(commands, sizeof(commands) / sizeof(commands[0]), argc - optind + 1,
			     argv + optind - 1, &cfg);
}
