/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The fuzz targets' scratch directory: one per process, made on first use under $TMPDIR, or
 * else /dev/shm (tmpfs: fuzz_sysfs writes a tree per input) or /tmp; emptied and removed at
 * exit.  Targets write nowhere else. */
#ifndef FUZZ_SCRATCH_H
#define FUZZ_SCRATCH_H
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char scratch_path[256];

static int scratch_rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	if (f->level > 0)
		remove(p);
	return 0;
}

/* remove everything under the scratch directory (keep the directory) */
static void scratch_empty(void)
{
	if (scratch_path[0])
		nftw(scratch_path, scratch_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void scratch_remove(void)
{
	scratch_empty();
	if (scratch_path[0])
		rmdir(scratch_path);
}

static const char *scratch_dir(void)
{
	if (!scratch_path[0]) {
		const char *t = getenv("TMPDIR");

		if (!t || !*t)
			t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(scratch_path, sizeof(scratch_path), "%s/rdmadiag-fuzz.XXXXXX", t);
		if (!mkdtemp(scratch_path))
			abort();
		atexit(scratch_remove);
	}
	return scratch_path;
}

#endif
