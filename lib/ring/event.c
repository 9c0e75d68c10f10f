/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's encoding of one rdma_cm event (RDIAG_REC_EVENT, ring format 1; see
 * rdmadiag/ring.h): fixed-width little-endian fields, addresses as family/port/16 bytes,
 * strings as a 16-bit length and their bytes.  Nothing of the C struct's layout reaches the
 * file, so a ring reads the same on any build; a payload that does not decode is refused
 * whole (-EBADMSG), never read in part. */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <netinet/in.h>

#include "rdmadiag/ring.h"

enum {
	EV_HAS_CM_ID = 1u << 0,
	EV_HAS_ADDRS = 1u << 1,
	EV_HAS_STATUS = 1u << 2,
	EV_HAS_IB_IDS = 1u << 3,
	EV_HAS_MAD = 1u << 4,
};
#define EV_FLAGS_KNOWN 0x1fu

/* address family on the wire: 0 none, 4 IPv4, 6 IPv6 */
#define ADDR_LEN (2 + 2 + 16 + 4)

struct wbuf {
	unsigned char *p;
	size_t len, off;
	bool over;
};

struct rbuf {
	const unsigned char *p;
	size_t len, off;
	bool bad;
};

static void w_bytes(struct wbuf *w, const void *b, size_t n)
{
	if (w->over || n > w->len - w->off) {
		w->over = true;
		return;
	}
	memcpy(w->p + w->off, b, n);
	w->off += n;
}

static void w16(struct wbuf *w, uint16_t v) { v = htole16(v); w_bytes(w, &v, 2); }
static void w32(struct wbuf *w, uint32_t v) { v = htole32(v); w_bytes(w, &v, 4); }
static void w64(struct wbuf *w, uint64_t v) { v = htole64(v); w_bytes(w, &v, 8); }

/* a NUL-terminated field of at most max bytes */
static void w_str(struct wbuf *w, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	w16(w, (uint16_t)n);
	w_bytes(w, s, n);
}

static void w_addr(struct wbuf *w, const struct sockaddr_storage *ss)
{
	unsigned char a[16] = { 0 };
	uint16_t fam = 0, port = 0;
	uint32_t scope = 0;

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *i = (const struct sockaddr_in *)ss;

		fam = 4;
		port = ntohs(i->sin_port);
		memcpy(a, &i->sin_addr, 4);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *i = (const struct sockaddr_in6 *)ss;

		fam = 6;
		port = ntohs(i->sin6_port);
		memcpy(a, &i->sin6_addr, 16);
		scope = i->sin6_scope_id;
	}
	w16(w, fam);
	w16(w, port);
	w_bytes(w, a, 16);
	w32(w, scope);
}

int rdiag_ring_event_encode(const struct rdiag_trace_event *ev, void *buf, size_t len)
{
	struct wbuf w = { .p = buf, .len = len };
	uint32_t flags = (ev->has_cm_id ? EV_HAS_CM_ID : 0) | (ev->has_addrs ? EV_HAS_ADDRS : 0) |
			 (ev->has_status ? EV_HAS_STATUS : 0) |
			 (ev->has_ib_ids ? EV_HAS_IB_IDS : 0) | (ev->has_mad ? EV_HAS_MAD : 0);

	w64(&w, ev->ts_ns);
	w32(&w, (uint32_t)ev->cpu);
	w32(&w, (uint32_t)ev->pid);
	w32(&w, flags);
	w32(&w, ev->cm_id);
	w32(&w, (uint32_t)ev->tos);
	w32(&w, (uint32_t)ev->cm_event);
	w32(&w, (uint32_t)ev->status);
	w32(&w, ev->local_id);
	w32(&w, ev->remote_id);
	w32(&w, (uint32_t)ev->ib_state);
	w32(&w, (uint32_t)ev->rej_reason);
	w32(&w, (uint32_t)ev->wc_status);
	w32(&w, ev->mgmt_class);
	w32(&w, ev->method);
	w32(&w, ev->attr_id);
	w64(&w, ev->tid);
	w32(&w, (uint32_t)ev->retries_left);
	w32(&w, (uint32_t)ev->max_retries);
	w32(&w, ev->dev_index);
	w32(&w, ev->port_num);
	w_addr(&w, &ev->src);
	w_addr(&w, &ev->dst);
	w_str(&w, ev->comm, sizeof(ev->comm));
	w_str(&w, ev->system, sizeof(ev->system));
	w_str(&w, ev->name, sizeof(ev->name));
	w_str(&w, ev->device, sizeof(ev->device));
	w_str(&w, ev->detail, sizeof(ev->detail));
	if (w.over)
		return -EMSGSIZE;
	return (int)w.off;
}

static const unsigned char *r_bytes(struct rbuf *r, size_t n)
{
	const unsigned char *p;

	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

static uint16_t r16(struct rbuf *r)
{
	const unsigned char *p = r_bytes(r, 2);
	uint16_t v = 0;

	if (p)
		memcpy(&v, p, 2);
	return le16toh(v);
}

static uint32_t r32(struct rbuf *r)
{
	const unsigned char *p = r_bytes(r, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t r64(struct rbuf *r)
{
	const unsigned char *p = r_bytes(r, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return le64toh(v);
}

/* a string into a field of size bytes: longer than the field holds is a bad payload (this
 * build's fields are the writer's), a NUL inside it too */
static void r_str(struct rbuf *r, char *dst, size_t size)
{
	uint16_t n = r16(r);
	const unsigned char *p = r_bytes(r, n);

	dst[0] = '\0';
	if (!p)
		return;
	if (n >= size || memchr(p, 0, n)) {
		r->bad = true;
		return;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static void r_addr(struct rbuf *r, struct sockaddr_storage *ss)
{
	uint16_t fam = r16(r), port = r16(r);
	const unsigned char *a = r_bytes(r, 16);
	uint32_t scope = r32(r);

	memset(ss, 0, sizeof(*ss));
	if (!a)
		return;
	if (fam == 4) {
		struct sockaddr_in *i = (struct sockaddr_in *)ss;

		i->sin_family = AF_INET;
		i->sin_port = htons(port);
		memcpy(&i->sin_addr, a, 4);
	} else if (fam == 6) {
		struct sockaddr_in6 *i = (struct sockaddr_in6 *)ss;

		i->sin6_family = AF_INET6;
		i->sin6_port = htons(port);
		memcpy(&i->sin6_addr, a, 16);
		i->sin6_scope_id = scope;
	} else if (fam != 0) {
		r->bad = true;
	}
}

int rdiag_ring_event_decode(const void *buf, size_t len, struct rdiag_trace_event *ev)
{
	struct rbuf r = { .p = buf, .len = len };
	uint32_t flags;

	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = r64(&r);
	ev->cpu = (int)r32(&r);
	ev->pid = (int)r32(&r);
	flags = r32(&r);
	ev->cm_id = r32(&r);
	ev->tos = (int)r32(&r);
	ev->cm_event = (int)r32(&r);
	ev->status = (int)r32(&r);
	ev->local_id = r32(&r);
	ev->remote_id = r32(&r);
	ev->ib_state = (int)r32(&r);
	ev->rej_reason = (int)r32(&r);
	ev->wc_status = (int)r32(&r);
	ev->mgmt_class = r32(&r);
	ev->method = r32(&r);
	ev->attr_id = r32(&r);
	ev->tid = r64(&r);
	ev->retries_left = (int)r32(&r);
	ev->max_retries = (int)r32(&r);
	ev->dev_index = r32(&r);
	ev->port_num = r32(&r);
	r_addr(&r, &ev->src);
	r_addr(&r, &ev->dst);
	r_str(&r, ev->comm, sizeof(ev->comm));
	r_str(&r, ev->system, sizeof(ev->system));
	r_str(&r, ev->name, sizeof(ev->name));
	r_str(&r, ev->device, sizeof(ev->device));
	r_str(&r, ev->detail, sizeof(ev->detail));
	if (r.bad || r.off != len || (flags & ~EV_FLAGS_KNOWN)) {
		memset(ev, 0, sizeof(*ev));
		return -EBADMSG;
	}
	ev->has_cm_id = flags & EV_HAS_CM_ID;
	ev->has_addrs = flags & EV_HAS_ADDRS;
	ev->has_status = flags & EV_HAS_STATUS;
	ev->has_ib_ids = flags & EV_HAS_IB_IDS;
	ev->has_mad = flags & EV_HAS_MAD;
	return 0;
}
