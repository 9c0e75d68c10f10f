/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat: RDMA counters, devices, GIDs, QPs and rdma_cm IDs, from sysfs and netlink.
 *
 *   rdmastat [OPTIONS] [DEV[/PORT]] [NAME|GLOB...]     snapshot (or -i: deltas and rates)
 *   rdmastat [OPTIONS] devices|qp|cm [DEV]
 *   rdmastat [OPTIONS] fabric [DEV[/PORT]]               DCB, ECN and the lossless chain
 *   rdmastat explain COUNTER|CONCEPT
 *
 * All the work is in librdmadiag (counters, catalog, rate, threshold, resources); this file
 * parses the command line and formats.  Text and JSON go through out; CSV and
 * Prometheus use the library's escaping helpers. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/fabric.h>
#include <rdmadiag/packet.h>
#include "common/out.h"
#include <rdmadiag/rate.h>
#include <rdmadiag/resources.h>
#include <rdmadiag/threshold.h>

#include "common/clock.h"
#include "common/cmd.h"
#include "common/esc.h"
#include "common/eth_words.h"
#include "common/tool.h"
#include "common/interval.h"
#include "common/prom.h"
#include "fabric.h"
#include "outfile.h"
#include "previdx.h"
#include "common/timefmt.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_PROM };

struct opts {
	enum fmt fmt;
	bool pretty;
	bool all;
	double interval;	/* 0 = snapshot */
	uint64_t count;		/* 0 = until interrupted */
	const char *threshold_file;
	const char *nl_record;
	enum rdiag_source source;
	const char *dev;
	uint32_t port;
	char **names;		/* names, globs and concepts: positional and -c */
	size_t n_names;
	size_t n_from_c;	/* names[0..n_from_c) came from -c, the positional ones follow */
	const char *subject;	/* explain's COUNTER|CONCEPT */
	int tos;		/* fabric --tos, -1 none */
	double pause_max;	/* fabric --pause-max (frames/s), 0 the default */
	double pause_time_max;	/* fabric --pause-time-max (a fraction), 0 the default */
	bool color;
	bool eth;		/* --eth: every Ethernet statistic of the ports' netdevs */
	bool eth_read;		/* Ethernet statistics are in the sets (--eth, or named) */
	const char *output;	/* -o FILE: each report replaces FILE atomically */
};

static struct opts opts;
static struct rdiag_counters *counters;
static struct out *output;
static struct rdiag_thresholds *thresholds;
static struct rdiag_fabric *fabric;	/* the Ethernet statistics' reader, when asked for */
static volatile sig_atomic_t stop_requested;

static void usage(void)
{
	printf("Usage: rdmastat [OPTIONS] [DEV[/PORT]] [COUNTER|GLOB|CONCEPT...]\n"
	       "       rdmastat [OPTIONS] devices|qp|cm [DEV]\n"
	       "       rdmastat [OPTIONS] fabric [DEV[/PORT]]\n"
	       "       rdmastat explain COUNTER|CONCEPT\n"
	       "\n"
	       "Show RDMA counters (netlink hw counters, IB PMA and CM counters from sysfs), with\n"
	       "what each one means, deltas and rates, and thresholds.\n"
	       "\n"
	       "Commands:\n"
	       "  (none)       every device/port with its state and non-zero counters\n"
	       "  devices      devices, ports, netdevs, MTU and GID tables (show_gids + ibdev2netdev)\n"
	       "  qp           queue pairs with state, PSNs, owner pid and command\n"
	       "  cm           rdma_cm IDs with state, addresses, owner pid and command\n"
	       "  fabric       DCB (PFC, ETS, APP), ECN/CNP settings and whether RoCE rides the\n"
	       "               lossless priority; -i SECONDS measures per-priority traffic\n"
	       "  explain X    the catalogue entry of counter or concept X\n"
	       "\n"
	       "Options:\n"
	       "  -a, --all              show zero counters too (text)\n"
	       "  -c, --concept NAME     only counters NAME selects: a concept, name or glob\n"
	       "      --eth              also every Ethernet statistic (ethtool -S) of each\n"
	       "                         port's netdev; without it only those named by -c,\n"
	       "                         NAME or a threshold rule are read\n"
	       "  -i, --interval SECONDS print deltas and rates every SECONDS\n"
	       "  -n, --count COUNT      stop after COUNT intervals\n"
	       "  -j, --json             JSON (iproute2 keys: ifname, port, counters)\n"
	       "  -p, --pretty           indented JSON\n"
	       "      --csv              CSV with a header line\n"
	       "      --prom             Prometheus text exposition (node_exporter textfile)\n"
	       "  -o, --output FILE      write to FILE instead: each report (each interval with\n"
	       "                         -i) replaces FILE whole, by rename, never in part\n"
	       "      --tos N            fabric: the ToS the applications use (NCCL_IB_TC)\n"
	       "      --pause-max N      fabric: pause frames/s on a priority that are a finding\n"
	       "                         (default 1000)\n"
	       "      --pause-time-max P fabric: percent of the interval paused that is a finding\n"
	       "                         (default 10)\n"
	       "  -t, --thresholds FILE  check NAME[@DEV[/PORT]] > VALUE[/s] rules; exit 1 on breach\n"
	       "  -s, --source SRC       auto (default), netlink or sysfs\n"
	       "      --nl-record FILE   record netlink replies to FILE (replay: RDMADIAG_NL_REPLAY)\n"
	       "  -h, --help             this help\n"
	       "      --version          version\n"
	       "\n"
	       "Exit status: 0 ok, 1 a threshold was exceeded (or explain found nothing),\n"
	       "2 usage error or no RDMA device.\n");
}

/* ---------------------------------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void no_devices(void)
{
	tool_die_no_devices(rdiag_counters_sysfs_root(counters));
}

/* "no RDMA device 'X'" and the devices there are, as rdmacheck says it ("have: none" when
 * the listing fails or is empty) */
static void die_no_device(const char *what, const char *name)
{
	struct rdiag_devices *ds = NULL;
	char have[512] = "";
	size_t off = 0, i;

	if (rdiag_counters_discover(counters, &ds) == 0)
		for (i = 0; i < ds->n && off < sizeof(have); i++)
			off += (size_t)snprintf(have + off, sizeof(have) - off, "%s%s", i ? ", " : "",
						ds->dev[i].name);
	rdiag_counters_devices_free(ds);
	tool_die("%s '%s' (have: %s)", what, name, have[0] ? have : "none");
}

static void lib_fail(const char *what, int err)
{
	const char *m = rdiag_counters_errmsg(counters);

	if (err == -ENODEV && opts.dev)
		die_no_device("no RDMA device", opts.dev);
	if (m && *m)
		tool_die("%s: %s", what, m);
	tool_die("%s: %s", what, strerror(-err));
}

/* a report's start and end: with -o, what is between goes to FILE whole or not at all
 * (outfile.h); without, the end flushes it to stdout */
static void report_begin(void)
{
	outfile_begin();
}

static void report_end(void)
{
	out_flush(output);
	fflush(stdout);
	outfile_commit();
}

static const char *color(const char *c)
{
	return opts.color ? c : "";
}

/* an entry of /sys/class/infiniband the library left out (a symlink that loops, a port
 * directory that is not a port number): one warning line each, the rest is read */
static void warn_skipped(const struct rdiag_skipped *k)
{
	tool_warn("skipped '%s': %s", k->path, k->why ? k->why : strerror(-k->err));
}

/* the skipped entries of a snapshot, except those the previous one had (-i says each once) */
static void warn_skipped_new(const struct rdiag_samples *set, const struct rdiag_samples *prev)
{
	size_t i, j, n = rdiag_samples_skipped_count(set), m = rdiag_samples_skipped_count(prev);

	for (i = 0; i < n; i++) {
		const struct rdiag_skipped *k = rdiag_samples_skipped_get(set, i);

		for (j = 0; j < m; j++)
			if (!strcmp(rdiag_samples_skipped_get(prev, j)->path, k->path))
				break;
		if (j == m)
			warn_skipped(k);
	}
}

/* ---- selection -------------------------------------------------------------------- */

/* the counter selection: positional names and -c, by the library's one rule (a name, an
 * alias, a concept or a glob; rdiag_counter_match) */
static bool selected(const struct rdiag_sample *s)
{
	size_t i;

	if (!opts.n_names)
		return true;
	for (i = 0; i < opts.n_names; i++)
		if (rdiag_sample_match(opts.names[i], s, 0))
			return true;
	return false;
}

static bool is_eth(const struct rdiag_sample *s)
{
	return s->origin == RDIAG_ORIG_ETH;
}

/* the kind of a selection word: an Ethernet catalogue concept is a concept too */
static enum rdiag_pattern_kind word_kind(const char *w)
{
	enum rdiag_pattern_kind k = rdiag_pattern_kind(w);

	return k == RDIAG_PATTERN_NAME && opts.eth_read && eth_word_is_concept(w) ?
	       RDIAG_PATTERN_CONCEPT : k;
}

static bool same_port(const struct rdiag_sample *a, const struct rdiag_sample *b)
{
	return a->port == b->port && !strcmp(a->dev, b->dev);
}

/* "rxe0/1", or "bnxt_re0" for device-level counters */
static const char *port_label(const struct rdiag_sample *s, char *buf, size_t len)
{
	if (s->port)
		snprintf(buf, len, "%s/%u", s->dev, s->port);
	else
		snprintf(buf, len, "%s", s->dev);
	return buf;
}

/* A glob or concept that selects nothing on a port is one line on stderr naming the ports
 * (the selection is not silently empty there) */
static void warn_unmatched(const char *pattern, const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i = 0, j, len = 0, missed = 0;
	char ports[512] = "", one[160];

	while (i < n) {
		const struct rdiag_sample *first = rdiag_samples_get(set, i);
		bool hit = false;

		for (j = i; j < n && same_port(rdiag_samples_get(set, j), first); j++)
			hit |= rdiag_sample_match(pattern, rdiag_samples_get(set, j), 0);
		i = j;
		if (hit)
			continue;
		port_label(first, one, sizeof(one));
		if (len < sizeof(ports))
			len += (size_t)snprintf(ports + len, sizeof(ports) - len, "%s%s",
						missed ? ", " : "", one);
		missed++;
	}
	if (missed)
		tool_warn("%s '%s' matches no counter on %s",
			  word_kind(pattern) == RDIAG_PATTERN_GLOB ? "glob" : "concept",
			  pattern, ports);
}

/* A threshold rule that selects no counter at all can never breach: a typo in a monitoring
 * rule would read as "no errors".  One warning line per such rule, at the first sample. */
static void check_rules(const struct rdiag_samples *set)
{
	size_t i;

	for (i = 0; thresholds && i < thresholds->n; i++) {
		const struct rdiag_threshold_rule *r = &thresholds->rule[i];

		if (rdiag_threshold_matches_none(r, set))
			tool_warn("%s: line %u: '%s' matches no counter%s%s; the rule cannot breach",
				  opts.threshold_file, r->line, tool_esc_tmp(r->key),
				  r->dev ? " on " : "", r->dev ? tool_esc_tmp(r->dev) : "");
	}
}

/* A plain name that matches no counter is a typo or an absent device: an error.  A glob or
 * concept that matches nothing on a port is a warning. */
static void check_names(const struct rdiag_samples *set)
{
	size_t i, j, n = rdiag_samples_count(set);

	for (i = 0; i < opts.n_names; i++) {
		const char *name = opts.names[i];

		if (word_kind(name) != RDIAG_PATTERN_NAME) {
			warn_unmatched(name, set);
			continue;
		}
		for (j = 0; j < n; j++)
			if (rdiag_sample_match(name, rdiag_samples_get(set, j), 0))
				break;
		/* only the first positional word may have been meant as a device */
		if (j == n && (opts.dev || i != opts.n_from_c))
			tool_die("no counter '%s'%s%s", name, opts.dev ? " on " : "",
				 opts.dev ? opts.dev : "");
		if (j == n)
			die_no_device("no RDMA device or counter", name);
	}
}

/* the previous sample of the same counter: same index first (sets keep their order), then
 * the previous set's index (previdx.h) */
static const struct rdiag_sample *prev_of(struct prev_index *px, size_t i,
					  const struct rdiag_sample *s)
{
	const struct rdiag_sample *p = rdiag_samples_get(px->set, i);

	if (p && same_port(p, s) && p->origin == s->origin && !strcmp(p->name, s->name))
		return p;
	return prev_index_find(px, s);
}

/* ---- thresholds ------------------------------------------------------------------- */

static struct rdiag_breach *breaches;
static size_t n_breaches;
static bool breached;

static void check(const struct rdiag_sample *s, const struct rdiag_rate *r)
{
	if (thresholds && rdiag_threshold_eval(thresholds, s, r, &breaches, &n_breaches) < 0)
		tool_die("out of memory");
}

static void print_breaches(void)
{
	FILE *f = (opts.fmt == FMT_CSV || opts.fmt == FMT_PROM) ? stderr : stdout;
	size_t i;

	if (!n_breaches)
		return;
	breached = true;
	if (opts.fmt == FMT_JSON) {
		out_obj_begin(output, NULL);
		out_arr_begin(output, "breaches");
		for (i = 0; i < n_breaches; i++) {
			const struct rdiag_breach *b = &breaches[i];

			out_obj_begin(output, NULL);
			out_str(output, "ifname", NULL, b->sample->dev);
			if (b->sample->port)
				out_u64(output, "port", NULL, b->sample->port);
			out_str(output, "counter", NULL, b->sample->name);
			if (is_eth(b->sample)) {
				out_str(output, "source", NULL, "ethtool");
				out_str(output, "netdev", NULL, b->sample->netdev);
			}
			out_str(output, "rule", NULL, b->rule->key);
			out_u64(output, "line", NULL, b->rule->line);
			out_str(output, "kind", NULL, rdiag_threshold_kind_name(b->rule->kind));
			out_dbl(output, "limit", NULL, b->rule->limit);
			out_dbl(output, "observed", NULL, b->observed);
			out_obj_end(output);
		}
		out_arr_end(output);
		out_obj_end(output);
	} else {
		fflush(stdout);
		for (i = 0; i < n_breaches; i++) {
			const struct rdiag_breach *b = &breaches[i];
			const char *unit = b->rule->kind == RDIAG_THR_RATE ? "/s" : "";

			fprintf(f, "%sBREACH%s %s/%u %s %s %.6g%s > %.6g%s (line %u: %s)\n",
				color("\033[1;31m"), color("\033[0m"), tool_esc_tmp(b->sample->dev),
				b->sample->port, tool_esc_tmp(b->sample->name),
				b->rule->kind == RDIAG_THR_DELTA ? "delta" :
				b->rule->kind == RDIAG_THR_RATE ? "rate" : "=",
				b->observed, unit, b->rule->limit, unit, b->rule->line, b->rule->key);
		}
	}
	free(breaches);
	breaches = NULL;
	n_breaches = 0;
}

/* ---- snapshot --------------------------------------------------------------------- */

static const struct rdiag_port *find_port(const struct rdiag_devices *ds, const char *dev,
					  uint32_t port)
{
	const struct rdiag_device *d = rdiag_counters_device_find(ds, dev);
	size_t i;

	for (i = 0; d && i < d->n_ports; i++)
		if (d->ports[i].port == port)
			return &d->ports[i];
	return NULL;
}

static const char *sev_color(const struct rdiag_sample *s, uint64_t v)
{
	if (!v || !s->cat)
		return "";
	if (s->cat->severity == RDIAG_SEV_ERROR)
		return color("\033[31m");
	if (s->cat->severity == RDIAG_SEV_WARNING)
		return color("\033[33m");
	return "";
}

static void text_port_header(const struct rdiag_devices *ds, const struct rdiag_sample *s)
{
	const struct rdiag_port *p = s->port ? find_port(ds, s->dev, s->port) : NULL;

	if (!s->port) {
		out_text(output, "%s (device)\n", tool_esc_tmp(s->dev));
		return;
	}
	out_text(output, "%s/%u", tool_esc_tmp(s->dev), s->port);
	if (p) {
		out_text(output, ": state %s physical_state %s",
			 tool_name_or(rdiag_port_state_name(p->state), "UNKNOWN"),
			 tool_name_or(rdiag_port_phys_state_name(p->phys_state), "UNKNOWN"));
		if (p->netdev[0])
			out_text(output, " netdev %s", tool_esc_tmp(p->netdev));
	}
	out_text(output, "\n");
}

static int name_width(const struct rdiag_samples *set, size_t from, size_t to)
{
	size_t i, w = 8, l;

	for (i = from; i < to; i++) {
		l = strlen(rdiag_samples_get(set, i)->name);
		if (l > w)
			w = l;
	}
	return (int)(w > 48 ? 48 : w);
}

/* the line that opens a port's Ethernet statistics in text, once, before the first shown */
static void text_eth_header(const struct rdiag_sample *s, bool *done)
{
	if (*done || !is_eth(s))
		return;
	*done = true;
	out_text(output, "  netdev %s (ethtool -S)\n", tool_esc_tmp(s->netdev));
}

/* an Ethernet statistic's concept column: "prio_pause" and its priority */
static void text_eth_concept(const struct rdiag_sample *s)
{
	if (!s->eth_concept)
		return;
	out_text(output, "  %s", s->eth_concept);
	if (s->eth_prio >= 0)
		out_text(output, " (priority %d)", s->eth_prio);
}

static void text_snapshot(const struct rdiag_samples *set, const struct rdiag_devices *ds)
{
	size_t n = rdiag_samples_count(set), i = 0, j;

	while (i < n) {
		const struct rdiag_sample *first = rdiag_samples_get(set, i);
		size_t end = i, shown = 0;
		bool eth_head = false;
		int w;

		while (end < n && same_port(rdiag_samples_get(set, end), first))
			end++;
		w = name_width(set, i, end);
		text_port_header(ds, first);
		for (j = i; j < end; j++) {
			const struct rdiag_sample *s = rdiag_samples_get(set, j);
			char why[128];

			if (!selected(s) || (!opts.all && !s->err && !s->value))
				continue;
			shown++;
			text_eth_header(s, &eth_head);
			if (s->err) {
				out_text(output, "    %-*s %20s  (%s)\n", w, tool_esc_tmp(s->name), "?",
					 prom_unreadable_why(s, true, why, sizeof(why)));
				continue;
			}
			out_text(output, "    %-*s %s%20" PRIu64 "%s", w, tool_esc_tmp(s->name),
				       sev_color(s, s->value), s->value,
				       *sev_color(s, s->value) ? color("\033[0m") : "");
			if (s->cat && s->cat->concept)
				out_text(output, "  %s", s->cat->concept);
			text_eth_concept(s);
			if (s->cat && s->cat->scale > 1)
				out_text(output, "  (x%u = %" PRIu64 " bytes)", s->cat->scale,
					       s->value * s->cat->scale);
			out_text(output, "\n");
		}
		if (!shown)
			out_text(output, "    (all counters zero%s)\n", opts.all ? " or filtered" : "");
		i = end;
	}
}

/* iproute2 `rdma -j statistic show`: [{"ifname":"rxe0","port":1,"sent_pkts":78,...}] */
static void json_snapshot(const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i = 0, j;

	out_arr_begin(output, NULL);
	while (i < n) {
		const struct rdiag_sample *first = rdiag_samples_get(set, i);
		size_t end = i;
		bool errs = false, eth_open = false;

		while (end < n && same_port(rdiag_samples_get(set, end), first))
			end++;
		out_obj_begin(output, NULL);
		out_str(output, "ifname", NULL, first->dev);
		if (first->port)
			out_u64(output, "port", NULL, first->port);
		for (j = i; j < end; j++) {
			const struct rdiag_sample *s = rdiag_samples_get(set, j);

			if (!selected(s))
				continue;
			if (is_eth(s) && !eth_open) {
				/* "ethtool": {"netdev": "eth0", "counters": {"rx_prio3_pause": 12}} */
				out_obj_begin(output, "ethtool");
				out_str(output, "netdev", NULL, s->netdev);
				out_obj_begin(output, "counters");
				eth_open = true;
			}
			if (s->err)
				errs = true;
			else
				out_u64(output, s->name, NULL, s->value);
		}
		if (eth_open) {
			out_obj_end(output);
			out_obj_end(output);
		}
		if (errs) {
			/* unreadable counters are named, not invented as zeros */
			out_obj_begin(output, "errors");
			for (j = i; j < end; j++) {
				const struct rdiag_sample *s = rdiag_samples_get(set, j);
				char why[128];

				if (selected(s) && s->err)
					out_str(output, s->name, NULL,
						prom_unreadable_why(s, false, why, sizeof(why)));
			}
			out_obj_end(output);
		}
		out_obj_end(output);
		i = end;
	}
	out_arr_end(output);
}

static void csv_field(const char *s)
{
	csv_escape(stdout, s);
}

static void csv_snapshot(const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i;

	/* an unreadable counter is a row without a value, and the reason under error */
	printf("device,port,counter,value,concept,unit,source,error\n");
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(set, i);
		char why[128];

		if (!selected(s))
			continue;
		csv_field(s->dev);
		printf(",%u,", s->port);
		csv_field(s->name);
		if (s->err)
			printf(",,");
		else
			printf(",%" PRIu64 ",", s->value);
		csv_field(s->cat && s->cat->concept ? s->cat->concept : s->eth_concept ?
			  s->eth_concept : "");
		printf(",%s,%s,", s->cat ? rdiag_unit_name(s->cat->unit) :
		       s->eth_cat ? s->eth_cat->unit : "", rdiag_origin_name(s->origin));
		if (s->err)
			csv_field(prom_unreadable_why(s, false, why, sizeof(why)));
		printf("\n");
	}
}

/* ---- Prometheus ------------------------------------------------------------------- */

static struct rdiag_fabric *prom_fab;	/* kept so that a replay's samples follow the intervals */
static bool prom_fab_failed, prom_eth_warned;

/* the exposition of every selected counter (common/prom.c, the agent's writer too); with
 * -i each sample carries the time of the interval in milliseconds (ts_ms >= 0), as the text
 * format allows */
static void prom_snapshot(const struct rdiag_samples *set, int64_t ts_ms)
{
	struct prom_out o = { .f = stdout, .ts_ms = ts_ms, .want = selected };
	struct rdiag_devices *ds = NULL;

	prom_counters(&o, set);
	/* a discovery that fails drops only the port and Ethernet families */
	if (!opts.n_names && rdiag_counters_discover(counters, &ds) == 0) {
		o.dev = opts.dev;
		o.port = opts.port;
		prom_port_gauges(&o, ds);
		if (!prom_fab && !prom_fab_failed && rdiag_fabric_open(&prom_fab, NULL) < 0) {
			tool_warn("Ethernet statistics: %s", rdiag_fabric_errmsg(NULL));
			prom_fab_failed = true;
		}
		if (prom_fab)
			prom_eth(&o, prom_fab, ds);
		if (o.eth_err[0] && !prom_eth_warned) {
			tool_warn("%s", o.eth_err);	/* said once, not in every interval */
			prom_eth_warned = true;
		}
		rdiag_counters_devices_free(ds);
		o.dev = NULL;
		o.port = 0;
	}
	prom_unreadable(&o, set);
}

static int cmd_snapshot(void)
{
	struct rdiag_filter f = { opts.dev, opts.port };
	struct rdiag_devices *ds = NULL;
	struct rdiag_samples *set;
	size_t i;
	int ret;

	/* port state for the text headers: cosmetic, so a failure only drops the state */
	if (opts.fmt == FMT_TEXT && rdiag_counters_discover(counters, &ds) < 0)
		ds = NULL;
	ret = rdiag_counters_sample(counters, &f, &set);
	if (ret < 0)
		lib_fail("cannot read counters", ret);
	warn_skipped_new(set, NULL);
	if (!rdiag_samples_count(set) && (!ds || !ds->n) && !opts.dev) {
		struct rdiag_devices *d2 = ds;

		if (!d2 && rdiag_counters_discover(counters, &d2) == 0 && d2->n) {
			rdiag_counters_devices_free(d2);
		} else {
			if (d2 != ds)
				rdiag_counters_devices_free(d2);
			no_devices();
		}
	}
	check_names(set);
	check_rules(set);
	switch (opts.fmt) {
	case FMT_TEXT: text_snapshot(set, ds); break;
	case FMT_JSON: json_snapshot(set); break;
	case FMT_CSV: csv_snapshot(set); break;
	case FMT_PROM: prom_snapshot(set, -1); break;
	}
	for (i = 0; i < rdiag_samples_count(set); i++) {
		const struct rdiag_sample *s = rdiag_samples_get(set, i);

		if (selected(s))
			check(s, NULL);
	}
	print_breaches();
	rdiag_samples_free(set);
	rdiag_counters_devices_free(ds);
	return breached ? EXIT_FOUND : EXIT_OK;
}

/* ---- intervals -------------------------------------------------------------------- */

/* the header line of interval CSV; with Ethernet statistics a last column says where each
 * row comes from */
static void csv_interval_head(void)
{
	printf("time,interval_s,device,port,counter,value,delta,rate_per_s,state,concept,"
	       "error%s\n", opts.eth_read ? ",source" : "");
}

/* now, for text and CSV (to the second) and for JSON (rdmadiag(7): RFC 3339 with nanoseconds) */
static void iso_now(char *buf, size_t len, char *json, size_t json_len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	tool_time_str(json, json_len, (uint64_t)ts.tv_sec, (uint32_t)ts.tv_nsec);
}

static void report_vanished(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
			    const char *when)
{
	size_t i, n = rdiag_samples_count(prev);

	for (i = 0; i < n; i++) {
		const struct rdiag_sample *p = rdiag_samples_get(prev, i);

		if (i && same_port(rdiag_samples_get(prev, i - 1), p))
			continue;
		if (rdiag_samples_find(cur, p->dev, p->port, p->name))
			continue;
		switch (opts.fmt) {
		case FMT_TEXT:
			out_text(output, "%s/%u: gone (device or port vanished)\n", tool_esc_tmp(p->dev),
				       p->port);
			break;
		case FMT_JSON:
			out_obj_begin(output, NULL);
			out_str(output, "time", NULL, when);
			out_str(output, "ifname", NULL, p->dev);
			if (p->port)
				out_u64(output, "port", NULL, p->port);
			out_bool(output, "vanished", NULL, true);
			out_obj_end(output);
			break;
		default:
			tool_warn("%s/%u vanished", p->dev, p->port);
			break;
		}
	}
}

/* the concept column of a counter or an Ethernet statistic ("" none) */
static const char *concept_of(const struct rdiag_sample *s)
{
	if (s->cat && s->cat->concept)
		return s->cat->concept;
	return s->eth_concept ? s->eth_concept : "";
}

/* interval CSV's last column, present when Ethernet statistics are read */
static void csv_source(const struct rdiag_sample *s)
{
	if (opts.eth_read)
		printf(",%s", rdiag_origin_name(s->origin));
}

/* the rate of cur's i-th sample since prev, or NULL when it is not selected */
static const struct rdiag_rate *rate_of(struct prev_index *px, size_t i,
					const struct rdiag_sample *s, struct rdiag_rate *r)
{
	if (!selected(s))
		return NULL;
	rdiag_rate_samples(prev_of(px, i, s), s, r);
	return r;
}

/* The seconds between s and its previous sample, when both were read: the ports' netdevs'
 * Ethernet statistics are read at their own time, after the RDMA counters, so their rates are
 * over their own interval, which is what JSON and CSV give next to them. Otherwise secs. */
static double own_secs(const struct rdiag_sample *p, const struct rdiag_sample *s, double secs)
{
	if (!p || p->err || s->err || !p->ts_ns || s->ts_ns <= p->ts_ns)
		return secs;
	return (double)(s->ts_ns - p->ts_ns) / 1e9;
}

/* what opens a port's part of an interval: in JSON its object up to "counters", in text the
 * port and the column heads */
static void interval_header(const struct rdiag_sample *s, const char *when_json, double secs,
			    int w)
{
	if (opts.fmt == FMT_JSON) {
		out_obj_begin(output, NULL);
		out_str(output, "time", NULL, when_json);
		out_dbl(output, "interval", NULL, secs);
		out_str(output, "ifname", NULL, s->dev);
		if (s->port)
			out_u64(output, "port", NULL, s->port);
		out_obj_begin(output, "counters");
	} else {
		out_text(output, "%s/%u\n", tool_esc_tmp(s->dev), s->port);
		out_text(output, "    %-*s %20s %14s %14s\n", w, "COUNTER", "VALUE", "DELTA",
			 "RATE/s");
	}
}

/* Machine formats are time series: JSON, CSV and Prometheus have every selected counter of
 * every port in every interval, moved or not; text shows what moved (all with -a). */
static void interval_report(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
			    double secs)
{
	static uint64_t intervals_done;
	size_t n = rdiag_samples_count(cur), i = 0, j;
	bool every = opts.all || opts.fmt != FMT_TEXT;
	struct rdiag_rate r0;
	char when[32], when_json[TOOL_TIME_LEN];
	struct prev_index px;

	prev_index_init(&px, prev);
	iso_now(when, sizeof(when), when_json, sizeof(when_json));
	report_begin();
	if (opts.fmt == FMT_PROM) {
		/* one exposition per interval, a blank line apart; with -o one per file, and
		 * without timestamps, which node_exporter's textfile collector refuses */
		report_vanished(prev, cur, when_json);
		for (i = 0; i < n; i++)
			if (rate_of(&px, i, rdiag_samples_get(cur, i), &r0))
				check(rdiag_samples_get(cur, i), &r0);
		if (intervals_done++ && !outfile_on())
			printf("\n");
		prom_snapshot(cur, outfile_on() ? -1 : (int64_t)(tool_real_ns() / 1000000));
		print_breaches();
		report_end();
		prev_index_free(&px);
		return;
	}
	/* with -o each interval's file is a whole CSV document */
	if (opts.fmt == FMT_CSV && outfile_on())
		csv_interval_head();
	if (opts.fmt == FMT_TEXT)
		out_text(output, "--- %s  interval %.3f s ---\n", when, secs);
	report_vanished(prev, cur, when_json);
	while (i < n) {
		const struct rdiag_sample *first = rdiag_samples_get(cur, i);
		size_t end = i;
		bool header = false, errs = false, eth_head = false;
		char why[128];
		int w;

		while (end < n && same_port(rdiag_samples_get(cur, end), first))
			end++;
		w = name_width(cur, i, end);
		for (j = i; j < end; j++) {
			const struct rdiag_sample *s = rdiag_samples_get(cur, j);
			const struct rdiag_sample *p;
			struct rdiag_rate r;

			if (!selected(s))
				continue;
			/* an unreadable counter has no value and no rate: it is listed with
			 * why (JSON: under errors), in every interval, never as 0 */
			if (s->err && opts.fmt == FMT_JSON) {
				errs = true;
				continue;
			}
			if (s->err && opts.fmt == FMT_CSV) {
				printf("%s,%.3f,", when, secs);
				csv_field(s->dev);
				printf(",%u,", s->port);
				csv_field(s->name);
				printf(",,,,,");
				csv_field(concept_of(s));
				printf(",");
				csv_field(prom_unreadable_why(s, false, why, sizeof(why)));
				csv_source(s);
				printf("\n");
				continue;
			}
			if (s->err) {
				if (!header)
					interval_header(s, when_json, secs, w);
				header = true;
				out_text(output, "    %-*s %20s  (%s)\n", w, s->name, "?",
					 prom_unreadable_why(s, true, why, sizeof(why)));
				continue;
			}
			p = prev_of(&px, j, s);
			rdiag_rate_samples(p, s, &r);
			check(s, &r);
			if (!every && !(r.state == RDIAG_RATE_VALID && r.delta) &&
			    r.state != RDIAG_RATE_RESET)
				continue;
			if (opts.fmt == FMT_CSV) {
				printf("%s,%.3f,", when, is_eth(s) ? own_secs(p, s, secs) : secs);
				csv_field(s->dev);
				printf(",%u,", s->port);
				csv_field(s->name);
				printf(",%" PRIu64 ",", s->value);
				if (r.state == RDIAG_RATE_VALID)
					printf("%" PRIu64 ",%.3f,", r.delta, r.per_sec);
				else
					printf(",,");
				printf("%s,", rdiag_rate_state_name(r.state));
				csv_field(concept_of(s));
				printf(",");
				csv_source(s);
				printf("\n");
				continue;
			}
			if (!header)
				interval_header(s, when_json, secs, w);
			header = true;
			if (is_eth(s) && !eth_head && opts.fmt == FMT_JSON) {
				/* the port's Ethernet statistics: "ethtool": {"netdev": "eth0",
				 * "counters": {...}} after its RDMA counters */
				out_obj_end(output);
				out_obj_begin(output, "ethtool");
				out_str(output, "netdev", NULL, s->netdev);
				out_dbl(output, "interval", NULL, own_secs(p, s, secs));
				out_obj_begin(output, "counters");
			}
			if (opts.fmt == FMT_TEXT)
				text_eth_header(s, &eth_head);
			else if (is_eth(s))
				eth_head = true;
			if (opts.fmt == FMT_JSON) {
				out_obj_begin(output, s->name);
				out_u64(output, "value", NULL, s->value);
				out_str(output, "state", NULL, rdiag_rate_state_name(r.state));
				if (r.state == RDIAG_RATE_VALID) {
					out_u64(output, "delta", NULL, r.delta);
					out_dbl(output, "rate", NULL, r.per_sec);
				}
				if (r.wrapped)
					out_bool(output, "wrapped", NULL, true);
				if (r.saturated)
					out_bool(output, "saturated", NULL, true);
				out_obj_end(output);
			} else if (r.state == RDIAG_RATE_VALID) {
				out_text(output, "    %-*s %20" PRIu64 " %s%14" PRIu64 "%s %14.1f%s%s\n",
					       w, tool_esc_tmp(s->name), s->value, sev_color(s, r.delta), r.delta,
					       *sev_color(s, r.delta) ? color("\033[0m") : "",
					       r.per_sec, r.wrapped ? "  (wrapped)" : "",
					       r.saturated ? "  (saturated: reset it)" : "");
			} else {
				out_text(output, "    %-*s %20" PRIu64 " %14s %14s\n", w, tool_esc_tmp(s->name),
					       s->value, rdiag_rate_state_name(r.state), "-");
			}
		}
		if (opts.fmt == FMT_JSON && (header || errs)) {
			if (!header)
				interval_header(first, when_json, secs, w);
			out_obj_end(output);
			if (eth_head)
				out_obj_end(output);	/* "ethtool" */
			if (errs) {
				out_obj_begin(output, "errors");
				for (j = i; j < end; j++) {
					const struct rdiag_sample *s = rdiag_samples_get(cur, j);

					if (selected(s) && s->err)
						out_str(output, s->name, NULL,
							prom_unreadable_why(s, false, why, sizeof(why)));
				}
				out_obj_end(output);
			}
			out_obj_end(output);
		}
		i = end;
	}
	print_breaches();
	report_end();
	prev_index_free(&px);
}

static void add_ns(struct timespec *t, uint64_t ns)
{
	ns += (uint64_t)t->tv_nsec;
	t->tv_sec += (time_t)(ns / 1000000000ull);
	t->tv_nsec = (long)(ns % 1000000000ull);
}

static int cmd_interval(void)
{
	struct rdiag_filter f = { opts.dev, opts.port };
	struct rdiag_samples *prev, *cur;
	struct sigaction sa;
	struct timespec next;
	uint64_t step = (uint64_t)(opts.interval * 1e9), k;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the sleep returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	ret = rdiag_counters_sample(counters, &f, &prev);
	if (ret == -EINTR && stop_requested)
		return EXIT_OK;		/* stopped while a read blocked */
	if (ret < 0)
		lib_fail("cannot read counters", ret);
	warn_skipped_new(prev, NULL);
	if (!rdiag_samples_count(prev) && !opts.dev) {
		struct rdiag_devices *ds;

		if (rdiag_counters_discover(counters, &ds) < 0 || !ds->n)
			no_devices();
		rdiag_counters_devices_free(ds);
	}
	check_names(prev);
	check_rules(prev);
	if (opts.fmt == FMT_CSV && !outfile_on())
		csv_interval_head();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (k = 0; !stop_requested && (!opts.count || k < opts.count); k++) {
		uint64_t t0 = rdiag_samples_count(prev) ? rdiag_samples_get(prev, 0)->ts_ns : 0;

		add_ns(&next, step);
		while (!stop_requested && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		if (stop_requested)
			break;
		ret = rdiag_counters_sample(counters, &f, &cur);
		if (ret == -EINTR && stop_requested)
			break;		/* SIGINT or SIGTERM while a read blocked */
		if (ret == -ENODEV && opts.dev) {
			/* the device we watch is gone: say so once, and stop */
			struct rdiag_samples *empty = NULL;

			interval_report(prev, empty, opts.interval);
			rdiag_samples_free(prev);
			prev = NULL;
			tool_err("device '%s' vanished", opts.dev);
			return EXIT_FOUND;
		}
		if (ret < 0)
			lib_fail("cannot read counters", ret);
		warn_skipped_new(cur, prev);
		interval_report(prev, cur,
				rdiag_samples_count(cur) && t0 ?
				(double)(rdiag_samples_get(cur, 0)->ts_ns - t0) / 1e9 : opts.interval);
		rdiag_samples_free(prev);
		prev = cur;
	}
	rdiag_samples_free(prev);
	return breached ? EXIT_FOUND : EXIT_OK;
}

/* ---- devices ---------------------------------------------------------------------- */

/* counter mode and optional counters (netlink only; silently absent otherwise) */
static void port_status(const char *dev, uint32_t port)
{
	static const char *const modes[] = { "none", "auto", "manual" };
	struct rdiag_counter_status st;
	size_t k;

	if (opts.source == RDIAG_SRC_SYSFS || rdiag_counters_status(counters, dev, port, &st) < 0)
		return;
	out_str(output, "counter_mode", "    counter mode %s",
		      st.mode < 3 ? modes[st.mode] : "unknown");
	if (st.mode == 1)
		out_u64(output, "counter_auto_mask", " (mask 0x%" PRIx64 ")", st.auto_mask);
	out_arr_begin(output, "optional_counters");
	for (k = 0; k < st.n; k++) {
		out_obj_begin(output, NULL);
		out_str(output, "name", k ? ", %s" : "; optional counters: %s", st.names[k]);
		out_bool(output, "enabled", NULL, st.enabled[k]);
		out_text(output, "%s", st.enabled[k] ? " (on)" : " (off)");
		out_obj_end(output);
	}
	out_arr_end(output);
	out_text(output, "\n");
	rdiag_counters_status_free(&st);
}

static int cmd_devices(int argc, char **argv, void *ctx)
{
	struct rdiag_devices *ds;
	size_t i, j, g;
	bool any = false;
	int ret = rdiag_counters_discover(counters, &ds);

	if (ret < 0)
		lib_fail("cannot list RDMA devices", ret);
	for (i = 0; i < ds->n_skipped; i++)
		warn_skipped(&ds->skipped[i]);
	if (!ds->n)
		no_devices();
	if (opts.dev && !rdiag_counters_device_find(ds, opts.dev))
		die_no_device("no RDMA device", opts.dev);
	out_arr_begin(output, NULL);
	for (i = 0; i < ds->n; i++) {
		const struct rdiag_device *d = &ds->dev[i];

		if (opts.dev && strcmp(opts.dev, d->name))
			continue;
		any = true;
		out_obj_begin(output, NULL);
		out_str(output, "ifname", "%s:", d->name);
		out_str(output, "node_type", " node_type %s", d->node_type[0] ? d->node_type : "-");
		out_str(output, "protocol", " protocol %s", d->protocol[0] ? d->protocol : "-");
		out_str(output, "driver", " driver %s", d->driver[0] ? d->driver : "-");
		if (d->node_guid[0])
			out_str(output, "node_guid", " node_guid %s", d->node_guid);
		if (d->fw_ver[0])
			out_str(output, "fw", " fw %s", d->fw_ver);
		out_text(output, "\n");
		out_arr_begin(output, "ports");
		for (j = 0; j < d->n_ports; j++) {
			const struct rdiag_port *p = &d->ports[j];
			bool ib = !strcmp(p->link_layer, "InfiniBand");

			if (opts.port && opts.port != p->port)
				continue;
			out_obj_begin(output, NULL);
			out_u64(output, "port", "  port %" PRIu64, p->port);
			out_str(output, "state", " state %s",
				tool_name_or(rdiag_port_state_name(p->state), "UNKNOWN"));
			out_str(output, "physical_state", " physical_state %s",
				      tool_name_or(rdiag_port_phys_state_name(p->phys_state), "UNKNOWN"));
			if (p->rate[0])
				out_str(output, "rate", " rate %s", p->rate);
			if (p->link_layer[0])
				out_str(output, "link_layer", " link_layer %s", p->link_layer);
			if (ib) {
				out_u64(output, "lid", " lid %" PRIu64, p->lid);
				out_u64(output, "sm_lid", " sm_lid %" PRIu64, p->sm_lid);
			}
			out_text(output, "\n");
			/* the ibdev2netdev line */
			if (p->netdev[0]) {
				out_text(output, "    %s port %u ==> ", tool_esc_tmp(d->name), p->port);
				out_str(output, "netdev", "%s", p->netdev);
				if (p->ifindex)
					out_u64(output, "netdev_index", " (ifindex %" PRIu64 "",
						      (uint64_t)p->ifindex);
				if (p->mtu)
					out_u64(output, "mtu", ", mtu %" PRIu64 ")", p->mtu);
				else if (p->ifindex)
					out_text(output, ")");
				out_text(output, " (%s)\n", p->state == RDIAG_PORT_ACTIVE ? "Up" : "Down");
			}
			out_u64(output, "hw_counters_lifespan_ms", NULL, p->hw_lifespan_ms);
			port_status(d->name, p->port);
			if (p->n_gids)
				out_text(output, "    %-5s %-39s %-10s %-12s %s\n", "INDEX",
					       "GID", "TYPE", "NETDEV", "IP");
			out_arr_begin(output, "gids");
			for (g = 0; g < p->n_gids; g++) {
				const struct rdiag_gid *x = &p->gids[g];

				out_obj_begin(output, NULL);
				out_u64(output, "index", "    %-5" PRIu64, x->index);
				out_str(output, "gid", " %-39s", x->gid);
				out_str(output, "type", " %-10s", rdiag_gid_type_name(x->type));
				out_str(output, "netdev", " %-12s", x->ndev[0] ? x->ndev : "-");
				out_str(output, "ip", " %-15s", x->ip[0] ? x->ip : "-");
				out_bool(output, "routable", NULL, x->routable);
				if (x->routable)
					out_text(output, " %s", x->ipv4 ?
						       "routable RoCEv2 (IPv4)" : "routable RoCEv2");
				out_text(output, "\n");
				out_obj_end(output);
			}
			out_arr_end(output);
			out_obj_end(output);
		}
		out_arr_end(output);
		out_obj_end(output);
	}
	out_arr_end(output);
	rdiag_counters_devices_free(ds);
	return any ? EXIT_OK : EXIT_USAGE;
}

/* ---- qp / cm ---------------------------------------------------------------------- */

static void need_netlink(const char *what)
{
	if (opts.source == RDIAG_SRC_SYSFS)
		tool_usage_error("'%s' needs netlink (--source sysfs has no %s)", what, what);
}

/* the bound statistic counter of a QP (rdma statistic qp), or NULL */
static const struct rdiag_qp_counter *qp_counter(const struct rdiag_qp_counter *qc, size_t nqc,
						 const struct rdiag_qp *q)
{
	size_t i, j;

	for (i = 0; i < nqc; i++)
		for (j = 0; j < qc[i].n_qpns; j++)
			if (qc[i].qpns[j] == q->lqpn && !strcmp(qc[i].dev, q->dev))
				return &qc[i];
	return NULL;
}

/* a number column of the qp/cm tables: "-" in text, and no key in JSON, when the kernel
 * did not give it (width is fmt's) */
static void out_u64_or_dash(const char *key, const char *fmt, int width, bool has, uint64_t v)
{
	if (has)
		out_u64(output, key, fmt, v);
	else
		out_text(output, " %*s", width, "-");
}

/* the last two columns of the qp/cm tables: the owning process, or "-" */
static void out_owner(uint32_t pid, const char *comm)
{
	out_u64_or_dash("pid", " %7" PRIu64, 7, pid, pid);
	out_str(output, "comm", " %s", comm[0] ? comm : "-");
}

static int cmd_qp(int argc, char **argv, void *ctx)
{
	struct rdiag_qp_counter *qc = NULL;
	const struct rdiag_qp_counter *b;
	struct rdiag_qp *q;
	size_t n, i, k, nqc = 0;
	int ret;

	need_netlink("qp");
	ret = rdiag_counters_qps(counters, opts.dev, &q, &n);
	if (ret < 0)
		lib_fail("cannot list QPs", ret);
	/* per-QP counters exist only where a counter is bound (auto or manual mode) */
	if (rdiag_counters_qp_counters(counters, opts.dev, &qc, &nqc) < 0) {
		qc = NULL;
		nqc = 0;
	}
	out_text(output, "%-10s %4s %8s %-6s %-5s %8s %8s %8s %7s %s\n", "DEV", "PORT", "LQPN",
		       "TYPE", "STATE", "RQPN", "SQ-PSN", "RQ-PSN", "PID", "COMM");
	out_arr_begin(output, NULL);
	for (i = 0; i < n; i++) {
		out_obj_begin(output, NULL);
		out_str(output, "ifname", "%-10s", q[i].dev);
		out_u64_or_dash("port", " %4" PRIu64, 4, q[i].port, q[i].port);
		out_u64(output, "lqpn", " %8" PRIu64, q[i].lqpn);
		out_str(output, "type", " %-6s", tool_name_or(rdiag_qp_type_name(q[i].type), "UNKNOWN"));
		out_str(output, "state", " %-5s",
			tool_name_or(rdiag_qp_state_name(q[i].state), "UNKNOWN"));
		out_u64_or_dash("rqpn", " %8" PRIu64, 8, q[i].has_rqpn, q[i].rqpn);
		out_u64(output, "sq-psn", " %8" PRIu64, q[i].sq_psn);
		out_u64_or_dash("rq-psn", " %8" PRIu64, 8, q[i].has_rq_psn, q[i].rq_psn);
		out_owner(q[i].pid, q[i].comm);
		out_text(output, "\n");
		b = qp_counter(qc, nqc, &q[i]);
		if (b) {
			out_u64(output, "counter_id", "      counter %" PRIu64 ":", b->id);
			out_obj_begin(output, "counters");
			for (k = 0; k < b->n; k++)
				if (opts.all || b->values[k]) {
					out_text(output, " %s", tool_esc_tmp(b->names[k]));
					out_u64(output, b->names[k], " %" PRIu64, b->values[k]);
				}
			out_obj_end(output);
			out_text(output, "\n");
		}
		out_obj_end(output);
	}
	out_arr_end(output);
	rdiag_counters_qp_counters_free(qc, nqc);
	free(q);
	return EXIT_OK;
}

static int cmd_cm(int argc, char **argv, void *ctx)
{
	struct rdiag_cm_id *id;
	char a[80], b[80];
	size_t n, i;
	int ret;

	need_netlink("cm");
	ret = rdiag_counters_cm_ids(counters, opts.dev, &id, &n);
	if (ret < 0)
		lib_fail("cannot list rdma_cm IDs", ret);
	out_text(output, "%-10s %4s %-14s %-5s %-24s %-24s %8s %7s %s\n", "DEV", "PORT",
		       "STATE", "PS", "SRC", "DST", "LQPN", "PID", "COMM");
	out_arr_begin(output, NULL);
	for (i = 0; i < n; i++) {
		out_obj_begin(output, NULL);
		out_str(output, "ifname", "%-10s", id[i].dev[0] ? id[i].dev : "-");
		out_u64(output, "port", " %4" PRIu64, id[i].port);
		out_str(output, "state", " %-14s",
			tool_name_or(rdiag_res_cm_state_name(id[i].state), "UNKNOWN"));
		out_str(output, "ps", " %-5s", tool_name_or(rdiag_port_space_name(id[i].ps_full), "UNKNOWN"));
		out_str(output, "src", " %-24s", id[i].has_src ?
			      rdiag_sockaddr_str(&id[i].src, a, sizeof(a)) : "-");
		out_str(output, "dst", " %-24s", id[i].has_dst ?
			      rdiag_sockaddr_str(&id[i].dst, b, sizeof(b)) : "-");
		out_u64_or_dash("lqpn", " %8" PRIu64, 8, id[i].lqpn, id[i].lqpn);
		out_owner(id[i].pid, id[i].comm);
		out_text(output, "\n");
		out_obj_end(output);
	}
	out_arr_end(output);
	free(id);
	return EXIT_OK;
}

/* ---- explain ---------------------------------------------------------------------- */

static void explain_one(const struct rdiag_catalog_entry *e)
{
	size_t k;

	out_obj_begin(output, NULL);
	out_str(output, "name", "%s", e->name);
	out_str(output, "driver", " (%s)\n", e->driver);
	out_str(output, "meaning", "  meaning:    %s\n", e->meaning);
	if (e->hint)
		out_str(output, "check", "  check:      %s\n", e->hint);
	if (e->concept)
		out_str(output, "concept", "  concept:    %s\n", e->concept);
	out_str(output, "unit", "  unit:       %s", rdiag_unit_name(e->unit));
	if (e->scale > 1)
		out_text(output, " (x%u for bytes)", e->scale);
	out_text(output, "\n");
	out_u64(output, "scale", NULL, e->scale);
	out_u64(output, "width", "  width:      %" PRIu64 " bits", e->width);
	out_str(output, "behaviour", ", %s\n", rdiag_behaviour_name(e->behaviour));
	out_str(output, "severity", "  severity:   %s\n", rdiag_severity_name(e->severity));
	if (e->direction != RDIAG_DIR_NONE)
		out_str(output, "direction", "  direction:  %s\n",
			      rdiag_direction_name(e->direction));
	out_arr_begin(output, "aliases");
	for (k = 0; k < 3 && e->aliases[k]; k++)
		out_str(output, NULL, k ? ", %s" : "  aliases:    %s", e->aliases[k]);
	out_arr_end(output);
	if (e->aliases[0])
		out_text(output, "\n");
	out_obj_end(output);
}

/* a concept: what it means, which drivers' counters it puts together and how they differ,
 * then each counter's entry */
static size_t explain_concept(const char *what)
{
	const struct rdiag_catalog_concept *c = rdiag_catalog_concept_find(what);
	size_t i, n = rdiag_catalog_count(), found = 0;

	out_obj_begin(output, NULL);
	out_str(output, "concept", "concept %s", what);
	if (c)
		out_str(output, "meaning", ": %s", c->meaning);
	out_text(output, "\n");
	for (i = 0; i < n; i++) {
		const struct rdiag_catalog_entry *e = rdiag_catalog_at(i);

		if (e->concept && !strcmp(e->concept, what))
			out_text(output, "  %-12s %-8s %s\n", found++ ? "" : "counted by:",
				 e->driver, e->name);
	}
	if (c && c->differences)
		out_str(output, "differences", "  differences: %s\n", c->differences);
	else if (found > 1)
		out_str(output, "differences", "  differences: %s\n",
			"none: every counter counts the same event");
	out_arr_begin(output, "counters");
	for (i = 0; i < n; i++) {
		const struct rdiag_catalog_entry *e = rdiag_catalog_at(i);

		if (!e->concept || strcmp(e->concept, what))
			continue;
		out_text(output, "\n");
		explain_one(e);
	}
	out_arr_end(output);
	out_obj_end(output);
	return found;
}

/* a counter (by name, alias or iw-prefixed name): its entry for every driver that has it */
static size_t explain_counter(const char *what)
{
	const struct rdiag_catalog_entry *alias;
	size_t i, n = rdiag_catalog_count(), found = 0;

	alias = rdiag_catalog_lookup(what, NULL, RDIAG_ORIG_SYSFS_HW);
	if (!alias)
		alias = rdiag_catalog_lookup(what, NULL, RDIAG_ORIG_PMA);
	if (!alias)
		alias = rdiag_catalog_lookup(what, NULL, RDIAG_ORIG_CM);
	out_arr_begin(output, NULL);
	for (i = 0; i < n; i++) {
		const struct rdiag_catalog_entry *e = rdiag_catalog_at(i);

		if (strcmp(e->name, what) && e != alias)
			continue;
		if (found++)
			out_text(output, "\n");
		explain_one(e);
	}
	out_arr_end(output);
	return found;
}

/* explain CONCEPT (a JSON object) or explain COUNTER (a JSON array of entries); a word that
 * is both (duplicate_request) is explained as the concept, which lists the counter too */
static int cmd_fabric(int argc, char **argv, void *ctx)
{
	const struct stat_fabric_opts fo = {
		.dev = opts.dev, .port = opts.port, .tos = opts.tos, .interval = opts.interval,
		.pause_max = opts.pause_max, .pause_time_max = opts.pause_time_max,
		.nl_record = opts.nl_record,
	};

	return stat_fabric_run(output, counters, &fo);
}

static int cmd_explain(int argc, char **argv, void *ctx)
{
	const char *what = opts.subject;
	size_t found = rdiag_catalog_is_concept(what) ? explain_concept(what) :
			explain_counter(what);

	if (!found) {
		/* a name the catalogue does not know is not a finding about this host: the
		 * question was wrong (exit 2), as an unknown counter name is */
		tool_err("no catalogue entry for '%s' (unknown counters are shown with their raw "
			 "name)", tool_esc_tmp(what));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ---- command table ---------------------------------------------------------------- */

static int cmd_counters(int argc, char **argv, void *ctx)
{
	return opts.interval > 0 ? cmd_interval() : cmd_snapshot();
}

/* every subcommand, as iproute2's rdma tool has its rd_cmd tables (common/cmd.h): the name,
 * what it runs, and what it takes.  The first row, without a name, is the counter view (no
 * command). */
struct takes {
	bool reads_counters;	/* opens the counters handle and takes [DEV[/PORT]] */
	bool series;		/* -i, --csv and --prom apply */
};
static const struct takes counters_series = { true, true }, counters_once = { true, false },
	one_name = { false, false };

static const struct tool_cmd commands[] = {
	{ NULL, cmd_counters, &counters_series },
	{ "devices", cmd_devices, &counters_once },
	{ "qp", cmd_qp, &counters_once },
	{ "cm", cmd_cm, &counters_once },
	{ "fabric", cmd_fabric, &counters_once },
	{ "explain", cmd_explain, &one_name },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct takes *takes(const struct tool_cmd *cmd)
{
	return cmd->data;
}

/* ---- command line ----------------------------------------------------------------- */

static void push(char ***v, size_t *n, char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		tool_die("out of memory");
	nv[(*n)++] = s;
	*v = nv;
}

/* ---- Ethernet statistics ------------------------------------------------------------ */

/* Read the ports' netdevs' Ethernet statistics when they are asked for: all of them with
 * --eth; else those that a selection word or a threshold rule names by a name or concept of
 * the Ethernet catalogue (rdmastat(1), Ethernet statistics).  Nothing else reads them, so
 * the output of every other command line is what it was. */
static void eth_setup(void)
{
	char **words = NULL;
	struct rdiag_eth_reader r;
	size_t n = 0, from_names, i;
	int ret;

	for (i = 0; !opts.eth && i < opts.n_names; i++)
		if (eth_word_known(opts.names[i]))
			push(&words, &n, opts.names[i]);
	from_names = n;
	for (i = 0; !opts.eth && thresholds && i < thresholds->n; i++)
		if (eth_word_known(thresholds->rule[i].key))
			push(&words, &n, thresholds->rule[i].key);
	if (!opts.eth && !n)
		return;
	if (opts.fmt == FMT_PROM && (opts.eth || from_names))
		tool_usage_error("--prom exports the Ethernet statistics as rdma_eth_* (without "
				 "--eth or Ethernet names)");
	ret = rdiag_fabric_open(&fabric, NULL);
	if (ret < 0)
		tool_die("cannot read Ethernet statistics: %s", *rdiag_fabric_errmsg(NULL) ?
			 rdiag_fabric_errmsg(NULL) : strerror(-ret));
	rdiag_fabric_eth_reader(fabric, &r);
	if (rdiag_counters_set_eth(counters, &r,
				   opts.eth ? NULL : (const char *const *)words, n) < 0)
		tool_die("out of memory");
	opts.eth_read = true;
	free(words);
}

/* "DEV" or "DEV/PORT" when DEV is a device this system has */
static bool parse_devport(char *arg)
{
	const struct rdiag_device *d;
	struct rdiag_devices *ds;
	char *slash = strchr(arg, '/'), dev[128];
	uint64_t port = 0;
	size_t i;
	bool ok;

	if (strpbrk(arg, "*?[") || strlen(arg) >= sizeof(dev))
		return false;
	memcpy(dev, arg, strlen(arg) + 1);
	if (slash) {
		dev[slash - arg] = '\0';
		if (tool_parse_u64(slash + 1, UINT32_MAX, &port) < 0 || !port)
			return false;
	}
	if (rdiag_counters_discover(counters, &ds) < 0) {
		/* no enumeration (netlink refused, partial replay): let the read decide */
		if (!slash)
			return false;
		opts.dev = strdup(dev);
		opts.port = (uint32_t)port;
		return true;
	}
	d = rdiag_counters_device_find(ds, dev);
	ok = d != NULL;
	for (i = 0; d && port && i < d->n_ports; i++)
		if (d->ports[i].port == port)
			break;
	if (d && port && i == d->n_ports) {
		rdiag_counters_devices_free(ds);
		tool_die("device '%s' has no port %" PRIu64, dev, port);
	}
	rdiag_counters_devices_free(ds);
	if (!ok)
		return false;
	opts.dev = strdup(dev);
	opts.port = (uint32_t)port;
	return true;
}

static bool looks_like_devport(const char *arg)
{
	const char *slash = strchr(arg, '/');
	uint64_t p;

	return slash && slash != arg && tool_parse_u64(slash + 1, UINT32_MAX, &p) == 0;
}

int main(int argc, char **argv)
{
	enum { OPT_CSV = 256, OPT_PROM, OPT_VERSION, OPT_NL_RECORD, OPT_TOS, OPT_ETH,
	       OPT_PAUSE_MAX, OPT_PAUSE_TIME_MAX };
	static const struct option lo[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "concept", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "prom", no_argument, NULL, OPT_PROM },
		{ "output", required_argument, NULL, 'o' },
		{ "thresholds", required_argument, NULL, 't' },
		{ "source", required_argument, NULL, 's' },
		{ "nl-record", required_argument, NULL, OPT_NL_RECORD },
		{ "tos", required_argument, NULL, OPT_TOS },
		{ "pause-max", required_argument, NULL, OPT_PAUSE_MAX },
		{ "pause-time-max", required_argument, NULL, OPT_PAUSE_TIME_MAX },
		{ "eth", no_argument, NULL, OPT_ETH },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct rdiag_counters_opts co;
	const struct tool_cmd *cmd;
	const char *nocolor;
	bool count_set = false, series;
	int c, ret, i;

	tool_init("rdmastat", argv);
	opts.tos = -1;
	while ((c = getopt_long(argc, argv, "ac:i:n:jpo:t:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'a': opts.all = true; break;
		case 'c':
			push(&opts.names, &opts.n_names, optarg);
			opts.n_from_c = opts.n_names;
			break;
		case 'i':
			opts.interval = tool_interval_arg(optarg);
			break;
		case 'n':
			opts.count = tool_count_arg(optarg);
			count_set = true;
			break;
		case 'j': opts.fmt = FMT_JSON; break;
		case 'p': opts.pretty = true; break;
		case OPT_CSV: opts.fmt = FMT_CSV; break;
		case OPT_PROM: opts.fmt = FMT_PROM; break;
		case 'o': opts.output = optarg; break;
		case 't': opts.threshold_file = optarg; break;
		case 's':
			if (!strcmp(optarg, "auto"))
				opts.source = RDIAG_SRC_AUTO;
			else if (!strcmp(optarg, "netlink"))
				opts.source = RDIAG_SRC_NETLINK;
			else if (!strcmp(optarg, "sysfs"))
				opts.source = RDIAG_SRC_SYSFS;
			else
				tool_usage_error("invalid source '%s' (auto, netlink or sysfs)",
						 optarg);
			break;
		case OPT_NL_RECORD: opts.nl_record = optarg; break;
		case OPT_ETH: opts.eth = true; break;
		case OPT_TOS: {
			uint64_t v;

			if (tool_parse_u64(optarg, 255, &v) < 0)
				tool_usage_error("invalid ToS '%s' (0 to 255)", optarg);
			opts.tos = (int)v;
			break;
		}
		case OPT_PAUSE_MAX:
		case OPT_PAUSE_TIME_MAX: {
			char *end;
			double v;

			errno = 0;
			v = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(v > 0) ||
			    (c == OPT_PAUSE_TIME_MAX && v > 100) || v > 1e12)
				tool_usage_error(c == OPT_PAUSE_MAX ?
						 "invalid pause rate '%s' (frames per second, above 0)" :
						 "invalid pause time '%s' (percent, above 0 to 100)", optarg);
			if (c == OPT_PAUSE_MAX)
				opts.pause_max = v;
			else
				opts.pause_time_max = v / 100;
			break;
		}
		case 'h': usage(); return EXIT_OK;
		case OPT_VERSION: tool_version(); return EXIT_OK;
		default:
			fprintf(stderr, "Try 'rdmastat --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (opts.pretty && opts.fmt == FMT_TEXT)
		opts.fmt = FMT_JSON;
	if (count_set && opts.interval == 0)
		tool_usage_error("--count needs --interval");
	if (opts.output)
		outfile_init(opts.output);
	nocolor = getenv("NO_COLOR");
	opts.color = opts.fmt == FMT_TEXT && !opts.output && isatty(STDOUT_FILENO) &&
		  !(nocolor && *nocolor) &&
		  !(getenv("TERM") && !strcmp(getenv("TERM"), "dumb"));

	cmd = optind < argc ? tool_cmd_find(commands, NCOMMANDS, argv[optind]) : NULL;
	if (cmd)
		optind++;
	else
		cmd = &commands[0];
	if (!takes(cmd)->reads_counters) {
		if (optind + 1 != argc)
			tool_usage_error("%s takes one counter or concept name", cmd->name);
		opts.subject = argv[optind];
		output = out_new(stdout, opts.fmt == FMT_JSON ? (opts.pretty ? OUT_JSON_PRETTY :
							OUT_JSON) : OUT_TEXT);
		if (!output)
			tool_die("out of memory");
		report_begin();
		ret = cmd->run(argc - optind, argv + optind, NULL);
		report_end();
		out_free(output);
		return ret;
	}

	memset(&co, 0, sizeof(co));
	co.source = opts.source;
	co.nl_record = opts.nl_record;
	ret = rdiag_counters_open(&counters, &co);
	if (ret < 0) {
		tool_die("%s", *rdiag_counters_errmsg(NULL) ? rdiag_counters_errmsg(NULL) :
			 strerror(-ret));
	}
	if (opts.threshold_file) {
		const struct rdiag_threshold_opts to = { .path = opts.threshold_file };

		ret = rdiag_threshold_open(&thresholds, &to);
		if (ret == -EINVAL)
			tool_die("%s: %s", opts.threshold_file, rdiag_threshold_errmsg(NULL));
		if (ret < 0)
			tool_die("cannot read '%s': %s", opts.threshold_file, strerror(-ret));
		for (i = 0; opts.interval == 0 && i < (int)thresholds->n; i++)
			if (thresholds->rule[i].kind != RDIAG_THR_ABSOLUTE)
				tool_warn("%s: line %u: a %s rule needs --interval; ignored",
					  opts.threshold_file, thresholds->rule[i].line,
					  rdiag_threshold_kind_name(thresholds->rule[i].kind));
	}

	/* positionals: DEV[/PORT] first, then counter names or globs */
	for (i = optind; i < argc; i++) {
		if (i == optind && parse_devport(argv[i]))
			continue;
		if (i == optind && (cmd->name || looks_like_devport(argv[i])))
			die_no_device("no RDMA device", argv[i]);
		if (cmd->name)
			tool_usage_error("unexpected argument '%s'", argv[i]);
		push(&opts.names, &opts.n_names, argv[i]);
	}
	if (opts.tos >= 0 && cmd->run != cmd_fabric)
		tool_usage_error("--tos applies to 'fabric' only");
	if ((opts.pause_max > 0 || opts.pause_time_max > 0) && cmd->run != cmd_fabric)
		tool_usage_error("--pause-max and --pause-time-max apply to 'fabric' only");
	if (cmd->run == cmd_fabric && count_set)
		tool_usage_error("fabric measures one interval: --count does not apply");
	if (!takes(cmd)->series && opts.interval > 0 && cmd->run != cmd_fabric)
		tool_usage_error("--interval applies to counters, not to '%s'", cmd->name);
	if (!takes(cmd)->series && (opts.fmt == FMT_CSV || opts.fmt == FMT_PROM))
		tool_usage_error("'%s' supports text and JSON only", cmd->name);
	if (opts.eth && cmd->name)
		tool_usage_error("--eth applies to counters, not to '%s'", cmd->name);
	if (cmd->run == cmd_counters)
		eth_setup();

	output = out_new(stdout, opts.fmt == FMT_JSON ? (opts.pretty ? OUT_JSON_PRETTY :
							 OUT_JSON) : OUT_TEXT);
	if (!output)
		tool_die("out of memory");
	/* a series (-i) writes a report per interval (interval_report) */
	series = cmd->run == cmd_counters && opts.interval > 0;
	if (!series)
		report_begin();
	ret = cmd->run(argc - optind, argv + optind, NULL);
	if (!series)
		report_end();
	out_free(output);
	rdiag_threshold_close(thresholds);
	rdiag_fabric_close(prom_fab);
	rdiag_counters_close(counters);
	rdiag_fabric_close(fabric);
	free(opts.names);
	return ret;	/* a write error is reported at exit (tool_init) */
}
