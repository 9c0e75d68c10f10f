/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop collector; see collect.h.  Library calls only, no curses. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/packet.h>
#include <rdmadiag/resources.h>

#include "common/clock.h"
#include "collect.h"

/* the library's names are NULL for a value without a name; rdmatop shows "UNKNOWN" */
static const char *name_or_unknown(const char *name)
{
	return name ? name : "UNKNOWN";
}

/* re-run discovery at least this often for port state, link rate and netdev changes;
 * devices that come and go are noticed at once (directory listing, failed reads) */
#define REDISCOVER_NS 5000000000ull

struct rt_collector {
	struct rdiag_counters *h;
	struct rdiag_fabric *fab;	/* the netdevs' ethtool -S (eth.c), opened on first use */
	struct rdiag_fabric *fab_ctr;	/* the counters handle's Ethernet reader (set_eth) */
	struct rt_collect_opts o;
	struct rdiag_devices *devs;
	uint64_t discovered_ns;
	struct rdiag_watch *watch;	/* the devices of the last discovery, to notice hot-plug */
	bool must_discover;

	pthread_t thr;
	bool running;
	bool detached;			/* left behind in a hung read: it still owns h */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, paused, kick;
	double interval;
	struct rt_snap ready;		/* finished, not yet taken */
	bool have_ready;
	bool busy;
	uint64_t busy_since;
	char busy_dev[64];
};

int rt_collector_new(struct rt_collector **out, const struct rt_collect_opts *o)
{
	struct rdiag_counters_opts co = { .source = o->source, .nl_record = o->nl_record };
	struct rt_collector *c = calloc(1, sizeof(*c));
	pthread_condattr_t ca;
	int r;

	if (!c)
		return -ENOMEM;
	c->o = *o;
	c->interval = o->interval;
	c->must_discover = true;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	r = rdiag_counters_open(&c->h, &co);
	if (r == 0)
		r = rdiag_watch_open(&c->watch, &(struct rdiag_watch_opts){ .counters = c->h });
	*out = c;	/* on failure, kept for the error message */
	return r;
}

void rt_collector_free(struct rt_collector *c)
{
	if (!c)
		return;
	rt_collector_stop(c);
	if (c->detached)
		return;		/* the thread may still be inside the library: leave it all be */
	if (c->have_ready)
		rt_snap_free(&c->ready);
	rdiag_counters_devices_free(c->devs);
	rdiag_watch_close(c->watch);
	rdiag_counters_close(c->h);
	rdiag_fabric_close(c->fab);
	rdiag_fabric_close(c->fab_ctr);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}

int rt_collector_set_eth(struct rt_collector *c, const char *const *keys, size_t n)
{
	struct rdiag_eth_reader r;
	int ret;

	/* a handle of its own: a replay's samples come in order to each reader */
	if (!c->fab_ctr) {
		ret = rdiag_fabric_open(&c->fab_ctr, NULL);
		if (ret < 0)
			return ret;
	}
	rdiag_fabric_eth_reader(c->fab_ctr, &r);
	return rdiag_counters_set_eth(c->h, &r, keys, n);
}

const char *rt_collector_errmsg(const struct rt_collector *c)
{
	return c && c->h ? rdiag_counters_errmsg(c->h) : "";
}

static void set_busy_dev(struct rt_collector *c, const char *dev)
{
	pthread_mutex_lock(&c->lock);
	snprintf(c->busy_dev, sizeof(c->busy_dev), "%s", dev);
	pthread_mutex_unlock(&c->lock);
}

static int discover(struct rt_collector *c, uint64_t now)
{
	struct rdiag_devices *d = NULL;
	int r;

	/* a device come or gone under the sysfs root: one directory read (the library's
	 * change detector, reset at every discovery) */
	if (!c->must_discover && c->devs && now - c->discovered_ns < REDISCOVER_NS &&
	    !rdiag_watch_check(c->watch, RDIAG_WATCH_DEVICES))
		return 0;
	r = rdiag_counters_discover(c->h, &d);
	if (r < 0)
		return r;
	rdiag_counters_devices_free(c->devs);
	c->devs = d;
	c->discovered_ns = now;
	(void)rdiag_watch_reset(c->watch, d);	/* -ENOMEM: a change next time, discovery again */
	c->must_discover = false;
	return 0;
}

struct owner {
	size_t n;
	struct rdiag_samples *s[];
};

static void owner_free(void *p)
{
	struct owner *o = p;
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->n; i++)
		rdiag_samples_free(o->s[i]);
	free(o);
}

static double parse_gbps(const char *rate)
{
	char *end;
	double v = strtod(rate, &end);

	if (end == rate || v <= 0)
		return 0;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "Mb", 2))
		return v / 1000;
	return v;
}

static int add_port(struct rt_snap *s, size_t *cap, const struct rdiag_device *d,
		    const struct rdiag_port *dp, unsigned port, int err, uint64_t t, uint64_t took,
		    bool slow)
{
	struct rt_snap_port *p;

	if (s->nports == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct rt_snap_port *n = realloc(s->ports, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->ports = n;
		*cap = nc;
	}
	p = &s->ports[s->nports++];
	memset(p, 0, sizeof(*p));
	snprintf(p->dev, sizeof(p->dev), "%s", d->name);
	p->port = port;
	p->err = err;
	p->t_ns = t;
	p->took_ns = took;
	p->slow = slow;
	if (dp) {
		snprintf(p->state, sizeof(p->state), "%s",
			 name_or_unknown(rdiag_port_state_name(dp->state)));
		snprintf(p->phys, sizeof(p->phys), "%s",
			 name_or_unknown(rdiag_port_phys_state_name(dp->phys_state)));
		snprintf(p->netdev, sizeof(p->netdev), "%s", dp->netdev);
		snprintf(p->link, sizeof(p->link), "%s", dp->rate);
		p->link_gbps = parse_gbps(dp->rate);
	} else {
		snprintf(p->state, sizeof(p->state), "%s", "DEVICE");
	}
	return 0;
}

/* distribute one device's samples over its ports (port 0: device-level counters), for the
 * device-by-device fallback.  Returns how many samples were this device's. */
static long fill_device(struct rt_snap *s, size_t *cap, const struct rdiag_device *d,
			const struct rdiag_samples *smp, uint64_t t, uint64_t iv_ns)
{
	size_t n = rdiag_samples_count(smp), i, j, first = s->nports, mine = 0;
	uint64_t lo = UINT64_MAX, hi = 0, took;
	bool have_dev = false;
	int r;

	for (i = 0; i < n; i++) {
		const struct rdiag_sample *x = rdiag_samples_get(smp, i);

		if (!!strcmp(x->dev, d->name))
			continue;
		mine++;
		if (x->port == 0)
			have_dev = true;
		if (x->ts_ns && x->ts_ns < lo)
			lo = x->ts_ns;
		if (x->ts_ns > hi)
			hi = x->ts_ns;
	}
	/* how long reading this device took, from the samples' own read times */
	took = hi > lo ? hi - lo : 0;
	if (have_dev && (r = add_port(s, cap, d, NULL, 0, 0, t, took, took > iv_ns)) < 0)
		return r;
	for (i = 0; i < d->n_ports; i++)
		if ((r = add_port(s, cap, d, &d->ports[i], d->ports[i].port, 0, t, took,
				  took > iv_ns)) < 0)
			return r;
	for (j = first; j < s->nports; j++) {
		struct rt_snap_port *p = &s->ports[j];
		size_t k = 0;

		for (i = 0; i < n; i++) {
			const struct rdiag_sample *x = rdiag_samples_get(smp, i);

			if (x->port == p->port && !strcmp(x->dev, d->name))
				k++;
		}
		if (!k)
			continue;
		p->ctr = calloc(k, sizeof(*p->ctr));
		if (!p->ctr)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			const struct rdiag_sample *x = rdiag_samples_get(smp, i);
			struct rt_snap_ctr *sc;

			if (x->port != p->port || x->err || !!strcmp(x->dev, d->name))
				continue;	/* unreadable / non-numeric: not a value */
			sc = &p->ctr[p->nctr++];
			sc->name = x->name;
			sc->value = x->value;
			rt_meta_from_sample(&sc->meta, x);
			if (x->ts_ns)
				p->t_ns = x->ts_ns;
		}
	}
	return (long)mine;
}

static void copy_qps(struct rt_collector *c, struct rt_snap *s)
{
	struct rdiag_qp *q = NULL;
	struct rdiag_qp_counter *qc = NULL;
	size_t n = 0, nqc = 0, i, j, k, l;
	int r;

	r = rdiag_counters_qps(c->h, NULL, &q, &n);
	s->qp_err = r < 0 ? r : 0;
	if (r < 0 || !n) {
		free(q);
		return;
	}
	s->qps = calloc(n, sizeof(*s->qps));
	if (!s->qps) {
		free(q);
		s->qp_err = -ENOMEM;
		return;
	}
	if (rdiag_counters_qp_counters(c->h, NULL, &qc, &nqc) < 0)
		nqc = 0;
	for (i = 0; i < n; i++) {
		struct rt_qp *o = &s->qps[i];

		snprintf(o->dev, sizeof(o->dev), "%s", q[i].dev);
		o->port = q[i].port;
		o->lqpn = q[i].lqpn;
		o->rqpn = q[i].rqpn;
		o->has_rqpn = q[i].has_rqpn;
		snprintf(o->type, sizeof(o->type), "%s", name_or_unknown(rdiag_qp_type_name(q[i].type)));
		snprintf(o->state, sizeof(o->state), "%s",
			 name_or_unknown(rdiag_qp_state_name(q[i].state)));
		o->qp_state = q[i].state;
		o->sq_psn = q[i].sq_psn;
		o->rq_psn = q[i].rq_psn;
		o->has_psn = q[i].has_rq_psn;
		o->pid = q[i].pid ? (int64_t)q[i].pid : -1;
		snprintf(o->comm, sizeof(o->comm), "%s", q[i].comm);
		for (j = 0; j < nqc; j++) {
			if (strcmp(qc[j].dev, q[i].dev))
				continue;
			for (k = 0; k < qc[j].n_qpns; k++)
				if (qc[j].qpns[k] == q[i].lqpn)
					break;
			if (k == qc[j].n_qpns)
				continue;
			o->has_counter = true;
			for (l = 0; l < qc[j].n; l++) {
				const struct rdiag_catalog_entry *e =
					rdiag_catalog_lookup(qc[j].names[l], NULL, RDIAG_ORIG_NETLINK);

				if (!e)
					continue;
				if (e->unit == RDIAG_UNIT_PACKETS && e->concept &&
				    (!strcmp(e->concept, "tx_packets") ||
				     !strcmp(e->concept, "rx_packets")))
					o->ctr_packets += qc[j].values[l];
				else if (e->severity >= RDIAG_SEV_WARNING)
					o->ctr_errors += qc[j].values[l];
			}
		}
	}
	s->nqps = n;
	rdiag_counters_qp_counters_free(qc, nqc);
	free(q);
}

static void copy_cms(struct rt_collector *c, struct rt_snap *s)
{
	struct rdiag_cm_id *m = NULL;
	size_t n = 0, i;
	int r;

	r = rdiag_counters_cm_ids(c->h, NULL, &m, &n);
	s->cm_err = r < 0 ? r : 0;
	if (r < 0 || !n) {
		free(m);
		return;
	}
	s->cms = calloc(n, sizeof(*s->cms));
	if (!s->cms) {
		free(m);
		s->cm_err = -ENOMEM;
		return;
	}
	for (i = 0; i < n; i++) {
		struct rt_cmid *o = &s->cms[i];

		snprintf(o->dev, sizeof(o->dev), "%s", m[i].dev);
		o->port = m[i].port;
		snprintf(o->state, sizeof(o->state), "%s",
			 name_or_unknown(rdiag_res_cm_state_name(m[i].state)));
		snprintf(o->ps, sizeof(o->ps), "%s", name_or_unknown(rdiag_port_space_name(m[i].ps_full)));
		if (m[i].has_src)
			rdiag_sockaddr_str(&m[i].src, o->src, sizeof(o->src));
		if (m[i].has_dst)
			rdiag_sockaddr_str(&m[i].dst, o->dst, sizeof(o->dst));
		o->pid = m[i].pid ? (int64_t)m[i].pid : -1;
		snprintf(o->comm, sizeof(o->comm), "%s", m[i].comm);
		o->lqpn = m[i].lqpn;
	}
	s->ncms = n;
	free(m);
}

static double get_interval(struct rt_collector *c)
{
	double iv;

	pthread_mutex_lock(&c->lock);
	iv = c->interval;
	pthread_mutex_unlock(&c->lock);
	return iv;
}

static bool dev_present(struct rt_collector *c, const char *dev)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s", rdiag_counters_sysfs_root(c->h),
		 dev);
	return access(path, F_OK) == 0;
}

/* the all-devices set into ports in three linear passes (device of each sample, counts per
 * port, fill) instead of one scan of the whole set per port: a 16 x 64 snapshot costs
 * microseconds here, not a quarter of the refresh */
static int fill_all(struct rt_collector *c, struct rt_snap *s, size_t *cap,
		    const struct rdiag_samples *smp, uint64_t t, uint64_t iv_ns)
{
	size_t ns = rdiag_samples_count(smp), nd = c->devs->n, i, j;
	const struct rdiag_sample **xs = malloc((ns ? ns : 1) * sizeof(*xs));
	size_t *slot = malloc((ns ? ns : 1) * sizeof(*slot));
	size_t *first = calloc(nd + 1, sizeof(*first)), *count = calloc(nd + 1, sizeof(*count));
	uint64_t *lo = calloc(nd + 1, sizeof(*lo)), *hi = calloc(nd + 1, sizeof(*hi));
	bool *has_dev = calloc(nd + 1, sizeof(*has_dev));
	size_t *per_port = NULL;
	const char *last = NULL;
	size_t lastdi = nd;
	int r = -ENOMEM;

	if (!xs || !slot || !first || !count || !lo || !hi || !has_dev)
		goto out;
	for (i = 0; i < nd; i++)
		lo[i] = UINT64_MAX;
	/* pass 1: the device of every sample (grouped by device, sharing its name's storage:
	 * mostly a pointer comparison), its read-time span, device-level counters */
	for (j = 0; j < ns; j++) {
		const struct rdiag_sample *x = rdiag_samples_get(smp, j);

		xs[j] = x;
		if (x->dev != last) {
			lastdi = nd;
			for (i = 0; i < nd; i++)
				if (!strcmp(x->dev, c->devs->dev[i].name)) {
					lastdi = i;
					break;
				}
			last = x->dev;
		}
		slot[j] = lastdi;
		if (lastdi == nd)
			continue;	/* appeared after discovery: next time */
		count[lastdi]++;
		if (x->port == 0)
			has_dev[lastdi] = true;
		if (x->ts_ns && x->ts_ns < lo[lastdi])
			lo[lastdi] = x->ts_ns;
		if (x->ts_ns > hi[lastdi])
			hi[lastdi] = x->ts_ns;
	}
	/* the ports, device by device (a device with no sample whose directory is gone
	 * vanished since discovery: left out, the model greys it) */
	for (i = 0; i < nd; i++) {
		const struct rdiag_device *d = &c->devs->dev[i];
		uint64_t took = hi[i] > lo[i] && lo[i] != UINT64_MAX ? hi[i] - lo[i] : 0;

		first[i] = s->nports;
		if (!count[i] && !dev_present(c, d->name)) {
			c->must_discover = true;
			continue;
		}
		if (has_dev[i] && (r = add_port(s, cap, d, NULL, 0, 0, t, took, took > iv_ns)) < 0)
			goto out;
		for (j = 0; j < d->n_ports; j++)
			if ((r = add_port(s, cap, d, &d->ports[j], d->ports[j].port, 0, t, took,
					  took > iv_ns)) < 0)
				goto out;
	}
	first[nd] = s->nports;
	r = -ENOMEM;
	per_port = calloc(s->nports + 1, sizeof(*per_port));
	if (!per_port)
		goto out;
	/* pass 2: each sample's port slot, and how many land in each */
	for (j = 0; j < ns; j++) {
		size_t di = slot[j], k;

		if (di == nd || xs[j]->err) {
			slot[j] = SIZE_MAX;	/* unknown device, or unreadable: not a value */
			continue;
		}
		for (k = first[di]; k < first[di + 1]; k++)
			if (s->ports[k].port == xs[j]->port)
				break;
		slot[j] = k < first[di + 1] ? k : SIZE_MAX;
		if (slot[j] != SIZE_MAX)
			per_port[k]++;
	}
	for (i = 0; i < s->nports; i++) {
		if (!per_port[i])
			continue;
		s->ports[i].ctr = calloc(per_port[i], sizeof(*s->ports[i].ctr));
		if (!s->ports[i].ctr)
			goto out;
	}
	/* pass 3: fill */
	for (j = 0; j < ns; j++) {
		struct rt_snap_port *p;
		struct rt_snap_ctr *sc;

		if (slot[j] == SIZE_MAX)
			continue;
		p = &s->ports[slot[j]];
		sc = &p->ctr[p->nctr++];
		sc->name = xs[j]->name;
		sc->value = xs[j]->value;
		rt_meta_from_sample(&sc->meta, xs[j]);
		if (xs[j]->ts_ns)
			p->t_ns = xs[j]->ts_ns;
	}
	r = 0;
out:
	free(xs);
	free(slot);
	free(first);
	free(count);
	free(lo);
	free(hi);
	free(has_dev);
	free(per_port);
	return r;
}


/* one device at a time: only after the all-devices read failed, to find the culprit */
static int collect_each(struct rt_collector *c, struct rt_snap *s, struct owner *own,
			size_t *cap, uint64_t iv_ns)
{
	size_t i, j;
	long r;

	for (i = 0; i < c->devs->n; i++) {
		const struct rdiag_device *d = &c->devs->dev[i];
		struct rdiag_filter f = { .dev = d->name };
		struct rdiag_samples *smp = NULL;
		uint64_t t0 = tool_mono_ns(), took;

		set_busy_dev(c, d->name);
		r = rdiag_counters_sample(c->h, &f, &smp);
		took = tool_mono_ns() - t0;
		if (r == -ENODEV || r == -ENOENT) {
			/* gone since discovery: leave it out, the model greys it */
			c->must_discover = true;
			continue;
		}
		if (r < 0) {
			for (j = 0; j < d->n_ports; j++)
				if (add_port(s, cap, d, &d->ports[j], d->ports[j].port, (int)r, t0,
					     took, took > iv_ns) < 0)
					return -ENOMEM;
			continue;
		}
		own->s[own->n++] = smp;
		if ((r = fill_device(s, cap, d, smp, t0, iv_ns)) < 0)
			return (int)r;
	}
	return 0;
}

int rt_collect_once(struct rt_collector *c, struct rt_snap *s)
{
	uint64_t start = tool_mono_ns(), iv_ns = (uint64_t)(get_interval(c) * 1e9);
	struct rdiag_filter all = { 0 };
	struct rdiag_samples *smp = NULL;
	struct owner *own;
	size_t cap = 0, i, j;
	long r;

	memset(s, 0, sizeof(*s));
	s->t_ns = start;
	r = discover(c, start);
	if (r < 0)
		return (int)r;
	own = calloc(1, sizeof(*own) + (c->devs->n + 1) * sizeof(own->s[0]));
	if (!own)
		return -ENOMEM;
	s->owner = own;
	s->owner_free = owner_free;
	for (i = 0; i < c->devs->n; i++)
		for (j = 0; j < c->devs->dev[i].n_ports; j++)
			if (c->devs->dev[i].ports[j].hw_lifespan_ms > s->lifespan_ms)
				s->lifespan_ms = c->devs->dev[i].ports[j].hw_lifespan_ms;

	/* every device in one read (the library walks the device list once); per device
	 * only when that fails, so one broken device does not hide the others */
	set_busy_dev(c, "");
	r = rdiag_counters_sample(c->h, &all, &smp);
	if (r == -EINTR) {
		/* SIGINT/SIGTERM while a read blocked: reading device by device would
		 * block on the same file again */
		rt_snap_free(s);
		return (int)r;
	}
	if (r < 0) {
		r = collect_each(c, s, own, &cap, iv_ns);
	} else {
		own->s[own->n++] = smp;
		r = fill_all(c, s, &cap, smp, start, iv_ns);
	}
	if (r < 0) {
		rt_snap_free(s);
		return (int)r;
	}
	set_busy_dev(c, "");
	if (rt_eth_collect(&c->fab, s) < 0) {
		rt_snap_free(s);
		return -ENOMEM;
	}
	if (c->o.qps) {
		copy_qps(c, s);
		copy_cms(c, s);
	}
	s->took_ns = tool_mono_ns() - start;
	return 0;
}

/* ---- the collector thread ---------------------------------------------------------- */

static void *run(void *arg)
{
	struct rt_collector *c = arg;
	uint64_t due = tool_mono_ns();

	pthread_mutex_lock(&c->lock);
	while (!c->stop) {
		uint64_t now = tool_mono_ns();
		struct rt_snap s;
		int r;

		if (c->paused || (now < due && !c->kick)) {
			struct timespec ts;
			uint64_t until = c->paused ? now + 1000000000ull : due;

			ts.tv_sec = (time_t)(until / 1000000000ull);
			ts.tv_nsec = (long)(until % 1000000000ull);
			pthread_cond_timedwait(&c->cond, &c->lock, &ts);
			continue;
		}
		c->kick = false;
		c->busy = true;
		c->busy_since = now;
		pthread_mutex_unlock(&c->lock);

		r = rt_collect_once(c, &s);

		pthread_mutex_lock(&c->lock);
		c->busy = false;
		if (r == 0) {
			if (c->have_ready)
				rt_snap_free(&c->ready);	/* the UI fell behind: newest wins */
			c->ready = s;
			c->have_ready = true;
		}
		due += (uint64_t)(c->interval * 1e9);
		now = tool_mono_ns();
		if (due < now)
			due = now + (uint64_t)(c->interval * 1e9);	/* overran: no burst */
		pthread_mutex_unlock(&c->lock);
		if (c->o.wake)
			c->o.wake();
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int rt_collector_start(struct rt_collector *c)
{
	sigset_t all, old;
	int r;

	if (c->running)
		return 0;
	c->stop = false;
	/* signals belong to the UI thread: the collector inherits a mask blocking them all */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&c->thr, NULL, run, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return -r;
	c->running = true;
	return 0;
}

void rt_collector_stop(struct rt_collector *c)
{
	if (!c->running)
		return;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
	/* a device read that hangs in the kernel would hang the join: the process is exiting
	 * anyway, so detach rather than wait forever */
	pthread_mutex_lock(&c->lock);
	c->detached = c->busy;
	pthread_mutex_unlock(&c->lock);
	if (c->detached)
		pthread_detach(c->thr);
	else
		pthread_join(c->thr, NULL);
	c->running = false;
}

void rt_collector_set_interval(struct rt_collector *c, double seconds)
{
	pthread_mutex_lock(&c->lock);
	c->interval = seconds;
	c->kick = true;		/* sample now so the new interval is measured from here */
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

void rt_collector_pause(struct rt_collector *c, bool paused)
{
	pthread_mutex_lock(&c->lock);
	c->paused = paused;
	if (!paused)
		c->kick = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

bool rt_collector_take(struct rt_collector *c, struct rt_snap *out)
{
	bool have;

	pthread_mutex_lock(&c->lock);
	have = c->have_ready;
	if (have) {
		*out = c->ready;
		memset(&c->ready, 0, sizeof(c->ready));
		c->have_ready = false;
	}
	pthread_mutex_unlock(&c->lock);
	return have;
}

bool rt_collector_busy(struct rt_collector *c, uint64_t *since_ns, char *dev, size_t len)
{
	bool busy;

	pthread_mutex_lock(&c->lock);
	busy = c->busy;
	if (since_ns)
		*since_ns = c->busy_since;
	if (dev && len)
		snprintf(dev, len, "%s", c->busy_dev);
	pthread_mutex_unlock(&c->lock);
	return busy;
}
