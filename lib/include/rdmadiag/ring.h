/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/ring.h: the flight recorder's ring, a file of fixed size on disk.
 *
 * The file is a 64-byte header (magic "RDIAGRNG", version, size, payload format, CRC-32) and
 * a data area that
 * records are written into with pwrite() at a wrapping offset; the file is made at its full
 * size once and never grows.  Each record carries a 32-byte header (magic, payload length,
 * type, sequence number, time in ns) and a CRC-32 (libdeflate, the polynomial of the ICRC)
 * over header and payload.  A record that would cross the end of the data area starts again
 * at its beginning instead.
 *
 * Reading scans the whole data area for records whose magic, length and CRC hold and
 * delivers them by sequence number, oldest first: a record partly overwritten by a later
 * lap, or torn by a writer killed mid-write, fails its CRC and is skipped; every record whose
 * write completed and that no later record overwrote is read back.
 *
 * The ring stores bytes; what a payload means is the recorder's (rdmatrace record) and is
 * fixed by the payload format in the header, RDIAG_RING_FORMAT for the rings this build
 * writes (rings made before formats existed have 0 there).  Format 1, by record type:
 *   START, MARKER, STOP            text (UTF-8, no NUL, the record's length)
 *   EVENT                          binary: rdiag_ring_event_encode() below
 *   CONN    text, tab-separated: cm_id pid comm src dst outcome cause fail_event fail_status
 *           req_sent req_resent verdict
 *   COUNTERS text: "dev\tport\n" then "name\tvalue\n" per counter (decimal, raw value)
 *   PORT    text: dev port STATE PHYS_STATE
 *   NETLINK text: kind new|del ifname text
 *   QP      text: dev port qpn type from_state to_state pid comm ("" from: new, "" to: gone)
 *   GID     text: dev port index added|removed|changed gid type ndev old_gid
 * A reader skips (and counts) a record of a format or type it does not know, and one whose
 * payload does not decode, rather than guess.
 *
 * Reading uses bounded preads (no mapping) and skips holes; every record is read again into
 * a buffer of the reader's and checked once more before the callback sees it, so a ring that
 * changes meanwhile (a live recorder's, or a hostile one) gives only records that check out.
 *
 * The writer never opens the file through a symbolic link, allocates it whole when it makes
 * it, and before each record checks that the file at its path is still the ring it opened;
 * copies are made beside the target exclusively, synced and renamed over it.
 *
 * Functions return 0 or -errno and never print; rdiag_ring_errmsg() says why in one line (of
 * the handle's last failed call, or with NULL of the last failed rdiag_ring_open() or
 * rdiag_ring_read()).  Errors of rdiag_ring_read / rdiag_ring_open: -ENOENT no such file,
 * -EBADMSG not a ring (bad magic, version or header CRC), -ENODATA the file is shorter than
 * its header says (truncated, before or while it is read), -EISDIR a directory; of
 * rdiag_ring_read only: -ENODATA also for a file with no record that holds less on disk than
 * its header claims; of rdiag_ring_open only: -EINVAL no path, or a size out of range,
 * -EEXIST the file is not a ring of that size, -EPROTO it is one of another payload format
 * (neither is touched), -ELOOP a symbolic link at the path, -ENOSPC no room for the whole
 * ring.  Of rdiag_ring_append: -EMSGSIZE, the errno of the failed write, and, once the file
 * at the path is no longer the ring (another process truncated or extended it: -ENODATA,
 * removed or replaced it: -ESTALE, overwrote its header: -EBADMSG), that error on every call
 * with nothing written.
 */
#ifndef RDMADIAG_RING_H
#define RDMADIAG_RING_H
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDIAG_RING_HDR_LEN 64
#define RDIAG_RING_REC_HDR_LEN 32
#define RDIAG_RING_MIN_SIZE 4096ULL
#define RDIAG_RING_MAX_SIZE (1ULL << 32)
#define RDIAG_RING_FORMAT 1		/* the payload format this build writes */

/* record types of the flight recorder (rdmatrace record) */
enum rdiag_ring_type {
	RDIAG_REC_START = 1,		/* the recorder started: text "host ... interval ..." */
	RDIAG_REC_MARKER = 2,		/* a trigger: text, why */
	RDIAG_REC_EVENT = 3,		/* one CM tracepoint event */
	RDIAG_REC_CONN = 4,		/* a connection that ended */
	RDIAG_REC_COUNTERS = 5,		/* a counter snapshot of one port */
	RDIAG_REC_PORT = 6,		/* a port state change */
	RDIAG_REC_NETLINK = 7,		/* an rtnetlink link/addr/neigh/route change */
	RDIAG_REC_STOP = 8,		/* the recorder ended cleanly */
	RDIAG_REC_QP = 9,		/* a QP appeared, changed state or went away */
	RDIAG_REC_GID = 10,		/* a GID table entry added, removed or changed */
};

struct rdiag_ring;

struct rdiag_ring_opts {
	const char *path;	/* the ring file (required) */
	uint64_t size;		/* bytes, RDIAG_RING_MIN_SIZE .. RDIAG_RING_MAX_SIZE (rounded
				 * down to a multiple of 8) */
};

/* create opts->path as a ring of opts->size bytes, or, when it is already a ring of that size,
 * continue after its newest record.  An existing file that is not a ring, or a ring of
 * another size, is not touched: -EEXIST; a symbolic link at the path: -ELOOP.  On failure
 * rdiag_ring_errmsg(NULL) says why. */
int rdiag_ring_open(struct rdiag_ring **r, const struct rdiag_ring_opts *opts);
/* the largest payload rdiag_ring_append takes for this ring */
size_t rdiag_ring_max_payload(const struct rdiag_ring *r);
/* write one record; -EMSGSIZE when len is over rdiag_ring_max_payload */
int rdiag_ring_append(struct rdiag_ring *r, unsigned int type, uint64_t time_ns,
		      const void *data, size_t len);
/* copy the ring as it is now to path (a new file, mode 0644, made beside it exclusively,
 * synced and renamed over it: an existing file or link there is replaced, never written
 * through) */
int rdiag_ring_copy(struct rdiag_ring *r, const char *path);
/* records written through this handle, laps of the data area (wraps) */
uint64_t rdiag_ring_written(const struct rdiag_ring *r);
uint64_t rdiag_ring_wraps(const struct rdiag_ring *r);
/* one line about the handle's last failed call ("" when none); with r == NULL why the last
 * failed rdiag_ring_open() of the process failed (librdmadiag(3), Conventions) */
const char *rdiag_ring_errmsg(const struct rdiag_ring *r);
void rdiag_ring_close(struct rdiag_ring *r);

struct rdiag_ring_record {
	uint64_t seq;
	uint64_t time_ns;
	unsigned int type;
	const void *data;
	size_t len;
};
struct rdiag_ring_info {
	uint64_t size;			/* the header's size */
	uint64_t records;		/* valid records delivered */
	uint64_t skipped_bytes;		/* data-area bytes in no valid record (unused, torn,
					 * overwritten) */
	uint32_t format;		/* the header's payload format (0: before formats) */
};
typedef int (*rdiag_ring_cb)(const struct rdiag_ring_record *rec, void *arg);
/* every valid record of the ring at path, oldest first; a non-zero return of cb stops the
 * walk and is returned.  info may be NULL. */
int rdiag_ring_read(const char *path, rdiag_ring_cb cb, void *arg, struct rdiag_ring_info *info);

/* An rdma_cm event as an EVENT payload of format 1: every field little-endian at a fixed
 * width (u64 ts_ns; u32 cpu, pid, flags (has_cm_id 1, has_addrs 2, has_status 4,
 * has_ib_ids 8, has_mad 16), cm_id, tos, cm_event, status, local_id, remote_id, ib_state,
 * rej_reason, wc_status, mgmt_class, method, attr_id; u64 tid; u32 retries_left,
 * max_retries, dev_index, port_num), then src and dst (u16 family 0 none / 4 / 6, u16 port,
 * 16 address bytes (IPv4 in the first 4), u32 IPv6 scope id), then comm, system, name,
 * device, detail (u16 length, bytes, no NUL).  encode returns the length written, or
 * -EMSGSIZE when len is too small; decode returns 0, or -EBADMSG for a payload that is
 * short, long, has unknown flags or family, or a string longer than its field (ev zeroed). */
int rdiag_ring_event_encode(const struct rdiag_trace_event *ev, void *buf, size_t len);
int rdiag_ring_event_decode(const void *buf, size_t len, struct rdiag_trace_event *ev);

#ifdef __cplusplus
}
#endif
#endif
