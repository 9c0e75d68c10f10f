/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The sysfs counter path keeps counter files open between snapshots and remembers, in each
 * cached directory listing, where a file's descriptor is.  Through the public API on a
 * scratch tree: values rewritten in place are read again, a file replaced by rename (new
 * inode) is reopened, a removed device's files are closed and never read, a re-created
 * device (whose new files reuse freed slots) reads its own values, a filtered snapshot in
 * between does not disturb the next full one, and closing the handle closes every file. */
#include <dirent.h>
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
	tree_put(root, rel, text);
}

/* replace by rename: same path, new inode */
static void replace(const char *rel, const char *text)
{
	char p[512], t[520];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(t, sizeof(t), "%s.new", p);
	f = fopen(t, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	rename(t, p);
}

static void device(const char *dev, unsigned int base)
{
	char rel[256], v[32];
	const char *names[] = { "rcvd_pkts", "sent_pkts", "rcvd_rnr_err", "send_rnr_err" };
	size_t i;

	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/node_type", dev);
	put(rel, "1: CA\n");
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/1/state", dev);
	put(rel, "4: ACTIVE\n");
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/1/link_layer", dev);
	put(rel, "Ethernet\n");
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/1/hw_counters/lifespan", dev);
	put(rel, "10\n");
	for (i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/1/hw_counters/%s", dev,
			 names[i]);
		snprintf(v, sizeof(v), "%u\n", base + (unsigned int)i);
		put(rel, v);
	}
}

static int rm_tree(const char *p)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p);
	return system(cmd);
}

static int nfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own descriptor */
}

/* value of dev/1/name in a fresh snapshot (-1: absent, -2: snapshot failed) */
static long long val(struct rdiag_counters *c, const struct rdiag_filter *f, const char *dev,
		     const char *name, size_t *count)
{
	struct rdiag_samples *s;
	const struct rdiag_sample *x;
	long long v;

	if (rdiag_counters_sample(c, f, &s) < 0)
		return -2;
	x = rdiag_samples_find(s, dev, 1, name);
	v = x ? (x->err ? -3 : (long long)x->value) : -1;
	if (count)
		*count = rdiag_samples_count(s);
	rdiag_samples_free(s);
	return v;
}

int main(void)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_filter only_b = { "rxe1", 0 };
	struct rdiag_counters *c;
	char p[256];
	size_t n = 0;
	int fd0;

	strcpy(root, "/tmp/rdiag-cache-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	device("rxe0", 100);
	device("rxe1", 200);
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	fd0 = nfds();
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);

	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_pkts", &n), 100);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(val(c, NULL, "rxe1", "send_rnr_err", NULL), 203);
	/* kept open: a second snapshot reads the files again, not a copy */
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts", "150\n");
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_pkts", NULL), 150);
	EXPECT_TRUE(nfds() >= fd0 + 8);

	/* replaced by rename: the old descriptor would still read 150 */
	replace("sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts", "175\n");
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_pkts", NULL), 175);
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_pkts", NULL), 175);

	/* a device removed: not read (its kept files would still hold 200..203) */
	snprintf(p, sizeof(p), "%s/sys/class/infiniband/rxe1", root);
	EXPECT_EQ(rm_tree(p), 0);
	EXPECT_EQ(val(c, NULL, "rxe1", "rcvd_pkts", &n), -1);
	EXPECT_EQ(n, 4);
	EXPECT_EQ(val(c, NULL, "rxe0", "sent_pkts", NULL), 101);

	/* re-created with other values: its new files take the freed slots */
	device("rxe1", 300);
	EXPECT_EQ(val(c, NULL, "rxe1", "rcvd_pkts", &n), 300);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(val(c, NULL, "rxe1", "send_rnr_err", NULL), 303);
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_rnr_err", NULL), 102);

	/* a filtered snapshot, a counter of rxe0 replaced meanwhile, then a full one */
	EXPECT_EQ(val(c, &only_b, "rxe1", "sent_pkts", &n), 301);
	EXPECT_EQ(n, 4);
	replace("sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_rnr_err", "999\n");
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_rnr_err", &n), 999);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(val(c, NULL, "rxe1", "rcvd_rnr_err", NULL), 302);

	/* a counter removed and another added in a kept directory */
	snprintf(p, sizeof(p), "%s/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", root);
	EXPECT_EQ(unlink(p), 0);
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/ack_deferred", "7\n");
	EXPECT_EQ(val(c, NULL, "rxe0", "sent_pkts", &n), -1);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(val(c, NULL, "rxe0", "ack_deferred", NULL), 7);
	EXPECT_EQ(val(c, NULL, "rxe0", "rcvd_pkts", NULL), 175);

	rdiag_counters_close(c);
	EXPECT_EQ(nfds(), fd0);
	rm_tree(root);
	return tap_done();
}
