/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#define _GNU_SOURCE	/* O_NOATIME */
/* CPU time of one counter snapshot through librdmadiag (rdiag_counters_sample: sysfs walk,
 * reads, parsing, catalogue lookup), averaged over N snapshots of the tree at
 * RDMADIAG_SYSFS_ROOT.  Built and run by tests/bench/20-rdmastat.sh.
 *   usage: stat_snapshot N          ->  "<samples per snapshot> <cpu us per snapshot> <wall us>"
 *          stat_snapshot N FILE...  ->  the floor: CPU us of one pread() on each FILE, kept
 *                                       open (O_NOATIME, as librdmadiag opens them), per
 *                                       round (what the kernel side costs alone) */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <rdmadiag/counters.h>

static double now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_counters *c;
	struct rdiag_samples *s;
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	size_t count = 0;
	double c0, c1, w0, w1;

	if (argc > 2) {
		int *fd = calloc((size_t)argc, sizeof(*fd));
		char buf[64];
		int k;

		for (k = 2; k < argc; k++)
			if ((fd[k] = open(argv[k], O_RDONLY | O_NOATIME)) < 0 &&
			    (fd[k] = open(argv[k], O_RDONLY)) < 0)
				return 2;
		c0 = now(CLOCK_PROCESS_CPUTIME_ID);
		for (i = 0; i < n; i++)
			for (k = 2; k < argc; k++)
				if (pread(fd[k], buf, sizeof(buf), 0) < 0)
					return 2;
		c1 = now(CLOCK_PROCESS_CPUTIME_ID);
		printf("%d %.1f\n", argc - 2, (c1 - c0) / n);
		free(fd);
		return 0;
	}
	if (n < 1 || rdiag_counters_open(&c, &o) < 0)
		return 2;
	/* one warm-up: the dentry cache, the catalogue index */
	if (rdiag_counters_sample(c, NULL, &s) < 0)
		return 2;
	rdiag_samples_free(s);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	w0 = now(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		if (rdiag_counters_sample(c, NULL, &s) < 0)
			return 2;
		count = rdiag_samples_count(s);
		rdiag_samples_free(s);
	}
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now(CLOCK_MONOTONIC);
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "user %.1f s sys %.1f s in total\n",
			ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
			ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	}
	printf("%zu %.1f %.1f\n", count, (c1 - c0) / n, (w1 - w0) / n);
	rdiag_counters_close(c);
	return 0;
}
