/* The description of a host that a listener serves on its side channel: every RDMA port
 * with its state, speed, netdev and MTUs, the addresses of the netdev with the GID table
 * index of each one's RoCE v2 and v1 GID, the configfs default RoCE mode and ToS, and the
 * versions, and the lossless chain of each RoCE port (lib/fabric: dscp, priority, pfc, ecn, as
 * rdmadoctor local -j's host object).  Written as one line of JSON and read back with the doctor's JSON reader:
 *
 *   {"rdmadoctor_description":1,"version":"0.1.0","host":"h","kernel":"6.1.0-...",
 *    "ports":[{"dev":"rxe0","port":1,"driver":"rxe","fw_ver":"","state":"ACTIVE",
 *      "link_layer":"Ethernet","rate":"100 Gb/sec (4X EDR)","netdev":"eth0","netdev_mtu":1500,
 *      "active_mtu":1024,"max_mtu":4096,"roce_mode":"RoCE v2","roce_tos":0,
 *      "addrs":[{"ip":"198.18.1.1","gid_v2":1}]}]}
 *
 * A member that is not known is absent (rdmadiag(7)): roce_mode and roce_tos without a
 * configfs group (the kernel defaults apply: RoCE v2, ToS 0), gid_v2/gid_v1 without such
 * a GID, the MTUs when unknown, the chain's members where it cannot be checked. */
#include <errno.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/utsname.h>

#include "internal.h"
#include "rdmadiag/fabric.h"

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

static void gid_indexes(const struct rdiag_port *p, const char *ip, struct rd_desc_addr *a)
{
	size_t i;

	a->gid_v2 = a->gid_v1 = -1;
	for (i = 0; i < p->n_gids; i++) {
		const struct rdiag_gid *g = &p->gids[i];

		if (!g->ip[0] || strcmp(g->ip, ip))
			continue;
		if (g->type == RDIAG_GID_ROCE_V2 && a->gid_v2 < 0)
			a->gid_v2 = (int)g->index;
		else if (g->type == RDIAG_GID_IB_ROCE_V1 && a->gid_v1 < 0)
			a->gid_v1 = (int)g->index;
	}
}

static void onoff(const struct rdiag_chain *c, const char *name, char *buf, size_t len)
{
	int i;

	for (i = 0; i < RDIAG_CHAIN_LINKS; i++)
		if (c->link[i].name && !strcmp(c->link[i].name, name))
			snprintf(buf, len, "%s", c->link[i].state == RDIAG_LINK_OK ? "on" :
				 c->link[i].state == RDIAG_LINK_BROKEN ? "off" : "");
}

/* the port's lossless chain: the DSCP and priority RoCE rides, PFC and ECN on it */
static void port_lossless(const char *dev, const struct rdiag_port *p, struct rd_desc_port *dp)
{
	struct rdiag_chain c;

	dp->dscp = dp->prio = -1;
	if (!p->netdev[0] || strcmp(p->link_layer, "Ethernet") ||
	    rdiag_fabric_port_chain(p->netdev, dev, p->port, &c) < 0)
		return;
	if (!strcmp(c.verdict, "unknown"))
		return;
	dp->dscp = c.dscp;
	dp->prio = c.prio;
	onoff(&c, "pfc", dp->pfc, sizeof(dp->pfc));
	onoff(&c, "ecn", dp->ecn, sizeof(dp->ecn));
}

static void port_addrs(const struct rdiag_port *p, struct ifaddrs *ifa, struct rd_desc_port *dp)
{
	struct ifaddrs *i;

	for (i = ifa; i && dp->naddrs < RD_DESC_ADDRS; i = i->ifa_next) {
		struct rd_desc_addr *a = &dp->addr[dp->naddrs];
		const void *bytes;

		if (!i->ifa_addr || strcmp(i->ifa_name, p->netdev))
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			bytes = &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			bytes = &((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr;
		else
			continue;
		if (!inet_ntop(i->ifa_addr->sa_family, bytes, a->ip, sizeof(a->ip)))
			continue;
		gid_indexes(p, a->ip, a);
		dp->naddrs++;
	}
}

int rd_desc_local(struct rdiag_doctor *d, struct rd_desc *h)
{
	struct rdiag_counters *c;
	struct rdiag_devices *devs = NULL;
	struct ifaddrs *ifa = NULL;
	struct utsname u;
	size_t i, j;
	int ret;

	memset(h, 0, sizeof(*h));
	snprintf(h->version, sizeof(h->version), "%s", RDIAG_VERSION);
	if (uname(&u) == 0) {
		snprintf(h->host, sizeof(h->host), "%s", u.nodename);
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	ret = rd_doc_devices(d, &c, NULL);
	if (ret)
		return ret;
	/* a fresh discovery: a listener's description must show the host as it is now */
	ret = rdiag_counters_discover(c, &devs);
	if (ret)
		return ret;
	if (getifaddrs(&ifa))
		ifa = NULL;
	for (i = 0; i < devs->n; i++) {
		const struct rdiag_device *dev = &devs->dev[i];

		for (j = 0; j < dev->n_ports && h->nports < RD_DESC_PORTS; j++) {
			const struct rdiag_port *p = &dev->ports[j];
			struct rd_desc_port *dp = &h->port[h->nports++];
			char path[512];
			char tos[16];

			snprintf(dp->dev, sizeof(dp->dev), "%s", dev->name);
			snprintf(dp->driver, sizeof(dp->driver), "%s", dev->driver);
			snprintf(dp->fw, sizeof(dp->fw), "%s", dev->fw_ver);
			snprintf(dp->state, sizeof(dp->state), "%s",
				 rd_doc_name(rdiag_port_state_name(p->state)));
			snprintf(dp->link_layer, sizeof(dp->link_layer), "%s", p->link_layer);
			snprintf(dp->rate, sizeof(dp->rate), "%s", p->rate);
			snprintf(dp->netdev, sizeof(dp->netdev), "%s", p->netdev);
			dp->port = p->port;
			dp->mtu = p->mtu;
			if (rd_doc_query_port(d, dev->name, p->port, &dp->active_mtu, &dp->max_mtu))
				dp->active_mtu = dp->max_mtu = 0;
			rd_doc_path(d, path, sizeof(path),
				    "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
				    dev->name, p->port);
			read_line(path, dp->roce_mode, sizeof(dp->roce_mode));
			rd_doc_path(d, path, sizeof(path),
				    "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
				    dev->name, p->port);
			read_line(path, tos, sizeof(tos));
			dp->tos = tos[0] ? atoi(tos) : -1;
			port_lossless(dev->name, p, dp);
			if (p->netdev[0])
				port_addrs(p, ifa, dp);
		}
	}
	if (ifa)
		freeifaddrs(ifa);
	rdiag_counters_devices_free(devs);
	return 0;
}

/* ---- writing ---- */

struct wbuf {
	char *p;
	size_t len, cap;
	int err;
};

static void w(struct wbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void w(struct wbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->cap - b->len) {
		b->err = -E2BIG;
		return;
	}
	b->len += (size_t)n;
}

/* "key":"value" with JSON escaping (names from sysfs may hold anything) */
static void wstr(struct wbuf *b, const char *sep, const char *key, const char *s)
{
	w(b, "%s\"%s\":\"", sep, key);
	for (; *s && !b->err; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			w(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			w(b, "\\u%04x", ch);
		else
			w(b, "%c", ch);
	}
	w(b, "\"");
}

int rd_desc_json(const struct rd_desc *h, char **out, size_t *len)
{
	struct wbuf b = { .cap = RD_DESC_MAX };
	size_t i, j;

	b.p = malloc(b.cap);
	if (!b.p)
		return -ENOMEM;
	w(&b, "{\"rdmadoctor_description\":1");
	wstr(&b, ",", "version", h->version);
	wstr(&b, ",", "host", h->host);
	wstr(&b, ",", "kernel", h->kernel);
	w(&b, ",\"ports\":[");
	for (i = 0; i < h->nports; i++) {
		const struct rd_desc_port *p = &h->port[i];

		wstr(&b, i ? ",{" : "{", "dev", p->dev);
		w(&b, ",\"port\":%u", p->port);
		wstr(&b, ",", "driver", p->driver);
		wstr(&b, ",", "fw_ver", p->fw);
		wstr(&b, ",", "state", p->state);
		wstr(&b, ",", "link_layer", p->link_layer);
		wstr(&b, ",", "rate", p->rate);
		wstr(&b, ",", "netdev", p->netdev);
		if (p->mtu)
			w(&b, ",\"netdev_mtu\":%u", p->mtu);
		if (p->active_mtu)
			w(&b, ",\"active_mtu\":%u,\"max_mtu\":%u", p->active_mtu, p->max_mtu);
		if (p->roce_mode[0])
			wstr(&b, ",", "roce_mode", p->roce_mode);
		if (p->tos >= 0)
			w(&b, ",\"roce_tos\":%d", p->tos);
		if (p->dscp >= 0)
			w(&b, ",\"dscp\":%d", p->dscp);
		if (p->prio >= 0)
			w(&b, ",\"priority\":%d", p->prio);
		if (p->pfc[0])
			wstr(&b, ",", "pfc", p->pfc);
		if (p->ecn[0])
			wstr(&b, ",", "ecn", p->ecn);
		w(&b, ",\"addrs\":[");
		for (j = 0; j < p->naddrs; j++) {
			const struct rd_desc_addr *a = &p->addr[j];

			wstr(&b, j ? ",{" : "{", "ip", a->ip);
			if (a->gid_v2 >= 0)
				w(&b, ",\"gid_v2\":%d", a->gid_v2);
			if (a->gid_v1 >= 0)
				w(&b, ",\"gid_v1\":%d", a->gid_v1);
			w(&b, "}");
		}
		w(&b, "]}");
	}
	w(&b, "]}\n");
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

/* ---- reading ---- */

static void jstr(const struct rd_json *o, const char *key, char *buf, size_t len)
{
	const struct rd_json *v = rd_json_get(o, key);

	snprintf(buf, len, "%s", v && v->type == RD_JSTR ? v->str : "");
}

/* an integer member in [lo, hi]; def when absent; false when present but not one */
static bool jint(const struct rd_json *o, const char *key, long lo, long hi, long def, long *out)
{
	const struct rd_json *v = rd_json_get(o, key);

	*out = def;
	if (!v)
		return true;
	if (v->type != RD_JNUM || v->num < (double)lo || v->num > (double)hi ||
	    v->num != (double)(long)v->num)
		return false;
	*out = (long)v->num;
	return true;
}

static int bad(char *why, size_t wlen, const char *what)
{
	snprintf(why, wlen, "%s", what);
	return -EBADMSG;
}

static int parse_port(const struct rd_json *o, struct rd_desc_port *p, char *why, size_t wlen)
{
	const struct rd_json *addrs = rd_json_get(o, "addrs"), *a;
	long v;

	if (o->type != RD_JOBJ)
		return bad(why, wlen, "a port is not an object");
	jstr(o, "dev", p->dev, sizeof(p->dev));
	jstr(o, "driver", p->driver, sizeof(p->driver));
	jstr(o, "fw_ver", p->fw, sizeof(p->fw));
	jstr(o, "state", p->state, sizeof(p->state));
	jstr(o, "link_layer", p->link_layer, sizeof(p->link_layer));
	jstr(o, "rate", p->rate, sizeof(p->rate));
	jstr(o, "netdev", p->netdev, sizeof(p->netdev));
	jstr(o, "roce_mode", p->roce_mode, sizeof(p->roce_mode));
	if (!p->dev[0])
		return bad(why, wlen, "a port without its device name");
	if (!jint(o, "port", 1, 65535, 0, &v) || !v)
		return bad(why, wlen, "a port without a port number (1..65535)");
	p->port = (uint32_t)v;
	if (!jint(o, "netdev_mtu", 0, 1 << 20, 0, &v))
		return bad(why, wlen, "netdev_mtu is not a number of bytes");
	p->mtu = (unsigned int)v;
	if (!jint(o, "active_mtu", 0, 1 << 20, 0, &v))
		return bad(why, wlen, "active_mtu is not a number of bytes");
	p->active_mtu = (unsigned int)v;
	if (!jint(o, "max_mtu", 0, 1 << 20, 0, &v))
		return bad(why, wlen, "max_mtu is not a number of bytes");
	p->max_mtu = (unsigned int)v;
	if (!jint(o, "roce_tos", 0, 255, -1, &v))
		return bad(why, wlen, "roce_tos is not 0..255");
	p->tos = (int)v;
	if (!jint(o, "dscp", 0, 63, -1, &v))
		return bad(why, wlen, "dscp is not 0..63");
	p->dscp = (int)v;
	if (!jint(o, "priority", 0, 7, -1, &v))
		return bad(why, wlen, "priority is not 0..7");
	p->prio = (int)v;
	jstr(o, "pfc", p->pfc, sizeof(p->pfc));
	jstr(o, "ecn", p->ecn, sizeof(p->ecn));
	if ((p->pfc[0] && strcmp(p->pfc, "on") && strcmp(p->pfc, "off")) ||
	    (p->ecn[0] && strcmp(p->ecn, "on") && strcmp(p->ecn, "off")))
		return bad(why, wlen, "pfc or ecn is not on or off");
	if (addrs && addrs->type != RD_JARR)
		return bad(why, wlen, "addrs is not an array");
	for (a = addrs ? addrs->child : NULL; a && p->naddrs < RD_DESC_ADDRS; a = a->next) {
		struct rd_desc_addr *x = &p->addr[p->naddrs];
		unsigned char buf[sizeof(struct in6_addr)];

		if (a->type != RD_JOBJ)
			return bad(why, wlen, "an address is not an object");
		jstr(a, "ip", x->ip, sizeof(x->ip));
		if (inet_pton(AF_INET, x->ip, buf) != 1 && inet_pton(AF_INET6, x->ip, buf) != 1)
			return bad(why, wlen, "an address that is not an IP address");
		if (!jint(a, "gid_v2", 0, 65535, -1, &v))
			return bad(why, wlen, "gid_v2 is not a GID index");
		x->gid_v2 = (int)v;
		if (!jint(a, "gid_v1", 0, 65535, -1, &v))
			return bad(why, wlen, "gid_v1 is not a GID index");
		x->gid_v1 = (int)v;
		p->naddrs++;
	}
	return 0;
}

int rd_desc_parse(const char *text, size_t len, struct rd_desc *h, char *why, size_t wlen)
{
	struct rd_json *root = rd_json_parse(text, len);
	const struct rd_json *ports, *p;
	long v;
	int ret = 0;

	memset(h, 0, sizeof(*h));
	if (!root || root->type != RD_JOBJ) {
		ret = bad(why, wlen, "not a JSON object");
		goto out;
	}
	if (!jint(root, "rdmadoctor_description", 1, 1, 0, &v) || v != 1) {
		ret = bad(why, wlen, "not a rdmadoctor description (no \"rdmadoctor_description\":1)");
		goto out;
	}
	jstr(root, "version", h->version, sizeof(h->version));
	jstr(root, "host", h->host, sizeof(h->host));
	jstr(root, "kernel", h->kernel, sizeof(h->kernel));
	ports = rd_json_get(root, "ports");
	if (!ports || ports->type != RD_JARR) {
		ret = bad(why, wlen, "no ports array");
		goto out;
	}
	for (p = ports->child; p && h->nports < RD_DESC_PORTS && !ret; p = p->next)
		ret = parse_port(p, &h->port[h->nports++], why, wlen);
out:
	rd_json_free(root);
	return ret;
}

const struct rd_desc_port *rd_desc_port_of(const struct rd_desc *h, const char *ip,
					   const struct rd_desc_addr **a)
{
	size_t i, j;

	for (i = 0; i < h->nports; i++)
		for (j = 0; j < h->port[i].naddrs; j++)
			if (!strcmp(h->port[i].addr[j].ip, ip)) {
				if (a)
					*a = &h->port[i].addr[j];
				return &h->port[i];
			}
	return NULL;
}
