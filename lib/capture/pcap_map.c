/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/capture/pcap_map.c: classic pcap records read in place from a mapping (pcap_map.h) */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "pcap_map.h"

#define PCAP_MAGIC_US	0xa1b2c3d4u
#define PCAP_MAGIC_NS	0xa1b23c4du
#define REC_HDR		16u
/* pages already read are released every RELEASE_STEP bytes, so that the resident set does
 * not grow with the file (the pages stay in the page cache) */
#define RELEASE_STEP	((size_t)16 << 20)
/* the file is prefetched this far ahead of the next record, one cache line at a time: the
 * ICRC reads every byte of every packet, and the page cache's pages are scattered, so the
 * hardware's stream prefetch stops at each 4 KiB page */
#define AHEAD		((size_t)4096)
#define LINE		((size_t)64)
/* pages are mapped in POPULATE_STEP bytes at a time, half a step ahead of the reader: one
 * madvise() instead of a fault every few pages, and the prefetches above find their pages
 * mapped (a prefetch into an unmapped page is dropped).  A kernel without
 * MADV_POPULATE_READ (before 5.14) says EINVAL and the pages fault in as before */
#define POPULATE_STEP	((size_t)4 << 20)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static uint32_t get32(const uint8_t *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap32(v) : v;
}

static uint16_t get16(const uint8_t *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap16(v) : v;
}

int rd_pcap_map_open(struct rd_pcap_map *m, int fd, uint64_t size, uint64_t off,
		     uint32_t snapshot)
{
	void *base;
	uint32_t magic;

	memset(m, 0, sizeof(*m));
	if (size < 24 || off != 24 || size > SIZE_MAX)
		return -ENOTSUP;
	base = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	m->base = base;
	m->size = (size_t)size;
	m->off = (size_t)off;
	m->snapshot = snapshot;
	memcpy(&magic, m->base, sizeof(magic));
	if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS) {
		m->swapped = false;
	} else if (magic == __builtin_bswap32(PCAP_MAGIC_US) ||
		   magic == __builtin_bswap32(PCAP_MAGIC_NS)) {
		m->swapped = true;
		magic = __builtin_bswap32(magic);
	} else {
		rd_pcap_map_close(m);
		return -ENOTSUP;
	}
	m->micro = magic == PCAP_MAGIC_US;
	if (get16(m->base + 4, m->swapped) != 2 || get16(m->base + 6, m->swapped) != 4) {
		rd_pcap_map_close(m);
		return -ENOTSUP;
	}
	(void)madvise(base, m->size, MADV_SEQUENTIAL);
	return 0;
}

static void populate_ahead(struct rd_pcap_map *m)
{
	size_t len = m->size - m->populated;

	if (len > POPULATE_STEP)
		len = POPULATE_STEP;
	(void)madvise((void *)(uintptr_t)(m->base + m->populated), len, MADV_POPULATE_READ);
	m->populated += len;
}

static void release_behind(struct rd_pcap_map *m)
{
	size_t page = 4096, upto = (m->off - RELEASE_STEP / 2) & ~(page - 1);

	if (upto > m->dropped) {
		(void)madvise((void *)(uintptr_t)(m->base + m->dropped), upto - m->dropped,
			      MADV_DONTNEED);
		m->dropped = upto;
	}
}

int rd_pcap_map_next(struct rd_pcap_map *m, struct rd_pcap_rec *r)
{
	const uint8_t *h;
	uint32_t caplen, frac;

	if (!m->base || m->size - m->off < REC_HDR)
		return 0;
	h = m->base + m->off;
	caplen = get32(h + 8, m->swapped);
	if (caplen > m->snapshot || caplen > m->size - m->off - REC_HDR)
		return 0;
	/* as libpcap 1.10 gives it: the 32-bit field sign-extended in the file's own byte order,
	 * zero-extended when swapped (its swap yields an unsigned value) */
	r->ts_sec = m->swapped ? get32(h, true) : (uint64_t)(int64_t)(int32_t)get32(h, false);
	frac = get32(h + 4, m->swapped);
	r->ts_nsec = m->micro ? frac * 1000u : frac;
	r->caplen = caplen;
	r->len = get32(h + 12, m->swapped);
	r->data = h + REC_HDR;
	m->off += REC_HDR + caplen;
	/* the lines up to AHEAD past the next record, read while this one is decoded (a hint:
	 * never a fault, even past the end of the mapping) */
	if (m->fetched < m->off)
		m->fetched = m->off & ~(LINE - 1);
	for (; m->fetched < m->off + AHEAD; m->fetched += LINE)
		__builtin_prefetch(m->base + m->fetched);
	if (m->off - m->dropped >= RELEASE_STEP)
		release_behind(m);
	if (m->off + POPULATE_STEP / 2 > m->populated && m->populated < m->size)
		populate_ahead(m);
	return 1;
}

void rd_pcap_map_close(struct rd_pcap_map *m)
{
	if (m->base)
		(void)munmap((void *)(uintptr_t)m->base, m->size);
	m->base = NULL;
}
