/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: where the records go.  The ring the recorder opened, its write errors,
 * and a trigger's copies of it (FILE.snap.N, at most one a second, the newest --snapshots
 * kept).  record.c and the watchers of record_*.c write through here; nothing here calls
 * back into them. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/tool.h"
#include "rdmadiag/ring.h"
#include "record.h"

#define SNAP_MIN_GAP_NS 1000000000ull	/* at most one snapshot copy a second */

static struct rdiag_ring *ring;
static const char *out_file;		/* the ring's path: FILE of FILE.snap.N */
static unsigned int out_keep;		/* copies kept, 0: all */
static unsigned int snap_n, snap_low;	/* the last copy's N; the lowest that may exist */
static uint64_t last_snap_ns, write_errors;
static bool snap_pending;		/* a trigger's copy waits for the gap to pass */
static int first_write_err;
static char broken[4400];		/* why the ring is no longer ours to write ("": it is) */

void rec_put(unsigned int type, uint64_t t, const void *data, size_t len)
{
	int rc;

	if (broken[0])
		return;
	rc = rdiag_ring_append(ring, type, t, data, len);
	/* truncated, extended, replaced or its header overwritten by another process
	 * (rdmadiag/ring.h): what is there stays as it is, the recorder stops */
	if (rc == -ENODATA || rc == -ESTALE || rc == -EBADMSG) {
		snprintf(broken, sizeof(broken), "%s", rdiag_ring_errmsg(ring));
		return;
	}
	if (rc < 0 && !write_errors++)
		first_write_err = -rc;
}

const char *rec_out_broken(void)
{
	return broken[0] ? broken : NULL;
}

void rec_put_text(unsigned int type, uint64_t t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	rec_put(type, t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* N of FILE.snap.N copies already there (a continued ring's earlier triggers): the highest in
 * *hi, the lowest in *lo (0, 0: none) */
static void snap_existing(unsigned int *lo, unsigned int *hi)
{
	char dir[4200], base[4200];
	const char *slash = strrchr(out_file, '/');
	struct dirent *e;
	size_t blen;
	DIR *d;

	*lo = *hi = 0;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out_file) + 1 : 1,
		 slash ? out_file : ".");
	snprintf(base, sizeof(base), "%s.snap.", slash ? slash + 1 : out_file);
	blen = strlen(base);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name + blen;
		char *end;
		unsigned long v;

		if (strncmp(e->d_name, base, blen) || *n < '1' || *n > '9')
			continue;
		v = strtoul(n, &end, 10);
		if (*end || v > 0xfffffffful)
			continue;
		if (v > *hi)
			*hi = (unsigned int)v;
		if (!*lo || v < *lo)
			*lo = (unsigned int)v;
	}
	closedir(d);
}

/* the ring as it is now copied to FILE.snap.N; then, with --snapshots KEEP, the copies older
 * than the newest KEEP are removed (not when this copy failed: the older ones are what there
 * is) */
static void snap_copy(uint64_t now)
{
	char path[4200];
	int rc;

	last_snap_ns = now;
	snap_pending = false;
	if (broken[0])	/* not a copy of a file that is no longer the ring */
		return;
	snprintf(path, sizeof(path), "%s.snap.%u", out_file, ++snap_n);
	rc = rdiag_ring_copy(ring, path);
	if (rc < 0) {
		tool_warn("cannot write '%s': %s", path, strerror(-rc));
		return;
	}
	if (!out_keep || !snap_low)
		return;
	for (; snap_low + out_keep <= snap_n; snap_low++) {
		snprintf(path, sizeof(path), "%s.snap.%u", out_file, snap_low);
		if (unlink(path) < 0 && errno != ENOENT)
			tool_warn("cannot remove the old copy '%s': %s", path, strerror(errno));
	}
}

/* a marker, and the ring copied: at once, or, within a second of the last copy, as soon as
 * that second is over (record_loop), so that the last copy holds the last trigger */
void rec_trigger(const char *why, uint64_t when)
{
	uint64_t now = tool_mono_ns();

	rec_put_text(RDIAG_REC_MARKER, when, "%s", why);
	if (last_snap_ns && now - last_snap_ns < SNAP_MIN_GAP_NS) {
		snap_pending = true;
		return;
	}
	snap_copy(now);
}

void rec_out_start(struct rdiag_ring *r, const char *file, unsigned int keep)
{
	ring = r;
	out_file = file;
	out_keep = keep;
	/* a continued ring's copies stay: numbering goes on after the highest */
	snap_existing(&snap_low, &snap_n);
	if (!snap_low)
		snap_low = 1;
}

void rec_out_copy_if_due(void)
{
	if (snap_pending && tool_mono_ns() - last_snap_ns >= SNAP_MIN_GAP_NS)
		snap_copy(tool_mono_ns());
}

bool rec_out_copy_pending(uint64_t *due)
{
	if (!snap_pending)
		return false;
	*due = last_snap_ns + SNAP_MIN_GAP_NS;
	return true;
}

void rec_out_flush(void)
{
	if (snap_pending)	/* the last trigger's copy, without waiting out the gap */
		snap_copy(tool_mono_ns());
}

uint64_t rec_out_errors(int *first_err)
{
	*first_err = first_write_err;
	return write_errors;
}
