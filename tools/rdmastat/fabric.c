/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric (stat_fabric.h).  JSON keys follow iproute2 dcb's where a field is the same
 * thing (pfc_cap, macsec_bypass, delay, prio_pfc, requests, indications; willing, ets_cap,
 * cbs, tc_bw, tc_tsa, prio_tc; dscp_prio, ethtype_prio; tc_maxrate), so that `dcb -j` and
 * `rdmastat fabric -j` compare field by field.  The contract is in rdmastat(1). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/dcbnl.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/fabric.h>

#include "common/esc.h"
#include "common/out.h"
#include "fabric.h"
#include "fabric_pause.h"
#include "fabric_rdma.h"
#include "common/tool.h"

#ifndef DCB_APP_SEL_PCP
#define DCB_APP_SEL_PCP 255
#endif

static void print_prio_bools(struct out *o, const char *key, const char *word, uint8_t mask)
{
	int p;

	out_text(o, " %s", word);
	out_arr_begin(o, key);
	for (p = 0; p < RDIAG_DCB_PRIOS; p++) {
		out_bool(o, NULL, NULL, mask & (1u << p));
		out_text(o, " %d:%s", p, mask & (1u << p) ? "on" : "off");
	}
	out_arr_end(o);
}

static void print_u64s(struct out *o, const char *key, const char *word, const uint64_t *v);

static void print_u8s(struct out *o, const char *key, const char *word, const uint8_t *v)
{
	uint64_t w[RDIAG_DCB_PRIOS];
	int i;

	for (i = 0; i < RDIAG_DCB_PRIOS; i++)
		w[i] = v[i];
	print_u64s(o, key, word, w);
}

static void print_u64s(struct out *o, const char *key, const char *word, const uint64_t *v)
{
	int i;

	out_text(o, " %s", word);
	out_arr_begin(o, key);
	for (i = 0; i < RDIAG_DCB_PRIOS; i++) {
		out_u64(o, NULL, NULL, v[i]);
		out_text(o, " %d:%" PRIu64, i, v[i]);
	}
	out_arr_end(o);
}

/* TSA names as dcb ets prints them ("???" for a value without one) */
static void print_tsa(struct out *o, const char *key, const char *word, const uint8_t *v)
{
	int i;

	out_text(o, " %s", word);
	out_arr_begin(o, key);
	for (i = 0; i < RDIAG_DCB_PRIOS; i++) {
		const char *n = rdiag_dcb_tsa_name(v[i]);

		out_str(o, NULL, NULL, n ? n : "???");
		out_text(o, " %d:%s", i, n ? n : "???");
	}
	out_arr_end(o);
}

static void print_pfc(struct out *o, const char *key, const char *indent,
		      const struct rdiag_dcb_pfc *p)
{
	out_text(o, "%spfc", indent);
	out_obj_begin(o, key);
	out_u64(o, "pfc_cap", " pfc-cap %" PRIu64, p->pfc_cap);
	out_bool(o, "macsec_bypass", NULL, p->mbc);
	out_text(o, " macsec-bypass %s", p->mbc ? "on" : "off");
	out_u64(o, "delay", " delay %" PRIu64, p->delay);
	out_text(o, "\n%s   ", indent);
	print_prio_bools(o, "prio_pfc", "prio-pfc", p->pfc_en);
	out_text(o, "\n%s   ", indent);
	print_u64s(o, "requests", "requests", p->requests);
	out_text(o, "\n%s   ", indent);
	print_u64s(o, "indications", "indications", p->indications);
	out_obj_end(o);
	out_text(o, "\n");
}

static void print_ets(struct out *o, const char *key, const char *indent,
		      const struct rdiag_dcb_ets *e)
{
	out_text(o, "%sets", indent);
	out_obj_begin(o, key);
	out_bool(o, "willing", NULL, e->willing);
	out_text(o, " willing %s", e->willing ? "on" : "off");
	out_u64(o, "ets_cap", " ets-cap %" PRIu64, e->ets_cap);
	out_bool(o, "cbs", NULL, e->cbs);
	out_text(o, " cbs %s\n%s   ", e->cbs ? "on" : "off", indent);
	print_u8s(o, "tc_bw", "tc-bw", e->tc_tx_bw);
	out_text(o, "\n%s   ", indent);
	print_tsa(o, "tc_tsa", "tc-tsa", e->tc_tsa);
	out_text(o, "\n%s   ", indent);
	print_u8s(o, "prio_tc", "prio-tc", e->prio_tc);
	/* dcb ets show prints these too: pg-bw (tc_rx_bw) and the recommendation */
	out_text(o, "\n%s   ", indent);
	print_u8s(o, "pg_bw", "pg-bw", e->tc_rx_bw);
	out_text(o, "\n%s   ", indent);
	print_u8s(o, "reco_tc_bw", "reco-tc-bw", e->tc_reco_bw);
	out_text(o, "\n%s   ", indent);
	print_tsa(o, "reco_tc_tsa", "reco-tc-tsa", e->tc_reco_tsa);
	out_text(o, "\n%s   ", indent);
	print_u8s(o, "reco_prio_tc", "reco-prio-tc", e->reco_prio_tc);
	out_obj_end(o);
	out_text(o, "\n");
}

/* the entries of one selector as [protocol, priority] pairs (dcb app -j) */
static void print_app_sel(struct out *o, const struct rdiag_dcb_apps *a, uint8_t sel,
			  const char *key, const char *word, const char *pfmt)
{
	size_t i;
	bool any = false;

	for (i = 0; i < a->n; i++) {
		if (a->app[i].selector != sel)
			continue;
		if (!any) {
			out_text(o, " %s", word);
			out_arr_begin(o, key);
			any = true;
		}
		out_arr_begin(o, NULL);
		out_u64(o, NULL, pfmt, a->app[i].protocol);
		out_u64(o, NULL, ":%" PRIu64, a->app[i].priority);
		out_arr_end(o);
	}
	if (any)
		out_arr_end(o);
}

static void print_app(struct out *o, const char *key, const char *indent,
		      const struct rdiag_dcb_apps *a)
{
	out_text(o, "%sapp", indent);
	out_obj_begin(o, key);
	if (!a->n)
		out_text(o, " (empty)");
	print_app_sel(o, a, IEEE_8021QAZ_APP_SEL_DSCP, "dscp_prio", "dscp-prio", " %" PRIu64);
	print_app_sel(o, a, DCB_APP_SEL_PCP, "pcp_prio", "pcp-prio", " %" PRIu64);
	print_app_sel(o, a, IEEE_8021QAZ_APP_SEL_ETHERTYPE, "ethtype_prio", "ethtype-prio", " %" PRIx64);
	print_app_sel(o, a, IEEE_8021QAZ_APP_SEL_STREAM, "stream_port_prio", "stream-port-prio", " %" PRIu64);
	print_app_sel(o, a, IEEE_8021QAZ_APP_SEL_DGRAM, "dgram_port_prio", "dgram-port-prio", " %" PRIu64);
	print_app_sel(o, a, IEEE_8021QAZ_APP_SEL_ANY, "port_prio", "port-prio", " %" PRIu64);
	if (a->has_info) {
		out_bool(o, "willing", NULL, a->willing);
		out_text(o, " willing %s", a->willing ? "on" : "off");
	}
	out_obj_end(o);
	out_text(o, "\n");
}

static void print_dcb(struct out *o, const struct rdiag_dcb *d)
{
	static const char *const bits[] = { "host", "lld_managed", "cee", "ieee", "static" };
	int i;

	out_obj_begin(o, "dcb");
	if (d->has_dcbx) {
		out_text(o, "  dcbx");
		out_obj_begin(o, "dcbx");
		for (i = 0; i < 5; i++) {
			out_bool(o, bits[i], NULL, d->dcbx & (1u << i));
			if (d->dcbx & (1u << i))
				out_text(o, " %s", bits[i]);
		}
		out_obj_end(o);
		out_text(o, "\n");
	}
	if (d->pfc.present)
		print_pfc(o, "pfc", "  ", &d->pfc);
	if (d->ets.present)
		print_ets(o, "ets", "  ", &d->ets);
	if (d->app.present)
		print_app(o, "app", "  ", &d->app);
	if (d->has_maxrate) {
		out_text(o, "  maxrate");
		out_obj_begin(o, "maxrate");
		print_u64s(o, "tc_maxrate", "tc-maxrate", d->tc_maxrate);
		out_obj_end(o);
		out_text(o, "\n");
	}
	if (d->peer_pfc.present || d->peer_ets.present || d->peer_app.present) {
		out_obj_begin(o, "peer");
		if (d->peer_pfc.present)
			print_pfc(o, "pfc", "  peer ", &d->peer_pfc);
		if (d->peer_ets.present)
			print_ets(o, "ets", "  peer ", &d->peer_ets);
		if (d->peer_app.present)
			print_app(o, "app", "  peer ", &d->peer_app);
		out_obj_end(o);
	}
	out_obj_end(o);
}

static bool all_known(const int8_t *v)
{
	int p;

	for (p = 0; p < RDIAG_DCB_PRIOS; p++)
		if (v[p] < 0)
			return false;
	return true;
}

/* absent (JSON and text) unless all 8 priorities could be read */
static void print_ecn(struct out *o, const char *key, const char *word, const int8_t *v)
{
	int p;

	if (!all_known(v))
		return;
	out_text(o, " %s", word);
	out_arr_begin(o, key);
	for (p = 0; p < RDIAG_DCB_PRIOS; p++) {
		out_bool(o, NULL, NULL, v[p] > 0);
		out_text(o, " %d:%s", p, v[p] ? "on" : "off");
	}
	out_arr_end(o);
}

/* OFED sysfs, mlx5 debugfs and rdma_cm configfs: one text line for each that exists here */
static void print_qos(struct out *o, const struct rdiag_fabric_qos *q)
{
	bool ofed = q->trust != RDIAG_TRUST_NA || q->has_dscp2prio;
	bool ecn = all_known(q->ecn_np) || all_known(q->ecn_rp);
	bool cc = q->cnp_dscp >= 0 || q->cnp_prio >= 0 || q->cnp_prio_mode >= 0;
	bool cm = q->roce_tos >= 0 || q->roce_mode[0];
	int d;

	out_obj_begin(o, "qos");
	if (ofed) {
		out_text(o, "  qos");
		if (q->trust != RDIAG_TRUST_NA)
			out_str(o, "trust", " trust %s", q->trust == RDIAG_TRUST_DSCP ? "dscp" : "pcp");
		if (q->has_dscp2prio) {
			out_text(o, " dscp2prio");
			out_arr_begin(o, "dscp2prio");
			for (d = 0; d < 64; d++) {
				if (q->dscp2prio[d] < 0)
					continue;
				out_arr_begin(o, NULL);
				out_u64(o, NULL, " %" PRIu64, (uint64_t)d);
				out_u64(o, NULL, ":%" PRIu64, (uint64_t)q->dscp2prio[d]);
				out_arr_end(o);
			}
			out_arr_end(o);
		}
		out_text(o, "\n");
	}
	if (ecn) {
		out_text(o, "  ecn");
		print_ecn(o, "ecn_np", "roce-np", q->ecn_np);
		print_ecn(o, "ecn_rp", "roce-rp", q->ecn_rp);
		out_text(o, "\n");
	}
	if (cc) {
		out_text(o, "  cc_params");
		if (q->cnp_dscp >= 0)
			out_u64(o, "np_cnp_dscp", " np_cnp_dscp %" PRIu64, (uint64_t)q->cnp_dscp);
		if (q->cnp_prio >= 0)
			out_u64(o, "np_cnp_prio", " np_cnp_prio %" PRIu64, (uint64_t)q->cnp_prio);
		if (q->cnp_prio_mode >= 0)
			out_u64(o, "np_cnp_prio_mode", " np_cnp_prio_mode %" PRIu64,
				(uint64_t)q->cnp_prio_mode);
		out_text(o, "\n");
	}
	if (cm) {
		out_text(o, "  rdma_cm");
		if (q->roce_tos >= 0)
			out_u64(o, "default_roce_tos", " default_roce_tos %" PRIu64, (uint64_t)q->roce_tos);
		if (q->roce_mode[0])
			out_str(o, "default_roce_mode", " default_roce_mode '%s'", q->roce_mode);
		out_text(o, "\n");
	}
	if (!ofed && !ecn && !cc && !cm)
		out_text(o, "  qos/ecn/cc_params/rdma_cm configfs: none available here\n");
	out_obj_end(o);
}

static void print_chain(struct out *o, const struct rdiag_chain *c)
{
	int i;

	out_obj_begin(o, "chain");
	out_str(o, "verdict", "  chain: %s", c->verdict);
	out_i64(o, "tos", " (ToS %" PRId64, c->tos);
	out_str(o, "tos_source", " from %s", c->tos_source);
	out_i64(o, "dscp", ", DSCP %" PRId64, c->dscp);
	if (c->prio >= 0)
		out_i64(o, "priority", ", priority %" PRId64, c->prio);
	out_text(o, ")\n");
	out_arr_begin(o, "links");
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		const struct rdiag_chain_link *l = &c->link[i];

		out_obj_begin(o, NULL);
		out_str(o, "name", "    %-9s", l->name);
		out_str(o, "state", " %-13s", rdiag_link_state_name(l->state));
		out_str(o, "evidence", " %s", l->evidence);
		if (l->finding)
			out_str(o, "finding", " [%s]", l->finding);
		if (l->fix[0])
			out_str(o, "fix", "\n              fix: %s", l->fix);
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

struct prio_sum {
	const char *dir;
	int prio;
	int64_t sum;
};

static void add_one(void *arg, const struct rdiag_eth_catalog_entry *e, int prio,
		    uint64_t delta)
{
	struct prio_sum *s = arg;

	if (prio != s->prio || strcmp(e->dir, s->dir))
		return;
	if (s->sum < 0)
		s->sum = 0;
	s->sum += (int64_t)delta;
}

/* the delta of catalogue statistic (concept, dir) on priority p, -1 when the driver has none */
static int64_t prio_delta(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b,
			  const char *concept, const char *dir, int prio)
{
	struct prio_sum s = { .dir = dir, .prio = prio, .sum = -1 };

	rdiag_ethstats_deltas(a, b, concept, add_one, &s);
	return s.sum;
}

static void print_priorities(struct out *o, const struct rdiag_ethstats *a,
			     const struct rdiag_ethstats *b)
{
	static const struct { const char *concept, *dir, *key, *head; } cols[] = {
		{ "prio_packets", "rx", "rx_packets", "RX-PKTS" },
		{ "prio_packets", "tx", "tx_packets", "TX-PKTS" },
		{ "prio_bytes", "rx", "rx_bytes", "RX-BYTES" },
		{ "prio_bytes", "tx", "tx_bytes", "TX-BYTES" },
		{ "prio_pause", "rx", "rx_pause", "RX-PAUSE" },
		{ "prio_pause", "tx", "tx_pause", "TX-PAUSE" },
	};
	double secs = (double)(rdiag_ethstats_time_ns(b) - rdiag_ethstats_time_ns(a)) / 1e9;
	size_t k;
	int p;

	if (secs <= 0)
		secs = 1e-9;
	out_dbl(o, "seconds", "  per priority over %.2f s (delta, per second):\n", secs);
	out_text(o, "    %4s", "PRIO");
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		out_text(o, " %21s", cols[k].head);
	out_text(o, "\n");
	out_arr_begin(o, "priorities");
	for (p = 0; p < RDIAG_DCB_PRIOS; p++) {
		out_obj_begin(o, NULL);
		out_u64(o, "prio", "    %4" PRIu64, (uint64_t)p);
		for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			int64_t d = prio_delta(a, b, cols[k].concept, cols[k].dir, p);
			char rate[64];

			if (d < 0) {
				out_text(o, " %21s", "-");
				continue;
			}
			snprintf(rate, sizeof(rate), "%s_per_s", cols[k].key);
			out_i64(o, cols[k].key, " %10" PRId64, d);
			out_dbl(o, rate, " %10.1f", (double)d / secs);
		}
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

struct target {
	char dev[64], netdev[64];
	uint32_t port;
	struct rdiag_ethstats *a, *b;
	struct rdiag_samples *ra, *rb;	/* the port's RDMA counters at a and b (-i) */
	struct fabric_pause pause;	/* link-level pause, at a and b (-i) or now */
};

int stat_fabric_run(struct out *o, struct rdiag_counters *c, const struct stat_fabric_opts *opts)
{
	struct rdiag_devices *ds;
	struct rdiag_fabric *f;
	struct target *t = NULL;
	size_t nt = 0, i, j;
	struct rdiag_fabric_opts fo = { 0 };
	int ret, rc = EXIT_OK;

	ret = rdiag_counters_discover(c, &ds);
	if (ret < 0)
		tool_die("cannot list RDMA devices: %s", strerror(-ret));
	if (!ds->n) {
		rdiag_counters_devices_free(ds);
		tool_die_no_devices(rdiag_counters_sysfs_root(c));
	}
	for (i = 0; i < ds->n; i++) {
		const struct rdiag_device *d = &ds->dev[i];

		if (opts->dev && strcmp(d->name, opts->dev))
			continue;
		for (j = 0; j < d->n_ports; j++) {
			struct target *nt2;

			if ((opts->port && d->ports[j].port != opts->port) || !d->ports[j].netdev[0])
				continue;
			nt2 = realloc(t, (nt + 1) * sizeof(*t));
			if (!nt2)
				tool_die("out of memory");
			t = nt2;
			memset(&t[nt], 0, sizeof(t[nt]));
			snprintf(t[nt].dev, sizeof(t[nt].dev), "%s", d->name);
			snprintf(t[nt].netdev, sizeof(t[nt].netdev), "%s", d->ports[j].netdev);
			t[nt++].port = d->ports[j].port;
		}
	}
	rdiag_counters_devices_free(ds);
	if (!nt) {
		free(t);
		if (opts->dev)
			tool_die("no RDMA port with a network device on '%s'", opts->dev);
		tool_die("no RDMA port with a network device (InfiniBand ports have no DCB)");
	}
	fo.nl_record = opts->nl_record;
	ret = rdiag_fabric_open(&f, &fo);
	if (ret < 0)
		tool_die("%s", rdiag_fabric_errmsg(NULL));
	if (opts->interval > 0) {
		for (i = 0; i < nt; i++) {
			/* pause before ethtool -S: a test that waits for the device's count of
			 * ethtool -S reads knows both were read */
			fabric_pause_sample(f, t[i].netdev, &t[i].pause);
			if (rdiag_fabric_ethstats(f, t[i].netdev, &t[i].a) < 0)
				tool_warn("%s: %s", tool_esc_tmp(t[i].netdev), rdiag_fabric_errmsg(f));
			t[i].ra = fabric_rdma_sample(c, t[i].dev, t[i].port);
		}
		sleep_s(opts->interval);
		for (i = 0; i < nt; i++) {
			if (t[i].pause.have_b)
				fabric_pause_sample(f, t[i].netdev, &t[i].pause);
			if (t[i].a && rdiag_fabric_ethstats(f, t[i].netdev, &t[i].b) < 0)
				tool_warn("%s: %s", tool_esc_tmp(t[i].netdev), rdiag_fabric_errmsg(f));
			if (t[i].ra)
				t[i].rb = fabric_rdma_sample(c, t[i].dev, t[i].port);
		}
	}

	out_arr_begin(o, NULL);
	for (i = 0; i < nt; i++) {
		struct rdiag_dcb dcb;
		struct rdiag_fabric_qos qos;
		struct rdiag_chain chain;
		struct rdiag_chain_in in;
		int dcb_err;

		dcb_err = rdiag_fabric_dcb(f, t[i].netdev, &dcb);
		if (dcb_err < 0 && dcb_err != -EOPNOTSUPP)
			tool_warn("%s", rdiag_fabric_errmsg(f));
		if (rdiag_fabric_qos(f, t[i].netdev, t[i].dev, t[i].port, &qos) < 0)
			tool_die("%s", rdiag_fabric_errmsg(f));
		memset(&in, 0, sizeof(in));
		in.ifname = t[i].netdev;
		in.dev = t[i].dev;
		in.port = t[i].port;
		in.tos = opts->tos;
		in.dcb = dcb_err ? NULL : &dcb;
		in.dcb_err = dcb_err;
		in.qos = &qos;
		in.before = t[i].a;
		in.after = t[i].b;
		in.pause_max_per_s = opts->pause_max;
		in.pause_time_max = opts->pause_time_max;
		if (opts->interval <= 0)
			fabric_pause_sample(f, t[i].netdev, &t[i].pause);
		in.pause = t[i].pause.have_b ? &t[i].pause.b : NULL;
		in.pause_before = t[i].pause.have_a ? &t[i].pause.a : NULL;
		rdiag_fabric_chain(&in, &chain);

		out_obj_begin(o, NULL);
		out_str(o, "ifname", "%s", t[i].dev);
		out_u64(o, "port", "/%" PRIu64, t[i].port);
		out_str(o, "netdev", " %s", t[i].netdev);
		out_text(o, "\n");
		if (!dcb_err)
			print_dcb(o, &dcb);
		else
			out_text(o, "  dcb: %s\n", dcb_err == -EOPNOTSUPP ?
				 "none (the driver does not implement dcbnl)" : "could not be read");
		fabric_pause_print(o, &t[i].pause);
		print_qos(o, &qos);
		if (t[i].a && t[i].b)
			print_priorities(o, t[i].a, t[i].b);
		if (opts->interval > 0)
			fabric_rdma_print(o, t[i].ra, t[i].rb);
		print_chain(o, &chain);
		out_obj_end(o);
		if (!strcmp(chain.verdict, "broken"))
			rc = EXIT_FOUND;
		rdiag_ethstats_free(t[i].a);
		rdiag_ethstats_free(t[i].b);
		rdiag_samples_free(t[i].ra);
		rdiag_samples_free(t[i].rb);
	}
	out_arr_end(o);
	rdiag_fabric_close(f);
	free(t);
	return rc;
}
