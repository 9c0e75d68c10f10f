/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One snapshot of every counter: netlink and sysfs sources merged per port. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

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

/* the entries of /sys/class/infiniband that are devices; the others go to the set's list
 * of skipped entries (rd_sysfs_device_check) */
static int lite_sysfs_devices(struct rdiag_counters *c, struct rdiag_samples *set,
			      struct lite_dev **v, size_t *n)
{
	const char *const *l;
	char path[PATH_MAX];
	const char *why;
	size_t m, k;
	int ret = 0, err;

	/* l stays valid: nothing below lists a directory */
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband") < 0 ||
	    rd_sysfs_list(c, path, &l, &m, true) < 0)
		return 0;
	for (k = 0; k < m && !ret; k++) {
		struct lite_dev *d;

		err = rd_sysfs_device_check(c, l[k], path, &why);
		if (err == -ENOENT)
			continue;	/* unplugged since the listing */
		if (err) {
			ret = rd_samples_skip(set, path, err, why);
			continue;
		}
		d = lite_get(v, n, l[k]);
		if (!d)
			ret = -ENOMEM;
		else
			d->in_sysfs = true;
	}
	return ret;
}

/* the port numbers of one device from its ports/ listing; names that are not port numbers
 * go to the set's skipped entries.  1 when there is no listing (netlink's port count is used) */
static int lite_sysfs_ports(struct rdiag_counters *c, struct rdiag_samples *set,
			    struct lite_dev *d)
{
	const char *const *l;
	char path[PATH_MAX];
	const char *why;
	size_t m, k;
	uint32_t port;
	int ret = 0, err;

	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports", d->name) < 0 ||
	    rd_sysfs_list(c, path, &l, &m, false) < 0)
		return 1;	/* no ports/ listing */
	d->ports = calloc(m + 1, sizeof(*d->ports));
	if (!d->ports)
		return -ENOMEM;
	d->nports = 0;
	for (k = 0; k < m && !ret; k++) {
		err = rd_sysfs_port_check(l[k], &port, &why);
		if (!err) {
			d->ports[d->nports++] = port;
			continue;
		}
		if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%s", d->name,
			    l[k]) >= 0)
			ret = rd_samples_skip(set, path, err, why);
	}
	if (!ret)
		qsort(d->ports, d->nports, sizeof(*d->ports), u32_cmp);
	return ret;
}

/* the devices, and the ports of those f selects */
static int lite_enum(struct rdiag_counters *c, const struct rdiag_filter *f,
		     struct rdiag_samples *set, struct lite_dev **out, size_t *nout)
{
	struct lite_dev *v = NULL, *d;
	size_t n = 0, i;
	int ret = 0;

	if (c->source != RDIAG_SRC_NETLINK)
		ret = lite_sysfs_devices(c, set, &v, &n);
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
		if (f && f->dev && strcmp(f->dev, d->name))
			continue;	/* not read: its ports do not matter */
		if (d->in_sysfs) {
			int r = lite_sysfs_ports(c, set, d);

			if (r <= 0) {
				ret = r;
				continue;
			}
		}
		if (d->nports) {
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
	if (ret == -ENOENT || ret == -ENOTDIR)
		return 0;	/* port vanished */
	if (ret < 0 && ret != -ENOMEM && ret != -ENAMETOOLONG) {
		/* a port directory that cannot be listed (a symlink that loops): the port is
		 * left out, the others are read */
		rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u", d->name, port);
		return rd_samples_skip(v->set, path, ret, NULL);
	}
	if (ret < 0)
		return ret;
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
	ret = lite_enum(c, f, set, &devs, &n);
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
			if (!ret)
				ret = rd_eth_sample_port(c, set, d->name, d->ports[p]);
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
