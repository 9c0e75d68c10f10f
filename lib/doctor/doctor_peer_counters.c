/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The peer's counters over the side channel: the client asks with the request line
 * "counters" (doctor_peer.c sends "describe" for the description), the listener answers one
 * line of JSON, {"rdmadoctor_counters":1,"counters":[{"dev":..,"port":..,"name":..,
 * "value":"0x.."}...]}, every readable counter of every port (hw_counters, PMA, IB CM), or
 * of the one port a --serve port listener serves, read when asked, bounded by RD_DESC_MAX:
 * the set written, read back, and the counters that moved between two sets.  The client
 * (doctor_peer.c) takes one set before the attempt and, after a data-path failure, another:
 * what the peer's end saw of the packets this end sent. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* kernel counter and device names: anything else is left out rather than escaped */
static bool plain(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_-./:", *s)))
			return false;
	return true;
}

int rd_pc_json(const struct rdiag_samples *s, const char *dev, uint32_t port, char **out,
	       size_t *len)
{
	size_t i, n, off, cap = RD_DESC_MAX;
	char *buf = malloc(cap);
	int k;

	if (!buf)
		return -ENOMEM;
	off = (size_t)snprintf(buf, cap, "{\"rdmadoctor_counters\":1,\"counters\":[");
	n = rdiag_samples_count(s);
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s, i);

		if (x->err || !plain(x->dev) || !plain(x->name))
			continue;
		if (dev && (strcmp(x->dev, dev) || x->port != port))
			continue;	/* --serve port: that port's alone */
		k = snprintf(buf + off, cap - off,
			     "%s{\"dev\":\"%s\",\"port\":%" PRIu32 ",\"name\":\"%s\",\"value\":\"0x%" PRIx64 "\"}",
			     buf[off - 1] == '[' ? "" : ",", x->dev, x->port, x->name, x->value);
		if (k < 0 || (size_t)k >= cap - off - 4) {
			free(buf);
			return -E2BIG;
		}
		off += (size_t)k;
	}
	memcpy(buf + off, "]}\n", 4);
	*out = buf;
	*len = off + 3;
	return 0;
}

int rd_pc_local_json(char **out, size_t *len)
{
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *s = NULL;
	int ret;

	ret = rdiag_counters_open(&c, NULL);
	if (!ret)
		ret = rdiag_counters_sample(c, NULL, &s);
	if (!ret)
		ret = rd_pc_json(s, NULL, 0, out, len);
	rdiag_samples_free(s);
	rdiag_counters_close(c);
	return ret;
}

int rd_pc_parse(const char *text, size_t len, struct rd_pc *pc, char *why, size_t wlen)
{
	struct rd_json *j = rd_json_parse(text, len);
	const struct rd_json *v = j ? rd_json_get(j, "rdmadoctor_counters") : NULL, *a, *e;
	int ret = -EBADMSG;

	pc->n = 0;
	if (!j || j->type != RD_JOBJ) {
		snprintf(why, wlen, "not a JSON object");
		goto out;
	}
	a = rd_json_get(j, "counters");
	if (!v || !a || a->type != RD_JARR) {
		snprintf(why, wlen, "no rdmadoctor_counters and counters array");
		goto out;
	}
	for (e = a->child; e; e = e->next) {
		const struct rd_json *dev = rd_json_get(e, "dev"), *port = rd_json_get(e, "port");
		const struct rd_json *name = rd_json_get(e, "name"), *val = rd_json_get(e, "value");
		char *end;

		if (pc->n >= RD_PC_MAX) {
			snprintf(why, wlen, "more than %d counters", RD_PC_MAX);
			goto out;
		}
		if (e->type != RD_JOBJ || !dev || dev->type != RD_JSTR || !port ||
		    port->type != RD_JNUM || port->num < 0 || port->num > 255 || !name ||
		    name->type != RD_JSTR || !val || val->type != RD_JSTR ||
		    strncmp(val->str, "0x", 2) || !val->str[2] ||
		    strlen(dev->str) >= sizeof(pc->c[0].dev) || strlen(name->str) >= sizeof(pc->c[0].name)) {
			snprintf(why, wlen, "counter %zu is not {dev, port, name, value \"0x..\"}", pc->n);
			goto out;
		}
		errno = 0;
		pc->c[pc->n].value = strtoull(val->str + 2, &end, 16);
		if (*end || errno) {
			snprintf(why, wlen, "counter %zu: value '%.40s' is not a 64-bit hex number",
				 pc->n, val->str);
			goto out;
		}
		snprintf(pc->c[pc->n].dev, sizeof(pc->c[0].dev), "%s", dev->str);
		snprintf(pc->c[pc->n].name, sizeof(pc->c[0].name), "%s", name->str);
		pc->c[pc->n].port = (uint32_t)port->num;
		pc->n++;
	}
	ret = 0;
out:
	rd_json_free(j);
	return ret;
}

void rd_pc_deltas(struct rdiag_doctor *d, const struct rd_pc *a, const struct rd_pc *b)
{
	size_t i, k;

	d->npeer_deltas = 0;
	for (i = 0; i < b->n && d->npeer_deltas < RD_DOC_MAX_DELTAS; i++) {
		struct rdiag_doc_delta *x;

		for (k = 0; k < a->n; k++)
			if (a->c[k].port == b->c[i].port && !strcmp(a->c[k].dev, b->c[i].dev) &&
			    !strcmp(a->c[k].name, b->c[i].name))
				break;
		if (k == a->n || a->c[k].value == b->c[i].value)
			continue;
		x = &d->peer_deltas[d->npeer_deltas++];
		snprintf(x->dev, sizeof(x->dev), "%s", b->c[i].dev);
		x->port = b->c[i].port;
		snprintf(x->name, sizeof(x->name), "%s", b->c[i].name);
		x->before = a->c[k].value;
		x->after = b->c[i].value;
		x->cm = !strncmp(x->name, "cm_", 3) && strchr(x->name, '/');
	}
}
