/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One raw record -> struct rdiag_trace_event, through the formats libtraceevent parsed: every
 * field is looked up by name and checked against the record's length before it is read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "internal.h"
#include "rdmadiag/packet.h"	/* enum rdiag_mad_class */

static struct tep_format_field *field_in(struct tep_event *e, const char *name, size_t len)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f || f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > len)
		return NULL;
	return f;
}

static int num(struct tep_event *e, const void *data, size_t len, const char *name,
	       unsigned long long *v)
{
	struct tep_format_field *f = field_in(e, name, len);

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) || f->size > 8 ||
	    f->size == 0)
		return -1;
	return tep_read_number_field(f, data, v) ? -1 : 0;
}

/* the value as the C int the kernel stored (sign-extended from its size) */
static int snum(struct tep_event *e, const void *data, size_t len, const char *name, int *v)
{
	unsigned long long u;
	struct tep_format_field *f = field_in(e, name, len);

	if (num(e, data, len, name, &u))
		return -1;
	if (f->size == 4)
		*v = (int)(int32_t)(uint32_t)u;
	else if (f->size == 2)
		*v = (int)(int16_t)(uint16_t)u;
	else if (f->size == 1)
		*v = (int)(int8_t)(uint8_t)u;
	else
		*v = (int)(long long)u;
	return 0;
}

/* the kernel's struct sockaddr_storage copy (sizeof(struct sockaddr_in6) bytes) */
static int addr(struct tep_event *e, const void *data, size_t len, const char *name,
		struct sockaddr_storage *ss)
{
	struct tep_format_field *f = field_in(e, name, len);
	sa_family_t fam;

	memset(ss, 0, sizeof(*ss));
	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    f->size < (int)sizeof(sa_family_t) || (size_t)f->size > sizeof(*ss))
		return -1;
	memcpy(&fam, (const char *)data + f->offset, sizeof(fam));
	if ((fam == AF_INET && f->size >= (int)sizeof(struct sockaddr_in)) ||
	    (fam == AF_INET6 && f->size >= (int)sizeof(struct sockaddr_in6)))
		memcpy(ss, (const char *)data + f->offset, (size_t)f->size);
	return 0;
}

/* a __string (__data_loc, or __rel_loc) or a fixed char array */
static int str(struct tep_event *e, const void *data, size_t len, const char *name, char *out,
	       size_t olen)
{
	struct tep_format_field *f = field_in(e, name, len);
	size_t off, n;

	out[0] = 0;
	if (!f)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if (f->size != 4)
			return -1;
		memcpy(&loc, (const char *)data + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + 4;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		off = (size_t)f->offset;
		n = (size_t)f->size;
	} else {
		return -1;
	}
	if (off > len || n > len - off)
		return -1;
	if (n >= olen)
		n = olen - 1;
	memcpy(out, (const char *)data + off, n);
	out[n] = 0;
	out[strnlen(out, n)] = 0;
	return 0;
}

/* every field of the format inside the record: then libtraceevent may print it */
static int fits(struct tep_event *e, const void *data, size_t len)
{
	struct tep_format_field *f;

	for (f = e->format.common_fields; f; f = f->next)
		if (f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > len)
			return 0;
	for (f = e->format.fields; f; f = f->next) {
		if (f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > len)
			return 0;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			char tmp[2];

			if (str(e, data, len, f->name, tmp, sizeof(tmp)))
				return 0;
		}
	}
	return 1;
}

static void detail(struct rdiag_trace *t, struct tep_event *e, const void *data, size_t len,
		   uint64_t ts, int cpu, char *out, size_t olen)
{
	struct tep_record rec;
	struct trace_seq s;

	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	rec.cpu = cpu;
	rec.size = (int)len;
	rec.data = (void *)(uintptr_t)data;
	trace_seq_init(&s);
	tep_print_event(t->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, olen, "%s", s.buffer ? s.buffer : "");
	trace_seq_destroy(&s);
}

int rd_trace_decode(struct rdiag_trace *t, const void *data, size_t len, uint64_t ts, int cpu,
		    struct rdiag_trace_event *ev)
{
	struct tep_record rec;
	struct tep_event *e;
	unsigned long long v;
	int type, i;

	if (len < 8)
		return -EINVAL;
	memset(&rec, 0, sizeof(rec));
	rec.size = (int)len;
	rec.data = (void *)(uintptr_t)data;
	type = tep_data_type(t->tep, &rec);
	e = tep_find_event(t->tep, type);
	if (!e || !e->system || !fits(e, data, len))
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = ts;
	ev->cpu = cpu;
	ev->tos = ev->cm_event = ev->ib_state = ev->rej_reason = ev->wc_status = -1;
	ev->retries_left = ev->max_retries = -1;
	snprintf(ev->system, sizeof(ev->system), "%s", e->system);
	snprintf(ev->name, sizeof(ev->name), "%s", e->name);
	ev->pid = tep_data_pid(t->tep, &rec);
	if (ev->pid < 0)
		ev->pid = 0;
	rd_trace_comm(t, ev->pid, ev->comm, sizeof(ev->comm));

	if (!strcmp(e->system, "rdma_cma")) {
		if (!num(e, data, len, "cm_id", &v)) {
			ev->has_cm_id = true;
			ev->cm_id = (uint32_t)v;
		}
		if (!num(e, data, len, "tos", &v))
			ev->tos = (int)(v & 0xff);
		if (!addr(e, data, len, "srcaddr", &ev->src) && !addr(e, data, len, "dstaddr", &ev->dst))
			ev->has_addrs = true;
		/* cm_req_handler's "event" is the IB CM's (REQ_RECEIVED), not rdma_cm's */
		if ((!strcmp(e->name, "cm_event_handler") || !strcmp(e->name, "cm_event_done")) &&
		    !num(e, data, len, "event", &v))
			ev->cm_event = v < 64 ? (int)v : -1;
		if (!snum(e, data, len, "status", &i) || !snum(e, data, len, "result", &i) ||
		    !snum(e, data, len, "rc", &i)) {
			ev->has_status = true;
			ev->status = i;
		}
		if (str(e, data, len, "devname", ev->device, sizeof(ev->device)))
			str(e, data, len, "name", ev->device, sizeof(ev->device));
	} else if (!strcmp(e->system, "ib_cma")) {
		unsigned long long l, r;

		if (!num(e, data, len, "local_id", &l) && !num(e, data, len, "remote_id", &r)) {
			ev->has_ib_ids = true;
			ev->local_id = (uint32_t)l;
			ev->remote_id = (uint32_t)r;
		}
		if (!num(e, data, len, "state", &v))
			ev->ib_state = v < 64 ? (int)v : -1;
		if (!num(e, data, len, "reason", &v))
			ev->rej_reason = v < 256 ? (int)v : -1;
		if (!num(e, data, len, "wc_status", &v))
			ev->wc_status = v < 256 ? (int)v : -1;
	} else if (!strcmp(e->system, "ib_mad")) {
		if (!num(e, data, len, "mgmt_class", &v)) {
			ev->has_mad = true;
			ev->mgmt_class = (unsigned int)v;
		}
		if (!num(e, data, len, "method", &v))
			ev->method = (unsigned int)v;
		if (!num(e, data, len, "attr_id", &v))	/* the MAD header's big-endian copy */
			ev->attr_id = ntohs((uint16_t)v);
		if (!num(e, data, len, "tid", &v) || !num(e, data, len, "wrtid", &v))
			ev->tid = v;
		if (!snum(e, data, len, "retries_left", &i))
			ev->retries_left = i;
		if (!snum(e, data, len, "max_retries", &i))
			ev->max_retries = i;
		if (!num(e, data, len, "dev_index", &v))
			ev->dev_index = (unsigned int)v;
		if (!num(e, data, len, "port_num", &v))
			ev->port_num = (unsigned int)v;
		if (!num(e, data, len, "wc_status", &v))
			ev->wc_status = v < 256 ? (int)v : -1;
	}
	detail(t, e, data, len, ts, cpu, ev->detail, sizeof(ev->detail));
	/* ib_mad's print formats call kernel helpers libtraceevent does not have */
	if (ev->has_mad && !strncmp(ev->detail, "[FAILED TO PARSE]", 17)) {
		const char *an = ev->mgmt_class == RDIAG_MAD_CLASS_CM ? rdiag_trace_cm_attr_name(ev->attr_id) : NULL;
		int o = snprintf(ev->detail, sizeof(ev->detail),
				 "class 0x%02x method 0x%02x attr %s%s0x%04x", ev->mgmt_class,
				 ev->method, an ? an : "", an ? " " : "", ev->attr_id);

		if (o > 0 && ev->retries_left >= 0 && ev->max_retries >= 0)
			snprintf(ev->detail + o, sizeof(ev->detail) - (size_t)o, " retries %d/%d",
				 ev->retries_left, ev->max_retries);
	}
	return 0;
}
