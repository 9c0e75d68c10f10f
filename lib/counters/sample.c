/* One snapshot of every counter: netlink and sysfs sources merged per port. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rdmadiag/catalog.h>
#include "internal.h"

/* Strings of a set live in chunks (one malloc per 16 KiB, not per name): a snapshot of
 * 1000 counters would otherwise spend as long in malloc/free as in reading sysfs. */
#define CHUNK (16 * 1024)
struct rd_chunk {
	struct rd_chunk *next;
	size_t used, size;
	char data[];
};

static const char *intern(struct rdiag_samples *set, const char *s)
{
	struct rd_chunk *ch = set->chunks;
	size_t l = strlen(s) + 1;
	char *d;

	if (!ch || ch->size - ch->used < l) {
		size_t sz = l > CHUNK ? l : CHUNK;

		ch = malloc(sizeof(*ch) + sz);
		if (!ch)
			return NULL;
		ch->next = set->chunks;
		ch->used = 0;
		ch->size = sz;
		set->chunks = ch;
	}
	d = ch->data + ch->used;
	memcpy(d, s, l);
	ch->used += l;
	return d;
}

/* consecutive samples share the device name: reuse the last copy.  A caller that passes
 * the pointer this returned (rd_sysfs_sample_dir, once per directory) is matched by
 * address, without a string compare per counter. */
const char *rd_samples_dev(struct rdiag_samples *set, const char *dev)
{
	const char *last = set->dev_last;

	if (last && (last == dev || !strcmp(last, dev)))
		return last;
	return set->dev_last = intern(set, dev);
}

int rd_samples_add_cat(struct rdiag_samples *set, const char *dev, uint32_t port,
		       const char *name, uint64_t value, int err, enum rdiag_origin origin,
		       uint64_t ts_ns, uint32_t cache_ms, const struct rdiag_catalog_entry *cat)
{
	struct rdiag_sample *s;
	const char *d, *nm;

	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 128;
		struct rdiag_sample *ns = realloc(set->s, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		set->s = ns;
		set->cap = cap;
	}
	d = rd_samples_dev(set, dev);
	nm = intern(set, name);
	if (!d || !nm)
		return -ENOMEM;
	s = &set->s[set->n++];
	s->dev = d;
	s->port = port;
	s->name = nm;
	s->value = value;
	s->origin = origin;
	s->ts_ns = ts_ns;
	s->cache_ms = cache_ms;
	s->err = err;
	s->cat = cat;
	return 0;
}

int rd_samples_add(struct rdiag_samples *set, const char *dev, uint32_t port, const char *name,
		   uint64_t value, int err, enum rdiag_origin origin, uint64_t ts_ns,
		   uint32_t cache_ms, const char *driver)
{
	return rd_samples_add_cat(set, dev, port, name, value, err, origin, ts_ns, cache_ms,
				  rdiag_catalog_lookup(name, driver, origin));
}

size_t rdiag_samples_count(const struct rdiag_samples *s)
{
	return s ? s->n : 0;
}

const struct rdiag_sample *rdiag_samples_get(const struct rdiag_samples *s, size_t i)
{
	return s && i < s->n ? &s->s[i] : NULL;
}

const struct rdiag_sample *rdiag_samples_find(const struct rdiag_samples *s, const char *dev,
					      uint32_t port, const char *name)
{
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < s->n; i++)
		if (s->s[i].port == port && !strcmp(s->s[i].name, name) &&
		    !strcmp(s->s[i].dev, dev))
			return &s->s[i];
	return NULL;
}

void rdiag_samples_free(struct rdiag_samples *s)
{

	if (!s)
		return;
	while (s->chunks) {
		struct rd_chunk *nx = s->chunks->next;

		free(s->chunks);
		s->chunks = nx;
	}
	free(s->s);
	free(s);
}

static const char *const cm_groups[] = {
	"cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs", "cm_rx_duplicates",
};

/* a light enumeration: names, ports, netlink index; no GIDs (a snapshot must be cheap) */
struct lite_dev {
	char name[64];
	char driver[32];
	uint32_t nl_index;
	bool in_nl;		/* known to netlink (indexes start at 0) */
	bool in_sysfs;
	uint32_t nports;
	uint32_t *ports;
};

static int lite_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lite_dev *)a)->name, ((const struct lite_dev *)b)->name);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static struct lite_dev *lite_get(struct lite_dev **v, size_t *n, const char *name)
{
	struct lite_dev *nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	*v = nv;
	memset(&nv[*n], 0, sizeof(nv[*n]));
	rd_strlcpy(nv[*n].name, name, sizeof(nv[*n].name));
	return &nv[(*n)++];
}

static int lite_enum(struct rdiag_counters *c, struct lite_dev **out, size_t *nout)
{
	struct lite_dev *v = NULL, *d;
	size_t n = 0, i, k, m;
	const char *const *l;
	char path[PATH_MAX];
	int ret = 0;

	if (c->source != RDIAG_SRC_NETLINK &&
	    rd_path(c, path, sizeof(path), "/sys/class/infiniband") >= 0 &&
	    rd_sysfs_list(c, path, &l, &m, true) == 0) {
		for (k = 0; k < m && !ret; k++) {
			d = lite_get(&v, &n, l[k]);
			if (!d)
				ret = -ENOMEM;
			else
				d->in_sysfs = true;
		}
	}
	if (!ret && c->use_netlink && rd_nl_ready(c) == 0) {
		struct rd_nl_dev *nd = NULL;
		size_t nn = 0;

		if (rd_nl_devices(c, &nd, &nn) == 0) {
			for (i = 0; i < nn && !ret; i++) {
				d = lite_get(&v, &n, nd[i].name);
				if (!d) {
					ret = -ENOMEM;
					break;
				}
				d->nl_index = nd[i].index;
				d->in_nl = true;
				d->nports = nd[i].nports;
			}
		} else if (c->source == RDIAG_SRC_NETLINK) {
			ret = -EIO;
		}
		free(nd);
	} else if (!ret && c->source == RDIAG_SRC_NETLINK) {
		ret = c->nl_failed ? -EPROTONOSUPPORT : -EIO;
	}
	for (i = 0; i < n && !ret; i++) {
		d = &v[i];
		rd_strlcpy(d->driver, rd_guess_driver(d->name), sizeof(d->driver));
		if (d->in_sysfs &&
		    rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports", d->name) >= 0
		    && rd_sysfs_list(c, path, &l, &m, false) == 0) {
			d->ports = calloc(m + 1, sizeof(*d->ports));
			d->nports = 0;
			for (k = 0; d->ports && k < m; k++)
				d->ports[d->nports++] = (uint32_t)strtoul(l[k], NULL, 10);
			if (!d->ports)
				ret = -ENOMEM;
			else
				qsort(d->ports, d->nports, sizeof(*d->ports), u32_cmp);
		} else if (d->nports) {
			uint32_t p;

			d->ports = calloc(d->nports, sizeof(*d->ports));
			if (!d->ports)
				ret = -ENOMEM;
			for (p = 0; d->ports && p < d->nports; p++)
				d->ports[p] = p + 1;
		}
	}
	if (ret) {
		for (i = 0; i < n; i++)
			free(v[i].ports);
		free(v);
		return ret;
	}
	if (n)
		qsort(v, n, sizeof(*v), lite_cmp);
	*out = v;
	*nout = n;
	return 0;
}

/* old_cm: /sys/class/infiniband_cm exists (kernels before 5.14 keep the CM counters there) */
static int sample_port(struct rdiag_counters *c, struct rd_sampvec *v, struct lite_dev *d,
		       uint32_t port, bool old_cm)
{
	char path[PATH_MAX], prefix[64];
	bool got_nl = false;
	unsigned int dirs;
	size_t g;
	int ret;

	if (c->use_netlink && d->in_nl) {
		ret = rd_nl_sample_port(c, v->set, d->nl_index, d->name, port, d->driver);
		if (ret == 0)
			got_nl = true;
		else if (c->source == RDIAG_SRC_NETLINK || ret == -ENOMEM)
			return ret;
	}
	if (c->source == RDIAG_SRC_NETLINK)
		return 0;
	ret = rd_sysfs_port_dirs(c, d->name, port, &dirs);
	if (ret < 0)
		return ret == -ENOENT || ret == -ENOTDIR ? 0 : ret;	/* port vanished */
	if (!got_nl && (dirs & RD_PORT_HW)) {
		/* the kernel default lifespan is 10 ms; the directory's own file overrides it */
		rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/hw_counters",
			d->name, port);
		ret = rd_sysfs_sample_dir(c, v, path, d->name, port, RDIAG_ORIG_SYSFS_HW, NULL, 10,
					  d->driver);
		if (ret < 0 && ret != -ENOENT)
			return ret;
	}
	/* the PMA counters and the CM counters never travel over netlink */
	if (dirs & RD_PORT_PMA) {
		rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/counters",
			d->name, port);
		ret = rd_sysfs_sample_dir(c, v, path, d->name, port, RDIAG_ORIG_PMA, NULL, 0,
					  "pma");
		if (ret < 0 && ret != -ENOENT)
			return ret;
	}
	for (g = 0; g < sizeof(cm_groups) / sizeof(cm_groups[0]) &&
		    ((dirs & RD_PORT_CM) || old_cm); g++) {
		snprintf(prefix, sizeof(prefix), "%s/", cm_groups[g]);
		/* ports/N/<group>/ since the CM sysfs moved onto the port (5.14; 6.1 has it
		 * there), /sys/class/infiniband_cm/<dev>/<port>/<group>/ before */
		if (dirs & RD_PORT_CM)
			rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s",
				d->name, port, cm_groups[g]);
		else
			rd_path(c, path, sizeof(path), "/sys/class/infiniband_cm/%s/%u/%s",
				d->name, port, cm_groups[g]);
		ret = rd_sysfs_sample_dir(c, v, path, d->name, port, RDIAG_ORIG_CM, prefix, 0,
					  "cm");
		if (ret < 0 && ret != -ENOENT)
			return ret;
		if (ret == -ENOENT && !(dirs & RD_PORT_CM))
			break;	/* no CM counters on this port at all */
	}
	return 0;
}

int rdiag_counters_sample(struct rdiag_counters *c, const struct rdiag_filter *f,
			  struct rdiag_samples **out)
{
	struct rdiag_samples *set;
	struct lite_dev *devs = NULL;
	struct rd_sampvec v;
	char path[PATH_MAX];
	size_t n = 0, i;
	uint32_t p;
	bool found = false, old_cm;
	struct stat st;
	int ret;

	*out = NULL;
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	v.set = set;
	rd_fdcache_begin(c);
	ret = lite_enum(c, &devs, &n);
	if (ret < 0) {
		if (!c->err[0])
			rd_seterr(c, "cannot enumerate RDMA devices over netlink");
		free(set);
		return ret;
	}
	/* one look for the old CM location per snapshot, not one per port (and none when
	 * sysfs is not a source: sample_port does not get that far) */
	old_cm = c->source != RDIAG_SRC_NETLINK &&
		 rd_path(c, path, sizeof(path), "/sys/class/infiniband_cm") >= 0 &&
		 stat(path, &st) == 0;
	for (i = 0; i < n && !ret; i++) {
		struct lite_dev *d = &devs[i];

		if (f && f->dev && strcmp(f->dev, d->name))
			continue;
		found = true;
		if ((!f || !f->port) && c->source != RDIAG_SRC_NETLINK && d->in_sysfs) {
			rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/hw_counters",
				d->name);
			ret = rd_sysfs_sample_dir(c, &v, path, d->name, 0,
						  RDIAG_ORIG_SYSFS_DEV_HW, NULL, 10, d->driver);
			if (ret == -ENOENT)
				ret = 0;
		}
		for (p = 0; p < d->nports && !ret; p++) {
			if (f && f->port && f->port != d->ports[p])
				continue;
			ret = sample_port(c, &v, d, d->ports[p], old_cm);
		}
	}
	for (i = 0; i < n; i++)
		free(devs[i].ports);
	free(devs);
	if (!ret && f && f->dev && !found) {
		rd_seterr(c, "no RDMA device '%s'", f->dev);
		ret = -ENODEV;
	}
	if (ret < 0) {
		rdiag_samples_free(set);
		return ret;
	}
	if (!f || (!f->dev && !f->port))
		rd_fdcache_sweep(c);	/* a full snapshot: what it did not read is gone */
	*out = set;
	return 0;
}
