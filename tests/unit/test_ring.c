/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's ring (rdmadiag/ring.h): a file of fixed size that records wrap in
 * many times; read back oldest first, torn and overwritten records skipped, a garbage or
 * truncated file refused with its own error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "rdmadiag/ring.h"

/* the options of a ring of size bytes at path */
#define RING_OPTS(p, sz) (&(struct rdiag_ring_opts){ .path = (p), .size = (sz) })

static char dir[] = "/tmp/test_ring.XXXXXX";
static char path[256];

struct seen {
	uint64_t n, first_seq, last_seq, first_val, last_val;
	int out_of_order, bad_payload;
	uint64_t prev_seq, prev_time;
};

/* payload: its own value, repeated; length varying with it */
static size_t fill(unsigned char *b, uint64_t v)
{
	size_t len = 8 + (size_t)(v * 37 % 300);
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (unsigned char)(v + i);
	memcpy(b, &v, 8);
	return len;
}

static int on_rec(const struct rdiag_ring_record *r, void *arg)
{
	struct seen *s = arg;
	unsigned char want[400];
	uint64_t v;

	if (r->len < 8) {
		s->bad_payload++;
		return 0;
	}
	memcpy(&v, r->data, 8);
	if (fill(want, v) != r->len || memcmp(want, r->data, r->len) || r->time_ns != v * 1000 ||
	    r->type != (unsigned int)(v % 8 + 1))
		s->bad_payload++;
	if (s->n && (r->seq <= s->prev_seq || r->time_ns < s->prev_time))
		s->out_of_order++;
	if (!s->n) {
		s->first_seq = r->seq;
		s->first_val = v;
	}
	s->last_seq = r->seq;
	s->last_val = v;
	s->prev_seq = r->seq;
	s->prev_time = r->time_ns;
	s->n++;
	return 0;
}

static uint64_t file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) ? 0 : (uint64_t)st.st_size;
}

static int write_n(struct rdiag_ring *r, uint64_t from, uint64_t n)
{
	unsigned char b[400];
	uint64_t v;

	for (v = from; v < from + n; v++) {
		size_t len = fill(b, v);
		int rc = rdiag_ring_append(r, (unsigned int)(v % 8 + 1), v * 1000, b, len);

		if (rc)
			return rc;
	}
	return 0;
}

static void test_wrap_many(void)
{
	struct rdiag_ring *r;
	struct rdiag_ring_info info;
	struct seen s = { 0 };
	const uint64_t size = 300 * 1024, n = 20000;

	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, size)), 0);
	EXPECT_EQ(write_n(r, 0, n), 0);
	EXPECT_TRUE(rdiag_ring_wraps(r) >= 10);	/* ~3.4 MB through 300 kB */
	EXPECT_U64(rdiag_ring_written(r), n);
	EXPECT_U64(file_size(path), size);
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, &info), 0);
	EXPECT_EQ(s.bad_payload, 0);
	EXPECT_EQ(s.out_of_order, 0);
	EXPECT_U64(s.last_val, n - 1);		/* the newest is there */
	/* what survives is a contiguous run of the newest records filling most of the ring */
	EXPECT_U64(s.last_seq - s.first_seq + 1, s.n);
	EXPECT_TRUE(s.n * 200 > size / 2);
	EXPECT_U64(info.size, size);
	EXPECT_U64(info.records, s.n);
	rdiag_ring_close(r);

	/* reopening continues after the newest record, and the file still does not grow */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, size)), 0);
	EXPECT_EQ(write_n(r, n, 1000), 0);
	rdiag_ring_close(r);
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, NULL), 0);
	EXPECT_U64(s.last_val, n + 999);
	EXPECT_EQ(s.out_of_order, 0);
	EXPECT_EQ(s.bad_payload, 0);
	EXPECT_U64(s.last_seq - s.first_seq + 1, s.n);
	EXPECT_U64(file_size(path), size);

	/* another size: the existing ring is not touched */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, size * 2)), -EEXIST);
	EXPECT_U64(file_size(path), size);
}

/* a writer killed mid-write: the tail of its last record never reached the file */
static void test_torn(void)
{
	struct rdiag_ring *r;
	struct seen s = { 0 };
	const uint64_t size = 64 * 1024;
	unsigned char junk[64];
	int fd;

	unlink(path);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, size)), 0);
	EXPECT_EQ(write_n(r, 0, 50), 0);
	rdiag_ring_close(r);
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, NULL), 0);
	EXPECT_U64(s.n, 50);
	/* tear record 49 (its header is intact, its payload's end is not) */
	{
		struct rdiag_ring_info info;
		uint64_t off = RDIAG_RING_HDR_LEN;
		unsigned char b[400];
		uint64_t v;

		for (v = 0; v < 49; v++)
			off += (RDIAG_RING_REC_HDR_LEN + fill(b, v) + 7) & ~7ULL;
		fd = open(path, O_WRONLY);
		memset(junk, 0, sizeof(junk));
		EXPECT_EQ(pwrite(fd, junk, 4, (off_t)(off + RDIAG_RING_REC_HDR_LEN + 8)), 4);
		/* and a bit flipped in record 10 */
		off = RDIAG_RING_HDR_LEN;
		for (v = 0; v < 10; v++)
			off += (RDIAG_RING_REC_HDR_LEN + fill(b, v) + 7) & ~7ULL;
		junk[0] = 0xa5;
		EXPECT_EQ(pwrite(fd, junk, 1, (off_t)(off + RDIAG_RING_REC_HDR_LEN + 3)), 1);
		close(fd);
		memset(&s, 0, sizeof(s));
		EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, &info), 0);
		EXPECT_U64(s.n, 48);
		EXPECT_EQ(s.bad_payload, 0);
		EXPECT_U64(s.last_val, 48);
		EXPECT_TRUE(info.skipped_bytes > size - 50 * 400);
	}
	/* resuming after a torn tail writes after the newest valid record */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, size)), 0);
	EXPECT_EQ(write_n(r, 100, 3), 0);
	rdiag_ring_close(r);
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, NULL), 0);
	EXPECT_U64(s.last_val, 102);
	EXPECT_EQ(s.bad_payload, 0);
}

static void write_file(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "w");

	fwrite(b, 1, n, f);
	fclose(f);
}

static void test_bad_files(void)
{
	struct rdiag_ring *r;
	struct seen s = { 0 };
	unsigned char *junk = calloc(1, 8192);
	char p2[300];
	size_t i;

	for (i = 0; i < 8192; i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	snprintf(p2, sizeof(p2), "%s/garbage", dir);
	write_file(p2, junk, 8192);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &s, NULL), -EBADMSG);
	/* record refuses to overwrite what is not a ring */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(p2, 8192)), -EEXIST);
	snprintf(p2, sizeof(p2), "%s/missing", dir);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &s, NULL), -ENOENT);
	EXPECT_EQ(rdiag_ring_read(dir, on_rec, &s, NULL), -EISDIR);
	snprintf(p2, sizeof(p2), "%s/empty", dir);
	write_file(p2, "", 0);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &s, NULL), -EBADMSG);
	/* an empty file becomes a ring */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(p2, 8192)), 0);
	EXPECT_EQ(write_n(r, 0, 5), 0);
	rdiag_ring_close(r);
	/* truncated: the header is there, the data area is not all there */
	EXPECT_EQ(truncate(p2, 5000), 0);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &s, NULL), -ENODATA);
	EXPECT_EQ(truncate(p2, 20), 0);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &s, NULL), -ENODATA);
	/* header CRC */
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, 8192)), -EEXIST);	/* path is a 64 kB ring */
	{
		int fd = open(path, O_WRONLY);

		EXPECT_EQ(pwrite(fd, "\x02", 1, 16), 1);
		close(fd);
	}
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, NULL), -EBADMSG);
	/* sizes and payloads out of range */
	snprintf(p2, sizeof(p2), "%s/small", dir);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(p2, 1024)), -EINVAL);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(p2, 8192)), 0);
	EXPECT_EQ(rdiag_ring_append(r, 1, 0, junk, rdiag_ring_max_payload(r) + 1), -EMSGSIZE);
	EXPECT_EQ(rdiag_ring_append(r, 1, 0, junk, rdiag_ring_max_payload(r)), 0);
	rdiag_ring_close(r);
	free(junk);
}

static void test_copy(void)
{
	struct rdiag_ring *r;
	struct seen a = { 0 }, b = { 0 };
	char p2[300];

	snprintf(p2, sizeof(p2), "%s/copy", dir);
	unlink(path);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, 32768)), 0);
	EXPECT_EQ(write_n(r, 0, 500), 0);
	EXPECT_EQ(rdiag_ring_copy(r, p2), 0);
	EXPECT_EQ(write_n(r, 500, 10), 0);
	rdiag_ring_close(r);
	EXPECT_EQ(rdiag_ring_read(path, on_rec, &a, NULL), 0);
	EXPECT_EQ(rdiag_ring_read(p2, on_rec, &b, NULL), 0);
	EXPECT_U64(b.last_val, 499);
	EXPECT_U64(a.last_val, 509);
	EXPECT_EQ(b.bad_payload, 0);
	EXPECT_U64(file_size(p2), 32768);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/ring", dir);
	test_wrap_many();
	test_torn();
	test_bad_files();
	test_copy();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 99;
	}
	return tap_done();
}
