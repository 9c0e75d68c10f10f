/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor compare: the "host" objects of many hosts' 'rdmadoctor local -j', property by
 * property: the majority value and the hosts that differ, ranked by how likely the difference
 * is to break RDMA.
 *
 * Each document is read by the one parser of the host description (format.c, the object a
 * listener also serves).  A property is a scalar member of "host" ("host.kernel")
 * or of one of its ports ("mlx5_0/1.gid_index"); members that name the host itself
 * (hostname, gid_addr, addrs) are not compared.  Each port also gives "mlx5_0/1.present": a
 * host without the port differs there, once, and is left out of the port's other fields.
 * The RoCE mode compared is the one in effect: configfs's, or the kernel's default (RoCE v2)
 * where a host has no configfs group, since absent there means the default.
 * Values are kept as strings.  Each property holds its (host, value) pairs; run()
 * sorts them by value to count the majority (absent counts as a value), so N hosts and P
 * properties cost O(P N log N): 2000 hosts in a few milliseconds (make bench). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "open_error.h"
#include "rdmadiag/describe.h"

struct impact_row {
	const char *field;
	enum rdiag_cmp_impact impact;
	const char *why;
};

static const struct impact_row impacts[] = {
	{ "present", RDIAG_CMP_BREAKS, "the RDMA port does not exist on these hosts: a job-wide "
	  "NCCL_IB_HCA or UCX_NET_DEVICES names a device they lack" },
	{ "state", RDIAG_CMP_BREAKS, "a port that is not ACTIVE carries no RDMA traffic" },
	{ "physical_state", RDIAG_CMP_BREAKS, "no physical link: the port cannot become ACTIVE" },
	{ "link_layer", RDIAG_CMP_BREAKS, "InfiniBand and Ethernet (RoCE) ports cannot talk" },
	{ "roce_mode", RDIAG_CMP_BREAKS, "rdma_cm's default RoCE mode: a RoCE v1 end and a v2-only "
	  "end do not connect" },
	{ "gid_index", RDIAG_CMP_BREAKS, "a job-wide GID index (NCCL_IB_GID_INDEX, "
	  "UCX_IB_GID_INDEX) selects another GID on these hosts, often RoCE v1 or link-local: "
	  "their connections time out (macvlan containers are the usual cause)" },
	{ "mtu", RDIAG_CMP_LARGE, "the netdev MTU bounds the RoCE path MTU: messages above the "
	  "smaller end's MTU are dropped" },
	{ "active_mtu", RDIAG_CMP_LARGE, "the port's active MTU bounds the path MTU both ends "
	  "agree on" },
	{ "tos", RDIAG_CMP_LARGE, "rdma_cm's default ToS: traffic lands in another priority, "
	  "outside PFC's lossless class or the ECN marking, and drops under load" },
	{ "dscp", RDIAG_CMP_LARGE, "RoCE traffic carries another DSCP: the switches put it in "
	  "another class, perhaps not the lossless one" },
	{ "priority", RDIAG_CMP_LARGE, "RoCE traffic rides another priority: PFC and ECN set "
	  "for one priority do not cover it" },
	{ "pfc", RDIAG_CMP_LARGE, "priority flow control differs: the lossless class is lossy "
	  "on these hosts" },
	{ "ecn", RDIAG_CMP_LARGE, "ECN / congestion control differs: these hosts do not slow down "
	  "on congestion marks" },
	{ "rate", RDIAG_CMP_DEGRADES, "a slower link (or fewer lanes) slows every collective "
	  "to its speed" },
	{ "memlock", RDIAG_CMP_DEGRADES, "a low memlock limit makes large registrations fail "
	  "with ENOMEM" },
	{ "netdev", RDIAG_CMP_DEGRADES, "a job-wide interface name (NCCL_SOCKET_IFNAME, "
	  "FI_VERBS_IFACE) does not exist on these hosts" },
	{ "driver", RDIAG_CMP_INFO, "another driver: features and counters differ" },
	{ "fw_ver", RDIAG_CMP_INFO, "another firmware version: known bugs and fixes differ" },
	{ "kernel", RDIAG_CMP_INFO, "another kernel: the RDMA core and driver differ" },
	{ "rdmadiag_version", RDIAG_CMP_INFO, "another rdmadiag: its description may miss "
	  "members the others have" },
	{ "max_mtu", RDIAG_CMP_INFO, "the port's largest MTU differs: another device or "
	  "firmware" },
	{ "tos_from_configfs", RDIAG_CMP_INFO, "the default ToS comes from configfs on some "
	  "hosts, from rdma_cm's built-in 0 on others" },
};

const char *rdiag_cmp_impact_name(enum rdiag_cmp_impact i)
{
	switch (i) {
	case RDIAG_CMP_BREAKS: return "breaks";
	case RDIAG_CMP_LARGE: return "large_messages";
	case RDIAG_CMP_DEGRADES: return "degrades";
	case RDIAG_CMP_INFO: return "info";
	}
	return NULL;
}

struct val {
	size_t host;
	char *value;
};

struct prop {
	struct rdiag_desc_cmp_prop pub;
	char *name;
	struct val *vals;
	size_t nvals, cap;
	struct rdiag_desc_cmp_host *differ;
	struct prop *port;	/* the port's "present" property: hosts without the port are
				 * left out of its fields (they differ once, there) */
	struct prop *hnext;
};

#define NBUCKETS 1024

struct rdiag_describe_compare {
	char **hosts;
	size_t nhosts, hcap;
	struct prop **props;
	size_t nprops, pcap;
	struct prop *bucket[NBUCKETS];
	char errmsg[256];
};

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % NBUCKETS;
}

/* why the last failed rdiag_describe_compare_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_describe_compare_open(struct rdiag_describe_compare **out,
				const struct rdiag_describe_compare_opts *opts)
{
	if (!out) {
		rd_open_error_set(&open_err, "rdiag_describe_compare_open: no place for the handle");
		return -EINVAL;
	}
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

static void free_results(struct rdiag_describe_compare *c)
{
	size_t i;

	for (i = 0; i < c->nprops; i++) {
		free(c->props[i]->differ);
		c->props[i]->differ = NULL;
	}
}

void rdiag_describe_compare_close(struct rdiag_describe_compare *c)
{
	size_t i, j;

	if (!c)
		return;
	free_results(c);
	for (i = 0; i < c->nprops; i++) {
		for (j = 0; j < c->props[i]->nvals; j++)
			free(c->props[i]->vals[j].value);
		free(c->props[i]->vals);
		free(c->props[i]->name);
		free(c->props[i]);
	}
	free(c->props);
	for (i = 0; i < c->nhosts; i++)
		free(c->hosts[i]);
	free(c->hosts);
	free(c);
}

const char *rdiag_describe_compare_errmsg(const struct rdiag_describe_compare *c)
{
	return c ? c->errmsg : rd_open_error_get(&open_err);
}

size_t rdiag_describe_compare_nhosts(const struct rdiag_describe_compare *c)
{
	return c->nhosts;
}

static struct prop *prop_get(struct rdiag_describe_compare *c, const char *name, const char *field)
{
	unsigned int h = hash(name);
	struct prop *p;
	size_t i;

	for (p = c->bucket[h]; p; p = p->hnext)
		if (!strcmp(p->name, name))
			return p;
	if (c->nprops == c->pcap) {
		size_t n = c->pcap ? 2 * c->pcap : 64;
		struct prop **np = realloc(c->props, n * sizeof(*np));

		if (!np)
			return NULL;
		c->props = np;
		c->pcap = n;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name))) {
		free(p);
		return NULL;
	}
	p->pub.name = p->name;
	p->pub.field = p->name + (field - name);
	p->pub.impact = RDIAG_CMP_INFO;
	p->pub.why = "differs between hosts";
	for (i = 0; i < sizeof(impacts) / sizeof(impacts[0]); i++)
		if (!strcmp(field, impacts[i].field)) {
			p->pub.impact = impacts[i].impact;
			p->pub.why = impacts[i].why;
		}
	p->hnext = c->bucket[h];
	c->bucket[h] = p;
	c->props[c->nprops++] = p;
	return p;
}

static int add_pair(struct rdiag_describe_compare *c, const char *prefix, const char *key,
		    const char *value, struct prop *port, struct prop **out)
{
	char name[256];
	struct prop *p;
	size_t off;

	off = (size_t)snprintf(name, sizeof(name), "%s.", prefix);
	if (off >= sizeof(name))
		return 0;
	snprintf(name + off, sizeof(name) - off, "%s", key);
	p = prop_get(c, name, name + off);
	if (!p)
		return -ENOMEM;
	p->port = port;
	if (out)
		*out = p;
	if (p->nvals && p->vals[p->nvals - 1].host == c->nhosts)
		return 0;	/* a duplicate port in one document: the first counts */
	if (p->nvals == p->cap) {
		size_t n = p->cap ? 2 * p->cap : 16;
		struct val *nv = realloc(p->vals, n * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		p->vals = nv;
		p->cap = n;
	}
	p->vals[p->nvals].host = c->nhosts;
	p->vals[p->nvals].value = strdup(value);
	if (!p->vals[p->nvals].value)
		return -ENOMEM;
	p->nvals++;
	return 0;
}

/* a member that is known ("" and -1 are not) */
static int add_str(struct rdiag_describe_compare *c, const char *prefix, const char *key,
		   const char *value, struct prop *port)
{
	return value[0] ? add_pair(c, prefix, key, value, port, NULL) : 0;
}

static int add_int(struct rdiag_describe_compare *c, const char *prefix, const char *key, long v,
		   struct prop *port)
{
	char buf[24];

	if (v < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%ld", v);
	return add_pair(c, prefix, key, buf, port, NULL);
}

/* the RoCE mode rdma_cm uses on the port: configfs's default_roce_mode, else the kernel's
 * default (RoCE v2, cma_add_one's preferred type, on every port that supports it); "" for a
 * port that is not RoCE (tos -1: describe.c fills tos for every RoCE port).  A configfs
 * group made on some hosts only (to set the default ToS) is no difference in the mode. */
static const char *roce_mode(const struct rd_desc_port *p)
{
	return p->roce_mode[0] ? p->roce_mode : p->tos >= 0 ? "RoCE v2" : "";
}

/* every compared member of one port, in the order of the host object */
static int add_port(struct rdiag_describe_compare *c, const struct rd_desc_port *p)
{
	struct prop *present = NULL;
	char pre[96];
	int ret;

	snprintf(pre, sizeof(pre), "%s/%u", p->dev, p->port);
	ret = add_pair(c, pre, "present", "yes", NULL, &present);
	if (!ret)
		ret = add_str(c, pre, "state", p->state, present) ?:
		      add_str(c, pre, "physical_state", p->phys_state, present) ?:
		      add_str(c, pre, "link_layer", p->link_layer, present) ?:
		      add_str(c, pre, "netdev", p->netdev, present) ?:
		      add_int(c, pre, "mtu", p->mtu ? (long)p->mtu : -1, present) ?:
		      add_int(c, pre, "active_mtu", p->active_mtu ? (long)p->active_mtu : -1, present) ?:
		      add_int(c, pre, "max_mtu", p->max_mtu ? (long)p->max_mtu : -1, present) ?:
		      add_str(c, pre, "rate", p->rate, present) ?:
		      add_str(c, pre, "driver", p->driver, present) ?:
		      add_str(c, pre, "fw_ver", p->fw, present) ?:
		      add_int(c, pre, "gid_index", p->gid_index, present) ?:
		      add_int(c, pre, "tos", p->tos, present) ?:
		      add_str(c, pre, "tos_from_configfs", p->tos < 0 ? "" :
			      p->tos_configfs ? "true" : "false", present) ?:
		      add_str(c, pre, "roce_mode", roce_mode(p), present) ?:
		      add_int(c, pre, "dscp", p->dscp, present) ?:
		      add_int(c, pre, "priority", p->prio, present) ?:
		      add_str(c, pre, "pfc", p->pfc, present) ?:
		      add_str(c, pre, "ecn", p->ecn, present);
	return ret;
}

/* one host's description (format.c's parser); its name from hostname, else name */
static int add_host(struct rdiag_describe_compare *c, const struct rd_desc *h, const char *name)
{
	char *hname = strdup(h->host[0] ? h->host : name ? name : "?");
	size_t i;
	int ret;

	if (!hname)
		return -ENOMEM;
	if (c->nhosts == c->hcap) {
		size_t n = c->hcap ? 2 * c->hcap : 64;
		char **nh = realloc(c->hosts, n * sizeof(*nh));

		if (!nh) {
			free(hname);
			return -ENOMEM;
		}
		c->hosts = nh;
		c->hcap = n;
	}
	ret = add_str(c, "host", "kernel", h->kernel, NULL) ?:
	      add_str(c, "host", "rdmadiag_version", h->version, NULL) ?:
	      add_str(c, "host", "memlock", h->memlock, NULL);
	for (i = 0; i < h->nports && !ret; i++)
		ret = add_port(c, &h->port[i]);
	c->hosts[c->nhosts++] = hname;	/* its values were added under this index */
	return ret;
}

int rdiag_describe_compare_add(struct rdiag_describe_compare *c, const char *json, size_t len,
			  const char *name)
{
	struct rd_desc *h;
	char why[200];
	int ret;

	free_results(c);
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	ret = rd_desc_parse(json, len, h, why, sizeof(why));
	if (ret) {
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", why);
		free(h);
		return -EINVAL;
	}
	ret = add_host(c, h, name);
	free(h);
	if (ret)
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", strerror(-ret));
	return ret;
}

static int cmp_val(const void *a, const void *b)
{
	const struct val *x = a, *y = b;
	int r = strcmp(x->value, y->value);

	return r ? r : (x->host > y->host) - (x->host < y->host);
}

static int cmp_prop(const void *a, const void *b)
{
	const struct prop *x = *(const struct prop *const *)a, *y = *(const struct prop *const *)b;
	bool dx = x->pub.ndiffer > 0, dy = y->pub.ndiffer > 0;

	if (dx != dy)
		return dx ? -1 : 1;
	if (dx && x->pub.impact != y->pub.impact)
		return (int)x->pub.impact - (int)y->pub.impact;
	return strcmp(x->name, y->name);
}

/* byhost: scratch of nhosts pointers; has: scratch of nhosts flags */
static int judge(struct rdiag_describe_compare *c, struct prop *p, const char **byhost, bool *has)
{
	size_t i, run, best = 0, nhosts = c->nhosts, absent;
	const char *maj = NULL;

	if (p->port) {		/* only the hosts that have the port */
		memset(has, 0, c->nhosts * sizeof(*has));
		for (i = 0; i < p->port->nvals; i++)
			has[p->port->vals[i].host] = true;
		nhosts = p->port->nvals;
	}
	absent = nhosts - p->nvals;
	if (p->nvals > 1)
		qsort(p->vals, p->nvals, sizeof(*p->vals), cmp_val);
	for (i = 0; i < p->nvals; i += run) {
		for (run = 1; i + run < p->nvals && !strcmp(p->vals[i + run].value, p->vals[i].value);
		     run++)
			;
		if (run > best) {
			best = run;
			maj = p->vals[i].value;
		}
	}
	if (absent > best) {
		best = absent;
		maj = NULL;
	}
	p->pub.majority = maj;
	p->pub.nmajority = best;
	p->pub.ndiffer = nhosts - best;
	p->pub.differ = NULL;
	if (!p->pub.ndiffer)
		return 0;
	p->differ = malloc(p->pub.ndiffer * sizeof(*p->differ));
	if (!p->differ)
		return -ENOMEM;
	memset(byhost, 0, c->nhosts * sizeof(*byhost));
	for (i = 0; i < p->nvals; i++)
		byhost[p->vals[i].host] = p->vals[i].value;
	for (i = 0, run = 0; i < c->nhosts && run < p->pub.ndiffer; i++) {
		const char *v = byhost[i];

		if ((p->port && !has[i]) || (maj ? (v && !strcmp(v, maj)) : !v))
			continue;
		p->differ[run].host = c->hosts[i];
		p->differ[run].value = v;
		run++;
	}
	p->pub.differ = p->differ;
	return 0;
}

int rdiag_describe_compare_run(struct rdiag_describe_compare *c)
{
	const char **byhost;
	bool *has;
	size_t i;
	int ret = 0;

	free_results(c);
	byhost = calloc(c->nhosts ? c->nhosts : 1, sizeof(*byhost));
	has = calloc(c->nhosts ? c->nhosts : 1, sizeof(*has));
	if (!byhost || !has) {
		free(byhost);
		free(has);
		return -ENOMEM;
	}
	for (i = 0; i < c->nprops && !ret; i++)
		ret = judge(c, c->props[i], byhost, has);
	free(byhost);
	free(has);
	if (ret)
		return ret;
	if (c->nprops > 1)	/* qsort's base may not be NULL, even for 0 elements */
		qsort(c->props, c->nprops, sizeof(*c->props), cmp_prop);
	return 0;
}

size_t rdiag_describe_compare_nprops(const struct rdiag_describe_compare *c)
{
	return c->nprops;
}

const struct rdiag_desc_cmp_prop *rdiag_describe_compare_prop(const struct rdiag_describe_compare *c,
							size_t i)
{
	return i < c->nprops ? &c->props[i]->pub : NULL;
}
