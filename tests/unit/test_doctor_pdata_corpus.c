/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the doctor's CM private data (tests/fuzz/corpus-pdata/, where every
 * crash the fuzzer finds is kept as a fixture) through the fuzz target itself
 * (tests/fuzz/fuzz_pdata.c), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  The target's invariant checks trap on a violation, which
 * fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_pdata.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-pdata"

int main(void)
{
	return corpus_main(CORPUS, 9);
}
