/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor env: the port, GID index and traffic class a job should use on this host.
 *
 * The GID is the RoCE v2 entry of the address (gid_attrs/types says "RoCE v2", not a link-local
 * fe80:: one): NCCL, UCX and libfabric's verbs provider all take an index into the GID table,
 * and index 0 (link-local, often RoCE v1) is what they use when it is not set.  The traffic
 * class is rdma_cm's configfs default_roce_tos of the port, 0 when its configfs group does not
 * exist (the kernel's default).  Everything is read from sysfs and configfs under
 * RDMADIAG_SYSFS_ROOT; no device is opened. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>

#include "internal.h"
#include "rdmadiag/counters.h"

static bool is_roce(const struct rdiag_port *p)
{
	return strcmp(p->link_layer, "Ethernet") == 0;
}

/* does any GID of the port carry addr (of any type)? */
static bool carries(const struct rdiag_port *p, const char *addr)
{
	size_t i;

	for (i = 0; i < p->n_gids; i++)
		if (!strcmp(p->gids[i].ip, addr))
			return true;
	return false;
}

static void read_configfs(struct rdiag_doctor *d, struct rdiag_doc_env *e)
{
	char path[512], buf[32];
	FILE *f;

	rd_doc_path(d, path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
		    e->dev, e->port);
	f = fopen(path, "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			long v = strtol(buf, NULL, 0);

			if (v >= 0 && v <= 255) {
				e->tos = (int)v;
				e->tos_from_configfs = true;
			}
		}
		fclose(f);
	}
	rd_doc_path(d, path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
		    e->dev, e->port);
	f = fopen(path, "re");
	if (f) {
		if (fgets(e->roce_mode, sizeof(e->roce_mode), f))
			e->roce_mode[strcspn(e->roce_mode, "\n")] = 0;
		else
			e->roce_mode[0] = 0;
		fclose(f);
	}
}

static void fill(struct rdiag_doctor *d, struct rdiag_doc_env *e, const struct rdiag_device *dev,
		 const struct rdiag_port *p, const struct rdiag_gid *g)
{
	snprintf(e->dev, sizeof(e->dev), "%s", dev->name);
	e->port = p->port;
	snprintf(e->netdev, sizeof(e->netdev), "%s", p->netdev);
	e->roce = is_roce(p);
	if (g) {
		e->gid_index = (int)g->index;
		snprintf(e->gid, sizeof(e->gid), "%s", g->gid);
		snprintf(e->addr, sizeof(e->addr), "%s", g->ip);
	}
	if (e->roce)
		read_configfs(d, e);
}

static bool is_addr(const char *s)
{
	unsigned char buf[16];

	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

int rdiag_doctor_env(struct rdiag_doctor *d, const char *target, struct rdiag_doc_env *e)
{
	const struct rdiag_devices *devs = NULL;
	bool addr = target && is_addr(target), found_port = false;
	size_t i, j;
	int ret;

	if (!d || !e)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	ret = rd_doc_devices(d, NULL, &devs);
	if (ret || !devs || !devs->n) {
		rd_doc_err(d, "no RDMA device under %s/sys/class/infiniband", d->root);
		return -ENODEV;
	}
	for (i = 0; i < devs->n; i++) {
		const struct rdiag_device *dev = &devs->dev[i];

		for (j = 0; j < dev->n_ports; j++) {
			const struct rdiag_port *p = &dev->ports[j];
			const struct rdiag_gid *g;

			if (target && !addr && strcmp(p->netdev, target))
				continue;		/* another netdev */
			if (addr && !carries(p, target))
				continue;
			if (!target && p->state != 4)
				continue;		/* the default: an ACTIVE port */
			found_port = true;
			if (!is_roce(p)) {
				if (target && addr)
					continue;	/* an address is RoCE's */
				fill(d, e, dev, p, NULL);
				return 0;		/* InfiniBand: the port GID, index 0 */
			}
			g = rd_desc_v2_gid(p, addr ? target : NULL);
			if (!g) {
				if (target) {
					fill(d, e, dev, p, NULL);
					rd_doc_err(d, "%s/%u has no RoCE v2 GID of %s (only RoCE v1 or link-local entries): its jobs would fall back to GID index 0",
						   dev->name, p->port, addr ? target : "an address");
					return -ENOENT;
				}
				continue;
			}
			fill(d, e, dev, p, g);
			return 0;
		}
	}
	if (!target && found_port) {
		rd_doc_err(d, "no ACTIVE port has a routable RoCE v2 GID (only RoCE v1 or link-local entries): jobs would fall back to GID index 0");
		return -ENOENT;
	}
	if (!target)
		rd_doc_err(d, "no RDMA port is ACTIVE");
	else if (addr)
		rd_doc_err(d, "no RDMA port's netdev has the address %s (no GID carries it)", target);
	else
		rd_doc_err(d, "no RDMA port on a netdev named '%s'", target);
	return -ENODEV;
}

unsigned int rdiag_doctor_env_for(const char *name)
{
	if (!strcasecmp(name, "nccl"))
		return RDIAG_ENV_NCCL;
	if (!strcasecmp(name, "ucx"))
		return RDIAG_ENV_UCX;
	if (!strcasecmp(name, "libfabric"))
		return RDIAG_ENV_LIBFABRIC;
	if (!strcasecmp(name, "all"))
		return RDIAG_ENV_ALL;
	return 0;
}

/* one variable, when there is room for it */
static void env_var(struct rdiag_doc_env_var *v, size_t max, size_t *n, const char *name,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void env_var(struct rdiag_doc_env_var *v, size_t max, size_t *n, const char *name,
		    const char *fmt, ...)
{
	va_list ap;

	if (*n >= max)
		return;
	v[*n].name = name;
	va_start(ap, fmt);
	vsnprintf(v[*n].value, sizeof(v[*n].value), fmt, ap);
	va_end(ap);
	(*n)++;
}

size_t rdiag_doctor_env_vars(const struct rdiag_doc_env *e, unsigned int mask,
			     struct rdiag_doc_env_var *v, size_t max)
{
	size_t n = 0;

	if (mask & RDIAG_ENV_NCCL) {
		env_var(v, max, &n, "NCCL_IB_HCA", "%s:%u", e->dev, e->port);
		if (e->roce) {
			env_var(v, max, &n, "NCCL_IB_GID_INDEX", "%d", e->gid_index);
			env_var(v, max, &n, "NCCL_IB_TC", "%d", e->tos);
		}
		if (e->netdev[0])
			env_var(v, max, &n, "NCCL_SOCKET_IFNAME", "%s", e->netdev);
	}
	if (mask & RDIAG_ENV_UCX) {
		env_var(v, max, &n, "UCX_NET_DEVICES", "%s:%u", e->dev, e->port);
		if (e->roce) {
			env_var(v, max, &n, "UCX_IB_GID_INDEX", "%d", e->gid_index);
			env_var(v, max, &n, "UCX_IB_TRAFFIC_CLASS", "%d", e->tos);
		}
	}
	if (mask & RDIAG_ENV_LIBFABRIC) {
		env_var(v, max, &n, "FI_PROVIDER", "verbs");
		env_var(v, max, &n, "FI_VERBS_DEVICE_NAME", "%s", e->dev);
		if (e->netdev[0])
			env_var(v, max, &n, "FI_VERBS_IFACE", "%s", e->netdev);
		if (e->roce)
			env_var(v, max, &n, "FI_VERBS_GID_IDX", "%d", e->gid_index);
	}
	return n;
}
