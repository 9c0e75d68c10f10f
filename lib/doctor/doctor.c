/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The doctor handle: findings, steps and deltas storage, accessors; see rdmadiag/doctor.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "open_error.h"
#include "rdmadiag/counters.h"
#include "util/util.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

const char *rdiag_doc_step_name(enum rdiag_doc_step_id id)
{
	static const char *const names[RDIAG_DOC_STEP__COUNT] = {
		[RDIAG_DOC_STEP_CREATE_ID] = "create_id",
		[RDIAG_DOC_STEP_RESOLVE_ADDR] = "resolve_addr",
		[RDIAG_DOC_STEP_RESOLVE_ROUTE] = "resolve_route",
		[RDIAG_DOC_STEP_CREATE_QP] = "create_qp",
		[RDIAG_DOC_STEP_CONNECT] = "connect",
		[RDIAG_DOC_STEP_DISCONNECT] = "disconnect",
	};

	return (unsigned int)id < RDIAG_DOC_STEP__COUNT ? names[id] : NULL;
}

const char *rdiag_doc_level_name(enum rdiag_doc_level l)
{
	switch (l) {
	case RDIAG_DOC_OK: return "ok";
	case RDIAG_DOC_INFO: return "info";
	case RDIAG_DOC_WARN: return "warning";
	case RDIAG_DOC_PROBLEM: return "problem";
	}
	return "unknown";
}

/* why the last failed rdiag_doctor_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_doctor_open(struct rdiag_doctor **out, const struct rdiag_doctor_opts *opts)
{
	struct rdiag_doctor *d;

	if (!out) {
		rd_open_error_set(&open_err, "rdiag_doctor_open: no place for the handle");
		return -EINVAL;
	}
	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (opts) {
		d->side_max = opts->side_max_clients;
		d->side_opt = opts->side_serve;
	}
	rd_rtnl_init(d);
	/* the same test seam as the counters handle; a root longer than d->root holds is cut */
	(void)rd_sysfs_root(d->root, sizeof(d->root));
	if (!strcmp(d->root, "/"))
		d->root[0] = 0;
	*out = d;
	return 0;
}

const char *rd_doc_path(const struct rdiag_doctor *d, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_root_vpath(d->root, buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

void rdiag_doctor_close(struct rdiag_doctor *d)
{
	if (!d)
		return;
	rdiag_counters_devices_free(d->devs);
	rdiag_counters_close(d->cnt);
	rd_rtnl_close(d);
	free(d->peer_before);
	/* through the pointer doctor_paths.c left: this file stays below that one */
	if (d->paths_free)
		d->paths_free(d);
	free(d);
}

int rd_doc_devices(struct rdiag_doctor *d, struct rdiag_counters **c,
		   const struct rdiag_devices **devs)
{
	if (!d->discovered) {
		d->discovered = true;
		d->discover_ret = rdiag_counters_open(&d->cnt, NULL);
		if (d->discover_ret) {
			snprintf(d->discover_err, sizeof(d->discover_err), "%s",
				 strerror(-d->discover_ret));
		} else {
			d->discover_ret = rdiag_counters_discover(d->cnt, &d->devs);
			if (d->discover_ret)
				snprintf(d->discover_err, sizeof(d->discover_err), "%s",
					 rdiag_counters_errmsg(d->cnt));
		}
	}
	if (c)
		*c = d->cnt;
	if (devs)
		*devs = d->devs;
	return d->discover_ret;
}

const char *rdiag_doctor_errmsg(const struct rdiag_doctor *d)
{
	return d ? d->errmsg : rd_open_error_get(&open_err);
}

void rd_doc_err(struct rdiag_doctor *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->errmsg, sizeof(d->errmsg), fmt, ap);
	va_end(ap);
}

size_t rdiag_doctor_ndevices(const struct rdiag_doctor *d)
{
	return d->ndevices;
}

/* vsnprintf into buf[size], and a text it had to cut ends in "..." so that the cut shows */
static void vtext(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (n >= 0 && (size_t)n >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

struct rdiag_doc_finding *rd_doc_add(struct rdiag_doctor *d, const char *check,
				     const char *layer, enum rdiag_doc_level level,
				     const char *cause, const char *subject,
				     const char *summary, ...)
{
	/* the last slot is reused when full so that callers never get NULL */
	struct rdiag_doc_finding *f = &d->findings[d->nfindings < RD_DOC_MAX_FINDINGS ?
						   d->nfindings++ : RD_DOC_MAX_FINDINGS - 1];
	va_list ap;

	memset(f, 0, sizeof(*f));
	f->check = check;
	f->layer = layer;
	f->level = level;
	f->cause = level >= RDIAG_DOC_WARN ? cause : NULL;
	snprintf(f->subject, sizeof(f->subject), "%s", subject ? subject : "");
	va_start(ap, summary);
	vtext(f->summary, sizeof(f->summary), summary, ap);
	va_end(ap);
	return f;
}

/* evidence accumulates: each call appends one line */
void rd_doc_evidence(struct rdiag_doc_finding *f, const char *fmt, ...)
{
	size_t off = strlen(f->evidence);
	va_list ap;

	if (off && off + 2 < sizeof(f->evidence))
		f->evidence[off++] = '\n', f->evidence[off] = 0;
	if (off >= sizeof(f->evidence) - 1)
		return;
	va_start(ap, fmt);
	vtext(f->evidence + off, sizeof(f->evidence) - off, fmt, ap);
	va_end(ap);
}

void rd_doc_hint(struct rdiag_doc_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtext(f->hint, sizeof(f->hint), fmt, ap);
	va_end(ap);
}

const struct rdiag_doc_step *rd_doc_step_find(const struct rdiag_doctor *d,
					      enum rdiag_doc_step_id id)
{
	size_t i;

	for (i = 0; i < d->nsteps; i++)
		if (d->steps[i].id == id)
			return &d->steps[i];
	return NULL;
}

const struct rdiag_doc_finding *rd_doc_find(const struct rdiag_doctor *d, const char *check,
					    enum rdiag_doc_level min)
{
	size_t i;

	for (i = 0; i < d->nfindings; i++)
		if (strcmp(d->findings[i].check, check) == 0 && d->findings[i].level >= min)
			return &d->findings[i];
	return NULL;
}

size_t rdiag_doctor_nfindings(const struct rdiag_doctor *d)
{
	return d->nfindings;
}

const struct rdiag_doc_finding *rdiag_doctor_finding(const struct rdiag_doctor *d, size_t i)
{
	return i < d->nfindings ? &d->findings[i] : NULL;
}

size_t rdiag_doctor_nsteps(const struct rdiag_doctor *d)
{
	return d->nsteps;
}

const struct rdiag_doc_step *rdiag_doctor_step(const struct rdiag_doctor *d, size_t i)
{
	return i < d->nsteps ? &d->steps[i] : NULL;
}

size_t rdiag_doctor_ndeltas(const struct rdiag_doctor *d)
{
	return d->ndeltas;
}

const struct rdiag_doc_delta *rdiag_doctor_delta(const struct rdiag_doctor *d, size_t i)
{
	return i < d->ndeltas ? &d->deltas[i] : NULL;
}

const struct rdiag_doc_peer_info *rdiag_doctor_peer(const struct rdiag_doctor *d)
{
	return &d->peer;
}

unsigned int rdiag_roce_path_mtu(unsigned int netdev_mtu)
{
	/* GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4 (kernel iboe_get_mtu) */
	static const unsigned int ib[] = { 4096, 2048, 1024, 512, 256 };
	size_t i;

	if (netdev_mtu < 96)
		return 0;
	for (i = 0; i < sizeof(ib) / sizeof(ib[0]); i++)
		if (netdev_mtu - 96 >= ib[i])
			return ib[i];
	return 0;
}
