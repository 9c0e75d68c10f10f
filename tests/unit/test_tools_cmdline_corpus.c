/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the tools' command lines (tests/fuzz/corpus-cmdline/,
 * where every crash the fuzzer finds is kept as a fixture) through the fuzz target itself
 * (tests/fuzz/fuzz_cmdline.c: each tool's option parsing in-process, the run ending where
 * the options end or the tool exits), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  A crash or sanitizer report fails this test; so does a run
 * that does not come back (a tool that goes on past its options). */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_cmdline.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-cmdline"

int main(void)
{
	static uint8_t b[4096];
	int n = corpus_replay(CORPUS, b, sizeof(b));

	if (n < 0)
		return tap_done();
	printf("# %d corpus files replayed\n", n);
	EXPECT_TRUE(n >= 52);
	/* every run came back: the process still has its stdout */
	EXPECT_TRUE(fileno(stdout) == STDOUT_FILENO && !ferror(stdout));
	return tap_done();
}
