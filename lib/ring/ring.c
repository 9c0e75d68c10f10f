/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's ring on disk (rdmadiag/ring.h), the writer: a file of fixed size,
 * allocated whole when it is made, records written with pwrite() at a wrapping offset.  The
 * file is never opened through a symbolic link, and before each record the writer checks
 * that the file at its path is still the one it made, of its size, with its header: a ring
 * truncated, replaced or overwritten by another process stops the writing (the next
 * record would land in someone else's file, or extend a truncated one with holes).  Copies
 * go to a new temporary file beside the target (O_EXCL), synced, then renamed over it, so
 * that a crash leaves the old copy or the new one.  All integers are little-endian. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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
	dev_t dev;		/* the file the ring was opened as (the path must still name it) */
	ino_t ino;
	int broken;		/* -errno: the file was changed by another process: no more
				 * writes */
	unsigned char hdr[RDIAG_RING_HDR_LEN];	/* as written */
	unsigned char *buf;	/* one record, header + payload */
	size_t max_payload;
	char path[4096];	/* for the messages */
	char err[4352];		/* rdiag_ring_errmsg(r) */
};

/* all of n bytes at off: 0, or the errno of the write that failed (a short write is retried,
 * so that a full disk says ENOSPC, not EIO) */
static int pwrite_all(int fd, const unsigned char *p, size_t n, off_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

/* an existing file at fd: a ring of this size and format continues (-EEXIST another size or
 * not a ring, -EPROTO another format); an empty one is made a ring (1) */
static int ring_resume(struct rdiag_ring *r, const struct stat *st, uint64_t size)
{
	struct rd_ring_scan s;
	int rc;

	if (!S_ISREG(st->st_mode))
		return S_ISDIR(st->st_mode) ? -EISDIR : -EEXIST;
	if (st->st_size == 0)
		return 1;
	rc = rd_ring_scan(r->fd, &s);
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
	struct stat st;

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
	case -ELOOP:
		if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
			rd_open_error_set(&rd_ring_err, "'%s' is a symbolic link (a ring is never "
					  "written through one)", path);
			break;
		}
		/* fall through */
	default:
		rd_open_error_set(&rd_ring_err, "'%s': %s", path, strerror(-rc));
	}
}

/* the file at path, never through a symbolic link at it (-ELOOP); *created when this call
 * made it (O_EXCL: a link or a file planted meanwhile is not opened) */
static int open_nofollow(const char *path, bool *created)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

	*created = false;
	if (fd < 0 && errno == ENOENT) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			  0644);
		*created = fd >= 0;
	}
	return fd < 0 ? -errno : fd;
}

/* the whole ring on disk now, so that a full disk is found here rather than by a record
 * hours later (a file system that cannot allocate ahead keeps it sparse) */
static int ring_allocate(int fd, uint64_t size)
{
	if (fallocate(fd, 0, 0, (off_t)size) == 0 || errno == EOPNOTSUPP || errno == ENOSYS)
		return 0;
	return -errno;
}

static int ring_make(struct rdiag_ring *r, bool created)
{
	struct stat st;
	int rc;

	if (fstat(r->fd, &st) < 0)
		return -errno;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	rc = ring_resume(r, &st, r->size);
	if (rc < 0)
		return rc;
	rd_ring_header_build(r->hdr, r->size);
	if (rc == 1 || created) {
		rc = ring_allocate(r->fd, r->size);
		if (!rc && ftruncate(r->fd, (off_t)r->size) < 0)
			rc = -errno;
		if (!rc)
			rc = pwrite_all(r->fd, r->hdr, sizeof(r->hdr), 0);
		return rc;
	}
	return ring_allocate(r->fd, r->size);
}

int rdiag_ring_open(struct rdiag_ring **rp, const struct rdiag_ring_opts *opts)
{
	struct rdiag_ring *r;
	uint64_t size;
	bool created = false;
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
	r->fd = r->buf ? open_nofollow(opts->path, &created) : -ENOMEM;
	if (r->fd < 0) {
		rc = r->fd;
		goto fail;
	}
	rc = ring_make(r, created);
	if (rc < 0)
		goto fail;
	*rp = r;
	return 0;
fail:
	open_failed(opts->path, size, rc);
	if (created)	/* not left half made (on a full disk, say) */
		unlink(opts->path);
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

/* the file at the ring's path is still the ring this handle made, of its size, with its
 * header; once it is not, no more is written (-ENODATA truncated or extended, -ESTALE
 * removed or replaced, -EBADMSG its header overwritten) */
static int ring_check(struct rdiag_ring *r)
{
	unsigned char h[RDIAG_RING_HDR_LEN];
	struct stat st;
	ssize_t got;

	if (r->broken)
		return r->broken;
	if (fstat(r->fd, &st) < 0)
		return -errno;
	if ((uint64_t)st.st_size != r->size) {
		snprintf(r->err, sizeof(r->err), "'%s' was %s to %lld bytes by another process "
			 "(the ring is %llu): recording stopped", r->path,
			 (uint64_t)st.st_size < r->size ? "truncated" : "extended",
			 (long long)st.st_size, (unsigned long long)r->size);
		return r->broken = -ENODATA;
	}
	if (stat(r->path, &st) < 0 || st.st_dev != r->dev || st.st_ino != r->ino) {
		snprintf(r->err, sizeof(r->err), "'%s' was removed or replaced by another process: "
			 "recording stopped", r->path);
		return r->broken = -ESTALE;
	}
	got = pread(r->fd, h, sizeof(h), 0);
	if (got < 0)
		return -errno;
	if (got != (ssize_t)sizeof(h) || memcmp(h, r->hdr, sizeof(h))) {
		snprintf(r->err, sizeof(r->err), "'%s': its header was overwritten by another "
			 "process: recording stopped", r->path);
		return r->broken = -EBADMSG;
	}
	return 0;
}

int rdiag_ring_append(struct rdiag_ring *r, unsigned int type, uint64_t time_ns,
		      const void *data, size_t len)
{
	size_t total = RDIAG_RING_REC_HDR_LEN + len;
	unsigned char *p = r->buf;
	int rc;

	if (len > r->max_payload) {
		snprintf(r->err, sizeof(r->err), "a record of %zu bytes is over the ring's largest "
			 "payload, %zu", len, r->max_payload);
		return -EMSGSIZE;
	}
	rc = ring_check(r);
	if (rc) {
		if (!r->broken)
			snprintf(r->err, sizeof(r->err), "'%s': %s", r->path, strerror(-rc));
		return rc;
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
	rc = pwrite_all(r->fd, p, total, (off_t)r->off);
	if (rc) {
		snprintf(r->err, sizeof(r->err), "'%s': %s", r->path, strerror(-rc));
		return rc;
	}
	r->off += rd_ring_align(total);
	r->seq++;
	r->written++;
	return 0;
}

/* the directory of path synced, so that a rename in it outlives a crash (best effort: some
 * file systems cannot sync a directory) */
static void sync_dir(const char *path)
{
	char d[4096];
	int fd;

	snprintf(d, sizeof(d), "%s", path);
	fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* the ring's bytes into fd */
static int copy_into(const struct rdiag_ring *r, int fd, unsigned char *buf)
{
	uint64_t off;
	int rc = 0;

	for (off = 0; off < r->size && !rc; ) {
		size_t chunk = r->size - off < 65536 ? (size_t)(r->size - off) : 65536;
		ssize_t got = pread(r->fd, buf, chunk, (off_t)off);

		if (got < 0)
			rc = -errno;
		else if (got == 0)	/* truncated under us */
			rc = -ENODATA;
		else if (!(rc = pwrite_all(fd, buf, (size_t)got, (off_t)off)))
			off += (uint64_t)got;
	}
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	return rc;
}

/* a new file beside path (mkostemp: O_CREAT|O_EXCL, nothing planted there is followed or
 * truncated), written and synced, then renamed over path (which replaces a link there, never
 * its target) */
static int ring_copy(const struct rdiag_ring *r, const char *path)
{
	char tmp[4096];
	unsigned char *buf;
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	buf = malloc(65536);
	if (!buf)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	rc = fchmod(fd, 0644) < 0 ? -errno : copy_into(r, fd, buf);
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	else
		sync_dir(path);
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
