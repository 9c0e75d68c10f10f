/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Replays the fuzz seed corpus of sysfs (tests/fuzz/corpus-sysfs/, where every crash the
 * fuzzer finds is kept as a fixture) through the fuzz target itself (tests/fuzz/fuzz_sysfs.c,
 * which writes each input as a tree under a scratch directory), so each one stays fixed in
 * make check (and under SANITIZE=address,undefined), and checks what fuzz_sysfs found:
 * two port directories naming one port ("1" and "01") read the port twice, and the second
 * read of its GIDs wrote past the list of the first. */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_sysfs.c"
#include "corpus_replay.h"

#define CORPUS "tests/fuzz/corpus-sysfs"

static void test_port_twice(void)
{
	static const char tree[] =
		"infiniband/rxe0/ports/1/link_layer=Ethernet\n"
		"infiniband/rxe0/ports/1/gids/0=fe80:0000:0000:0000:0000:0000:0000:0001\n"
		"infiniband/rxe0/ports/01/gids/0=fe80:0000:0000:0000:0000:0000:0000:0002\n";
	struct rdiag_counters *c;
	struct rdiag_devices *ds = NULL;
	const struct rdiag_device *d;

	/* the target writes the tree (and reads it: that alone overran the list) */
	LLVMFuzzerTestOneInput((const uint8_t *)tree, sizeof(tree) - 1);
	EXPECT_EQ(rdiag_counters_open(&c, &(struct rdiag_counters_opts){
		.source = RDIAG_SRC_SYSFS }), 0);
	EXPECT_EQ(rdiag_counters_discover(c, &ds), 0);
	d = ds ? rdiag_counters_device_find(ds, "rxe0") : NULL;
	EXPECT_TRUE(d != NULL);
	if (d) {
		EXPECT_EQ(d->n_ports, 1);
		EXPECT_EQ(d->ports[0].n_gids, 1);
	}
	rdiag_counters_devices_free(ds);
	rdiag_counters_close(c);
}

int main(void)
{
	static uint8_t buf[16384];
	int n;

	test_port_twice();
	n = corpus_replay(CORPUS, buf, sizeof(buf));
	if (n < 0)
		return tap_done();
	printf("# %d corpus files replayed\n", n);
	EXPECT_TRUE(n >= 10);
	return tap_done();
}
