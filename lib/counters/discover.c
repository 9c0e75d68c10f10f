/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Device/port discovery: sysfs (GIDs, rate, link layer) merged with netlink (index, protocol,
 * netdev). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
			rd_strlcpy(d->protocol, "ib", sizeof(d->protocol));
		else if (!strcmp(d->node_type, "rnic"))
			rd_strlcpy(d->protocol, "iw", sizeof(d->protocol));
		else if (!strcmp(d->ports[0].link_layer, "Ethernet"))
			rd_strlcpy(d->protocol, "roce", sizeof(d->protocol));
	}
	if (ds->n)
		qsort(ds->dev, ds->n, sizeof(*ds->dev), dev_cmp);
	*out = ds;
	return 0;
}
