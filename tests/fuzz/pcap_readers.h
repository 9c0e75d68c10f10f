/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The two ways a capture file is read, compared: libpcap's reads and the mapped reader of
 * classic pcap files (lib/capture/pcap_map.c).  pcap_read_all() reads a file one way and keeps
 * a digest of everything rdiag_capture_next() gave (every frame's number, time, lengths, link
 * type and bytes; the last return value and message); both ways must give the same digest.
 * Used by the pcap fuzz target and tests/unit/test_capture_map.c. */
#ifndef RDIAG_PCAP_READERS_H
#define RDIAG_PCAP_READERS_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rdmadiag/capture.h"
#include "capture/internal.h"

#define PCAP_READ_MAX_FRAMES 10000

struct pcap_read_digest {
	int open_r, last_r;	/* rdiag_capture_open's return; rdiag_capture_next's last */
	uint64_t frames, hash;
	char err[320];		/* the open error or the last read's message */
};

static inline uint64_t pcap_digest_mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* each (may be NULL) sees every frame */
static inline void pcap_read_all(const char *path, bool no_map, struct pcap_read_digest *d,
				 void (*each)(const struct rdiag_frame *f, void *arg), void *arg)
{
	struct rdiag_capture *c;
	struct rdiag_frame f;
	int r;

	memset(d, 0, sizeof(*d));
	d->hash = 0xcbf29ce484222325ull;
	rd_capture_no_map = no_map;
	d->open_r = rdiag_capture_open(&c, &(struct rdiag_capture_opts){ .file = path });
	rd_capture_no_map = false;
	if (d->open_r < 0) {
		snprintf(d->err, sizeof(d->err), "%s", rdiag_capture_errmsg(NULL));
		return;
	}
	while ((r = rdiag_capture_next(c, &f)) > 0 && d->frames < PCAP_READ_MAX_FRAMES) {
		d->frames++;
		d->hash = pcap_digest_mix(d->hash, &f.n, sizeof(f.n));
		d->hash = pcap_digest_mix(d->hash, &f.ts_sec, sizeof(f.ts_sec));
		d->hash = pcap_digest_mix(d->hash, &f.ts_nsec, sizeof(f.ts_nsec));
		d->hash = pcap_digest_mix(d->hash, &f.caplen, sizeof(f.caplen));
		d->hash = pcap_digest_mix(d->hash, &f.len, sizeof(f.len));
		d->hash = pcap_digest_mix(d->hash, &f.linktype, sizeof(f.linktype));
		d->hash = pcap_digest_mix(d->hash, f.data, f.caplen);
		if (each)
			each(&f, arg);
	}
	d->last_r = r;
	snprintf(d->err, sizeof(d->err), "%s", rdiag_capture_errmsg(c));
	rdiag_capture_close(c);
}

static inline bool pcap_digest_same(const struct pcap_read_digest *a,
				    const struct pcap_read_digest *b)
{
	return a->open_r == b->open_r && a->last_r == b->last_r && a->frames == b->frames &&
	       a->hash == b->hash && strcmp(a->err, b->err) == 0;
}
#endif
