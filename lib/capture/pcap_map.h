/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/capture/pcap_map.h: the records of a classic pcap file read in place from a read-only
 * mapping, without libpcap's per-record fread() copies (internal).
 *
 * Only the plain case is taken: a regular file, microsecond or nanosecond magic in either
 * byte order, version 2.4, and a record whose 16-byte header and caplen bytes are wholly in
 * the mapping with caplen <= libpcap's snapshot length.  Anything else (the end of the file,
 * a record cut short, caplen over the snapshot, a file that grew after the mapping) is not
 * decided here: rd_pcap_map_next() returns 0 and the caller hands the file back to libpcap at
 * rd_pcap_map_offset(), so libpcap reads the rest and says what it would have said. */
#ifndef RD_PCAP_MAP_H
#define RD_PCAP_MAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rd_pcap_map {
	const uint8_t *base;	/* NULL: not mapped */
	size_t size, off;	/* mapping length; offset of the next record */
	size_t dropped;		/* pages below this offset were released (madvise) */
	size_t fetched;		/* lines below this offset were prefetched */
	size_t populated;	/* pages below this offset were mapped in (madvise) */
	uint32_t snapshot;	/* libpcap's snapshot length for the file */
	bool swapped, micro;
};

struct rd_pcap_rec {
	uint64_t ts_sec;	/* as libpcap 1.10 gives it: the file's 32 bits sign-extended,
				 * zero-extended in a byte-swapped file */
	uint32_t ts_nsec;	/* microsecond files scaled by 1000 (mod 2^32, as libpcap) */
	uint32_t caplen, len;
	const uint8_t *data;
};

/* Map fd (a regular file of size bytes) whose records start at off.  0, or -ENOTSUP when
 * the file is not the plain case (nothing mapped), or -errno of mmap() */
int rd_pcap_map_open(struct rd_pcap_map *m, int fd, uint64_t size, uint64_t off,
		     uint32_t snapshot);
/* 1 and the next record, or 0: the next record is not the plain case (see above) */
int rd_pcap_map_next(struct rd_pcap_map *m, struct rd_pcap_rec *r);
static inline size_t rd_pcap_map_offset(const struct rd_pcap_map *m) { return m->off; }
void rd_pcap_map_close(struct rd_pcap_map *m);

#endif
