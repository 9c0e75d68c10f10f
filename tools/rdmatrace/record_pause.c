/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: pause storms.  Every counter snapshot holds the pause statistics of each
 * port's netdev (the Ethernet catalogue's prio_pause, pause and pause_storm concepts, read as
 * rdmastat --eth reads them); a PFC or link-level pause rate above --pause-max frames/s on
 * one statistic, or a driver's pause-storm counter that moved, is a finding with the same id
 * as rdmastat fabric's (fabric.pause_rate, fabric.pause_storm): a marker and a copy of the
 * ring.  Edge-triggered per port and statistic, as the threshold rules are. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool.h"
#include "rdmadiag/fabric.h"
#include "rdmadiag/rate.h"
#include "record.h"

static double pause_max = RDIAG_PAUSE_MAX_PER_S;
static struct rec_edges storms;

/* the Ethernet statistics a snapshot reads for this (rdiag_counters_set_eth's selection) */
const char *const rec_pause_keys[REC_PAUSE_NKEYS] = { "prio_pause", "pause", "pause_storm" };

void rec_pause_set_max(double frames_per_s)
{
	pause_max = frames_per_s;
}

static const char *dir_word(const struct rdiag_sample *s)
{
	const char *d = s->eth_cat ? s->eth_cat->dir : NULL;

	return !d ? "" : !strcmp(d, "rx") ? "received" : !strcmp(d, "tx") ? "sent" : d;
}

/* the finding's text when s (an Ethernet statistic with its concept) breaches over r (a
 * valid rate), else false */
static bool storm(const struct rdiag_sample *s, const struct rdiag_rate *r, char *why,
		  size_t len)
{
	const char *nd = s->netdev ? s->netdev : "?";

	if (!strcmp(s->eth_concept, "pause_storm")) {
		if (!r->delta)
			return false;
		snprintf(why, len, "pause storm: %s (%s/%u) %s moved by %" PRIu64 ": the driver's pause-storm "
			 "watchdog fired [fabric.pause_storm]", nd, s->dev, s->port, s->name, r->delta);
		return true;
	}
	if (!(r->per_sec > pause_max))
		return false;
	if (!strcmp(s->eth_concept, "prio_pause"))
		snprintf(why, len, "pause storm: %s (%s/%u) priority %d %s %.0f PFC pause frames/s "
			 "(%s; the threshold is %.0f/s, --pause-max) [fabric.pause_rate]", nd, s->dev,
			 s->port, s->eth_prio, dir_word(s), r->per_sec, s->name, pause_max);
	else
		snprintf(why, len, "pause storm: %s (%s/%u) %s %.0f link-level pause frames/s (%s; "
			 "the threshold is %.0f/s, --pause-max) [fabric.pause_rate]", nd, s->dev,
			 s->port, dir_word(s), r->per_sec, s->name, pause_max);
	return true;
}

void rec_pause_check(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
		     uint64_t t)
{
	size_t i, n = rdiag_samples_count(cur);
	char why[512];

	rec_edge_begin(&storms);
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(cur, i);
		const struct rdiag_sample *p;
		struct rdiag_rate r;

		if (s->origin != RDIAG_ORIG_ETH || !s->eth_concept || s->err)
			continue;
		p = prev ? rdiag_samples_find(prev, s->dev, s->port, s->name) : NULL;
		memset(&r, 0, sizeof(r));
		rdiag_rate_samples(p && !p->err ? p : NULL, s, &r);
		if (r.state != RDIAG_RATE_VALID)
			rec_edge_keep(&storms, 0, s);	/* says nothing: a storm stays a storm */
		else if (storm(s, &r, why, sizeof(why)) && rec_edge_breach(&storms, 0, s))
			rec_trigger(why, t);
	}
	rec_edge_end(&storms);
}

void rec_pause_free(void)
{
	rec_edge_free(&storms);
}
