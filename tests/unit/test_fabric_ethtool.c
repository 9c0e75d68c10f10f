/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/fabric's ethtool -S path on the replays of tests/fixtures/fabric/eth-*.txt (built by
 * mk_ethtool.py in ETHTOOL_GSTRINGS/GSTATS layout) and the RoCE catalogue of driver names:
 * successive samples in order, a name of exactly 32 bytes kept whole as ethtool -S prints it
 * (the kernel does not terminate it), names and values that disagree -EBADMSG, a driver without statistics
 * -EOPNOTSUPP; each driver's per-priority names found with their priority, and a name that
 * only looks like one (prio8, prio33, another driver's) not found. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/fabric.h>
#include "fabric/internal.h"
#include "tap.h"

#define FX "tests/fixtures/fabric/"

static struct rdiag_fabric *open_replay(const char *path)
{
	struct rdiag_fabric *f = NULL;

	setenv("RDMADIAG_ETHTOOL_REPLAY", path, 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	return f;
}

/* rdiag_ethstats_deltas: each prio_packets statistic's growth with its priority and
 * direction, summed here per priority and direction */
struct sums {
	uint64_t rx[8], tx[8];
	size_t calls, bad;
};

static void sum_delta(void *arg, const struct rdiag_eth_catalog_entry *e, int prio,
		      uint64_t delta)
{
	struct sums *s = arg;

	s->calls++;
	if (prio < 0 || prio > 7 || strcmp(e->concept, "prio_packets")) {
		s->bad++;
		return;
	}
	if (!strcmp(e->dir, "rx"))
		s->rx[prio] += delta;
	else
		s->tx[prio] += delta;
}

static void deltas(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b)
{
	struct sums s;
	size_t n;
	uint64_t va, vb;

	memset(&s, 0, sizeof(s));
	n = rdiag_ethstats_deltas(a, b, "prio_packets", sum_delta, &s);
	EXPECT_EQ(n, 16);	/* rx and tx of 8 priorities */
	EXPECT_EQ(s.calls, n);
	EXPECT_EQ(s.bad, 0);
	EXPECT_U64(s.rx[3], 5000);
	EXPECT_U64(s.rx[0], 0);
	EXPECT_EQ(rdiag_ethstats_find(a, "tx_prio3_packets", &va), 0);
	EXPECT_EQ(rdiag_ethstats_find(b, "tx_prio3_packets", &vb), 0);
	EXPECT_U64(s.tx[3], vb - va);
	/* backwards (b before a): every delta 0, none lost */
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rdiag_ethstats_deltas(b, a, "prio_packets", sum_delta, &s), 16);
	EXPECT_U64(s.rx[3], 0);
	EXPECT_EQ(rdiag_ethstats_deltas(a, b, "no_such_concept", sum_delta, &s), 0);
	EXPECT_EQ(rdiag_ethstats_deltas(NULL, b, "prio_packets", sum_delta, &s), 0);
}

static void samples(void)
{
	struct rdiag_fabric *f = open_replay(FX "eth-prio3.txt");
	struct rdiag_ethstats *a, *b, *c;
	uint64_t v0, v1;

	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &a), 0);
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &b), 0);
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &c), 0);	/* the last one again */
	EXPECT_STREQ(rdiag_ethstats_driver(a), "mlx5_core");
	EXPECT_EQ(rdiag_ethstats_count(a), 2 + 8 * 6 + 3);
	EXPECT_STREQ(rdiag_ethstats_name(a, 0), "rx_packets");
	EXPECT_STREQ(rdiag_ethstats_name(a, 2 + 3 * 6), "rx_prio3_packets");
	EXPECT_TRUE(rdiag_ethstats_name(a, 1000) == NULL);
	EXPECT_EQ(rdiag_ethstats_find(a, "rx_prio3_packets", &v0), 0);
	EXPECT_EQ(rdiag_ethstats_find(b, "rx_prio3_packets", &v1), 0);
	EXPECT_U64(v1 - v0, 5000);
	EXPECT_EQ(rdiag_ethstats_find(a, "rx_prio0_packets", &v0), 0);
	EXPECT_EQ(rdiag_ethstats_find(b, "rx_prio0_packets", &v1), 0);
	EXPECT_U64(v1 - v0, 0);
	EXPECT_EQ(rdiag_ethstats_find(b, "rx_prio3_pause", &v1), 0);
	EXPECT_U64(v1, 12);
	EXPECT_EQ(rdiag_ethstats_find(c, "rx_prio3_pause", &v0), 0);
	EXPECT_U64(v0, 12);
	EXPECT_EQ(rdiag_ethstats_find(a, "no_such", &v0), -ENOENT);
	/* 32 bytes of name and no NUL: all 32 kept, as ethtool -S prints them */
	EXPECT_EQ(rdiag_ethstats_find(a, "a_name_of_exactly_32_bytes_xxxxx", &v0), 0);
	EXPECT_EQ(rdiag_ethstats_find(a, "a_name_of_exactly_32_bytes_xxxx", &v0), -ENOENT);
	EXPECT_U64(v0, 7);
	EXPECT_TRUE(rdiag_ethstats_time_ns(b) >= rdiag_ethstats_time_ns(a));
	deltas(a, b);
	rdiag_ethstats_free(a);
	rdiag_ethstats_free(b);
	rdiag_ethstats_free(c);
	rdiag_fabric_close(f);
}

static void bad(void)
{
	struct rdiag_fabric *f = open_replay(FX "eth-bad.txt");
	struct rdiag_ethstats *s = (void *)1;

	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &s), -EBADMSG);
	EXPECT_TRUE(s == NULL);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "ethtool replay for eth0: 96 bytes of names and 16 of values do not describe the same statistics");
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth1", &s), -EOPNOTSUPP);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "eth1: the driver has no statistics (ethtool -S)");
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth9", &s), -ENODEV);
	rdiag_fabric_close(f);
	/* a replay file that is not one: its line named */
	setenv("RDMADIAG_ETHTOOL_REPLAY", FX "dcb-pfc3.rec", 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_fabric_errmsg(NULL), "dcb-pfc3.rec: line 3: expected 'IFNAME driver NAME'") != NULL);
	unsetenv("RDMADIAG_ETHTOOL_REPLAY");
}

static void build(void)
{
	struct rdiag_ethstats *s;
	uint64_t v[2] = { 1, 2 };
	char names[64] = "x";

	EXPECT_EQ(rd_ethstats_build("d", names, 64, v, 16, &s), 0);
	EXPECT_EQ(rdiag_ethstats_count(s), 2);
	rdiag_ethstats_free(s);
	EXPECT_EQ(rd_ethstats_build("d", names, 63, v, 16, &s), -EBADMSG);
	EXPECT_EQ(rd_ethstats_build("d", names, 64, v, 15, &s), -EBADMSG);
	EXPECT_EQ(rd_ethstats_build("d", names, 32, v, 16, &s), -EBADMSG);
	EXPECT_EQ(rd_ethstats_build("d", names, 0, v, 0, &s), 0);
	EXPECT_EQ(rdiag_ethstats_count(s), 0);
	rdiag_ethstats_free(s);
}

static void lookup(const char *drv, const char *name, const char *concept, const char *dir,
		   int prio)
{
	int p = 99;
	const struct rdiag_eth_catalog_entry *e = rdiag_eth_catalog_lookup(drv, name, &p);

	EXPECT_TRUE(e != NULL);
	if (!e)
		return;
	EXPECT_STREQ(e->concept, concept);
	EXPECT_STREQ(e->dir, dir);
	EXPECT_EQ(p, prio);
}

static void catalog(void)
{
	const struct rdiag_eth_catalog_entry *all;
	size_t n, i, bad = 0;
	int p;

	lookup("mlx5_core", "rx_prio3_packets", "prio_packets", "rx", 3);
	lookup("mlx5_core", "tx_prio7_bytes", "prio_bytes", "tx", 7);
	lookup("mlx5_core", "rx_prio0_pause_duration", "prio_pause_duration", "rx", 0);
	lookup("mlx5_core", "rx_discards_phy", "discards_phy", "rx", -1);
	lookup("mlx5_core", "tx_pause_storm_error_events", "pause_storm", "tx", -1);
	lookup("bnxt_en", "rx_pfc_ena_frames_pri3", "prio_pause", "rx", 3);
	lookup("ice", "rx_priority_3_xoff.nic", "prio_pause", "rx", 3);
	lookup("i40e", "port.tx_priority_5_xon", "prio_xon", "tx", 5);
	lookup("rdmadiag_dcbdev", "rx_prio3_pause", "prio_pause", "rx", 3);
	EXPECT_TRUE(rdiag_eth_catalog_lookup("mlx5_core", "rx_prio8_packets", &p) == NULL);
	EXPECT_EQ(p, -1);
	EXPECT_TRUE(rdiag_eth_catalog_lookup("mlx5_core", "rx_prio33_packets", NULL) == NULL);
	EXPECT_TRUE(rdiag_eth_catalog_lookup("mlx5_core", "rx_prio3_packets_x", NULL) == NULL);
	EXPECT_TRUE(rdiag_eth_catalog_lookup("ice", "rx_prio3_packets", NULL) == NULL);
	EXPECT_TRUE(rdiag_eth_catalog_lookup("veth", "peer_ifindex", NULL) == NULL);
	/* every entry complete: a direction, a unit, a meaning; a per-priority meaning names it */
	all = rdiag_eth_catalog(&n);
	EXPECT_TRUE(n > 40);
	for (i = 0; i < n; i++) {
		const struct rdiag_eth_catalog_entry *e = &all[i];

		if (!e->driver || !e->name || !e->concept || !e->unit || !e->meaning ||
		    (strcmp(e->dir, "rx") && strcmp(e->dir, "tx")) ||
		    (!strstr(e->name, "%p") != !strstr(e->meaning, "%p")) ||
		    (!strstr(e->name, "%p") != !!strncmp(e->concept, "prio_", 5)))
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

int main(void)
{
	unsetenv("RDMADIAG_NL_REPLAY");
	samples();
	bad();
	build();
	catalog();
	return tap_done();
}
