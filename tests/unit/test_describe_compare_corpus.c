/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of rdmadoctor compare's reader (tests/fuzz/corpus-compare/:
 * generated hosts with outliers, duplicate ports, wrong types, non-JSON lines, and every crash
 * the fuzzer finds) through the fuzz target itself (tests/fuzz/fuzz_compare.c), so each one
 * stays fixed in make check (and under SANITIZE=address,undefined).  The target's invariant
 * checks trap on a violation, which fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_compare.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-compare"

int main(void)
{
	return corpus_main(CORPUS, 9);
}
