/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the packet decoder (tests/fuzz/corpus-packet/, where every
 * crash the fuzzer finds is kept as a fixture) through the fuzz target itself, so each one
 * stays fixed in make check (and under SANITIZE=address,undefined).  The target's invariant
 * checks trap on a violation, which fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_packet.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-packet"

int main(void)
{
	static uint8_t buf[65536];
	int n = corpus_replay(CORPUS, buf, sizeof(buf));

	if (n < 0)
		return tap_done();
	printf("# %d corpus files replayed\n", n);
	EXPECT_TRUE(n >= 40);
	/* the CM private data path is reached, the doctor's own private data included */
	printf("# CM private data in %u decodes, the doctor's in %u\n", cm_private_seen,
	       cm_private_doctor);
	EXPECT_TRUE(cm_private_seen > 0);
	EXPECT_TRUE(cm_private_doctor > 0);
	/* rdmadump's one-pass line (dump_fast.c) is reached and gave the field-by-field bytes */
	printf("# one-pass lines compared with the field-by-field ones: %u\n", fast_lines);
	EXPECT_TRUE(fast_lines > 0);
	return tap_done();
}
