/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The collectors: what each one reads and how it writes its families.  Everything is read
 * afresh (a counters handle per collector group and scrape), so that a device added or
 * deleted since the last scrape is there or gone without a restart.  What collectors of one
 * group share (the samples of counters and concepts) is read once, in struct scrape. */
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/fabric.h>
#include <rdmadiag/resources.h>

#include "common/out.h"
#include "common/prom.h"
#include "agent.h"

static const char *const col_names[COL_N] = {
	[COL_PORT] = "port", [COL_COUNTERS] = "counters", [COL_CONCEPTS] = "concepts",
	[COL_ETH] = "eth", [COL_FABRIC] = "fabric", [COL_RESOURCES] = "resources",
	[COL_CONNECTIONS] = "connections",
};

const char *agent_collector_name(enum agent_collector c)
{
	return c < COL_N ? col_names[c] : "?";
}

int agent_collector_find(const char *name)
{
	int i;

	for (i = 0; i < COL_N; i++)
		if (!strcmp(name, col_names[i]))
			return i;
	return -1;
}

/* what the collectors of one group share in one scrape: read once, used by several */
struct scrape {
	struct prom_out o;
	struct rdiag_counters *c;
	const struct rdiag_devices *ds;
	bool ds_owned;			/* this state frees ds (else the scrape's job does) */
	agent_devices_fn dev_fn;	/* the scrape's one discovery, shared (or NULL) */
	void *dev_arg;
	struct rdiag_samples *set;
	int c_err, ds_err, set_err;
	bool c_warm;			/* c came from the pool warm (it keeps descriptors) */
	char why[256];			/* the failing collector's reason */
};

/* counters handles kept between scrapes: a warm handle (one that has sampled) reads each
 * counter with one pread() on a descriptor it keeps (lib/counters/fdcache.c: a device
 * re-created or gone is seen by the directory listing), where a new one opens, reads and
 * closes every file.  Several collector groups of a scrape take a handle at once, and only
 * the sampling one needs its descriptors: the sampler asks for a warm handle and the others
 * for a cold one, so that the descriptors are not handed to a group that only discovers
 * (which made every scrape's sampling cold).  At most POOL_WARM warm handles are kept (two
 * scrapes at once), POOL_MAX in all; a cold one is dropped first. */
#define POOL_MAX 6
#define POOL_WARM 2
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pooled {
	struct rdiag_counters *c;
	bool warm;
} pool[POOL_MAX];
static size_t npool;

/* take a handle from the pool, warm or cold as asked, else the other kind, else NULL;
 * *got says which it was */
static struct rdiag_counters *pool_take(bool warm, bool *got)
{
	struct rdiag_counters *c = NULL;
	size_t i, pick = npool;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < npool && pick == npool; i++)
		if (pool[i].warm == warm)
			pick = i;
	if (pick == npool && npool)
		pick = npool - 1;
	if (pick < npool) {
		c = pool[pick].c;
		*got = pool[pick].warm;
		pool[pick] = pool[--npool];
	}
	pthread_mutex_unlock(&pool_lock);
	return c;
}

static int need_counters(struct scrape *s, bool sampler)
{
	/* one GID a port is enough for its netdev; the agent exports no GID */
	struct rdiag_counters_opts co = { .max_gids = 1 };

	if (s->c || s->c_err)
		return s->c_err;
	if ((s->c = pool_take(sampler, &s->c_warm)))
		return 0;
	s->c_err = rdiag_counters_open(&s->c, &co);
	if (s->c_err < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_counters_errmsg(NULL));
		s->c = NULL;
	}
	return s->c_err;
}

static void put_counters(struct rdiag_counters *c, bool warm)
{
	size_t i, nwarm = 0, drop = POOL_MAX;

	if (!c)
		return;
	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < npool; i++)
		nwarm += pool[i].warm;
	if (warm && nwarm >= POOL_WARM) {
		rdiag_counters_close(c);	/* beyond the warm ones kept: its descriptors too */
		c = NULL;
	} else if (npool == POOL_MAX) {
		/* full: a cold one makes room for a warm one, else this one goes */
		for (i = 0; i < npool && warm; i++)
			if (!pool[i].warm)
				drop = i;
		if (drop < POOL_MAX) {
			rdiag_counters_close(pool[drop].c);
			pool[drop] = pool[--npool];
		}
	}
	if (c && npool < POOL_MAX) {
		pool[npool].c = c;
		pool[npool++].warm = warm;
		c = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
	rdiag_counters_close(c);
}

void agent_counters_pool_drain(void)
{
	pthread_mutex_lock(&pool_lock);
	while (npool)
		rdiag_counters_close(pool[--npool].c);
	pthread_mutex_unlock(&pool_lock);
}

static int need_devices(struct scrape *s)
{
	struct rdiag_devices *ds = NULL;

	if (s->ds || s->ds_err)
		return s->ds_err;
	if (s->dev_fn) {
		s->ds_err = s->dev_fn(s->dev_arg, &s->ds, s->why, sizeof(s->why));
		return s->ds_err;
	}
	if ((s->ds_err = need_counters(s, false)) < 0)
		return s->ds_err;
	s->ds_err = rdiag_counters_discover(s->c, &ds);
	if (s->ds_err < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_counters_errmsg(s->c));
		ds = NULL;
	}
	s->ds = ds;
	s->ds_owned = true;
	return s->ds_err;
}

void agent_scrape_state_share(struct scrape *s, agent_devices_fn fn, void *arg)
{
	s->dev_fn = fn;
	s->dev_arg = arg;
}

int agent_discover(struct scrape *s, struct rdiag_devices **ds, char *why, size_t len)
{
	int r = need_devices(s);

	*ds = NULL;
	snprintf(why, len, "%s", r < 0 ? s->why : "");
	if (r < 0)
		return r;
	*ds = (struct rdiag_devices *)s->ds;
	s->ds_owned = false;	/* the caller frees it */
	return 0;
}

static int need_samples(struct scrape *s)
{
	struct rdiag_filter f = { 0 };

	if (s->set || s->set_err)
		return s->set_err;
	if ((s->set_err = need_counters(s, true)) < 0)
		return s->set_err;
	s->set_err = rdiag_counters_sample(s->c, &f, &s->set);
	if (s->set_err < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_counters_errmsg(s->c));
		s->set = NULL;
	}
	return s->set_err;
}

static int col_port(struct scrape *s)
{
	int r = need_devices(s);

	if (r < 0)
		return r;
	prom_port_info(&s->o, s->ds);
	prom_port_gauges(&s->o, s->ds);
	return 0;
}

static int col_counters(struct scrape *s)
{
	int r = need_samples(s);

	if (r < 0)
		return r;
	prom_counters(&s->o, s->set);
	prom_unreadable(&s->o, s->set);
	return 0;
}

static int col_concepts(struct scrape *s)
{
	int r = need_samples(s);

	if (r < 0)
		return r;
	prom_concepts(&s->o, s->set);
	return 0;
}

static int col_eth(struct scrape *s)
{
	struct rdiag_fabric *fb;
	int r = need_devices(s);

	if (r < 0)
		return r;
	r = rdiag_fabric_open(&fb, NULL);
	if (r < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_fabric_errmsg(NULL));
		return r;
	}
	s->o.eth_err[0] = '\0';
	prom_eth(&s->o, fb, s->ds);
	rdiag_fabric_close(fb);
	if (s->o.eth_err[0]) {
		snprintf(s->why, sizeof(s->why), "%s", s->o.eth_err);
		return -EIO;
	}
	return 0;
}

/* the lossless chain of every Ethernet port (rdmastat fabric's links, settings only: no
 * counters between two samples, so traffic and pause are "unknown" here) */
struct port_chain {
	const struct rdiag_device *dv;
	const struct rdiag_port *pt;
	struct rdiag_chain ch;
};

static void chain_family(struct scrape *s, const struct port_chain *pc, size_t n, int which)
{
	static const char *const head[] = {
		"# HELP rdma_fabric_link_state A link of the RoCE lossless chain on this port "
		"(0 ok, 1 broken, 2 unknown, 3 not available here): rdmastat fabric tells why\n"
		"# TYPE rdma_fabric_link_state gauge\n",
		"# HELP rdma_fabric_chain_ok 1 when no link of the port's RoCE lossless chain is "
		"broken and it could be checked\n# TYPE rdma_fabric_chain_ok gauge\n",
		"# HELP rdma_fabric_roce_priority The 802.1Q priority the port's RoCE traffic "
		"rides (from its ToS and the DSCP map)\n# TYPE rdma_fabric_roce_priority gauge\n",
	};
	static const char *const name[] = { "rdma_fabric_link_state", "rdma_fabric_chain_ok",
					     "rdma_fabric_roce_priority" };
	FILE *f = s->o.f;
	bool said = false;
	size_t i, l;

	for (i = 0; i < n; i++) {
		const struct rdiag_chain *ch = &pc[i].ch;

		for (l = 0; l < (which ? 1 : RDIAG_CHAIN_LINKS); l++) {
			if ((!which && !ch->link[l].name) || (which == 2 && ch->prio < 0))
				continue;
			if (!said)
				fputs(head[which], f);
			said = true;
			fprintf(f, "%s{", name[which]);
			prom_labels(f, pc[i].dv->name, pc[i].pt->port, pc[i].pt->netdev);
			if (!which)
				fprintf(f, ",link=\"%s\"} %d", ch->link[l].name,
					(int)ch->link[l].state);
			else if (which == 1)
				fprintf(f, "} %d", ch->verdict && !strcmp(ch->verdict, "ok"));
			else
				fprintf(f, "} %d", ch->prio);
			prom_end(&s->o);
		}
	}
}

static int col_fabric(struct scrape *s)
{
	struct port_chain *pc = NULL, *n2;
	size_t n = 0, d, p;
	int r = need_devices(s), which;

	if (r < 0)
		return r;
	for (d = 0; d < s->ds->n; d++) {
		const struct rdiag_device *dv = &s->ds->dev[d];

		for (p = 0; p < dv->n_ports; p++) {
			const struct rdiag_port *pt = &dv->ports[p];

			if (!pt->netdev[0] || strcmp(pt->link_layer, "Ethernet"))
				continue;
			n2 = realloc(pc, (n + 1) * sizeof(*pc));
			if (!n2) {
				free(pc);
				return -ENOMEM;
			}
			pc = n2;
			pc[n].dv = dv;
			pc[n].pt = pt;
			if (rdiag_fabric_port_chain(pt->netdev, dv->name, pt->port, &pc[n].ch) == 0)
				n++;
		}
	}
	for (which = 0; which < 3; which++)
		chain_family(s, pc, n, which);
	free(pc);
	return 0;
}

/* QPs by device, type and state; cm_ids by state (rdma resource show) */
struct count_row {
	char dev[64];
	const char *a, *b;
	unsigned long n;
};

static void count_add(struct count_row **rows, size_t *n, const char *dev, const char *a,
		      const char *b)
{
	struct count_row *r;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*rows)[i].dev, dev) && (*rows)[i].a == a && (*rows)[i].b == b) {
			(*rows)[i].n++;
			return;
		}
	r = realloc(*rows, (*n + 1) * sizeof(**rows));
	if (!r)
		return;
	*rows = r;
	snprintf(r[*n].dev, sizeof(r[*n].dev), "%s", dev);
	r[*n].a = a;
	r[*n].b = b;
	r[*n].n = 1;
	(*n)++;
}

/* max_qp of each device, queried once per device (opening a device costs more than a
 * scrape should): kept by name and node GUID, so that a device re-created under its name is
 * queried again */
struct limits_entry {
	char dev[64], guid[24];
	int err;
	struct rdiag_device_limits lim;
};
static pthread_mutex_t lim_lock = PTHREAD_MUTEX_INITIALIZER;
static struct limits_entry lim_cache[64];
static size_t n_lim;

static int device_limits(const struct rdiag_device *dv, struct rdiag_device_limits *out)
{
	struct limits_entry *e = NULL;
	size_t i;
	int r;

	pthread_mutex_lock(&lim_lock);
	for (i = 0; i < n_lim; i++)
		if (!strcmp(lim_cache[i].dev, dv->name)) {
			e = &lim_cache[i];
			break;
		}
	if (!e || strcmp(e->guid, dv->node_guid)) {
		if (!e)
			e = &lim_cache[n_lim < 64 ? n_lim++ : 63];
		snprintf(e->dev, sizeof(e->dev), "%s", dv->name);
		snprintf(e->guid, sizeof(e->guid), "%s", dv->node_guid);
		e->err = rdiag_device_limits(dv->name, &e->lim);
	}
	*out = e->lim;
	r = e->err;
	pthread_mutex_unlock(&lim_lock);
	return r;
}

/* rdma_device_max_qp of every device that can be queried (a fixture tree has no verbs
 * device: no sample, not a failure) */
static void max_qp(struct scrape *s)
{
	bool head = false;
	size_t d;

	if (need_devices(s) < 0)
		return;
	for (d = 0; d < s->ds->n; d++) {
		struct rdiag_device_limits lim;

		if (device_limits(&s->ds->dev[d], &lim) < 0 || !lim.max_qp)
			continue;
		if (!head) {
			fputs("# HELP rdma_device_max_qp The most queue pairs the device can hold "
			      "(ibv_query_device max_qp)\n# TYPE rdma_device_max_qp gauge\n", s->o.f);
			head = true;
		}
		fputs("rdma_device_max_qp{device=\"", s->o.f);
		prom_label_escape(s->o.f, s->ds->dev[d].name);
		fprintf(s->o.f, "\"} %u\n", lim.max_qp);
	}
}

static int col_resources(struct scrape *s)
{
	struct rdiag_qp *qps = NULL;
	struct rdiag_cm_id *ids = NULL;
	struct count_row *rows = NULL;
	size_t nq = 0, ni = 0, nr = 0, i;
	FILE *f = s->o.f;
	int r = need_counters(s, false);

	if (r < 0)
		return r;
	max_qp(s);
	r = rdiag_counters_qps(s->c, NULL, &qps, &nq);
	if (r < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_counters_errmsg(s->c));
		return r;
	}
	for (i = 0; i < nq; i++) {
		const char *t = rdiag_qp_type_name(qps[i].type);
		const char *st = rdiag_qp_state_name(qps[i].state);

		count_add(&rows, &nr, qps[i].dev, t ? t : "OTHER", st ? st : "OTHER");
	}
	free(qps);
	if (nr)
		fputs("# HELP rdma_qps Queue pairs of the device by type and state (rdma resource "
		      "show qp)\n# TYPE rdma_qps gauge\n", f);
	for (i = 0; i < nr; i++) {
		fputs("rdma_qps{device=\"", f);
		prom_label_escape(f, rows[i].dev);
		fprintf(f, "\",type=\"%s\",state=\"%s\"} %lu\n", rows[i].a, rows[i].b, rows[i].n);
	}
	free(rows);
	rows = NULL;
	nr = 0;
	r = rdiag_counters_cm_ids(s->c, NULL, &ids, &ni);
	if (r < 0) {
		snprintf(s->why, sizeof(s->why), "%s", rdiag_counters_errmsg(s->c));
		return r;
	}
	for (i = 0; i < ni; i++) {
		const char *st = rdiag_res_cm_state_name(ids[i].state);

		count_add(&rows, &nr, ids[i].dev, st ? st : "OTHER", NULL);
	}
	free(ids);
	if (nr)
		fputs("# HELP rdma_cm_ids rdma_cm identifiers by device and state (rdma resource "
		      "show cm_id; device \"\" is one not bound yet)\n# TYPE rdma_cm_ids gauge\n", f);
	for (i = 0; i < nr; i++) {
		fputs("rdma_cm_ids{device=\"", f);
		prom_label_escape(f, rows[i].dev);
		fprintf(f, "\",state=\"%s\"} %lu\n", rows[i].a, rows[i].n);
	}
	free(rows);
	return 0;
}

static int col_connections(struct scrape *s)
{
	return agent_conns_write(s->o.f, s->why, sizeof(s->why));
}


static int (*const col_fn[COL_N])(struct scrape *) = {
	[COL_PORT] = col_port, [COL_COUNTERS] = col_counters, [COL_CONCEPTS] = col_concepts,
	[COL_ETH] = col_eth, [COL_FABRIC] = col_fabric, [COL_RESOURCES] = col_resources,
	[COL_CONNECTIONS] = col_connections,
};

struct scrape *agent_scrape_state_new(void)
{
	struct scrape *s = calloc(1, sizeof(*s));

	if (s)
		s->o.ts_ms = -1;
	return s;
}

void agent_scrape_state_free(struct scrape *s)
{
	if (!s)
		return;
	rdiag_samples_free(s->set);
	if (s->ds_owned)
		rdiag_counters_devices_free((struct rdiag_devices *)s->ds);
	/* warm once it has sampled, and a warm handle stays warm whoever used it */
	put_counters(s->c, s->c_warm || s->set != NULL || s->set_err != 0);
	free(s);
}

int agent_collect(enum agent_collector c, struct scrape *s, FILE *f, char *why, size_t len)
{
	int r;

	s->o.f = f;
	s->why[0] = '\0';
	r = col_fn[c](s);
	snprintf(why, len, "%s", r < 0 ? s->why : "");
	return r;
}
