/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/fabric's ethtool-netlink pause reader on the replies of tests/fixtures/fabric/pause-*.rec
 * (built by mk_pause.py from linux/ethtool_netlink.h's layout), replayed through
 * RDMADIAG_NL_REPLAY as the tools read them: the settings and the two statistics where the
 * fixture put them, statistics the driver does not have absent (not 0), the kernel's
 * EOPNOTSUPP (no get_pauseparam) and ENOENT (no ethtool family) as "not available here",
 * a kernel before 5.10 that refuses the STATS flag asked again without it (settings only),
 * each malformed reply -EBADMSG with its reason, and every cut of a good reply malformed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/fabric.h>
#include "fabric/internal.h"
#include "netlink/netlink.h"
#include "tap.h"

#define FX "tests/fixtures/fabric/"

/* up to two samples of eth0 from one replay file; returns the first failure or 0 */
static int load(const char *rec, struct rdiag_eth_pause *p, int n, char *err, size_t errlen)
{
	struct rdiag_fabric *f;
	int ret = 0, i;

	setenv("RDMADIAG_NL_REPLAY", rec, 1);
	ret = rdiag_fabric_open(&f, NULL);
	if (ret < 0) {
		snprintf(err, errlen, "%s", rdiag_fabric_errmsg(NULL));
		return ret;
	}
	for (i = 0; i < n && !ret; i++) {
		memset(&p[i], 0xa5, sizeof(p[i]));
		ret = rdiag_fabric_pause(f, "eth0", &p[i]);
	}
	snprintf(err, errlen, "%s", rdiag_fabric_errmsg(f));
	rdiag_fabric_close(f);
	return ret;
}

static void stats(void)
{
	struct rdiag_eth_pause p[2];
	char err[256];

	EXPECT_EQ(load(FX "pause-stats.rec", p, 2, err, sizeof(err)), 0);
	EXPECT_STREQ(err, "");
	EXPECT_EQ(p[0].autoneg, 0);
	EXPECT_EQ(p[0].rx, 1);
	EXPECT_EQ(p[0].tx, 1);
	EXPECT_TRUE(p[0].has_tx_frames && p[0].has_rx_frames);
	EXPECT_U64(p[0].tx_frames, 5);
	EXPECT_U64(p[0].rx_frames, 12);
	/* the second exchange of the same request: the next sample */
	EXPECT_U64(p[1].tx_frames, 9);
	EXPECT_U64(p[1].rx_frames, 112);
	EXPECT_TRUE(p[1].time_ns >= p[0].time_ns && p[0].time_ns > 0);
}

static void nostats(void)
{
	struct rdiag_eth_pause p;
	char err[256];

	EXPECT_EQ(load(FX "pause-nostats.rec", &p, 1, err, sizeof(err)), 0);
	EXPECT_EQ(p.autoneg, 1);
	EXPECT_EQ(p.rx, 0);
	EXPECT_EQ(p.tx, 0);
	/* an empty STATS nest: not available here, never 0 */
	EXPECT_TRUE(!p.has_tx_frames && !p.has_rx_frames);
}

/* a kernel before 5.10 refuses the STATS flag with EOPNOTSUPP: the settings come from the
 * second question, without statistics and saying why; on 6.1 (stats.rec) the flag is taken
 * and nothing says refused */
static void old_kernel(void)
{
	struct rdiag_eth_pause p[2];
	char err[256];

	EXPECT_EQ(load(FX "pause-kernel-5.9.rec", p, 1, err, sizeof(err)), 0);
	EXPECT_STREQ(err, "");
	EXPECT_EQ(p[0].autoneg, 1);
	EXPECT_EQ(p[0].rx, 1);
	EXPECT_EQ(p[0].tx, 0);
	EXPECT_TRUE(!p[0].has_tx_frames && !p[0].has_rx_frames);
	EXPECT_TRUE(p[0].stats_refused);
	EXPECT_TRUE(p[0].time_ns > 0);
	EXPECT_EQ(load(FX "pause-stats.rec", p, 1, err, sizeof(err)), 0);
	EXPECT_TRUE(!p[0].stats_refused);
	EXPECT_EQ(load(FX "pause-nostats.rec", p, 1, err, sizeof(err)), 0);
	EXPECT_TRUE(!p[0].stats_refused);
}

static void unavailable(const char *rec, const char *want)
{
	struct rdiag_eth_pause p;
	char err[256];

	EXPECT_EQ(load(rec, &p, 1, err, sizeof(err)), -EOPNOTSUPP);
	EXPECT_STREQ(err, want);
}

static void malformed(const char *rec, const char *why)
{
	struct rdiag_eth_pause p;
	char err[256], want[256];

	EXPECT_EQ(load(rec, &p, 1, err, sizeof(err)), -EBADMSG);
	snprintf(want, sizeof(want), "malformed ethtool pause reply for eth0: %s", why);
	EXPECT_STREQ(err, want);
}

/* every cut of the good replies is -EBADMSG (ASan: never a read past the cut) */
static void prefixes(void)
{
	struct rd_replay *r;
	const uint8_t *const *bufs;
	const size_t *lens;
	size_t n, l, bad = 0, total = 0;
	char err[256];
	int i;
	/* the family lookup and eth0's PAUSE_GET as the library sends them */
	static const char *const reqs[2] = {
		"20000000100001000000000000000000030100000c000200657468746f6f6c00",
		"2c000000150001000000000000000000150100001800018009000200657468300000000008000300"
		"04000000",
	};

	EXPECT_EQ(rd_replay_load(FX "pause-stats.rec", &r, err, sizeof(err)), 0);
	for (i = 0; i < 2; i++) {
		uint8_t req[64];
		size_t rl = strlen(reqs[i]) / 2, k;

		for (k = 0; k < rl; k++) {
			unsigned int v;

			sscanf(reqs[i] + 2 * k, "%2x", &v);
			req[k] = (uint8_t)v;
		}
		EXPECT_EQ(rd_replay_lookup(r, req, rl, &bufs, &lens, &n), 0);
		EXPECT_EQ(n, 1);
		for (l = 0; l < lens[0]; l++, total++) {
			uint8_t *cut = malloc(l ? l : 1);
			struct rdiag_eth_pause p;
			uint16_t id;

			memcpy(cut, bufs[0], l);
			if ((i ? rd_pause_parse_datagram(cut, l, 21, &p, NULL)
			       : rd_genl_family_parse(cut, l, &id, NULL)) == -EBADMSG)
				bad++;
			free(cut);
		}
		if (i) {
			struct rdiag_eth_pause p;

			EXPECT_EQ(rd_pause_parse_datagram(bufs[0], lens[0], 21, &p, NULL), 0);
			EXPECT_U64(p.rx_frames, 12);
			/* another family's message is no answer */
			EXPECT_EQ(rd_pause_parse_datagram(bufs[0], lens[0], 22, &p, NULL), -EBADMSG);
		} else {
			uint16_t id = 0;

			EXPECT_EQ(rd_genl_family_parse(bufs[0], lens[0], &id, NULL), 0);
			EXPECT_EQ(id, 21);
		}
	}
	EXPECT_EQ(bad, total);
	rd_replay_free(r);
}

static void replay_missing(void)
{
	struct rdiag_fabric *f;
	struct rdiag_eth_pause p;

	setenv("RDMADIAG_NL_REPLAY", FX "pause-stats.rec", 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	EXPECT_EQ(rdiag_fabric_pause(f, "eth1", &p), -ENOENT);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "netlink replay: no recorded pause reply for eth1");
	EXPECT_EQ(rdiag_fabric_pause(f, "a-name-longer-than-ifnamsiz", &p), -EINVAL);
	rdiag_fabric_close(f);
	/* a dcbnl-only recording has no family lookup */
	setenv("RDMADIAG_NL_REPLAY", FX "dcb-pfc3.rec", 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	EXPECT_EQ(rdiag_fabric_pause(f, "eth0", &p), -ENOENT);
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_NL_REPLAY");
}

static void fake_root(void)
{
	struct rdiag_fabric *f;
	struct rdiag_eth_pause p;

	setenv("RDMADIAG_SYSFS_ROOT", FX "upstream", 1);
	unsetenv("RDMADIAG_NL_REPLAY");
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	EXPECT_EQ(rdiag_fabric_pause(f, "lo", &p), -ENXIO);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "lo: a sysfs root without RDMADIAG_NL_REPLAY: this host's ethtool netlink is not asked");
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_SYSFS_ROOT");
}

int main(void)
{
	stats();
	nostats();
	old_kernel();
	/* refused with and without the flag: the driver; a replay with only the first answer */
	unavailable(FX "pause-none.rec", "eth0: link-level pause not available here (the driver has no get_pauseparam)");
	unavailable(FX "pause-none-once.rec", "eth0: link-level pause not available here (the driver has no get_pauseparam)");
	unavailable(FX "pause-nofamily.rec", "this kernel has no ethtool netlink: not available here");
	malformed(FX "pause-bad-short-stat.rec", "pause statistic shorter than 8 bytes");
	malformed(FX "pause-bad-cut.rec", "a message length that does not fit the datagram");
	malformed(FX "pause-bad-nest.rec", "a pause statistic past its nest");
	malformed(FX "pause-bad-cmd.rec", "not a pause reply");
	{
		struct rdiag_eth_pause p;
		char err[256];

		EXPECT_EQ(load(FX "pause-bad-family.rec", &p, 1, err, sizeof(err)), -EBADMSG);
		EXPECT_STREQ(err, "malformed generic netlink family reply: no family id in the reply");
	}
	prefixes();
	replay_missing();
	fake_root();
	return tap_done();
}
