/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The device/port change detector (rdmadiag/counters.h, rdiag_watch_*): what a full
 * discovery told, against what can be read cheaply now.  The device names are one directory
 * read of <root>/sys/class/infiniband (and a stat of each device's directory, whose inode a
 * device re-created under its old name does not keep); each port's state and phys_state are read through
 * descriptors kept open since the last reset (pread at 0, as fdcache.c reads counters), so a
 * look costs no path walk.  rdmatrace record's quick look and rdmatop's collector share it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

struct watch_port {
	char dev[64];
	uint32_t port;
	uint8_t state, phys;
	int state_fd, phys_fd;	/* -1 when the file could not be opened */
};

/* one device of the last reset: its name and its directory's identity, which a device
 * re-created under the same name does not keep (sysfs gives the new directory a new inode) */
struct watch_dev {
	char name[64];
	dev_t st_dev;
	ino_t st_ino;		/* 0: could not be looked at */
};

struct rdiag_watch {
	char root[4096];
	bool ports_on;			/* keep the port files open (opts.ports) */
	struct watch_dev *devs;		/* the devices of the last reset */
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

/* the identity of <root>/sys/class/infiniband/<name> (the device's directory); false when
 * it cannot be looked at */
static bool dev_ident(const struct rdiag_watch *w, const char *name, dev_t *dev, ino_t *ino)
{
	char path[4200];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s", w->root, name) >=
	    sizeof(path) || stat(path, &st) < 0)
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

int rdiag_watch_reset(struct rdiag_watch *w, const struct rdiag_devices *d)
{
	struct watch_dev *n = calloc(d->n ? d->n : 1, sizeof(*n));
	size_t i, j, np = 0;

	if (!n)
		return -ENOMEM;
	for (i = 0; i < d->n; i++) {
		snprintf(n[i].name, sizeof(n[i].name), "%s", d->dev[i].name);
		if (!dev_ident(w, n[i].name, &n[i].st_dev, &n[i].st_ino))
			n[i].st_ino = 0;
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

/* name is a device of the last reset, and the same instance of it: a directory that is not
 * the one the reset looked at is a device re-created under that name (rdma link delete and
 * add between two looks) */
static bool known_device(const struct rdiag_watch *w, const char *name)
{
	size_t i;
	dev_t dev;
	ino_t ino;

	for (i = 0; i < w->ndevs; i++) {
		if (strcmp(w->devs[i].name, name))
			continue;
		if (!w->devs[i].st_ino)
			return true;	/* not looked at by the reset: the name alone */
		return dev_ident(w, name, &dev, &ino) && dev == w->devs[i].st_dev &&
		       ino == w->devs[i].st_ino;
	}
	return false;
}

/* the device names (and their directories) now against those of the last reset */
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
