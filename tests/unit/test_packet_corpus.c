/* Replays the fuzz seed corpus of the packet decoder (tests/fuzz/corpus-packet/, where every
 * crash the fuzzer finds is kept as a fixture) through the fuzz target itself, so each one
 * stays fixed in make check (and under SANITIZE=address,undefined).  The target's invariant
 * checks trap on a violation, which fails this test. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_packet.c"

#define CORPUS "tests/fuzz/corpus-packet"

int main(void)
{
	DIR *d = opendir(CORPUS);
	struct dirent *e;
	unsigned int n = 0;

	EXPECT_TRUE(d != NULL);
	if (!d)
		return tap_done();
	while ((e = readdir(d))) {
		char path[512];
		uint8_t buf[65536];
		size_t len;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	closedir(d);
	printf("# %u corpus files replayed\n", n);
	EXPECT_TRUE(n >= 40);
	return tap_done();
}
