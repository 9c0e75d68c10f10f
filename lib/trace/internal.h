/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/trace/internal.h: the tracing module's private state (see rdmadiag/trace.h). */
#ifndef RD_TRACE_INTERNAL_H
#define RD_TRACE_INTERNAL_H
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "rdmadiag/trace.h"

struct tep_handle;
struct tep_event;
struct tep_record;
struct kbuffer;
struct tracefs_instance;

#define RD_TRACE_COMM_CACHE 64
#define RD_TRACE_MAX_EVENTS 160

struct rd_trace_comm {
	int pid;
	char comm[16];
};

struct rdiag_trace {
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct tracefs_instance *inst;
	char tracefs[2048];		/* the mount point, or the saved copy's directory */
	char instance[64];		/* "" offline */
	char inst_path[2200];	/* tracefs/instances/NAME, for the rmdir on a signal */
	int offline;
	size_t subbuf_size;		/* header + data, from events/header_page */
	size_t data_offset;		/* the data's offset in a sub-buffer */
	int ncpu;
	int *fds;			/* per-CPU trace_pipe_raw (live) */
	unsigned char *page;		/* one sub-buffer + slack for reads */
	char *events[RD_TRACE_MAX_EVENTS];
	size_t nevents;
	const char *missing[32];
	size_t nmissing;
	size_t stale;
	char err[160];			/* rdiag_trace_errmsg(t) */
	struct rd_trace_comm comms[RD_TRACE_COMM_CACHE];
	size_t ncomms, next_comm;
	struct rdiag_trace_event *batch;	/* one read's events, sorted before the callbacks */
	size_t nbatch, cap;
};

/* tep.c: the formats of dir/events/{rdma_cma,ib_cma,ib_mad} and the header page */
int rd_trace_load_formats(struct rdiag_trace *t, const char *dir, int with_ib_mad);
/* read a whole (small) file; *len without the NUL added; -errno */
int rd_trace_slurp(const char *path, char **buf, size_t *len);
/* format_check.c: one event's format file (buf NUL-terminated, len without the NUL) into
 * tep as an event of system sys: 0, or -EINVAL when libtraceevent refuses it or it is refused
 * before (a byte that is not printable ASCII, a tab or a newline; not the kernel's layout of
 * name, ID, field lines and one print fmt line that ends the file; a print format whose
 * string or arguments are not well formed, or that names a field it does not declare) */
int rd_trace_parse_format(struct tep_handle *tep, const char *buf, size_t len, const char *sys);

/* comm.c: comm of pid (cache, /proc when live, saved_cmdlines); a saved_cmdlines file
 * into the tep's pid -> comm table */
void rd_trace_comm(struct rdiag_trace *t, int pid, char *comm, size_t len);
int rd_trace_load_cmdlines(struct rdiag_trace *t, const char *path);

/* decode.c: one record of len bytes -> ev; -EINVAL when it is not one of ours or does not
 * fit its format */
int rd_trace_decode(struct rdiag_trace *t, const void *data, size_t len, uint64_t ts, int cpu,
		    struct rdiag_trace_event *ev);


/* subbuf.c: decode one sub-buffer into t->batch (*missed: the kernel flagged lost events
 * before it); sort the batch by time (stable) and deliver it */
int rd_trace_subbuf_collect(struct rdiag_trace *t, const void *buf, size_t len, int cpu,
			    int *missed);
int rd_trace_batch_deliver(struct rdiag_trace *t, rdiag_trace_cb cb, void *arg);

/* live.c */
int rd_trace_live_read(struct rdiag_trace *t, uint64_t *lost);

/* route.c: the destination dst (family's address bytes; src the source's, or NULL or zero
 * for none) in this host's routing table, looked up as rdmadoctor's route check does
 * without binding a netdev (RTM_GETROUTE, what 'ip route get DST from SRC' asks): an enum
 * rdiag_cause_route (RDIAG_CAUSE_ROUTE_UNKNOWN when the lookup itself failed) */
int rd_trace_route(int family, const unsigned char *src, const unsigned char *dst);

#endif
