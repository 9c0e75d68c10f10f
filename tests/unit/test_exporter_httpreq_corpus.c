/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of the agent's request routing and Accept negotiation
 * (tests/fuzz/corpus-httpreq/: Prometheus's and curl's Accept headers, q weights, methods and
 * URLs, and every crash the fuzzer finds) through the fuzz target itself
 * (tests/fuzz/fuzz_httpreq.c), so each one stays fixed in make check (and under
 * SANITIZE=address,undefined).  The target's invariant checks trap on a violation, which
 * fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_httpreq.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-httpreq"

int main(void)
{
	return corpus_main(CORPUS, 32);
}
