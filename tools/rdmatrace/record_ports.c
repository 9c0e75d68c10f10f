/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the port states and GID tables, looked at in two ways of different cost.
 * The full look is a device discovery (rdiag_counters_discover: every port's files and every
 * GID table entry, 1024 per port on rxe) followed by the GID diff of record_gids.c; it writes a
 * record "dev\tport\tSTATE\tPHYS" for every port whose state changed (every port at the first
 * look).  The quick look reads what can change cheaply: the names in /sys/class/infiniband
 * (one directory read) and each known port's state and phys_state through descriptors kept
 * open (pread at 0, as lib/counters' fdcache reads counters); anything that differs from the
 * last full look (a state, a device come or gone, a file that cannot be read) asks for a full
 * look.  RDMADIAG_SYSFS_ROOT is honoured through the counters handle's root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/tool.h"
#include "rdmadiag/ring.h"
#include "record.h"

struct port_seen {
	char dev[64];
	uint32_t port;
	uint8_t state, phys;
	bool present;		/* in the last full look */
	int state_fd, phys_fd;	/* kept open for the quick look; -1 when not open */
};

static struct port_seen *ports;
static size_t nports;
static char (*devs)[64];	/* the devices of the last full look, ports or not */
static size_t ndevs;

static void port_close(struct port_seen *s)
{
	if (s->state_fd >= 0)
		close(s->state_fd);
	if (s->phys_fd >= 0)
		close(s->phys_fd);
	s->state_fd = s->phys_fd = -1;
}

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
	ports[nports].state_fd = ports[nports].phys_fd = -1;
	*is_new = true;
	return &ports[nports++];
}

static int open_port_file(const char *root, const struct port_seen *s, const char *file)
{
	char path[4200];

	if ((size_t)snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports/%u/%s", root,
			     s->dev, s->port, file) >= sizeof(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC);
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

static void remember_devices(const struct rdiag_devices *d)
{
	char (*n)[64] = calloc(d->n ? d->n : 1, sizeof(*n));
	size_t i;

	if (!n)
		return;
	for (i = 0; i < d->n; i++)
		snprintf(n[i], sizeof(n[i]), "%s", d->dev[i].name);
	free(devs);
	devs = n;
	ndevs = d->n;
}

void rec_ports_full(struct rdiag_counters *c)
{
	const char *root = rdiag_counters_sysfs_root(c);
	struct rdiag_devices *d = NULL;
	size_t i, j;
	uint64_t t;

	if (rdiag_counters_discover(c, &d) < 0)
		return;
	t = tool_real_ns();	/* the states were read by now */
	for (i = 0; i < nports; i++) {
		port_close(&ports[i]);
		ports[i].present = false;
	}
	for (i = 0; i < d->n; i++)
		for (j = 0; j < d->dev[i].n_ports; j++) {
			const struct rdiag_port *p = &d->dev[i].ports[j];
			bool is_new;
			struct port_seen *s = port_find(d->dev[i].name, p->port, &is_new);

			if (!s)
				continue;
			s->present = true;
			s->state_fd = open_port_file(root ? root : "", s, "state");
			s->phys_fd = open_port_file(root ? root : "", s, "phys_state");
			if (!is_new && s->state == p->state && s->phys == p->phys_state)
				continue;
			s->state = p->state;
			s->phys = p->phys_state;
			rec_put_text(RDIAG_REC_PORT, t, "%s\t%u\t%s\t%s", s->dev, s->port,
				 tool_name_or(rdiag_port_state_name(p->state), "UNKNOWN"),
				 tool_name_or(rdiag_port_phys_state_name(p->phys_state), "UNKNOWN"));
		}
	remember_devices(d);
	rec_gids_check(d, t);
	rdiag_counters_devices_free(d);
}

static bool known_device(const char *name)
{
	size_t i;

	for (i = 0; i < ndevs; i++)
		if (!strcmp(devs[i], name))
			return true;
	return false;
}

/* the device names now against those of the last full look */
static bool devices_changed(const char *root)
{
	char path[4200];
	struct dirent *e;
	size_t n = 0;
	bool changed = false;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/sys/class/infiniband", root);
	dir = opendir(path);
	if (!dir)
		return ndevs > 0;
	while (!changed && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		changed = !known_device(e->d_name);
	}
	closedir(dir);
	return changed || n != ndevs;
}

bool rec_ports_look(struct rdiag_counters *c)
{
	const char *root = rdiag_counters_sysfs_root(c);
	size_t i;

	if (!root)
		root = "";
	if (devices_changed(root))
		return true;
	for (i = 0; i < nports; i++) {
		const struct port_seen *s = &ports[i];

		if (!s->present)
			continue;
		/* a file the full look could not open is not looked at; one that was open and
		 * now fails to read (the port went away) asks for a full look */
		if (s->state_fd >= 0 && read_num(s->state_fd) != s->state)
			return true;
		if (s->phys_fd >= 0 && read_num(s->phys_fd) != s->phys)
			return true;
	}
	return false;
}

void rec_ports_free(void)
{
	size_t i;

	for (i = 0; i < nports; i++)
		port_close(&ports[i]);
	free(ports);
	free(devs);
	ports = NULL;
	devs = NULL;
	nports = ndevs = 0;
}
