/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the trace sub-buffers (tests/fuzz/corpus-trace/: the QEMU
 * tier's raw pages, a torn one, a header alone) through the fuzz target itself
 * (tests/fuzz/fuzz_trace.c), so that each input stays safe in make check and under
 * SANITIZE=address,undefined. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_trace.c"
#include "corpus_replay.h"

int main(void)
{
	static uint8_t buf[1 << 16];
	int n = corpus_replay("tests/fuzz/corpus-trace", buf, sizeof(buf));

	EXPECT_TRUE(n >= 4);
	/* the two whole pages decode: every record of the capture went through the assembly */
	EXPECT_TRUE(fuzz_events >= 100);
	EXPECT_TRUE(fuzz_conns_seen >= 5);
	rdiag_trace_conns_close(fuzz_conns);
	rdiag_trace_close(fuzz_trace);
	return tap_done();
}
