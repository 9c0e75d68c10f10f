/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The device/port change detector (rdmadiag/counters.h, rdiag_watch_*): what a full
 * discovery told, against what can be read cheaply now.  The device names are one directory
 * read of <root>/sys/class/infiniband; each port's state and phys_state are read through
 * descriptors kept open since the last reset (pread at 0, as fdcache.c reads counters), so a
 * look costs no path walk.  rdmatrace record's quick look and rdmatop's collector share it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct watch_port {
	char dev[64];
	uint32_t port;
	uint8_t state, phys;
	int state_fd, phys_fd;	/* -1 when the file could not be opened */
};

struct rdiag_watch {
	char root[4096];
	bool ports_on;			/* keep the port files open (opts.ports) */
	char (*devs)[64];		/* the devices of the last reset */
	size_t ndevs;
	struct watch_port *ports;
	size_t nports;
};

int rdiag_watch_open(struct rdiag_watch **out, const struct rdiag_watch_opts *opts)
{
	struct rdiag_watch *w;
	const char *root;

	*out = NULL;
	if (!opts || !opts->counters)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	root = rdiag_counters_sysfs_root(opts->counters);
	snprintf(w->root, sizeof(w->root), "%s", root ? root : "");
	w->ports_on = opts->ports;
	*out = w;
	return 0;
}

static void ports_close(struct rdiag_watch *w)
{
	size_t i;

	for (i = 0; i < w->nports; i++) {
		if (w->ports[i].state_fd >= 0)
			close(w->ports[i].state_fd);
		if (w->ports[i].phys_fd >= 0)
			close(w->ports[i].phys_fd);
	}
	free(w->ports);
	w->ports = NULL;
	w->nports = 0;
}

void rdiag_watch_close(struct rdiag_watch *w)
{
	if (!w)
		return;
	ports_close(w);
	free(w->devs);
	free(w);
}

const char *rdiag_watch_errmsg(const struct rdiag_watch *w)
{
	(void)w;
	return "";	/* reset's only error is -ENOMEM; check has none */
}

static int open_port_file(const struct rdiag_watch *w, const struct watch_port *p,
			  const char *file)
{
	char path[4200];

	if ((size_t)snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports/%u/%s",
			     w->root, p->dev, p->port, file) >= sizeof(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC);
}

int rdiag_watch_reset(struct rdiag_watch *w, const struct rdiag_devices *d)
{
	char (*n)[64] = calloc(d->n ? d->n : 1, sizeof(*n));
	size_t i, j, np = 0;

	if (!n)
		return -ENOMEM;
	for (i = 0; i < d->n; i++) {
		snprintf(n[i], sizeof(n[i]), "%s", d->dev[i].name);
		np += d->dev[i].n_ports;
	}
	free(w->devs);
	w->devs = n;
	w->ndevs = d->n;
	ports_close(w);
	if (!w->ports_on || !np)
		return 0;
	w->ports = calloc(np, sizeof(*w->ports));
	if (!w->ports)
		return -ENOMEM;
	for (i = 0; i < d->n; i++)
		for (j = 0; j < d->dev[i].n_ports; j++) {
			struct watch_port *p = &w->ports[w->nports++];

			snprintf(p->dev, sizeof(p->dev), "%s", d->dev[i].name);
			p->port = d->dev[i].ports[j].port;
			p->state = d->dev[i].ports[j].state;
			p->phys = d->dev[i].ports[j].phys_state;
			p->state_fd = open_port_file(w, p, "state");
			p->phys_fd = open_port_file(w, p, "phys_state");
		}
	return 0;
}

static bool known_device(const struct rdiag_watch *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->ndevs; i++)
		if (!strcmp(w->devs[i], name))
			return true;
	return false;
}

/* the device names now against those of the last reset */
static bool devices_changed(const struct rdiag_watch *w)
{
	char path[4200];
	struct dirent *e;
	size_t n = 0;
	bool changed = false;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/sys/class/infiniband", w->root);
	dir = opendir(path);
	if (!dir)
		return w->ndevs > 0;
	while (!changed && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		changed = !known_device(w, e->d_name);
	}
	closedir(dir);
	return changed || n != w->ndevs;
}

/* the leading number of "4: ACTIVE", as the discovery reads it; -1 when unreadable */
static int read_num(int fd)
{
	char buf[64];
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (uint8_t)strtoul(buf, NULL, 10);
}

static bool ports_changed(const struct rdiag_watch *w)
{
	size_t i;

	for (i = 0; i < w->nports; i++) {
		const struct watch_port *p = &w->ports[i];

		/* a file the reset could not open is not looked at; one that was open and now
		 * fails to read (the port went away) is a change */
		if (p->state_fd >= 0 && read_num(p->state_fd) != p->state)
			return true;
		if (p->phys_fd >= 0 && read_num(p->phys_fd) != p->phys)
			return true;
	}
	return false;
}

unsigned int rdiag_watch_check(struct rdiag_watch *w, unsigned int what)
{
	if ((what & RDIAG_WATCH_DEVICES) && devices_changed(w))
		return RDIAG_WATCH_DEVICES;
	if ((what & RDIAG_WATCH_PORTS) && ports_changed(w))
		return RDIAG_WATCH_PORTS;
	return 0;
}
