/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays every file of a fuzz corpus directory through the fuzz target included before this
 * header (LLVMFuzzerTestOneInput), one file per call, each cut to the caller's buffer.  The
 * target's invariant checks trap on a violation, which fails the test.  Returns how many
 * files were replayed, -1 when the directory cannot be opened (already reported). */
#ifndef RDIAG_CORPUS_REPLAY_H
#define RDIAG_CORPUS_REPLAY_H
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include "tap.h"

static int corpus_replay(const char *dir, uint8_t *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	EXPECT_TRUE(d != NULL);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[512];
		size_t len;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		len = fread(buf, 1, size, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	closedir(d);
	return n;
}

/* the whole test: replay dir (files up to 1 MiB) and expect at least min_files of them */
static __attribute__((unused)) int corpus_main(const char *dir, int min_files)
{
	static uint8_t buf[1 << 20];
	int n = corpus_replay(dir, buf, sizeof(buf));

	if (n >= 0) {
		printf("# %d corpus files replayed\n", n);
		EXPECT_TRUE(n >= min_files);
	}
	return tap_done();
}

#endif
