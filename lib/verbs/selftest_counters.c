/* Counter deltas for the self-tests, by concept.
 *
 * TEMPORARY private reader, to be replaced by the counters API (rdmadiag/counters.h:
 * rdiag_counters_sample() + catalogue concepts) once lib/counters/ is implemented.  It reads
 * ports/N/hw_counters/ from sysfs, which the kernel caches for hw_counters/lifespan ms, hence
 * rd_ctr_settle().  The concept names follow the catalogue (rdmadiag/catalog.h); the table
 * below holds only the concepts the self-tests assert (rdma-reference.md section 3.11). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selftest_int.h"

static const struct {
	const char *concept;
	const char *names[8];	/* raw names across drivers and kernel versions */
} concepts[] = {
	{ "rnr_nak_received", { "rcvd_rnr_err", "rnr_nak_retry_err", "rnr_naks_rcvd",
				"RNR received", "requester_rnr_nak" } },
	{ "rnr_nak_sent", { "send_rnr_err", "out_of_buffer", "RNR sent", "responder_rnr_nak" } },
	{ "rnr_retries_exceeded", { "retry_rnr_exceeded_err", "req_rnr_retries_exceeded" } },
	{ "transport_retries_exceeded", { "retry_exceeded_err", "req_transport_retries_exceeded",
					  "max_retry_exceeded" } },
	{ "remote_access_error", { "req_remote_access_errors", "remote_access_err" } },
	{ "remote_access_error_responder", { "resp_remote_access_errors" } },
	{ "tx_packets", { "sent_pkts", "tx_pkts", "rdma_tx_packets" } },
	{ "rx_packets", { "rcvd_pkts", "rx_pkts", "rdma_rx_packets" } },
};

struct rd_ctr_snap {
	char dev[64];
	uint32_t port;
	size_t n;
	struct {
		char name[64];
		uint64_t v;
	} c[128];
};

static int read_u64(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%" SCNu64, v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

struct rd_ctr_snap *rd_ctr_snap(struct rdiag_selftest *st, const struct rd_port *p)
{
	struct rd_ctr_snap *s = calloc(1, sizeof(*s));
	char dir[256], path[600];
	struct dirent *e;
	DIR *d;

	(void)st;
	if (!s)
		return NULL;
	snprintf(s->dev, sizeof(s->dev), "%s", p->dev);
	s->port = (uint32_t)p->port;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%d/hw_counters", p->dev,
		 p->port);
	d = opendir(dir);
	if (!d)
		return s;	/* no hw_counters: every concept is "not available" */
	while ((e = readdir(d)) && s->n < sizeof(s->c) / sizeof(s->c[0])) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lifespan"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (read_u64(path, &s->c[s->n].v))
			continue;
		snprintf(s->c[s->n].name, sizeof(s->c[0].name), "%.63s", e->d_name);
		s->n++;
	}
	closedir(d);
	return s;
}

void rd_ctr_snap_free(struct rd_ctr_snap *s)
{
	free(s);
}

static int find(const struct rd_ctr_snap *s, const char *name)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return (int)i;
	return -1;
}

struct rdiag_st_counter *rd_ctr_delta(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
				      const struct rd_ctr_snap *b, const char *concept)
{
	struct rdiag_st_counter *c;
	size_t i, k;
	int ia, ib;

	if (!a || !b || r->ncounters >= RDIAG_ST_MAX_COUNTERS)
		return NULL;
	for (i = 0; i < sizeof(concepts) / sizeof(concepts[0]); i++) {
		if (strcmp(concepts[i].concept, concept))
			continue;
		for (k = 0; k < 8 && concepts[i].names[k]; k++) {
			ia = find(a, concepts[i].names[k]);
			ib = find(b, concepts[i].names[k]);
			if (ia < 0 || ib < 0)
				continue;
			c = &r->counters[r->ncounters++];
			memset(c, 0, sizeof(*c));
			snprintf(c->dev, sizeof(c->dev), "%.31s", a->dev);
			c->port = a->port;
			snprintf(c->name, sizeof(c->name), "%s", concepts[i].names[k]);
			snprintf(c->concept, sizeof(c->concept), "%s", concept);
			c->before = a->c[ia].v;
			c->after = b->c[ib].v;
			c->delta = (int64_t)(c->after - c->before);
			return c;
		}
	}
	return NULL;
}

void rd_ctr_settle(struct rdiag_selftest *st, const struct rd_port *p)
{
	char path[256];
	uint64_t ms = 0;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/hw_counters/lifespan",
		 p->dev, p->port);
	if (read_u64(path, &ms) || ms > 10000)
		ms = 10;
	rd_st_sleep_ms(st, (double)ms + 10.0);
}
