/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the flight recorder.  Into a ring of fixed size (rdmadiag/ring.h) go the
 * CM events of the trace module and the connections they assemble into, a counter snapshot of
 * every RDMA port every INTERVAL, QP state changes (record_qps.c), port state and GID table
 * changes (record_ports.c, record_gids.c).  A trigger (SIGUSR1, a failed connection, a threshold rule of
 * record_thresholds.c, a QP entering ERR) writes a marker record and copies the ring to
 * FILE.snap.N. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/interval.h"
#include "common/tool.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/fabric.h"
#include "rdmadiag/ring.h"
#include "rdmadiag/rtmon.h"
#include "rdmadiag/trace.h"
#include "cmds.h"
#include "record.h"

enum { OPT_RING = 300, OPT_COUNTERS, OPT_INPUT, OPT_TRACEFS, OPT_DURATION, OPT_THRESHOLDS,
       OPT_GID_SCAN, OPT_SNAPSHOTS, OPT_PAUSE_MAX };

#define SNAP_KEEP_DEFAULT 8
static struct {
	const char *file, *input, *tracefs, *thresholds;
	uint64_t size;
	double interval, duration, gid_scan;
	unsigned int snapshots;		/* copies kept, 0: all */
} ro;

static volatile sig_atomic_t rec_stop, rec_usr1;
static struct timespec usr1_at;		/* when SIGUSR1 arrived (the marker's time) */
static bool port_check_due;		/* an rtnetlink link change: look at the ports now */
static bool ports_gone;			/* a full look wrote GONE records since the last
					 * snapshot: no threshold delta across them */
static uint64_t port_watch_until;	/* and at every snapshot until then (mono ns): the
					 * port follows its netdev a moment later */
#define PORT_WATCH_NS 3000000000ull
static struct rdiag_ring *ring;
static struct rdiag_trace_conns *rconns;
static int64_t mono_to_real;

static void record_usage(void)
{
	printf("Usage: rdmatrace record --ring SIZE [OPTION]... FILE\n"
	       "Keep a flight record of RDMA in FILE, a ring of SIZE bytes that never grows: the\n"
	       "rdma_cm events and connections, counter snapshots of every RDMA port, port state\n"
	       "changes, GID table changes, QP state changes, rtnetlink link/address/neighbour/\n"
	       "route changes.  SIGUSR1, a failed connection, a QP entering ERR or a threshold\n"
	       "rule starting to breach writes a marker and copies the ring to FILE.snap.N.\n"
	       "Ends on SIGINT, SIGTERM or SIGHUP.  Read it with 'rdmatrace dump FILE'.\n"
	       "\n"
	       "      --ring SIZE          ring size in bytes, k or M suffix (4k to 4096M)\n"
	       "      --counters SECONDS   counter snapshot interval (default 1)\n"
	       "      --thresholds FILE    trigger on NAME[@DEV[/PORT]] > VALUE[/s] rules (rdmastat's)\n"
	       "      --pause-max FRAMES   trigger on PFC or link-level pause frames above FRAMES/s\n"
	       "                           on one statistic of a port's netdev (default 1000)\n"
	       "      --gid-scan SECONDS   read every GID table this often without an rtnetlink\n"
	       "                           change too (default 60)\n"
	       "      --snapshots N        keep the newest N FILE.snap.N copies, remove older ones\n"
	       "                           (default 8; 0 keeps all)\n"
	       "      --duration SECONDS   stop after SECONDS (default: until interrupted)\n"
	       "      --input DIR          events from a saved copy of tracefs instead of the kernel\n"
	       "      --tracefs DIR        tracefs mount point (default: from /proc/mounts)\n"
	       "  -h, --help               this help\n"
	       "\n"
	       "Exit status: 0 recorded until stopped, 2 usage error, FILE is a symbolic link, or the\n"
	       "ring cannot be written or was truncated, replaced or overwritten by another process.\n");
}

static void on_stop(int sig)
{
	(void)sig;
	rec_stop = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	if (!rec_usr1)
		clock_gettime(CLOCK_REALTIME, &usr1_at);	/* async-signal-safe */
	rec_usr1 = 1;
}

static uint64_t mono_to_wall(uint64_t mono)
{
	int64_t r = (int64_t)mono + mono_to_real;

	return r < 0 ? 0 : (uint64_t)r;
}

/* connection: cm_id pid comm src dst outcome cause fail_event fail_status req_sent
 * req_resent verdict, tab-separated */
static void on_conn(const struct rdiag_trace_conn *c, void *arg)
{
	char src[64], dst[64], buf[1024], why[160];
	const char *fe = c->fail_event >= 0 ? rdiag_cm_event_name(c->fail_event) : NULL;
	int n;

	(void)arg;
	trace_addr_str(&c->src, src, sizeof(src));
	trace_addr_str(&c->dst, dst, sizeof(dst));
	n = snprintf(buf, sizeof(buf), "%u\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%u\t%u\t%s", c->cm_id,
		     c->pid, c->comm, src, dst, rdiag_trace_outcome_name(c->outcome),
		     c->cause ? c->cause : "", fe ? fe : "", c->fail_status, c->req_sent,
		     c->req_resent, c->verdict);
	if (n < 0)
		return;
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	rec_put(RDIAG_REC_CONN, mono_to_wall(c->end_ns ? c->end_ns : c->start_ns), buf,
	    (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	if (c->outcome == RDIAG_TRACE_FAILED) {
		snprintf(why, sizeof(why), "failed connection cm.id %u to %s: %s", c->cm_id,
			 dst[0] ? dst : "?", c->cause ? c->cause : "?");
		rec_trigger(why, tool_real_ns());
	}
}

/* rtnetlink: "kind\tnew|del\tifname\ttext" */
static void on_rtnl(const struct rdiag_rtmon_change *c, void *arg)
{
	(void)arg;
	/* a link change moves the port, an address change the GID table: look at both */
	if (!strcmp(c->kind, "link") || !strcmp(c->kind, "addr")) {
		port_check_due = true;
		port_watch_until = tool_mono_ns() + PORT_WATCH_NS;
	}
	rec_put_text(RDIAG_REC_NETLINK, tool_real_ns(), "%s\t%s\t%s\t%s", c->kind,
		 c->deleted ? "del" : "new", c->ifname, c->text);
}

static int on_event(const struct rdiag_trace_event *ev, void *arg)
{
	unsigned char buf[1024];
	int n = rdiag_ring_event_encode(ev, buf, sizeof(buf));

	(void)arg;
	if (n > 0)
		rec_put(RDIAG_REC_EVENT, mono_to_wall(ev->ts_ns), buf, (size_t)n);
	rdiag_trace_conns_add(rconns, ev, on_conn, NULL);
	return 0;
}

/* one port's counters, "dev\tport\n" then "name\tvalue\n" lines, split over several records
 * when the ring's payload limit is smaller */
static void put_counters(const struct rdiag_samples *s, uint64_t t)
{
	size_t i, n = rdiag_samples_count(s), max = rdiag_ring_max_payload(ring);
	char *buf = malloc(max + 1);
	size_t len = 0, head = 0;
	const char *cur_dev = NULL;
	uint32_t cur_port = 0;

	if (!buf)
		return;
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s, i);
		char line[256];
		int l;

		if (x->err)
			continue;
		if (cur_dev && (strcmp(cur_dev, x->dev) || cur_port != x->port)) {
			if (len > head)
				rec_put(RDIAG_REC_COUNTERS, t, buf, len);
			cur_dev = NULL;
		}
		l = snprintf(line, sizeof(line), "%s\t%" PRIu64 "\n", x->name, x->value);
		if (l < 0 || (size_t)l >= sizeof(line))
			continue;
		if (cur_dev && len + (size_t)l > max) {
			rec_put(RDIAG_REC_COUNTERS, t, buf, len);
			cur_dev = NULL;
		}
		if (!cur_dev) {
			int h = snprintf(buf, max + 1, "%s\t%u\n", x->dev, x->port);

			if (h < 0 || (size_t)h + (size_t)l > max)
				continue;
			len = head = (size_t)h;
			cur_dev = x->dev;
			cur_port = x->port;
		}
		memcpy(buf + len, line, (size_t)l);
		len += (size_t)l;
	}
	if (cur_dev && len > head)
		rec_put(RDIAG_REC_COUNTERS, t, buf, len);
	free(buf);
}

/* The counters every interval.  The ports: a quick look (record_ports.c: the device names and
 * the port states through kept-open files) once a second; a full look (a discovery, which
 * reads every GID table entry: dear) at the start, at once and at every snapshot for 3 s after
 * an rtnetlink link or address change (what moves a port and changes RoCE GIDs), when the
 * quick look sees a change, and every --gid-scan seconds as a safety net for changes no
 * rtnetlink event announces (an InfiniBand GID set by the subnet manager).  After every
 * sample the devices alone are looked at (the names and their directories: no port file):
 * a device removed or re-created while, or before, it was read is recorded (GONE, the new
 * instance's ports) before a snapshot of it, which is then taken again, so that no snapshot
 * mixes two instances of a device nor follows one that the records do not show yet; full
 * looks follow at every snapshot for 3 s, for ports that come after their device. */
#define QUICK_LOOK_NS 1000000000ull
static void snapshot(struct rdiag_counters *c)
{
	static uint64_t next_quick, next_full;
	static struct rdiag_samples *prev;
	struct rdiag_samples *s = NULL;
	uint64_t t, now = tool_mono_ns();

	if (!c) {	/* the end: let go of the previous snapshot */
		rdiag_samples_free(prev);
		prev = NULL;
		return;
	}
	if (port_check_due || now >= next_full || now < port_watch_until ||
	    (now >= next_quick && rec_ports_look(c))) {
		port_check_due = false;
		next_full = now + (uint64_t)(ro.gid_scan * 1e9);
		next_quick = now + QUICK_LOOK_NS;
		ports_gone |= rec_ports_full(c);
	} else if (now >= next_quick) {
		next_quick = now + QUICK_LOOK_NS;
	}
	t = tool_real_ns();	/* after the port records: a snapshot follows the ports it read */
	if (rdiag_counters_sample(c, NULL, &s) == 0 && rec_ports_devices_changed(c)) {
		rdiag_samples_free(s);
		s = NULL;
		/* a new device's ports and their files come a moment after its directory: full
		 * looks for a while, as after a link change */
		port_watch_until = tool_mono_ns() + PORT_WATCH_NS;
		ports_gone |= rec_ports_full(c);
		t = tool_real_ns();
		if (rdiag_counters_sample(c, NULL, &s) < 0)
			s = NULL;
	}
	if (ports_gone) {	/* the next deltas start from this snapshot */
		ports_gone = false;
		rdiag_samples_free(prev);
		prev = NULL;
	}
	if (s) {
		put_counters(s, t);
		rec_thresholds_check(prev, s, t);
		rec_pause_check(prev, s, t);
		rdiag_samples_free(prev);
		prev = s;
	}
	rec_qps_check(c, t);
}

/* the pause statistics of each port's netdev in every snapshot (record_pause.c judges them):
 * the fabric handle that reads them, or NULL (with one line) when there is none */
static struct rdiag_fabric *pause_stats(struct rdiag_counters *c)
{
	struct rdiag_fabric *f = NULL;
	struct rdiag_eth_reader r;
	int err = rdiag_fabric_open(&f, NULL);

	if (err < 0) {
		tool_warn("recording without Ethernet pause statistics: %s",
			  *rdiag_fabric_errmsg(NULL) ? rdiag_fabric_errmsg(NULL) : strerror(-err));
		return NULL;
	}
	rdiag_fabric_eth_reader(f, &r);
	if (rdiag_counters_set_eth(c, &r, rec_pause_keys, REC_PAUSE_NKEYS) < 0)
		tool_die("out of memory");
	return f;
}

static struct rdiag_trace *open_trace(void)
{
	struct rdiag_trace_opts to = { .tracefs = ro.tracefs, .with_ib_mad = true };
	enum rdiag_trace_fail why = RDIAG_TRACE_OK;
	struct rdiag_trace *t = NULL;
	int err = ro.input ? rdiag_trace_open_dir(&t, ro.input, &why) :
			     rdiag_trace_open(&t, &to, &why);

	if (err < 0) {
		if (ro.input)
			tool_die("cannot read '%s': %s", ro.input, rdiag_trace_errmsg(NULL));
		tool_warn("recording without rdma_cm events: %s", rdiag_trace_errmsg(NULL));
		return NULL;
	}
	return t;
}

static int record_loop(struct rdiag_trace *t, struct rdiag_counters *c, struct rdiag_rtmon *m)
{
	uint64_t step = (uint64_t)(ro.interval * 1e9), next = tool_mono_ns(), lost = 0;
	uint64_t end = ro.duration > 0 ? tool_mono_ns() + (uint64_t)(ro.duration * 1e9) : 0;
	bool input_done = false;

	while (!rec_stop && !rec_out_broken()) {
		uint64_t now = tool_mono_ns();

		if (rec_usr1) {
			uint64_t at = (uint64_t)usr1_at.tv_sec * 1000000000ull + (uint64_t)usr1_at.tv_nsec;

			rec_usr1 = 0;
			rec_trigger("SIGUSR1", at);
		}
		if (m && rdiag_rtmon_read(m, on_rtnl, NULL) == -ENOBUFS) {
			rec_put_text(RDIAG_REC_MARKER, tool_real_ns(), "rtnetlink changes were lost "
				 "(the socket's buffer overflowed)");
			port_check_due = true;	/* a link or address change may be among them */
		}
		if (t && !input_done) {
			rdiag_trace_read(t, on_event, NULL, &lost);
			input_done = ro.input != NULL;
		}
		if (c && port_check_due && now < next) {
			port_check_due = false;
			ports_gone |= rec_ports_full(c);
		}
		if (c && now >= next) {
			snapshot(c);
			next += step;
			if (next < now)
				next = now + step;
		}
		rec_out_copy_if_due();
		if (end && now >= end)
			break;
		now = tool_mono_ns();
		{
			uint64_t wait = next > now ? next - now : 0, due;
			int ms;

			if (rec_out_copy_pending(&due)) {	/* wake up for the copy */
				if ((due > now ? due - now : 0) < wait)
					wait = due > now ? due - now : 0;
			}

			if (end && end - now < wait)
				wait = end > now ? end - now : 0;
			ms = (int)(wait / 1000000u) + 1;
			if (t && !input_done) {	/* one poll: the trace and rtnetlink */
				rdiag_trace_wait_fd(t, m ? rdiag_rtmon_fd(m) : -1, ms);
			} else if (m) {
				struct pollfd pfd = { .fd = rdiag_rtmon_fd(m), .events = POLLIN };

				poll(&pfd, 1, ms);
			} else {
				struct timespec ts = { (time_t)(wait / 1000000000u),
						       (long)(wait % 1000000000u) };

				nanosleep(&ts, NULL);
			}
		}
	}
	if (t && !ro.input)
		rdiag_trace_read(t, on_event, NULL, &lost);
	rdiag_trace_conns_flush(rconns, tool_mono_ns(), on_conn, NULL);
	if (lost)
		rec_put_text(RDIAG_REC_MARKER, tool_real_ns(), "the kernel overwrote %" PRIu64
			 " trace sub-buffer(s) before they were read", lost);
	if (!rec_out_broken())
		rec_out_flush();	/* the last trigger's copy, without waiting out the gap */
	return 0;
}

int trace_record_main(int argc, char **argv, void *ctx)
{
	static const struct option lo[] = {
		{ "ring", required_argument, NULL, OPT_RING },
		{ "counters", required_argument, NULL, OPT_COUNTERS },
		{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
		{ "pause-max", required_argument, NULL, OPT_PAUSE_MAX },
		{ "gid-scan", required_argument, NULL, OPT_GID_SCAN },
		{ "snapshots", required_argument, NULL, OPT_SNAPSHOTS },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "tracefs", required_argument, NULL, OPT_TRACEFS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdiag_counters *c = NULL;
	struct rdiag_fabric *fab = NULL;
	struct rdiag_rtmon *mon = NULL;
	struct rdiag_trace *t;
	struct sigaction sa;
	struct stat st;
	int opt, err, first_err;
	uint64_t lost;

	memset(&ro, 0, sizeof(ro));
	ro.interval = 1.0;
	ro.gid_scan = 60;
	ro.snapshots = SNAP_KEEP_DEFAULT;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case OPT_RING:
			if (trace_parse_size(optarg, &ro.size) || ro.size < RDIAG_RING_MIN_SIZE ||
			    ro.size > RDIAG_RING_MAX_SIZE)
				tool_usage_error("invalid --ring '%s': a size from 4k to 4096M (k, M suffixes)", optarg);
			break;
		case OPT_COUNTERS: ro.interval = tool_interval_arg(optarg); break;
		case OPT_DURATION:
			if (tool_parse_double(optarg, 0.001, 86400 * 365, &ro.duration))
				tool_usage_error("invalid --duration '%s': seconds from 0.001", optarg);
			break;
		case OPT_INPUT: ro.input = optarg; break;
		case OPT_THRESHOLDS: ro.thresholds = optarg; break;
		case OPT_PAUSE_MAX: {
			double v;

			if (tool_parse_double(optarg, 0.001, 1e12, &v))
				tool_usage_error("invalid --pause-max '%s': frames per second above 0", optarg);
			rec_pause_set_max(v);
			break;
		}
		case OPT_GID_SCAN:
			if (tool_parse_double(optarg, 0.001, 86400, &ro.gid_scan))
				tool_usage_error("invalid --gid-scan '%s': seconds from 0.001 to 86400", optarg);
			break;
		case OPT_SNAPSHOTS: {
			uint64_t v;

			if (tool_parse_u64(optarg, 1000000, &v))
				tool_usage_error("invalid --snapshots '%s': a count from 0 (keep all) to 1000000", optarg);
			ro.snapshots = (unsigned int)v;
			break;
		}
		case OPT_TRACEFS: ro.tracefs = optarg; break;
		case 'h': record_usage(); return EXIT_OK;
		default:
			fprintf(stderr, "Try 'rdmatrace record --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		tool_usage_error("record: no FILE given (rdmatrace record --ring SIZE FILE)");
	if (optind + 1 < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (!ro.size)
		tool_usage_error("record: --ring SIZE is required");
	if (ro.input && ro.tracefs)
		tool_usage_error("--input and --tracefs exclude each other");
	ro.file = argv[optind];
	if (ro.thresholds)
		rec_thresholds_load(ro.thresholds);	/* before the ring: a bad file changes nothing */

	err = rdiag_ring_open(&ring, &(struct rdiag_ring_opts){ .path = ro.file,
							      .size = ro.size });
	if (err == -EEXIST)
		tool_die("cannot record into '%s': it exists and is not a ring of %" PRIu64 " bytes",
			 ro.file, ro.size & ~(uint64_t)7);
	if (err == -EPROTO)
		tool_die("cannot record into '%s': it is a ring of another payload format than this "
			 "build's (%d); dump it, then move it away", ro.file, RDIAG_RING_FORMAT);
	if (err == -ELOOP && !lstat(ro.file, &st) && S_ISLNK(st.st_mode))
		tool_die("cannot record into '%s': it is a symbolic link (a ring is never written "
			 "through one)", ro.file);
	if (err < 0)
		tool_die("cannot record into '%s': %s", ro.file, strerror(-err));
	rec_out_start(ring, ro.file, ro.snapshots);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	mono_to_real = tool_mono_to_real_ns();
	if (rdiag_counters_open(&c, NULL) < 0) {
		tool_warn("recording without counters: %s", rdiag_counters_errmsg(NULL));
		c = NULL;
	}
	if (c)
		fab = pause_stats(c);
	if (rdiag_trace_conns_open(&rconns, &(struct rdiag_trace_conns_opts){ .live = !ro.input }) < 0)
		tool_die("out of memory");
	t = open_trace();
	err = rdiag_rtmon_open(&mon, NULL);
	if (err < 0)
		tool_warn("recording without rtnetlink changes: %s", strerror(-err));
	rec_put_text(RDIAG_REC_START, tool_real_ns(), "interval %.3f s, ring %" PRIu64 " bytes",
		 ro.interval, ro.size & ~(uint64_t)7);
	record_loop(t, c, mon);
	if (!rec_out_broken())
		rec_put_text(RDIAG_REC_STOP, tool_real_ns(), "%" PRIu64 " records, %" PRIu64
			     " laps", rdiag_ring_written(ring) + 1, rdiag_ring_wraps(ring));
	rdiag_trace_close(t);
	rdiag_rtmon_close(mon);
	rdiag_trace_conns_close(rconns);
	snapshot(NULL);
	rec_thresholds_free();
	rec_pause_free();
	rec_qps_free();
	rec_gids_free();
	rdiag_counters_close(c);
	rdiag_fabric_close(fab);
	rdiag_ring_close(ring);
	rec_ports_free();
	if (rec_out_broken()) {
		tool_err("%s", rec_out_broken());
		return EXIT_USAGE;
	}
	lost = rec_out_errors(&first_err);
	if (lost) {
		tool_err("cannot write '%s': %s (%" PRIu64 " records lost)", ro.file,
			 strerror(first_err), lost);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
