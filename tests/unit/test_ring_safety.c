/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The ring (rdmadiag/ring.h) against a file that changes under it (issue 27): a reader whose
 * ring is rewritten or truncated between the scan and the callbacks gets only records that
 * check out again (never a length it did not check, never a SIGBUS); a writer whose file is
 * truncated, replaced or has its header overwritten stops with its own error; a symbolic
 * link is never written through; an empty ring reads as no record.  The hostile cases run
 * in a child, so that a crash is a failed test, not a lost TAP stream. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "rdmadiag/ring.h"

#define RING_OPTS(p, sz) (&(struct rdiag_ring_opts){ .path = (p), .size = (sz) })
/* records past the first window that the reader reads them again through (1 MiB and the
 * largest record): the changes made from the first callback are read by the reader */
#define SIZE (2 * 1024 * 1024)
#define NREC 6000
#define PLEN 200	/* every payload: 200 bytes, record i's bytes all (i & 0xff) */
#define FAR 5500	/* a record beyond the first window (at 1.28 MB) */

static char dir[] = "/tmp/test_ring_safety.XXXXXX";
static char path[256], other[256];

/* the offset of record i of a ring written by make_ring (no wrap) */
static off_t rec_off(int i)
{
	return RDIAG_RING_HDR_LEN + (off_t)i * ((RDIAG_RING_REC_HDR_LEN + PLEN + 7) & ~7);
}

static void make_ring(void)
{
	struct rdiag_ring *r;
	unsigned char b[PLEN];
	int i, bad = 0;

	unlink(path);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, SIZE)), 0);
	for (i = 0; i < NREC; i++) {
		memset(b, i & 0xff, sizeof(b));
		bad += rdiag_ring_append(r, RDIAG_REC_MARKER, (uint64_t)i, b, sizeof(b)) != 0;
	}
	EXPECT_EQ(bad, 0);
	rdiag_ring_close(r);
}

struct seen {
	int n, bad;
	uint64_t seqs[NREC];
	void (*first)(void);	/* run in the first callback: the change between scan and read */
};

static int on_rec(const struct rdiag_ring_record *r, void *arg)
{
	struct seen *s = arg;
	const unsigned char *d = r->data;
	size_t i;

	if (s->n == 0 && s->first)
		s->first();
	if (r->len != PLEN || r->type != RDIAG_REC_MARKER || r->time_ns != r->seq)
		s->bad++;
	else
		for (i = 0; i < r->len; i++)
			if (d[i] != (r->seq & 0xff))
				s->bad++;
	if (s->n < NREC)
		s->seqs[s->n] = r->seq;
	s->n++;
	return 0;
}

static void poke(off_t off, const void *b, size_t n)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || pwrite(fd, b, n, off) != (ssize_t)n)
		abort();
	close(fd);
}

/* record FAR's length made huge, the next one's payload changed under the same length and
 * CRC */
static void rewrite_two(void)
{
	unsigned char huge[4] = { 0xf0, 0xff, 0xff, 0xff }, x = 0x5a;

	poke(rec_off(FAR) + 4, huge, 4);
	poke(rec_off(FAR + 1) + RDIAG_RING_REC_HDR_LEN + 7, &x, 1);
}

static void truncate_all(void)
{
	if (truncate(path, RDIAG_RING_HDR_LEN) < 0)
		abort();
}

/* run fn in a child: its exit status, or 128 + the signal that killed it */
static int in_child(int (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int child_rewritten(void)
{
	struct seen s = { .first = rewrite_two };
	struct rdiag_ring_info info;
	int rc = rdiag_ring_read(path, on_rec, &s, &info);

	/* all but the two changed records */
	if (rc || s.bad || s.n != NREC - 2 || s.seqs[FAR - 1] != FAR - 1 || s.seqs[FAR] != FAR + 2)
		return 1;
	return info.records == NREC - 2 ? 0 : 2;
}

static void test_changed_between_scan_and_read(void)
{
	make_ring();
	EXPECT_EQ(in_child(child_rewritten), 0);
}

static int child_truncated(void)
{
	struct seen s = { .first = truncate_all };
	int rc = rdiag_ring_read(path, on_rec, &s, NULL);
	char want[200];

	snprintf(want, sizeof(want), "truncated while read: its header claims %d bytes but the "
		 "file holds %d", SIZE, RDIAG_RING_HDR_LEN);
	/* what the first window held, then the error */
	if (rc != -ENODATA || s.n < 1 || s.n >= FAR || s.bad)
		return 1;
	return strcmp(rdiag_ring_errmsg(NULL), want) ? 2 : 0;
}

static void test_truncated_while_read(void)
{
	make_ring();
	EXPECT_EQ(in_child(child_truncated), 0);
}

/* a ring with no record (just made): no callback, 0 (and no qsort of a NULL array, which
 * UBSan flags) */
static void test_empty(void)
{
	static const uint64_t sizes[] = { RDIAG_RING_MIN_SIZE, SIZE };
	struct rdiag_ring_info info;
	struct rdiag_ring *r;
	struct seen s = { 0 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unlink(path);
		EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, sizes[i])), 0);
		rdiag_ring_close(r);
		EXPECT_EQ(rdiag_ring_read(path, on_rec, &s, &info), 0);
		EXPECT_EQ(s.n, 0);
		EXPECT_U64(info.records, 0);
		EXPECT_U64(info.size, sizes[i]);
	}
}

static void append_one(struct rdiag_ring *r, int want)
{
	unsigned char b[PLEN] = { 0 };

	EXPECT_EQ(rdiag_ring_append(r, RDIAG_REC_MARKER, 0, b, sizeof(b)), want);
}

static off_t file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) ? -1 : st.st_size;
}

/* the writer's file changed by another process: the append that finds it fails, and so does
 * every one after it, without writing */
static void test_writer_truncated(void)
{
	struct rdiag_ring *r;
	char want[512];

	make_ring();
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, SIZE)), 0);
	append_one(r, 0);
	EXPECT_EQ(truncate(path, 4096), 0);
	append_one(r, -ENODATA);
	append_one(r, -ENODATA);
	snprintf(want, sizeof(want), "'%s' was truncated to 4096 bytes by another process (the "
		 "ring is %d): recording stopped", path, SIZE);
	EXPECT_STREQ(rdiag_ring_errmsg(r), want);
	EXPECT_EQ(file_size(path), 4096);	/* not extended again by a write */
	rdiag_ring_close(r);
}

static void test_writer_replaced(void)
{
	struct rdiag_ring *r;
	char want[512];

	make_ring();
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, SIZE)), 0);
	EXPECT_EQ(rename(path, other), 0);
	append_one(r, -ESTALE);
	snprintf(want, sizeof(want), "'%s' was removed or replaced by another process: recording "
		 "stopped", path);
	EXPECT_STREQ(rdiag_ring_errmsg(r), want);
	rdiag_ring_close(r);
	unlink(other);
}

static void test_writer_header_overwritten(void)
{
	struct rdiag_ring *r;
	char want[512];

	make_ring();
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, SIZE)), 0);
	poke(0, "XXXXXXXX", 8);
	append_one(r, -EBADMSG);
	snprintf(want, sizeof(want), "'%s': its header was overwritten by another process: "
		 "recording stopped", path);
	EXPECT_STREQ(rdiag_ring_errmsg(r), want);
	rdiag_ring_close(r);
}

/* a link at the ring's path is not opened (nor its target made); a copy over a link replaces
 * the link, never writes its target; no temporary file stays */
static void test_links(void)
{
	char link[300], target[300], snap[300], want[600];
	struct rdiag_ring *r;
	struct stat st;

	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(snap, sizeof(snap), "%s/snap", dir);
	EXPECT_EQ(symlink(target, link), 0);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(link, SIZE)), -ELOOP);
	snprintf(want, sizeof(want), "'%s' is a symbolic link (a ring is never written through "
		 "one)", link);
	EXPECT_STREQ(rdiag_ring_errmsg(NULL), want);
	EXPECT_TRUE(lstat(target, &st) < 0 && errno == ENOENT);

	make_ring();
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, SIZE)), 0);
	{
		int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		EXPECT_TRUE(fd >= 0 && write(fd, "mine\n", 5) == 5);
		close(fd);
	}
	EXPECT_EQ(symlink(target, snap), 0);
	EXPECT_EQ(rdiag_ring_copy(r, snap), 0);
	rdiag_ring_close(r);
	EXPECT_TRUE(lstat(snap, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == SIZE &&
		    (st.st_mode & 07777) == 0644);
	EXPECT_EQ(file_size(target), 5);
	unlink(snap);
	unlink(target);
	unlink(link);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/ring", dir);
	snprintf(other, sizeof(other), "%s/ring.moved", dir);
	test_changed_between_scan_and_read();
	test_truncated_while_read();
	test_empty();
	test_writer_truncated();
	test_writer_replaced();
	test_writer_header_overwritten();
	test_links();
	unlink(path);
	EXPECT_EQ(rmdir(dir), 0);	/* nothing else left (no temporary copy) */
	return tap_done();
}
