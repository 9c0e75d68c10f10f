/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_watch_*: the device/port change detector rdmatrace record and rdmatop share.  After a
 * reset with a discovery nothing has changed; a device directory that appears or goes away is
 * RDIAG_WATCH_DEVICES, and so is one re-created under its name; a port whose state or phys_state file now reads differently (or not at
 * all) is RDIAG_WATCH_PORTS, and only when the watch keeps the port files open.  Through the
 * public API on a scratch sysfs tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include "scratch_tree.h"
#include "tap.h"

static char root[64];

static void put(const char *dev, const char *rel, const char *text)
{
	char r[512];

	snprintf(r, sizeof(r), "sys/class/infiniband/%s/%s", dev, rel);
	tree_put(root, r, text);
}

static void add_dev(const char *dev)
{
	put(dev, "node_type", "1: CA\n");
	put(dev, "ports/1/state", "4: ACTIVE\n");
	put(dev, "ports/1/phys_state", "5: LinkUp\n");
	put(dev, "ports/1/link_layer", "Ethernet\n");
	put(dev, "ports/1/hw_counters/rcvd_pkts", "1\n");
}

/* a new discovery, and the watch reset with it */
static void rediscover(struct rdiag_counters *c, struct rdiag_watch *w)
{
	struct rdiag_devices *d = NULL;

	EXPECT_EQ(rdiag_counters_discover(c, &d), 0);
	if (!d)
		return;
	EXPECT_EQ(rdiag_watch_reset(w, d), 0);
	rdiag_counters_devices_free(d);
}

int main(void)
{
	const unsigned int all = RDIAG_WATCH_DEVICES | RDIAG_WATCH_PORTS;
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_counters *c = NULL;
	struct rdiag_watch *w = NULL, *wd = NULL;
	char cmd[256], p[256];

	strcpy(root, "/tmp/rdiag-watch-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	add_dev("rxe0");
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);
	EXPECT_EQ(rdiag_watch_open(&w, NULL), -EINVAL);
	EXPECT_TRUE(w == NULL);
	EXPECT_EQ(rdiag_watch_open(&w, &(struct rdiag_watch_opts){ .counters = c, .ports = true }),
		  0);
	EXPECT_EQ(rdiag_watch_open(&wd, &(struct rdiag_watch_opts){ .counters = c }), 0);
	if (!w || !wd)
		return tap_done();
	EXPECT_STREQ(rdiag_watch_errmsg(w), "");

	/* before any reset no device is known: rxe0 is a change */
	EXPECT_EQ(rdiag_watch_check(w, all), RDIAG_WATCH_DEVICES);
	EXPECT_EQ(rdiag_watch_check(w, RDIAG_WATCH_PORTS), 0);
	rediscover(c, w);
	rediscover(c, wd);
	EXPECT_EQ(rdiag_watch_check(w, all), 0);
	EXPECT_EQ(rdiag_watch_check(wd, all), 0);

	/* a port state change: seen through the kept-open file, by the watch that keeps it */
	put("rxe0", "ports/1/state", "1: DOWN\n");
	EXPECT_EQ(rdiag_watch_check(w, all), RDIAG_WATCH_PORTS);
	EXPECT_EQ(rdiag_watch_check(w, RDIAG_WATCH_DEVICES), 0);
	EXPECT_EQ(rdiag_watch_check(wd, all), 0);
	rediscover(c, w);
	EXPECT_EQ(rdiag_watch_check(w, all), 0);
	put("rxe0", "ports/1/phys_state", "3: Disabled\n");
	EXPECT_EQ(rdiag_watch_check(w, all), RDIAG_WATCH_PORTS);
	rediscover(c, w);
	EXPECT_EQ(rdiag_watch_check(w, all), 0);

	/* a file that becomes empty (unreadable as a number) is a change too */
	put("rxe0", "ports/1/state", "");
	EXPECT_EQ(rdiag_watch_check(w, RDIAG_WATCH_PORTS), RDIAG_WATCH_PORTS);
	put("rxe0", "ports/1/state", "1: DOWN\n");
	EXPECT_EQ(rdiag_watch_check(w, RDIAG_WATCH_PORTS), 0);

	/* a device that appears, then one that goes away */
	add_dev("rxe1");
	EXPECT_EQ(rdiag_watch_check(w, all), RDIAG_WATCH_DEVICES);
	EXPECT_EQ(rdiag_watch_check(wd, all), RDIAG_WATCH_DEVICES);
	EXPECT_EQ(rdiag_watch_check(w, RDIAG_WATCH_PORTS), 0);
	rediscover(c, w);
	rediscover(c, wd);
	EXPECT_EQ(rdiag_watch_check(w, all), 0);
	/* a device re-created under its name (rdma link delete and add between two looks): a
	 * new directory, the old one kept aside so that it cannot get the old inode; the watch
	 * without port files sees it by the directory alone */
	snprintf(cmd, sizeof(cmd), "mv '%s/sys/class/infiniband/rxe1' '%s/rxe1.old'", root, root);
	EXPECT_EQ(system(cmd), 0);
	add_dev("rxe1");
	EXPECT_EQ(rdiag_watch_check(wd, all), RDIAG_WATCH_DEVICES);
	EXPECT_EQ(rdiag_watch_check(w, all), RDIAG_WATCH_DEVICES);
	rediscover(c, w);
	rediscover(c, wd);
	EXPECT_EQ(rdiag_watch_check(w, all), 0);
	EXPECT_EQ(rdiag_watch_check(wd, all), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/class/infiniband/rxe0'", root);
	EXPECT_EQ(system(cmd), 0);
	EXPECT_EQ(rdiag_watch_check(wd, all), RDIAG_WATCH_DEVICES);
	rediscover(c, wd);
	EXPECT_EQ(rdiag_watch_check(wd, all), 0);

	/* no device directory at all: a change only while devices are known */
	snprintf(p, sizeof(p), "rm -rf '%s/sys'", root);
	EXPECT_EQ(system(p), 0);
	EXPECT_EQ(rdiag_watch_check(wd, RDIAG_WATCH_DEVICES), RDIAG_WATCH_DEVICES);
	rdiag_watch_close(w);
	rdiag_watch_close(wd);
	rdiag_watch_close(NULL);
	rdiag_counters_close(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ(system(cmd), 0);
	return tap_done();
}
