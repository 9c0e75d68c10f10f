/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The lossless chain for one RDMA port's netdev, from what was read (no I/O here):
 *   tos      --tos, else rdma_cm's configfs default_roce_tos, else the kernel's default 0
 *   dscp     tos >> 2
 *   priority OFED trust dscp + qos/dscp2prio; else the dcbnl APP table's DSCP entries (what
 *            "trust dscp" is upstream); trust pcp: an untagged netdev sends priority 0
 *   pfc      PFC enabled on that priority (and the peer's, when DCBX shows it)
 *   ecn      OFED ecn/roce_np|roce_rp/enable/<prio>
 *   cnp      the CNP's priority (mlx5 cc_params) lossless, or on a strict-priority TC
 *   traffic  the per-priority packet counters moved on that priority between two samples
 *   ets      the priority's traffic class: ETS with a share above 0 %, or strict; and no
 *            strict-priority class above it carrying more than the CNPs (one that can
 *            starve it: priority 0, where everything unmapped lands, or any other)
 *   pause    802.3x (global) pause off where PFC is on (a port has one or the other); no
 *            driver pause-storm counter moved, PFC and link-level pause rates and the time
 *            paused under their thresholds between two samples
 * A link that cannot be read on this host is "not available here", never "off". */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/dcbnl.h>

#include "internal.h"

const char *rdiag_link_state_name(enum rdiag_link_state s)
{
	switch (s) {
	case RDIAG_LINK_OK:
		return "ok";
	case RDIAG_LINK_BROKEN:
		return "broken";
	case RDIAG_LINK_UNKNOWN:
		return "unknown";
	case RDIAG_LINK_NA:
		return "not available";
	}
	return "?";
}

static struct rdiag_chain_link *set(struct rdiag_chain *c, int i, enum rdiag_link_state st,
				    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static struct rdiag_chain_link *set(struct rdiag_chain *c, int i, enum rdiag_link_state st,
				    const char *fmt, ...)
{
	struct rdiag_chain_link *l = &c->link[i];
	va_list ap;

	l->state = st;
	va_start(ap, fmt);
	vsnprintf(l->evidence, sizeof(l->evidence), fmt, ap);
	va_end(ap);
	return l;
}

static void broken(struct rdiag_chain_link *l, const char *finding, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void broken(struct rdiag_chain_link *l, const char *finding, const char *fmt, ...)
{
	va_list ap;

	l->state = RDIAG_LINK_BROKEN;
	l->finding = finding;
	va_start(ap, fmt);
	vsnprintf(l->fix, sizeof(l->fix), fmt, ap);
	va_end(ap);
}

enum { L_TOS, L_DSCP, L_PRIO, L_PFC, L_ECN, L_CNP, L_TRAFFIC, L_ETS, L_PAUSE };
static const char *const link_names[RDIAG_CHAIN_LINKS] = {
	"tos", "dscp", "priority", "pfc", "ecn", "cnp", "traffic", "ets", "pause"
};

/* the priority RoCE's PFC should be on: the lowest PFC-enabled one, else 3 (the usual) */
static int lossless_prio(const struct rdiag_dcb *d)
{
	int p;

	for (p = 0; d && d->pfc.present && p < RDIAG_DCB_PRIOS; p++)
		if (d->pfc.pfc_en & (1u << p))
			return p;
	return 3;
}

static void mlnx_pfc_list(char *buf, size_t len, uint8_t en)
{
	snprintf(buf, len, "%d,%d,%d,%d,%d,%d,%d,%d", en & 1, en >> 1 & 1, en >> 2 & 1,
		 en >> 3 & 1, en >> 4 & 1, en >> 5 & 1, en >> 6 & 1, en >> 7 & 1);
}

static bool has_dscp_apps(const struct rdiag_dcb *d)
{
	size_t i;

	for (i = 0; d && i < d->app.n; i++)
		if (d->app.app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
			return true;
	return false;
}

static void chain_tos(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	if (in->tos >= 0) {
		c->tos = in->tos;
		c->tos_source = "--tos";
	} else if (in->qos && in->qos->roce_tos >= 0) {
		c->tos = in->qos->roce_tos;
		c->tos_source = "configfs";
	} else {
		c->tos = 0;
		c->tos_source = "kernel default";
	}
	set(c, L_TOS, RDIAG_LINK_OK, "ToS %d (%s%s)", c->tos, c->tos_source,
	    !strcmp(c->tos_source, "configfs") ? " default_roce_tos" :
	    !strcmp(c->tos_source, "kernel default") ?
	    ": no configfs default_roce_tos; an application may set its own" : "");
	c->dscp = c->tos >> 2;
	set(c, L_DSCP, RDIAG_LINK_OK, "DSCP %d (ToS %d >> 2; ECN field %d)", c->dscp, c->tos,
	    c->tos & 3);
}

/* the ToS the application sets itself (--tos) overrides rdma_cm's configfs default: the fix
 * for its DSCP is in its own ToS option, not in configfs */
static bool app_tos(const struct rdiag_chain *c)
{
	return c->tos_source && !strcmp(c->tos_source, "--tos");
}

static void unmapped_fix(const struct rdiag_chain_in *in, struct rdiag_chain *c,
			 struct rdiag_chain_link *l)
{
	int want = lossless_prio(in->dcb);
	char app[96] = "";

	/* DSCP 0 is everything unmarked: the fix moves RoCE to DSCP 26 (ToS 106), mapped to the
	 * lossless priority unless the table does so already (an application's ToS) */
	if (c->dscp == 0 && (!in->dcb || rdiag_dcb_app_dscp_prio(&in->dcb->app, 26, NULL) != want))
		snprintf(app, sizeof(app), "dcb app add dev %s dscp-prio 26:%d, and ", in->ifname, want);
	if (c->dscp == 0 && app_tos(c))
		broken(l, "fabric.dscp_unmapped",
		       "%sToS 106 in the application's own option (ucmatose -t 106, ib_write_bw --tos 106, NCCL_IB_TC=106, rdma_set_option RDMA_OPTION_ID_TOS): it sets its ToS itself, which overrides configfs default_roce_tos",
		       app);
	else if (c->dscp == 0 && in->dev && in->port)
		broken(l, "fabric.dscp_unmapped",
		       "dcb app add dev %s dscp-prio %d:%d, and a ToS that is not 0: echo 106 > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos (mlnx_qos -i %s --trust dscp --dscp2prio set,26,%d)",
		       in->ifname, 26, want, in->dev, in->port, in->ifname, want);
	else
		broken(l, "fabric.dscp_unmapped",
		       "dcb app add dev %s dscp-prio %d:%d (mlnx_qos -i %s --trust dscp --dscp2prio set,%d,%d)",
		       in->ifname, c->dscp, want, in->ifname, c->dscp, want);
}

/* several APP entries for RoCE's DSCP: which one the device uses is the driver's choice
 * (mlx5 the last written, rdmadiag_dcbdev the highest), so the chain goes on with the one
 * that has PFC (the lowest such; else the first listed) and the fix deletes the others */
static void dscp_multiple(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_dcb *d = in->dcb;
	const struct rdiag_dcb_apps *a = &d->app;
	char all[96] = "", del[96] = "";
	size_t i, o1 = 0, o2 = 0;
	int keep = -1, first = -1;
	struct rdiag_chain_link *l;

	for (i = 0; i < a->n; i++) {
		const struct rdiag_dcb_app *e = &a->app[i];

		if (e->selector != IEEE_8021QAZ_APP_SEL_DSCP || e->protocol != c->dscp ||
		    e->priority >= RDIAG_DCB_PRIOS)
			continue;
		if (first < 0)
			first = e->priority;
		if (keep < 0 && d->pfc.present && (d->pfc.pfc_en & (1u << e->priority)))
			keep = e->priority;
	}
	for (i = 0; i < a->n; i++)
		if (a->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP && a->app[i].protocol == c->dscp &&
		    a->app[i].priority < RDIAG_DCB_PRIOS && o1 < sizeof(all))
			o1 += (size_t)snprintf(all + o1, sizeof(all) - o1, "%s%d", o1 ? ", " : "",
					       a->app[i].priority);
	if (keep < 0)
		keep = first;
	for (i = 0; i < a->n; i++)
		if (a->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP && a->app[i].protocol == c->dscp &&
		    a->app[i].priority < RDIAG_DCB_PRIOS && a->app[i].priority != keep &&
		    o2 < sizeof(del))
			o2 += (size_t)snprintf(del + o2, sizeof(del) - o2, " %d:%d", c->dscp,
					       a->app[i].priority);
	c->prio = keep;
	l = set(c, L_PRIO, RDIAG_LINK_BROKEN,
		"priority %d? the APP table maps DSCP %d to priorities %s: the device uses one of them (the driver's choice)",
		keep, c->dscp, all);
	broken(l, "fabric.dscp_multiple", "dcb app del dev %s dscp-prio%s (keeps dscp-prio %d:%d%s)",
	       in->ifname, del, c->dscp, keep,
	       d->pfc.present && (d->pfc.pfc_en & (1u << keep)) ? ", the priority with PFC" : "");
}

static void chain_prio(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_fabric_qos *q = in->qos;
	struct rdiag_chain_link *l;
	unsigned int n = 0;
	int p;

	if (q && q->trust == RDIAG_TRUST_DSCP && q->has_dscp2prio && q->dscp2prio[c->dscp] >= 0) {
		c->prio = q->dscp2prio[c->dscp];
		set(c, L_PRIO, RDIAG_LINK_OK, "priority %d (qos/trust dscp, qos/dscp2prio %d -> %d)",
		    c->prio, c->dscp, c->prio);
		return;
	}
	if (q && q->trust == RDIAG_TRUST_PCP) {
		if (q->vlan) {
			set(c, L_PRIO, RDIAG_LINK_UNKNOWN,
			    "qos/trust pcp on a VLAN: the priority is the VLAN's egress-qos-map of the traffic's socket priority");
			return;
		}
		c->prio = 0;
		l = set(c, L_PRIO, RDIAG_LINK_BROKEN,
			"priority 0 (qos/trust pcp on an untagged netdev: the DSCP is not looked at)");
		broken(l, "fabric.trust_pcp", "mlnx_qos -i %s --trust dscp (upstream: dcb app add dev %s dscp-prio %d:%d)",
		       in->ifname, in->ifname, c->dscp, lossless_prio(in->dcb));
		return;
	}
	if (!in->dcb) {
		if (in->dcb_err == -EOPNOTSUPP)
			set(c, L_PRIO, RDIAG_LINK_NA,
			    "%s has no DCB (the driver does not implement dcbnl): no priority mapping to check",
			    in->ifname);
		else
			set(c, L_PRIO, RDIAG_LINK_UNKNOWN, "%s: the DCB configuration could not be read (%s)",
			    in->ifname, strerror(in->dcb_err < 0 ? -in->dcb_err : EINVAL));
		return;
	}
	p = rdiag_dcb_app_dscp_prio(&in->dcb->app, (unsigned int)c->dscp, &n);
	if (p >= 0 && n > 1) {
		dscp_multiple(in, c);
		return;
	}
	if (p >= 0) {
		c->prio = p;
		set(c, L_PRIO, RDIAG_LINK_OK, "priority %d (APP table dscp-prio %d:%d)", p, c->dscp, p);
		return;
	}
	c->prio = 0;
	l = set(c, L_PRIO, RDIAG_LINK_BROKEN, has_dscp_apps(in->dcb) ?
		"priority 0 (the APP table has no entry for DSCP %d)" :
		"priority 0 (the APP table has no DSCP entry at all: trust is pcp, DSCP %d is not looked at)",
		c->dscp);
	unmapped_fix(in, c, l);
}

static void chain_pfc(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_dcb *d = in->dcb;
	struct rdiag_chain_link *l;
	char list[32];

	if (c->prio < 0 || !d || !d->pfc.present) {
		set(c, L_PFC, (c->prio < 0 && d) || (!d && in->dcb_err != -EOPNOTSUPP) ?
		    RDIAG_LINK_UNKNOWN : RDIAG_LINK_NA,
		    !d ? (in->dcb_err == -EOPNOTSUPP ? "no DCB: no PFC" : "the DCB configuration could not be read") :
		    c->prio < 0 ? "the priority is not known" : "the driver reports no PFC configuration");
		return;
	}
	if (!(d->pfc.pfc_en & (1u << c->prio)) && c->link[L_PRIO].finding &&
	    !strcmp(c->link[L_PRIO].finding, "fabric.dscp_unmapped")) {
		/* priority 0 only for want of an APP entry: the fix is to move the traffic to
		 * the lossless priority, not to make the default class lossless */
		int want = lossless_prio(d);

		mlnx_pfc_list(list, sizeof(list), (uint8_t)(d->pfc.pfc_en | 1u << want));
		l = set(c, L_PFC, RDIAG_LINK_BROKEN,
			"PFC off on priority 0, where the unmapped DSCP %d lands (prio-pfc enabled: 0x%02x)",
			c->dscp, d->pfc.pfc_en);
		if (d->pfc.pfc_en)
			broken(l, "fabric.pfc_off",
			       "the priority link's fix moves the traffic to priority %d, which has PFC (do not enable PFC on priority 0, the default class)",
			       want);
		else
			broken(l, "fabric.pfc_off",
			       "dcb pfc set dev %s prio-pfc %d:on (mlnx_qos -i %s --pfc %s), with the priority link's fix",
			       in->ifname, want, in->ifname, list);
		return;
	}
	if (!(d->pfc.pfc_en & (1u << c->prio))) {
		mlnx_pfc_list(list, sizeof(list), (uint8_t)(d->pfc.pfc_en | 1u << c->prio));
		l = set(c, L_PFC, RDIAG_LINK_BROKEN, "PFC off on priority %d (prio-pfc enabled: 0x%02x)",
			c->prio, d->pfc.pfc_en);
		broken(l, "fabric.pfc_off", "dcb pfc set dev %s prio-pfc %d:on (mlnx_qos -i %s --pfc %s)",
		       in->ifname, c->prio, in->ifname, list);
		return;
	}
	if (d->peer_pfc.present && !(d->peer_pfc.pfc_en & (1u << c->prio))) {
		l = set(c, L_PFC, RDIAG_LINK_BROKEN,
			"PFC on priority %d here, but the peer (DCBX) advertises it off", c->prio);
		broken(l, "fabric.peer_pfc_off",
		       "enable PFC on priority %d on the switch port facing %s", c->prio, in->ifname);
		return;
	}
	set(c, L_PFC, RDIAG_LINK_OK, "PFC on priority %d%s", c->prio,
	    d->peer_pfc.present ? " (the peer's too)" : "");
}

static void chain_ecn(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_fabric_qos *q = in->qos;
	struct rdiag_chain_link *l;
	int np, rp;

	if (c->prio < 0) {
		set(c, L_ECN, RDIAG_LINK_UNKNOWN, "the priority is not known");
		return;
	}
	np = q ? q->ecn_np[c->prio] : -1;
	rp = q ? q->ecn_rp[c->prio] : -1;
	if (np < 0 && rp < 0) {
		set(c, L_ECN, RDIAG_LINK_NA,
		    "ecn/roce_np|roce_rp/enable/%d not available here (OFED sysfs)", c->prio);
		return;
	}
	if (np == 0 || rp == 0) {
		l = set(c, L_ECN, RDIAG_LINK_BROKEN, "ECN on priority %d: roce_np %s, roce_rp %s",
			c->prio, np < 0 ? "n/a" : np ? "on" : "off", rp < 0 ? "n/a" : rp ? "on" : "off");
		broken(l, "fabric.ecn_off",
		       "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d; echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/%d",
		       in->ifname, c->prio, in->ifname, c->prio);
		return;
	}
	set(c, L_ECN, RDIAG_LINK_OK, "ECN on priority %d (roce_np %s, roce_rp %s)", c->prio,
	    np < 0 ? "n/a" : "on", rp < 0 ? "n/a" : "on");
}

static void chain_cnp(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_fabric_qos *q = in->qos;
	const struct rdiag_dcb *d = in->dcb;
	struct rdiag_chain_link *l;
	int p, tc;
	bool lossless, strict;

	if (!q || q->cnp_prio_mode < 0 || (q->cnp_prio_mode == 0 && q->cnp_prio < 0)) {
		set(c, L_CNP, RDIAG_LINK_NA,
		    "mlx5 cc_params (np_cnp_prio_mode, np_cnp_prio) not available here (debugfs, root)");
		return;
	}
	if (q->cnp_prio_mode) {
		/* only mode 0 makes np_cnp_prio the CNP's priority; what mode 1 picks is the
		 * firmware's, not readable here */
		set(c, L_CNP, RDIAG_LINK_UNKNOWN,
		    "np_cnp_prio_mode %d: the CNP's priority is not np_cnp_prio", q->cnp_prio_mode);
		return;
	}
	p = q->cnp_prio;
	if (p < 0 || !d || !d->pfc.present) {
		set(c, L_CNP, RDIAG_LINK_UNKNOWN, "CNP priority %d: %s", p,
		    !d ? "no DCB to check it against" : "the priority is not known");
		return;
	}
	lossless = d->pfc.pfc_en & (1u << p);
	tc = d->ets.present ? d->ets.prio_tc[p] : -1;
	strict = tc >= 0 && tc < RDIAG_DCB_PRIOS && d->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_STRICT;
	if (lossless || strict) {
		if (q->cnp_dscp >= 0)
			set(c, L_CNP, RDIAG_LINK_OK, "CNP priority %d (np_cnp_prio; np_cnp_dscp %d), %s",
			    p, q->cnp_dscp, lossless ? "PFC on" : "a strict TC");
		else
			set(c, L_CNP, RDIAG_LINK_OK, "CNP priority %d (np_cnp_prio), %s", p,
			    lossless ? "PFC on" : "a strict TC");
		return;
	}
	l = set(c, L_CNP, RDIAG_LINK_BROKEN,
		"CNP priority %d is neither lossless (PFC off) nor on a strict TC", p);
	broken(l, "fabric.cnp_lossy",
	       "echo %d > /sys/kernel/debug/mlx5/%s/cc_params/np_cnp_prio, or dcb ets set dev %s tc-tsa %d:strict",
	       c->prio >= 0 ? c->prio : 3, q->pci, in->ifname, tc < 0 ? 0 : tc);
}

static void add_prio(void *arg, const struct rdiag_eth_catalog_entry *e, int prio,
		     uint64_t delta)
{
	int64_t *out = arg;

	(void)e;
	if (prio < 0 || prio >= RDIAG_DCB_PRIOS)
		return;
	if (out[prio] < 0)
		out[prio] = 0;
	out[prio] += (int64_t)delta;
}

/* rx + tx prio_packets per priority between the samples: 0, or -1 when not measurable */
static int prio_deltas(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b,
		       int64_t out[RDIAG_DCB_PRIOS])
{
	int p, found = 0;

	for (p = 0; p < RDIAG_DCB_PRIOS; p++)
		out[p] = -1;
	rdiag_ethstats_deltas(a, b, "prio_packets", add_prio, out);
	for (p = 0; p < RDIAG_DCB_PRIOS; p++)
		found |= out[p] >= 0;
	return found ? 0 : -1;
}

static void chain_traffic(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	struct rdiag_chain_link *l;
	int64_t other = 0;
	int p, busiest = -1;

	if (!in->before || !in->after) {
		set(c, L_TRAFFIC, RDIAG_LINK_UNKNOWN,
		    "needs two samples of the per-priority counters (rdmastat fabric -i)");
		return;
	}
	if (prio_deltas(in->before, in->after, c->prio_packets) < 0) {
		set(c, L_TRAFFIC, RDIAG_LINK_NA, "driver '%s' has no per-priority packet counters known to rdmadiag",
		    rdiag_ethstats_driver(in->after));
		return;
	}
	for (p = 0; p < RDIAG_DCB_PRIOS; p++) {
		if (p == c->prio || c->prio_packets[p] <= 0)
			continue;
		other += c->prio_packets[p];
		if (busiest < 0 || c->prio_packets[p] > c->prio_packets[busiest])
			busiest = p;
	}
	if (c->prio < 0) {
		set(c, L_TRAFFIC, RDIAG_LINK_UNKNOWN, "the priority is not known");
		return;
	}
	if (c->prio_packets[c->prio] > 0) {
		set(c, L_TRAFFIC, RDIAG_LINK_OK, "priority %d: +%" PRId64 " packets (other priorities +%" PRId64 ")",
		    c->prio, c->prio_packets[c->prio], other);
		return;
	}
	if (!other) {
		set(c, L_TRAFFIC, RDIAG_LINK_UNKNOWN, "no traffic on any priority between the samples");
		return;
	}
	l = set(c, L_TRAFFIC, RDIAG_LINK_BROKEN,
		"priority %d: +0 packets; priority %d: +%" PRId64 " (the traffic is not where the configuration expects it)",
		c->prio, busiest, c->prio_packets[busiest]);
	if (app_tos(c))
		broken(l, "fabric.traffic_off_priority",
		       "the application's ToS does not reach priority %d: set it in the application's own ToS option (NCCL_IB_TC=%d, ucmatose -t %d, rdma_set_option RDMA_OPTION_ID_TOS; it overrides configfs default_roce_tos), or the DSCP->priority map",
		       c->prio, c->tos ? c->tos : 106, c->tos ? c->tos : 106);
	else
		broken(l, "fabric.traffic_off_priority",
		       "the applications' ToS does not reach priority %d: set it (NCCL_IB_TC=%d, rdma_cm default_roce_tos, or the DSCP->priority map)",
		       c->prio, c->tos ? c->tos : 106);
}

/* the CNP's priority when it is known: np_cnp_prio (mode 0), else what the APP table gives
 * np_cnp_dscp, or DSCP 48 (the usual CNP DSCP); -1 none */
static int cnp_prio(const struct rdiag_chain_in *in)
{
	const struct rdiag_fabric_qos *q = in->qos;
	int dscp = q && q->cnp_dscp >= 0 ? q->cnp_dscp : 48;

	if (q && q->cnp_prio_mode == 0 && q->cnp_prio >= 0 && q->cnp_prio < RDIAG_DCB_PRIOS)
		return q->cnp_prio;
	if (!in->dcb || dscp > 63)
		return -1;
	return rdiag_dcb_app_dscp_prio(&in->dcb->app, (unsigned int)dscp, NULL);
}

/* a strict-priority TC served before TC roce (every strict TC is served before the ETS
 * ones; among strict TCs the higher number first) that carries a priority other than the
 * CNP's: -1 none; its lowest such priority in *prio */
static int starving_tc(const struct rdiag_chain_in *in, int roce, int *prio)
{
	const struct rdiag_dcb_ets *e = &in->dcb->ets;
	int cnp = cnp_prio(in), t, p;

	for (t = RDIAG_DCB_PRIOS - 1; t >= 0; t--) {
		if (t == roce || e->tc_tsa[t] != IEEE_8021QAZ_TSA_STRICT ||
		    (e->tc_tsa[roce] == IEEE_8021QAZ_TSA_STRICT && t < roce))
			continue;
		for (p = 0; p < RDIAG_DCB_PRIOS; p++)
			if (e->prio_tc[p] == t && p != cnp) {
				*prio = p;
				return t;
			}
	}
	return -1;
}

/* "dcb ets set" arguments that make TC t ETS (strict -> ets) and give TC roce half the
 * bandwidth, the other ETS TCs that carry a priority the other half (equal shares); TCs
 * without a priority get 0 %: the shares of the ETS TCs add up to 100 as drivers require */
static void ets_fix_args(const struct rdiag_dcb_ets *e, int roce, int t, char *buf, size_t len)
{
	uint8_t tsa[RDIAG_DCB_PRIOS], bw[RDIAG_DCB_PRIOS] = { 0 };
	bool used[RDIAG_DCB_PRIOS] = { false };
	int i, p, n = 0, pool, first = -1;
	size_t off = 0;

	memcpy(tsa, e->tc_tsa, sizeof(tsa));
	if (t >= 0)
		tsa[t] = IEEE_8021QAZ_TSA_ETS;
	for (p = 0; p < RDIAG_DCB_PRIOS; p++)
		if (e->prio_tc[p] < RDIAG_DCB_PRIOS)
			used[e->prio_tc[p]] = true;
	for (i = 0; i < RDIAG_DCB_PRIOS; i++)
		if (i != roce && used[i] && tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			n++;
			if (first < 0)
				first = i;
		}
	pool = 100;
	if (tsa[roce] == IEEE_8021QAZ_TSA_ETS) {
		bw[roce] = (uint8_t)(n ? 50 : 100);
		pool -= bw[roce];
	}
	for (i = 0; i < RDIAG_DCB_PRIOS && n; i++)
		if (i != roce && used[i] && tsa[i] == IEEE_8021QAZ_TSA_ETS)
			bw[i] = (uint8_t)(pool / n);
	if (first >= 0)	/* what equal shares leave over goes to the first of them */
		bw[first] = (uint8_t)(bw[first] + pool % n);
	if (t >= 0)
		off = (size_t)snprintf(buf, len, "tc-tsa %d:ets ", t);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, "tc-bw");
	for (i = 0; i < RDIAG_DCB_PRIOS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %d:%u", i, bw[i]);
}

static void chain_ets(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_dcb *d = in->dcb;
	struct rdiag_chain_link *l;
	char args[128];
	int tc, t, p = -1;

	if (!d || !d->ets.present) {
		set(c, L_ETS, !d && in->dcb_err != -EOPNOTSUPP ? RDIAG_LINK_UNKNOWN : RDIAG_LINK_NA,
		    !d ? (in->dcb_err == -EOPNOTSUPP ? "no DCB: no ETS" : "the DCB configuration could not be read") :
		    "the driver reports no ETS configuration");
		return;
	}
	if (c->prio < 0) {
		set(c, L_ETS, RDIAG_LINK_UNKNOWN, "the priority is not known");
		return;
	}
	tc = d->ets.prio_tc[c->prio];
	if (tc >= RDIAG_DCB_PRIOS) {
		set(c, L_ETS, RDIAG_LINK_UNKNOWN, "priority %d maps to TC %d, which does not exist",
		    c->prio, tc);
		return;
	}
	if (d->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS && !d->ets.tc_tx_bw[tc]) {
		ets_fix_args(&d->ets, tc, -1, args, sizeof(args));
		l = set(c, L_ETS, RDIAG_LINK_BROKEN,
			"priority %d is in TC %d: ETS with 0 %% of the bandwidth (it sends only when every other TC is idle)",
			c->prio, tc);
		broken(l, "fabric.ets_zero_bw", "dcb ets set dev %s %s", in->ifname, args);
		return;
	}
	t = starving_tc(in, tc, &p);
	if (t >= 0) {
		ets_fix_args(&d->ets, tc, t, args, sizeof(args));
		l = set(c, L_ETS, RDIAG_LINK_BROKEN,
			"priority %d is in TC %d (%s), below TC %d: strict priority, carrying priority %d, which can starve it",
			c->prio, tc, rdiag_dcb_tsa_name(d->ets.tc_tsa[tc]) ?
			rdiag_dcb_tsa_name(d->ets.tc_tsa[tc]) : "?", t, p);
		broken(l, "fabric.ets_strict_starve", "dcb ets set dev %s %s", in->ifname, args);
		return;
	}
	if (d->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS)
		set(c, L_ETS, RDIAG_LINK_OK, "priority %d in TC %d: ETS %u %%, no strict TC above it but the CNP's",
		    c->prio, tc, d->ets.tc_tx_bw[tc]);
	else
		set(c, L_ETS, RDIAG_LINK_OK, "priority %d in TC %d: %s", c->prio, tc,
		    rdiag_dcb_tsa_name(d->ets.tc_tsa[tc]) ? rdiag_dcb_tsa_name(d->ets.tc_tsa[tc]) : "?");
}

struct max_delta {
	int64_t best;
	int prio;
	const char *dir;
};

static void take_max(void *arg, const struct rdiag_eth_catalog_entry *e, int prio,
		     uint64_t delta)
{
	struct max_delta *m = arg;

	if ((int64_t)delta > m->best) {
		m->best = (int64_t)delta;
		m->prio = prio;
		m->dir = e->dir;
	}
}

/* the delta of every statistic of concept CONCEPT between the samples, per priority
 * (prio -1 for those not per priority) and direction: the largest, its priority and
 * direction; -1 when the driver has none */
static int64_t max_delta(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b,
			 const char *concept, int *prio, const char **dir)
{
	struct max_delta m = { .best = -1 };

	rdiag_ethstats_deltas(a, b, concept, take_max, &m);
	if (m.best >= 0) {
		*prio = m.prio;
		*dir = m.dir;
	}
	return m.best;
}

static const char *dir_word(const char *dir)
{
	return !strcmp(dir, "rx") ? "received" : "sent";
}

/* the pause frames and time between the samples against the thresholds: true when a
 * finding was set */
static bool pause_rates(const struct rdiag_chain_in *in, struct rdiag_chain *c, char *ok,
			size_t oklen)
{
	const struct rdiag_ethstats *a = in->before, *b = in->after;
	double max = in->pause_max_per_s > 0 ? in->pause_max_per_s : RDIAG_PAUSE_MAX_PER_S;
	double tmax = in->pause_time_max > 0 ? in->pause_time_max : RDIAG_PAUSE_TIME_MAX;
	const struct rdiag_eth_pause *pa = in->pause_before, *pb = in->pause;
	struct rdiag_chain_link *l;
	const char *dir = "rx";
	double secs = 0;
	int64_t n;
	int p = -1;

	if (a && b)
		secs = (double)(rdiag_ethstats_time_ns(b) - rdiag_ethstats_time_ns(a)) / 1e9;
	/* a rate over less than 10 ms (two reads back to back) says nothing about a storm */
	if (secs < 0.01)
		secs = 0;
	if (secs > 0 && (n = max_delta(a, b, "pause_storm", &p, &dir)) > 0) {
		l = set(c, L_PAUSE, RDIAG_LINK_BROKEN,
			"the driver's pause-storm counter moved: +%" PRId64 " over %.2f s", n, secs);
		broken(l, "fabric.pause_storm",
		       "a receiver stopped draining (the port paused its peer until the storm watchdog fired): find the stuck host or queue behind %s",
		       in->ifname);
		return true;
	}
	if (secs > 0 && (n = max_delta(a, b, "prio_pause", &p, &dir)) >= 0) {
		if ((double)n / secs > max) {
			l = set(c, L_PAUSE, RDIAG_LINK_BROKEN,
				"priority %d: %.0f PFC pause frames/s %s over %.2f s (+%" PRId64 "; the threshold is %.0f/s)",
				p, (double)n / secs, dir_word(dir), secs, n, max);
			if (!strcmp(dir, "rx"))
				broken(l, "fabric.pause_rate",
				       "the peer keeps pausing priority %d of %s: its egress toward this host is congested or a receiver behind it does not drain (a threshold: rdmastat fabric --pause-max)",
				       p, in->ifname);
			else
				broken(l, "fabric.pause_rate",
				       "%s keeps pausing its peer on priority %d: a receiver on this host does not drain (PCIe, CPU, an RNR loop; a threshold: rdmastat fabric --pause-max)",
				       in->ifname, p);
			return true;
		}
		snprintf(ok, oklen, "at most %.0f PFC pause frames/s on a priority over %.2f s (threshold %.0f/s)",
			 (double)n / secs, secs, max);
	}
	if (secs > 0 && (n = max_delta(a, b, "prio_pause_duration", &p, &dir)) >= 0 &&
	    (double)n / 1e6 / secs > tmax) {
		l = set(c, L_PAUSE, RDIAG_LINK_BROKEN,
			"priority %d was paused (%s) %.0f %% of %.2f s (the threshold is %.0f %%)",
			p, dir, 100.0 * (double)n / 1e6 / secs, secs, 100.0 * tmax);
		broken(l, "fabric.pause_time",
		       "priority %d of %s spends its time paused: find the congested or stuck receiver (a threshold: rdmastat fabric --pause-time-max)",
		       p, in->ifname);
		return true;
	}
	if (pa && pb && pb->time_ns >= pa->time_ns + 10000000) {
		double s2 = (double)(pb->time_ns - pa->time_ns) / 1e9;
		uint64_t rx = pa->has_rx_frames && pb->has_rx_frames && pb->rx_frames >= pa->rx_frames ?
			pb->rx_frames - pa->rx_frames : 0;
		uint64_t tx = pa->has_tx_frames && pb->has_tx_frames && pb->tx_frames >= pa->tx_frames ?
			pb->tx_frames - pa->tx_frames : 0;
		uint64_t m = rx > tx ? rx : tx;

		if ((double)m / s2 > max) {
			l = set(c, L_PAUSE, RDIAG_LINK_BROKEN,
				"%.0f link-level (802.3x) pause frames/s %s over %.2f s (the threshold is %.0f/s)",
				(double)m / s2, rx >= tx ? "received" : "sent", s2, max);
			broken(l, "fabric.pause_rate",
			       "find the congested or stuck receiver on the %s side of %s (a threshold: rdmastat fabric --pause-max)",
			       rx >= tx ? "peer's" : "this host's", in->ifname);
			return true;
		}
	}
	return false;
}

static void chain_pause(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	const struct rdiag_eth_pause *pb = in->pause;
	const struct rdiag_dcb *d = in->dcb;
	struct rdiag_chain_link *l;
	char ok[160] = "";
	bool pfc = d && d->pfc.present && d->pfc.pfc_en;

	if (pb && pfc && (pb->rx == 1 || pb->tx == 1)) {
		l = set(c, L_PAUSE, RDIAG_LINK_BROKEN,
			"802.3x (global) pause rx %s tx %s together with PFC (prio-pfc 0x%02x): a port has one or the other",
			pb->rx == 1 ? "on" : "off", pb->tx == 1 ? "on" : "off", d->pfc.pfc_en);
		broken(l, "fabric.pause_with_pfc", "ethtool -A %s %srx off tx off", in->ifname,
		       pb->autoneg == 1 ? "autoneg off " : "");
		return;
	}
	if (pause_rates(in, c, ok, sizeof(ok)))
		return;
	if (ok[0])
		set(c, L_PAUSE, RDIAG_LINK_OK, "%s%s", ok,
		    pb && pfc ? "; 802.3x pause off" : "");
	else if (pb && (pb->rx >= 0 || pb->tx >= 0))
		set(c, L_PAUSE, RDIAG_LINK_OK, "802.3x pause rx %s tx %s%s", pb->rx == 1 ? "on" : "off",
		    pb->tx == 1 ? "on" : "off", pfc ? ", PFC on" : ", no PFC");
	else
		set(c, L_PAUSE, RDIAG_LINK_NA,
		    "link-level pause not available here, and no pause counters between two samples");
}

void rdiag_fabric_chain(const struct rdiag_chain_in *in, struct rdiag_chain *c)
{
	int i, nbroken = 0, nok = 0;

	memset(c, 0, sizeof(*c));
	c->tos = c->dscp = c->prio = -1;
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		c->link[i].name = link_names[i];
		c->link[i].state = RDIAG_LINK_UNKNOWN;
	}
	chain_tos(in, c);
	chain_prio(in, c);
	chain_pfc(in, c);
	chain_ecn(in, c);
	chain_cnp(in, c);
	chain_traffic(in, c);
	chain_ets(in, c);
	chain_pause(in, c);
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		nbroken += c->link[i].state == RDIAG_LINK_BROKEN;
		nok += c->link[i].state == RDIAG_LINK_OK && i > L_DSCP;
	}
	c->verdict = nbroken ? "broken" : nok ? "ok" : "unknown";
}

int rdiag_fabric_port_chain(const char *ifname, const char *dev, uint32_t port,
			    struct rdiag_chain *out)
{
	struct rdiag_fabric *fab;
	struct rdiag_fabric_qos qos;
	struct rdiag_chain_in in;
	struct rdiag_eth_pause pause;
	struct rdiag_dcb dcb;
	int dcb_err, pause_err, r;

	if (!ifname || !dev || !out)
		return -EINVAL;
	r = rdiag_fabric_open(&fab, NULL);
	if (r < 0)
		return r;
	dcb_err = rdiag_fabric_dcb(fab, ifname, &dcb);
	/* 802.3x pause settings (pause with PFC); a driver without them leaves the link n/a */
	pause_err = rdiag_fabric_pause(fab, ifname, &pause);
	r = rdiag_fabric_qos(fab, ifname, dev, port, &qos);
	if (r < 0) {
		rdiag_fabric_close(fab);
		return r;
	}
	memset(&in, 0, sizeof(in));
	in.ifname = ifname;
	in.dev = dev;
	in.port = port;
	in.tos = -1;
	in.dcb = dcb_err ? NULL : &dcb;
	in.dcb_err = dcb_err;
	in.qos = &qos;
	in.pause = pause_err ? NULL : &pause;
	rdiag_fabric_chain(&in, out);
	rdiag_fabric_close(fab);
	return 0;
}
