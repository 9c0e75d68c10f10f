/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Capture files and live interfaces through libpcap; see rdmadiag/capture.h.
 *
 * libpcap's own messages are kept (they are precise: "truncated dump file; tried to read 1066
 * captured bytes, only got 530") but are folded into one line and prefixed with what we were
 * doing, so a tool can print them as they are. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pcap/pcap.h>

#include "rdmadiag/capture.h"
#include "rdmadiag/packet.h"
#include "internal.h"		/* pcap_*() go through the table libpcap is loaded into */
#include "pcap_map.h"
#include "open_error.h"

#define ERR_LEN (PCAP_ERRBUF_SIZE + 256)

struct rdiag_capture {
	pcap_t *p;
	FILE *file;		/* the file libpcap reads (NULL for live) */
	bool live, nano;
	volatile int broken;	/* rdiag_capture_break() was called */
	int linktype;
	uint64_t frames;
	uint64_t size;		/* regular file size, 0 when unknown */
	struct rd_pcap_map map;	/* a classic pcap file's records read in place (pcap_map.h) */
	char err[ERR_LEN];
	/* stdio buffer of a file we opened (see open_file); it outlives the FILE,
	 * which pcap_close() closes before the struct is freed */
	char iobuf[1 << 18];
};

struct rdiag_capture_dump {
	pcap_dumper_t *d;
	bool nano;
	int errnum;		/* errno of the first failed write, 0 while none */
	char err[ERR_LEN];
};

/* why the last failed rdiag_capture_open() / rdiag_capture_dump_open() failed */
bool rd_capture_no_map;
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;
static struct rd_open_error dump_open_err = RD_OPEN_ERROR_INIT;

/* libpcap messages may carry a trailing newline or embedded ones: one line, no full stop */
static void one_line(char *s)
{
	size_t n;

	for (char *q = s; *q; q++)
		if (*q == '\n' || *q == '\r' || *q == '\t')
			*q = ' ';
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '.'))
		s[--n] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void set_err(char *dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, ERR_LEN, fmt, ap);
	va_end(ap);
	one_line(dst);
}

const char *rdiag_capture_errmsg(const struct rdiag_capture *c)
{
	return c ? c->err : rd_open_error_get(&open_err);
}

const char *rdiag_capture_dump_errmsg(const struct rdiag_capture_dump *d)
{
	return d ? d->err : rd_open_error_get(&dump_open_err);
}

static const char *shown_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* libpcap says "unknown file format" for garbage and "truncated dump file; tried to read 4 file
 * header bytes, only got 0" for an empty stream: say what that means for the user */
static void open_error(char *why, const char *path, const char *pcap_msg, bool empty)
{
	char m[PCAP_ERRBUF_SIZE];

	snprintf(m, sizeof(m), "%s", pcap_msg);
	one_line(m);
	if (empty || (strstr(m, "file header") && strstr(m, "only got 0")))
		set_err(why, "'%s': empty file, not a pcap or pcapng capture",
			shown_name(path));
	else if (strstr(m, "unknown file format") || strstr(m, "file header"))
		set_err(why, "'%s': not a pcap or pcapng capture (%s)", shown_name(path), m);
	else
		set_err(why, "'%s': %s", shown_name(path), m);
}

static int check_linktype(struct rdiag_capture *c, const char *what, char *why)
{
	int lt = pcap_datalink(c->p);

	c->linktype = lt;
	if (!rdiag_linktype_supported(lt)) {
		const char *name = pcap_datalink_val_to_name(lt);

		set_err(why, "'%s': unsupported link type %d (%s); rdmadiag decodes Ethernet, "
			"Linux cooked (SLL, SLL2), raw IP and InfiniBand", what, lt,
			name ? name : "unknown");
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static int open_file(struct rdiag_capture **cp, const char *path, char *why)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct rdiag_capture *c;
	struct stat st;
	bool empty = false;
	int r;

	if (!cp || !path)
		return -EINVAL;
	*cp = NULL;
	r = rd_pcap_load(why, ERR_LEN);
	if (r < 0)
		return r;
	c = calloc(1, sizeof(*c));
	if (!c) {
		set_err(why, "out of memory");
		return -ENOMEM;
	}
	if (strcmp(path, "-") == 0) {
		c->file = stdin;
	} else {
		c->file = fopen(path, "rb");
		if (!c->file) {
			r = -errno;
			set_err(why, "cannot open '%s': %s", path, strerror(errno));
			free(c);
			return r;
		}
	}
	/* libpcap reads a record at a time through stdio: with the default 4 KiB buffer a
	 * 500 MB file takes ~120 000 read() calls (glibc ignores the size without a buffer) */
	if (c->file != stdin)
		setvbuf(c->file, c->iobuf, _IOFBF, sizeof(c->iobuf));
	if (fstat(fileno(c->file), &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			set_err(why, "cannot read '%s': %s", path, strerror(EISDIR));
			fclose(c->file);
			free(c);
			return -EISDIR;
		}
		if (S_ISREG(st.st_mode)) {
			c->size = (uint64_t)st.st_size;
			empty = st.st_size == 0;
		}
	}
	c->p = pcap_fopen_offline_with_tstamp_precision(c->file, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!c->p) {
		open_error(why, path, ebuf, empty);
		if (c->file != stdin)
			fclose(c->file);
		free(c);
		return -EINVAL;
	}
	/* pcap_close() closes c->file from now on */
	c->nano = pcap_get_tstamp_precision(c->p) == PCAP_TSTAMP_PRECISION_NANO;
	r = check_linktype(c, shown_name(path), why);
	if (r < 0) {
		rdiag_capture_close(c);
		return r;
	}
	/* libpcap has read and checked the file header; a plain pcap's records are then read
	 * from a mapping (no copy per record); anything else stays on libpcap */
	if (c->file != stdin && c->size && !rd_capture_no_map) {
		off_t at = ftello(c->file);

		if (at >= 0)
			(void)rd_pcap_map_open(&c->map, fileno(c->file), c->size, (uint64_t)at,
					       (uint32_t)pcap_snapshot(c->p));
	}
	*cp = c;
	return 0;
}

int rdiag_capture_filter_text(const struct rdiag_live_opts *o, char *buf, size_t len)
{
	static const uint16_t def_port = 4791;
	const uint16_t *ports = (o && o->ports && o->n_ports) ? o->ports : &def_port;
	unsigned int n = (o && o->ports && o->n_ports) ? o->n_ports : 1;
	size_t off = 0;
	int w;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	if (!o || !o->no_default_filter) {
		bool wrap = o && o->filter && *o->filter;

		w = snprintf(buf, len, "%s", wrap ? "(" : "");
		off += (size_t)w;
		for (unsigned int i = 0; i < n && off < len; i++) {
			w = snprintf(buf + off, len - off, "udp port %u or ", ports[i]);
			off += (size_t)w;
		}
		if (off < len) {
			/* RoCEv1, and PAUSE/PFC (MAC control) when the NIC passes them up */
			w = snprintf(buf + off, len - off,
				     "ether proto 0x8915 or ether proto 0x8808%s",
				     wrap ? ") and (" : "");
			off += (size_t)w;
		}
		if (wrap && off < len) {
			w = snprintf(buf + off, len - off, "%s)", o->filter);
			off += (size_t)w;
		}
	} else if (o->filter) {
		off = (size_t)snprintf(buf, len, "%s", o->filter);
	}
	return off < len ? 0 : -ENOSPC;
}

static int pcap_err_to_errno(int r)
{
	switch (r) {
	case PCAP_ERROR_NO_SUCH_DEVICE:
		return -ENODEV;
	case PCAP_ERROR_PERM_DENIED:
		return -EPERM;
	case PCAP_ERROR_IFACE_NOT_UP:
		return -ENETDOWN;
	case PCAP_ERROR_PROMISC_PERM_DENIED:
		return -EPERM;
	default:
		return -EIO;
	}
}

static int open_live(struct rdiag_capture **cp, const char *iface,
		     const struct rdiag_live_opts *o, char *why)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	char filter[4096];
	struct bpf_program prog;
	struct rdiag_capture *c;
	int r;

	if (!cp || !iface)
		return -EINVAL;
	*cp = NULL;
	r = rd_pcap_load(why, ERR_LEN);
	if (r < 0)
		return r;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->live = true;
	c->p = pcap_create(iface, ebuf);
	if (!c->p) {
		set_err(why, "cannot capture on '%s': %s", iface, ebuf);
		free(c);
		return -ENODEV;
	}
	pcap_set_snaplen(c->p, o && o->snaplen > 0 ? o->snaplen : 65535);
	pcap_set_immediate_mode(c->p, 1);
	pcap_set_buffer_size(c->p, (o && o->buffer_kib > 0 ? o->buffer_kib : 8192) * 1024);
	pcap_set_timeout(c->p, o && o->timeout_ms > 0 ? o->timeout_ms : 200);
	/* nanosecond stamps where the platform has them; microseconds are fine otherwise */
	(void)pcap_set_tstamp_precision(c->p, PCAP_TSTAMP_PRECISION_NANO);
	r = pcap_activate(c->p);
	if (r < 0) {
		const char *m = pcap_geterr(c->p);

		set_err(why, "cannot capture on '%s': %s", iface,
			(r == PCAP_ERROR && m && *m) ? m : pcap_statustostr(r));
		r = pcap_err_to_errno(r);
		pcap_close(c->p);
		free(c);
		return r;
	}
	c->nano = pcap_get_tstamp_precision(c->p) == PCAP_TSTAMP_PRECISION_NANO;
	r = check_linktype(c, iface, why);
	if (r < 0)
		goto fail;
	/* native IB (DLT 247) has no UDP or ethertype for the default filter to test */
	if (c->linktype == RDIAG_DLT_INFINIBAND && !(o && o->no_default_filter)) {
		struct rdiag_live_opts ib = o ? *o : (struct rdiag_live_opts){ 0 };

		ib.no_default_filter = true;
		r = rdiag_capture_filter_text(&ib, filter, sizeof(filter));
	} else {
		r = rdiag_capture_filter_text(o, filter, sizeof(filter));
	}
	if (r < 0) {
		set_err(why, "capture filter too long");
		r = -E2BIG;
		goto fail;
	}
	if (*filter) {
		if (pcap_compile(c->p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
			set_err(why, "bad capture filter '%s': %s", filter, pcap_geterr(c->p));
			r = -EINVAL;
			goto fail;
		}
		r = pcap_setfilter(c->p, &prog);
		pcap_freecode(&prog);
		if (r < 0) {
			set_err(why, "cannot set capture filter on '%s': %s", iface,
				pcap_geterr(c->p));
			r = -EIO;
			goto fail;
		}
	}
	*cp = c;
	return 0;
fail:
	rdiag_capture_close(c);
	return r;
}

/* the reason of a failure: what the step said, else the errno's text */
static void publish(struct rd_open_error *e, const char *why, int r)
{
	rd_open_error_set(e, "%s", *why ? why : strerror(-r));
}

int rdiag_capture_open(struct rdiag_capture **cp, const struct rdiag_capture_opts *o)
{
	char why[ERR_LEN] = "";
	int r;

	if (cp)
		*cp = NULL;
	if (!cp || !o || !o->file == !o->iface) {
		rd_open_error_set(&open_err, "rdiag_capture_open: give a file or an interface");
		return -EINVAL;
	}
	r = o->file ? open_file(cp, o->file, why) : open_live(cp, o->iface, &o->live, why);
	if (r < 0)
		publish(&open_err, why, r);
	return r;
}

/* libpcap reads on from where the mapping stopped: it decides what the mapped reader does not
 * (the end of the file, a record cut short or over the snapshot length) with its own errors */
static int map_hand_back(struct rdiag_capture *c)
{
	off_t at = (off_t)rd_pcap_map_offset(&c->map);

	rd_pcap_map_close(&c->map);
	if (fseeko(c->file, at, SEEK_SET) != 0) {
		set_err(c->err, "cannot read the capture file: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

int rdiag_capture_set_filter(struct rdiag_capture *c, const char *expr)
{
	struct bpf_program prog;
	int r;

	if (!c || !expr)
		return -EINVAL;
	if (pcap_compile(c->p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		set_err(c->err, "bad filter expression '%s': %s", expr, pcap_geterr(c->p));
		return -EINVAL;
	}
	r = pcap_setfilter(c->p, &prog);
	pcap_freecode(&prog);
	if (r < 0) {
		set_err(c->err, "cannot set filter '%s': %s", expr, pcap_geterr(c->p));
		return -EINVAL;
	}
	/* the filter runs inside libpcap's reads */
	if (c->map.base && map_hand_back(c) < 0)
		return -EIO;
	return 0;
}

int rdiag_capture_next(struct rdiag_capture *c, struct rdiag_frame *f)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int r;

	if (!c || !f)
		return -EINVAL;
	if (c->broken)
		return -EINTR;
	if (c->map.base) {
		struct rd_pcap_rec rec;

		if (rd_pcap_map_next(&c->map, &rec)) {
			f->n = ++c->frames;
			f->ts_sec = rec.ts_sec;
			f->ts_nsec = rec.ts_nsec;
			f->caplen = rec.caplen;
			f->len = rec.len;
			f->linktype = c->linktype;
			f->data = rec.data;
			return 1;
		}
		if (map_hand_back(c) < 0)
			return -EIO;
	}
	r = pcap_next_ex(c->p, &h, &data);
	if (r == 1) {
		f->n = ++c->frames;
		f->ts_sec = (uint64_t)h->ts.tv_sec;
		f->ts_nsec = (uint32_t)(c->nano ? h->ts.tv_usec : h->ts.tv_usec * 1000);
		f->caplen = h->caplen;
		f->len = h->len;
		f->linktype = c->linktype;
		f->data = data;
		return 1;
	}
	if (r == 0)
		return -EAGAIN;		/* live: the read timeout expired with nothing */
	if (r == PCAP_ERROR_BREAK)
		return c->broken ? -EINTR : 0;
	/* PCAP_ERROR: the file is cut inside a record, or a read error */
	set_err(c->err, "%s", pcap_geterr(c->p));
	if (strstr(c->err, "truncated"))
		set_err(c->err, "capture file is cut short inside frame %llu (%s)",
			(unsigned long long)c->frames + 1, pcap_geterr(c->p));
	return -EIO;
}

void rdiag_capture_break(struct rdiag_capture *c)
{
	if (!c)
		return;
	c->broken = 1;
	pcap_breakloop(c->p);
}

void rdiag_capture_close(struct rdiag_capture *c)
{
	if (!c)
		return;
	rd_pcap_map_close(&c->map);
	if (c->p)
		pcap_close(c->p);	/* closes c->file too (stdin included) */
	free(c);
}

int rdiag_capture_linktype(const struct rdiag_capture *c)
{
	return c ? c->linktype : -1;
}

bool rdiag_capture_is_live(const struct rdiag_capture *c)
{
	return c && c->live;
}

int rdiag_capture_stats(struct rdiag_capture *c, struct rdiag_capture_stats *st)
{
	struct pcap_stat ps;

	if (!c || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->frames = c->frames;
	if (!c->live)
		return 0;
	if (pcap_stats(c->p, &ps) < 0) {
		set_err(c->err, "%s", pcap_geterr(c->p));
		return -EIO;
	}
	st->received = ps.ps_recv;
	st->dropped = ps.ps_drop;
	st->if_dropped = ps.ps_ifdrop;
	st->have_drops = true;
	return 0;
}

int rdiag_capture_progress(struct rdiag_capture *c, uint64_t *pos, uint64_t *size)
{
	long off;

	if (!c || !pos || !size)
		return -EINVAL;
	if (c->live || !c->size)
		return -ENOTSUP;
	off = c->map.base ? (long)rd_pcap_map_offset(&c->map) : ftell(pcap_file(c->p));
	if (off < 0)
		return -ENOTSUP;
	*pos = (uint64_t)off;
	*size = c->size;
	return 0;
}

/* (device, inode) of the file a capture reads, or false for a live capture or none */
static bool input_file_id(const struct rdiag_capture *c, struct stat *st)
{
	return c->file && fstat(fileno(c->file), st) == 0 && S_ISREG(st->st_mode);
}

/* the output file, created 0644 (less the umask) as tcpdump does, and emptied only once it is
 * known not to be the file being read: "-w X -r X" would otherwise destroy its own input */
static FILE *create_output(const struct rdiag_capture *c, const char *path, char *why, int *err)
{
	struct stat in, out;
	FILE *f;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		*err = errno;
		set_err(why, "cannot create '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (input_file_id(c, &in) && fstat(fd, &out) == 0 && in.st_dev == out.st_dev &&
	    in.st_ino == out.st_ino) {
		close(fd);
		*err = EINVAL;
		set_err(why, "refusing to write '%s': it is the capture being read", path);
		return NULL;
	}
	if (fstat(fd, &out) == 0 && S_ISREG(out.st_mode) && ftruncate(fd, 0) < 0) {
		*err = errno;
		set_err(why, "cannot create '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "wb");
	if (!f) {
		*err = errno;
		set_err(why, "cannot create '%s': %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

static int dump_open(struct rdiag_capture_dump **dp, const struct rdiag_capture *c,
		     const char *path, char *why)
{
	struct rdiag_capture_dump *d;
	FILE *f;
	int err = 0;

	if (!dp || !c || !path)
		return -EINVAL;
	*dp = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (strcmp(path, "-") == 0) {
		/* a stream of its own on a copy of standard output: closing the dump (libpcap
		 * fcloses it) must not close stdout under the tool, which checks its stdout for
		 * write errors at exit */
		int fd;

		fflush(stdout);
		fd = dup(STDOUT_FILENO);
		f = fd < 0 ? NULL : fdopen(fd, "wb");
		if (!f) {
			err = errno;
			set_err(why, "cannot write to standard output: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
		}
	} else {
		f = create_output(c, path, why, &err);
	}
	if (!f) {
		free(d);
		return -err;
	}
	d->d = pcap_dump_fopen(c->p, f);
	if (!d->d) {
		set_err(why, "cannot write '%s': %s", path, pcap_geterr(c->p));
		fclose(f);
		free(d);
		return -EIO;
	}
	d->nano = c->nano;
	*dp = d;
	return 0;
}

int rdiag_capture_dump_open(struct rdiag_capture_dump **dp,
			    const struct rdiag_capture_dump_opts *o)
{
	char why[ERR_LEN] = "";
	int r;

	if (dp)
		*dp = NULL;
	if (!dp || !o || !o->capture || !o->path) {
		rd_open_error_set(&dump_open_err, "rdiag_capture_dump_open: give a capture and a path");
		return -EINVAL;
	}
	r = dump_open(dp, o->capture, o->path, why);
	if (r < 0)
		publish(&dump_open_err, why, r);
	return r;
}

int rdiag_capture_dump_write(struct rdiag_capture_dump *d, const struct rdiag_frame *f)
{
	struct pcap_pkthdr h;

	if (!d || !f)
		return -EINVAL;
	h.ts.tv_sec = (time_t)f->ts_sec;
	h.ts.tv_usec = (suseconds_t)(d->nano ? f->ts_nsec : f->ts_nsec / 1000);
	h.caplen = f->caplen;
	h.len = f->len;
	if (d->errnum)
		return -d->errnum;
	errno = 0;
	pcap_dump((u_char *)d->d, &h, f->data);
	if (ferror(pcap_dump_file(d->d))) {
		d->errnum = errno ? errno : EIO;
		set_err(d->err, "write error: %s", strerror(d->errnum));
		return -d->errnum;
	}
	return 0;
}

int rdiag_capture_dump_close(struct rdiag_capture_dump *d)
{
	int r = 0;

	if (!d)
		return 0;
	errno = 0;
	if (d->errnum)
		r = -d->errnum;
	else if (pcap_dump_flush(d->d) < 0 || ferror(pcap_dump_file(d->d)))
		r = errno ? -errno : -EIO;
	pcap_dump_close(d->d);
	free(d);
	return r;
}
