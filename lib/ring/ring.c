/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's ring on disk (rdmadiag/ring.h), the writer: a fixed-size file, records
 * written with pwrite() at a wrapping offset, each with a CRC-32 (libdeflate) that the reader
 * (read.c, scan.c) checks.  All integers are little-endian. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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

/* an existing file at fd: a ring of this size and format continues (-EEXIST another size or
 * not a ring, -EPROTO another format); an empty one is made a ring */
static int ring_resume(struct rdiag_ring *r, int fd, uint64_t size)
{
	struct rd_ring_scan s;
	struct stat st;
	int rc;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
	if (st.st_size == 0)
		return 1;
	rc = rd_ring_scan(fd, &s);
	if (rc)
		return rc == -ENOMEM ? rc : -EEXIST;
	if (s.size != size) {
		rc = -EEXIST;
	} else if (s.format != RDIAG_RING_FORMAT) {
		rc = -EPROTO;
	} else if (s.n) {
		const struct rd_ring_rec *last = &s.recs[s.n - 1];

		r->seq = last->seq + 1;
		r->off = last->off + rd_ring_align(RDIAG_RING_REC_HDR_LEN + (uint64_t)last->len);
	}
	rd_ring_scan_free(&s);
	return rc;
}

/* the reason of a failed open, in the words of ring.h's error list */
static void open_failed(const char *path, uint64_t size, int rc)
{
	switch (rc) {
	case -EINVAL:
		rd_open_error_set(&rd_ring_err, "ring size %llu is outside %llu..%llu bytes",
				  (unsigned long long)size, (unsigned long long)RDIAG_RING_MIN_SIZE,
				  (unsigned long long)RDIAG_RING_MAX_SIZE);
		break;
	case -EEXIST:
		rd_open_error_set(&rd_ring_err, "'%s' exists and is not a ring of %llu bytes", path,
				  (unsigned long long)size);
		break;
	case -EPROTO:
		rd_open_error_set(&rd_ring_err, "'%s' is a ring of another payload format than %d",
				  path, RDIAG_RING_FORMAT);
		break;
	default:
		rd_open_error_set(&rd_ring_err, "'%s': %s", path, strerror(-rc));
	}
}

int rdiag_ring_open(struct rdiag_ring **rp, const struct rdiag_ring_opts *opts)
{
	struct rdiag_ring *r;
	unsigned char hdr[RDIAG_RING_HDR_LEN];
	uint64_t size;
	int rc;

	if (!rp) {
		rd_open_error_set(&rd_ring_err, "rdiag_ring_open: no place for the handle");
		return -EINVAL;
	}
	*rp = NULL;
	if (!opts || !opts->path) {
		rd_open_error_set(&rd_ring_err, "rdiag_ring_open: no file named");
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
	r->max_payload = rd_ring_max_payload(size);
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
		rd_ring_header_build(hdr, size);
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
	rd_put32(p, REC_MAGIC);
	rd_put32(p + 4, (uint32_t)len);
	rd_put32(p + 8, type & 0xffff);
	rd_put32(p + 12, 0);
	rd_put64(p + 16, r->seq);
	rd_put64(p + 24, time_ns);
	if (len)
		memcpy(p + RDIAG_RING_REC_HDR_LEN, data, len);
	rd_put32(p + 12, rd_ring_rec_crc(p, len));
	w = pwrite(r->fd, p, total, (off_t)r->off);
	if (w < 0 || (size_t)w != total) {
		int rc = w < 0 ? -errno : -EIO;

		snprintf(r->err, sizeof(r->err), "'%s': %s", r->path, strerror(-rc));
		return rc;
	}
	r->off += rd_ring_align(total);
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
	return r ? r->err : rd_open_error_get(&rd_ring_err);
}

void rdiag_ring_close(struct rdiag_ring *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r->buf);
	free(r);
}
