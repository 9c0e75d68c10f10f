/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the flight recorder's ring (tests/fuzz/corpus-ring/, where
 * every crash the fuzzer finds is kept as a fixture) through the fuzz target itself
 * (tests/fuzz/fuzz_ring.c: rdiag_ring_read, the EVENT codec and rdmatrace dump's decoders of
 * every record type), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  The target's invariant checks trap on a violation, which
 * fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_ring.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-ring"

int main(void)
{
	return corpus_main(CORPUS, 13);
}
