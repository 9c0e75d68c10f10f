/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* sysfs: device/port/GID discovery and the counter directories
 *   /sys/class/infiniband/<dev>/ports/<n>/{counters,hw_counters}/, <dev>/hw_counters/,
 *   /sys/class/infiniband_cm/<dev>/<port>/<group>/<msg>. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include "internal.h"
#include "util/util.h"

static int no_dots(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int numeric_sort(const struct dirent **a, const struct dirent **b)
{
	unsigned long x = strtoul((*a)->d_name, NULL, 10), y = strtoul((*b)->d_name, NULL, 10);

	return x < y ? -1 : x > y;
}

static void free_list(struct dirent **l, int n)
{
	while (n-- > 0)
		free(l[n]);
	free(l);
}

/* "4: ACTIVE" -> 4 */
static uint8_t leading_num(const char *s)
{
	return (uint8_t)strtoul(s, NULL, 10);
}

static void copy(char *dst, size_t len, const char *src)
{
	rd_strlcpy(dst, src, len);
}

void rd_gid_decode(struct rdiag_gid *g)
{
	unsigned int w[8];
	int i;

	g->ip[0] = '\0';
	g->ipv4 = false;
	if (sscanf(g->gid, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3], &w[4], &w[5],
		   &w[6], &w[7]) != 8)
		return;
	for (i = 0; i < 8; i++) {
		g->raw[2 * i] = (uint8_t)(w[i] >> 8);
		g->raw[2 * i + 1] = (uint8_t)w[i];
	}
	if (!memcmp(g->raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
		inet_ntop(AF_INET, g->raw + 12, g->ip, sizeof(g->ip));
		g->ipv4 = true;
	} else {
		inet_ntop(AF_INET6, g->raw, g->ip, sizeof(g->ip));
	}
	/* fe80::/10 is link-local: it does not cross an IP router */
	g->routable = g->type == RDIAG_GID_ROCE_V2 &&
		      !(g->raw[0] == 0xfe && (g->raw[1] & 0xc0) == 0x80);
}

static bool gid_is_zero(const char *s)
{
	for (; *s; s++)
		if (*s != '0' && *s != ':')
			return false;
	return true;
}

static int read_gids(struct rdiag_counters *c, const char *dev, struct rdiag_port *p)
{
	char path[PATH_MAX], buf[128];
	struct dirent **l;
	int n, i;

	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/gids", dev,
		    p->port) < 0)
		return 0;
	n = scandir(path, &l, no_dots, numeric_sort);
	if (n <= 0)
		return 0;
	/* a port read a second time (two directories naming one number, "1" and "01") starts
	 * its GID list again: the list of the first was overrun (fuzz_sysfs) */
	free(p->gids);
	p->n_gids = 0;
	p->gids = calloc((size_t)n, sizeof(*p->gids));
	if (!p->gids) {
		free_list(l, n);
		return -ENOMEM;
	}
	for (i = 0; i < n && (!c->max_gids || p->n_gids < c->max_gids); i++) {
		struct rdiag_gid *g = &p->gids[p->n_gids];

		if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/gids/%s",
			    dev, p->port, l[i]->d_name) < 0 ||
		    rd_read_str(path, buf, sizeof(buf)) < 0 || gid_is_zero(buf))
			continue;	/* empty slot */
		memset(g, 0, sizeof(*g));
		g->index = (unsigned int)strtoul(l[i]->d_name, NULL, 10);
		copy(g->gid, sizeof(g->gid), buf);
		/* reading the type of an empty slot fails with EINVAL: that is normal */
		if (rd_path(c, path, sizeof(path),
			    "/sys/class/infiniband/%s/ports/%u/gid_attrs/types/%s", dev, p->port,
			    l[i]->d_name) >= 0 && rd_read_str(path, buf, sizeof(buf)) == 0) {
			if (!strcmp(buf, "RoCE v2"))
				g->type = RDIAG_GID_ROCE_V2;
			else if (!strcmp(buf, "IB/RoCE v1"))
				g->type = RDIAG_GID_IB_ROCE_V1;
		}
		if (rd_path(c, path, sizeof(path),
			    "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%s", dev, p->port,
			    l[i]->d_name) >= 0 && rd_read_str(path, buf, sizeof(buf)) == 0)
			copy(g->ndev, sizeof(g->ndev), buf);
		rd_gid_decode(g);
		if (strcmp(p->link_layer, "Ethernet")) {
			/* an IB GID is subnet prefix + GUID, not an IP address */
			g->ip[0] = '\0';
			g->ipv4 = g->routable = false;
		}
		p->n_gids++;
	}
	free_list(l, n);
	return 0;
}

static void read_netdev(struct rdiag_counters *c, struct rdiag_port *p)
{
	char path[PATH_MAX];
	uint64_t v;

	if (!p->netdev[0])
		return;
	if (rd_path(c, path, sizeof(path), "/sys/class/net/%s/ifindex", p->netdev) >= 0 &&
	    rd_read_u64(path, &v) == 0)
		p->ifindex = (int)v;
	if (rd_path(c, path, sizeof(path), "/sys/class/net/%s/mtu", p->netdev) >= 0 &&
	    rd_read_u64(path, &v) == 0)
		p->mtu = (unsigned int)v;
}

static int read_port(struct rdiag_counters *c, struct rdiag_device *d, struct rdiag_port *p)
{
	char path[PATH_MAX], buf[128];
	uint64_t v;
	size_t i;

#define PORTFILE(f_) (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s", \
				d->name, p->port, f_) >= 0 && rd_read_str(path, buf, sizeof(buf)) == 0)
	if (PORTFILE("state"))
		p->state = leading_num(buf);
	if (PORTFILE("phys_state"))
		p->phys_state = leading_num(buf);
	if (PORTFILE("rate"))
		copy(p->rate, sizeof(p->rate), buf);
	if (PORTFILE("link_layer"))
		copy(p->link_layer, sizeof(p->link_layer), buf);
	/* the kernel prints LIDs in hex ("0x12") */
	if (PORTFILE("lid"))
		rd_parse_hex_u32(buf, &p->lid);
	if (PORTFILE("sm_lid"))
		rd_parse_hex_u32(buf, &p->sm_lid);
	if (PORTFILE("hw_counters/lifespan") && rd_parse_u64(buf, &v) == 0)
		p->hw_lifespan_ms = (uint32_t)v;
#undef PORTFILE
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/counters", d->name,
		    p->port) >= 0)
		p->has_pma = rd_is_dir(path);
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/hw_counters",
		    d->name, p->port) >= 0)
		p->has_hw = rd_is_dir(path);
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/cm_tx_msgs",
		    d->name, p->port) >= 0)
		p->has_cm = rd_is_dir(path);
	if (!p->has_cm && rd_path(c, path, sizeof(path), "/sys/class/infiniband_cm/%s/%u",
				  d->name, p->port) >= 0)
		p->has_cm = rd_is_dir(path);
	if (read_gids(c, d->name, p) < 0)
		return -ENOMEM;
	/* the netdev: first GID's ndev (RoCE), else rxe's parent file */
	for (i = 0; i < p->n_gids && !p->netdev[0]; i++)
		copy(p->netdev, sizeof(p->netdev), p->gids[i].ndev);
	if (!p->netdev[0] && rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/parent",
				     d->name) >= 0 && rd_read_str(path, buf, sizeof(buf)) == 0)
		copy(p->netdev, sizeof(p->netdev), buf);
	read_netdev(c, p);
	return 0;
}

static void read_device(struct rdiag_counters *c, struct rdiag_device *d)
{
	char path[PATH_MAX], buf[256], link[PATH_MAX];
	const char *s;
	ssize_t l;

	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/node_type", d->name) >= 0 &&
	    rd_read_str(path, buf, sizeof(buf)) == 0) {
		char *t;

		s = strchr(buf, ':');
		s = s ? s + 1 : buf;
		while (*s == ' ')
			s++;
		copy(d->node_type, sizeof(d->node_type), s);
		for (t = d->node_type; *t; t++)
			*t = (char)(*t >= 'A' && *t <= 'Z' ? *t - 'A' + 'a' : *t);
	}
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/node_guid", d->name) >= 0 &&
	    rd_read_str(path, buf, sizeof(buf)) == 0)
		copy(d->node_guid, sizeof(d->node_guid), buf);
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/fw_ver", d->name) >= 0 &&
	    rd_read_str(path, buf, sizeof(buf)) == 0)
		copy(d->fw_ver, sizeof(d->fw_ver), buf);
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/hw_counters", d->name) >= 0)
		d->has_dev_hw = rd_is_dir(path);
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/device/driver",
		    d->name) >= 0 && (l = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[l] = '\0';
		s = strrchr(link, '/');
		copy(d->driver, sizeof(d->driver), s ? s + 1 : link);
		/* the PCI driver of mlx5 RDMA is mlx5_core; keep the catalogue's name */
		if (!strncmp(d->driver, "mlx5", 4))
			copy(d->driver, sizeof(d->driver), "mlx5");
	}
	if (!d->driver[0])
		copy(d->driver, sizeof(d->driver), rd_guess_driver(d->name));
}

int rd_sysfs_device_check(struct rdiag_counters *c, const char *name, char *path,
			  const char **why)
{
	struct stat st;

	*why = NULL;
	if (rd_path(c, path, PATH_MAX, "/sys/class/infiniband/%s", name) < 0)
		return -ENAMETOOLONG;
	/* IB_DEVICE_NAME_MAX is 64 with the NUL: a longer name would be cut, and the cut
	 * name has no counters */
	if (strlen(name) >= sizeof(((struct rdiag_device *)0)->name)) {
		*why = "device name of 64 bytes or more";
		return -ENAMETOOLONG;
	}
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return 0;
}

int rd_sysfs_port_check(const char *name, uint32_t *port, const char **why)
{
	int ret = rd_parse_port(name, port);

	*why = ret == -ERANGE ? "port number out of range" : ret ? "not a port number" : NULL;
	return ret;
}

/* the ports of one device: each entry of ports/ whose name is a port number and that is a
 * directory; the others are listed as skipped */
static int read_ports(struct rdiag_counters *c, struct rdiag_devices *ds,
		      struct rdiag_device *d)
{
	char path[PATH_MAX];
	struct dirent **pl;
	struct stat st;
	const char *why;
	uint32_t port;
	int np, j, ret = 0, err;

	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports", d->name) < 0)
		return 0;
	np = scandir(path, &pl, no_dots, alphasort);
	for (j = 0; j < np && !ret; j++) {
		struct rdiag_port *p;

		if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%s", d->name,
			    pl[j]->d_name) < 0)
			continue;
		err = rd_sysfs_port_check(pl[j]->d_name, &port, &why);
		if (!err && stat(path, &st) < 0)
			err = -errno;
		else if (!err && !S_ISDIR(st.st_mode))
			err = -ENOTDIR;
		if (err == -ENOENT)
			continue;	/* vanished */
		if (err) {
			ret = rd_devices_skip(ds, path, err, why);
			continue;
		}
		p = rd_device_port(d, port);
		ret = p ? read_port(c, d, p) : -ENOMEM;
	}
	if (np >= 0)
		free_list(pl, np);
	return ret;
}

int rd_sysfs_devices(struct rdiag_counters *c, struct rdiag_devices *ds)
{
	char path[PATH_MAX];
	struct dirent **l;
	const char *why;
	int n, i, ret = 0, err;

	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband") < 0)
		return -ENAMETOOLONG;
	n = scandir(path, &l, no_dots, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (i = 0; i < n && !ret; i++) {
		struct rdiag_device *d;

		err = rd_sysfs_device_check(c, l[i]->d_name, path, &why);
		if (err == -ENOENT)
			continue;	/* unplugged since the listing */
		if (err) {
			ret = rd_devices_skip(ds, path, err, why);
			continue;
		}
		d = rd_devices_get(ds, l[i]->d_name);
		if (!d) {
			ret = -ENOMEM;
			break;
		}
		read_device(c, d);
		ret = read_ports(c, ds, d);
	}
	free_list(l, n);
	return ret;
}

struct dent {
	char *name;
	ino_t ino;
	unsigned char type;
	struct rd_fdhint hint;		/* where fdcache.c keeps this file open */
};

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

/* Directory listings, cached per handle and revalidated with one stat().  Only for the
 * counter directories (ports/N, hw_counters, counters, cm_*): their entries are fixed for
 * the life of a device, a re-created device has new inodes, and a removed one fails the
 * stat; a regular file system (the fixtures) also changes the mtime when a file is added
 * or removed.  kernfs does not always update a directory's mtime when entries come and go,
 * so /sys/class/infiniband and ports/ are listed afresh every time (hotplug).  Snapshots of
 * many ports then cost one stat per counter directory instead of open/getdents/close. */
struct rd_dirent_cache {
	char *path;
	uint64_t hash;			/* of path: the lookup compares it before the string */
	ino_t ino;
	struct timespec mtime;
	struct dent *l;
	size_t n;
	char *names;
	struct rd_dirent_cache *next;
};

void rd_dircache_free(struct rdiag_counters *c)
{
	struct rd_dirent_cache *e = c->dircache, *nx;

	for (; e; e = nx) {
		nx = e->next;
		free(e->path);
		free(e->l);
		free(e->names);
		free(e);
	}
	c->dircache = NULL;
}

static int read_listing(const char *path, struct rd_dirent_cache *e)
{
	struct dent *v = NULL, *nv;
	size_t n = 0, cap = 0, nb = 0, nbcap = 0, i;
	char *names = NULL, *nn;
	struct dirent *d;
	DIR *dir = opendir(path);

	if (!dir)
		return errno == ENOTDIR ? -ENOENT : -errno;
	while ((d = readdir(dir))) {
		size_t l = strlen(d->d_name) + 1;

		if (d->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (nb + l > nbcap) {
			nbcap = (nb + l) * 2 + 1024;
			nn = realloc(names, nbcap);
			if (!nn)
				goto nomem;
			names = nn;
		}
		memcpy(names + nb, d->d_name, l);
		v[n].name = (char *)(uintptr_t)nb;	/* an offset until names stops moving */
		v[n].ino = d->d_ino;
		v[n].type = d->d_type;
		v[n].hint.slot = v[n].hint.serial = 0;
		nb += l;
		n++;
	}
	closedir(dir);
	for (i = 0; i < n; i++)
		v[i].name = names + (uintptr_t)v[i].name;
	if (n)
		qsort(v, n, sizeof(*v), dent_cmp);
	free(e->l);
	free(e->names);
	e->l = v;
	e->n = n;
	e->names = names;
	return 0;
nomem:
	closedir(dir);
	free(v);
	free(names);
	return -ENOMEM;
}

/* the sorted entries of PATH (no dot files); valid until the next call for the same path */
static int list_path(struct rdiag_counters *c, const char *path, struct dent **out,
		     size_t *nout, bool fresh)
{
	struct rd_dirent_cache *e;
	uint64_t h = rd_fdcache_dirhash(path);
	struct stat st;
	int ret;

	if (stat(path, &st) < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOENT;
	/* the counter paths share a long prefix: strcmp() on every entry cost more than the
	 * hash */
	for (e = c->dircache; e; e = e->next)
		if (e->hash == h && !strcmp(e->path, path))
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e || !(e->path = strdup(path))) {
			free(e);
			return -ENOMEM;
		}
		e->next = c->dircache;
		c->dircache = e;
		e->ino = 0;
		e->hash = h;
	}
	if (fresh || !e->l || e->ino != st.st_ino || e->mtime.tv_sec != st.st_mtim.tv_sec ||
	    e->mtime.tv_nsec != st.st_mtim.tv_nsec) {
		ret = read_listing(path, e);
		if (ret < 0)
			return ret;
		e->ino = st.st_ino;
		e->mtime = st.st_mtim;
	}
	*out = e->l;
	*nout = e->n;
	return 0;
}

int rd_sysfs_list(struct rdiag_counters *c, const char *path, const char *const **names,
		  size_t *n, bool fresh)
{
	struct dent *l;
	size_t i;
	int ret = list_path(c, path, &l, n, fresh);

	if (ret < 0)
		return ret;
	/* owned by the handle, not a thread-local static: a collector thread that exits
	 * would leak that */
	if (*n > c->names_cap) {
		const char **nb = realloc(c->names, *n * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		c->names = nb;
		c->names_cap = *n;
	}
	for (i = 0; i < *n; i++)
		c->names[i] = l[i].name;
	*names = c->names;
	return 0;
}

int rd_sysfs_port_dirs(struct rdiag_counters *c, const char *dev, uint32_t port,
		       unsigned int *mask)
{
	char path[PATH_MAX];
	struct dent *l;
	size_t n, i;
	int ret;

	*mask = 0;
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u", dev, port) < 0)
		return -ENAMETOOLONG;
	ret = list_path(c, path, &l, &n, false);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		if (!strcmp(l[i].name, "hw_counters"))
			*mask |= RD_PORT_HW;
		else if (!strcmp(l[i].name, "counters"))
			*mask |= RD_PORT_PMA;
		else if (!strncmp(l[i].name, "cm_", 3))
			*mask |= RD_PORT_CM;
	}
	return 0;
}

/* Read every counter file of one directory.  The listing decides what exists (a counter
 * that vanished is not read); values come through the kept-open descriptors of fdcache.c. */
int rd_sysfs_sample_dir(struct rdiag_counters *c, struct rd_sampvec *v, const char *dir,
			const char *dev, uint32_t port, enum rdiag_origin origin,
			const char *prefix, uint32_t cache_ms, const char *driver)
{
	const struct rdiag_catalog_entry **slot, *cat;
	struct dent *l = NULL;
	char name[512], buf[64];
	uint64_t val, dh = rd_fdcache_dirhash(dir), now;
	size_t n = 0, i;
	ssize_t r;
	int dfd = -1, ret;

	/* the descriptor of the directory is opened only when a file is not cached yet */
	ret = list_path(c, dir, &l, &n, false);
	if (ret < 0)
		return ret;
	/* one timestamp for the directory: its files are read within microseconds of it, and
	 * a clock read per counter was a measurable part of a snapshot */
	now = rd_mono_ns();
	dev = rd_samples_dev(v->set, dev);
	if (!dev)
		return -ENOMEM;
	/* hw_counters/lifespan: how old a value may be (ms) */
	for (i = 0; i < n; i++)
		if (l[i].name[0] == 'l' && !strcmp(l[i].name, "lifespan")) {
			r = rd_fdcache_read(c, &dfd, dir, dh, l[i].name, l[i].ino, buf,
					    sizeof(buf) - 1, &slot, &l[i].hint);
			if (r >= 0) {
				buf[r] = '\0';
				if (rd_parse_u64(buf, &val) == 0)
					cache_ms = (uint32_t)val;
			}
		}
	for (i = 0; i < n && !ret; i++) {
		int err = 0;

		if (l[i].type == DT_DIR || (l[i].name[0] == 'l' && !strcmp(l[i].name, "lifespan")))
			continue;
		val = 0;
		/* readdir already says what a FIFO, socket or device is: not even opened */
		slot = NULL;
		if (l[i].type == DT_FIFO || l[i].type == DT_SOCK || l[i].type == DT_CHR ||
		    l[i].type == DT_BLK)
			r = -EBADFD;
		else
			r = rd_fdcache_read(c, &dfd, dir, dh, l[i].name, l[i].ino, buf,
					    sizeof(buf) - 1, &slot, &l[i].hint);
		if (r == -ENOENT)
			continue;	/* vanished between readdir and open */
		if (r == -EINTR) {
			/* a signal came while a read blocked (a hung file system): the caller
			 * is asked to stop, and the next file could block as long */
			ret = -EINTR;
			break;
		}
		if (r < 0) {
			err = (int)r;
		} else {
			buf[r] = '\0';
			err = rd_parse_u64(buf, &val);
			if (err)
				val = 0;
		}
		if (prefix)
			snprintf(name, sizeof(name), "%s%s", prefix, l[i].name);
		/* the catalogue lookup is done once per kept-open file, not per snapshot */
		if (slot && *slot != &rd_cat_unset) {
			cat = *slot;
		} else {
			cat = rdiag_catalog_lookup(prefix ? name : l[i].name, driver, origin);
			if (slot)
				*slot = cat;
		}
		ret = rd_samples_add_cat(v->set, dev, port, prefix ? name : l[i].name, val, err,
					 origin, now, cache_ms, cat);
		if (!ret && (err == -EINVAL || err == -ERANGE)) {
			while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' ' ||
					 buf[r - 1] == '\t'))
				buf[--r] = '\0';
			ret = rd_samples_set_text(v->set, buf);
		}
	}
	if (dfd >= 0)
		close(dfd);
	return ret;
}
