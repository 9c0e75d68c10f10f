/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The connections collector: every rdma_cm connection of this host, by outcome and cause,
 * from the kernel's tracepoints, assembled by the library code rdmatrace -c uses
 * (rdiag_trace_conns_*, rdiag_cause_decide behind it).  A thread reads the trace as it
 * comes; a scrape copies the counts.  It needs tracefs rights (root, CAP_SYS_ADMIN, or a
 * tracefs mounted with the agent's group): without them the collector reports failure with
 * the reason, logged once, and the others work on.
 *
 * rdma_connections_total{device,side,outcome,cause,reason}: device the RDMA device ("" when
 * the id never got one), side active/passive, outcome established/failed, cause a cause id
 * (rdmatrace(1), CAUSE IDS), reason the CM REJ reason of a rejected one.  Every label is
 * bounded: no address, QP or process. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/cmstr.h>
#include <rdmadiag/packet.h>
#include <rdmadiag/trace.h>

#include "common/out.h"
#include "common/tool.h"
#include "agent.h"

#define RDMA_CM_EVENT_ESTABLISHED 9

/* connect duration buckets, seconds: a healthy connect is a few ms, rdma_cm's own retries
 * take seconds to minutes */
static const double bucket[] = { 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60,
				 120 };
#define NBUCKET (sizeof(bucket) / sizeof(bucket[0]))

struct row {
	char device[32];
	bool passive;
	const char *outcome, *cause;
	char reason[40];
	uint64_t n;
};

struct hist {
	const char *outcome;
	uint64_t le[NBUCKET], count;
	double sum;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct row *rows;
static size_t nrows;
static struct hist hists[2] = { { .outcome = "established" }, { .outcome = "failed" } };
static uint64_t lost;
static char fail_why[256];	/* why the tracer is not running; "" when it runs */
static bool started;
static atomic_bool stop;
static pthread_t thread;
static struct rdiag_trace *trace;
static struct rdiag_trace_conns *conns;

/* the time from the first event to ESTABLISHED, or to the failing event; false when the
 * connection has neither (destroyed before any answer: its end) */
static bool duration(const struct rdiag_trace_conn *c, double *s)
{
	size_t i;
	int want = c->outcome == RDIAG_TRACE_ESTABLISHED ? RDMA_CM_EVENT_ESTABLISHED :
		   c->fail_event;

	for (i = 0; i < c->nsteps && i < RDIAG_TRACE_MAX_STEPS; i++)
		if (want >= 0 && c->steps[i].cm_event == want) {
			*s = (double)(c->steps[i].ts_ns - c->start_ns) / 1e9;
			return c->steps[i].ts_ns >= c->start_ns;
		}
	if (c->end_ns <= c->start_ns)
		return false;
	*s = (double)(c->end_ns - c->start_ns) / 1e9;
	return true;
}

static void on_conn(const struct rdiag_trace_conn *c, void *arg)
{
	/* established, failed, or answered (a UD service's SIDR REP: accepted or rejected,
	 * which no tracepoint tells) */
	const char *outcome = rdiag_trace_outcome_name(c->outcome);
	const char *cause = c->cause ? c->cause : "unknown";
	char reason[40] = "";
	struct row *r;
	double s;
	size_t i;

	if (c->outcome == RDIAG_TRACE_OPEN)
		return;		/* still connecting when the agent stops: not an outcome */
	if (!strncmp(cause, "rejected", 8) && strcmp(cause, "rejected_here") && c->fail_status > 0) {
		const char *nm = rdiag_cm_rej_reason_name((unsigned int)c->fail_status);

		snprintf(reason, sizeof(reason), "%s", nm ? nm : "");
	}
	pthread_mutex_lock(&lock);
	for (i = 0; i < nrows; i++) {
		r = &rows[i];
		if (r->passive == c->passive && !strcmp(r->device, c->device) &&
		    !strcmp(r->outcome, outcome) && !strcmp(r->cause, cause) &&
		    !strcmp(r->reason, reason))
			break;
	}
	if (i == nrows) {
		r = realloc(rows, (nrows + 1) * sizeof(*rows));
		if (!r) {
			pthread_mutex_unlock(&lock);
			return;
		}
		rows = r;
		r = &rows[nrows++];
		memset(r, 0, sizeof(*r));
		snprintf(r->device, sizeof(r->device), "%s", c->device);
		r->passive = c->passive;
		r->outcome = outcome;
		r->cause = cause;	/* the library's table: static strings */
		snprintf(r->reason, sizeof(r->reason), "%s", reason);
	}
	rows[i].n++;
	if (c->outcome != RDIAG_TRACE_ANSWERED && duration(c, &s)) {
		struct hist *h = &hists[c->outcome == RDIAG_TRACE_ESTABLISHED ? 0 : 1];

		for (i = 0; i < NBUCKET; i++)
			if (s <= bucket[i])
				h->le[i]++;
		h->count++;
		h->sum += s;
	}
	pthread_mutex_unlock(&lock);
}

static int on_event(const struct rdiag_trace_event *ev, void *arg)
{
	return rdiag_trace_conns_add(conns, ev, on_conn, NULL);
}

static void *run(void *arg)
{
	uint64_t l = 0;

	while (!atomic_load(&stop)) {
		int w = rdiag_trace_wait(trace, 250);

		if (w < 0 && w != -EINTR)
			break;
		if (w > 0)
			rdiag_trace_read(trace, on_event, NULL, &l);
		pthread_mutex_lock(&lock);
		lost = l;
		pthread_mutex_unlock(&lock);
	}
	rdiag_trace_read(trace, on_event, NULL, &l);
	return NULL;
}

static const char *fail_text(int err, enum rdiag_trace_fail why)
{
	switch (why) {
	case RDIAG_TRACE_NO_TRACEFS: return "tracefs is not mounted";
	case RDIAG_TRACE_NO_PERMISSION:
		return "no permission to use tracefs (run as root, with CAP_SYS_ADMIN, or mount "
		       "tracefs with a group of the agent's user)";
	case RDIAG_TRACE_NO_EVENTS: return "no rdma_cma tracepoints (rdma_cm not loaded)";
	case RDIAG_TRACE_FORMAT: return "cannot parse the tracepoints' formats";
	default: return strerror(-err);
	}
}

int agent_conns_start(char *why_out, size_t len)
{
	struct rdiag_trace_conns_opts co = { .live = true };
	enum rdiag_trace_fail why = RDIAG_TRACE_OK;
	int r;

	r = rdiag_trace_open(&trace, NULL, &why);
	if (r < 0) {
		snprintf(fail_why, sizeof(fail_why), "%s", fail_text(r, why));
		snprintf(why_out, len, "%s", fail_why);
		trace = NULL;
		return r;
	}
	r = rdiag_trace_conns_open(&conns, &co);
	if (r < 0) {
		snprintf(fail_why, sizeof(fail_why), "%s", rdiag_trace_conns_errmsg(NULL));
		goto fail;
	}
	r = -pthread_create(&thread, NULL, run, NULL);
	if (r < 0) {
		snprintf(fail_why, sizeof(fail_why), "cannot start its thread: %s", strerror(-r));
		rdiag_trace_conns_close(conns);
		conns = NULL;
		goto fail;
	}
	started = true;
	return 0;
fail:
	rdiag_trace_remove_instance(trace);
	rdiag_trace_close(trace);
	trace = NULL;
	snprintf(why_out, len, "%s", fail_why);
	return r;
}

void agent_conns_stop(void)
{
	if (!started)
		return;
	atomic_store(&stop, true);
	pthread_join(thread, NULL);
	rdiag_trace_conns_close(conns);
	rdiag_trace_remove_instance(trace);
	rdiag_trace_close(trace);
	started = false;
	free(rows);
	rows = NULL;
	nrows = 0;
}

int agent_conns_write(FILE *f, char *why, size_t len)
{
	size_t i, b;

	if (!started) {
		snprintf(why, len, "%s", fail_why[0] ? fail_why : "not started");
		return -EACCES;
	}
	pthread_mutex_lock(&lock);
	if (nrows)
		fputs("# HELP rdma_connections_total rdma_cm connections of this host that ended "
		      "their setup, by outcome and cause id (rdmatrace -c; rdmatrace(1), CAUSE "
		      "IDS)\n# TYPE rdma_connections_total counter\n", f);
	for (i = 0; i < nrows; i++) {
		fputs("rdma_connections_total{device=\"", f);
		prom_label_escape(f, rows[i].device);
		fprintf(f, "\",side=\"%s\",outcome=\"%s\",cause=\"%s\",reason=\"",
			rows[i].passive ? "passive" : "active", rows[i].outcome, rows[i].cause);
		prom_label_escape(f, rows[i].reason);
		fprintf(f, "\"} %llu\n", (unsigned long long)rows[i].n);
	}
	fputs("# HELP rdma_connect_duration_seconds From a connection's first rdma_cm event to "
	      "ESTABLISHED, or to the event that failed it\n"
	      "# TYPE rdma_connect_duration_seconds histogram\n", f);
	for (i = 0; i < 2; i++) {
		for (b = 0; b < NBUCKET; b++)
			fprintf(f, "rdma_connect_duration_seconds_bucket{outcome=\"%s\",le=\"%g\"} "
				"%llu\n", hists[i].outcome, bucket[b],
				(unsigned long long)hists[i].le[b]);
		fprintf(f, "rdma_connect_duration_seconds_bucket{outcome=\"%s\",le=\"+Inf\"} %llu\n"
			"rdma_connect_duration_seconds_sum{outcome=\"%s\"} %.9f\n"
			"rdma_connect_duration_seconds_count{outcome=\"%s\"} %llu\n",
			hists[i].outcome, (unsigned long long)hists[i].count, hists[i].outcome,
			hists[i].sum, hists[i].outcome, (unsigned long long)hists[i].count);
	}
	fprintf(f, "# HELP rdma_connections_trace_lost_total Trace sub-buffers the kernel "
		"overwrote before the agent read them: connections may be missing\n"
		"# TYPE rdma_connections_trace_lost_total counter\n"
		"rdma_connections_trace_lost_total %llu\n", (unsigned long long)lost);
	pthread_mutex_unlock(&lock);
	return 0;
}
