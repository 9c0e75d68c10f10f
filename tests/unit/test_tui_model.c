/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop model without curses: rates through the library's rate function, per-port figures,
 * device vanishing and coming back, baseline reset, sorting, filtering, thresholds, keys and
 * the formatting shared by both views.  Snapshots are synthetic; counter metadata comes from
 * the real catalogue (rt_meta_lookup). */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "fmt.h"
#include "model.h"
#include "table.h"
#include "thresh.h"
#include "ui.h"

#define SEC 1000000000ull

struct fake_ctr {
	const char *name;
	uint64_t value;
	const char *driver;
	enum rdiag_origin origin;
};

/* one port with the given counters, sampled at t seconds */
static void snap_port(struct rt_snap_port *p, const char *dev, unsigned port, double t,
		      const struct fake_ctr *c, size_t n, double gbps)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	p->port = port;
	snprintf(p->state, sizeof(p->state), "ACTIVE");
	snprintf(p->netdev, sizeof(p->netdev), "veth%u", port);
	p->link_gbps = gbps;
	p->t_ns = (uint64_t)(t * SEC);
	p->ctr = calloc(n, sizeof(*p->ctr));
	p->nctr = n;
	for (i = 0; i < n; i++) {
		p->ctr[i].name = c[i].name;
		p->ctr[i].value = c[i].value;
		rt_meta_lookup(&p->ctr[i].meta, c[i].name, c[i].driver, c[i].origin);
	}
}

static void ingest1(struct rt_model *m, const char *dev, double t, const struct fake_ctr *c,
		    size_t n)
{
	struct rt_snap s = { 0 };

	s.t_ns = (uint64_t)(t * SEC);
	s.ports = calloc(1, sizeof(*s.ports));
	s.nports = 1;
	snap_port(&s.ports[0], dev, 1, t, c, n, 10);
	EXPECT_EQ(rt_model_ingest(m, &s), 0);
	rt_snap_free(&s);
}

static void ingest2(struct rt_model *m, double t, const struct fake_ctr *a, size_t na,
		    const struct fake_ctr *b, size_t nb)
{
	struct rt_snap s = { 0 };

	s.t_ns = (uint64_t)(t * SEC);
	s.ports = calloc(2, sizeof(*s.ports));
	s.nports = 2;
	snap_port(&s.ports[0], "rxe0", 1, t, a, na, 10);
	snap_port(&s.ports[1], "rxe1", 1, t, b, nb, 10);
	EXPECT_EQ(rt_model_ingest(m, &s), 0);
	rt_snap_free(&s);
}

static const struct rt_ctr *ctr(const struct rt_port *p, const char *name)
{
	size_t i;

	for (i = 0; p && i < p->nctr; i++)
		if (!strcmp(p->ctr[i].name, name))
			return &p->ctr[i];
	return NULL;
}

#define RXE(n, v) { n, v, "rxe", RDIAG_ORIG_SYSFS_HW }
#define PMA(n, v) { n, v, "pma", RDIAG_ORIG_PMA }

static void test_rates(void)
{
	struct rt_model m;
	struct rt_port *p;
	struct fake_ctr s1[] = { RXE("sent_pkts", 1000), RXE("rcvd_pkts", 500),
				 RXE("rcvd_rnr_err", 7), RXE("out_of_seq_request", 1) };
	struct fake_ctr s2[] = { RXE("sent_pkts", 1200), RXE("rcvd_pkts", 550),
				 RXE("rcvd_rnr_err", 10), RXE("out_of_seq_request", 2) };
	struct fake_ctr s3[] = { RXE("sent_pkts", 5), RXE("rcvd_pkts", 600),
				 RXE("rcvd_rnr_err", 10), RXE("out_of_seq_request", 2) };

	rt_model_init(&m);
	ingest1(&m, "rxe0", 10, s1, 4);
	p = rt_model_find(&m, "rxe0", 1);
	EXPECT_TRUE(p != NULL);
	/* first sample: no rate, not a zero rate */
	EXPECT_EQ(ctr(p, "sent_pkts")->state, RT_RATE_FIRST);
	EXPECT_TRUE(!p->have_rates);
	EXPECT_EQ(p->err_moving, 0);

	/* two seconds later: +200 sent, +50 received, +3 RNR, +1 OOS */
	ingest1(&m, "rxe0", 12, s2, 4);
	EXPECT_EQ(ctr(p, "sent_pkts")->state, RT_RATE_VALID);
	EXPECT_U64(ctr(p, "sent_pkts")->delta, 200);
	EXPECT_DBL(ctr(p, "sent_pkts")->rate, 100.0, 1e-9);
	EXPECT_DBL(p->tx_pps, 100.0, 1e-9);
	EXPECT_DBL(p->rx_pps, 25.0, 1e-9);
	EXPECT_TRUE(p->have_pkts && p->have_rates);
	EXPECT_TRUE(!p->have_bytes);		/* rxe has no byte counter */
	EXPECT_TRUE(p->util < 0);		/* so no utilisation either */
	EXPECT_EQ(p->err_moving, 2);
	EXPECT_U64(p->err_delta, 4);
	EXPECT_STREQ(p->top_err, "rcvd_rnr_err");
	EXPECT_U64(m.err_deltas, 4);
	EXPECT_EQ(m.ndevs, 1);

	/* sent_pkts went backwards (64-bit, does not wrap): a reset, no bogus huge delta */
	ingest1(&m, "rxe0", 13, s3, 4);
	EXPECT_EQ(ctr(p, "sent_pkts")->state, RT_RATE_RESET);
	EXPECT_U64(ctr(p, "sent_pkts")->delta, 0);
	EXPECT_DBL(p->tx_pps, 0, 1e-9);
	EXPECT_DBL(p->rx_pps, 50.0, 1e-9);
	EXPECT_EQ(p->err_moving, 0);
	EXPECT_TRUE(p->top_err == NULL);
	rt_model_free(&m);
}

static void test_pma_bytes(void)
{
	struct rt_model m;
	struct rt_port *p;
	/* PMA data counters count 4-octet words: 1000 words in 2 s = 2000 B/s */
	struct fake_ctr a[] = { PMA("port_rcv_data", 100), PMA("port_xmit_data", 0),
				PMA("port_rcv_packets", 10) };
	struct fake_ctr b[] = { PMA("port_rcv_data", 1100), PMA("port_xmit_data", 0),
				PMA("port_rcv_packets", 30) };

	rt_model_init(&m);
	ingest1(&m, "mlx5_0", 1, a, 3);
	ingest1(&m, "mlx5_0", 3, b, 3);
	p = rt_model_find(&m, "mlx5_0", 1);
	EXPECT_TRUE(p && p->have_bytes);
	EXPECT_DBL(p->rx_Bps, 2000.0, 1e-6);
	EXPECT_U64(ctr(p, "port_rcv_data")->delta, 4000);
	EXPECT_U64(ctr(p, "port_rcv_data")->value, 4400);	/* shown scaled: bytes */
	EXPECT_DBL(p->rx_pps, 10.0, 1e-9);
	/* 2000 B/s on a 10 Gb/s link */
	EXPECT_DBL(p->util, 2000.0 * 8 / 10e9, 1e-12);
	rt_model_free(&m);
}

static void test_gone_and_back(void)
{
	struct rt_model m;
	struct rt_snap s = { 0 };
	struct rt_port *p;
	struct fake_ctr a[] = { RXE("sent_pkts", 10) }, b[] = { RXE("sent_pkts", 20) };
	struct fake_ctr a2[] = { RXE("sent_pkts", 30) }, b2[] = { RXE("sent_pkts", 40) };

	rt_model_init(&m);
	ingest2(&m, 1, a, 1, b, 1);
	ingest2(&m, 2, a2, 1, b2, 1);
	EXPECT_EQ(m.ndevs, 2);
	/* rdma link delete rxe1: only rxe0 in the next snapshot */
	ingest1(&m, "rxe0", 3, a2, 1);
	p = rt_model_find(&m, "rxe1", 1);
	EXPECT_TRUE(p && p->gone);
	EXPECT_EQ(m.ndevs, 1);
	EXPECT_U64(ctr(p, "sent_pkts")->value, 40);	/* last value kept, greyed */
	EXPECT_TRUE(!p->have_rates);
	EXPECT_EQ(m.nports, 2);
	/* re-created with counters from zero: back, first sample again, no negative rate */
	s.t_ns = 4 * SEC;
	s.ports = calloc(2, sizeof(*s.ports));
	s.nports = 2;
	snap_port(&s.ports[0], "rxe0", 1, 4, a2, 1, 10);
	snap_port(&s.ports[1], "rxe1", 1, 4, a, 1, 10);
	EXPECT_EQ(rt_model_ingest(&m, &s), 0);
	rt_snap_free(&s);
	EXPECT_TRUE(!p->gone);
	EXPECT_EQ(ctr(p, "sent_pkts")->state, RT_RATE_FIRST);
	EXPECT_EQ(m.ndevs, 2);
	/* a new device appears */
	s.t_ns = 5 * SEC;
	s.ports = calloc(3, sizeof(*s.ports));
	s.nports = 3;
	snap_port(&s.ports[0], "rxe0", 1, 5, a2, 1, 10);
	snap_port(&s.ports[1], "rxe1", 1, 5, a, 1, 10);
	snap_port(&s.ports[2], "rxe2", 1, 5, a, 1, 10);
	EXPECT_EQ(rt_model_ingest(&m, &s), 0);
	rt_snap_free(&s);
	EXPECT_EQ(m.nports, 3);
	EXPECT_EQ(m.ndevs, 3);
	rt_model_free(&m);
}

static void test_baseline(void)
{
	struct rt_model m;
	struct rt_port *p;
	struct fake_ctr a[] = { RXE("sent_pkts", 1000) }, b[] = { RXE("sent_pkts", 1100) };
	struct fake_ctr c[] = { RXE("sent_pkts", 1150) };

	rt_model_init(&m);
	ingest1(&m, "rxe0", 1, a, 1);
	rt_model_reset_baseline(&m);
	ingest1(&m, "rxe0", 2, b, 1);
	p = rt_model_find(&m, "rxe0", 1);
	EXPECT_U64(ctr(p, "sent_pkts")->value, 0);
	EXPECT_EQ(ctr(p, "sent_pkts")->state, RT_RATE_FIRST);
	ingest1(&m, "rxe0", 3, c, 1);
	EXPECT_U64(ctr(p, "sent_pkts")->value, 50);
	EXPECT_U64(ctr(p, "sent_pkts")->delta, 50);
	rt_model_free(&m);
}

static void test_sorting_filtering(void)
{
	struct rt_model m;
	struct rt_port *p;
	size_t idx[16], n;
	struct fake_ctr a1[] = { RXE("sent_pkts", 0), RXE("rcvd_pkts", 0), RXE("send_err", 0) };
	struct fake_ctr b1[] = { RXE("sent_pkts", 0), RXE("rcvd_pkts", 0), RXE("send_err", 0) };
	struct fake_ctr a2[] = { RXE("sent_pkts", 10), RXE("rcvd_pkts", 500), RXE("send_err", 0) };
	struct fake_ctr b2[] = { RXE("sent_pkts", 90), RXE("rcvd_pkts", 5), RXE("send_err", 3) };

	rt_model_init(&m);
	ingest2(&m, 1, a1, 3, b1, 3);
	ingest2(&m, 2, a2, 3, b2, 3);
	n = rt_sort_ports(&m, RT_PK_NAME, false, idx);
	EXPECT_EQ(n, 2);
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe0");
	rt_sort_ports(&m, RT_PK_NAME, true, idx);
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe1");
	rt_sort_ports(&m, RT_PK_TX_PPS, false, idx);	/* largest first, like top */
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe1");
	rt_sort_ports(&m, RT_PK_RX_PPS, false, idx);
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe0");
	rt_sort_ports(&m, RT_PK_RX_PPS, true, idx);
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe1");
	rt_sort_ports(&m, RT_PK_ERRS, false, idx);
	EXPECT_STREQ(m.ports[idx[0]].dev, "rxe1");

	p = rt_model_find(&m, "rxe1", 1);
	n = rt_sort_ctrs(p, NULL, false, RT_CK_NAME, false, idx);
	EXPECT_EQ(n, 3);
	EXPECT_STREQ(p->ctr[idx[0]].name, "rcvd_pkts");
	n = rt_sort_ctrs(p, NULL, false, RT_CK_DELTA, false, idx);
	EXPECT_STREQ(p->ctr[idx[0]].name, "sent_pkts");
	n = rt_sort_ctrs(p, NULL, false, RT_CK_SEV, false, idx);
	EXPECT_STREQ(p->ctr[idx[0]].name, "send_err");	/* error severity first */
	n = rt_sort_ctrs(p, "PKTS", false, RT_CK_NAME, false, idx);	/* case-insensitive */
	EXPECT_EQ(n, 2);
	n = rt_sort_ctrs(p, "tx_error", false, RT_CK_NAME, false, idx);	/* by concept */
	EXPECT_EQ(n, 1);
	EXPECT_STREQ(p->ctr[idx[0]].name, "send_err");
	p = rt_model_find(&m, "rxe0", 1);
	n = rt_sort_ctrs(p, NULL, true, RT_CK_NAME, false, idx);	/* z: send_err is 0 */
	EXPECT_EQ(n, 2);
	rt_model_free(&m);
}

static void test_qps(void)
{
	struct rt_model m;
	struct rt_snap s = { 0 };
	struct rt_qp q[3] = {
		{ .dev = "rxe0", .lqpn = 17, .state = "RTS", .qp_state = RDIAG_QPS_RTS, .type = "RC",
		  .pid = 10 },
		{ .dev = "rxe0", .lqpn = 18, .state = "ERR", .qp_state = RDIAG_QPS_ERR, .type = "RC",
		  .pid = 11 },
		{ .dev = "rxe1", .lqpn = 19, .state = "SQE", .qp_state = RDIAG_QPS_SQE, .type = "UD",
		  .pid = -1 },
	};
	size_t idx[3];

	rt_model_init(&m);
	s.qps = q;
	s.nqps = 3;
	EXPECT_EQ(rt_model_ingest(&m, &s), 0);
	EXPECT_EQ(m.qps_in_err, 2);
	rt_sort_qps(&m, RT_QK_STATE, false, idx);
	EXPECT_STREQ(m.qps[idx[0]].state, "ERR");
	EXPECT_STREQ(m.qps[idx[1]].state, "SQE");
	rt_sort_qps(&m, RT_QK_LQPN, true, idx);
	EXPECT_EQ(m.qps[idx[0]].lqpn, 19);
	rt_sort_qps(&m, RT_QK_PID, false, idx);
	EXPECT_EQ(m.qps[idx[0]].pid, -1);
	rt_model_free(&m);
}

static void test_thresholds(void)
{
	struct rt_thresholds *th = NULL;
	struct rt_model m;
	struct rt_port *p;
	char err[128];
	struct fake_ctr a[] = { RXE("sent_pkts", 0), RXE("rcvd_rnr_err", 0), RXE("send_err", 5) };
	struct fake_ctr b[] = { RXE("sent_pkts", 100), RXE("rcvd_rnr_err", 4), RXE("send_err", 5) };

	EXPECT_EQ(rt_thresh_parse(&th, "# rules\nrnr_nak_received > 1/s\nsend_err@rxe0 > 4\n"
				  "sent_pkts@rxe1 > +1\n", err, sizeof(err)), 0);
	EXPECT_EQ(rt_thresh_count(th), 3);
	rt_model_init(&m);
	m.th = th;
	ingest1(&m, "rxe0", 1, a, 3);
	p = rt_model_find(&m, "rxe0", 1);
	/* absolute rules fire on the first sample; rate rules need a valid rate */
	EXPECT_TRUE(ctr(p, "send_err")->breach);
	EXPECT_TRUE(!ctr(p, "rcvd_rnr_err")->breach);
	EXPECT_EQ(m.breaches, 1);
	ingest1(&m, "rxe0", 3, b, 3);		/* 4 RNR NAKs in 2 s = 2/s > 1/s, by concept */
	EXPECT_TRUE(ctr(p, "rcvd_rnr_err")->breach);
	EXPECT_EQ(ctr(p, "rcvd_rnr_err")->breach_line, 2);
	EXPECT_DBL(ctr(p, "rcvd_rnr_err")->observed, 2.0, 1e-9);
	EXPECT_TRUE(!ctr(p, "sent_pkts")->breach);	/* that rule is for rxe1 */
	EXPECT_EQ(m.breaches, 2);
	EXPECT_EQ(p->breaches, 2);
	m.th_enabled = false;			/* 't' */
	rt_model_eval_thresholds(&m);
	EXPECT_EQ(m.breaches, 0);
	rt_model_free(&m);
	rt_thresh_free(th);

	th = NULL;
	EXPECT_EQ(rt_thresh_parse(&th, "sent_pkts >\n", err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "line 1") != NULL);
	rt_thresh_free(th);
}

static void test_keys(void)
{
	struct rt_model m;
	struct rt_ui ui;
	struct fake_ctr a[] = { RXE("sent_pkts", 0), RXE("rcvd_pkts", 0) };
	struct fake_ctr b[] = { RXE("sent_pkts", 0), RXE("rcvd_pkts", 0) };
	unsigned act;

	rt_model_init(&m);
	ingest2(&m, 1, a, 2, b, 2);
	rt_ui_init(&ui, 1.0);
	EXPECT_EQ(ui.screen, RT_SCR_PORTS);
	rt_ui_key(&ui, &m, 'j');
	EXPECT_EQ(ui.sel[RT_SCR_PORTS], 1);
	rt_ui_key(&ui, &m, KEY_DOWN);		/* stays on the last row */
	EXPECT_EQ(ui.sel[RT_SCR_PORTS], 1);
	rt_ui_key(&ui, &m, '\n');
	EXPECT_EQ(ui.screen, RT_SCR_DETAIL);
	EXPECT_STREQ(ui.detail_dev, "rxe1");
	EXPECT_EQ(rt_ui_count(&ui, &m), 2);
	rt_ui_key(&ui, &m, '/');
	EXPECT_TRUE(ui.filter_edit);
	rt_ui_key(&ui, &m, 's');		/* typed into the filter, not a sort key */
	rt_ui_key(&ui, &m, 'e');
	rt_ui_key(&ui, &m, '\r');
	EXPECT_STREQ(ui.filter, "se");
	EXPECT_EQ(rt_ui_count(&ui, &m), 1);
	EXPECT_EQ(ui.ctr_key, RT_CK_NAME);
	rt_ui_key(&ui, &m, 's');
	EXPECT_EQ(ui.ctr_key, RT_CK_VALUE);
	rt_ui_key(&ui, &m, 'S');
	EXPECT_TRUE(ui.ctr_rev);
	rt_ui_key(&ui, &m, 27);			/* Esc: back to Ports */
	EXPECT_EQ(ui.screen, RT_SCR_PORTS);
	rt_ui_key(&ui, &m, 's');
	EXPECT_EQ(ui.port_key, RT_PK_RX_PPS);
	rt_ui_key(&ui, &m, 'Q');
	EXPECT_EQ(ui.screen, RT_SCR_QPS);
	rt_ui_key(&ui, &m, 'h');
	EXPECT_EQ(ui.screen, RT_SCR_HELP);
	rt_ui_key(&ui, &m, 27);
	EXPECT_EQ(ui.screen, RT_SCR_QPS);
	rt_ui_key(&ui, &m, 'C');
	EXPECT_EQ(ui.screen, RT_SCR_CM);
	act = rt_ui_key(&ui, &m, '+');
	EXPECT_TRUE(act & RT_ACT_INTERVAL);
	EXPECT_DBL(ui.interval, 2.0, 1e-9);
	rt_ui_key(&ui, &m, '-');
	rt_ui_key(&ui, &m, '-');
	EXPECT_DBL(ui.interval, 0.5, 1e-9);
	act = rt_ui_key(&ui, &m, 'p');
	EXPECT_TRUE((act & RT_ACT_PAUSE) && ui.paused);
	act = rt_ui_key(&ui, &m, 'r');
	EXPECT_TRUE((act & RT_ACT_RESET) && m.baseline_reset);
	rt_ui_key(&ui, &m, 't');
	EXPECT_TRUE(!m.th_enabled);
	EXPECT_TRUE(rt_ui_key(&ui, &m, 'q') & RT_ACT_QUIT);
	rt_model_free(&m);
}

static void test_format(void)
{
	char b[64];
	struct rt_layout l;
	int i, w = 0;

	EXPECT_STREQ(rt_fmt_si(b, sizeof(b), 0), "0");
	EXPECT_STREQ(rt_fmt_si(b, sizeof(b), 9999), "9999");
	EXPECT_STREQ(rt_fmt_si(b, sizeof(b), 2.5), "2.5");
	EXPECT_STREQ(rt_fmt_si(b, sizeof(b), 1234567), "1.23M");
	EXPECT_STREQ(rt_fmt_bytes(b, sizeof(b), 8041.8), "8042B");
	EXPECT_STREQ(rt_fmt_bytes(b, sizeof(b), 12.5e9), "12.5GB");
	EXPECT_STREQ(rt_fmt_gbps(b, sizeof(b), 2.5), "2.5G");
	EXPECT_STREQ(rt_fmt_gbps(b, sizeof(b), 100), "100G");
	EXPECT_STREQ(rt_fmt_bar(b, sizeof(b), 0.5, 10), "[#####     ]");
	EXPECT_STREQ(rt_fmt_bar(b, sizeof(b), 0.0001, 10), "[#         ]");
	EXPECT_STREQ(rt_fmt_interval(b, sizeof(b), 0.5), "0.5s");
	/* a 40-column terminal keeps the always-shown columns and fits */
	rt_layout_init(&l, rt_port_cols, PC__N);
	rt_layout_fit(&l, 40, NULL);
	for (i = 0; i < PC__N; i++) {
		if (!l.shown[i])
			continue;
		w += l.w[i] + (w ? 1 : 0);
		if (rt_port_cols[i].prio == 0)
			EXPECT_TRUE(l.shown[i]);
	}
	EXPECT_TRUE(w <= 40);
	EXPECT_TRUE(l.shown[PC_DEV] && l.shown[PC_RXP] && l.shown[PC_TXP]);
	EXPECT_TRUE(!l.shown[PC_UTIL]);
	EXPECT_EQ(rt_layout_fit(&l, 0, NULL), PC__N);
}

/* STATE keeps the port's state; a slow or failed sampling is marked in SAMPLE, a column shown
 * only while some port has a mark */
static void test_sample_mark(void)
{
	const struct fake_ctr c[] = { RXE("sent_pkts", 1) };
	char cells[PC__N][RT_CELL];
	struct rt_layout l;
	struct rt_model m;
	struct rt_port *p;

	rt_model_init(&m);
	ingest1(&m, "rxe0", 1, c, 1);
	p = rt_model_find(&m, "rxe0", 1);
	EXPECT_TRUE(p != NULL);
	if (!p)
		return;
	rt_port_cells(p, cells);
	EXPECT_STREQ(cells[PC_STATE], "ACTIVE");
	EXPECT_STREQ(cells[PC_SAMPLE], "-");
	/* PAUSE/s and DISC/s are hidden too: no port here has Ethernet statistics */
	EXPECT_EQ(rt_port_layout(&l, &m, NULL, 0, m.nports, 0), PC__N - 3);
	EXPECT_TRUE(!l.shown[PC_SAMPLE] && l.shown[PC_STATE]);
	p->slow = true;
	rt_port_cells(p, cells);
	EXPECT_STREQ(cells[PC_STATE], "ACTIVE");
	EXPECT_STREQ(cells[PC_SAMPLE], "slow");
	EXPECT_EQ(rt_port_layout(&l, &m, NULL, 0, m.nports, 0), PC__N - 2);
	EXPECT_TRUE(l.shown[PC_SAMPLE]);
	p->slow = false;
	p->err = -EIO;
	rt_port_cells(p, cells);
	EXPECT_STREQ(cells[PC_STATE], "ACTIVE");
	EXPECT_STREQ(cells[PC_SAMPLE], "failed");
	/* at 80 columns the mark is shown, and the row still fits */
	rt_port_layout(&l, &m, NULL, 0, m.nports, 80);
	EXPECT_TRUE(l.shown[PC_SAMPLE] && l.shown[PC_STATE]);
	p->gone = true;
	rt_port_cells(p, cells);
	EXPECT_STREQ(cells[PC_STATE], "GONE");
	EXPECT_STREQ(cells[PC_SAMPLE], "-");
	rt_port_layout(&l, &m, NULL, 0, m.nports, 0);
	EXPECT_TRUE(!l.shown[PC_SAMPLE]);
	rt_model_free(&m);
}

/* rt_row against what snprintf("%s%*s") / ("%s%-*s") makes of the same cells, at every
 * buffer size from 1 to past the full row: padding, alignment, a cell wider than its
 * column, the last left-aligned column unpadded, trailing blanks trimmed, truncation */
static void test_row_layout(void)
{
	static const struct rt_col cols[] = {
		{ "NAME", 6, false, 0 }, { "N", 5, true, 0 }, { "X", 3, false, 0 },
		{ "LAST", 4, false, 0 } };
	char cells[4][RT_CELL] = { "ab", "12", "toolong", "z" };
	char buf[64], ref[64], tmp[64];
	struct rt_layout l;
	size_t len, off;
	int i, bad = 0;

	/* the minimum widths (no row widened them): a longer cell pushes the rest right */
	rt_layout_init(&l, cols, 4);
	EXPECT_STREQ(rt_row(&l, cells, buf, sizeof(buf)), "ab        12 toolong z");
	l.shown[3] = false;
	EXPECT_STREQ(rt_row(&l, cells, buf, sizeof(buf)), "ab        12 toolong");
	l.shown[3] = true;
	strcpy(cells[3], "");
	EXPECT_STREQ(rt_row(&l, cells, buf, sizeof(buf)), "ab        12 toolong");
	strcpy(cells[3], "z");
	for (len = 1; len < 30; len++) {
		off = 0;
		tmp[0] = '\0';
		for (i = 0; i < 4 && off < sizeof(tmp); i++) {
			int w = i == 3 ? 0 : cols[i].width;

			off += (size_t)snprintf(tmp + off, sizeof(tmp) - off,
						cols[i].right ? "%s%*s" : "%s%-*s", off ? " " : "",
						w, cells[i]);
		}
		snprintf(ref, len, "%s", tmp);
		while (*ref && ref[strlen(ref) - 1] == ' ')
			ref[strlen(ref) - 1] = '\0';
		rt_row(&l, cells, buf, len);
		if (strcmp(buf, ref)) {
			printf("# len %zu: got '%s', expected '%s'\n", len, buf, ref);
			bad++;
		}
	}
	EXPECT_EQ(bad, 0);
}

/* column widths from the data: the widest cell in view widens its column for every row (the
 * title too), a column is never narrower than its title or minimum, and a narrow terminal
 * drops low-priority columns before it narrows a wide one, never below its floor */
static void test_layout_widths(void)
{
	static const struct rt_col cols[] = {
		{ "DEVICE", 4, false, 0 }, { "N", 5, true, 0 }, { "OPT", 6, false, 1 },
		{ "LAST", 4, false, 0 } };
	char a[4][RT_CELL] = { "rocep65s0f0", "12", "x", "end" };
	char b[4][RT_CELL] = { "rxe0", "3", "yy", "end" };
	char buf[128];
	struct rt_layout l;

	rt_layout_init(&l, cols, 4);
	EXPECT_EQ(l.w[0], 6);	/* the title "DEVICE" is wider than the minimum 4 */
	rt_layout_widen(&l, a);
	rt_layout_widen(&l, b);
	EXPECT_EQ(l.w[0], 11);
	EXPECT_EQ(l.w[1], 5);
	EXPECT_EQ(rt_layout_fit(&l, 0, NULL), 4);
	EXPECT_STREQ(rt_row(&l, NULL, buf, sizeof(buf)), "DEVICE          N OPT    LAST");
	EXPECT_STREQ(rt_row(&l, a, buf, sizeof(buf)), "rocep65s0f0    12 x      end");
	EXPECT_STREQ(rt_row(&l, b, buf, sizeof(buf)), "rxe0            3 yy     end");
	EXPECT_EQ(rt_col_x(&l, 1), 12);
	EXPECT_EQ(rt_col_x(&l, 3), 25);
	/* 29 columns: the whole row (11+1+5+1+6+1+4) fits */
	EXPECT_EQ(rt_layout_fit(&l, 29, NULL), 4);
	EXPECT_EQ(l.w[0], 11);
	/* 24: OPT (priority 1) goes before the name is narrowed; the name still fits */
	EXPECT_EQ(rt_layout_fit(&l, 24, NULL), 3);
	EXPECT_TRUE(!l.shown[2] && l.w[0] == 11);
	EXPECT_STREQ(rt_row(&l, a, buf, sizeof(buf)), "rocep65s0f0    12 end");
	/* 20: nothing left to drop: DEVICE is narrowed to fit, never below its title */
	EXPECT_EQ(rt_layout_fit(&l, 20, NULL), 3);
	EXPECT_EQ(l.w[0], 9);
	EXPECT_EQ(rt_layout_fit(&l, 10, NULL), 3);
	EXPECT_EQ(l.w[0], 6);
	/* a cell wider than its capped column is not cut: the row moves right */
	EXPECT_STREQ(rt_row(&l, a, buf, sizeof(buf)), "rocep65s0f0    12 end");
}

int main(void)
{
	test_row_layout();
	test_layout_widths();
	test_rates();
	test_pma_bytes();
	test_gone_and_back();
	test_baseline();
	test_sorting_filtering();
	test_qps();
	test_thresholds();
	test_keys();
	test_format();
	test_sample_mark();
	return tap_done();
}
