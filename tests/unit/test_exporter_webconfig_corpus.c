/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the agent's --web.config.file reader
 * (tests/fuzz/corpus-webconfig/: the configurations of rdmadiag_exporter_web.bats, good and
 * refused, and every crash the fuzzer finds) through the fuzz target itself
 * (tests/fuzz/fuzz_webconfig.c), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  The target's invariant checks trap on a violation, which
 * fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_webconfig.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-webconfig"

int main(void)
{
	return corpus_main(CORPUS, 37);
}
