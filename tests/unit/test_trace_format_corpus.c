/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the trace format files (tests/fuzz/corpus-traceformat/:
 * every event format of the QEMU tier's kernel with a raw page that has its records,
 * tests/fuzz/mk_seeds_trace.py, and the fuzzer's finds crash-format-*, which made
 * libtraceevent follow a NULL pointer or leak before rd_trace_parse_format refused them:
 * lib/trace/format_check.c)
 * through the fuzz target itself (tests/fuzz/fuzz_traceformat.c), so that each input stays
 * safe in make check and under SANITIZE=address,undefined. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_traceformat.c"
#include "corpus_replay.h"

int main(void)
{
	static uint8_t buf[1 << 16];
	int n = corpus_replay("tests/fuzz/corpus-traceformat", buf, sizeof(buf));

	EXPECT_TRUE(n >= 70);
	/* each of the fixture's 66 formats parsed into a handle of its own (and whatever
	 * found input parses too), and the records of the pages decoded with them */
	EXPECT_TRUE(fuzz_formats_parsed >= 66);
	EXPECT_TRUE(fuzz_events >= 50);
	rdiag_trace_close(fuzz_trace);
	free(fuzz_header_page);
	free(fuzz_cmdlines);
	return tap_done();
}
