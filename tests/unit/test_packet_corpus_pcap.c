/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of whole capture files (tests/fuzz/corpus-pcap/: every link
 * type, pcap us/ns, pcapng, snap-length cuts, a file cut inside a record, real rxe frames)
 * through the fuzz target: capture reader, decoder and flow analysis. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_pcap.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-pcap"

int main(void)
{
	static uint8_t buf[1 << 20];
	int n = corpus_replay(CORPUS, buf, sizeof(buf));

	if (n < 0)
		return tap_done();
	printf("# %d capture files replayed\n", n);
	EXPECT_TRUE(n >= 10);
	return tap_done();
}
