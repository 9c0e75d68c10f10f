/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_threshold_matches_none(): a rule that selects no counter of a sample set (a typo, a
 * device or port that is not there) is the one the tools warn about, since it can never
 * breach; a rule that matches one counter by name, glob or concept, on its device and port,
 * is not.  Through the public API on a scratch sysfs tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/threshold.h>
#include "scratch_tree.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char r[512];

	snprintf(r, sizeof(r), "%s/%s", "sys/class/infiniband/rxe9", rel);
	tree_put(root, r, text);
}

int main(void)
{
	static const struct { const char *rule; bool none; } cases[] = {
		{ "rnr_nak_retry_err > 0", false },		/* a name */
		{ "rnr_nak_retry_* > 0", false },		/* a glob */
		{ "rnr_nak_retry_err@rxe9 > 0", false },	/* on its device */
		{ "rnr_nak_retry_err@rxe9/1 > 0", false },	/* and port */
		{ "rnr_nak_retry_eror > 0", true },		/* a typo */
		{ "rnr_nak_retry_err@rxe8 > 0", true },		/* another device */
		{ "rnr_nak_retry_err@rxe9/2 > 0", true },	/* another port */
		{ "nosuch_* > 1/s", true },
	};
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_filter f = { NULL, 0 };
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *s = NULL;
	char cmd[128];
	size_t i;

	strcpy(root, "/tmp/rdiag-thrnone-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	put("node_type", "1: CA\n");
	put("ports/1/state", "4: ACTIVE\n");
	put("ports/1/link_layer", "Ethernet\n");
	put("ports/1/hw_counters/rnr_nak_retry_err", "3\n");
	put("ports/1/hw_counters/rcvd_pkts", "10\n");
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rdiag_threshold_opts to = { .buf = cases[i].rule,
							 .len = strlen(cases[i].rule) };
		struct rdiag_thresholds *t = NULL;

		printf("# %s\n", cases[i].rule);
		EXPECT_EQ(rdiag_threshold_open(&t, &to), 0);
		if (!t)
			continue;
		EXPECT_EQ(t->n, 1);
		EXPECT_EQ(rdiag_threshold_matches_none(&t->rule[0], s), cases[i].none);
		/* no samples at all: nothing matches */
		EXPECT_TRUE(rdiag_threshold_matches_none(&t->rule[0], NULL));
		rdiag_threshold_close(t);
	}
	rdiag_samples_free(s);
	rdiag_counters_close(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ(system(cmd), 0);
	return tap_done();
}
