/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor paths: the host and path checks, the run (rdiag_doctor_paths), then per source
 * port its probes, loss, retries and RTTs, the counters that moved, and the verdict: all
 * paths good, all bad (the doctor's verdict of the first failed probe), or the bad subset
 * as ranges with the commands that confirm it.  Text and JSON from one output path. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "common/esc.h"
#include "common/out.h"
#include "common/tool.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"
#include "common/clock.h"

/* progress on a terminal, once the run is longer than a second */
struct progress {
	double t0;
	bool tty, shown;
};

static void on_progress(void *arg, unsigned int attempts, unsigned int ports, unsigned int want)
{
	struct progress *p = arg;

	if (!p->tty || (double)tool_mono_ns() / 1e6 - p->t0 < 1000)
		return;
	p->shown = true;
	fprintf(stderr, "\r%s paths: %u of %u source ports covered, %u connections",
		tool_name(), ports, want, attempts);
	fflush(stderr);
}

static void print_checks(struct out *o, const struct rdiag_doctor *d, bool verbose)
{
	size_t i, n = rdiag_doctor_nfindings(d), shown = 0;

	out_text(o, "checks\n");
	out_arr_begin(o, "findings");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		if (f->level < RDIAG_DOC_WARN && !verbose)
			continue;
		shown++;
		out_obj_begin(o, NULL);
		out_str(o, "level", "  %-8s ", rdiag_doc_level_name(f->level));
		out_str(o, "check", "%-12s ", f->check);
		out_str(o, "layer", NULL, f->layer);
		if (f->cause)
			out_str(o, "cause", NULL, f->cause);
		out_str(o, "subject", NULL, f->subject);
		out_str(o, "summary", "%s\n", f->summary);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!shown)
		out_text(o, "  no warnings or problems (-v shows every check)\n");
}

static void print_delta(struct out *o, const struct rdiag_doc_delta *x, const char *indent)
{
	out_obj_begin(o, NULL);
	out_text(o, "%s%s/%u ", indent, tool_esc_tmp(x->dev), x->port);
	out_str(o, "dev", NULL, x->dev);
	out_u64(o, "port", NULL, x->port);
	out_str(o, "name", "%s", x->name);
	out_bool(o, "cm", NULL, x->cm);
	out_u64(o, "before", NULL, x->before);
	out_u64(o, "after", NULL, x->after);
	out_u64(o, "delta", " +%" PRIu64 "\n", x->after - x->before);
	out_obj_end(o);
}

static void print_probes(struct out *o, const struct rdiag_doctor *d, bool verbose)
{
	size_t i, j, n = rdiag_doctor_paths_nprobes(d);

	if (verbose)
		out_text(o, "connections\n");
	out_arr_begin(o, "probes");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_path_probe *p = rdiag_doctor_paths_probe(d, i);
		out_obj_begin(o, NULL);
		out_u64(o, "seq", verbose ? "  #%-3" PRIu64 : NULL, p->seq);
		out_u64(o, "sport", verbose ? " sport %-5" PRIu64 : NULL, p->sport);
		out_str(o, "sport_how", NULL, rdiag_doc_sport_how_str(p->sport_how));
		out_u64(o, "sport_computed", NULL, p->sport_computed);
		out_u64(o, "sport_seen", verbose && p->sport_seen ? " (seen)" : NULL, p->sport_seen);
		out_str(o, "dev", NULL, p->dev);
		out_u64(o, "qpn", verbose ? " QP 0x%06" PRIx64 : NULL, p->qpn);
		out_u64(o, "remote_qpn", verbose ? " -> 0x%06" PRIx64 : NULL, p->remote_qpn);
		out_u64(o, "flow_label", NULL, p->flow_label);
		out_bool(o, "connected", NULL, p->connected);
		out_bool(o, "ok", verbose ? " %s" : NULL, p->ok);
		out_str(o, "cause", NULL, p->cause);
		out_str(o, "layer", NULL, p->layer);
		out_u64(o, "exchanges", NULL, p->exchanges);
		out_u64(o, "completed", verbose ? " %" PRIu64 : NULL, p->completed);
		out_u64(o, "lost", verbose ? "/%" PRIu64 " completed" : NULL,
			p->exchanges - p->completed);
		out_i64(o, "wc_status", NULL, p->wc_status);
		out_dbl(o, "rtt_min_ms", NULL, p->rtt_min);
		out_dbl(o, "rtt_med_ms", NULL, p->rtt_med);
		if (verbose && p->completed)
			out_text(o, ", rtt %.3f/%.3f/%.3f ms", p->rtt_min, p->rtt_med, p->rtt_max);
		out_dbl(o, "rtt_max_ms", NULL, p->rtt_max);
		out_dbl(o, "ms", verbose ? ", %.1f ms" : NULL, p->ms);
		out_str(o, "detail", verbose && p->detail[0] ? ": %s" : NULL, p->detail);
		out_text(o, verbose ? "\n" : "");
		out_bool(o, "deltas_exact", NULL, p->deltas_exact);
		out_arr_begin(o, "counters");
		for (j = 0; j < p->ndeltas; j++)
			print_delta(o, &p->deltas[j], verbose ? "        " : NULL);
		out_arr_end(o);
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void print_ports(struct out *o, const struct rdiag_doctor *d)
{
	size_t i, n = rdiag_doctor_paths_nports(d);

	out_text(o, "source ports\n  %-6s %-4s %-8s %-7s %-7s %-26s %s\n", "sport", "ok",
		 "probes", "loss", "retries", "rtt min/med/max ms", "cause");
	out_arr_begin(o, "ports");
	for (i = 0; i < n; i++) {
		const struct rdiag_doc_path *p = rdiag_doctor_paths_port(d, i);
		char loss[24], rtt[48];

		snprintf(loss, sizeof(loss), "%u/%u", p->exchanges - p->completed, p->exchanges);
		if (p->completed)
			snprintf(rtt, sizeof(rtt), "%.3f/%.3f/%.3f", p->rtt_min, p->rtt_med,
				 p->rtt_max);
		else
			snprintf(rtt, sizeof(rtt), "-");
		out_obj_begin(o, NULL);
		out_u64(o, "sport", "  %-6" PRIu64, p->sport);
		out_text(o, " %-4s", p->bad ? "BAD" : "ok");
		out_bool(o, "bad", NULL, p->bad);
		out_str(o, "sport_how", NULL, rdiag_doc_sport_how_str(p->sport_how));
		out_text(o, " %u/%-6u", p->ok, p->probes);
		out_u64(o, "probes", NULL, p->probes);
		out_u64(o, "probes_ok", NULL, p->ok);
		out_text(o, " %-7s", loss);
		out_u64(o, "exchanges", NULL, p->exchanges);
		out_u64(o, "lost", NULL, p->exchanges - p->completed);
		out_u64(o, "retries", " %-7" PRIu64, p->retries);
		out_text(o, " %-26s", rtt);
		out_dbl(o, "rtt_min_ms", NULL, p->rtt_min);
		out_dbl(o, "rtt_med_ms", NULL, p->rtt_med);
		out_dbl(o, "rtt_max_ms", NULL, p->rtt_max);
		out_str(o, "cause", " %s\n", p->cause);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!n)
		out_text(o, "  (no connection carried data: no source port to name)\n");
}

static void print_verdict(struct out *o, const struct rdiag_doc_paths_verdict *v)
{
	size_t i, j, n;

	out_obj_begin(o, "verdict");
	out_text(o, "verdict: %s", v->cls == RDIAG_PATHS_ALL_GOOD ? "OK, all paths good" :
		 v->cls == RDIAG_PATHS_SUBSET ? "PROBLEM, some paths bad" :
		 v->cls == RDIAG_PATHS_ALL_BAD ? "PROBLEM, all paths bad" : "nothing probed");
	out_str(o, "class", " [%s]", v->name);
	out_bool(o, "ok", NULL, v->cls == RDIAG_PATHS_ALL_GOOD);
	out_u64(o, "ports", " ports %" PRIu64, v->nports);
	out_u64(o, "bad", " bad %" PRIu64, v->nbad);
	out_u64(o, "good", " good %" PRIu64 "\n", v->ngood);
	out_u64(o, "flaky", NULL, v->nflaky);
	out_u64(o, "unplaced", NULL, v->nunplaced);
	out_dbl(o, "bad_fraction", NULL, v->bad_fraction);
	out_arr_begin(o, "ranges");
	for (i = 0; i < v->nranges; i++) {
		out_obj_begin(o, NULL);
		out_u64(o, "lo", NULL, v->ranges[i].lo);
		out_u64(o, "hi", NULL, v->ranges[i].hi);
		out_u64(o, "ports", NULL, v->ranges[i].nbad);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_str(o, "bad_ports", v->nbad ? "  bad source ports: %s\n" : NULL, v->bad_list);
	out_str(o, "sentence", "  %s\n", v->sentence);
	out_str(o, "next", v->next[0] ? "  next: %s\n" : NULL, v->next);
	if (v->cls == RDIAG_PATHS_ALL_BAD && v->doctor.cause) {
		const struct rdiag_doc_verdict *x = &v->doctor;
		char buf[sizeof(x->evidence)], *line, *save;

		out_obj_begin(o, "doctor");
		out_text(o, "the first failed connection's verdict: PROBLEM");
		out_bool(o, "ok", NULL, x->ok);
		out_str(o, "layer", " [layer %s]", x->layer);
		out_str(o, "cause", " cause=%s\n", x->cause);
		out_str(o, "sentence", "  %s\n", x->sentence);
		snprintf(buf, sizeof(buf), "%s", x->evidence);
		out_arr_begin(o, "evidence");
		n = 0;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++)
			out_str(o, NULL, "  evidence: %s\n", line);
		out_arr_end(o);
		out_str(o, "next", x->next[0] ? "  next: %s\n" : NULL, x->next);
		out_obj_end(o);
		(void)j;
	}
	out_obj_end(o);
}

int doctor_paths(const struct doctor_paths_cfg *c)
{
	struct rdiag_doc_opts opts = { 0 };
	struct rdiag_doc_paths_opts po = c->po;
	struct rdiag_doc_paths_verdict v;
	struct progress pr = { (double)tool_mono_ns() / 1e6, isatty(STDERR_FILENO) == 1, false };
	struct rdiag_doctor *d;
	struct out *o;
	const char *hazard;
	unsigned int attempts;
	bool budget_hit;
	double ms;
	size_t i, n;
	int ret;

	opts.dst = c->addr;
	opts.port = c->port;
	opts.src = c->src;
	opts.timeout_ms = c->timeout_ms;
	opts.ps = c->ps;
	po.progress = on_progress;
	po.arg = &pr;
	if (rdiag_doctor_open(&d, NULL))
		tool_die("%s", rdiag_doctor_errmsg(NULL));
	rdiag_doctor_check_local(d, 0);
	if (!rdiag_doctor_ndevices(d)) {
		rdiag_doctor_close(d);
		tool_die("cannot run: there is no RDMA device on this host; load the RDMA driver or create a soft device (rdma link add rxe0 type rxe netdev NETDEV)");
	}
	ret = rdiag_doctor_check_path(d, &opts);
	if (ret) {
		char why[300];

		snprintf(why, sizeof(why), "%s", rdiag_doctor_errmsg(d));
		rdiag_doctor_close(d);
		tool_die("%s", why);
	}
	hazard = rdiag_doctor_attempt_hazard(d);
	if (hazard && !c->force) {
		char line[700];

		snprintf(line, sizeof(line), "refusing to probe: %s (--force probes anyway)", hazard);
		rdiag_doctor_close(d);
		tool_die("%s", line);
	}
	o = out_new(stdout, c->json ? OUT_JSON : OUT_TEXT);
	if (!o)
		tool_die("out of memory");
	out_obj_begin(o, NULL);
	out_str(o, "command", NULL, "paths");
	out_str(o, "dst", "paths %s", c->host);
	if (strcmp(c->host, c->addr))
		out_str(o, "dst_addr", " (%s)", c->addr);
	out_u64(o, "port", " port %" PRIu64, opts.port);
	if (c->src)
		out_str(o, "src", " from %s", c->src);
	out_str(o, "ps", " (port space %s,", tool_name_or(rdiag_port_space_name((unsigned int)c->ps), "?"));
	out_u64(o, "paths", " %" PRIu64 " source ports,", po.paths ? po.paths : RDIAG_DOC_PATHS_DEFAULT);
	out_u64(o, "probes", " %" PRIu64 " exchanges each,",
		po.probes ? po.probes : RDIAG_DOC_PROBES_DEFAULT);
	out_u64(o, "concurrency", " concurrency %" PRIu64 ",", po.concurrency ? po.concurrency : 1);
	if (po.set_tos)
		out_u64(o, "tos", " ToS %" PRIu64 ",", po.tos);
	if (po.budget_ms)
		out_dbl(o, "budget_s", " budget %g s,", po.budget_ms / 1000.0);
	out_i64(o, "timeout_ms", " timeout %" PRId64 " ms)\n\n", opts.timeout_ms);
	print_checks(o, d, c->verbose);
	ret = rdiag_doctor_paths(d, &opts, &po);
	if (pr.shown)
		fprintf(stderr, "\r\033[K");
	if (ret) {
		char why[300];

		snprintf(why, sizeof(why), "%s", rdiag_doctor_errmsg(d));
		out_free(o);
		rdiag_doctor_close(d);
		tool_die("cannot probe the paths: %s", why);
	}
	rdiag_doctor_paths_run(d, &attempts, &budget_hit, &ms);
	out_obj_begin(o, "run");
	out_u64(o, "connections", "run: %" PRIu64 " connections", attempts);
	out_u64(o, "ports", ", %" PRIu64 " distinct source ports", rdiag_doctor_paths_nports(d));
	out_dbl(o, "ms", " in %.1f ms", ms);
	out_bool(o, "budget_hit", budget_hit ? " (stopped by the time budget)" : NULL, budget_hit);
	/* how the device picked the ports (the first connection that carried data) */
	n = rdiag_doctor_paths_nprobes(d);
	for (i = 0; i < n && !rdiag_doctor_paths_probe(d, i)->sport; i++)
		;
	if (i < n)
		out_str(o, "sport_how", "\n  source port from: %s",
			rdiag_doc_sport_how_str(rdiag_doctor_paths_probe(d, i)->sport_how));
	/* the ports read back from the wire, or why they could not be */
	{
		unsigned int seen, differ, carried = 0;
		const char *cap = rdiag_doctor_paths_capture(d, &seen, &differ);

		for (i = 0; i < n; i++)
			carried += rdiag_doctor_paths_probe(d, i)->sport_computed != 0;
		out_str(o, "capture", NULL, cap);
		out_u64(o, "ports_seen", NULL, seen);
		out_u64(o, "ports_differ", NULL, differ);
		if (seen)
			out_text(o, "\n  confirmed by a capture on %s: %u of %u connections seen, %u at another port than the rule gives (the capture's is used)",
				 cap, seen, carried, differ);
		else if (!strcmp(cap, "off"))
			out_text(o, "\n  not confirmed: no capture");
		else if (carried && strchr(cap, ' '))
			out_text(o, "\n  not confirmed: %s", cap);
		else if (carried)
			out_text(o, "\n  not confirmed: no packet of the connections seen on %s (hardware RoCE bypasses the host's stack)",
				 cap);
	}
	out_text(o, "\n");
	out_obj_end(o);
	print_probes(o, d, c->verbose);
	print_ports(o, d);
	out_text(o, "counters during the run\n");
	out_arr_begin(o, "counters");
	for (i = 0; i < rdiag_doctor_ndeltas(d); i++)
		print_delta(o, rdiag_doctor_delta(d, i), "  ");
	if (!rdiag_doctor_ndeltas(d))
		out_text(o, "  (no counter moved or none readable)\n");
	out_arr_end(o);
	rdiag_doctor_paths_verdict(d, &v);
	print_verdict(o, &v);
	out_obj_end(o);
	out_free(o);
	rdiag_doctor_close(d);
	return v.cls == RDIAG_PATHS_ALL_GOOD ? EXIT_OK : EXIT_FOUND;
}
