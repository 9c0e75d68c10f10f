/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_ring_read (rdmadiag/ring.h): every valid record of a ring file, oldest first.  The
 * scan (scan.c) lists them; each is then read again into a window of this call (a forward
 * pass of preads, records by sequence number being in file order but at the wrap) and
 * checked once more before the callback sees it, so a ring that a recorder (or anyone)
 * changes meanwhile gives a callback only records whose length, type and CRC hold. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* deliver the records of the scan s of fd; *delivered of them reached cb */
static int deliver(int fd, struct rd_ring_scan *s, rdiag_ring_cb cb, void *arg,
		   uint64_t *delivered)
{
	struct rd_ring_win w;
	size_t i;
	int rc = rd_ring_win_init(&w, s->size);

	for (i = 0; i < s->n && !rc; i++) {
		const struct rd_ring_rec *x = &s->recs[i];
		const unsigned char *p;
		struct rdiag_ring_record r = {
			.seq = x->seq,
			.time_ns = x->time_ns,
			.type = x->type,
			.len = x->len,
		};

		rc = rd_ring_fetch(fd, &w, x, s->size, &p);
		if (rc == 1) {	/* overwritten since the scan */
			s->skipped += rd_ring_align(RDIAG_RING_REC_HDR_LEN + (uint64_t)x->len);
			rc = 0;
			continue;
		}
		if (rc < 0)
			break;
		r.data = p + RDIAG_RING_REC_HDR_LEN;
		(*delivered)++;
		rc = cb(&r, arg);
	}
	rd_ring_win_free(&w);
	return rc;
}

int rdiag_ring_read(const char *path, rdiag_ring_cb cb, void *arg, struct rdiag_ring_info *info)
{
	struct rd_ring_scan s;
	struct stat st;
	uint64_t delivered = 0;
	int fd, rc;

	if (info)
		memset(info, 0, sizeof(*info));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		rc = -errno;
		rd_open_error_set(&rd_ring_err, "%s", strerror(-rc));
		return rc;
	}
	rc = rd_ring_scan(fd, &s);
	if (rc) {
		close(fd);
		return rc;
	}
	/* no record, and a header over a file that has next to nothing on disk: made sparse
	 * and never written, or made to look like a ring (rdiag_ring_open allocates the
	 * whole ring) */
	if (!s.n && !fstat(fd, &st) && (uint64_t)st.st_blocks * 512 < s.size) {
		rd_open_error_set(&rd_ring_err, "no record, and its header claims %llu bytes but "
				  "the file holds %llu on disk", (unsigned long long)s.size,
				  (unsigned long long)st.st_blocks * 512);
		rc = -ENODATA;
	} else {
		rc = deliver(fd, &s, cb, arg, &delivered);
	}
	if (info) {
		info->size = s.size;
		info->records = delivered;
		info->skipped_bytes = s.skipped;
		info->format = s.format;
	}
	rd_ring_scan_free(&s);
	close(fd);
	return rc;
}
