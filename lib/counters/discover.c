/* Device/port discovery: sysfs (GIDs, rate, link layer) merged with netlink (index, protocol,
 * netdev). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int dev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rdiag_device *)a)->name,
		      ((const struct rdiag_device *)b)->name);
}

static int port_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct rdiag_port *)a)->port, y = ((const struct rdiag_port *)b)->port;

	return x < y ? -1 : x > y;
}

void rdiag_counters_devices_free(struct rdiag_devices *ds)
{
	size_t i, j;

	if (!ds)
		return;
	for (i = 0; i < ds->n; i++) {
		for (j = 0; j < ds->dev[i].n_ports; j++)
			free(ds->dev[i].ports[j].gids);
		free(ds->dev[i].ports);
	}
	free(ds->dev);
	free(ds);
}

int rdiag_counters_discover(struct rdiag_counters *c, struct rdiag_devices **out)
{
	struct rdiag_devices *ds;
	size_t i;
	int ret;

	*out = NULL;
	ds = calloc(1, sizeof(*ds));
	if (!ds)
		return -ENOMEM;
	ret = rd_sysfs_devices(c, ds);
	if (!ret && c->use_netlink && rd_nl_ready(c) == 0) {
		ret = rd_nl_discover(c, ds);
		/* netlink refused or unavailable: sysfs alone is still a valid answer */
		if (ret < 0 && ret != -ENOMEM && c->source != RDIAG_SRC_NETLINK)
			ret = 0;
	}
	if (ret < 0) {
		rdiag_counters_devices_free(ds);
		return ret;
	}
	for (i = 0; i < ds->n; i++) {
		struct rdiag_device *d = &ds->dev[i];

		if (!d->driver[0])
			rd_strlcpy(d->driver, rd_guess_driver(d->name), sizeof(d->driver));
		if (d->n_ports)
			qsort(d->ports, d->n_ports, sizeof(*d->ports), port_cmp);
		if (d->protocol[0] || !d->n_ports)
			continue;
		/* sysfs has no protocol file: derive it like nldev does */
		if (!strcmp(d->ports[0].link_layer, "InfiniBand"))
			strcpy(d->protocol, "ib");
		else if (!strcmp(d->node_type, "rnic"))
			strcpy(d->protocol, "iw");
		else if (!strcmp(d->ports[0].link_layer, "Ethernet"))
			strcpy(d->protocol, "roce");
	}
	if (ds->n)
		qsort(ds->dev, ds->n, sizeof(*ds->dev), dev_cmp);
	*out = ds;
	return 0;
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
