/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's ring on disk (rdmadiag/ring.h): a fixed-size file, records written
 * with pwrite() at a wrapping offset, each checked by a CRC-32 (libdeflate) when read back.
 * All integers are little-endian. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>

#include "open_error.h"
#include "rdmadiag/ring.h"

#define RING_MAGIC "RDIAGRNG"
#define RING_VERSION 1
#define REC_MAGIC 0x43524452u	/* "RDRC" little-endian */
#define REC_ALIGN 8

struct rdiag_ring {
	int fd;
	uint64_t size;
	uint64_t off;		/* where the next record goes */
	uint64_t seq;		/* its sequence number */
	uint64_t written, wraps;
	unsigned char *buf;	/* one record, header + payload */
	size_t max_payload;
	char path[4096];	/* for the messages */
	char err[4352];		/* rdiag_ring_errmsg(r) */
};

/* why the last failed rdiag_ring_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

static uint64_t align_up(uint64_t v)
{
	return (v + REC_ALIGN - 1) & ~(uint64_t)(REC_ALIGN - 1);
}

static void put32(unsigned char *p, uint32_t v) { v = htole32(v); memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { v = htole64(v); memcpy(p, &v, 8); }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return le32toh(v); }
static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return le64toh(v); }

/* file header: magic[8] version u32 hdr_len u32 size u64 format u32 ... crc u32 at 60 over
 * 0..59 (format: what the payloads mean, rdmadiag/ring.h; 0 in rings older than it) */
static void header_build(unsigned char *h, uint64_t size)
{
	memset(h, 0, RDIAG_RING_HDR_LEN);
	memcpy(h, RING_MAGIC, 8);
	put32(h + 8, RING_VERSION);
	put32(h + 12, RDIAG_RING_HDR_LEN);
	put64(h + 16, size);
	put32(h + 24, RDIAG_RING_FORMAT);
	put32(h + 60, (uint32_t)libdeflate_crc32(0, h, 60));
}

static int header_check(const unsigned char *h, uint64_t *size, uint32_t *format)
{
	if (memcmp(h, RING_MAGIC, 8) || get32(h + 8) != RING_VERSION ||
	    get32(h + 12) != RDIAG_RING_HDR_LEN ||
	    get32(h + 60) != (uint32_t)libdeflate_crc32(0, h, 60))
		return -EBADMSG;
	*size = get64(h + 16);
	*format = get32(h + 24);
	if (*size < RDIAG_RING_MIN_SIZE || *size > RDIAG_RING_MAX_SIZE)
		return -EBADMSG;
	return 0;
}

/* record header: magic u32, len u32, type u16, flags u16, crc u32, seq u64, time u64; the
 * CRC covers the header with its crc field zero, then the payload */
static uint32_t rec_crc(const unsigned char *rec, size_t len)
{
	static const unsigned char zero[4];
	uint32_t c = (uint32_t)libdeflate_crc32(0, rec, 12);

	c = (uint32_t)libdeflate_crc32(c, zero, 4);
	return (uint32_t)libdeflate_crc32(c, rec + 16, RDIAG_RING_REC_HDR_LEN - 16 + len);
}

static size_t max_payload_for(uint64_t size)
{
	uint64_t m = (size - RDIAG_RING_HDR_LEN) / 4;

	if (m > 65536)
		m = 65536;
	return (size_t)(m - RDIAG_RING_REC_HDR_LEN);
}

/* the valid record at off of a data area ending at end: its payload length, or -1 */
static long rec_valid_at(const unsigned char *map, uint64_t off, uint64_t end, size_t max_payload)
{
	const unsigned char *p = map + off;
	uint32_t len;

	if (end - off < RDIAG_RING_REC_HDR_LEN || get32(p) != REC_MAGIC)
		return -1;
	len = get32(p + 4);
	if (len > max_payload || len > end - off - RDIAG_RING_REC_HDR_LEN)
		return -1;
	if (get32(p + 12) != rec_crc(p, len))
		return -1;
	return (long)len;
}

struct found {
	uint64_t seq, off;
};

static int found_cmp(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* map the ring of fd, check its header and list its valid records by sequence */
static int ring_scan(int fd, unsigned char **mapp, uint64_t *sizep, uint32_t *formatp,
		     struct found **fp, size_t *np, uint64_t *skipped)
{
	struct stat st;
	unsigned char hdr[RDIAG_RING_HDR_LEN];
	unsigned char *map;
	struct found *f = NULL;
	size_t n = 0, cap = 0, maxp;
	uint64_t size, off, skip = 0;
	ssize_t got;
	int rc;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	got = pread(fd, hdr, sizeof(hdr), 0);
	if (got < 0)
		return -errno;
	if (got < (ssize_t)sizeof(hdr))
		return (got >= 8 && !memcmp(hdr, RING_MAGIC, 8)) ? -ENODATA : -EBADMSG;
	rc = header_check(hdr, &size, formatp);
	if (rc)
		return rc;
	if ((uint64_t)st.st_size < size)
		return -ENODATA;
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	maxp = max_payload_for(size);
	for (off = RDIAG_RING_HDR_LEN; off + RDIAG_RING_REC_HDR_LEN <= size; ) {
		long len = rec_valid_at(map, off, size, maxp);

		if (len < 0) {
			off += REC_ALIGN;
			skip += REC_ALIGN;
			continue;
		}
		if (n == cap) {
			struct found *nf = realloc(f, (cap ? cap * 2 : 256) * sizeof(*f));

			if (!nf) {
				free(f);
				munmap(map, size);
				return -ENOMEM;
			}
			f = nf;
			cap = cap ? cap * 2 : 256;
		}
		f[n].seq = get64(map + off + 16);
		f[n].off = off;
		n++;
		off += align_up(RDIAG_RING_REC_HDR_LEN + (uint64_t)len);
	}
	skip += size - off;
	qsort(f, n, sizeof(*f), found_cmp);
	*mapp = map;
	*sizep = size;
	*fp = f;
	*np = n;
	if (skipped)
		*skipped = skip;
	return 0;
}

int rdiag_ring_read(const char *path, rdiag_ring_cb cb, void *arg, struct rdiag_ring_info *info)
{
	unsigned char *map;
	struct found *f;
	size_t n, i;
	uint64_t size, skipped;
	uint32_t format;
	int fd, rc;

	if (info)
		memset(info, 0, sizeof(*info));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ring_scan(fd, &map, &size, &format, &f, &n, &skipped);
	close(fd);
	if (rc)
		return rc;
	if (info) {
		info->size = size;
		info->records = n;
		info->skipped_bytes = skipped;
		info->format = format;
	}
	for (i = 0; i < n && !rc; i++) {
		const unsigned char *p = map + f[i].off;
		struct rdiag_ring_record r = {
			.seq = f[i].seq,
			.time_ns = get64(p + 24),
			.type = (unsigned int)(get32(p + 8) & 0xffff),
			.data = p + RDIAG_RING_REC_HDR_LEN,
			.len = get32(p + 4),
		};

		rc = cb(&r, arg);
	}
	free(f);
	munmap(map, size);
	return rc;
}

/* an existing file at fd: a ring of this size and format continues (-EEXIST another size or
 * not a ring, -EPROTO another format); an empty one is made a ring */
static int ring_resume(struct rdiag_ring *r, int fd, uint64_t size)
{
	struct stat st;
	unsigned char *map;
	struct found *f;
	size_t n;
	uint64_t have;
	uint32_t format;
	int rc;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
	if (st.st_size == 0)
		return 1;
	rc = ring_scan(fd, &map, &have, &format, &f, &n, NULL);
	if (rc)
		return rc == -ENOMEM ? rc : -EEXIST;
	if (have != size) {
		rc = -EEXIST;
	} else if (format != RDIAG_RING_FORMAT) {
		rc = -EPROTO;
	} else if (n) {
		const unsigned char *last = map + f[n - 1].off;

		r->seq = f[n - 1].seq + 1;
		r->off = f[n - 1].off + align_up(RDIAG_RING_REC_HDR_LEN + get32(last + 4));
	}
	free(f);
	munmap(map, have);
	return rc;
}

/* the reason of a failed open, in the words of ring.h's error list */
static void open_failed(const char *path, uint64_t size, int rc)
{
	switch (rc) {
	case -EINVAL:
		rd_open_error_set(&open_err, "ring size %llu is outside %llu..%llu bytes",
				  (unsigned long long)size, (unsigned long long)RDIAG_RING_MIN_SIZE,
				  (unsigned long long)RDIAG_RING_MAX_SIZE);
		break;
	case -EEXIST:
		rd_open_error_set(&open_err, "'%s' exists and is not a ring of %llu bytes", path,
				  (unsigned long long)size);
		break;
	case -EPROTO:
		rd_open_error_set(&open_err, "'%s' is a ring of another payload format than %d",
				  path, RDIAG_RING_FORMAT);
		break;
	default:
		rd_open_error_set(&open_err, "'%s': %s", path, strerror(-rc));
	}
}

int rdiag_ring_open(struct rdiag_ring **rp, const struct rdiag_ring_opts *opts)
{
	struct rdiag_ring *r;
	unsigned char hdr[RDIAG_RING_HDR_LEN];
	uint64_t size;
	int rc;

	if (!rp) {
		rd_open_error_set(&open_err, "rdiag_ring_open: no place for the handle");
		return -EINVAL;
	}
	*rp = NULL;
	if (!opts || !opts->path) {
		rd_open_error_set(&open_err, "rdiag_ring_open: no file named");
		return -EINVAL;
	}
	size = opts->size;
	if (size < RDIAG_RING_MIN_SIZE || size > RDIAG_RING_MAX_SIZE) {
		open_failed(opts->path, size, -EINVAL);
		return -EINVAL;
	}
	size &= ~(uint64_t)(REC_ALIGN - 1);
	r = calloc(1, sizeof(*r));
	if (!r) {
		open_failed(opts->path, size, -ENOMEM);
		return -ENOMEM;
	}
	snprintf(r->path, sizeof(r->path), "%s", opts->path);
	r->size = size;
	r->off = RDIAG_RING_HDR_LEN;
	r->max_payload = max_payload_for(size);
	r->buf = malloc(RDIAG_RING_REC_HDR_LEN + r->max_payload);
	r->fd = open(opts->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (!r->buf || r->fd < 0) {
		rc = r->buf ? -errno : -ENOMEM;
		goto fail;
	}
	rc = ring_resume(r, r->fd, size);
	if (rc < 0)
		goto fail;
	if (rc == 1) {
		header_build(hdr, size);
		errno = 0;
		if (ftruncate(r->fd, (off_t)size) < 0 || pwrite(r->fd, hdr, sizeof(hdr), 0) !=
		    (ssize_t)sizeof(hdr)) {
			rc = errno ? -errno : -EIO;
			goto fail;
		}
	}
	*rp = r;
	return 0;
fail:
	open_failed(opts->path, size, rc);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r);
	return rc;
}

size_t rdiag_ring_max_payload(const struct rdiag_ring *r)
{
	return r->max_payload;
}

int rdiag_ring_append(struct rdiag_ring *r, unsigned int type, uint64_t time_ns,
		      const void *data, size_t len)
{
	size_t total = RDIAG_RING_REC_HDR_LEN + len;
	unsigned char *p = r->buf;
	ssize_t w;

	if (len > r->max_payload) {
		snprintf(r->err, sizeof(r->err), "a record of %zu bytes is over the ring's largest "
			 "payload, %zu", len, r->max_payload);
		return -EMSGSIZE;
	}
	if (r->off + total > r->size) {
		r->off = RDIAG_RING_HDR_LEN;
		r->wraps++;
	}
	put32(p, REC_MAGIC);
	put32(p + 4, (uint32_t)len);
	put32(p + 8, type & 0xffff);
	put32(p + 12, 0);
	put64(p + 16, r->seq);
	put64(p + 24, time_ns);
	if (len)
		memcpy(p + RDIAG_RING_REC_HDR_LEN, data, len);
	put32(p + 12, rec_crc(p, len));
	w = pwrite(r->fd, p, total, (off_t)r->off);
	if (w < 0 || (size_t)w != total) {
		int rc = w < 0 ? -errno : -EIO;

		snprintf(r->err, sizeof(r->err), "'%s': %s", r->path, strerror(-rc));
		return rc;
	}
	r->off += align_up(total);
	r->seq++;
	r->written++;
	return 0;
}

static int ring_copy(const struct rdiag_ring *r, const char *path)
{
	char tmp[4096];
	unsigned char *buf;
	uint64_t off;
	int fd, rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	buf = malloc(65536);
	if (!buf)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (off = 0; off < r->size && !rc; ) {
		size_t chunk = r->size - off < 65536 ? (size_t)(r->size - off) : 65536;
		ssize_t got = pread(r->fd, buf, chunk, (off_t)off);

		if (got <= 0)
			rc = got < 0 ? -errno : -EIO;
		else if (write(fd, buf, (size_t)got) != got)
			rc = errno ? -errno : -EIO;
		else
			off += (uint64_t)got;
	}
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	free(buf);
	return rc;
}

int rdiag_ring_copy(struct rdiag_ring *r, const char *path)
{
	int rc = ring_copy(r, path);

	if (rc)
		snprintf(r->err, sizeof(r->err), "cannot copy the ring to '%s': %s", path,
			 strerror(-rc));
	return rc;
}

uint64_t rdiag_ring_written(const struct rdiag_ring *r)
{
	return r->written;
}

uint64_t rdiag_ring_wraps(const struct rdiag_ring *r)
{
	return r->wraps;
}

const char *rdiag_ring_errmsg(const struct rdiag_ring *r)
{
	return r ? r->err : rd_open_error_get(&open_err);
}

void rdiag_ring_close(struct rdiag_ring *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r->buf);
	free(r);
}
