/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/fabric's dcbnl parser on the replies of tests/fixtures/fabric/dcb-*.rec (built by
 * mk_dcb.py from linux/dcbnl.h's layout), replayed through RDMADIAG_NL_REPLAY as the tools
 * read them: every field where the fixture put it, the kernel's EOPNOTSUPP for a device
 * without DCB, the kernel's own EBADMSG told from a malformed reply, and each malformed
 * reply -EBADMSG with its reason, never a partial answer.
 * Every prefix of a good reply is malformed too (a cut datagram). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/fabric.h>
#include "fabric/internal.h"
#include "netlink/netlink.h"
#include "tap.h"

#define FX "tests/fixtures/fabric/"

static int load(const char *rec, struct rdiag_dcb *d, char *err, size_t errlen)
{
	struct rdiag_fabric *f;
	int ret;

	setenv("RDMADIAG_NL_REPLAY", rec, 1);
	ret = rdiag_fabric_open(&f, NULL);
	if (ret < 0) {
		snprintf(err, errlen, "%s", rdiag_fabric_errmsg(NULL));
		return ret;
	}
	memset(d, 0xa5, sizeof(*d));
	ret = rdiag_fabric_dcb(f, "eth0", d);
	snprintf(err, errlen, "%s", rdiag_fabric_errmsg(f));
	rdiag_fabric_close(f);
	return ret;
}

static void pfc3(void)
{
	struct rdiag_dcb d;
	char err[256];
	unsigned int n;

	EXPECT_EQ(load(FX "dcb-pfc3.rec", &d, err, sizeof(err)), 0);
	EXPECT_TRUE(d.pfc.present);
	EXPECT_EQ(d.pfc.pfc_en, 0x08);
	EXPECT_EQ(d.pfc.pfc_cap, 8);
	EXPECT_EQ(d.pfc.delay, 32);
	EXPECT_U64(d.pfc.requests[3], 120);
	EXPECT_U64(d.pfc.indications[3], 7);
	EXPECT_U64(d.pfc.requests[0], 0);
	EXPECT_TRUE(d.ets.present);
	EXPECT_EQ(d.ets.tc_tx_bw[0], 50);
	EXPECT_EQ(d.ets.tc_tx_bw[1], 50);
	EXPECT_EQ(d.ets.prio_tc[3], 1);
	EXPECT_STREQ(rdiag_dcb_tsa_name(d.ets.tc_tsa[0]), "ets");
	EXPECT_STREQ(rdiag_dcb_tsa_name(d.ets.tc_tsa[2]), "strict");
	EXPECT_TRUE(d.app.present);
	EXPECT_EQ(d.app.n, 3);
	EXPECT_EQ(rdiag_dcb_app_dscp_prio(&d.app, 26, &n), 3);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(rdiag_dcb_app_dscp_prio(&d.app, 48, NULL), 6);
	EXPECT_EQ(rdiag_dcb_app_dscp_prio(&d.app, 0, &n), -ENOENT);
	EXPECT_EQ(n, 0);
	/* the ethertype entry (0x8915, RoCEv1) is not a DSCP entry */
	EXPECT_EQ(rdiag_dcb_app_dscp_prio(&d.app, 0x8915 & 63, NULL), -ENOENT);
	EXPECT_EQ(d.app.app[2].selector, 1);
	EXPECT_EQ(d.app.app[2].protocol, 0x8915);
	EXPECT_TRUE(d.has_maxrate);
	EXPECT_U64(d.tc_maxrate[3], 25000000ull);	/* kbit/s: 25 Gbit/s */
	EXPECT_TRUE(d.has_dcbx);
	EXPECT_EQ(d.dcbx, 0x09);
	EXPECT_TRUE(d.peer_pfc.present);
	EXPECT_EQ(d.peer_pfc.pfc_en, 0x08);
	EXPECT_TRUE(d.peer_ets.present);
	EXPECT_EQ(d.peer_ets.willing, 1);
	EXPECT_TRUE(d.peer_app.present && d.peer_app.has_info);
	EXPECT_EQ(d.peer_app.willing, 1);
	EXPECT_EQ(d.peer_app.n, 1);
}

static void pfc4_noapp(void)
{
	struct rdiag_dcb d;
	char err[256];

	EXPECT_EQ(load(FX "dcb-pfc4-noapp.rec", &d, err, sizeof(err)), 0);
	EXPECT_EQ(d.pfc.pfc_en, 0x10);
	EXPECT_TRUE(d.app.present);
	EXPECT_EQ(d.app.n, 0);
	EXPECT_EQ(rdiag_dcb_app_dscp_prio(&d.app, 26, NULL), -ENOENT);
	/* GDCBX refused: the mode is absent, not 0, and it is no error */
	EXPECT_TRUE(!d.has_dcbx);
	EXPECT_TRUE(!d.peer_pfc.present && !d.peer_app.present && !d.has_maxrate);
	EXPECT_STREQ(err, "");
}

static void none(void)
{
	struct rdiag_dcb d;
	char err[256];

	EXPECT_EQ(load(FX "dcb-none.rec", &d, err, sizeof(err)), -EOPNOTSUPP);
	EXPECT_STREQ(err, "eth0 has no DCB (the driver does not implement dcbnl)");
}

static void malformed(const char *rec, const char *why)
{
	struct rdiag_dcb d;
	char err[256], want[256];

	EXPECT_EQ(load(rec, &d, err, sizeof(err)), -EBADMSG);
	snprintf(want, sizeof(want), "malformed dcbnl reply for eth0: %s", why);
	EXPECT_STREQ(err, want);
}

/* the kernel's own EBADMSG (an NLMSG_ERROR) is a refusal with its errno, not a malformed
 * reply with no reason ("malformed dcbnl reply for eth0: ?" before; fuzz_fabric's find) */
static void kernel_ebadmsg(void)
{
	struct rdiag_dcb d;
	char err[256];

	EXPECT_EQ(load(FX "dcb-err-ebadmsg.rec", &d, err, sizeof(err)), -EBADMSG);
	EXPECT_STREQ(err, "dcbnl query for eth0 refused: Bad message");
}

/* every cut of the good reply is -EBADMSG (ASan: never a read past the cut) */
static void prefixes(void)
{
	struct rd_replay *r;
	const uint8_t *const *bufs;
	const size_t *lens;
	size_t n, l, bad = 0;
	uint8_t req[64];
	char err[256];
	int ok_full;

	EXPECT_EQ(rd_replay_load(FX "dcb-pfc3.rec", &r, err, sizeof(err)), 0);
	/* the request the library sends for eth0, IEEE_GET */
	memcpy(req, "\x20\0\0\0\x4e\0\x01\0\0\0\0\0\0\0\0\0\0\x15\0\0\x09\0\x01\0eth0\0\0\0\0", 32);
	EXPECT_EQ(rd_replay_lookup(r, req, 32, &bufs, &lens, &n), 0);
	EXPECT_EQ(n, 1);
	for (l = 0; l < lens[0]; l++) {
		uint8_t *cut = malloc(l ? l : 1);
		struct rdiag_dcb d;

		memcpy(cut, bufs[0], l);
		memset(&d, 0, sizeof(d));
		if (rd_dcb_parse_datagram(cut, l, &d, NULL) == -EBADMSG)
			bad++;
		free(cut);
	}
	EXPECT_EQ(bad, lens[0]);
	{
		struct rdiag_dcb d;

		memset(&d, 0, sizeof(d));
		ok_full = rd_dcb_parse_datagram(bufs[0], lens[0], &d, NULL);
	}
	EXPECT_EQ(ok_full, 0);
	rd_replay_free(r);
}

static void replay_missing(void)
{
	struct rdiag_fabric *f;
	struct rdiag_dcb d;

	setenv("RDMADIAG_NL_REPLAY", FX "dcb-pfc3.rec", 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	EXPECT_EQ(rdiag_fabric_dcb(f, "eth1", &d), -ENOENT);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "netlink replay: no recorded dcbnl reply for eth1");
	EXPECT_EQ(rdiag_fabric_dcb(f, "a-name-longer-than-ifnamsiz", &d), -EINVAL);
	rdiag_fabric_close(f);
	setenv("RDMADIAG_NL_REPLAY", FX "no-such.rec", 1);
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), -ENOENT);
	EXPECT_STREQ(rdiag_fabric_errmsg(NULL), "cannot open netlink replay '" FX "no-such.rec': No such file or directory");
	unsetenv("RDMADIAG_NL_REPLAY");
	{
		const struct rdiag_fabric_opts o = { .nl_record = "/nonexistent-dir/x.rec" };

		EXPECT_EQ(rdiag_fabric_open(&f, &o), -ENOENT);
		EXPECT_STREQ(rdiag_fabric_errmsg(NULL), "cannot open '/nonexistent-dir/x.rec': No such file or directory");
		EXPECT_TRUE(f == NULL);
	}
}

/* a fake sysfs tree is another machine: without a recording this host is not asked */
static void fake_root(void)
{
	struct rdiag_fabric *f;
	struct rdiag_dcb d;
	struct rdiag_ethstats *s;

	setenv("RDMADIAG_SYSFS_ROOT", FX "upstream", 1);
	unsetenv("RDMADIAG_NL_REPLAY");
	unsetenv("RDMADIAG_ETHTOOL_REPLAY");
	EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
	EXPECT_EQ(rdiag_fabric_dcb(f, "lo", &d), -ENXIO);
	EXPECT_STREQ(rdiag_fabric_errmsg(f), "lo: a sysfs root without RDMADIAG_NL_REPLAY: this host's dcbnl is not asked");
	EXPECT_EQ(rdiag_fabric_ethstats(f, "lo", &s), -ENXIO);
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_SYSFS_ROOT");
}

int main(void)
{
	pfc3();
	pfc4_noapp();
	none();
	kernel_ebadmsg();
	malformed(FX "dcb-bad-short-pfc.rec", "PFC attribute shorter than struct ieee_pfc");
	malformed(FX "dcb-bad-msglen.rec", "a message length that does not fit the datagram");
	malformed(FX "dcb-bad-attrlen.rec", "an attribute past its message");
	malformed(FX "dcb-bad-short-app.rec", "APP entry shorter than struct dcb_app");
	prefixes();
	replay_missing();
	fake_root();
	return tap_done();
}
