/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* selftest: list the verbs self-tests, or run them on a device.
 *
 * Uses rdmadiag/selftest.h: the test table needs no device; rdiag_selftest_open() opens one
 * (its failure reason is rdiag_selftest_errmsg(NULL): what to check, in one line), each
 * rdiag_selftest_run() fills a structured result, rdiag_selftest_close() releases the rest.
 *
 *	./selftest                 list the tests
 *	./selftest run [TEST...]   run them (all by default) on the first ACTIVE port
 */
#include <stdio.h>
#include <string.h>
#include <rdmadiag/selftest.h>

int main(int argc, char **argv)
{
	const struct rdiag_selftest_opts opts = { .gid_index = -1, .peer_gid_index = -1 };
	struct rdiag_selftest *st;
	struct rdiag_st_result res;
	int failed = 0;

	if (argc < 2) {
		for (size_t i = 0; i < rdiag_selftest_count(); i++)
			printf("%-12s %s\n", rdiag_selftest_name(i), rdiag_selftest_description(i));
		return 0;
	}
	if (strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: selftest [run [TEST...]]\n");
		return 2;
	}
	if (rdiag_selftest_open(&st, &opts) < 0) {
		fprintf(stderr, "selftest: %s\n", rdiag_selftest_errmsg(NULL));
		return 2;
	}
	printf("%s port %d, GID index %d\n", rdiag_selftest_dev(st), rdiag_selftest_port(st),
	       rdiag_selftest_gid_index(st));
	for (size_t i = 0; i < rdiag_selftest_count(); i++) {
		int k = 2;

		while (k < argc && strcmp(argv[k], rdiag_selftest_name(i)))
			k++;
		if (argc > 2 && k == argc)
			continue;
		if (rdiag_selftest_run(st, i, &res) < 0) {
			fprintf(stderr, "selftest: %s\n", rdiag_selftest_errmsg(st));
			failed = 1;
			break;
		}
		printf("%-12s %-4s %s\n", res.name, rdiag_verdict_name(res.verdict), res.summary);
		if (res.verdict == RDIAG_FAIL) {
			failed = 1;
			printf("             step %s: %s\n", res.step, res.hint);
		}
	}
	rdiag_selftest_close(st);
	return failed;
}
