/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric's link-level pause (stat_fabric_pause.h).  JSON keys are ethtool's
 * (--json -I -a: autonegotiate, rx, tx, tx_pause_frames, rx_pause_frames), so that the two
 * compare field by field; the contract is in rdmastat(1). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "common/esc.h"
#include "common/out.h"
#include "fabric_pause.h"
#include "common/tool.h"

void fabric_pause_sample(struct rdiag_fabric *f, const char *ifname, struct fabric_pause *p)
{
	struct rdiag_eth_pause s;

	p->err = rdiag_fabric_pause(f, ifname, &s);
	if (p->err < 0) {
		if (p->err != -EOPNOTSUPP && p->err != -ENOENT && p->err != -ENXIO &&
		    p->err != -ENODEV)
			tool_warn("%s", rdiag_fabric_errmsg(f));
		return;
	}
	if (p->have_b) {
		p->a = p->b;
		p->have_a = true;
	}
	p->b = s;
	p->have_b = true;
}

static void flag(struct out *o, const char *key, const char *word, int v)
{
	if (v < 0)
		return;
	out_bool(o, key, NULL, v);
	out_text(o, " %s %s", word, v ? "on" : "off");
}

static void delta(struct out *o, const char *key, const char *word, bool have, uint64_t a,
		  uint64_t b, double secs)
{
	char rate[64];
	uint64_t d = b >= a ? b - a : 0;	/* a driver reset: no negative count */

	if (!have)
		return;
	snprintf(rate, sizeof(rate), "%s_per_s", key);
	out_text(o, " %s", word);
	out_u64(o, key, " +%" PRIu64, d);
	out_dbl(o, rate, " (%.1f/s)", (double)d / secs);
}

void fabric_pause_print(struct out *o, const struct fabric_pause *p)
{
	const struct rdiag_eth_pause *b = &p->b;

	if (!p->have_b) {
		if (p->err == -EOPNOTSUPP)
			out_text(o, "  pause: not available here (no ethtool netlink pause for this driver)\n");
		return;
	}
	out_text(o, "  pause");
	out_obj_begin(o, "pause");
	flag(o, "autonegotiate", "autoneg", b->autoneg);
	flag(o, "rx", "rx", b->rx);
	flag(o, "tx", "tx", b->tx);
	if (b->has_tx_frames)
		out_u64(o, "tx_pause_frames", " tx-frames %" PRIu64, b->tx_frames);
	if (b->has_rx_frames)
		out_u64(o, "rx_pause_frames", " rx-frames %" PRIu64, b->rx_frames);
	if (!b->has_tx_frames && !b->has_rx_frames)
		out_text(o, b->stats_refused ?
			 " frames: not available here (this kernel's ethtool netlink has no pause statistics: Linux 5.10 added them)" :
			 " frames: not available here (no pause statistics in this driver)");
	if (p->have_a && (b->has_tx_frames || b->has_rx_frames)) {
		double secs = (double)(b->time_ns - p->a.time_ns) / 1e9;

		if (secs <= 0)
			secs = 1e-9;
		out_obj_begin(o, "interval");
		out_dbl(o, "seconds", "\n    over %.2f s:", secs);
		delta(o, "tx_pause_frames", "tx-frames", b->has_tx_frames && p->a.has_tx_frames,
		      p->a.tx_frames, b->tx_frames, secs);
		delta(o, "rx_pause_frames", "rx-frames", b->has_rx_frames && p->a.has_rx_frames,
		      p->a.rx_frames, b->rx_frames, secs);
		out_obj_end(o);
	}
	out_obj_end(o);
	out_text(o, "\n");
}
