/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The ring module's private parts: the file's layout (rdmadiag/ring.h says it in words), the
 * scan that finds the valid records of a ring file with bounded preads, and the
 * process-wide reason of the last failed rdiag_ring_open() or rdiag_ring_read(). */
#ifndef RDIAG_RING_INTERNAL_H
#define RDIAG_RING_INTERNAL_H
#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "open_error.h"
#include "rdmadiag/ring.h"

#define RING_MAGIC "RDIAGRNG"
#define RING_VERSION 1
#define REC_MAGIC 0x43524452u	/* "RDRC" little-endian */
#define REC_ALIGN 8

static inline uint64_t rd_ring_align(uint64_t v)
{
	return (v + REC_ALIGN - 1) & ~(uint64_t)(REC_ALIGN - 1);
}

static inline void rd_put32(unsigned char *p, uint32_t v) { v = htole32(v); memcpy(p, &v, 4); }
static inline void rd_put64(unsigned char *p, uint64_t v) { v = htole64(v); memcpy(p, &v, 8); }
static inline uint32_t rd_get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}
static inline uint64_t rd_get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* why the last failed rdiag_ring_open() or rdiag_ring_read() of the process failed */
extern struct rd_open_error rd_ring_err;

/* the file header of a ring of size bytes (RDIAG_RING_HDR_LEN bytes at h) */
void rd_ring_header_build(unsigned char *h, uint64_t size);
/* the CRC-32 of the record at rec with a payload of len bytes (its crc field as zero) */
uint32_t rd_ring_rec_crc(const unsigned char *rec, size_t len);
/* the largest payload of a ring of size bytes */
size_t rd_ring_max_payload(uint64_t size);

/* a record the scan found valid: the fields it checked, kept so that nothing is read from
 * the file twice without being checked again */
struct rd_ring_rec {
	uint64_t seq, off, time_ns;
	uint32_t len, crc;
	unsigned int type;
};

struct rd_ring_scan {
	uint64_t size;			/* the header's */
	uint32_t format;
	uint64_t skipped;		/* data-area bytes in no valid record */
	struct rd_ring_rec *recs;	/* by sequence number */
	size_t n;
};

/* check the header of the ring at fd and list its valid records, reading at most 1 MiB and
 * a record at a time and skipping holes: 0, or -errno with rd_ring_err saying why
 * (-EBADMSG not a ring, -ENODATA shorter than its header says, or made so while read,
 * -EISDIR, -ENOMEM, the errno of a failed read) */
int rd_ring_scan(int fd, struct rd_ring_scan *s);
void rd_ring_scan_free(struct rd_ring_scan *s);
/* a window of the file that records are read again from, after the scan: at most 1 MiB and
 * the largest record (a small ring whole), read forward as the records are delivered */
struct rd_ring_win {
	unsigned char *buf;
	uint64_t cap, base, len;
};
int rd_ring_win_init(struct rd_ring_win *w, uint64_t size);
void rd_ring_win_free(struct rd_ring_win *w);
/* the record x of a ring of size bytes, read again (the window moved to it when it does not
 * hold it) and checked again: 0 and *rec its bytes as the scan found them, 1 it changed
 * since (overwritten: skip it), -ENODATA the file was truncated meanwhile (rd_ring_err says
 * so), -errno */
int rd_ring_fetch(int fd, struct rd_ring_win *w, const struct rd_ring_rec *x, uint64_t size,
		  const unsigned char **rec);
#endif
