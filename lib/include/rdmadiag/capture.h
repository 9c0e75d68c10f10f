/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/capture.h: read frames from a capture file or a live interface (libpcap), write
 * matched frames to a pcap file.
 *
 *	struct rdiag_capture_opts o = { .file = "x.pcapng" };   (or "-" for stdin)
 *	struct rdiag_capture *c;
 *	struct rdiag_frame f;
 *
 *	if (rdiag_capture_open(&c, &o) < 0)
 *		... rdiag_capture_errmsg(NULL)   (one line, from libpcap, says why)
 *	while ((r = rdiag_capture_next(c, &f)) > 0)
 *		rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, &opts);
 *	if (r < 0) ... rdiag_capture_errmsg(c)    (e.g. the file is cut in a record)
 *	rdiag_capture_close(c);
 *
 * Timestamps are always nanoseconds (files are opened with nanosecond precision, so µs and ns
 * pcaps and pcapng all work).  Frames are not copied: f.data points into libpcap's buffer (or,
 * for a classic pcap file, into a read-only mapping of the file) and is valid until the next
 * call.  Nothing is allocated per frame.
 */
#ifndef RDMADIAG_CAPTURE_H
#define RDMADIAG_CAPTURE_H
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_capture;

struct rdiag_frame {
	uint64_t n;			/* frame number, 1-based, counted over every frame read */
	uint64_t ts_sec;
	uint32_t ts_nsec;
	uint32_t caplen, len;
	int linktype;			/* pcap LINKTYPE_ of this frame (pcapng: per interface) */
	const uint8_t *data;
};

/* default live filter; a user expression is appended as "(default) and (expr)" */
#define RDIAG_CAPTURE_DEFAULT_FILTER "udp port 4791 or ether proto 0x8915 or ether proto 0x8808"

struct rdiag_live_opts {
	int snaplen;			/* 0 = 65535 */
	int buffer_kib;			/* kernel buffer in KiB; 0 = 8192 */
	int timeout_ms;			/* poll timeout so signals are seen; 0 = 200 */
	bool no_default_filter;		/* only the user filter (or none) */
	const char *filter;		/* extra BPF expression or NULL */
	const uint16_t *ports;		/* RoCEv2 UDP ports for the default filter; NULL = 4791 */
	unsigned int n_ports;
};

/* what to open: exactly one of file and iface */
struct rdiag_capture_opts {
	const char *file;		/* a pcap or pcapng file; "-" is stdin */
	const char *iface;		/* a live interface */
	struct rdiag_live_opts live;	/* live only; all zero = the defaults above */
};

/* Open a capture.  0 or -errno; on failure rdiag_capture_errmsg(NULL) says why.
 * A file: -ENOENT/-EACCES/... for the file, -EINVAL for something that is not a capture (or is
 * empty), -EPROTONOSUPPORT for a link type the packet decoder does not handle, -ELIBACC when
 * libpcap cannot be loaded (it is dlopen()ed by the first open, not linked).
 * Live: immediate mode, nanosecond timestamps when the platform has them; -ENODEV, -EPERM,
 * -ENETDOWN, -EINVAL (a bad filter) ... */
int rdiag_capture_open(struct rdiag_capture **cp, const struct rdiag_capture_opts *opts);

/* The BPF text a live capture would use for opts (for messages/tests); 0 or -ENOSPC. */
int rdiag_capture_filter_text(const struct rdiag_live_opts *opts, char *buf, size_t len);

/* Apply a BPF expression (files too: libpcap filters them in user space); 0 or -EINVAL
 * (rdiag_capture_errmsg(c) has libpcap's message). */
int rdiag_capture_set_filter(struct rdiag_capture *c, const char *expr);

/* Next frame: 1 (a frame in *f), 0 (end of file), -EAGAIN (live: the read timeout passed
 * with no frame: call again), -EINTR (rdiag_capture_break was called), or -errno (-EIO: read
 * error, -EPROTONOSUPPORT: a pcapng interface with an unsupported link type;
 * rdiag_capture_errmsg(c) has the text). */
int rdiag_capture_next(struct rdiag_capture *c, struct rdiag_frame *f);

/* Ask a blocked rdiag_capture_next to return -EINTR; safe to call from a signal handler. */
void rdiag_capture_break(struct rdiag_capture *c);

void rdiag_capture_close(struct rdiag_capture *c);

int rdiag_capture_linktype(const struct rdiag_capture *c);
bool rdiag_capture_is_live(const struct rdiag_capture *c);
/* one line about the handle's last failure, never NULL, "" when none.  With c == NULL: why
 * the last failed rdiag_capture_open() of the process failed (librdmadiag(3), Conventions). */
const char *rdiag_capture_errmsg(const struct rdiag_capture *c);

struct rdiag_capture_stats {
	uint64_t frames;		/* frames returned so far */
	uint64_t received;		/* live: pcap_stats ps_recv */
	uint64_t dropped;		/* live: ps_drop (buffer full) */
	uint64_t if_dropped;		/* live: ps_ifdrop */
	bool have_drops;		/* the drop counters are meaningful */
};
int rdiag_capture_stats(struct rdiag_capture *c, struct rdiag_capture_stats *st);

/* File progress: bytes read so far and the file size; -ENOTSUP for stdin, pipes, live. */
int rdiag_capture_progress(struct rdiag_capture *c, uint64_t *pos, uint64_t *size);

/* ---- writing: a pcap file with the capture's link type and nanosecond timestamps ---------- */
struct rdiag_capture_dump;

struct rdiag_capture_dump_opts {
	const struct rdiag_capture *capture;	/* the link type and snap length to write */
	const char *path;			/* "-" = stdout */
};

/* 0 or -errno; on failure rdiag_capture_dump_errmsg(NULL) says why */
int rdiag_capture_dump_open(struct rdiag_capture_dump **dp,
			    const struct rdiag_capture_dump_opts *opts);
/* 0 or -EIO (rdiag_capture_dump_errmsg(d) has the text) */
int rdiag_capture_dump_write(struct rdiag_capture_dump *d, const struct rdiag_frame *f);
/* flush and close; the writer is freed in every case.  0 or -EIO when something could not be
 * written: as fclose(3), the one close that reports, since a writer's last bytes go out here */
int rdiag_capture_dump_close(struct rdiag_capture_dump *d);
/* as rdiag_capture_errmsg(), for the writer */
const char *rdiag_capture_dump_errmsg(const struct rdiag_capture_dump *d);

#ifdef __cplusplus
}
#endif
#endif
