/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The host description as JSON, written and read back: one object, the "host" member of
 * rdmadoctor local -j, and the line a listener serves on its side channel wraps the same
 * object ({"rdmadoctor_description":2,"host":{...}}).  Keys follow iproute2's rdma -j where
 * it has one (ifname, port, state, physical_state, netdev); what is not known or does not
 * apply is absent (rdmadiag(7)):
 *
 *   {"hostname":"h","kernel":"6.1.0-...","rdmadiag_version":"0.1.0","memlock":"8192 KiB",
 *    "ports":[{"ifname":"rxe0","port":1,"state":"ACTIVE","physical_state":"LINK_UP",
 *      "link_layer":"Ethernet","netdev":"eth0","mtu":1500,"active_mtu":1024,"max_mtu":4096,
 *      "rate":"2.5 Gb/sec (1X SDR)","driver":"rxe","fw_ver":"...","gid_index":1,
 *      "gid_addr":"198.18.1.1","tos":0,"tos_from_configfs":false,"roce_mode":"RoCE v2",
 *      "dscp":26,"priority":3,"pfc":"on","ecn":"on",
 *      "addrs":[{"ip":"198.18.1.1","gid_v2":1},{"ip":"fe80::...","gid_v2":0}]}]}
 *
 * One parser reads every use back: connect's side-by-side (the served line), rdmadoctor
 * compare and env --hosts (local -j documents); a bad member is refused with its reason. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "describe.h"

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

/* a JSON string (names from sysfs may hold anything) */
static void wesc(struct wbuf *b, const char *s)
{
	w(b, "\"");
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

/* ,"key":"value"; nothing for "" (absent: not known) */
static void wstr(struct wbuf *b, const char *key, const char *s)
{
	if (!s[0])
		return;
	w(b, ",\"%s\":", key);
	wesc(b, s);
}

static void wport(struct wbuf *b, const struct rd_desc_port *p)
{
	size_t j;

	w(b, "{\"ifname\":");
	wesc(b, p->dev);
	w(b, ",\"port\":%u", p->port);
	wstr(b, "state", p->state);
	wstr(b, "physical_state", p->phys_state);
	wstr(b, "link_layer", p->link_layer);
	wstr(b, "netdev", p->netdev);
	if (p->mtu)
		w(b, ",\"mtu\":%u", p->mtu);
	if (p->active_mtu)
		w(b, ",\"active_mtu\":%u", p->active_mtu);
	if (p->max_mtu)
		w(b, ",\"max_mtu\":%u", p->max_mtu);
	wstr(b, "rate", p->rate);
	wstr(b, "driver", p->driver);
	wstr(b, "fw_ver", p->fw);
	if (p->gid_index >= 0)
		w(b, ",\"gid_index\":%d", p->gid_index);
	wstr(b, "gid_addr", p->gid_addr);
	if (p->tos >= 0)
		w(b, ",\"tos\":%d,\"tos_from_configfs\":%s", p->tos,
		  p->tos_configfs ? "true" : "false");
	wstr(b, "roce_mode", p->roce_mode);
	if (p->dscp >= 0)
		w(b, ",\"dscp\":%d", p->dscp);
	if (p->prio >= 0)
		w(b, ",\"priority\":%d", p->prio);
	wstr(b, "pfc", p->pfc);
	wstr(b, "ecn", p->ecn);
	if (p->naddrs) {
		w(b, ",\"addrs\":[");
		for (j = 0; j < p->naddrs; j++) {
			const struct rd_desc_addr *a = &p->addr[j];

			w(b, j ? ",{\"ip\":" : "{\"ip\":");
			wesc(b, a->ip);
			if (a->gid_v2 >= 0)
				w(b, ",\"gid_v2\":%d", a->gid_v2);
			if (a->gid_v1 >= 0)
				w(b, ",\"gid_v1\":%d", a->gid_v1);
			w(b, "}");
		}
		w(b, "]");
	}
	w(b, "}");
}

/* the scalars first, the ports last; hostname is always there ("" when unknown) so that the
 * members that follow have a comma before them */
static void whost(struct wbuf *b, const struct rd_desc *h)
{
	size_t i;

	w(b, "{\"hostname\":");
	wesc(b, h->host);
	wstr(b, "kernel", h->kernel);
	wstr(b, "rdmadiag_version", h->version);
	wstr(b, "memlock", h->memlock);
	w(b, ",\"ports\":[");
	for (i = 0; i < h->nports; i++) {
		if (i)
			w(b, ",");
		wport(b, &h->port[i]);
	}
	w(b, "]}");
}

static int finish(struct wbuf *b, char **out, size_t *len)
{
	if (b->err) {
		free(b->p);
		return b->err;
	}
	*out = b->p;
	*len = b->len;
	return 0;
}

int rd_desc_json(const struct rd_desc *h, char **out, size_t *len)
{
	struct wbuf b = { .cap = RD_DESC_MAX };

	b.p = malloc(b.cap);
	if (!b.p)
		return -ENOMEM;
	whost(&b, h);
	return finish(&b, out, len);
}

int rd_desc_line(const struct rd_desc *h, char **out, size_t *len)
{
	struct wbuf b = { .cap = RD_DESC_MAX };

	b.p = malloc(b.cap);
	if (!b.p)
		return -ENOMEM;
	w(&b, "{\"rdmadoctor_description\":%d", RD_DESC_FORMAT);
	if (h->listen_port) {
		w(&b, ",\"listen\":{\"port\":%u", h->listen_port);
		wstr(&b, "port_space", h->listen_ps);
		w(&b, "}");
	}
	w(&b, ",\"host\":");
	whost(&b, h);
	w(&b, "}\n");
	return finish(&b, out, len);
}

/* ---- reading ---- */

/* a string member into buf ("" when absent); false when present but not a string */
static bool jstr(const struct rd_json *o, const char *key, char *buf, size_t len)
{
	const struct rd_json *v = rd_json_get(o, key);

	buf[0] = 0;
	if (!v)
		return true;
	if (v->type != RD_JSTR)
		return false;
	snprintf(buf, len, "%s", v->str);
	return true;
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

static int bad(char *why, size_t wlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t wlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, wlen, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static const struct {
	const char *key;
	size_t off, len;
} port_strs[] = {
#define S(k, f) { k, offsetof(struct rd_desc_port, f), sizeof(((struct rd_desc_port *)0)->f) }
	S("ifname", dev), S("driver", driver), S("fw_ver", fw), S("state", state),
	S("physical_state", phys_state), S("link_layer", link_layer), S("rate", rate),
	S("netdev", netdev), S("gid_addr", gid_addr), S("roce_mode", roce_mode),
	S("pfc", pfc), S("ecn", ecn),
#undef S
};

static const struct {
	const char *key;
	long lo, hi, def;
	size_t off;
	bool is_int;		/* an int member, else an unsigned int */
	const char *what;
} port_ints[] = {
#define U(k, f, hi, what) { k, 0, hi, 0, offsetof(struct rd_desc_port, f), false, what }
#define I(k, f, hi, what) { k, 0, hi, -1, offsetof(struct rd_desc_port, f), true, what }
	U("mtu", mtu, 1 << 20, "a number of bytes"),
	U("active_mtu", active_mtu, 1 << 20, "a number of bytes"),
	U("max_mtu", max_mtu, 1 << 20, "a number of bytes"),
	I("gid_index", gid_index, 65535, "a GID index"),
	I("tos", tos, 255, "0..255"),
	I("dscp", dscp, 63, "0..63"),
	I("priority", prio, 7, "0..7"),
#undef U
#undef I
};

static int parse_addrs(const struct rd_json *addrs, struct rd_desc_port *p, char *why,
		       size_t wlen)
{
	const struct rd_json *a;
	long v;

	if (!addrs)
		return 0;
	if (addrs->type != RD_JARR)
		return bad(why, wlen, "addrs is not an array");
	for (a = addrs->child; a && p->naddrs < RD_DESC_ADDRS; a = a->next) {
		struct rd_desc_addr *x = &p->addr[p->naddrs];
		unsigned char buf[sizeof(struct in6_addr)];

		if (a->type != RD_JOBJ)
			return bad(why, wlen, "an address is not an object");
		if (!jstr(a, "ip", x->ip, sizeof(x->ip)) ||
		    (inet_pton(AF_INET, x->ip, buf) != 1 && inet_pton(AF_INET6, x->ip, buf) != 1))
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

static int parse_port(const struct rd_json *o, struct rd_desc_port *p, char *why, size_t wlen)
{
	const struct rd_json *b;
	size_t i;
	long v;

	memset(p, 0, sizeof(*p));
	if (o->type != RD_JOBJ)
		return bad(why, wlen, "a port is not an object");
	for (i = 0; i < sizeof(port_strs) / sizeof(port_strs[0]); i++)
		if (!jstr(o, port_strs[i].key, (char *)p + port_strs[i].off, port_strs[i].len))
			return bad(why, wlen, "%s is not a string", port_strs[i].key);
	if (!p->dev[0])
		return bad(why, wlen, "a port without its device name (ifname)");
	if (!jint(o, "port", 1, 65535, 0, &v) || !v)
		return bad(why, wlen, "a port without a port number (1..65535)");
	p->port = (uint32_t)v;
	for (i = 0; i < sizeof(port_ints) / sizeof(port_ints[0]); i++) {
		if (!jint(o, port_ints[i].key, port_ints[i].lo, port_ints[i].hi, port_ints[i].def, &v))
			return bad(why, wlen, "%s is not %s", port_ints[i].key, port_ints[i].what);
		if (port_ints[i].is_int)
			*(int *)(void *)((char *)p + port_ints[i].off) = (int)v;
		else
			*(unsigned int *)(void *)((char *)p + port_ints[i].off) = (unsigned int)v;
	}
	b = rd_json_get(o, "tos_from_configfs");
	if (b && b->type != RD_JBOOL)
		return bad(why, wlen, "tos_from_configfs is not true or false");
	p->tos_configfs = b && b->num;
	if ((p->pfc[0] && strcmp(p->pfc, "on") && strcmp(p->pfc, "off")) ||
	    (p->ecn[0] && strcmp(p->ecn, "on") && strcmp(p->ecn, "off")))
		return bad(why, wlen, "pfc or ecn is not on or off");
	return parse_addrs(rd_json_get(o, "addrs"), p, why, wlen);
}

/* the served line's "listen": the listener's rdma_cm port and port space */
static int parse_listen(const struct rd_json *l, struct rd_desc *h, char *why, size_t wlen)
{
	long v;

	if (!l)
		return 0;
	if (l->type != RD_JOBJ || !jint(l, "port", 1, 65535, 0, &v) || !v ||
	    !jstr(l, "port_space", h->listen_ps, sizeof(h->listen_ps)) ||
	    (strcmp(h->listen_ps, "TCP") && strcmp(h->listen_ps, "UDP") &&
	     strcmp(h->listen_ps, "IB") && strcmp(h->listen_ps, "IPOIB")))
		return bad(why, wlen, "listen is not {\"port\":1..65535,\"port_space\":\"TCP|UDP|IB|IPOIB\"}");
	h->listen_port = (uint16_t)v;
	return 0;
}

int rd_desc_parse_tree(const struct rd_json *root, struct rd_desc *h, char *why, size_t wlen)
{
	const struct rd_json *host, *ports, *p, *fmt;
	int ret = 0;

	memset(h, 0, sizeof(*h));
	if (!root || root->type != RD_JOBJ)
		return bad(why, wlen, "not a JSON object");
	fmt = rd_json_get(root, "rdmadoctor_description");
	if (fmt && !(fmt->type == RD_JNUM && fmt->num == RD_DESC_FORMAT))
		return bad(why, wlen, "a description in another format than %d (an older or newer rdmadoctor: run the same rdmadiag version on both ends)",
			   RD_DESC_FORMAT);
	if ((ret = parse_listen(rd_json_get(root, "listen"), h, why, wlen)))
		return ret;
	host = rd_json_get(root, "host");
	if (!host || host->type != RD_JOBJ)
		return bad(why, wlen, "no \"host\" object: not the output of 'rdmadoctor -j local'");
	if (!jstr(host, "hostname", h->host, sizeof(h->host)) ||
	    !jstr(host, "kernel", h->kernel, sizeof(h->kernel)) ||
	    !jstr(host, "rdmadiag_version", h->version, sizeof(h->version)) ||
	    !jstr(host, "memlock", h->memlock, sizeof(h->memlock)))
		return bad(why, wlen, "hostname, kernel, rdmadiag_version or memlock is not a string");
	ports = rd_json_get(host, "ports");
	if (ports && ports->type != RD_JARR)
		return bad(why, wlen, "ports is not an array");
	for (p = ports ? ports->child : NULL; p && h->nports < RD_DESC_PORTS && !ret; p = p->next)
		ret = parse_port(p, &h->port[h->nports++], why, wlen);
	return ret;
}

int rd_desc_parse(const char *text, size_t len, struct rd_desc *h, char *why, size_t wlen)
{
	/* the JSON reader wants NUL-terminated text (strtod); a line from a file is not */
	char *copy = malloc(len + 1);
	struct rd_json *root;
	int ret;

	if (!copy) {
		memset(h, 0, sizeof(*h));
		return bad(why, wlen, "out of memory");
	}
	memcpy(copy, text, len);
	copy[len] = 0;
	root = rd_json_parse(copy, len);
	free(copy);
	ret = rd_desc_parse_tree(root, h, why, wlen);
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
