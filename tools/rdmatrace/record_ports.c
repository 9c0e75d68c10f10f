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
 * look).  RDMADIAG_SYSFS_ROOT is honoured through the counters handle's root.
 * A port that a full look no longer finds, or finds on another instance of its device (a
 * device directory that is not the one seen before: rdma link delete and add between two
 * looks), is a record "dev\tport\tGONE\t"; the new instance's ports are then recorded as
 * new, and rdmatrace dump starts the device's counter deltas again from its next snapshot. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/clock.h"
#include "common/tool.h"
#include "rdmadiag/ring.h"
#include "record.h"

struct port_seen {
	char dev[64];
	uint32_t port;
	uint8_t state, phys;
	dev_t st_dev;		/* the device directory's identity (st_ino 0: not looked at) */
	ino_t st_ino;
	bool seen;		/* found by the current full look */
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

/* the identity of the device's directory (0, 0 when it cannot be looked at) */
static void dev_ident(struct rdiag_counters *c, const char *dev, dev_t *st_dev, ino_t *st_ino)
{
	const char *root = rdiag_counters_sysfs_root(c);
	char path[4200];
	struct stat st;

	*st_dev = 0;
	*st_ino = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s", root ? root : "",
			     dev) < sizeof(path) && stat(path, &st) == 0) {
		*st_dev = st.st_dev;
		*st_ino = st.st_ino;
	}
}

static void put_gone(const struct port_seen *s, uint64_t t)
{
	rec_put_text(RDIAG_REC_PORT, t, "%s\t%u\tGONE\t", s->dev, s->port);
}

/* the ports known before that this look did not find are gone: a record each, and
 * forgotten (one that comes back is new) */
static bool ports_gone(uint64_t t)
{
	size_t i, n = 0;
	bool any = false;

	for (i = 0; i < nports; i++) {
		if (!ports[i].seen) {
			put_gone(&ports[i], t);
			any = true;
			continue;
		}
		ports[i].seen = false;
		ports[n++] = ports[i];
	}
	nports = n;
	return any;
}

bool rec_ports_full(struct rdiag_counters *c)
{
	const struct rdiag_watch_opts wo = { .counters = c, .ports = true };
	struct rdiag_devices *d = NULL;
	bool changed = false;
	size_t i, j;
	uint64_t t;

	if (!watch && rdiag_watch_open(&watch, &wo) < 0)
		watch = NULL;	/* out of memory: every quick look asks for a full one */
	if (rdiag_counters_discover(c, &d) < 0 || !d->n) {
		no_device_yet(c);
		if (watch && d)
			(void)rdiag_watch_reset(watch, d);	/* a device that appears is a change */
		if (d)	/* every device is gone (a failed discovery tells nothing) */
			changed = ports_gone(tool_real_ns());
		rdiag_counters_devices_free(d);
		return changed;
	}
	t = tool_real_ns();	/* the states were read by now */
	for (i = 0; i < d->n; i++) {
		dev_t sd;
		ino_t si;

		dev_ident(c, d->dev[i].name, &sd, &si);
		for (j = 0; j < d->dev[i].n_ports; j++) {
			const struct rdiag_port *p = &d->dev[i].ports[j];
			bool is_new;
			struct port_seen *s = port_find(d->dev[i].name, p->port, &is_new);

			if (!s)
				continue;
			s->seen = true;
			if (!is_new && (s->st_dev != sd || s->st_ino != si)) {
				put_gone(s, t);	/* another instance of the device */
				changed = is_new = true;
			}
			s->st_dev = sd;
			s->st_ino = si;
			if (!is_new && s->state == p->state && s->phys == p->phys_state)
				continue;
			s->state = p->state;
			s->phys = p->phys_state;
			rec_put_text(RDIAG_REC_PORT, t, "%s\t%u\t%s\t%s", s->dev, s->port,
				 tool_name_or(rdiag_port_state_name(p->state), "UNKNOWN"),
				 tool_name_or(rdiag_port_phys_state_name(p->phys_state), "UNKNOWN"));
		}
	}
	changed |= ports_gone(t);
	/* what the quick look compares with: these devices, these ports' files kept open */
	if (watch)
		(void)rdiag_watch_reset(watch, d);	/* -ENOMEM: the old devices, no ports */
	rec_gids_check(d, t);
	rdiag_counters_devices_free(d);
	return changed;
}

bool rec_ports_look(struct rdiag_counters *c)
{
	(void)c;	/* the watch has the handle's sysfs root */
	if (!watch)
		return true;
	return rdiag_watch_check(watch, RDIAG_WATCH_DEVICES | RDIAG_WATCH_PORTS) != 0;
}

bool rec_ports_devices_changed(struct rdiag_counters *c)
{
	(void)c;
	if (!watch)
		return true;
	return rdiag_watch_check(watch, RDIAG_WATCH_DEVICES) != 0;
}

void rec_ports_free(void)
{
	rdiag_watch_close(watch);
	watch = NULL;
	free(ports);
	ports = NULL;
	nports = 0;
}
