/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of lib/fabric's parsers (tests/fuzz/corpus-fabric/: the dcbnl
 * replies and ethtool -S samples of tests/fixtures/fabric, and every crash the fuzzer finds)
 * through the fuzz target itself (tests/fuzz/fuzz_fabric.c), so each stays fixed in make
 * check.  The target's invariant checks trap on a violation, which fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_fabric.c"
#include "corpus_replay.h"

int main(void)
{
	return corpus_main("tests/fuzz/corpus-fabric", 10);
}
