/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: decode and analyse RoCEv2 / RoCEv1 / InfiniBand captures, tcpdump-like.
 * Options and the read loop only; decoding, analysis and capture are librdmadiag's, printing is
 * the other files of this room (print.c, fast.c, mad.c, summary.c, graph.c, report.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/clock.h"
#include "common/esc.h"
#include "common/tool.h"
#include "dump.h"
#include "graph.h"
#include "graphout.h"
#include "mad.h"
#include "report.h"

static struct rdiag_capture *g_cap;
static volatile sig_atomic_t g_stop;
/* a classic pcap file is read through a memory mapping: if another process cuts the file
 * short while it is read, the next page is gone and the kernel sends SIGBUS; the read loop
 * then ends with a one-line error, as libpcap's stdio reads end on a truncated file */
static sigjmp_buf g_bus_jmp;
static volatile sig_atomic_t g_bus_armed;

/* main()'s locals change between the sigsetjmp() and a SIGBUS, but the jump only leads to
 * the error and exit(2), which reads none of them */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

static void on_sigbus(int sig)
{
	if (!g_bus_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(g_bus_jmp, 1);
}

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
	if (g_cap)
		rdiag_capture_break(g_cap);
}

/* about 1.3 KiB a flow: the default keeps a capture of spoofed or countless QPs under 64 MiB
 * of memory (make bench measures it) */
#define DEFAULT_MAX_FLOWS 32768u

static void usage(void)
{
	printf("Usage: %s [options] (-r FILE | -i IFACE) [BPF expression] [options]\n"
	       "Decode and analyse RoCEv2, RoCEv1 and InfiniBand traffic.\n"
	       "Options may come before or after the expression, as in tcpdump.\n\n"
	       "Input:\n"
	       "  -r, --read FILE       read a pcap or pcapng file ('-' = standard input)\n"
	       "  -i, --interface IFACE capture live on IFACE (filter: udp port 4791 or ether\n"
	       "                        proto 0x8915 or ether proto 0x8808, and the BPF\n"
	       "                        expression if one is given)\n"
	       "  -c, --count N         stop after N matching packets\n"
	       "  -w, --write FILE      write the matching packets to FILE (pcap) instead of\n"
	       "                        printing\n"
	       "      --port N          also take UDP destination port N as RoCEv2 (repeatable)\n"
	       "Selection:\n"
	       "      --qp N            only packets to or from QP N\n"
	       "      --opcode OP       only opcode OP: a name (RC_SEND_ONLY) or number\n"
	       "                        (repeatable)\n"
	       "      --errors          only NAKs, RNR NAKs, PSN gaps, duplicates, bad ICRC,\n"
	       "                        CM rejects, PAUSE/PFC frames, MAD retries, error\n"
	       "                        statuses and unanswered requests, Q_Key/P_Key\n"
	       "                        mismatches\n"
	       "Output:\n"
	       "  -v, --verbose         every header field\n"
	       "  -j, --json            JSON lines (the keys are listed in rdmadump(1))\n"
	       "  -S, --summary         per-QP summary at the end (text tables, JSON with -j)\n"
	       "  -q, --quiet           summary only, no packet lines\n"
	       "      --fail-on-errors  exit 1 when transport errors were seen\n"
	       "      --max-flows N     follow at most N flows (QPs), default %u; packets of\n"
	       "                        further flows are counted only (0: no limit)\n"
	       "      --link-speed RATE link speed (100G, 25G, 2.5G, 100M): PAUSE/PFC quanta as\n"
	       "                        pause time in the summary\n"
	       "Graph (reads the file twice; not with -i or -r -):\n"
	       "      --graph QP        QP's sequence graph as SVG: PSN against time of its\n"
	       "                        requests and responses, with NAKs, RNR NAKs, resends,\n"
	       "                        duplicates, CE marks, CNPs and PAUSE/PFC frames; to\n"
	       "                        standard output instead of the packet lines\n"
	       "      --graph-out FILE  write the graph to FILE instead (the other output stays)\n"
	       "      --graph-csv       the graph's points as CSV instead of SVG\n"
	       "Report (reads the file twice; not with -i or -r -):\n"
	       "      --report FILE     write FILE: one self-contained HTML page (no external\n"
	       "                        reference) with the summary, per QP the sequence\n"
	       "                        graph, throughput and latency histograms, the CM\n"
	       "                        connections as a timeline, the MAD transactions and\n"
	       "                        a sortable flow table (the other output stays)\n"
	       "  -h, --help            this help\n"
	       "      --version         version\n\n"
	       "Exit status: 0 ok, 1 transport errors seen (with --fail-on-errors),\n"
	       "2 usage or input error.  Output conventions: rdmadiag(7).\n", tool_name(),
	       DEFAULT_MAX_FLOWS);
}

enum { OPT_QP = 256, OPT_OPCODE, OPT_ERRORS, OPT_PORT, OPT_FAIL, OPT_VERSION, OPT_MAX_FLOWS,
       OPT_LINK_SPEED, OPT_GRAPH, OPT_GRAPH_OUT, OPT_GRAPH_CSV, OPT_REPORT };

static const struct option long_opts[] = {
	{ "read", required_argument, NULL, 'r' },
	{ "interface", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "write", required_argument, NULL, 'w' },
	{ "qp", required_argument, NULL, OPT_QP },
	{ "opcode", required_argument, NULL, OPT_OPCODE },
	{ "errors", no_argument, NULL, OPT_ERRORS },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'j' },
	{ "summary", no_argument, NULL, 'S' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "fail-on-errors", no_argument, NULL, OPT_FAIL },
	{ "max-flows", required_argument, NULL, OPT_MAX_FLOWS },
	{ "link-speed", required_argument, NULL, OPT_LINK_SPEED },
	{ "graph", required_argument, NULL, OPT_GRAPH },
	{ "graph-out", required_argument, NULL, OPT_GRAPH_OUT },
	{ "graph-csv", no_argument, NULL, OPT_GRAPH_CSV },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

struct opts {
	const char *rfile, *iface, *wfile;
	uint64_t count;
	uint64_t max_flows;
	bool have_qp;
	uint32_t qp;
	bool have_opcodes;
	bool opcodes[256];
	bool errors_only, verbose, json, summary, quiet, fail_on_errors;
	uint16_t ports[RDIAG_MAX_PORTS];
	unsigned int n_ports;
	uint64_t link_bps;
	char *filter;
	bool graph, graph_csv;
	uint32_t graph_qp;
	const char *graph_out;		/* NULL: standard output */
	const char *report;		/* --report FILE */
};

/* "100G", "25g", "2.5G", "100M", "400000000": bit/s (K, M, G, T are powers of 1000); 0 or
 * -EINVAL.  At most 10 Tbit/s, at least 1 kbit/s (a pause quantum is 512 bit times). */
static int parse_link_speed(const char *s, uint64_t *bps)
{
	static const char units[] = "kmgt";
	double mult = 1, v;
	char *end;
	const char *u;

	if (!s || !*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -EINVAL;
	if (*end) {
		u = strchr(units, *end | 0x20);
		if (!u || end[1])
			return -EINVAL;
		for (const char *x = units; x <= u; x++)
			mult *= 1000;
	}
	v *= mult;
	if (!(v >= 1e3 && v <= 1e13) || v != (double)(uint64_t)v)
		return -EINVAL;
	*bps = (uint64_t)v;
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		tool_die("out of memory");
	p = s;
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (i)
			*p++ = ' ';
		memcpy(p, argv[i], l);
		p += l;
	}
	return s;
}

/* --qp, --graph: a QP number (24 bits) */
static uint32_t parse_qp(const char *s)
{
	uint64_t v;

	if (tool_parse_u64(s, 0xffffff, &v) < 0)
		tool_usage_error("invalid QP number '%s' (0..0xffffff)", s);
	return (uint32_t)v;
}

/* --graph and --report read the capture a second time (graph.h says why): a file they can
 * open again */
static void check_graph(const struct opts *o)
{
	const char *opt = o->graph ? "--graph" : "--report";
	struct stat st;

	if (!o->graph && (o->graph_out || o->graph_csv))
		tool_usage_error("%s needs --graph QP", o->graph_out ? "--graph-out" :
				 "--graph-csv");
	if (!o->graph && !o->report)
		return;
	if (o->iface)
		tool_usage_error("%s reads the capture twice: write it with -w first, "
				 "then give -r FILE", opt);
	if (!strcmp(o->rfile, "-") || (stat(o->rfile, &st) == 0 && !S_ISREG(st.st_mode)))
		tool_usage_error("%s reads the capture twice: give -r a file, not '%s'", opt,
				 tool_esc_tmp(o->rfile));
	if (!o->graph)
		return;
	if (!o->graph_out && (o->summary || (o->wfile && !strcmp(o->wfile, "-"))))
		tool_usage_error("--graph writes to standard output: give --graph-out FILE to "
				 "have %s too", o->summary ? "the summary" : "-w -");
}

static void parse(int argc, char **argv, struct opts *o)
{
	uint64_t v;
	int c, r;

	memset(o, 0, sizeof(*o));
	o->max_flows = DEFAULT_MAX_FLOWS;
	/* options may follow the expression, as in tcpdump (GNU getopt permutes argv: the words
	 * of the expression end up, in order, after optind); "--" ends the options */
	while ((c = getopt_long(argc, argv, "r:i:c:w:vjSqh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->rfile = optarg;
			break;
		case 'i':
			o->iface = optarg;
			break;
		case 'c':
			if (tool_parse_u64(optarg, UINT64_MAX, &v) < 0 || v == 0)
				tool_usage_error("invalid packet count '%s'", optarg);
			o->count = v;
			break;
		case 'w':
			o->wfile = optarg;
			break;
		case OPT_QP:
			o->have_qp = true;
			o->qp = parse_qp(optarg);
			break;
		case OPT_OPCODE:
			r = rdiag_opcode_parse(optarg);
			if (r < 0)
				tool_usage_error("unknown opcode '%s' (a name like RC_SEND_ONLY or "
						 "a number 0..255)", optarg);
			o->have_opcodes = true;
			o->opcodes[r] = true;
			break;
		case OPT_ERRORS:
			o->errors_only = true;
			break;
		case OPT_PORT:
			if (tool_parse_u64(optarg, 65535, &v) < 0 || v == 0)
				tool_usage_error("invalid UDP port '%s'", optarg);
			if (o->n_ports == RDIAG_MAX_PORTS)
				tool_usage_error("at most %d --port options", RDIAG_MAX_PORTS);
			o->ports[o->n_ports++] = (uint16_t)v;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'S':
			o->summary = true;
			break;
		case 'q':
			o->quiet = true;
			o->summary = true;
			break;
		case OPT_FAIL:
			o->fail_on_errors = true;
			break;
		case OPT_MAX_FLOWS:
			if (tool_parse_u64(optarg, UINT32_MAX, &o->max_flows) < 0)
				tool_usage_error("invalid flow limit '%s' (0 for none, up to %u)",
						 optarg, UINT32_MAX);
			break;
		case OPT_LINK_SPEED:
			if (parse_link_speed(optarg, &o->link_bps) < 0)
				tool_usage_error("invalid link speed '%s' (bit/s, e.g. 100G, 25G, "
						 "2.5G, 100M)", optarg);
			break;
		case OPT_GRAPH:
			o->graph = true;
			o->graph_qp = parse_qp(optarg);
			break;
		case OPT_GRAPH_OUT:
			o->graph_out = optarg;
			break;
		case OPT_GRAPH_CSV:
			o->graph_csv = true;
			break;
		case OPT_REPORT:
			o->report = optarg;
			break;
		case 'h':
			usage();
			exit(EXIT_OK);
		case OPT_VERSION:
			tool_version();
			exit(EXIT_OK);
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", tool_name());
			exit(EXIT_USAGE);
		}
	}
	if (!o->rfile == !o->iface)
		tool_usage_error(o->rfile ? "-r and -i cannot be used together" :
				 "nothing to read: give -r FILE or -i IFACE");
	if (optind < argc)
		o->filter = join_args(argc - optind, argv + optind);
	check_graph(o);
}

static bool selected(const struct opts *o, const struct rdiag_pkt *p,
		     const struct rdiag_flow_verdict *v)
{
	if (o->errors_only && !(v->flags & (RDIAG_FV_ERRORS | RDIAG_FV_PAUSE)))
		return false;
	if (o->have_opcodes && (!(p->present & RDIAG_HAS_BTH) || !o->opcodes[p->bth.opcode]))
		return false;
	if (o->have_qp) {
		if (!(p->present & RDIAG_HAS_BTH))
			return false;
		if (p->bth.destqp != o->qp &&
		    !((p->present & RDIAG_HAS_DETH) && p->deth_srcqp == o->qp) &&
		    v->src_qpn != o->qp)
			return false;
	}
	return true;
}

/* a long file read shows how far it got, on a terminal only */
static void progress(struct rdiag_capture *c, uint64_t frames, bool *shown, uint64_t *last)
{
	uint64_t pos, size, t = tool_mono_ns() / 1000000;

	if (t - *last < 500)
		return;
	*last = t;
	if (rdiag_capture_progress(c, &pos, &size) < 0 || !size)
		return;
	fprintf(stderr, "\r%s: %3u%% (%" PRIu64 " frames)", tool_name(),
		(unsigned int)(pos * 100 / size), frames);
	*shown = true;
}

/* one frame into the analysis: false when it is no packet (counted as other) */
static bool analyse(struct rdiag_flow_table *ft, const struct rdiag_frame *fr,
		    const struct rdiag_decode_opts *dopts, struct rdiag_pkt *p,
		    struct rdiag_flow_verdict *v)
{
	if (rdiag_pkt_decode(p, fr->linktype, fr->data, fr->caplen, fr->len, dopts) != 0) {
		rdiag_flow_add_other(ft);
		return false;
	}
	rdiag_flow_add(ft, p, fr->ts_sec * 1000000000ull + fr->ts_nsec, v);
	return true;
}

/* --graph, --report: the capture read again, its first nframes frames (those the first
 * reading took), into a new table made alike; ft is the first reading's.  0 or 2 (the exit
 * status) after a one-line error; cut_short: the first reading ended in an input error, which
 * is the one line to say when the QP is not in what was read.  gf: the graph's stream (NULL:
 * no --graph), rf: the report's (NULL: no --report). */
static int reread(const struct opts *o, struct rdiag_flow_table *ft,
		  const struct rdiag_decode_opts *dopts, const struct rdiag_flow_opts *fo,
		  const struct dump_summary_opts *so, uint64_t nframes, bool cut_short, FILE *gf,
		  FILE *rf)
{
	const struct rdiag_capture_opts co = { .file = o->rfile };
	const struct dump_graph_opts go = { .qp = o->graph_qp, .csv = o->graph_csv,
					    .source = o->rfile };
	const struct dump_report_opts ro = { .source = o->rfile, .so = so };
	struct rdiag_flow_table *ft2 = NULL;
	struct rdiag_capture *cap = NULL;
	struct dump_graph *g = NULL;
	struct dump_report *rep = NULL;
	struct rdiag_frame fr;
	struct rdiag_flow_verdict v;
	struct rdiag_pkt p;
	bool said = false;		/* an error was said */
	int r = 0;

	if (gf)
		r = dump_graph_new(&g, ft, &go);
	if (r == -ENOENT && cut_short) {
		said = true;
	} else if (r == -ENOENT) {
		tool_err("no flow to or from QP 0x%06x in '%s' (rdmadump -q lists the QPs)",
			 o->graph_qp, tool_esc_tmp(o->rfile));
		said = true;
	} else if (r < 0 || (rf && dump_report_new(&rep, ft, &ro) < 0) ||
		   rdiag_flow_open(&ft2, fo) < 0) {
		tool_err("out of memory");
		said = true;
	}
	if (!said && (rdiag_capture_open(&cap, &co) < 0 ||
		      (o->filter && rdiag_capture_set_filter(cap, o->filter) < 0))) {
		tool_err("%s", rdiag_capture_errmsg(cap));
		said = true;
	}
	for (uint64_t n = 0; !said && n < nframes;) {
		uint64_t ts;

		r = rdiag_capture_next(cap, &fr);
		if (r == -EAGAIN || r == -EINTR)
			continue;
		if (r <= 0)
			break;		/* shorter than at the first reading: drawn as far as read */
		n++;
		if (!analyse(ft2, &fr, dopts, &p, &v))
			continue;
		ts = fr.ts_sec * 1000000000ull + fr.ts_nsec;
		if (g)
			dump_graph_add(g, &p, ts, &v);
		if (rep)
			dump_report_add(rep, &p, ts, &v);
	}
	/* a write error (-EIO) is said by the commit, or for standard output at the exit */
	if (!said && g && dump_graph_write(g, gf) == -ENOMEM) {
		tool_err("out of memory");
		said = true;
	}
	if (!said && rep && dump_report_write(rep, ft, rf) == -ENOMEM) {
		tool_err("out of memory");
		said = true;
	}
	if (gf && o->graph_out && !said)
		said = graph_out_commit(gf, o->graph_out) < 0;
	else if (gf && o->graph_out)
		fclose(gf);		/* the temporary goes at the exit */
	else if (gf)
		fflush(gf);
	if (rf && !said)
		said = graph_out_commit(rf, o->report) < 0;
	else if (rf)
		fclose(rf);
	rdiag_capture_close(cap);
	rdiag_flow_close(ft2);
	dump_graph_free(g);
	dump_report_free(rep);
	return said ? EXIT_USAGE : EXIT_OK;
}

int main(int argc, char **argv)
{
	struct rdiag_decode_opts dopts;
	struct rdiag_flow_table *ft = NULL;
	struct rdiag_flow_opts fo = { 0 };
	struct rdiag_capture_dump *dump = NULL;
	struct rdiag_capture_stats st = { 0 };
	struct dump_summary_opts so = { 0 };
	struct out *out;
	struct rdiag_frame fr;
	struct rdiag_pkt p;
	struct rdiag_flow_verdict v;
	struct opts o;
	uint64_t matched = 0, errors = 0, last_progress, nframes = 0;
	FILE *gf = NULL, *rf = NULL;
	int graph_rc = EXIT_OK;
	bool tty_progress, shown = false, input_error = false, write_error = false, print;
	int r;

	tool_init("rdmadump", argv);
	parse(argc, argv, &o);

	rdiag_decode_opts_init(&dopts);
	for (unsigned int i = 0; i < o.n_ports; i++)
		rdiag_decode_opts_add_port(&dopts, o.ports[i]);

	if (o.rfile) {
		const struct rdiag_capture_opts co = { .file = o.rfile };

		r = rdiag_capture_open(&g_cap, &co);
		if (r < 0)
			tool_die("%s", rdiag_capture_errmsg(NULL));
		if (o.filter && rdiag_capture_set_filter(g_cap, o.filter) < 0)
			tool_die("%s", rdiag_capture_errmsg(g_cap));
	} else {
		struct rdiag_capture_opts co = { .iface = o.iface };
		uint16_t ports[RDIAG_MAX_PORTS + 1];

		/* the default filter takes 4791 and every --port */
		ports[0] = RDIAG_ROCEV2_PORT;
		memcpy(ports + 1, o.ports, o.n_ports * sizeof(ports[0]));
		co.live.ports = ports;
		co.live.n_ports = o.n_ports + 1;
		co.live.filter = o.filter;
		r = rdiag_capture_open(&g_cap, &co);
		/* libpcap's own text does not say which privilege is missing */
		if (r == -EPERM)
			tool_die("%s (capturing needs CAP_NET_RAW: run as root, or setcap "
				 "cap_net_raw+ep on rdmadump)", rdiag_capture_errmsg(NULL));
		if (r < 0)
			tool_die("%s", rdiag_capture_errmsg(NULL));
		{
			char f[1024];

			/* as tcpdump does: scripts wait for this line before starting traffic */
			if (rdiag_capture_filter_text(&co.live, f, sizeof(f)) < 0)
				snprintf(f, sizeof(f), "...");
			fprintf(stderr, "%s: listening on %s, link-type %d, filter '%s'\n",
				tool_name(), o.iface, rdiag_capture_linktype(g_cap), f);
		}
	}
	if (o.graph)
		gf = o.graph_out ? graph_out_open(o.graph_out, o.rfile, "--graph-out") : stdout;
	if (o.report)
		rf = graph_out_open(o.report, o.rfile, "--report");
	if (o.wfile) {
		const struct rdiag_capture_dump_opts wo = { .capture = g_cap, .path = o.wfile };

		if (rdiag_capture_dump_open(&dump, &wo) < 0)
			tool_die("%s", rdiag_capture_dump_errmsg(NULL));
	}
	fo.max_flows = (size_t)o.max_flows;
	fo.link_bps = o.link_bps;
	if (rdiag_flow_open(&ft, &fo) < 0)
		tool_die("%s", rdiag_flow_errmsg(NULL));
	out = out_new(stdout, o.json ? OUT_JSON : OUT_TEXT);
	if (!out)
		tool_die("out of memory");

	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	/* reading a file, packet lines (text or JSON) are held by the writer until its 64 KiB
	 * buffer is full and then go to write(2) as they are: an unbuffered stdout does not copy
	 * them into a stdio buffer first (every byte of output comes through the writer, which
	 * writes what it holds before anything else reaches stdout); live output is flushed per
	 * packet below */
	if (gf == stdout) {
		/* the graph is all that goes there, through stdio */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	} else if (!rdiag_capture_is_live(g_cap)) {
		setvbuf(stdout, NULL, _IONBF, 0);
		out_hold(out, true);
	}
	tty_progress = !rdiag_capture_is_live(g_cap) && isatty(STDERR_FILENO);
	last_progress = tool_mono_ns() / 1000000;
	print = !o.quiet && !o.wfile && !(o.graph && !o.graph_out);

	if (!rdiag_capture_is_live(g_cap)) {
		struct sigaction sa;

		if (sigsetjmp(g_bus_jmp, 1)) {
			/* the flow table may be half-updated: no summary; the lines already
			 * made go out, then the error */
			g_bus_armed = 0;
			out_free(out);
			fflush(stdout);
			tool_err("'%s' was cut short while it was read (another process truncated it)",
				 o.rfile);
			exit(2);
		}
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigbus;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, NULL);
		g_bus_armed = 1;
	}
	while (!g_stop) {
		r = rdiag_capture_next(g_cap, &fr);
		if (r == -EAGAIN)
			continue;
		if (r == 0 || r == -EINTR)
			break;
		if (r < 0) {
			input_error = true;
			break;
		}
		nframes++;
		if (tty_progress && (fr.n & 0xfff) == 0)
			progress(g_cap, fr.n, &shown, &last_progress);
		if (!analyse(ft, &fr, &dopts, &p, &v))
			continue;
		/* a PSN gap is an error only once the receiver's responses did not show it was
		 * merely missed by the capture: gaps are counted from the totals at the end */
		if (v.flags & RDIAG_FV_ERRORS & ~(RDIAG_FV_GAP | RDIAG_FV_RESENT_LOST))
			errors++;
		if (!selected(&o, &p, &v))
			continue;
		matched++;
		if (dump && (r = rdiag_capture_dump_write(dump, &fr)) < 0) {
			tool_err("cannot write '%s': %s", o.wfile, strerror(-r));
			input_error = write_error = true;
			break;
		}
		if (print) {
			dump_packet(out, &fr, &p, &v, o.verbose);
			if (rdiag_capture_is_live(g_cap))
				fflush(stdout);
		}
		if (o.count && matched >= o.count)
			break;
	}
	if (shown)
		fprintf(stderr, "\r%*s\r", 60, "");
	/* --errors: the MAD requests that got no answer, once the capture is over */
	if (print && o.errors_only)
		dump_mad_unanswered(out, ft);

	if (rdiag_capture_is_live(g_cap))
		rdiag_capture_stats(g_cap, &st);
	/* a live capture stopped by ^C always ends with its summary, like tcpdump's counts */
	so.have_qp = o.have_qp;
	so.max_flows = o.max_flows;
	so.qp = o.qp;
	so.live = rdiag_capture_is_live(g_cap);
	so.stats = so.live ? &st : NULL;
	so.link_bps = o.link_bps;
	if (o.summary || (rdiag_capture_is_live(g_cap) && g_stop))
		dump_summary(out, ft, &so);
	/* before the writer goes: a SIGBUS while the file is read again ends as in the first */
	if (o.graph || o.report)
		graph_rc = reread(&o, ft, &dopts, &fo, &so, nframes, input_error,
				  o.graph ? gf : NULL, rf);
	out_free(out);
	fflush(stdout);
	if (rdiag_capture_is_live(g_cap))
		fprintf(stderr, "%" PRIu64 " packets captured, %" PRIu64 " received by filter, %"
			PRIu64 " dropped by kernel\n", st.frames, st.received, st.dropped);
	if (input_error && !dump)
		tool_err("%s", rdiag_capture_errmsg(g_cap));
	else if (input_error && *rdiag_capture_errmsg(g_cap))
		tool_err("%s", rdiag_capture_errmsg(g_cap));
	/* a failed write was said where it happened: the close fails with the same error */
	if (dump && (r = rdiag_capture_dump_close(dump)) < 0 && !write_error) {
		tool_err("cannot write '%s': %s", o.wfile, strerror(-r));
		input_error = true;
	}
	if (o.fail_on_errors) {
		struct rdiag_flow_total t;

		/* the gaps left after classification, of first sends and of resends: lost in
		 * the fabric or not explained */
		if (rdiag_flow_total(ft, &t) == 0)
			errors += t.psn_gaps + t.loss.resent_lost_gaps;
	}
	g_bus_armed = 0;
	rdiag_capture_close(g_cap);
	rdiag_flow_close(ft);
	free(o.filter);
	if (input_error || graph_rc)
		return EXIT_USAGE;
	if (o.fail_on_errors && errors)
		return EXIT_FOUND;
	return EXIT_OK;
}
