/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Entries under /sys/class/infiniband that no kernel makes are left out and listed, by
 * discovery (struct rdiag_devices.skipped) and by a snapshot (rdiag_samples_skipped_*): a
 * symlink that loops, a device name of 64 bytes or more, port directories named "01", "x"
 * or "4294967297" (which strtoul wrapped onto port 1).  The good device and port are read
 * as usual.  Through the public API on a scratch sysfs tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include "scratch_tree.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char r[512];

	snprintf(r, sizeof(r), "%s/%s", "sys/class/infiniband", rel);
	tree_put(root, r, text);
}

/* the err of the listed entry whose path ends with tail, 1 when it is not listed */
static int listed(const struct rdiag_skipped *k, size_t n, const char *tail, const char **why)
{
	size_t i, l = strlen(tail);

	for (i = 0; i < n; i++)
		if (strlen(k[i].path) > l && !strcmp(k[i].path + strlen(k[i].path) - l, tail) &&
		    k[i].path[strlen(k[i].path) - l - 1] == '/') {
			*why = k[i].why;
			return k[i].err;
		}
	return 1;
}

static const struct { const char *tail; int err; const char *why; } want[] = {
	{ "infiniband/loop", -ELOOP, NULL },
	{ "infiniband/rxe0000000000000000000000000000000000000000000000000000000000009",
	  -ENAMETOOLONG, "device name of 64 bytes or more" },
	{ "ports/01", -EINVAL, "not a port number" },
	{ "ports/x", -EINVAL, "not a port number" },
	{ "ports/4294967297", -ERANGE, "port number out of range" },
};

static void check(const struct rdiag_skipped *k, size_t n)
{
	const char *why = NULL;
	size_t i;

	EXPECT_EQ(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int err = listed(k, n, want[i].tail, &why);

		printf("# %s\n", want[i].tail);
		EXPECT_EQ(err, want[i].err);
		if (err == want[i].err && want[i].why)
			EXPECT_STREQ(why, want[i].why);
		else if (err == want[i].err)
			EXPECT_TRUE(why == NULL);
	}
}

int main(void)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_filter f = { NULL, 0 };
	struct rdiag_counters *c = NULL;
	struct rdiag_devices *ds = NULL;
	struct rdiag_samples *s = NULL;
	struct rdiag_skipped k[8];
	const struct rdiag_sample *x;
	char cmd[128], p[256];
	size_t i, n;

	strcpy(root, "/tmp/rdiag-skipped-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	put("rxe9/node_type", "1: CA\n");
	put("rxe9/ports/1/state", "4: ACTIVE\n");
	put("rxe9/ports/1/hw_counters/sent_pkts", "7\n");
	put("rxe9/ports/01/hw_counters/sent_pkts", "100\n");
	put("rxe9/ports/x/hw_counters/sent_pkts", "100\n");
	put("rxe9/ports/4294967297/hw_counters/sent_pkts", "100\n");
	/* 64 bytes: one more than the kernel's IB_DEVICE_NAME_MAX allows */
	put("rxe0000000000000000000000000000000000000000000000000000000000009/ports/1/"
	    "hw_counters/sent_pkts", "100\n");
	snprintf(p, sizeof(p), "%s/sys/class/infiniband/loop", root);
	EXPECT_EQ(symlink("loop", p), 0);
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);

	EXPECT_EQ(rdiag_counters_discover(c, &ds), 0);
	EXPECT_EQ(ds ? ds->n : 0, 1);
	if (ds && ds->n) {
		EXPECT_STREQ(ds->dev[0].name, "rxe9");
		EXPECT_EQ(ds->dev[0].n_ports, 1);
		EXPECT_EQ(ds->dev[0].n_ports ? ds->dev[0].ports[0].port : 0, 1);
		check(ds->skipped, ds->n_skipped);
	}
	rdiag_counters_devices_free(ds);

	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	EXPECT_EQ(rdiag_samples_count(s), 1);
	x = rdiag_samples_find(s, "rxe9", 1, "sent_pkts");
	EXPECT_TRUE(x != NULL);
	EXPECT_EQ(x ? x->value : 0, 7);		/* not 100 from a port wrapped onto 1 */
	n = rdiag_samples_skipped_count(s);
	for (i = 0; i < n && i < 8; i++)
		k[i] = *rdiag_samples_skipped_get(s, i);
	check(k, n);
	EXPECT_TRUE(rdiag_samples_skipped_get(s, n) == NULL);
	rdiag_samples_free(s);

	/* a snapshot of one device lists only what concerns it: its ports, not the others */
	f.dev = "rxe9";
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	EXPECT_EQ(rdiag_samples_count(s), 1);
	rdiag_samples_free(s);
	rdiag_counters_close(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ(system(cmd), 0);
	return tap_done();
}
