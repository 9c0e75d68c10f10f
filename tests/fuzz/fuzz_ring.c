/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the flight recorder's ring as rdmatrace dump reads it.  The input is
 * written to a file of the scratch directory and read with rdiag_ring_read(); every record
 * that comes back is checked (a length within the ring's largest payload, sequence numbers
 * never falling) and an EVENT payload goes through rdiag_ring_event_decode() (what decodes must
 * encode to the same length and decode again to the same event); then rdmatrace dump's
 * timeline is made of them (text or JSON), which decodes every record type: START, MARKER,
 * STOP, CONN, COUNTERS (deltas across snapshots), PORT (GONE too), NETLINK, QP, GID, EVENT.
 * (dump.c is included: its collect() gathers the records, its dump_show() prints them,
 * without a second read of the file, getopt or the tool's exit paths.)
 *
 * Input: one byte of mode, then the bytes.  Mode bit 0: the bytes are the whole file as it
 * is (headers, CRCs and sizes as the fuzzer made them).  Otherwise they are the data area
 * of a ring whose header this target writes (its size the data's, at least the smallest
 * ring; bit 2 gives the header payload format 0 instead of 1), and every record in it whose
 * magic and length hold gets its CRC fixed, so that mutations reach the decoders instead of
 * dying at the CRC.  Bit 1: dump -j.  Bit 3: dump --since 1000 (a window, 1000 s after the
 * epoch).  Run from the top of the tree (make fuzz, make check).  FUZZ_RING_VERBOSE=1 keeps
 * dump's output. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>

#include "scratch.h"
#include "../../tools/rdmatrace/dump.c"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_INPUT (256 * 1024)

static void le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* the ring's largest payload (lib/ring/scan.c's rule) */
static size_t max_payload(uint64_t size)
{
	uint64_t m = (size - RDIAG_RING_HDR_LEN) / 4;

	return (size_t)((m > 65536 ? 65536 : m) - RDIAG_RING_REC_HDR_LEN);
}

/* a ring image of the data area d (n bytes): header, data, CRCs of the records fixed */
static unsigned char *ring_image(const uint8_t *d, size_t n, uint32_t format, size_t *len)
{
	size_t size = (RDIAG_RING_HDR_LEN + n + 7) & ~(size_t)7, maxp, off;
	unsigned char *img;

	if (size < RDIAG_RING_MIN_SIZE)
		size = RDIAG_RING_MIN_SIZE;
	img = calloc(1, size);
	if (!img)
		abort();
	memcpy(img, "RDIAGRNG", 8);
	le32(img + 8, 1);
	le32(img + 12, RDIAG_RING_HDR_LEN);
	le32(img + 16, (uint32_t)size);
	le32(img + 24, format);
	le32(img + 60, (uint32_t)libdeflate_crc32(0, img, 60));
	memcpy(img + RDIAG_RING_HDR_LEN, d, n);
	maxp = max_payload(size);
	for (off = RDIAG_RING_HDR_LEN; off + RDIAG_RING_REC_HDR_LEN <= size; ) {
		unsigned char *p = img + off;
		uint32_t l = rd32(p + 4);
		uint32_t c;

		if (rd32(p) != 0x43524452u || l > maxp || l > size - off - RDIAG_RING_REC_HDR_LEN) {
			off += 8;
			continue;
		}
		le32(p + 12, 0);
		c = (uint32_t)libdeflate_crc32(0, p, RDIAG_RING_REC_HDR_LEN + l);
		le32(p + 12, c);
		off += (RDIAG_RING_REC_HDR_LEN + l + 7) & ~(size_t)7;
	}
	*len = size;
	return img;
}

struct walk {
	uint64_t n, last_seq;
	size_t maxp;
};

static int on_record(const struct rdiag_ring_record *r, void *arg)
{
	struct walk *w = arg;
	struct rdiag_trace_event ev, ev2;
	unsigned char b[4096];
	int n;

	CHECK(r->len <= w->maxp);
	CHECK(r->type <= 0xffff);
	CHECK(!w->n || r->seq >= w->last_seq);	/* (a hostile ring may repeat one) */
	w->last_seq = r->seq;
	w->n++;
	if (r->len) {	/* every byte readable (ASan) */
		volatile unsigned char last = ((const unsigned char *)r->data)[r->len - 1];

		(void)last;
	}
	if (r->type != RDIAG_REC_EVENT || rdiag_ring_event_decode(r->data, r->len, &ev) < 0)
		return 0;
	n = rdiag_ring_event_encode(&ev, b, sizeof(b));
	CHECK(n == (int)r->len);
	CHECK(rdiag_ring_event_decode(b, (size_t)n, &ev2) == 0);
	CHECK(!memcmp(&ev, &ev2, sizeof(ev)));
	return 0;
}

/* each record checked, then collected as rdmatrace dump collects it */
static int on_record_collect(const struct rdiag_ring_record *r, void *arg)
{
	on_record(r, arg);
	CHECK(collect(r, NULL) == 0);
	return 0;
}

/* dump.c's state back to a first run's */
static void dump_reset(void)
{
	recs = NULL;
	nrecs = caprecs = 0;
	lasts = NULL;
	nlasts = 0;
	o = NULL;
	since_ns = 0;
	until_ns = UINT64_MAX;
	n_unknown_type = n_undecodable = 0;
}

/* dump's timeline of the records collected, to /dev/null (stdout when verbose) */
static void show(unsigned mode)
{
	static FILE *out;

	if (!out) {
		out = getenv("FUZZ_RING_VERBOSE") ? stdout : fopen("/dev/null", "w");
		if (!out)
			abort();
	}
	if (mode & 8)
		since_ns = 1000ull * 1000000000ull;
	CHECK(dump_show(out, mode & 2) >= 0);
	fflush(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[300];
	struct rdiag_ring_info info;
	struct walk w = { 0 };
	unsigned char *img;
	unsigned mode;
	size_t len;
	int fd, rc;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	if (!path[0])
		snprintf(path, sizeof(path), "%s/ring", scratch_dir());
	mode = data[0];
	if (mode & 1) {
		img = malloc(size - 1 ? size - 1 : 1);
		if (!img)
			abort();
		memcpy(img, data + 1, size - 1);
		len = size - 1;
	} else {
		img = ring_image(data + 1, size - 1, mode & 4 ? 0 : RDIAG_RING_FORMAT, &len);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	CHECK(write(fd, img, len) == (ssize_t)len);
	close(fd);
	/* the payload bound of the header's size (callbacks come only when it is valid) */
	if (len >= RDIAG_RING_HDR_LEN) {
		uint64_t hs = rd32(img + 16) | (uint64_t)rd32(img + 20) << 32;

		if (hs >= RDIAG_RING_MIN_SIZE && hs <= RDIAG_RING_MAX_SIZE)
			w.maxp = max_payload(hs);
	}
	free(img);
	dump_reset();
	rc = rdiag_ring_read(path, on_record_collect, &w, &info);
	CHECK(rc == 0 || rc == -EBADMSG || rc == -ENODATA);
	if (rc == 0) {
		CHECK(info.records == w.n);
		CHECK(info.size >= RDIAG_RING_MIN_SIZE && info.size <= RDIAG_RING_MAX_SIZE);
		CHECK(info.size <= len);
	} else {
		CHECK(rdiag_ring_errmsg(NULL)[0]);
	}
	if (!(mode & 1))	/* a whole file of ours, written: always read */
		CHECK(rc == 0 || (rc == -ENODATA && !w.n));
	if (rc == 0 && info.format == RDIAG_RING_FORMAT)
		show(mode);
	free_all();
	return 0;
}
