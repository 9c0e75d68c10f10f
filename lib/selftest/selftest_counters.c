/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Counter deltas for the self-tests, by catalogue concept, through the counters module
 * (rdmadiag/counters.h): netlink when the kernel answers (uncached), sysfs hw_counters
 * otherwise (cached for hw_counters/lifespan ms, hence rd_ctr_settle()).  A concept is
 * matched with its direction, because some drivers count the same concept at both ends
 * (mlx5 req_/resp_remote_access_errors). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/catalog.h"
#include "rdmadiag/counters.h"
#include "internal.h"

struct rd_ctr_snap {
	char dev[64];
	uint32_t port;
	struct rdiag_samples *s;
};

static struct rdiag_counters *handle(struct rdiag_selftest *st)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_AUTO };

	if (!st->ctr && !st->ctr_failed && rdiag_counters_open(&st->ctr, &o))
		st->ctr_failed = true;
	return st->ctr;
}

void rd_ctr_close(struct rdiag_selftest *st)
{
	rdiag_counters_close(st->ctr);
	st->ctr = NULL;
}

struct rd_ctr_snap *rd_ctr_snap(struct rdiag_selftest *st, const struct rd_port *p)
{
	struct rdiag_filter f = { .dev = p->dev, .port = (uint32_t)p->port };
	struct rdiag_counters *c = handle(st);
	struct rd_ctr_snap *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	snprintf(s->dev, sizeof(s->dev), "%s", p->dev);
	s->port = (uint32_t)p->port;
	if (!c || rdiag_counters_sample(c, &f, &s->s)) {
		s->s = NULL;	/* no counters: every concept reads "not counted" */
		return s;
	}
	for (i = 0; i < rdiag_samples_count(s->s); i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s->s, i);

		if (x->cache_ms > st->ctr_cache_ms)
			st->ctr_cache_ms = x->cache_ms;
	}
	return s;
}

void rd_ctr_snap_free(struct rd_ctr_snap *s)
{
	if (!s)
		return;
	rdiag_samples_free(s->s);
	free(s);
}

/* the n-th counter (from 0) of the snapshot with this concept and direction (NONE: any),
 * or NULL */
static const struct rdiag_sample *nth_of_concept(const struct rd_ctr_snap *s, const char *concept,
						int dir, size_t nth)
{
	size_t i;

	for (i = 0; s && s->s && i < rdiag_samples_count(s->s); i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s->s, i);

		if (x->err || !x->cat || !x->cat->concept || strcmp(x->cat->concept, concept))
			continue;
		if (dir != RDIAG_DIR_NONE && (int)x->cat->direction != dir)
			continue;
		if (!nth--)
			return x;
	}
	return NULL;
}

/* the next counter slot of r, filled with x (before) and y (after) */
static struct rdiag_st_counter *add_counter(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
					    const struct rdiag_sample *x,
					    const struct rdiag_sample *y, const char *concept)
{
	struct rdiag_st_counter *c = &r->counters[r->ncounters++];

	memset(c, 0, sizeof(*c));
	snprintf(c->dev, sizeof(c->dev), "%.31s", a->dev);
	c->port = a->port;
	snprintf(c->name, sizeof(c->name), "%.47s", x->name);
	snprintf(c->concept, sizeof(c->concept), "%.39s", concept);
	c->before = x->value;
	c->after = y->value;
	c->delta = (int64_t)(c->after - c->before);
	return c;
}

struct rdiag_st_counter *rd_ctr_delta(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
				      const struct rd_ctr_snap *b, const char *concept, int dir)
{
	const struct rdiag_sample *x, *y;

	if (!a || !b || r->ncounters >= RDIAG_ST_MAX_COUNTERS)
		return NULL;
	x = nth_of_concept(a, concept, dir, 0);
	if (!x)
		return NULL;
	y = rdiag_samples_find(b->s, x->dev, x->port, x->name);
	if (!y || y->err)
		return NULL;
	return add_counter(r, a, x, y, concept);
}

size_t rd_ctr_sum(const struct rd_ctr_snap *a, const struct rd_ctr_snap *b, const char *concept,
		  int dir, int64_t *sum)
{
	const struct rdiag_sample *x, *y;
	size_t n = 0;

	*sum = 0;
	if (!a || !b)
		return 0;
	while ((x = nth_of_concept(a, concept, dir, n))) {
		y = rdiag_samples_find(b->s, x->dev, x->port, x->name);
		if (y && !y->err)
			*sum += (int64_t)(y->value - x->value);
		n++;
	}
	return n;
}

size_t rd_ctr_delta_all(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
			const struct rd_ctr_snap *b, const char *concept, int dir,
			struct rdiag_st_counter **first)
{
	const struct rdiag_sample *x, *y;
	size_t n = 0, i = 0;

	*first = r->ncounters < RDIAG_ST_MAX_COUNTERS ? &r->counters[r->ncounters] : NULL;
	if (!a || !b)
		return 0;
	while ((x = nth_of_concept(a, concept, dir, i++))) {
		y = rdiag_samples_find(b->s, x->dev, x->port, x->name);
		if (!y || y->err || r->ncounters >= RDIAG_ST_MAX_COUNTERS)
			continue;
		add_counter(r, a, x, y, concept);
		n++;
	}
	if (!n)
		*first = NULL;
	return n;
}

/* One event may be counted by several counters of a concept at one end (bnxt_re has a
 * responder counter per cause of a remote access error), but by each at most once: each of
 * the n counters is asserted against 0..hi (lo..hi when it is the only one) and their sum
 * against lo..hi*n (lo..hi for one). */
bool rd_ctr_expect_sum(struct rdiag_st_counter *c, size_t n, int64_t lo, int64_t hi,
		       int64_t *sum)
{
	size_t i;
	bool ok = true;

	*sum = 0;
	for (i = 0; i < n; i++) {
		c[i].checked = true;
		c[i].expect_min = n == 1 ? lo : 0;
		c[i].expect_max = hi;
		c[i].ok = c[i].delta >= c[i].expect_min && c[i].delta <= hi;
		ok &= c[i].ok;
		*sum += c[i].delta;
	}
	return n && ok && *sum >= lo && *sum <= hi * (int64_t)n;
}

/* netlink values are fresh; sysfs ones may be cache_ms old: wait that long (and a margin)
 * so that a read now reflects everything that happened before.  Before the first read the
 * source is unknown, so assume the sysfs default (10 ms, 12 at HZ=250). */
void rd_ctr_settle(struct rdiag_selftest *st, const struct rd_port *p)
{
	(void)p;
	rd_st_sleep_ms(st, (st->ctr_cache_ms ? (double)st->ctr_cache_ms : 20.0) + 10.0);
}

size_t rd_ctr_moved(struct rdiag_st_result *r, const struct rd_ctr_snap *a,
		    const struct rd_ctr_snap *b)
{
	size_t i, n = 0;

	for (i = 0; a && b && a->s && i < rdiag_samples_count(a->s); i++) {
		const struct rdiag_sample *x = rdiag_samples_get(a->s, i);
		const struct rdiag_sample *y;

		if (x->err || r->ncounters >= RDIAG_ST_MAX_COUNTERS)
			continue;
		y = rdiag_samples_find(b->s, x->dev, x->port, x->name);
		if (!y || y->err || y->value == x->value)
			continue;
		add_counter(r, a, x, y, x->cat && x->cat->concept ? x->cat->concept : "");
		n++;
	}
	return n;
}
