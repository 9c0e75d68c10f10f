/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The lossless chain (lib/fabric/chain.c) on fixture trees and recorded replies:
 *   ofed/      trust dscp + dscp2prio (26 -> 3), ECN on 3 only, mlx5 cc_params (CNP prio 6),
 *              configfs default_roce_tos 106, with dcb-pfc3.rec: every link ok
 *   upstream/  none of those paths: ECN and CNP "not available", never "off"
 * and each way it breaks, with its finding id and fix: no APP entry (priority 0), PFC on
 * the wrong priority, ECN off, the CNP on a lossy queue, trust pcp, the traffic measured on
 * priority 0, and a device without DCB (nothing to check: verdict unknown); ETS (0 % and a
 * starving strict TC), two APP entries for one DSCP, the application's own ToS, and 802.3x
 * pause with PFC, each fix applied to what was read and the chain run again. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/fabric.h>
#include "tap.h"

#define FX "tests/fixtures/fabric/"

struct world {
	struct rdiag_fabric *f;
	struct rdiag_dcb dcb;
	int dcb_err;
	struct rdiag_fabric_qos qos;
	struct rdiag_ethstats *a, *b;
};

static void load(struct world *w, const char *root, const char *rec, const char *eth)
{

	memset(w, 0, sizeof(*w));
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	setenv("RDMADIAG_NL_REPLAY", rec, 1);
	if (eth)
		setenv("RDMADIAG_ETHTOOL_REPLAY", eth, 1);
	else
		unsetenv("RDMADIAG_ETHTOOL_REPLAY");
	EXPECT_EQ(rdiag_fabric_open(&w->f, NULL), 0);
	w->dcb_err = rdiag_fabric_dcb(w->f, "eth0", &w->dcb);
	if (w->dcb_err && w->dcb_err != -EOPNOTSUPP)
		printf("# %s %s: %s\n", root, rec, rdiag_fabric_errmsg(w->f));
	EXPECT_EQ(rdiag_fabric_qos(w->f, "eth0", "mlx5_0", 1, &w->qos), 0);
	if (eth) {
		EXPECT_EQ(rdiag_fabric_ethstats(w->f, "eth0", &w->a), 0);
		EXPECT_EQ(rdiag_fabric_ethstats(w->f, "eth0", &w->b), 0);
	}
}

static void unload(struct world *w)
{
	rdiag_ethstats_free(w->a);
	rdiag_ethstats_free(w->b);
	rdiag_fabric_close(w->f);
}

static void run(struct world *w, int tos, struct rdiag_chain *c)
{
	struct rdiag_chain_in in = {
		.ifname = "eth0", .dev = "mlx5_0", .port = 1, .tos = tos,
		.dcb = w->dcb_err ? NULL : &w->dcb, .dcb_err = w->dcb_err, .qos = &w->qos,
		.before = w->a, .after = w->b,
	};

	rdiag_fabric_chain(&in, c);
}

#define STATE(c, i, s) EXPECT_STREQ(rdiag_link_state_name((c).link[i].state), s)
enum { L_PRIO = 2, L_PFC = 3, L_ETS = 7, L_PAUSE = 8 };

/* the chain's verdict once FIX was applied to the world (the caller changed it) */
static void refixed(struct world *w, int tos, const char *fix, int link)
{
	struct rdiag_chain c;

	run(w, tos, &c);
	printf("# after '%s'\n", fix);
	STATE(c, link, "ok");
	EXPECT_TRUE(c.link[link].finding == NULL);
}

static void qos_trees(void)
{
	struct world w;
	int p, na = 0;

	load(&w, FX "ofed", FX "dcb-pfc3.rec", NULL);
	EXPECT_EQ(w.qos.trust, RDIAG_TRUST_DSCP);
	EXPECT_TRUE(w.qos.has_dscp2prio);
	EXPECT_EQ(w.qos.dscp2prio[26], 3);
	EXPECT_EQ(w.qos.dscp2prio[48], 6);
	EXPECT_EQ(w.qos.dscp2prio[0], 0);
	EXPECT_EQ(w.qos.dscp2prio[40], -1);
	EXPECT_EQ(w.qos.ecn_np[3], 1);
	EXPECT_EQ(w.qos.ecn_rp[3], 1);
	EXPECT_EQ(w.qos.ecn_np[0], 0);
	EXPECT_STREQ(w.qos.pci, "0000:03:00.0");
	EXPECT_EQ(w.qos.cnp_dscp, 48);
	EXPECT_EQ(w.qos.cnp_prio, 6);
	EXPECT_EQ(w.qos.cnp_prio_mode, 0);
	EXPECT_EQ(w.qos.roce_tos, 106);
	EXPECT_STREQ(w.qos.roce_mode, "RoCE v2");
	EXPECT_TRUE(!w.qos.vlan);
	unload(&w);

	load(&w, FX "upstream", FX "dcb-pfc3.rec", NULL);
	EXPECT_EQ(w.qos.trust, RDIAG_TRUST_NA);
	EXPECT_TRUE(!w.qos.has_dscp2prio);
	for (p = 0; p < 8; p++)
		na += w.qos.ecn_np[p] == -1 && w.qos.ecn_rp[p] == -1;
	EXPECT_EQ(na, 8);
	EXPECT_STREQ(w.qos.pci, "0000:03:00.0");
	EXPECT_EQ(w.qos.cnp_prio, -1);
	EXPECT_EQ(w.qos.cnp_prio_mode, -1);
	EXPECT_EQ(w.qos.roce_tos, -1);
	EXPECT_STREQ(w.qos.roce_mode, "");
	unload(&w);

	/* {D,P} pairs; trust pcp */
	load(&w, FX "pairs", FX "dcb-pfc3.rec", NULL);
	EXPECT_EQ(w.qos.trust, RDIAG_TRUST_PCP);
	EXPECT_EQ(w.qos.dscp2prio[26], 3);
	EXPECT_EQ(w.qos.dscp2prio[48], 6);
	EXPECT_EQ(w.qos.dscp2prio[1], -1);
	unload(&w);

	setenv("RDMADIAG_SYSFS_ROOT", FX "badtrust", 1);
	{
		struct rdiag_fabric *f;
		struct rdiag_fabric_qos q;

		EXPECT_EQ(rdiag_fabric_open(&f, NULL), 0);
		EXPECT_EQ(rdiag_fabric_qos(f, "eth0", NULL, 0, &q), -EINVAL);
		EXPECT_STREQ(rdiag_fabric_errmsg(f),
			     "/sys/class/net/eth0/qos/trust: 'vendor' is neither pcp nor dscp");
		EXPECT_EQ(rdiag_fabric_qos(f, "../x", NULL, 0, &q), -EINVAL);
		rdiag_fabric_close(f);
	}
}

static void ofed_ok(void)
{
	struct world w;
	struct rdiag_chain c;
	int i;

	load(&w, FX "ofed", FX "dcb-pfc3.rec", FX "eth-prio3.txt");
	run(&w, -1, &c);
	EXPECT_EQ(c.tos, 106);
	EXPECT_STREQ(c.tos_source, "configfs");
	EXPECT_EQ(c.dscp, 26);
	EXPECT_EQ(c.prio, 3);
	for (i = 0; i < RDIAG_CHAIN_LINKS - 1; i++) {
		STATE(c, i, "ok");
		EXPECT_TRUE(c.link[i].finding == NULL);
	}
	/* no pause settings, and two samples read back to back: no rate to judge */
	STATE(c, L_PAUSE, "not available");
	EXPECT_STREQ(c.link[2].evidence, "priority 3 (qos/trust dscp, qos/dscp2prio 26 -> 3)");
	EXPECT_STREQ(c.link[5].evidence, "CNP priority 6 (np_cnp_prio; np_cnp_dscp 48), a strict TC");
	EXPECT_EQ(c.prio_packets[3], 10000);	/* rx 5000 + tx 5000 */
	EXPECT_EQ(c.prio_packets[0], 0);
	EXPECT_STREQ(c.verdict, "ok");

	/* ECN off on 3 */
	w.qos.ecn_np[3] = 0;
	run(&w, -1, &c);
	STATE(c, 4, "broken");
	EXPECT_STREQ(c.link[4].finding, "fabric.ecn_off");
	EXPECT_STREQ(c.link[4].fix, "echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3; echo 1 > /sys/class/net/eth0/ecn/roce_rp/enable/3");
	EXPECT_STREQ(c.verdict, "broken");
	w.qos.ecn_np[3] = 1;

	/* the CNP's priority 6 on an ETS (not strict) TC and without PFC */
	w.dcb.ets.tc_tsa[2] = 2 /* IEEE_8021QAZ_TSA_ETS */;
	run(&w, -1, &c);
	STATE(c, 5, "broken");
	EXPECT_STREQ(c.link[5].finding, "fabric.cnp_lossy");
	EXPECT_STREQ(c.link[5].fix, "echo 3 > /sys/kernel/debug/mlx5/0000:03:00.0/cc_params/np_cnp_prio, or dcb ets set dev eth0 tc-tsa 2:strict");
	w.dcb.ets.tc_tsa[2] = 0;

	/* trust pcp on an untagged netdev */
	w.qos.trust = RDIAG_TRUST_PCP;
	run(&w, -1, &c);
	STATE(c, 2, "broken");
	EXPECT_EQ(c.prio, 0);
	EXPECT_STREQ(c.link[2].finding, "fabric.trust_pcp");
	EXPECT_STREQ(c.link[2].fix, "mlnx_qos -i eth0 --trust dscp (upstream: dcb app add dev eth0 dscp-prio 26:3)");
	w.qos.vlan = true;
	run(&w, -1, &c);
	STATE(c, 2, "unknown");
	EXPECT_EQ(c.prio, -1);
	unload(&w);
}

static void upstream(void)
{
	struct world w;
	struct rdiag_chain c;

	/* PFC on 3 and dscp-prio 26:3, --tos 106: ECN and CNP not available here */
	load(&w, FX "upstream", FX "dcb-pfc3.rec", FX "eth-prio3.txt");
	run(&w, 106, &c);
	EXPECT_STREQ(c.tos_source, "--tos");
	EXPECT_EQ(c.prio, 3);
	STATE(c, 2, "ok");
	EXPECT_STREQ(c.link[2].evidence, "priority 3 (APP table dscp-prio 26:3)");
	STATE(c, 3, "ok");
	EXPECT_STREQ(c.link[3].evidence, "PFC on priority 3 (the peer's too)");
	STATE(c, 4, "not available");
	EXPECT_STREQ(c.link[4].evidence, "ecn/roce_np|roce_rp/enable/3 not available here (OFED sysfs)");
	STATE(c, 5, "not available");
	STATE(c, 6, "ok");
	EXPECT_STREQ(c.verdict, "ok");

	/* no ToS anywhere: the kernel's 0, DSCP 0 has no entry -> priority 0, PFC off on it */
	run(&w, -1, &c);
	EXPECT_STREQ(c.tos_source, "kernel default");
	EXPECT_EQ(c.prio, 0);
	EXPECT_STREQ(c.link[2].finding, "fabric.dscp_unmapped");
	EXPECT_STREQ(c.link[2].fix, "dcb app add dev eth0 dscp-prio 26:3, and a ToS that is not 0: echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos (mlnx_qos -i eth0 --trust dscp --dscp2prio set,26,3)");
	EXPECT_STREQ(c.link[3].finding, "fabric.pfc_off");
	EXPECT_STREQ(c.link[6].finding, "fabric.traffic_off_priority");
	EXPECT_STREQ(c.verdict, "broken");
	unload(&w);

	/* the traffic measured on priority 0 while everything says 3 */
	load(&w, FX "upstream", FX "dcb-pfc3.rec", FX "eth-prio0.txt");
	run(&w, 106, &c);
	STATE(c, 3, "ok");
	STATE(c, 6, "broken");
	EXPECT_STREQ(c.link[6].finding, "fabric.traffic_off_priority");
	EXPECT_STREQ(c.link[6].evidence, "priority 3: +0 packets; priority 0: +10000 (the traffic is not where the configuration expects it)");
	EXPECT_STREQ(c.verdict, "broken");
	unload(&w);

	/* PFC on 4 only, no APP entry: priority 0, PFC off there; both fixes lead to 4 */
	load(&w, FX "upstream", FX "dcb-pfc4-noapp.rec", NULL);
	run(&w, 106, &c);
	EXPECT_EQ(c.prio, 0);
	EXPECT_STREQ(c.link[2].evidence, "priority 0 (the APP table has no DSCP entry at all: trust is pcp, DSCP 26 is not looked at)");
	EXPECT_STREQ(c.link[2].fix, "dcb app add dev eth0 dscp-prio 26:4 (mlnx_qos -i eth0 --trust dscp --dscp2prio set,26,4)");
	EXPECT_STREQ(c.link[3].finding, "fabric.pfc_off");
	/* PFC is off on 0 only because nothing maps DSCP 26: the fix is the APP entry, never
	 * PFC on the default class */
	EXPECT_STREQ(c.link[3].evidence, "PFC off on priority 0, where the unmapped DSCP 26 lands (prio-pfc enabled: 0x10)");
	EXPECT_STREQ(c.link[3].fix, "the priority link's fix moves the traffic to priority 4, which has PFC (do not enable PFC on priority 0, the default class)");
	STATE(c, 6, "unknown");
	EXPECT_STREQ(c.link[6].evidence, "needs two samples of the per-priority counters (rdmastat fabric -i)");
	unload(&w);

	/* a device without DCB: nothing to check, and no finding */
	load(&w, FX "upstream", FX "dcb-none.rec", NULL);
	EXPECT_EQ(w.dcb_err, -EOPNOTSUPP);
	run(&w, 106, &c);
	STATE(c, 2, "not available");
	STATE(c, 3, "not available");
	EXPECT_EQ(c.prio, -1);
	EXPECT_STREQ(c.verdict, "unknown");
	unload(&w);
}

/* ETS: RoCE's TC with 0 % bandwidth, and a strict TC above it carrying priority 0; each fix
 * applied to the configuration read, and the chain read again */
static void ets(void)
{
	struct world w;
	struct rdiag_chain c;

	load(&w, FX "upstream", FX "dcb-ets0.rec", NULL);
	run(&w, 106, &c);
	STATE(c, L_ETS, "broken");
	EXPECT_STREQ(c.link[L_ETS].finding, "fabric.ets_zero_bw");
	EXPECT_STREQ(c.link[L_ETS].fix, "dcb ets set dev eth0 tc-bw 0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0");
	EXPECT_STREQ(c.verdict, "broken");
	w.dcb.ets.tc_tx_bw[0] = 50;
	w.dcb.ets.tc_tx_bw[1] = 50;
	refixed(&w, 106, c.link[L_ETS].fix, L_ETS);
	unload(&w);

	load(&w, FX "upstream", FX "dcb-strict0.rec", NULL);
	run(&w, 106, &c);
	STATE(c, L_ETS, "broken");
	EXPECT_STREQ(c.link[L_ETS].finding, "fabric.ets_strict_starve");
	EXPECT_STREQ(c.link[L_ETS].evidence, "priority 3 is in TC 1 (ets), below TC 0: strict priority, carrying priority 0, which can starve it");
	EXPECT_STREQ(c.link[L_ETS].fix, "dcb ets set dev eth0 tc-tsa 0:ets tc-bw 0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0");
	w.dcb.ets.tc_tsa[0] = 2 /* IEEE_8021QAZ_TSA_ETS */;
	w.dcb.ets.tc_tx_bw[0] = 50;
	w.dcb.ets.tc_tx_bw[1] = 50;
	refixed(&w, 106, c.link[L_ETS].fix, L_ETS);
	/* RoCE strict too: TC 2 (strict, above it) carries only priority 6, the CNPs' (the
	 * APP table's DSCP 48): not a finding; with priority 5 there as well it is */
	w.dcb.ets.tc_tsa[1] = 0;
	run(&w, 106, &c);
	STATE(c, L_ETS, "ok");
	EXPECT_STREQ(c.link[L_ETS].evidence, "priority 3 in TC 1: strict");
	w.dcb.ets.prio_tc[5] = 2;
	run(&w, 106, &c);
	EXPECT_STREQ(c.link[L_ETS].finding, "fabric.ets_strict_starve");
	EXPECT_STREQ(c.link[L_ETS].evidence, "priority 3 is in TC 1 (strict), below TC 2: strict priority, carrying priority 5, which can starve it");
	unload(&w);
}

/* two APP entries for DSCP 26 (5 listed first, the newer): the fix deletes the stray one,
 * never enables PFC on 5; the application's own ToS 0: the fix is its ToS option */
static void fixes_fix(void)
{
	struct world w;
	struct rdiag_chain c;

	load(&w, FX "upstream", FX "dcb-dscp2.rec", NULL);
	run(&w, 106, &c);
	STATE(c, L_PRIO, "broken");
	EXPECT_EQ(c.prio, 3);
	EXPECT_STREQ(c.link[L_PRIO].finding, "fabric.dscp_multiple");
	EXPECT_STREQ(c.link[L_PRIO].fix, "dcb app del dev eth0 dscp-prio 26:5 (keeps dscp-prio 26:3, the priority with PFC)");
	STATE(c, L_PFC, "ok");
	/* dcb app del dev eth0 dscp-prio 26:5 */
	memmove(&w.dcb.app.app[0], &w.dcb.app.app[1], (w.dcb.app.n - 1) * sizeof(w.dcb.app.app[0]));
	w.dcb.app.n--;
	refixed(&w, 106, c.link[L_PRIO].fix, L_PRIO);
	EXPECT_STREQ(c.link[L_PFC].fix, "");
	unload(&w);

	load(&w, FX "upstream", FX "dcb-pfc3.rec", NULL);
	run(&w, 0, &c);
	EXPECT_STREQ(c.link[L_PRIO].finding, "fabric.dscp_unmapped");
	EXPECT_STREQ(c.link[L_PRIO].fix, "ToS 106 in the application's own option (ucmatose -t 106, ib_write_bw --tos 106, NCCL_IB_TC=106, rdma_set_option RDMA_OPTION_ID_TOS): it sets its ToS itself, which overrides configfs default_roce_tos");
	EXPECT_TRUE(!strstr(c.link[L_PRIO].fix, "echo"));
	/* the application now sets ToS 106 */
	refixed(&w, 106, c.link[L_PRIO].fix, L_PRIO);
	unload(&w);
}

/* 802.3x pause on with PFC: a finding, whose fix (rx off tx off) makes the link ok */
static void pause_pfc(void)
{
	struct world w;
	struct rdiag_chain c;
	struct rdiag_eth_pause p = { .autoneg = 0, .rx = 1, .tx = 1 };
	struct rdiag_chain_in in;

	load(&w, FX "upstream", FX "dcb-pfc3.rec", NULL);
	memset(&in, 0, sizeof(in));
	in.ifname = "eth0";
	in.tos = 106;
	in.dcb = &w.dcb;
	in.qos = &w.qos;
	in.pause = &p;
	rdiag_fabric_chain(&in, &c);
	STATE(c, L_PAUSE, "broken");
	EXPECT_STREQ(c.link[L_PAUSE].finding, "fabric.pause_with_pfc");
	EXPECT_STREQ(c.link[L_PAUSE].fix, "ethtool -A eth0 rx off tx off");
	EXPECT_STREQ(c.verdict, "broken");
	p.rx = p.tx = 0;
	rdiag_fabric_chain(&in, &c);
	STATE(c, L_PAUSE, "ok");
	EXPECT_STREQ(c.link[L_PAUSE].evidence, "802.3x pause rx off tx off, PFC on");
	EXPECT_STREQ(c.verdict, "ok");
	/* global pause alone (no PFC anywhere) is no finding of this link */
	p.rx = p.tx = 1;
	w.dcb.pfc.pfc_en = 0;
	rdiag_fabric_chain(&in, &c);
	STATE(c, L_PAUSE, "ok");
	unload(&w);
}

int main(void)
{
	qos_trees();
	ofed_ok();
	upstream();
	ets();
	fixes_fix();
	pause_pfc();
	return tap_done();
}
