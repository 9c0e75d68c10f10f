/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of rdmadoctor explain's line reader (tests/fuzz/corpus-explain/:
 * the real lines of tests/fixtures/explain and cut-off fragments of each format, and every crash
 * the fuzzer finds) through the fuzz target itself (tests/fuzz/fuzz_explain.c), so each one
 * stays fixed in make check (and under SANITIZE=address,undefined).  The target's invariant
 * checks trap on a violation, which fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_explain.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-explain"

int main(void)
{
	return corpus_main(CORPUS, 40);
}
