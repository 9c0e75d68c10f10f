/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record --thresholds FILE: the rules of rdmastat's threshold file (rdmadiag/
 * threshold.h, parsed and evaluated by the library) on every counter snapshot, with the
 * delta and rate since the previous snapshot of the same counter as rdmastat computes them.
 * Edge-triggered: a (rule, port, counter) that starts breaching writes one marker and copies
 * the ring; it fires again only after a snapshot in which it did not breach. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/esc.h"
#include "common/tool.h"
#include "rdmadiag/rate.h"
#include "rdmadiag/ring.h"
#include "rdmadiag/threshold.h"
#include "record.h"

static struct rdiag_thresholds *rules;
static const char *rules_path;
static struct rec_edges breaching;
static bool rules_checked;

void rec_thresholds_load(const char *path)
{
	const struct rdiag_threshold_opts to = { .path = path };
	int rc = rdiag_threshold_open(&rules, &to);

	if (rc == -EINVAL)
		tool_die("%s: %s", path, rdiag_threshold_errmsg(NULL));
	if (rc < 0)
		tool_die("cannot read '%s': %s", path, strerror(-rc));
	rules_path = path;
}

/* "threshold line 3 (rcvd_pkts > +1000/s): rxe0/1 rcvd_pkts rate 1234.5/s" */
static void fire(const struct rdiag_breach *b, uint64_t t)
{
	const struct rdiag_threshold_rule *r = b->rule;
	const char *unit = r->kind == RDIAG_THR_RATE ? "/s" : "";
	char why[512];

	/* names as the kernel spells them: dump escapes the marker's text */
	snprintf(why, sizeof(why), "threshold line %u (%s%s%s > %s%.6g%s): %s/%u %s %s %.6g%s",
		 r->line, r->key, r->dev ? "@" : "", r->dev ? r->dev : "",
		 r->kind == RDIAG_THR_DELTA ? "+" : "", r->limit, unit, b->sample->dev,
		 b->sample->port, b->sample->name, rdiag_threshold_kind_name(r->kind),
		 b->observed, unit);
	rec_trigger(why, t);
}

/* a rule that selects no counter can never breach: one warning each, at the first snapshot */
static void check_rules(const struct rdiag_samples *set)
{
	size_t i;

	for (i = 0; i < rules->n; i++) {
		if (rdiag_threshold_matches_none(&rules->rule[i], set))
			tool_warn("%s: line %u: '%s' matches no counter; the rule cannot breach",
				  rules_path, rules->rule[i].line, tool_esc_tmp(rules->rule[i].key));
	}
}

/* a delta or rate rule on a sample without a VALID rate (stale, first, reset, unreadable)
 * says nothing: what breached stays breaching rather than re-arming and firing twice */
static void keep_unevaluated(const struct rdiag_sample *s, const struct rdiag_rate *r)
{
	size_t i;

	for (i = 0; i < rules->n; i++) {
		if ((!s->err && (rules->rule[i].kind == RDIAG_THR_ABSOLUTE ||
				 r->state == RDIAG_RATE_VALID)) ||
		    !rdiag_threshold_matches(&rules->rule[i], s))
			continue;
		rec_edge_keep(&breaching, i, s);
	}
}

void rec_thresholds_check(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
			  uint64_t t)
{
	struct rdiag_breach *b = NULL;
	size_t nb = 0, i, n = rdiag_samples_count(cur);

	if (!rules)
		return;
	if (!rules_checked) {
		rules_checked = true;
		check_rules(cur);
	}
	rec_edge_begin(&breaching);
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(cur, i);
		const struct rdiag_sample *p = prev ? rdiag_samples_find(prev, s->dev, s->port,
									 s->name) : NULL;
		struct rdiag_rate r;

		memset(&r, 0, sizeof(r));
		if (!s->err)
			rdiag_rate_samples(p && !p->err ? p : NULL, s, &r);
		keep_unevaluated(s, &r);
		if (rdiag_threshold_eval(rules, s, &r, &b, &nb) < 0)
			break;	/* out of memory: what was found is still judged */
	}
	for (i = 0; i < nb; i++)
		if (rec_edge_breach(&breaching, (size_t)(b[i].rule - rules->rule), b[i].sample))
			fire(&b[i], t);
	free(b);
	rec_edge_end(&breaching);	/* re-arm what no longer breaches */
}

void rec_thresholds_free(void)
{
	rec_edge_free(&breaching);
	rdiag_threshold_close(rules);
	rules = NULL;
}
