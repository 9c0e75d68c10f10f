/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Ethernet statistics origin of lib/counters (RDIAG_ORIG_ETH): a sample set holds the
 * statistics of each port's netdev after the port's RDMA counters only when a reader is set;
 * the netdev is the lowest-indexed GID's (else the device's parent); a selection keeps the
 * statistics it names (driver name, concept, priority concept); a failed read is a skipped
 * entry and adds nothing; rdiag_sample_match and threshold rules see the statistics by name,
 * concept and priority concept.  Through the public API, with a reader made here (no lib/fabric:
 * lib/counters must work without it) on a scratch sysfs tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/rate.h>
#include <rdmadiag/threshold.h>
#include "scratch_tree.h"
#include "tap.h"

static char root[64];

/* the fake netdev: what the reader was asked for, and what it answers */
static char asked[64];
static int reads, fail_with;
static uint64_t step;

static const struct rdiag_eth_stat stats[] = {
	{ "rx_prio0_pause", 0, 0, "prio_pause", 0, NULL },
	{ "rx_prio3_pause", 10, 0, "prio_pause", 3, NULL },
	{ "tx_prio3_pause", 20, 0, "prio_pause", 3, NULL },
	{ "rx_prio3_packets", 1000, 0, "prio_packets", 3, NULL },
	{ "rx_discards_phy", 5, 0, "discards_phy", -1, NULL },
	{ "rx_packets", 2000, 0, NULL, -1, NULL },
};

static int fake_read(void *ctx, const char *ifname, rdiag_eth_stat_cb cb, void *arg)
{
	size_t i;
	int ret;

	(void)ctx;
	snprintf(asked, sizeof(asked), "%s", ifname);
	reads++;
	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		struct rdiag_eth_stat st = stats[i];

		/* a read that fails part way: two statistics were handed over already */
		if (fail_with && i == 2)
			return fail_with;
		st.value += step * i;	/* rx_prio0_pause never moves */
		st.ts_ns = 1000000000ull * (1 + step);
		ret = cb(&st, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *fake_errmsg(void *ctx)
{
	(void)ctx;
	return "eth9: the driver has no statistics (ethtool -S)";
}

static const struct rdiag_eth_reader reader = { fake_read, fake_errmsg, NULL };

static void put(const char *rel, const char *text)
{
	char r[512];

	snprintf(r, sizeof(r), "sys/class/infiniband/%s", rel);
	tree_put(root, r, text);
}

static struct rdiag_samples *take(struct rdiag_counters *c)
{
	struct rdiag_filter f = { NULL, 0 };
	struct rdiag_samples *s = NULL;

	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	return s;
}

static size_t count_eth(const struct rdiag_samples *s)
{
	size_t i, n = 0;

	for (i = 0; i < rdiag_samples_count(s); i++)
		n += rdiag_samples_get(s, i)->origin == RDIAG_ORIG_ETH;
	return n;
}

static const struct rdiag_sample *find_eth(const struct rdiag_samples *s, const char *name)
{
	size_t i;

	for (i = 0; i < rdiag_samples_count(s); i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s, i);

		if (x->origin == RDIAG_ORIG_ETH && !strcmp(x->name, name))
			return x;
	}
	return NULL;
}

static void check_match(void)
{
	struct rdiag_sample s;

	memset(&s, 0, sizeof(s));
	s.dev = "mlx5_0";
	s.port = 1;
	s.name = "rx_pfc_ena_frames_pri3";
	s.origin = RDIAG_ORIG_ETH;
	s.eth_concept = "prio_pause";
	s.eth_prio = 3;
	EXPECT_TRUE(rdiag_sample_match("rx_pfc_ena_frames_pri3", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("prio_pause", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("prio3_pause", &s, 0));
	EXPECT_TRUE(!rdiag_sample_match("prio4_pause", &s, 0));
	EXPECT_TRUE(!rdiag_sample_match("prio3_packets", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("prio[0-3]_pause", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("*pri3", &s, 0));
	EXPECT_TRUE(!rdiag_sample_match("PRIO3_PAUSE", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("PRIO3_PAUSE", &s, RDIAG_MATCH_CASEFOLD));
	/* not per priority: no priority concept; an uncatalogued statistic: its name only */
	s.eth_prio = -1;
	EXPECT_TRUE(!rdiag_sample_match("prio3_pause", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("prio_pause", &s, 0));
	s.eth_concept = NULL;
	EXPECT_TRUE(!rdiag_sample_match("prio_pause", &s, 0));
	EXPECT_TRUE(rdiag_sample_match("rx_pfc_*", &s, 0));
	/* an RDMA counter is matched as rdiag_counter_match does: its concept, not "prio" forms */
	memset(&s, 0, sizeof(s));
	s.dev = "rxe0";
	s.port = 1;
	s.name = "rcvd_rnr_err";
	s.origin = RDIAG_ORIG_NETLINK;
	EXPECT_TRUE(rdiag_sample_match("rcvd_rnr_err", &s, 0));
	EXPECT_TRUE(!rdiag_sample_match("prio_pause", &s, 0));
}

static void check_thresholds(struct rdiag_counters *c)
{
	static const char rules[] = "prio3_pause@mlx5_0 > 0/s\nrx_prio0_pause > 0/s\n"
				    "rx_discards_phy@mlx5_0/1 > 4\n";
	const struct rdiag_threshold_opts to = { NULL, rules, sizeof(rules) - 1 };
	struct rdiag_thresholds *t = NULL;
	struct rdiag_samples *a, *b;
	struct rdiag_breach *list = NULL;
	size_t n = 0, i;

	EXPECT_EQ(rdiag_threshold_open(&t, &to), 0);
	EXPECT_EQ(rdiag_counters_set_eth(c, &reader, NULL, 0), 0);
	step = 0;
	a = take(c);
	step = 1;
	b = take(c);
	for (i = 0; t && b && i < rdiag_samples_count(b); i++) {
		const struct rdiag_sample *x = rdiag_samples_get(b, i);
		struct rdiag_rate r;

		EXPECT_EQ(rdiag_rate_samples(rdiag_samples_find(a, x->dev, x->port, x->name), x,
					     &r), 0);
		EXPECT_TRUE(rdiag_threshold_eval(t, x, &r, &list, &n) >= 0);
	}
	/* mlx5_0's rx_prio3_pause, tx_prio3_pause (rate) and rx_discards_phy (absolute): not
	 * priority 0's, which did not move, and not rxe0's */
	EXPECT_EQ(n, 3);
	for (i = 0; i < n; i++) {
		printf("# breach %s line %u observed %g\n", list[i].sample->name,
		       list[i].rule->line, list[i].observed);
		EXPECT_TRUE(strcmp(list[i].sample->name, "rx_prio0_pause") != 0);
	}
	if (n == 3) {
		EXPECT_STREQ(list[0].sample->name, "rx_prio3_pause");
		EXPECT_DBL(list[0].observed, 1.0, 1e-9);	/* +1 in 1 s */
		EXPECT_STREQ(list[2].sample->name, "rx_discards_phy");
		EXPECT_DBL(list[2].observed, 9.0, 1e-9);	/* 5 + 4 */
	}
	free(list);
	rdiag_samples_free(a);
	rdiag_samples_free(b);
	rdiag_threshold_close(t);
}

int main(void)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	const char *const sel[] = { "prio3_pause", "rx_packets" };
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *s;
	const struct rdiag_sample *x;
	const struct rdiag_skipped *k;
	char cmd[128];
	size_t n;

	strcpy(root, "/tmp/rdiag-eth-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	put("mlx5_0/node_type", "1: CA\n");
	put("mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("mlx5_0/ports/1/hw_counters/out_of_sequence", "7\n");
	/* GID 10 and GID 3 have netdevs, GID 2 none: the netdev is GID 3's, not the first
	 * name in sorted order ("10") */
	put("mlx5_0/ports/1/gid_attrs/ndevs/10", "eth10\n");
	put("mlx5_0/ports/1/gid_attrs/ndevs/3", "eth0\n");
	put("mlx5_0/ports/1/gid_attrs/ndevs/2", "\n");
	/* an IB-like port without a netdev: never asked about */
	put("mlx5_0/ports/2/state", "4: ACTIVE\n");
	put("mlx5_0/ports/2/hw_counters/out_of_sequence", "1\n");
	/* rxe: no GID netdev, the parent file */
	put("rxe0/ports/1/hw_counters/sent_pkts", "3\n");
	put("rxe0/parent", "veth0\n");
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);
	if (!c)
		return tap_done();

	check_match();

	/* no reader: the set is the RDMA counters, and nobody is asked */
	s = take(c);
	EXPECT_EQ(rdiag_samples_count(s), 3);
	EXPECT_EQ(count_eth(s), 0);
	EXPECT_EQ(reads, 0);
	rdiag_samples_free(s);

	/* every statistic, after each port's RDMA counters */
	EXPECT_EQ(rdiag_counters_set_eth(c, &reader, NULL, 0), 0);
	s = take(c);
	EXPECT_EQ(reads, 2);	/* mlx5_0/1 and rxe0/1, not mlx5_0/2 */
	EXPECT_EQ(count_eth(s), 12);
	EXPECT_EQ(rdiag_samples_count(s), 15);
	x = rdiag_samples_get(s, 0);
	EXPECT_STREQ(x ? x->name : "", "out_of_sequence");
	EXPECT_TRUE(x && x->origin != RDIAG_ORIG_ETH && x->netdev == NULL);
	x = rdiag_samples_get(s, 1);
	EXPECT_TRUE(x && x->origin == RDIAG_ORIG_ETH);
	if (x) {
		EXPECT_STREQ(x->dev, "mlx5_0");
		EXPECT_EQ(x->port, 1);
		EXPECT_STREQ(x->netdev, "eth0");
		EXPECT_STREQ(x->name, "rx_prio0_pause");
		EXPECT_STREQ(rdiag_origin_name(x->origin), "ethtool");
	}
	x = rdiag_samples_get(s, 7);	/* mlx5_0/2's counter comes after mlx5_0/1's statistics */
	EXPECT_TRUE(x && x->port == 2 && x->origin != RDIAG_ORIG_ETH);
	x = rdiag_samples_get(s, 9);
	EXPECT_TRUE(x && x->origin == RDIAG_ORIG_ETH && !strcmp(x->netdev, "veth0") &&
		    !strcmp(x->dev, "rxe0"));
	EXPECT_STREQ(asked, "veth0");
	x = find_eth(s, "rx_prio3_pause");
	EXPECT_TRUE(x && x->value == 10 && x->eth_prio == 3 && !strcmp(x->eth_concept, "prio_pause"));
	x = find_eth(s, "rx_packets");
	EXPECT_TRUE(x && x->eth_concept == NULL && x->eth_prio == -1 && x->err == 0);
	rdiag_samples_free(s);

	/* a selection: the priority concept and an uncatalogued name */
	EXPECT_EQ(rdiag_counters_set_eth(c, &reader, sel, 2), 0);
	s = take(c);
	EXPECT_EQ(count_eth(s), 6);	/* rx/tx_prio3_pause and rx_packets, on two ports */
	EXPECT_TRUE(find_eth(s, "rx_prio0_pause") == NULL);
	EXPECT_TRUE(find_eth(s, "tx_prio3_pause") != NULL);
	rdiag_samples_free(s);

	check_thresholds(c);

	/* a read that fails part way adds nothing and is a skipped entry with the reader's why */
	EXPECT_EQ(rdiag_counters_set_eth(c, &reader, NULL, 0), 0);
	fail_with = -EOPNOTSUPP;
	s = take(c);
	EXPECT_EQ(count_eth(s), 0);
	EXPECT_EQ(rdiag_samples_count(s), 3);
	n = rdiag_samples_skipped_count(s);
	EXPECT_EQ(n, 2);
	k = rdiag_samples_skipped_get(s, 0);
	if (k) {
		char want[128];

		snprintf(want, sizeof(want), "%s/sys/class/net/eth0", root);
		EXPECT_STREQ(k->path, want);
		EXPECT_EQ(k->err, -EOPNOTSUPP);
		EXPECT_STREQ(k->why, "eth9: the driver has no statistics (ethtool -S)");
	}
	rdiag_samples_free(s);
	fail_with = 0;

	/* unset: back to the RDMA counters only */
	EXPECT_EQ(rdiag_counters_set_eth(c, NULL, NULL, 0), 0);
	reads = 0;
	s = take(c);
	EXPECT_EQ(count_eth(s), 0);
	EXPECT_EQ(reads, 0);
	rdiag_samples_free(s);

	rdiag_counters_close(c);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return tap_done();
}
