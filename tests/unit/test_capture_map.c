/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The mapped reader of classic pcap files (lib/capture/pcap_map.c) against libpcap's reads:
 * for crafted files (both byte orders, µs and ns, timestamps past 2^31 s and µs fields that
 * overflow when scaled (libpcap sign-extends the seconds of a file in the host's byte order
 * and not those of a swapped one), records cut in the header or the body, caplen over the snapshot
 * length or over libpcap's maximum, snaplen 0, caplen > len, empty records, version 2.3),
 * every fixture and the pcap fuzz corpus (through the fuzz target, which traps on a
 * difference), both readers give the same frames, last return value and message.  The
 * crafted plain files are checked to be read through the mapping, so the comparison is not
 * libpcap against itself. */
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <unistd.h>
#include "tap.h"
#include "proc_maps.h"
#include "../fuzz/fuzz_pcap.c"
#include "corpus_replay.h"

struct buf {
	uint8_t b[1 << 20];
	size_t n;
	bool swapped;
};

static void put32(struct buf *b, uint32_t v)
{
	if (b->swapped)
		v = __builtin_bswap32(v);
	memcpy(b->b + b->n, &v, 4);
	b->n += 4;
}

static void put16(struct buf *b, uint16_t v)
{
	if (b->swapped)
		v = __builtin_bswap16(v);
	memcpy(b->b + b->n, &v, 2);
	b->n += 2;
}

static void file_header(struct buf *b, bool swapped, uint32_t magic, uint16_t minor,
			uint32_t snaplen)
{
	b->n = 0;
	b->swapped = swapped;
	put32(b, magic);
	put16(b, 2);
	put16(b, minor);
	put32(b, 0);
	put32(b, 0);
	put32(b, snaplen);
	put32(b, 1);		/* Ethernet */
}

static void record(struct buf *b, uint32_t sec, uint32_t frac, uint32_t caplen, uint32_t len,
		   uint32_t body)
{
	uint32_t i;

	put32(b, sec);
	put32(b, frac);
	put32(b, caplen);
	put32(b, len);
	for (i = 0; i < body; i++)
		b->b[b->n++] = (uint8_t)(i * 7 + sec);
}

static const char *mapped_name;
static int seen_mapped;

static void check_mapped(const struct rdiag_frame *f, void *arg)
{
	(void)arg;
	if (f->n == 1)
		seen_mapped = proc_mapped(mapped_name);
}

/* both readers on buf; returns the mapped one's digest; mapped: was the file mapped */
static struct pcap_read_digest both(const char *what, const struct buf *b, int *mapped)
{
	static char path[] = "/tmp/rdiag-test-capture-map-XXXXXX";
	char p[sizeof(path)];
	struct pcap_read_digest m, l;
	int fd;

	memcpy(p, path, sizeof(p));
	fd = mkstemp(p);
	EXPECT_TRUE(fd >= 0);
	EXPECT_TRUE(write(fd, b->b, b->n) == (ssize_t)b->n);
	close(fd);
	mapped_name = p;
	seen_mapped = -2;
	pcap_read_all(p, false, &m, check_mapped, NULL);
	pcap_read_all(p, true, &l, NULL, NULL);
	unlink(p);
	printf("# %s: %llu frames, open %d, last %d, '%s'; libpcap alone: %llu frames, last %d, '%s'\n",
	       what, (unsigned long long)m.frames, m.open_r, m.last_r, m.err,
	       (unsigned long long)l.frames, l.last_r, l.err);
	EXPECT_TRUE(pcap_digest_same(&m, &l));
	*mapped = seen_mapped;
	return m;
}

static void crafted(void)
{
	static struct buf b;
	struct pcap_read_digest d;
	int mapped, sw;

	for (sw = 0; sw < 2; sw++) {
		/* plain µs and ns files: read through the mapping */
		file_header(&b, sw, 0xa1b2c3d4, 4, 65535);
		record(&b, 1000, 999999, 60, 60, 60);
		record(&b, 0x80000001u, 4000000000u, 0, 0, 0);	/* sign; µs * 1000 wraps */
		record(&b, 0xffffffffu, 1, 100, 1500, 100);
		d = both(sw ? "us, swapped" : "us", &b, &mapped);
		EXPECT_EQ(mapped, 1);
		EXPECT_EQ((int)d.frames, 3);
		EXPECT_EQ(d.last_r, 0);

		file_header(&b, sw, 0xa1b23c4d, 4, 65535);
		record(&b, 7, 999999999, 64, 64, 64);
		record(&b, 8, 4294967295u, 70, 10, 70);		/* caplen > len */
		d = both(sw ? "ns, swapped" : "ns", &b, &mapped);
		EXPECT_EQ(mapped, 1);
		EXPECT_EQ((int)d.frames, 2);
	}
	/* cut in the second record's header, then in its body */
	file_header(&b, false, 0xa1b2c3d4, 4, 65535);
	record(&b, 1, 2, 60, 60, 60);
	record(&b, 1, 3, 60, 60, 60);
	b.n -= 60 + 6;
	d = both("cut in a record header", &b, &mapped);
	EXPECT_EQ((int)d.frames, 1);
	EXPECT_TRUE(d.last_r < 0);
	b.n += 6 + 20;
	d = both("cut in a record body", &b, &mapped);
	EXPECT_EQ((int)d.frames, 1);
	EXPECT_TRUE(d.last_r < 0);
	/* caplen over the snapshot length (and within libpcap's maximum) */
	file_header(&b, false, 0xa1b2c3d4, 4, 64);
	record(&b, 1, 2, 60, 60, 60);
	record(&b, 1, 2, 100, 100, 100);
	record(&b, 1, 2, 60, 60, 60);
	d = both("caplen > snaplen", &b, &mapped);
	EXPECT_TRUE(d.frames >= 1);
	/* snaplen 0 (libpcap takes its maximum); caplen over libpcap's maximum of 262144 */
	file_header(&b, false, 0xa1b2c3d4, 4, 0);
	record(&b, 1, 2, 1000, 1000, 1000);
	record(&b, 1, 2, 300000, 300000, 300000);
	d = both("snaplen 0, caplen 300000", &b, &mapped);
	EXPECT_EQ((int)d.frames, 1);
	EXPECT_TRUE(d.last_r < 0);
	/* a huge snaplen in the header, a record just within the mapping */
	file_header(&b, false, 0xa1b2c3d4, 4, 0x7fffffff);
	record(&b, 1, 2, 262144, 262144, 262144);
	d = both("snaplen 2^31-1, caplen 262144", &b, &mapped);
	EXPECT_EQ((int)d.frames, 1);
	/* no records; version 2.3 (not mapped: libpcap's length swapping rules) */
	file_header(&b, false, 0xa1b2c3d4, 4, 65535);
	d = both("no records", &b, &mapped);
	EXPECT_EQ((int)d.frames, 0);
	EXPECT_EQ(d.last_r, 0);
	file_header(&b, false, 0xa1b2c3d4, 3, 65535);
	record(&b, 1, 2, 60, 60, 60);
	d = both("version 2.3", &b, &mapped);
	EXPECT_EQ(mapped, -2 + (d.frames > 0) * 2);	/* a frame read: not mapped (0) */
}

static void fixtures(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, same = 0;

	EXPECT_TRUE(d != NULL);
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct pcap_read_digest m, l;
		char path[512];
		size_t len = strlen(e->d_name);

		if (len < 5 || (strcmp(e->d_name + len - 5, ".pcap") &&
				(len < 7 || strcmp(e->d_name + len - 7, ".pcapng"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		pcap_read_all(path, false, &m, NULL, NULL);
		pcap_read_all(path, true, &l, NULL, NULL);
		n++;
		same += pcap_digest_same(&m, &l);
		if (!pcap_digest_same(&m, &l))
			printf("# %s: the readers differ\n", path);
	}
	closedir(d);
	printf("# %s: %d of %d files read the same\n", dir, same, n);
	EXPECT_TRUE(n > 0);
	EXPECT_EQ(same, n);
}

int main(void)
{
	static uint8_t cbuf[1 << 20];

	crafted();
	fixtures("tests/fixtures/pcap");
	fixtures("tests/fixtures/pcap/bad");
	fixtures("tests/fixtures/rxe");
	fixtures("tests/fixtures/vm");
	EXPECT_TRUE(corpus_replay("tests/fuzz/corpus-pcap", cbuf, sizeof(cbuf)) >= 10);
	return tap_done();
}
