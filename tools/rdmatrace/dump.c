/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace dump: a recorder ring (rdmatrace record) as one time-ordered timeline: markers,
 * port state, GID table and QP state changes, rdma_cm events and connections, and counter
 * DELTAS between consecutive snapshots of a port (only the counters that moved); text, or
 * JSON lines with a "type". */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/esc.h"
#include "common/out.h"
#include "common/timefmt.h"
#include "common/tool.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/ring.h"
#include "rdmadiag/trace.h"
#include "cmds.h"

enum { OPT_SINCE = 400, OPT_UNTIL, OPT_AROUND };

#define AROUND_NS (30ull * 1000000000ull)	/* --around T: T - 30 s to T + 30 s */

struct rec {
	uint64_t time_ns, seq;
	unsigned int type;
	char *data;		/* copy, NUL-terminated */
	size_t len;
};

struct last_val {
	char *key;		/* "dev\tport\tname" */
	uint64_t value, time_ns;
};

static struct rec *recs;
static size_t nrecs, caprecs;
static struct last_val *lasts;
static size_t nlasts;
static struct out *o;
static uint64_t since_ns, until_ns = UINT64_MAX;
static uint64_t n_unknown_type, n_undecodable;	/* records skipped, said on stderr */

static void dump_usage(void)
{
	printf("Usage: rdmatrace dump [OPTION]... FILE\n"
	       "Print a ring written by 'rdmatrace record' (or one of its FILE.snap.N copies) as\n"
	       "one time-ordered timeline: markers, port state, GID table and QP state changes,\n"
	       "rtnetlink changes, rdma_cm events and connections, and per port the counters that\n"
	       "moved since its previous snapshot.\n"
	       "TIME is RFC 3339 in UTC (2026-12-02T01:30:00Z) or seconds since the epoch.\n"
	       "\n"
	       "  -j, --json               JSON lines, each object with a \"type\" key\n"
	       "      --since TIME         only what happened at or after TIME\n"
	       "      --until TIME         only what happened at or before TIME\n"
	       "      --around TIME        only what happened within 30 seconds of TIME\n"
	       "  -h, --help               this help\n"
	       "\n"
	       "Exit status: 0 nothing failed, 1 a failed connection is in the window, 2 usage\n"
	       "error or FILE is not a readable ring (not a ring, truncated, or no record and\n"
	       "less on disk than its header claims).\n");
}

static int collect(const struct rdiag_ring_record *r, void *arg)
{
	struct rec *x;

	(void)arg;
	if (nrecs == caprecs) {
		struct rec *n = realloc(recs, (caprecs ? caprecs * 2 : 1024) * sizeof(*recs));

		if (!n)
			return -ENOMEM;
		recs = n;
		caprecs = caprecs ? caprecs * 2 : 1024;
	}
	x = &recs[nrecs];
	x->data = malloc(r->len + 1);
	if (!x->data)
		return -ENOMEM;
	memcpy(x->data, r->data, r->len);
	x->data[r->len] = 0;
	x->len = r->len;
	x->time_ns = r->time_ns;
	x->seq = r->seq;
	x->type = r->type;
	nrecs++;
	return 0;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool in_window(uint64_t t)
{
	return t >= since_ns && t <= until_ns;
}

static void begin(const char *type, uint64_t t)
{
	char buf[TOOL_TIME_LEN];

	out_obj_begin(o, NULL);
	tool_time_str(buf, sizeof(buf), t / 1000000000u, (uint32_t)(t % 1000000000u));
	out_str(o, "time", "%s", buf);
	out_str(o, "type", " %s", type);
}

static void end(void)
{
	out_obj_end(o);
	if (!out_json(o))
		out_text(o, "\n");
}

/* split s at tabs into at most max fields */
static size_t fields(char *s, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = 0;
	}
	return n;
}

static void show_text_rec(const struct rec *r, const char *type)
{
	begin(type, r->time_ns);
	out_str(o, "text", " %s", out_json(o) ? r->data : tool_esc_tmp(r->data));
	end();
}

static void show_port(struct rec *r)
{
	char *f[4];

	if (fields(r->data, f, 4) != 4) {
		n_undecodable++;
		return;
	}
	begin("port", r->time_ns);
	out_str(o, "dev", " %s", out_json(o) ? f[0] : tool_esc_tmp(f[0]));
	out_u64(o, "port", "/%" PRIu64, strtoull(f[1], NULL, 10));
	out_str(o, "state", " %s", f[2]);
	if (f[3][0])	/* "" for GONE */
		out_str(o, "phys_state", " (%s)", f[3]);
	end();
}

/* a port record "dev\tport\tGONE\t" (record_ports.c): the device went away or was
 * re-created, so its next snapshot (every port's, and the device-level counters') is a
 * baseline, never a delta from the instance before */
static void port_gone(const struct rec *r)
{
	const char *tab = strchr(r->data, '\t');
	size_t dlen, i;

	if (!tab || !strstr(tab, "\tGONE\t"))
		return;
	dlen = (size_t)(tab - r->data) + 1;	/* "dev\t" starts the device's keys */
	for (i = 0; i < nlasts; i++)
		if (!strncmp(lasts[i].key, r->data, dlen))
			lasts[i].time_ns = 0;
}

static void show_netlink(struct rec *r)
{
	char *f[4];

	if (fields(r->data, f, 4) != 4) {
		n_undecodable++;
		return;
	}
	begin("netlink", r->time_ns);
	out_str(o, "kind", " %s", f[0]);
	out_str(o, "action", " %s", f[1]);
	if (f[2][0] && out_json(o))
		out_str(o, "dev", NULL, f[2]);
	out_str(o, "text", " %s", out_json(o) ? f[3] : tool_esc_tmp(f[3]));
	end();
}

/* "dev\tport\tqpn\ttype\tfrom\tto\tpid\tcomm" (record_qps.c) */
static void show_qp(struct rec *r)
{
	char *f[8];
	long long pid;

	if (fields(r->data, f, 8) != 8) {
		n_undecodable++;
		return;
	}
	pid = strtoll(f[6], NULL, 10);
	begin("qp", r->time_ns);
	out_str(o, "dev", " %s", out_json(o) ? f[0] : tool_esc_tmp(f[0]));
	out_u64(o, "port", "/%" PRIu64, strtoull(f[1], NULL, 10));
	out_u64(o, "qpn", " qpn %" PRIu64, strtoull(f[2], NULL, 10));
	out_str(o, "qp_type", " %s", f[3]);
	if (!out_json(o))
		out_text(o, " %s -> %s", f[4][0] ? f[4] : "(new)", f[5][0] ? f[5] : "(gone)");
	else {
		if (f[4][0])
			out_str(o, "prev_state", NULL, f[4]);
		if (f[5][0])
			out_str(o, "state", NULL, f[5]);
	}
	if (pid)	/* 0: a kernel QP */
		out_i64(o, "pid", " pid %" PRId64, (int64_t)pid);
	if (f[7][0])	/* "" when unknown (a replay, a process already gone) */
		out_str(o, "comm", pid ? "/%s" : " %s", out_json(o) ? f[7] : tool_esc_tmp(f[7]));
	else if (!out_json(o))
		out_text(o, pid ? "/?" : " ?");
	end();
}

/* "dev\tport\tindex\tadded|removed|changed\tgid\ttype\tndev\told_gid" (record_gids.c) */
static void show_gid(struct rec *r)
{
	char *f[8];

	if (fields(r->data, f, 8) != 8) {
		n_undecodable++;
		return;
	}
	begin("gid", r->time_ns);
	out_str(o, "dev", " %s", out_json(o) ? f[0] : tool_esc_tmp(f[0]));
	out_u64(o, "port", "/%" PRIu64, strtoull(f[1], NULL, 10));
	out_u64(o, "index", " index %" PRIu64, strtoull(f[2], NULL, 10));
	out_str(o, "action", " %s", f[3]);
	out_str(o, "gid", " %s", f[4]);
	if (f[7][0])
		out_str(o, "old_gid", " (was %s)", f[7]);
	if (f[5][0])
		out_str(o, "gid_type", " %s", f[5]);
	if (f[6][0])
		out_str(o, "ndev", " ndev %s", out_json(o) ? f[6] : tool_esc_tmp(f[6]));
	end();
}

static void show_event(const struct rec *r)
{
	struct rdiag_trace_event ev;
	char src[64], dst[64], stx[96];
	const char *cmev;

	if (rdiag_ring_event_decode(r->data, r->len, &ev) < 0) {
		n_undecodable++;
		return;
	}
	if (!strcmp(ev.system, "ib_mad"))
		return;
	if (!strcmp(ev.name, "cm_event_done") && !(ev.has_status && ev.status))
		return;
	cmev = ev.cm_event >= 0 ? rdiag_cm_event_name(ev.cm_event) : NULL;
	begin("event", r->time_ns);
	out_i64(o, "pid", " %" PRId64, ev.pid);
	out_str(o, "comm", "/%s", out_json(o) ? ev.comm : tool_esc_tmp(ev.comm[0] ? ev.comm : "?"));
	out_str(o, "system", NULL, ev.system);
	out_str(o, "event", " %s", ev.name);
	if (ev.has_cm_id)
		out_u64(o, "cm_id", " cm.id %" PRIu64, ev.cm_id);
	if (ev.has_addrs) {
		trace_addr_str(&ev.src, src, sizeof(src));
		trace_addr_str(&ev.dst, dst, sizeof(dst));
		if (src[0])
			out_str(o, "src", " %s", src);
		if (dst[0])
			out_str(o, "dst", " -> %s", dst);
	}
	if (cmev)
		out_str(o, "cm_event", " %s", cmev);
	if (ev.has_status) {
		out_i64(o, "status", NULL, ev.status);
		if (cmev && !strcmp(ev.name, "cm_event_handler")) {
			rdiag_cm_status_str(ev.cm_event, ev.status, stx, sizeof(stx));
			out_str(o, "status_str", " status %s", stx);
		} else if (!out_json(o)) {
			out_text(o, " status %d", ev.status);
		}
	}
	if (ev.device[0])
		out_str(o, "device", " device %s", out_json(o) ? ev.device : tool_esc_tmp(ev.device));
	if (out_json(o))
		out_str(o, "detail", NULL, ev.detail);
	end();
}

static bool show_conn(struct rec *r)
{
	char *f[12];
	bool failed;

	if (fields(r->data, f, 12) != 12) {
		n_undecodable++;
		return false;
	}
	failed = !strcmp(f[5], "failed");
	begin("connection", r->time_ns);
	out_u64(o, "cm_id", " cm.id %" PRIu64, strtoull(f[0], NULL, 10));
	out_i64(o, "pid", " %" PRId64, strtoll(f[1], NULL, 10));
	out_str(o, "comm", "/%s", out_json(o) ? f[2] : tool_esc_tmp(f[2][0] ? f[2] : "?"));
	if (f[3][0])
		out_str(o, "src", " %s", f[3]);
	if (f[4][0])
		out_str(o, "dst", " -> %s", f[4]);
	out_str(o, "outcome", " %s", f[5]);
	if (f[6][0])
		out_str(o, "cause", " %s", f[6]);
	if (f[7][0]) {
		out_str(o, "fail_event", " %s", f[7]);
		out_i64(o, "fail_status", " %" PRId64, strtoll(f[8], NULL, 10));
	}
	out_u64(o, "req_sent", NULL, strtoull(f[9], NULL, 10));
	out_u64(o, "req_resent", NULL, strtoull(f[10], NULL, 10));
	out_str(o, "verdict", ": %s", out_json(o) ? f[11] : tool_esc_tmp(f[11]));
	end();
	return failed;
}

static struct last_val *last_find(const char *key)
{
	static size_t hint;
	size_t i;
	struct last_val *n;

	for (i = 0; i < nlasts; i++) {
		size_t j = (hint + i) % nlasts;

		if (!strcmp(lasts[j].key, key)) {
			hint = j + 1;
			return &lasts[j];
		}
	}
	n = realloc(lasts, (nlasts + 1) * sizeof(*lasts));
	if (!n)
		return NULL;
	lasts = n;
	lasts[nlasts].key = strdup(key);
	if (!lasts[nlasts].key)
		return NULL;
	lasts[nlasts].time_ns = 0;
	return &lasts[nlasts++];
}

/* the counters of one snapshot record that moved since the port's previous snapshot */
static void show_counters(struct rec *r, bool show)
{
	char *line, *nl, *dev, *port, key[512];
	bool started = false;
	uint64_t prev_t = 0;

	dev = r->data;
	nl = strchr(dev, '\n');
	port = nl ? memchr(dev, '\t', (size_t)(nl - dev)) : NULL;
	if (!port) {
		n_undecodable++;
		return;
	}
	*nl = 0;
	*port++ = 0;
	for (line = nl + 1; *line; line = nl + 1) {
		char *tab = strchr(line, '\t');
		struct last_val *lv;
		uint64_t v;

		nl = strchr(line, '\n');
		if (!nl || !tab || tab > nl)
			break;
		*tab = 0;
		*nl = 0;
		v = strtoull(tab + 1, NULL, 10);
		snprintf(key, sizeof(key), "%s\t%s\t%s", dev, port, line);
		lv = last_find(key);
		if (!lv)
			break;
		if (lv->time_ns && lv->value != v && show) {
			if (!started) {
				prev_t = lv->time_ns;
				begin("counters", r->time_ns);
				out_str(o, "dev", " %s", out_json(o) ? dev : tool_esc_tmp(dev));
				out_u64(o, "port", "/%" PRIu64, strtoull(port, NULL, 10));
				out_dbl(o, "interval_s", " over %.3f s:", (double)(r->time_ns - prev_t) / 1e9);
				out_obj_begin(o, "deltas");
				started = true;
			}
			if (out_json(o))
				out_i64(o, line, NULL, (int64_t)(v - lv->value));
			else
				out_text(o, " %s %+" PRId64, tool_esc_tmp(line),
					 (int64_t)(v - lv->value));
		}
		lv->value = v;
		lv->time_ns = r->time_ns;
	}
	if (started) {
		out_obj_end(o);
		end();
	}
}

static void free_all(void)
{
	size_t i;

	for (i = 0; i < nrecs; i++)
		free(recs[i].data);
	free(recs);
	for (i = 0; i < nlasts; i++)
		free(lasts[i].key);
	free(lasts);
}

/* the records collected (collect), sorted by time and printed to fp: 1 when a failed
 * connection is in the window, 0 when none is, -ENOMEM */
static int dump_show(FILE *fp, bool json)
{
	bool failed = false;
	size_t i;

	if (nrecs > 1)	/* (a ring with no record yet: recs is NULL) */
		qsort(recs, nrecs, sizeof(*recs), rec_cmp);
	o = out_new(fp, json ? OUT_JSON : OUT_TEXT);
	if (!o)
		return -ENOMEM;
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		bool show = in_window(r->time_ns);

		if (r->type == RDIAG_REC_COUNTERS) {
			show_counters(r, show);	/* outside the window too: the baseline */
			continue;
		}
		if (r->type == RDIAG_REC_PORT)
			port_gone(r);	/* outside the window too: the baseline restarts */
		if (!show)
			continue;
		switch (r->type) {
		case RDIAG_REC_START: show_text_rec(r, "start"); break;
		case RDIAG_REC_STOP: show_text_rec(r, "stop"); break;
		case RDIAG_REC_MARKER: show_text_rec(r, "marker"); break;
		case RDIAG_REC_PORT: show_port(r); break;
		case RDIAG_REC_EVENT: show_event(r); break;
		case RDIAG_REC_NETLINK: show_netlink(r); break;
		case RDIAG_REC_QP: show_qp(r); break;
		case RDIAG_REC_GID: show_gid(r); break;
		case RDIAG_REC_CONN: failed |= show_conn(r); break;
		default: n_unknown_type++; break;
		}
	}
	out_free(o);
	o = NULL;
	return failed;
}

int trace_dump_main(int argc, char **argv, void *ctx)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "around", required_argument, NULL, OPT_AROUND },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdiag_ring_info info;
	bool json = false;
	const char *file;
	uint64_t t;
	int c, err, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", lo, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case OPT_SINCE:
		case OPT_UNTIL:
		case OPT_AROUND:
			if (trace_parse_time(optarg, &t))
				tool_usage_error("invalid time '%s': RFC 3339 in UTC (2026-12-02T01:30:00Z) or seconds since the epoch", optarg);
			if (c == OPT_SINCE)
				since_ns = t;
			else if (c == OPT_UNTIL)
				until_ns = t;
			else {
				since_ns = t > AROUND_NS ? t - AROUND_NS : 0;
				until_ns = t + AROUND_NS;
			}
			break;
		case 'h': dump_usage(); return EXIT_OK;
		default:
			fprintf(stderr, "Try 'rdmatrace dump --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		tool_usage_error("dump: no FILE given (rdmatrace dump FILE)");
	if (optind + 1 < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind + 1]);
	file = argv[optind];
	err = rdiag_ring_read(file, collect, NULL, &info);
	if (err < 0) {
		free_all();
		if (err == -EBADMSG)
			tool_die("cannot read '%s': not an rdmatrace ring (bad header)", file);
		if (err == -ENODATA)	/* truncated, or a header over next to nothing */
			tool_die("cannot read '%s': %s", file, rdiag_ring_errmsg(NULL));
		tool_die("cannot read '%s': %s", file, strerror(-err));
	}
	if (info.format != RDIAG_RING_FORMAT) {
		/* payloads of another format are not guessed at: none is shown */
		tool_warn("'%s' is a ring of payload format %u, this build reads %d: its %zu "
			  "record(s) skipped", file, info.format, RDIAG_RING_FORMAT, nrecs);
		free_all();
		return EXIT_OK;
	}
	rc = dump_show(stdout, json);
	free_all();
	if (rc < 0)
		tool_die("out of memory");
	if (n_unknown_type || n_undecodable)
		tool_warn("%" PRIu64 " record(s) of a type this build does not know and %" PRIu64
			  " that did not decode skipped", n_unknown_type, n_undecodable);
	if (fflush(stdout) || ferror(stdout))
		return EXIT_USAGE;
	return rc ? EXIT_FOUND : EXIT_OK;
}
