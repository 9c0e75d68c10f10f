/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop: a top-style live monitor of RDMA ports, counters, QPs and rdma_cm IDs.
 *
 * main() parses options and runs one of two loops over the same collector and model:
 * the interactive curses loop (collector on its own thread, keys answered at once) or the
 * batch loop (-b, like top -b: frames on stdout, -n COUNT, exit 1 on a threshold breach). */
#include <errno.h>
#include <getopt.h>
#include <curses.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdmadiag/fabric.h>

#include "common/clock.h"
#include "common/out.h"

#include "collect.h"
#include "hist.h"
#include "model.h"
#include "term.h"
#include "thresh.h"
#include "common/tool.h"
#include "common/interval.h"
#include "ui.h"
#include "view.h"
#include "view_fabric.h"

struct opts {
	double interval;
	uint64_t count;			/* 0 = forever */
	bool batch, json;
	bool fabric;			/* --screen fabric: batch frames of the Fabric screen */
	enum rdiag_source source;
	const char *thresholds;
	const char *nl_record;
	unsigned spark;			/* --spark: samples per row's sparkline (batch) */
	bool ascii;			/* --ascii: ASCII sparklines and graphs */
};

/* --pause-max: PFC pause frames/s on one priority that the Fabric screen calls a storm */
static double pause_max = RDIAG_PAUSE_MAX_PER_S;
/* sparklines and graphs in Unicode blocks: a UTF-8 locale and no --ascii */
static bool utf8;

static void usage(void)
{
	printf("Usage: rdmatop [OPTIONS]\n"
	       "A live, top-style monitor of RDMA ports, counters, QPs and rdma_cm IDs.\n"
	       "\n"
	       "  -d, --delay SECONDS      refresh interval (fractions allowed; default 1)\n"
	       "  -n, --iterations COUNT   stop after COUNT refreshes\n"
	       "  -b, --batch              batch mode: plain text frames on stdout, no curses\n"
	       "  -j, --json               with -b: one JSON object per frame (JSON lines)\n"
	       "      --screen NAME        with -b: the frames of screen ports (default) or\n"
	       "                           fabric (per-priority Ethernet rates of each port)\n"
	       "      --spark[=N]          with -b: each port's packet rate (rx + tx) over the\n"
	       "                           last N frames (default 30, up to %d) as a sparkline\n"
	       "                           beside its row, with its scale (the max)\n"
	       "      --ascii              sparklines and graphs in ASCII (the default outside\n"
	       "                           a UTF-8 locale)\n"
	       "      --source SRC         auto (default), netlink or sysfs\n"
	       "      --thresholds FILE    threshold rules (same format as rdmastat)\n"
	       "      --pause-max N        PFC pause frames/s on a priority that the Fabric\n"
	       "                           screen calls a storm (default 1000)\n"
	       "      --sysfs-root DIR     read sysfs under DIR (also RDMADIAG_SYSFS_ROOT)\n"
	       "      --nl-record FILE     record the netlink exchanges (replay: RDMADIAG_NL_REPLAY)\n"
	       "  -h, --help               this help\n"
	       "      --version            version\n"
	       "\n"
	       "Keys: arrows/j/k select, Enter counters, Esc back, Q QPs, C rdma_cm IDs,\n"
	       "F per-priority rates of the port's netdev, H graph over time across ports,\n"
	       "s/S sort, p pause, +/- interval, r reset baseline, t thresholds, h help, q quit.\n"
	       "Exit status: 0 ok, 1 a threshold was breached (batch mode), 2 usage or\n"
	       "environment error.  NO_COLOR disables colour.\n", RT_HIST_CAP);
}

static void parse(int argc, char **argv, struct opts *o)
{
	enum { OPT_SOURCE = 256, OPT_THRESH, OPT_ROOT, OPT_RECORD, OPT_VERSION, OPT_SCREEN,
	       OPT_PAUSE_MAX, OPT_SPARK, OPT_ASCII };
	static const struct option lo[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "screen", required_argument, NULL, OPT_SCREEN },
		{ "spark", optional_argument, NULL, OPT_SPARK },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "thresholds", required_argument, NULL, OPT_THRESH },
		{ "pause-max", required_argument, NULL, OPT_PAUSE_MAX },
		{ "sysfs-root", required_argument, NULL, OPT_ROOT },
		{ "nl-record", required_argument, NULL, OPT_RECORD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	bool screen = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:n:bjh", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->interval = tool_interval_arg(optarg);
			break;
		case 'n':
			o->count = tool_count_arg(optarg);
			break;
		case 'b':
			o->batch = true;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_SOURCE:
			if (!strcmp(optarg, "auto"))
				o->source = RDIAG_SRC_AUTO;
			else if (!strcmp(optarg, "netlink"))
				o->source = RDIAG_SRC_NETLINK;
			else if (!strcmp(optarg, "sysfs"))
				o->source = RDIAG_SRC_SYSFS;
			else
				tool_usage_error("invalid source '%s': auto, netlink or sysfs", optarg);
			break;
		case OPT_SCREEN:
			if (!strcmp(optarg, "fabric"))
				o->fabric = true;
			else if (!strcmp(optarg, "ports"))
				o->fabric = false;
			else
				tool_usage_error("invalid screen '%s': ports or fabric", optarg);
			screen = true;
			break;
		case OPT_SPARK: {
			char *end;
			unsigned long v = 30;

			if (optarg) {
				errno = 0;
				v = strtoul(optarg, &end, 10);
				if (errno || end == optarg || *end || *optarg == '-' || v < 1 ||
				    v > RT_HIST_CAP)
					tool_usage_error("invalid sparkline width '%s' (1 to %d samples)",
							 optarg, RT_HIST_CAP);
			}
			o->spark = (unsigned)v;
			break;
		}
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_THRESH:
			o->thresholds = optarg;
			break;
		case OPT_PAUSE_MAX: {
			char *end;

			errno = 0;
			pause_max = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(pause_max > 0) || pause_max > 1e12)
				tool_usage_error("invalid pause rate '%s' (frames per second, above 0)",
						 optarg);
			break;
		}
		case OPT_RECORD:
			o->nl_record = optarg;
			break;
		case OPT_ROOT:
			/* the library reads the seam from the environment */
			if (setenv("RDMADIAG_SYSFS_ROOT", optarg, 1) < 0)
				tool_die("cannot set the sysfs root: %s", strerror(errno));
			break;
		case 'h':
			usage();
			exit(EXIT_OK);
		case OPT_VERSION:
			tool_version();
			exit(EXIT_OK);
		case ':':
			tool_usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			tool_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->json && !o->batch)
		tool_usage_error("-j/--json needs -b/--batch");
	if (screen && !o->batch)
		tool_usage_error("--screen needs -b/--batch (interactively: P and F)");
	if (o->fabric && o->json)
		tool_usage_error("--screen fabric: text frames only (-j frames are the Ports data)");
	if (o->spark && !o->batch)
		tool_usage_error("--spark needs -b/--batch (interactively: Detail and H)");
	if (o->spark && (o->json || o->fabric))
		tool_usage_error("--spark: text frames of the Ports screen only");
}

static bool want_color(void)
{
	const char *nc = getenv("NO_COLOR");

	return !(nc && *nc);
}

static void lifespan_note(const struct rt_model *m, double interval, char *buf, size_t len)
{
	buf[0] = 0;
	if (m->lifespan_ms && interval * 1000 < m->lifespan_ms)
		snprintf(buf, len, "interval %gs is shorter than the hw_counters lifespan (%u ms): "
			 "the kernel serves cached values; rates in between show as stale",
			 interval, m->lifespan_ms);
}

static void frame_info(struct rt_frame_info *fi, const char *host, double interval,
		       const struct rt_thresholds *th)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	memset(fi, 0, sizeof(*fi));
	fi->host = host;
	fi->interval = interval;
	fi->wall = now.tv_sec;
	fi->wall_nsec = (uint32_t)now.tv_nsec;
	fi->th = th;
	fi->pause_max = pause_max;
	fi->utf8 = utf8;
}

/* no RDMA device to watch is an environment error, one line and exit 2, as in the other tools
 * (rdmadiag(7)); --sysfs-root reaches the library through the environment */
static void no_devices(void)
{
	tool_die_no_devices(getenv("RDMADIAG_SYSFS_ROOT"));
}

/* the interactive screen is not started for nothing: one snapshot first */
static void require_devices(struct rt_collector *col)
{
	struct rt_snap s;
	size_t n;

	if (rt_collect_once(col, &s) < 0)
		return;		/* the collector's own error shows on the screen */
	n = s.nports;
	rt_snap_free(&s);
	if (!n)
		no_devices();
}

/* sleep until due (monotonic ns) or a signal asks us to stop; false = stop */
static bool wait_until(uint64_t due)
{
	for (;;) {
		uint64_t now = tool_mono_ns();
		struct pollfd pfd = { .fd = term_wakeup_fd(), .events = POLLIN };
		int ms;

		if (term_take_events() & TERM_EV_QUIT)
			return false;
		if (now >= due)
			return true;
		ms = (int)((due - now + 999999) / 1000000);
		if (poll(&pfd, 1, ms) > 0)
			term_drain();
	}
}

static int run_batch(const struct opts *o, struct rt_collector *col, struct rt_model *m,
		     const char *host, const struct rt_thresholds *th)
{
	struct out *out = out_new(stdout, o->json ? OUT_JSON : OUT_TEXT);
	uint64_t due = tool_mono_ns(), iv_ns = (uint64_t)(o->interval * 1e9), now, k;
	bool breached = false, warned = false;
	char note[256];
	int r = 0;

	if (!out)
		tool_die("out of memory");
	for (k = 0; !o->count || k < o->count; k++) {
		struct rt_frame_info fi;
		struct rt_snap s;

		if (k && !wait_until(due))
			break;
		r = rt_collect_once(col, &s);
		if (r == -EINTR) {
			r = 0;	/* SIGINT/SIGTERM while a counter read blocked: stop */
			break;
		}
		if (r < 0) {
			tool_err("cannot read counters: %s", *rt_collector_errmsg(col) ?
				 rt_collector_errmsg(col) : strerror(-r));
			r = EXIT_USAGE;
			break;
		}
		if (!k && !s.nports) {
			rt_snap_free(&s);
			out_free(out);
			no_devices();
		}
		r = rt_model_ingest(m, &s);
		rt_snap_free(&s);
		if (r < 0)
			tool_die("out of memory");
		if (!warned) {
			lifespan_note(m, o->interval, note, sizeof(note));
			if (note[0])
				tool_warn("%s", note);
			warned = true;
		}
		frame_info(&fi, host, o->interval, th);
		fi.spark = o->spark;
		if (o->fabric && rt_view_batch_fabric(out, m, &fi))
			breached = true;
		else if (!o->fabric)
			rt_view_batch_frame(out, m, &fi);
		/* a frame is out when it is complete, as top -b does: whoever reads a pipe or
		 * follows a file sees each refresh then, not when a stdio buffer fills */
		fflush(stdout);
		if (m->breaches)
			breached = true;
		/* the next frame one interval after this one's due time; when this one ran past
		 * that (a hung device, a loaded machine), one interval from now, as the collector
		 * of the interactive UI does: no burst of back-to-back frames catching up on
		 * missed ticks, whose rates would span milliseconds */
		now = tool_mono_ns();
		due += iv_ns;
		if (due < now)
			due = now + iv_ns;
	}
	out_free(out);
	if (r == EXIT_USAGE)
		return r;
	return breached ? EXIT_FOUND : EXIT_OK;
}

static void draw(struct rt_model *m, struct rt_ui *ui, struct rt_collector *col,
		 const char *host, const struct rt_thresholds *th)
{
	struct rt_frame_info fi;
	uint64_t since;
	char dev[64];

	frame_info(&fi, host, ui->interval, th);
	fi.paused = ui->paused;
	if (rt_collector_busy(col, &since, dev, sizeof(dev))) {
		double s = (double)(tool_mono_ns() - since) / 1e9;

		/* only worth saying once it is longer than an interval */
		if (s > ui->interval) {
			fi.collecting = true;
			fi.collecting_s = s;
			fi.collecting_dev = dev;
		}
	}
	rt_view_curses_draw(m, ui, &fi, term_color());
}

static int run_tui(const struct opts *o, struct rt_collector *col, struct rt_model *m,
		   const char *host, const struct rt_thresholds *th)
{
	struct rt_ui ui;
	uint64_t frames = 0;
	bool warned = false, quit = false;
	int r;

	rt_ui_init(&ui, o->interval);
	require_devices(col);
	r = term_start(want_color());
	if (r < 0) {
		/* newterm fails for one reason in practice: no terminfo entry for TERM */
		tool_err("cannot drive the terminal: TERM='%s' has no terminfo entry (try "
			 "TERM=xterm), or use -b for batch output",
			 getenv("TERM") ? getenv("TERM") : "");
		return EXIT_USAGE;
	}
	r = rt_collector_start(col);
	if (r < 0) {
		term_stop();
		tool_err("cannot start the collector: %s", strerror(-r));
		return EXIT_USAGE;
	}
	draw(m, &ui, col, host, th);
	while (!quit) {
		struct pollfd pfd[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = term_wakeup_fd(), .events = POLLIN },
		};
		unsigned ev;
		struct rt_snap s;
		int ch;
		bool redraw = false;

		/* wake at least twice a second: the clock and a slow collector show */
		poll(pfd, 2, 500);
		term_drain();
		ev = term_take_events();
		if (ev & TERM_EV_QUIT)
			break;
		if (ev & TERM_EV_SUSPEND)
			term_suspend();
		if (ev & (TERM_EV_RESIZE | TERM_EV_SUSPEND))
			term_resize();
		if (rt_collector_take(col, &s)) {
			if (!ui.paused) {
				if (rt_model_ingest(m, &s) < 0) {
					rt_snap_free(&s);
					term_stop();
					tool_die("out of memory");
				}
				frames++;
			}
			rt_snap_free(&s);
			if (!warned && m->frames) {
				char note[256];

				lifespan_note(m, ui.interval, note, sizeof(note));
				if (note[0]) {
					tool_warn("%s", note);	/* held, shown after exit */
					snprintf(ui.msg, sizeof(ui.msg), "%s", note);
				}
				warned = true;
			}
		}
		while ((ch = getch()) != ERR) {
			unsigned act;

			/* resizeterm() (after our SIGWINCH) queues KEY_RESIZE: the size is
			 * already known, so only redraw -- resizing again here would queue
			 * another KEY_RESIZE forever */
			if (ch == KEY_RESIZE)
				continue;
			act = rt_ui_key(&ui, m, ch);
			if (act & RT_ACT_QUIT) {
				quit = true;
				break;
			}
			if (act & RT_ACT_INTERVAL)
				rt_collector_set_interval(col, ui.interval);
			if (act & RT_ACT_PAUSE)
				rt_collector_pause(col, ui.paused);
			if (ch == ('L' & 0x1f))
				clearok(stdscr, TRUE);
			redraw = true;
		}
		(void)redraw;
		if (quit)
			break;
		draw(m, &ui, col, host, th);
		if (o->count && frames >= o->count)
			break;
	}
	rt_collector_stop(col);
	term_stop();
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct rt_collect_opts co = { 0 };
	struct rt_collector *col = NULL;
	struct rt_thresholds *th = NULL;
	struct rt_model m;
	struct opts o;
	char host[256] = "localhost", err[256];
	int r;

	tool_init("rdmatop", argv);
	/* the character set only (sparkline blocks; ncursesw's wide characters): numbers keep
	 * the C locale's decimal point, as every rdmadiag tool writes them */
	setlocale(LC_CTYPE, "");
	parse(argc, argv, &o);
	utf8 = !o.ascii && rt_locale_utf8();
	if (!o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		tool_err("not a terminal: use -b for batch output (rdmatop -b -n 1)");
		return EXIT_USAGE;
	}
	if (o.thresholds) {
		r = rt_thresh_load(&th, o.thresholds, err, sizeof(err));
		if (r == -EINVAL && err[0])
			tool_die("%s: %s", o.thresholds, err);
		if (r < 0)
			tool_die("cannot open '%s': %s", o.thresholds, strerror(-r));
	}
	gethostname(host, sizeof(host) - 1);
	if (term_pipe_init() < 0)
		tool_die("cannot create a pipe: %s", strerror(errno));
	term_signals_install();

	co.source = o.source;
	co.interval = o.interval;
	co.qps = true;
	co.nl_record = o.nl_record;
	co.wake = term_wakeup;
	r = rt_collector_new(&col, &co);
	if (r < 0) {
		tool_err("cannot open the counters layer: %s", *rt_collector_errmsg(col) ?
			 rt_collector_errmsg(col) : strerror(-r));
		rt_collector_free(col);
		rt_thresh_free(th);
		return EXIT_USAGE;
	}
	/* rules on Ethernet statistics: those are read too, as counters of their port */
	if (th) {
		const char *keys[64];
		size_t n = rt_thresh_eth_keys(th, keys, sizeof(keys) / sizeof(keys[0]));

		r = n ? rt_collector_set_eth(col, keys, n) : 0;
		if (r == -ENOMEM)
			tool_die("out of memory");
		if (r < 0)
			tool_die("cannot read Ethernet statistics: %s", *rdiag_fabric_errmsg(NULL) ?
				 rdiag_fabric_errmsg(NULL) : strerror(-r));
	}
	rt_model_init(&m);
	m.th = th;
	r = o.batch ? run_batch(&o, col, &m, host, th) : run_tui(&o, col, &m, host, th);
	rt_model_free(&m);
	rt_collector_free(col);
	rt_thresh_free(th);
	return r;
}
