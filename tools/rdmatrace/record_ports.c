/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the port states and GID tables, looked at in two ways of different cost.
 * The full look is a device discovery (rdiag_counters_discover: every port's files and every
 * GID table entry, 1024 per port on rxe) followed by the GID diff of record_gids.c; it writes a
 * record "dev\tport\tSTATE\tPHYS" for every port whose state changed (every port at the first
 * look).  The quick look reads what can change cheaply: the names in /sys/class/infiniband
 * (one directory read) and each known port's state and phys_state through descriptors kept
 * open (pread at 0, as lib/counters' fdcache reads counters); anything that differs from the
 * last full look (a state, a device come or gone, a file that cannot be read) asks for a full
 * look.  The quick look is the library's change detector (rdiag_watch_*, reset at every full
 * look).  RDMADIAG_SYSFS_ROOT is honoured through the counters handle's root. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/tool.h"
#include "rdmadiag/ring.h"
#include "record.h"

struct port_seen {
	char dev[64];
	uint32_t port;
	uint8_t state, phys;
};

static struct port_seen *ports;
static size_t nports;
static struct rdiag_watch *watch;	/* the quick look: NULL until the first full look */

static struct port_seen *port_find(const char *dev, uint32_t port, bool *is_new)
{
	size_t i;
	struct port_seen *n;

	*is_new = false;
	for (i = 0; i < nports; i++)
		if (ports[i].port == port && !strcmp(ports[i].dev, dev))
			return &ports[i];
	n = realloc(ports, (nports + 1) * sizeof(*ports));
	if (!n)
		return NULL;
	ports = n;
	memset(&ports[nports], 0, sizeof(*ports));
	snprintf(ports[nports].dev, sizeof(ports[nports].dev), "%s", dev);
	ports[nports].port = port;
	*is_new = true;
	return &ports[nports++];
}

/* a recorder started before the driver is loaded (or on a host without RDMA) says so once,
 * and goes on with the events and rtnetlink changes; the quick look notices a device that
 * appears later and the full look then records its ports */
static void no_device_yet(struct rdiag_counters *c)
{
	static bool told;
	const char *root = rdiag_counters_sysfs_root(c);

	if (told)
		return;
	told = true;
	tool_warn("no RDMA device under %s/sys/class/infiniband (yet): recording rdma_cm events "
		  "and rtnetlink changes, and the ports of a device that appears",
		  root ? root : "");
}

void rec_ports_full(struct rdiag_counters *c)
{
	const struct rdiag_watch_opts wo = { .counters = c, .ports = true };
	struct rdiag_devices *d = NULL;
	size_t i, j;
	uint64_t t;

	if (!watch && rdiag_watch_open(&watch, &wo) < 0)
		watch = NULL;	/* out of memory: every quick look asks for a full one */
	if (rdiag_counters_discover(c, &d) < 0 || !d->n) {
		no_device_yet(c);
		if (watch && d)
			(void)rdiag_watch_reset(watch, d);	/* a device that appears is a change */
		rdiag_counters_devices_free(d);
		return;
	}
	t = tool_real_ns();	/* the states were read by now */
	for (i = 0; i < d->n; i++)
		for (j = 0; j < d->dev[i].n_ports; j++) {
			const struct rdiag_port *p = &d->dev[i].ports[j];
			bool is_new;
			struct port_seen *s = port_find(d->dev[i].name, p->port, &is_new);

			if (!s)
				continue;
			if (!is_new && s->state == p->state && s->phys == p->phys_state)
				continue;
			s->state = p->state;
			s->phys = p->phys_state;
			rec_put_text(RDIAG_REC_PORT, t, "%s\t%u\t%s\t%s", s->dev, s->port,
				 tool_name_or(rdiag_port_state_name(p->state), "UNKNOWN"),
				 tool_name_or(rdiag_port_phys_state_name(p->phys_state), "UNKNOWN"));
		}
	/* what the quick look compares with: these devices, these ports' files kept open */
	if (watch)
		(void)rdiag_watch_reset(watch, d);	/* -ENOMEM: the old devices, no ports */
	rec_gids_check(d, t);
	rdiag_counters_devices_free(d);
}

bool rec_ports_look(struct rdiag_counters *c)
{
	(void)c;	/* the watch has the handle's sysfs root */
	if (!watch)
		return true;
	return rdiag_watch_check(watch, RDIAG_WATCH_DEVICES | RDIAG_WATCH_PORTS) != 0;
}

void rec_ports_free(void)
{
	rdiag_watch_close(watch);
	watch = NULL;
	free(ports);
	ports = NULL;
	nports = 0;
}
