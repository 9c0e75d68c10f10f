/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop's Ethernet side without curses: per-priority rates through the library's rate
 * function (tui/eth.c), the Fabric screen's cells (tui/view_fabric.c), the Ports screen's
 * PAUSE/s and DISC/s columns, the F key, a sample read through lib/fabric's ethtool
 * replay of tests/fixtures/fabric, and the PAUSE/s total from ethtool netlink's standard
 * pause statistics when ethtool -S has no pause name. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "eth.h"
#include "model.h"
#include "table.h"
#include "ui.h"
#include "view_fabric.h"

#define SEC 1000000000ull
#define FX "tests/fixtures/fabric/"

/* a snapshot of rxe0/1 on dcb0 at t seconds with priority 3 at v packets (and 1024 v bytes,
 * p pause frames received), plus rxe1/1 whose netdev has no statistics */
static void ingest(struct rt_model *m, double t, uint64_t v, uint64_t pause)
{
	struct rt_snap s = { 0 };
	struct rt_eth_snap *e;
	int k;

	s.t_ns = (uint64_t)(t * SEC);
	s.nports = 2;
	s.ports = calloc(2, sizeof(*s.ports));
	snprintf(s.ports[0].dev, sizeof(s.ports[0].dev), "rxe0");
	snprintf(s.ports[1].dev, sizeof(s.ports[1].dev), "rxe1");
	for (k = 0; k < 2; k++) {
		s.ports[k].port = 1;
		s.ports[k].t_ns = s.t_ns;
		snprintf(s.ports[k].state, sizeof(s.ports[k].state), "ACTIVE");
		snprintf(s.ports[k].netdev, sizeof(s.ports[k].netdev), k ? "veth1" : "dcb0");
	}
	e = s.ports[0].eth = calloc(1, sizeof(*e));
	snprintf(e->driver, sizeof(e->driver), "rdmadiag_dcbdev");
	e->t_ns = s.t_ns;
	for (k = 0; k < RT_ES__N; k++)
		e->have[k] = true;
	e->prio[3][RT_ES_RX_PKTS] = e->prio[3][RT_ES_TX_PKTS] = v;
	e->prio[3][RT_ES_RX_BYTES] = e->prio[3][RT_ES_TX_BYTES] = v * 1024;
	e->prio[3][RT_ES_RX_PAUSE] = pause;
	e->total[RT_ET_PAUSE] = pause;
	e->have_total[RT_ET_PAUSE] = true;
	EXPECT_EQ(rt_model_ingest(m, &s), 0);
	rt_snap_free(&s);
}

static void test_rates_and_cells(void)
{
	struct rt_model m;
	struct rt_port *p, *q;
	char cells[FC__N][RT_CELL], pc[PC__N][RT_CELL];
	struct rt_layout l;

	rt_model_init(&m);
	ingest(&m, 1, 1000, 0);
	p = rt_model_find(&m, "rxe0", 1);
	q = rt_model_find(&m, "rxe1", 1);
	EXPECT_TRUE(p && p->eth && q && !q->eth);
	if (!p || !p->eth)
		return;
	/* the first sample: no rate yet, every cell "-" */
	EXPECT_TRUE(!p->eth->prio[3][RT_ES_RX_PKTS].valid);
	rt_fab_cells(p->eth, 3, cells);
	EXPECT_STREQ(cells[FC_PRIO], "3");
	EXPECT_STREQ(cells[FC_RXP], "-");
	rt_port_cells(p, pc);
	EXPECT_STREQ(pc[PC_PAUSE], "-");
	EXPECT_STREQ(pc[PC_DISC], "-");
	/* 2 s later +1000 packets, +8 pause frames: 500/s, 512000 B/s, 4/s */
	ingest(&m, 3, 2000, 8);
	p = rt_model_find(&m, "rxe0", 1);
	EXPECT_DBL(p->eth->prio[3][RT_ES_RX_PKTS].rate, 500.0, 1e-9);
	EXPECT_DBL(p->eth->prio[3][RT_ES_TX_BYTES].rate, 512000.0, 1e-6);
	EXPECT_DBL(p->eth->total[RT_ET_PAUSE].rate, 4.0, 1e-9);
	rt_fab_cells(p->eth, 3, cells);
	EXPECT_STREQ(cells[FC_RXP], "500");
	EXPECT_STREQ(cells[FC_RXPAUSE], "4");
	EXPECT_STREQ(cells[FC_TXPAUSE], "0");
	EXPECT_TRUE(rt_fab_moving(p->eth, 3));
	EXPECT_TRUE(!rt_fab_moving(p->eth, 0));
	rt_fab_cells(p->eth, 0, cells);
	EXPECT_STREQ(cells[FC_RXP], "0");
	rt_port_cells(p, pc);
	EXPECT_STREQ(pc[PC_PAUSE], "4");
	EXPECT_STREQ(pc[PC_DISC], "-");		/* the driver has no discard statistic */
	/* PAUSE/s shows because a port has pause statistics, DISC/s does not: none has */
	rt_port_layout(&l, &m, NULL, 0, m.nports, 0);
	EXPECT_TRUE(l.shown[PC_PAUSE]);
	EXPECT_TRUE(!l.shown[PC_DISC]);
	/* a frame whose ethtool read failed: no rate shown, not the last one */
	{
		struct rt_snap s2 = { 0 };

		s2.nports = 1;
		s2.ports = calloc(1, sizeof(*s2.ports));
		snprintf(s2.ports[0].dev, sizeof(s2.ports[0].dev), "rxe0");
		s2.ports[0].port = 1;
		s2.ports[0].t_ns = (uint64_t)(3.5 * SEC);
		EXPECT_EQ(rt_model_ingest(&m, &s2), 0);
		rt_snap_free(&s2);
		p = rt_model_find(&m, "rxe0", 1);
		rt_fab_cells(p->eth, 3, cells);
		EXPECT_STREQ(cells[FC_RXP], "-");
		rt_port_cells(p, pc);
		EXPECT_STREQ(pc[PC_PAUSE], "-");
	}
	/* a counter that went backwards (driver reset): no rate, not a huge one */
	ingest(&m, 4, 10, 0);
	p = rt_model_find(&m, "rxe0", 1);
	EXPECT_TRUE(!p->eth->prio[3][RT_ES_RX_PKTS].valid);
	rt_model_free(&m);
}

static void test_no_eth_columns(void)
{
	struct rt_model m;
	struct rt_snap s = { 0 };
	struct rt_layout l;

	rt_model_init(&m);
	s.nports = 1;
	s.ports = calloc(1, sizeof(*s.ports));
	snprintf(s.ports[0].dev, sizeof(s.ports[0].dev), "rxe0");
	s.ports[0].port = 1;
	EXPECT_EQ(rt_model_ingest(&m, &s), 0);
	rt_snap_free(&s);
	rt_port_layout(&l, &m, NULL, 0, m.nports, 0);
	EXPECT_TRUE(!l.shown[PC_PAUSE] && !l.shown[PC_DISC]);
	rt_model_free(&m);
}

static void test_key_f(void)
{
	struct rt_model m;
	struct rt_ui ui;
	char buf[256];

	rt_model_init(&m);
	ingest(&m, 1, 1000, 0);
	rt_ui_init(&ui, 1);
	ui.sel[RT_SCR_PORTS] = 1;		/* rxe1: no statistics */
	rt_ui_key(&ui, &m, 'F');
	EXPECT_EQ(ui.screen, RT_SCR_FABRIC);
	EXPECT_STREQ(ui.detail_dev, "rxe1");
	EXPECT_STREQ(rt_fab_title(rt_ui_detail_port(&ui, &m), buf, sizeof(buf)),
		     "Fabric rxe1/1 veth1: no per-priority Ethernet statistics (the driver has none rdmadiag knows)");
	rt_ui_key(&ui, &m, 27);
	EXPECT_EQ(ui.screen, RT_SCR_PORTS);
	ui.sel[RT_SCR_PORTS] = 0;
	rt_ui_key(&ui, &m, 'F');
	EXPECT_STREQ(rt_fab_title(rt_ui_detail_port(&ui, &m), buf, sizeof(buf)),
		     "Fabric rxe0/1 dcb0 (rdmadiag_dcbdev): per-priority rates");
	EXPECT_EQ(rt_ui_count(&ui, &m), 0);
	rt_model_free(&m);
}

/* lib/fabric's replay: the catalogue names the mlx5 statistics */
static void test_sample_replay(void)
{
	struct rdiag_fabric *f = NULL;
	struct rt_eth_snap a, b;

	setenv("RDMADIAG_SYSFS_ROOT", FX "ofed", 1);
	setenv("RDMADIAG_ETHTOOL_REPLAY", FX "eth-prio3.txt", 1);
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &a), 0);
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &b), 0);
	EXPECT_STREQ(a.driver, "mlx5_core");
	EXPECT_TRUE(a.have[RT_ES_RX_PKTS] && a.have[RT_ES_TX_PAUSE]);
	EXPECT_U64(b.prio[3][RT_ES_RX_PKTS] - a.prio[3][RT_ES_RX_PKTS], 5000);
	EXPECT_U64(b.prio[3][RT_ES_TX_BYTES] - a.prio[3][RT_ES_TX_BYTES], 5120000);
	EXPECT_U64(b.prio[0][RT_ES_RX_PKTS] - a.prio[0][RT_ES_RX_PKTS], 0);
	EXPECT_U64(b.total[RT_ET_PAUSE] - a.total[RT_ET_PAUSE], 12);
	EXPECT_U64(b.total[RT_ET_DISCARDS] - a.total[RT_ET_DISCARDS], 4);
	EXPECT_TRUE(a.have_total[RT_ET_DISCARDS]);
	/* a netdev the recording does not have */
	EXPECT_TRUE(rt_eth_sample(&f, "eth9", &a) < 0);
	rdiag_fabric_close(f);
	/* a fake tree without a replay reads no netdev */
	unsetenv("RDMADIAG_ETHTOOL_REPLAY");
	f = NULL;
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &a), -ENXIO);
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_SYSFS_ROOT");
}

/* write an ethtool replay of eth0 (mlx5_core) with per-priority packets but no pause name,
 * two samples */
static void write_nopause_replay(const char *path)
{
	static const char *const names[2] = { "rx_prio3_packets", "tx_prio3_packets" };
	FILE *fp = fopen(path, "w");
	int i, j, k;

	fprintf(fp, "eth0 driver mlx5_core\neth0 strings ");
	for (i = 0; i < 2; i++)
		for (j = 0; j < 32; j++)
			fprintf(fp, "%02x", j < (int)strlen(names[i]) ? (unsigned char)names[i][j] : 0);
	for (k = 0; k < 2; k++) {
		uint64_t v[2] = { 100u + 50u * (unsigned)k, 200u + 50u * (unsigned)k };

		fprintf(fp, "\neth0 stats ");
		for (i = 0; i < 2; i++)
			for (j = 0; j < 8; j++)
				fprintf(fp, "%02x", ((const unsigned char *)&v[i])[j]);
	}
	fprintf(fp, "\n");
	fclose(fp);
}

/* no pause name in ethtool -S: the Ports screen's PAUSE/s total comes from ethtool netlink's
 * standard pause statistics (rx + tx frames), and stays absent where the driver has none */
static void test_std_pause_fallback(void)
{
	char eth[] = "/tmp/rdiag-tui-eth-XXXXXX", nl[] = "/tmp/rdiag-tui-nl-XXXXXX";
	char cmd[256];
	struct rdiag_fabric *f = NULL;
	struct rt_eth_snap a, b;
	int fd;

	fd = mkstemp(eth);
	close(fd);
	write_nopause_replay(eth);
	fd = mkstemp(nl);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cat " FX "dcb-pfc3.rec " FX "pause-stats.rec > %s", nl);
	EXPECT_EQ(system(cmd), 0);
	setenv("RDMADIAG_SYSFS_ROOT", FX "ofed", 1);
	setenv("RDMADIAG_ETHTOOL_REPLAY", eth, 1);
	setenv("RDMADIAG_NL_REPLAY", nl, 1);
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &a), 0);
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &b), 0);
	EXPECT_TRUE(!a.have[RT_ES_RX_PAUSE] && a.have[RT_ES_RX_PKTS]);
	EXPECT_TRUE(a.have_total[RT_ET_PAUSE]);
	EXPECT_U64(a.total[RT_ET_PAUSE], 12 + 5);	/* pause-stats.rec: rx 12, tx 5 */
	EXPECT_U64(b.total[RT_ET_PAUSE], 112 + 9);
	EXPECT_U64(b.prio[3][RT_ES_RX_PKTS] - a.prio[3][RT_ES_RX_PKTS], 50);
	rdiag_fabric_close(f);
	/* a driver without pause statistics: no PAUSE/s, not 0 */
	snprintf(cmd, sizeof(cmd), "cat " FX "dcb-pfc3.rec " FX "pause-nostats.rec > %s", nl);
	EXPECT_EQ(system(cmd), 0);
	f = NULL;
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &a), 0);
	EXPECT_TRUE(!a.have_total[RT_ET_PAUSE]);
	rdiag_fabric_close(f);
	/* ethtool -S has pause names: those, not ethtool netlink's (12 PFC frames in eth-prio3) */
	setenv("RDMADIAG_ETHTOOL_REPLAY", FX "eth-prio3.txt", 1);
	snprintf(cmd, sizeof(cmd), "cat " FX "dcb-pfc3.rec " FX "pause-stats.rec > %s", nl);
	EXPECT_EQ(system(cmd), 0);
	f = NULL;
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &a), 0);
	EXPECT_EQ(rt_eth_sample(&f, "eth0", &b), 0);
	EXPECT_U64(b.total[RT_ET_PAUSE] - a.total[RT_ET_PAUSE], 12);
	rdiag_fabric_close(f);
	unsetenv("RDMADIAG_NL_REPLAY");
	unsetenv("RDMADIAG_ETHTOOL_REPLAY");
	unsetenv("RDMADIAG_SYSFS_ROOT");
	unlink(eth);
	unlink(nl);
}

int main(void)
{
	test_rates_and_cells();
	test_no_eth_columns();
	test_key_f();
	test_sample_replay();
	test_std_pause_fallback();
	return tap_done();
}
