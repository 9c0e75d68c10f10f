/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cost of an Ethernet statistics sample grows with the number of statistics, not its
 * square (issue 27, finding 7: 20 000 statistics on one netdev took 5 s per rdmastat
 * sample; mlx5 with many queues has thousands).  Counted, not timed: strcmp, strncmp and
 * sscanf are wrapped at link time (GNUmakefile: this test's UNIT_EXTRA), and each check
 * bounds what a step costs per statistic:
 *   - loading an ethtool replay of 60 000 names decodes its hex without an sscanf per byte
 *     (each one measured the rest of a 3.8 MB line: quadratic);
 *   - rdiag_ethstats_find of every name of a 20 000-name sample: a few compares per name,
 *     where a scan of the names cost N/2;
 *   - the chain over two such samples: nothing per statistic the catalogue does not know
 *     (its classification is the sample's, made once), where each pass looked every name
 *     up in the whole catalogue;
 *   - rdmastat's previous-sample index (tools/rdmastat/previdx.c) when the order shifted:
 *     O(log N) compares per statistic, where each was a scan of the previous set.
 * And the answers are those of the scans they replace: the first of equal names, the
 * catalogue entry rdiag_eth_catalog_lookup gives. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/fabric.h>
#include "fabric/internal.h"
#include "counters/internal.h"
#include "rdmastat/previdx.h"
#include "tap.h"

static unsigned long long n_cmp, n_scanf;

int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b)
{
	n_cmp++;
	return __real_strcmp(a, b);
}

int __real_strncmp(const char *a, const char *b, size_t n);
int __wrap_strncmp(const char *a, const char *b, size_t n);
int __wrap_strncmp(const char *a, const char *b, size_t n)
{
	n_cmp++;
	return __real_strncmp(a, b, n);
}

int __real___isoc99_sscanf(const char *s, const char *fmt, ...);
int __wrap___isoc99_sscanf(const char *s, const char *fmt, ...);
int __wrap___isoc99_sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	int r;

	n_scanf++;
	va_start(ap, fmt);
	r = vsscanf(s, fmt, ap);
	va_end(ap);
	return r;
}

/* mlx5's names: the per-priority ones the catalogue knows, then per-queue ones it does not */
static char (*names(size_t n))[32]
{
	static const char *const kinds[] = { "packets", "bytes", "pause" };
	char (*nm)[32] = calloc(n, 32);
	size_t i = 0, q;
	int p, k;

	for (p = 0; p < 8 && i + 6 <= n; p++)
		for (k = 0; k < 3; k++) {
			snprintf(nm[i++], 32, "rx_prio%d_%s", p, kinds[k]);
			snprintf(nm[i++], 32, "tx_prio%d_%s", p, kinds[k]);
		}
	for (q = 0; i < n; q++)
		snprintf(nm[i++], 32, "%cx%zu_%s", q % 2 ? 't' : 'r', q / 2, kinds[q % 2]);
	return nm;
}

static struct rdiag_ethstats *build(char (*nm)[32], size_t n, uint64_t mul)
{
	struct rdiag_ethstats *s;
	uint64_t *v = calloc(n, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (i + 1) * mul;
	EXPECT_EQ(rd_ethstats_build("mlx5_core", nm, n * 32, v, n * 8, &s), 0);
	free(v);
	return s;
}

static void hexline(FILE *f, const char *what, const void *buf, size_t len)
{
	const unsigned char *b = buf;
	size_t i;

	fprintf(f, "eth0 %s ", what);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
	fputc('\n', f);
}

static void replay_load(void)
{
	enum { N = 60000 };
	char path[] = "/tmp/rdiag-ethscale-XXXXXX";
	char (*nm)[32] = names(N);
	uint64_t *v = calloc(N, sizeof(*v)), got;
	struct rdiag_fabric *f = NULL;
	struct rdiag_ethstats *a = NULL, *b = NULL;
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t i;

	EXPECT_TRUE(fp != NULL);
	if (!fp)
		return;
	fprintf(fp, "eth0 driver mlx5_core\n");
	hexline(fp, "strings", nm, (size_t)N * 32);
	for (i = 0; i < N; i++)
		v[i] = i;
	hexline(fp, "stats", v, (size_t)N * 8);
	for (i = 0; i < N; i++)
		v[i] = 2 * i;
	hexline(fp, "stats", v, (size_t)N * 8);
	fclose(fp);
	setenv("RDMADIAG_ETHTOOL_REPLAY", path, 1);
	n_scanf = 0;
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	printf("# loading a replay of %d names: %llu sscanf calls\n", N, n_scanf);
	EXPECT_TRUE(n_scanf < 100);
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &a), 0);
	EXPECT_EQ(rdiag_fabric_ethstats(f, "eth0", &b), 0);
	EXPECT_EQ(rdiag_ethstats_count(b), N);
	EXPECT_EQ(rdiag_ethstats_find(b, nm[N - 1], &got), 0);
	EXPECT_U64(got, 2 * (N - 1));
	rdiag_ethstats_free(a);
	rdiag_ethstats_free(b);
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_ETHTOOL_REPLAY");
	unlink(path);
	free(nm);
	free(v);
}

static void find_all(void)
{
	enum { N = 20000 };
	char (*nm)[32] = names(N);
	struct rdiag_ethstats *s = build(nm, N, 3);
	uint64_t v;
	size_t i, found = 0, right = 0;

	n_cmp = 0;
	for (i = 0; i < N; i++)
		if (rdiag_ethstats_find(s, nm[i], &v) == 0 && ++found && v == (i + 1) * 3)
			right++;
	printf("# rdiag_ethstats_find of each of %d names: %llu compares\n", N, n_cmp);
	EXPECT_EQ(found, N);
	EXPECT_EQ(right, N);
	EXPECT_TRUE(n_cmp <= 3ull * N);
	n_cmp = 0;
	EXPECT_EQ(rdiag_ethstats_find(s, "no_such_statistic", &v), -ENOENT);
	EXPECT_EQ(rdiag_ethstats_find(s, "", &v), -ENOENT);
	EXPECT_TRUE(n_cmp <= 16);
	rdiag_ethstats_free(s);
	free(nm);
}

/* equal names: the first one's value, as the scan in order gave; the catalogue entry of
 * each statistic is rdiag_eth_catalog_lookup's */
static void same_answers(void)
{
	enum { N = 5000 };
	char (*nm)[32] = calloc(N, 32);
	struct rdiag_ethstats *s;
	uint64_t v;
	size_t i, same = 0;

	for (i = 0; i < N; i++)
		snprintf(nm[i], 32, "%s", i % 2 ? "rx_prio3_pause" : i % 3 ? "tx_prio5_bytes" : "x");
	s = build(nm, N, 1);
	EXPECT_EQ(rdiag_ethstats_find(s, "rx_prio3_pause", &v), 0);
	EXPECT_U64(v, 2);
	EXPECT_EQ(rdiag_ethstats_find(s, "tx_prio5_bytes", &v), 0);
	EXPECT_U64(v, 3);
	EXPECT_EQ(rdiag_ethstats_find(s, "x", &v), 0);
	EXPECT_U64(v, 1);
	rdiag_ethstats_free(s);
	free(nm);
	nm = names(200);
	s = build(nm, 200, 1);
	for (i = 0; i < 200; i++) {
		int p1, p2;

		if (rdiag_ethstats_catalog(s, i, &p1) == rdiag_eth_catalog_lookup("mlx5_core", nm[i], &p2) &&
		    p1 == p2)
			same++;
	}
	EXPECT_EQ(same, 200);
	EXPECT_TRUE(rdiag_ethstats_catalog(s, 0, NULL) != NULL);	/* rx_prio0_packets */
	EXPECT_TRUE(rdiag_ethstats_catalog(s, 199, NULL) == NULL);	/* a queue's */
	EXPECT_TRUE(rdiag_ethstats_catalog(s, 200, NULL) == NULL);
	rdiag_ethstats_free(s);
	free(nm);
}

static void chain(void)
{
	enum { N = 20000 };
	char (*nm)[32] = names(N);
	struct rdiag_ethstats *a = build(nm, N, 1), *b = build(nm, N, 2);
	struct rdiag_fabric_qos qos;
	struct rdiag_chain c;
	struct rdiag_chain_in in = {
		.ifname = "eth0", .dev = "mlx5_0", .port = 1, .tos = 106,
		.dcb_err = -EOPNOTSUPP, .qos = &qos, .before = a, .after = b,
	};

	memset(&qos, 0, sizeof(qos));
	qos.trust = RDIAG_TRUST_NA;
	n_cmp = 0;
	rdiag_fabric_chain(&in, &c);
	printf("# the chain over two samples of %d statistics: %llu compares\n", N, n_cmp);
	EXPECT_TRUE(n_cmp <= N);
	/* rx_prio3_packets is statistic 18, tx_prio3_packets 19: deltas 19 and 20 */
	EXPECT_EQ(c.prio_packets[3], 39);
	rdiag_ethstats_free(a);
	rdiag_ethstats_free(b);
	free(nm);
}

/* the previous interval's set with one port's statistics missing from it: every statistic
 * of the next port is at another index than in the current set */
static void prev_shifted(void)
{
	enum { N = 20000 };
	char (*nm)[32] = names(N);
	struct rdiag_samples *prev = calloc(1, sizeof(*prev)), *cur = calloc(1, sizeof(*cur));
	struct prev_index px;
	size_t i, found = 0, right = 0;
	int bad = 0;

	for (i = 0; i < N; i++) {
		/* the RDMA counter of the same name comes first: the Ethernet one is wanted */
		if (i == 100)
			bad |= rd_samples_add_cat(prev, "mlx5_1", 1, nm[i], 7, 0, RDIAG_ORIG_SYSFS_HW,
						  1, 0, NULL);
		bad |= rd_samples_add_cat(prev, "mlx5_1", 1, nm[i], i, 0, RDIAG_ORIG_ETH, 1, 0,
					  NULL);
		bad |= rd_samples_add_cat(cur, "mlx5_0", 1, nm[i], i, 0, RDIAG_ORIG_ETH, 2, 0, NULL);
	}
	for (i = 0; i < N; i++)
		bad |= rd_samples_add_cat(cur, "mlx5_1", 1, nm[i], i, 0, RDIAG_ORIG_ETH, 2, 0, NULL);
	EXPECT_EQ(bad, 0);
	prev_index_init(&px, prev);
	n_cmp = 0;
	for (i = 0; i < 2 * N; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(cur, i), *p;

		p = prev_index_find(&px, s);
		if (p && ++found && p->value == s->value && p->origin == RDIAG_ORIG_ETH &&
		    !strcmp(p->dev, "mlx5_1"))
			right++;
	}
	printf("# the previous samples of %d statistics, order shifted: %llu compares\n", 2 * N,
	       n_cmp);
	EXPECT_EQ(found, N);	/* mlx5_0's are not in prev */
	EXPECT_EQ(right, N);
	/* the sort, then a binary search each, two strcmp a step (device, name): some 45 per
	 * statistic here; a scan of the previous set was up to 20 000 */
	EXPECT_TRUE(n_cmp <= 64ull * 2 * N);
	prev_index_free(&px);
	prev_index_init(&px, NULL);
	EXPECT_TRUE(prev_index_find(&px, rdiag_samples_get(cur, 0)) == NULL);
	prev_index_free(&px);
	rdiag_samples_free(prev);
	rdiag_samples_free(cur);
	free(nm);
}

int main(void)
{
	replay_load();
	find_all();
	same_answers();
	chain();
	prev_shifted();
	return tap_done();
}
