/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The result containers of the counters module: the device list (devices, their ports)
 * and the sample set (samples and the strings they point to).  The backends (sysfs.c,
 * nl.c) fill them; the orchestrators (discover.c, sample.c) create and hand them out. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include "internal.h"

struct rdiag_device *rd_devices_get(struct rdiag_devices *ds, const char *name)
{
	struct rdiag_device *n;
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (!strcmp(ds->dev[i].name, name))
			return &ds->dev[i];
	n = realloc(ds->dev, (ds->n + 1) * sizeof(*n));
	if (!n)
		return NULL;
	ds->dev = n;
	memset(&n[ds->n], 0, sizeof(n[ds->n]));
	rd_strlcpy(n[ds->n].name, name, sizeof(n[ds->n].name));
	return &n[ds->n++];
}

struct rdiag_port *rd_device_port(struct rdiag_device *d, uint32_t port)
{
	struct rdiag_port *n;
	size_t i;

	for (i = 0; i < d->n_ports; i++)
		if (d->ports[i].port == port)
			return &d->ports[i];
	n = realloc(d->ports, (d->n_ports + 1) * sizeof(*n));
	if (!n)
		return NULL;
	d->ports = n;
	memset(&n[d->n_ports], 0, sizeof(n[d->n_ports]));
	n[d->n_ports].port = port;
	return &n[d->n_ports++];
}

int rd_devices_skip(struct rdiag_devices *ds, const char *path, int err, const char *why)
{
	struct rdiag_skipped *n = realloc(ds->skipped, (ds->n_skipped + 1) * sizeof(*n));
	char *p = strdup(path);

	if (n)
		ds->skipped = n;
	if (!n || !p) {
		free(p);
		return -ENOMEM;
	}
	n[ds->n_skipped].path = p;
	n[ds->n_skipped].err = err;
	n[ds->n_skipped].why = why;
	ds->n_skipped++;
	return 0;
}

void rdiag_counters_devices_free(struct rdiag_devices *ds)
{
	size_t i, j;

	if (!ds)
		return;
	for (i = 0; i < ds->n_skipped; i++)
		free((char *)(uintptr_t)ds->skipped[i].path);
	free(ds->skipped);
	for (i = 0; i < ds->n; i++) {
		for (j = 0; j < ds->dev[i].n_ports; j++)
			free(ds->dev[i].ports[j].gids);
		free(ds->dev[i].ports);
	}
	free(ds->dev);
	free(ds);
}

const struct rdiag_device *rdiag_counters_device_find(const struct rdiag_devices *d,
						      const char *name)
{
	size_t i;

	for (i = 0; d && i < d->n; i++)
		if (!strcmp(d->dev[i].name, name))
			return &d->dev[i];
	return NULL;
}


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
	s->text = NULL;
	s->netdev = NULL;
	s->eth_concept = NULL;
	s->eth_prio = 0;
	s->eth_cat = NULL;
	return 0;
}

int rd_samples_set_eth(struct rdiag_samples *set, const char *netdev, const char *concept,
		       int prio, const struct rdiag_eth_catalog_entry *cat)
{
	struct rdiag_sample *s;

	if (!set->n)
		return -EINVAL;
	s = &set->s[set->n - 1];
	/* consecutive statistics share the netdev's copy */
	if (set->n > 1 && s[-1].netdev && !strcmp(s[-1].netdev, netdev))
		s->netdev = s[-1].netdev;
	else
		s->netdev = intern(set, netdev);
	s->eth_concept = concept ? intern(set, concept) : NULL;
	if (!s->netdev || (concept && !s->eth_concept))
		return -ENOMEM;
	s->eth_prio = prio;
	s->eth_cat = cat;
	return 0;
}

int rd_samples_set_text(struct rdiag_samples *set, const char *text)
{
	const char *t;

	if (!set->n)
		return -EINVAL;
	t = intern(set, text);
	if (!t)
		return -ENOMEM;
	set->s[set->n - 1].text = t;
	return 0;
}

int rd_samples_add(struct rdiag_samples *set, const char *dev, uint32_t port, const char *name,
		   uint64_t value, int err, enum rdiag_origin origin, uint64_t ts_ns,
		   uint32_t cache_ms, const char *driver)
{
	return rd_samples_add_cat(set, dev, port, name, value, err, origin, ts_ns, cache_ms,
				  rdiag_catalog_lookup(name, driver, origin));
}

int rd_samples_skip(struct rdiag_samples *set, const char *path, int err, const char *why)
{
	struct rdiag_skipped *k;
	const char *p;

	if (set->n_skipped == set->cap_skipped) {
		size_t cap = set->cap_skipped ? set->cap_skipped * 2 : 4;

		k = realloc(set->skipped, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		set->skipped = k;
		set->cap_skipped = cap;
	}
	p = intern(set, path);
	if (!p)
		return -ENOMEM;
	k = &set->skipped[set->n_skipped++];
	k->path = p;
	k->err = err;
	k->why = why;
	return 0;
}

int rd_samples_skip_why(struct rdiag_samples *set, const char *path, int err, const char *why)
{
	const char *w = why ? intern(set, why) : NULL;

	if (why && !w)
		return -ENOMEM;
	return rd_samples_skip(set, path, err, w);
}

size_t rdiag_samples_skipped_count(const struct rdiag_samples *s)
{
	return s ? s->n_skipped : 0;
}

const struct rdiag_skipped *rdiag_samples_skipped_get(const struct rdiag_samples *s, size_t i)
{
	return s && i < s->n_skipped ? &s->skipped[i] : NULL;
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
	free(s->skipped);
	free(s->s);
	free(s);
}
