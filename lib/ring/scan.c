/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The ring file's layout and its scan (internal.h).  The scan reads the file with preads
 * into a window of 1 MiB and a record, never maps it: a file truncated meanwhile is a short
 * read (-ENODATA), not a SIGBUS, and a header that claims 4 GiB over a sparse file costs the
 * data the file holds, not 4 GiB of memory (holes are skipped: no record starts in one).
 * What the scan checked of each record is kept, and rd_ring_fetch checks it again on the
 * copy it reads, so a ring changed between the two is never trusted on the first look. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>

#include "internal.h"

#define WINDOW (1u << 20)	/* bytes read at a time (plus the largest record) */

struct rd_open_error rd_ring_err = RD_OPEN_ERROR_INIT;

/* file header: magic[8] version u32 hdr_len u32 size u64 format u32 ... crc u32 at 60 over
 * 0..59 (format: what the payloads mean, rdmadiag/ring.h; 0 in rings older than it) */
void rd_ring_header_build(unsigned char *h, uint64_t size)
{
	memset(h, 0, RDIAG_RING_HDR_LEN);
	memcpy(h, RING_MAGIC, 8);
	rd_put32(h + 8, RING_VERSION);
	rd_put32(h + 12, RDIAG_RING_HDR_LEN);
	rd_put64(h + 16, size);
	rd_put32(h + 24, RDIAG_RING_FORMAT);
	rd_put32(h + 60, (uint32_t)libdeflate_crc32(0, h, 60));
}

static int header_check(const unsigned char *h, uint64_t *size, uint32_t *format)
{
	if (memcmp(h, RING_MAGIC, 8) || rd_get32(h + 8) != RING_VERSION ||
	    rd_get32(h + 12) != RDIAG_RING_HDR_LEN ||
	    rd_get32(h + 60) != (uint32_t)libdeflate_crc32(0, h, 60))
		return -EBADMSG;
	*size = rd_get64(h + 16);
	*format = rd_get32(h + 24);
	if (*size < RDIAG_RING_MIN_SIZE || *size > RDIAG_RING_MAX_SIZE)
		return -EBADMSG;
	return 0;
}

/* record header: magic u32, len u32, type u16, flags u16, crc u32, seq u64, time u64; the
 * CRC covers the header with its crc field zero, then the payload */
uint32_t rd_ring_rec_crc(const unsigned char *rec, size_t len)
{
	static const unsigned char zero[4];
	uint32_t c = (uint32_t)libdeflate_crc32(0, rec, 12);

	c = (uint32_t)libdeflate_crc32(c, zero, 4);
	return (uint32_t)libdeflate_crc32(c, rec + 16, RDIAG_RING_REC_HDR_LEN - 16 + len);
}

size_t rd_ring_max_payload(uint64_t size)
{
	uint64_t m = (size - RDIAG_RING_HDR_LEN) / 4;

	if (m > 65536)
		m = 65536;
	return (size_t)(m - RDIAG_RING_REC_HDR_LEN);
}

/* the valid record at p, with avail bytes of the data area from it: its payload length, or
 * -1 */
static long rec_valid(const unsigned char *p, uint64_t avail, size_t max_payload)
{
	uint32_t len;

	if (avail < RDIAG_RING_REC_HDR_LEN || rd_get32(p) != REC_MAGIC)
		return -1;
	len = rd_get32(p + 4);
	if (len > max_payload || len > avail - RDIAG_RING_REC_HDR_LEN)
		return -1;
	if (rd_get32(p + 12) != rd_ring_rec_crc(p, len))
		return -1;
	return (long)len;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rd_ring_rec *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the data extent at or after off: 1 with [*start, *end), 0 when only holes follow; a file
 * system without SEEK_DATA is all data */
static int next_data(int fd, uint64_t off, uint64_t size, uint64_t *start, uint64_t *end)
{
	off_t d = lseek(fd, (off_t)off, SEEK_DATA), h;

	if (d < 0) {
		if (errno == ENXIO)
			return 0;
		*start = off;
		*end = size;
		return 1;
	}
	h = lseek(fd, d, SEEK_HOLE);
	*start = (uint64_t)d;
	*end = h < 0 ? size : (uint64_t)h;
	return 1;
}

/* the file at fd is shorter than the header's size (now): -ENODATA, said in rd_ring_err */
static int truncated(int fd, uint64_t size, const char *when)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	rd_open_error_set(&rd_ring_err, "truncated%s: its header claims %llu bytes but the file "
			  "holds %llu", when, (unsigned long long)size,
			  (unsigned long long)st.st_size);
	return -ENODATA;
}

static int add_rec(struct rd_ring_scan *s, size_t *cap, const struct rd_ring_rec *x)
{
	if (s->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct rd_ring_rec *n = realloc(s->recs, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->recs = n;
		*cap = ncap;
	}
	s->recs[s->n++] = *x;
	return 0;
}

static uint64_t window_size(uint64_t size)
{
	uint64_t maxrec = RDIAG_RING_REC_HDR_LEN + rd_ring_max_payload(size);

	return size < WINDOW + maxrec ? size : WINDOW + maxrec;	/* a small ring whole */
}

static int scan_records(int fd, struct rd_ring_scan *s)
{
	size_t maxp = rd_ring_max_payload(s->size), cap = 0;
	uint64_t maxrec = RDIAG_RING_REC_HDR_LEN + maxp, size = s->size;
	uint64_t off = RDIAG_RING_HDR_LEN, wbase = 0, wlen = 0, dstart, dend = 0;
	uint64_t wmax = window_size(size);
	unsigned char *buf = malloc((size_t)wmax);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	while (off + RDIAG_RING_REC_HDR_LEN <= size) {
		struct rd_ring_rec x;
		const unsigned char *p;
		uint64_t need = off + maxrec < size ? off + maxrec : size;
		long len;

		if (off >= dend) {	/* past the data extent: skip the hole after it */
			if (!next_data(fd, off, size, &dstart, &dend))
				break;
			if (dstart > off) {
				dstart = rd_ring_align(dstart);
				s->skipped += (dstart < size ? dstart : size) - off;
				off = dstart;
				continue;
			}
		}
		if (off < wbase || wbase + wlen < need) {
			uint64_t want = size - off < wmax ? size - off : wmax;
			ssize_t got = pread(fd, buf, (size_t)want, (off_t)off);

			if (got < 0) {
				rc = -errno;
				break;
			}
			if ((uint64_t)got < want) {
				rc = truncated(fd, size, " while read");
				break;
			}
			wbase = off;
			wlen = (uint64_t)got;
		}
		p = buf + (off - wbase);
		len = rec_valid(p, wbase + wlen - off, maxp);
		if (len < 0) {
			off += REC_ALIGN;
			s->skipped += REC_ALIGN;
			continue;
		}
		x.off = off;
		x.len = (uint32_t)len;
		x.type = rd_get32(p + 8) & 0xffff;
		x.crc = rd_get32(p + 12);
		x.seq = rd_get64(p + 16);
		x.time_ns = rd_get64(p + 24);
		rc = add_rec(s, &cap, &x);
		if (rc)
			break;
		off += rd_ring_align(RDIAG_RING_REC_HDR_LEN + (uint64_t)len);
	}
	if (!rc && off < size)
		s->skipped += size - off;
	free(buf);
	return rc;
}

int rd_ring_scan(int fd, struct rd_ring_scan *s)
{
	unsigned char hdr[RDIAG_RING_HDR_LEN];
	struct stat st;
	ssize_t got = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if ((got = pread(fd, hdr, sizeof(hdr), 0)) < 0)
		rc = -errno;
	else if (got < (ssize_t)sizeof(hdr))
		rc = (got >= 8 && !memcmp(hdr, RING_MAGIC, 8)) ? -ENODATA : -EBADMSG;
	else
		rc = header_check(hdr, &s->size, &s->format);
	if (rc == -ENODATA) {
		rd_open_error_set(&rd_ring_err, "truncated: %zd bytes, shorter than a ring's "
				  "header", got);
		return rc;
	}
	if (rc == -EBADMSG) {
		rd_open_error_set(&rd_ring_err, "not an rdmatrace ring (bad header)");
		return rc;
	}
	if (!rc && (uint64_t)st.st_size < s->size)
		return truncated(fd, s->size, "");
	if (!rc)
		rc = scan_records(fd, s);
	if (rc) {
		if (rc != -ENODATA)
			rd_open_error_set(&rd_ring_err, "%s", strerror(-rc));
		rd_ring_scan_free(s);
		return rc;
	}
	if (s->n > 1)	/* (qsort of no records would be of a NULL array) */
		qsort(s->recs, s->n, sizeof(*s->recs), rec_cmp);
	return 0;
}

void rd_ring_scan_free(struct rd_ring_scan *s)
{
	free(s->recs);
	s->recs = NULL;
	s->n = 0;
}

int rd_ring_win_init(struct rd_ring_win *w, uint64_t size)
{
	memset(w, 0, sizeof(*w));
	w->cap = window_size(size);
	w->buf = malloc((size_t)w->cap);
	return w->buf ? 0 : -ENOMEM;
}

void rd_ring_win_free(struct rd_ring_win *w)
{
	free(w->buf);
	w->buf = NULL;
}

int rd_ring_fetch(int fd, struct rd_ring_win *w, const struct rd_ring_rec *x, uint64_t size,
		  const unsigned char **rec)
{
	uint64_t total = RDIAG_RING_REC_HDR_LEN + (uint64_t)x->len;
	const unsigned char *p;

	if (x->off < w->base || x->off + total > w->base + w->len) {
		uint64_t want = size - x->off < w->cap ? size - x->off : w->cap;
		ssize_t got = pread(fd, w->buf, (size_t)want, (off_t)x->off);

		if (got < 0)
			return -errno;
		if ((uint64_t)got < want)
			return truncated(fd, size, " while read");
		w->base = x->off;
		w->len = (uint64_t)got;
	}
	p = w->buf + (x->off - w->base);
	if (rd_get32(p) != REC_MAGIC || rd_get32(p + 4) != x->len ||
	    (rd_get32(p + 8) & 0xffff) != x->type || rd_get32(p + 12) != x->crc ||
	    rd_get64(p + 16) != x->seq || rd_get64(p + 24) != x->time_ns ||
	    rd_ring_rec_crc(p, x->len) != x->crc)
		return 1;
	*rec = p;
	return 0;
}
