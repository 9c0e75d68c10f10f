/* Replays the fuzz seed corpus of whole capture files (tests/fuzz/corpus-pcap/: every link
 * type, pcap us/ns, pcapng, snap-length cuts, a file cut inside a record, real rxe frames)
 * through the fuzz target: capture reader, decoder and flow analysis. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../fuzz/fuzz_pcap.c"

#define CORPUS "tests/fuzz/corpus-pcap"

int main(void)
{
	DIR *d = opendir(CORPUS);
	struct dirent *e;
	unsigned int n = 0;
	static uint8_t buf[1 << 20];

	EXPECT_TRUE(d != NULL);
	if (!d)
		return tap_done();
	while ((e = readdir(d))) {
		char path[512];
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
	printf("# %u capture files replayed\n", n);
	EXPECT_TRUE(n >= 10);
	return tap_done();
}
