/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmacheck: does this device and this host do what RDMA needs, and if not, which step
 * fails and why.  A thin shell over the librdmadiag self-tests (rdmadiag/selftest.h): parse
 * options, open the device, run the tests, print each result through the output writer. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/out.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/selftest.h"
#include "common/esc.h"
#include "common/tool.h"

static struct rdiag_selftest *running;	/* for the SIGINT handler */

static void on_sigint(int sig)
{
	(void)sig;
	rdiag_selftest_interrupt(running);	/* tests stop at their next wait */
}

static void usage(void)
{
	printf("Usage: rdmacheck [OPTION]... [TEST]...\n"
	       "Run verbs self-tests on an RDMA device: QP state machine, GID indexes, RNR,\n"
	       "alignment, access errors, memory-registration cost.  Default: every test.\n"
	       "\n"
	       "  -d, --device DEV         device (default: the first with an ACTIVE port)\n"
	       "  -p, --port N             port (default: the first ACTIVE port)\n"
	       "  -g, --gid-index N        source GID index (default: first RoCE v2 IPv4 GID)\n"
	       "      --peer DEV           pair with a second device instead of loopback\n"
	       "      --peer-port N        the peer's port\n"
	       "      --peer-gid-index N   the peer's GID index (default: same type and family)\n"
	       "      --max-mem SIZE       mr-cost upper size, K/M/G suffixes (default 256M)\n"
	       "      --timeout MS         wait for one completion at most MS (default 5000)\n"
	       "  -l, --list               list the tests and exit\n"
	       "  -j, --json               JSON lines, one object per test\n"
	       "  -v, --verbose            show each step as it happens, and every sub-check\n"
	       "  -h, --help               this help\n"
	       "      --version            version\n"
	       "\n"
	       "Fault injection (to see how failures are reported):\n"
	       "      --force-path-mtu BYTES   connect with this path MTU instead of the port's\n"
	       "      --force-bad-dest-qpn     connect to a destination QP that does not exist\n"
	       "\n"
	       "Tests: qp-states gid-sweep rnr alignment access mr-cost\n"
	       "Exit status: 0 all passed (skips allowed), 1 a test failed, 2 usage error,\n"
	       "no usable device (the reason is printed), interrupted, or an object that could\n"
	       "not be released (named).\n");
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end || v == 0 || v > (1ULL << (63 - shift)) >> 1)
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

static int parse_int(const char *opt, const char *s, uint64_t max)
{
	uint64_t v;

	if (tool_parse_u64(s, max, &v))
		tool_usage_error("invalid %s '%s'", opt, s);
	return (int)v;
}

struct ui {
	struct out *o;
	bool verbose;
	bool json;
	uint64_t t0_ns;		/* the steps of -v are stamped with the seconds since */
};

static void on_step(void *arg, const char *test, const char *step)
{
	struct ui *ui = arg;
	FILE *f = ui->json ? stderr : stdout;

	fprintf(f, "  .. %7.3f %-10s %s\n", (double)(tool_mono_ns() - ui->t0_ns) / 1e9, test, step);
	fflush(f);
}

static void list_tests(struct out *o)
{
	size_t i;

	for (i = 0; i < rdiag_selftest_count(); i++) {
		out_obj_begin(o, NULL);
		out_str(o, "test", "%-10s ", rdiag_selftest_name(i));
		out_str(o, "description", "%s\n", rdiag_selftest_description(i));
		out_obj_end(o);
	}
}

static const char *verdict_text(enum rdiag_verdict v)
{
	return v == RDIAG_PASS ? "PASS" : v == RDIAG_FAIL ? "FAIL" : "SKIP";
}

static void print_counter(struct out *o, const struct rdiag_st_counter *c)
{
	out_obj_begin(o, NULL);
	out_text(o, "      counter   ");
	out_str(o, "dev", "%s", c->dev);
	out_u64(o, "port", "/%" PRIu64 " ", c->port);
	out_str(o, "name", "%s", c->name);
	if (c->concept[0])	/* absent for a counter the catalogue has no concept for */
		out_str(o, "concept", " (%s)", c->concept);
	out_u64(o, "before", " %" PRIu64, c->before);
	out_u64(o, "after", " -> %" PRIu64, c->after);
	out_i64(o, "delta", " = %+" PRId64, c->delta);
	out_bool(o, "checked", NULL, c->checked);
	if (c->checked) {
		out_i64(o, "expect_min", ", expected +%" PRId64, c->expect_min);
		out_i64(o, "expect_max", "..%" PRId64, c->expect_max);
		out_bool(o, "ok", NULL, c->ok);
		out_text(o, " %s", c->ok ? "ok" : "WRONG");
	}
	out_text(o, "\n");
	out_obj_end(o);
}

static void print_check(struct out *o, const struct rdiag_st_check *c)
{
	int k;

	out_obj_begin(o, NULL);
	out_text(o, "      %s ", verdict_text(c->verdict));
	out_str(o, "what", "%-26s ", c->what);
	out_str(o, "verdict", NULL, rdiag_verdict_name(c->verdict));
	out_str(o, "detail", "%s\n", c->detail);
	if (c->wc_status >= 0) {
		out_i64(o, "wc_status", NULL, c->wc_status);
		out_str(o, "wc_name", NULL,
			tool_name_or(rdiag_wc_status_name(c->wc_status), "IBV_WC_UNKNOWN"));
	}
	if (c->nnum && out_json(o)) {
		out_obj_begin(o, "values");
		for (k = 0; k < c->nnum; k++)
			out_dbl(o, c->num[k].key, NULL, c->num[k].v);
		out_obj_end(o);
	}
	out_obj_end(o);
}

static void print_result(struct ui *ui, struct rdiag_selftest *st, const struct rdiag_st_result *r)
{
	struct out *o = ui->o;
	bool expand = r->verdict == RDIAG_FAIL || ui->verbose;
	size_t i;

	out_obj_begin(o, NULL);
	out_text(o, "%s ", verdict_text(r->verdict));
	out_str(o, "test", "%-10s ", r->name);
	out_str(o, "verdict", NULL, rdiag_verdict_name(r->verdict));
	/* what the context still holds once the test released its objects: 0 */
	out_u64(o, "live_objects", NULL, rdiag_selftest_live_objects(st));
	out_str(o, "device", NULL, rdiag_selftest_dev(st));
	out_i64(o, "port", NULL, rdiag_selftest_port(st));
	out_i64(o, "gid_index", NULL, rdiag_selftest_gid_index(st));
	if (rdiag_selftest_peer_dev(st)) {
		out_str(o, "peer", NULL, rdiag_selftest_peer_dev(st));
		out_i64(o, "peer_port", NULL, rdiag_selftest_peer_port(st));
		out_i64(o, "peer_gid_index", NULL, rdiag_selftest_peer_gid_index(st));
	}	/* loopback: no peer keys (a field that does not apply is left out) */
	if (r->summary[0] || out_json(o))
		out_str(o, "summary", "%s", r->summary);
	else if (r->verdict == RDIAG_FAIL)
		out_text(o, "%s", r->step);
	out_dbl(o, "elapsed_ms", " (%.0f ms)\n", r->elapsed_ms);
	if (r->verdict == RDIAG_FAIL || out_json(o)) {
		/* without a summary the first line already showed the step */
		if (r->step[0] || out_json(o))
			out_str(o, "step", r->summary[0] ? "      step      %s\n" : NULL,
				      r->step);
		out_i64(o, "errno", r->err ? "      errno     %" PRId64 : NULL, r->err);
		if (r->err || out_json(o))
			out_str(o, "error", r->err ? " (%s)\n" : NULL,
				      r->err ? strerror(r->err) : "");
	}
	if (r->wc_status >= 0) {
		out_i64(o, "wc_status", expand ? "      wc        %" PRId64 : NULL,
			      r->wc_status);
		out_str(o, "wc_name", expand ? " %s" : NULL,
			tool_name_or(rdiag_wc_status_name(r->wc_status), "IBV_WC_UNKNOWN"));
		out_str(o, "wc_text", expand ? " (%s)\n" : NULL,
			      rdiag_wc_status_str(r->wc_status));
	}
	if (r->expected[0] || out_json(o))
		out_str(o, "expected", expand ? "      expected  %s\n" : NULL, r->expected);
	if (r->observed[0] || out_json(o))
		out_str(o, "observed", expand ? "      observed  %s\n" : NULL, r->observed);
	out_obj_begin(o, "attributes");
	for (i = 0; i < r->nattrs; i++) {
		if (expand && !out_json(o))
			out_text(o, "      attr      %-20s %s\n", r->attrs[i].key,
				       r->attrs[i].val);
		else
			out_str(o, r->attrs[i].key, NULL, r->attrs[i].val);
	}
	out_obj_end(o);
	out_arr_begin(o, "counters");
	for (i = 0; i < r->ncounters; i++)
		if (expand || out_json(o))
			print_counter(o, &r->counters[i]);
	out_arr_end(o);
	out_arr_begin(o, "checks");
	for (i = 0; i < r->nchecks; i++)
		if (ui->verbose || out_json(o) || r->checks[i].verdict == RDIAG_FAIL)
			print_check(o, &r->checks[i]);
	out_arr_end(o);
	if (r->hint[0] || out_json(o))
		out_str(o, "hint", r->verdict == RDIAG_FAIL ? "      hint      %s\n" : NULL,
			      r->hint);
	out_obj_end(o);
	fflush(out_file(o));
}

enum {
	OPT_PEER = 256, OPT_PEER_PORT, OPT_PEER_GID, OPT_MAX_MEM, OPT_TIMEOUT, OPT_VERSION,
	OPT_FORCE_MTU, OPT_FORCE_QPN,
};

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "gid-index", required_argument, NULL, 'g' },
		{ "peer", required_argument, NULL, OPT_PEER },
		{ "peer-port", required_argument, NULL, OPT_PEER_PORT },
		{ "peer-gid-index", required_argument, NULL, OPT_PEER_GID },
		{ "max-mem", required_argument, NULL, OPT_MAX_MEM },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "force-path-mtu", required_argument, NULL, OPT_FORCE_MTU },
		{ "force-bad-dest-qpn", no_argument, NULL, OPT_FORCE_QPN },
		{ NULL, 0, NULL, 0 },
	};
	struct rdiag_selftest_opts opts;
	struct rdiag_selftest *st = NULL;
	struct rdiag_st_result *res;
	struct ui ui = { 0 };
	struct sigaction sa;
	bool list = false, want[64] = { false }, any = false, failed = false, intr = false;
	char held[256];
	size_t i, live;
	int c, rc, n;

	tool_init("rdmacheck", argv);
	memset(&opts, 0, sizeof(opts));
	opts.gid_index = -1;
	opts.peer_gid_index = -1;
	while ((c = getopt_long(argc, argv, "d:p:g:ljvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': opts.dev = optarg; break;
		case 'p': opts.port = parse_int("port", optarg, 255); break;
		case 'g': opts.gid_index = parse_int("GID index", optarg, 65535); break;
		case OPT_PEER: opts.peer_dev = optarg; break;
		case OPT_PEER_PORT: opts.peer_port = parse_int("peer port", optarg, 255); break;
		case OPT_PEER_GID:
			opts.peer_gid_index = parse_int("peer GID index", optarg, 65535);
			break;
		case OPT_MAX_MEM:
			if (parse_size(optarg, &opts.max_mem) || opts.max_mem < 4096)
				tool_usage_error("invalid size '%s' (4K or more, e.g. 64M)", optarg);
			break;
		case OPT_TIMEOUT:
			opts.timeout_ms = (unsigned int)parse_int("timeout", optarg, 3600000);
			if (!opts.timeout_ms)
				tool_usage_error("invalid timeout '0'");
			break;
		case OPT_FORCE_MTU:
			opts.faults.path_mtu = (int)rdiag_mtu_from_bytes((unsigned int)parse_int("path MTU",
										optarg, 4096));
			if (!opts.faults.path_mtu)
				tool_usage_error("invalid path MTU '%s' (256, 512, 1024, 2048 or "
						 "4096)", optarg);
			break;
		case OPT_FORCE_QPN: opts.faults.bad_dest_qpn = true; break;
		case 'l': list = true; break;
		case 'j': ui.json = true; break;
		case 'v': ui.verbose = true; break;
		case 'h': usage(); return EXIT_OK;
		case OPT_VERSION: tool_version(); return EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", tool_name());
			return EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++) {
		n = rdiag_selftest_find(argv[optind]);
		if (n < 0)
			tool_usage_error("unknown test '%s' (rdmacheck --list)", argv[optind]);
		want[n] = any = true;
	}
	ui.o = out_new(stdout, ui.json ? OUT_JSON : OUT_TEXT);
	if (!ui.o)
		tool_die("out of memory");
	if (list) {
		list_tests(ui.o);
		out_free(ui.o);
		return EXIT_OK;
	}
	if (ui.verbose) {
		ui.t0_ns = tool_mono_ns();
		opts.on_step = on_step;
		opts.on_step_arg = &ui;
	}
	rc = rdiag_selftest_open(&st, &opts);
	if (rc) {
		out_free(ui.o);
		tool_die("%s", rdiag_selftest_errmsg(NULL));
	}
	running = st;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = (int)SA_RESETHAND;	/* a second ^C kills at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!ui.json && rdiag_selftest_peer_dev(st))
		printf("rdmacheck: %s port %d, GID index %d, peer %s port %d, GID index %d\n",
		       tool_esc_tmp(rdiag_selftest_dev(st)), rdiag_selftest_port(st),
		       rdiag_selftest_gid_index(st), tool_esc_tmp(rdiag_selftest_peer_dev(st)),
		       rdiag_selftest_peer_port(st), rdiag_selftest_peer_gid_index(st));
	else if (!ui.json)
		printf("rdmacheck: %s port %d, GID index %d, loopback\n",
		       tool_esc_tmp(rdiag_selftest_dev(st)),
		       rdiag_selftest_port(st), rdiag_selftest_gid_index(st));
	res = malloc(sizeof(*res));
	if (!res) {
		rdiag_selftest_close(st);
		tool_die("out of memory");
	}
	for (i = 0; i < rdiag_selftest_count() && !intr; i++) {
		if (any && !want[i])
			continue;
		rc = rdiag_selftest_run(st, i, res);
		if (rc == -EINTR)
			intr = true;
		if (res->verdict == RDIAG_FAIL)
			failed = true;
		print_result(&ui, st, res);
	}
	free(res);
	running = NULL;
	/* Every path ends here (pass, fail, SIGINT): the library counts what it created and
	 * has not released, including objects whose destroy call failed. */
	live = rdiag_selftest_live_str(st, held, sizeof(held));
	if (!live && ui.verbose && !intr)
		on_step(&ui, "", "end: every object created was released (0 live objects)");
	rdiag_selftest_close(st);
	out_free(ui.o);
	if (live) {
		tool_err("%s%zu object%s not released: %s", intr ? "interrupted; " : "", live,
			 live == 1 ? "" : "s", held);
		return EXIT_USAGE;
	}
	if (intr) {
		tool_err("interrupted: everything created was released (0 live objects)");
		return EXIT_USAGE;
	}
	return failed ? EXIT_FOUND : EXIT_OK;
}
