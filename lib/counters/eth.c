/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Ethernet statistics origin (RDIAG_ORIG_ETH): each port's netdev's ethtool -S set,
 * read through the reader the caller set (rdiag_counters_set_eth; lib/fabric has one) and
 * added after the port's RDMA counters. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void rd_eth_free(struct rdiag_counters *c)
{
	size_t i;

	for (i = 0; i < c->n_eth_select; i++)
		free(c->eth_select[i]);
	free(c->eth_select);
	c->eth_select = NULL;
	c->n_eth_select = 0;
	c->eth_on = false;
}

int rdiag_counters_set_eth(struct rdiag_counters *c, const struct rdiag_eth_reader *r,
			   const char *const *select, size_t n)
{
	size_t i;

	rd_eth_free(c);
	if (!r)
		return 0;
	if (select) {
		c->eth_select = calloc(n ? n : 1, sizeof(*c->eth_select));
		if (!c->eth_select)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			c->eth_select[i] = strdup(select[i]);
			if (!c->eth_select[i]) {
				c->n_eth_select = i;
				rd_eth_free(c);
				return -ENOMEM;
			}
		}
		c->n_eth_select = n;
	}
	c->eth = *r;
	c->eth_on = true;
	return 0;
}

/* the port's netdev as discovery finds it (sysfs.c read_port): the first GID that has one
 * (gid_attrs/ndevs/N), else the device's parent (rxe); 0 or -ENOENT */
static int port_netdev(struct rdiag_counters *c, const char *dev, uint32_t port, char *buf,
		       size_t len)
{
	const char *const *l;
	char path[PATH_MAX], dir[PATH_MAX];
	size_t n, i;

	if (rd_path(c, dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs",
		    dev, port) >= 0 && rd_sysfs_list(c, dir, &l, &n, true) == 0) {
		/* names are sorted as strings ("10" before "2"): the lowest index is wanted */
		char one[64];
		bool found = false;
		unsigned long best = 0;

		for (i = 0; i < n; i++) {
			char *end;
			unsigned long v = strtoul(l[i], &end, 10);

			if (*end || end == l[i] || (found && v >= best) ||
			    (size_t)snprintf(path, sizeof(path), "%.4000s/%.80s", dir, l[i]) >=
			    sizeof(path) || rd_read_str(path, one, sizeof(one)) < 0 || !one[0])
				continue;
			rd_strlcpy(buf, one, len);
			best = v;
			found = true;
		}
		if (found)
			return 0;
	}
	if (rd_path(c, path, sizeof(path), "/sys/class/infiniband/%s/parent", dev) >= 0 &&
	    rd_read_str(path, buf, len) == 0 && buf[0])
		return 0;
	return -ENOENT;
}

struct eth_add {
	struct rdiag_counters *c;
	struct rdiag_samples *set;
	const char *dev, *netdev;
	uint32_t port;
};

static bool eth_wanted(const struct rdiag_counters *c, const struct rdiag_sample *s)
{
	size_t i;

	if (!c->eth_select)
		return true;
	for (i = 0; i < c->n_eth_select; i++)
		if (rdiag_sample_match(c->eth_select[i], s, 0))
			return true;
	return false;
}

static int eth_add(const struct rdiag_eth_stat *st, void *arg)
{
	struct eth_add *a = arg;
	struct rdiag_sample probe;

	memset(&probe, 0, sizeof(probe));
	probe.name = st->name;
	probe.origin = RDIAG_ORIG_ETH;
	probe.eth_concept = st->concept;
	probe.eth_prio = st->prio;
	if (!st->name || !eth_wanted(a->c, &probe))
		return 0;
	if (rd_samples_add_cat(a->set, a->dev, a->port, st->name, st->value, 0, RDIAG_ORIG_ETH,
			       st->ts_ns, 0, NULL) < 0)
		return -ENOMEM;
	return rd_samples_set_eth(a->set, a->netdev, st->concept, st->prio, st->cat);
}

int rd_eth_sample_port(struct rdiag_counters *c, struct rdiag_samples *set, const char *dev,
		       uint32_t port)
{
	char netdev[64], path[PATH_MAX];
	struct eth_add a;
	size_t before = set->n;
	const char *why;
	int ret;

	if (!c->eth_on || !port || port_netdev(c, dev, port, netdev, sizeof(netdev)) < 0)
		return 0;
	a.c = c;
	a.set = set;
	a.dev = rd_samples_dev(set, dev);
	a.netdev = netdev;
	a.port = port;
	if (!a.dev)
		return -ENOMEM;
	ret = c->eth.read(c->eth.ctx, netdev, eth_add, &a);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		/* a read that failed part way adds nothing: a set has all of a netdev's
		 * statistics or none */
		set->n = before;
		why = c->eth.errmsg ? c->eth.errmsg(c->eth.ctx) : NULL;
		rd_path(c, path, sizeof(path), "/sys/class/net/%s", netdev);
		return rd_samples_skip_why(set, path, ret, why && *why ? why : NULL);
	}
	return 0;
}
