/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop history (tui/hist.c) and the model's rings: the ring wrapping, the scale, the
 * mapping of rates to the 8 sparkline levels (0 the lowest, the max the highest), a sample
 * without a valid rate (first, NaN, a counter reset, a port that vanished) being a gap and not
 * a zero, the rings of one model lining up by age, and the graph series of a concept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "hist.h"
#include "model.h"

#define SEC 1000000000ull

static void test_ring(void)
{
	struct rt_hist h;
	double v[8];
	int i;

	rt_hist_init(&h);
	EXPECT_EQ(rt_hist_len(&h), 0);
	EXPECT_TRUE(isnan(rt_hist_at(&h, 0)));
	/* fewer held than asked: the front is gaps, the samples at the right end */
	rt_hist_push(&h, 1);
	rt_hist_push(&h, 2);
	EXPECT_EQ(rt_hist_last(&h, 4, v), 2);
	EXPECT_TRUE(isnan(v[0]) && isnan(v[1]));
	EXPECT_DBL(v[2], 1, 0);
	EXPECT_DBL(v[3], 2, 0);
	/* wrap: RT_HIST_CAP + 10 samples keep the last RT_HIST_CAP, newest at age 0 */
	rt_hist_init(&h);
	for (i = 0; i < RT_HIST_CAP + 10; i++)
		rt_hist_push(&h, i);
	EXPECT_EQ(rt_hist_len(&h), RT_HIST_CAP);
	EXPECT_DBL(rt_hist_at(&h, 0), RT_HIST_CAP + 9, 0);
	EXPECT_DBL(rt_hist_at(&h, RT_HIST_CAP - 1), 10, 0);
	EXPECT_TRUE(isnan(rt_hist_at(&h, RT_HIST_CAP)));
	EXPECT_EQ(rt_hist_last(&h, 3, v), 3);
	EXPECT_DBL(v[0], RT_HIST_CAP + 7, 0);
	EXPECT_DBL(v[2], RT_HIST_CAP + 9, 0);
	/* invalid rates are gaps */
	rt_hist_push(&h, NAN);
	rt_hist_push(&h, -1);
	rt_hist_push(&h, INFINITY);
	EXPECT_TRUE(isnan(rt_hist_at(&h, 0)) && isnan(rt_hist_at(&h, 1)) &&
		    isnan(rt_hist_at(&h, 2)));
	EXPECT_EQ(rt_hist_len(&h), RT_HIST_CAP);
}

static void test_levels(void)
{
	double v[] = { 0, NAN, 1, 50, 100, 200, 99.9 };
	char buf[128];
	int l;

	/* 0 -> lowest, max -> highest, above max clamps, a gap is -1 */
	EXPECT_EQ(rt_hist_level(0, 100), 0);
	EXPECT_EQ(rt_hist_level(100, 100), RT_HIST_LEVELS - 1);
	EXPECT_EQ(rt_hist_level(250, 100), RT_HIST_LEVELS - 1);
	EXPECT_EQ(rt_hist_level(NAN, 100), -1);
	/* anything that moved is above the lowest; half way is in the middle */
	EXPECT_EQ(rt_hist_level(0.001, 100), 1);
	EXPECT_EQ(rt_hist_level(50, 100), 4);
	EXPECT_EQ(rt_hist_level(99, 100), 7);
	EXPECT_EQ(rt_hist_level(90, 100), 6);
	/* a max of 0 (nothing moved): everything on the lowest level */
	EXPECT_EQ(rt_hist_level(0, 0), 0);
	EXPECT_EQ(rt_hist_level(5, 0), 0);
	/* monotonic over the range */
	for (l = 0; l <= 100; l++)
		if (rt_hist_level(l, 100) > rt_hist_level(l + 1, 100))
			break;
	EXPECT_EQ(l, 101);
	/* graph heights in eighths of rows */
	EXPECT_EQ(rt_hist_height(100, 100, 4), 31);
	EXPECT_EQ(rt_hist_height(0, 100, 4), 0);
	EXPECT_EQ(rt_hist_height(NAN, 100, 4), -1);
	EXPECT_EQ(rt_hist_height(50, 100, 4), 16);

	/* the scale is the largest valid value; gaps do not count */
	EXPECT_DBL(rt_hist_max(v, 7), 200, 0);
	EXPECT_DBL(rt_hist_max(v, 2), 0, 0);
	/* glyphs: UTF-8 blocks and the ASCII ramp; the gap is a space in both */
	EXPECT_STREQ(rt_spark(buf, sizeof(buf), v, 6, 200, true),
		     "\u2581 \u2582\u2583\u2585\u2588");
	EXPECT_STREQ(rt_spark(buf, sizeof(buf), v, 6, 200, false), "_ .:=#");
	EXPECT_STREQ(rt_spark_glyph(0, false), "_");
	EXPECT_STREQ(rt_spark_glyph(7, false), "#");
	EXPECT_STREQ(rt_spark_glyph(7, true), "\u2588");
	/* whole glyphs only when the buffer is short: 2 blocks of 3 bytes fit in 7 */
	EXPECT_STREQ(rt_spark(buf, 7, v + 3, 3, 200, true), "\u2583\u2585");
	/* the scale beside it, with the unit */
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 1234, "packets"), "1234 pkt/s");
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 12345, "packets"), "12.3k pkt/s");
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 2.5, "events"), "2.5/s");
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 2e6, "bytes"), "2.00MB/s");
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 2e6, "4-octet words"), "2.00MB/s");
	EXPECT_STREQ(rt_hist_scale(buf, sizeof(buf), 0, ""), "0/s");
}

/* ---- the model's rings --------------------------------------------------------------- */

struct fake {
	const char *name;
	uint64_t value;
};

/* one snapshot of the given ports (dev names) with the same counters, at t seconds; a NULL
 * dev is left out (vanished) */
static void ingest(struct rt_model *m, double t, const char *const *devs, size_t nd,
		   const struct fake *c, size_t nc)
{
	struct rt_snap s = { 0 };
	size_t i, j, k = 0;

	s.t_ns = (uint64_t)(t * SEC);
	s.ports = calloc(nd, sizeof(*s.ports));
	for (i = 0; i < nd; i++) {
		struct rt_snap_port *p;

		if (!devs[i])
			continue;
		p = &s.ports[k++];
		snprintf(p->dev, sizeof(p->dev), "%s", devs[i]);
		p->port = 1;
		snprintf(p->state, sizeof(p->state), "ACTIVE");
		p->t_ns = s.t_ns;
		p->ctr = calloc(nc, sizeof(*p->ctr));
		p->nctr = nc;
		for (j = 0; j < nc; j++) {
			p->ctr[j].name = c[j].name;
			p->ctr[j].value = c[j].value;
			rt_meta_lookup(&p->ctr[j].meta, c[j].name, "rxe", RDIAG_ORIG_SYSFS_HW);
		}
	}
	s.nports = k;
	EXPECT_EQ(rt_model_ingest(m, &s), 0);
	rt_snap_free(&s);
}

static const struct rt_ctr *find(const struct rt_port *p, const char *name)
{
	size_t i;

	for (i = 0; p && i < p->nctr; i++)
		if (!strcmp(p->ctr[i].name, name))
			return &p->ctr[i];
	return NULL;
}

static void test_model(void)
{
	static const char *const both[] = { "rxe0", "rxe1" }, *const one[] = { "rxe0", NULL };
	struct fake a[] = { { "sent_pkts", 1000 }, { "rcvd_pkts", 0 } };
	struct rt_model m;
	const struct rt_port *p0, *p1;
	const struct rt_ctr *c;
	double v[6];
	char buf[64];

	rt_model_init(&m);
	ingest(&m, 1, both, 2, a, 2);			/* first: no rate, a gap */
	a[0].value = 1100;				/* +100/s */
	ingest(&m, 2, both, 2, a, 2);
	a[0].value = 1300;				/* +200/s */
	ingest(&m, 3, both, 2, a, 2);
	a[0].value = 1300;				/* 0/s: a zero, not a gap */
	ingest(&m, 4, both, 2, a, 2);
	a[0].value = 5;					/* went backwards: reset, a gap */
	ingest(&m, 5, both, 2, a, 2);
	a[0].value = 405;				/* +400/s */
	ingest(&m, 6, both, 2, a, 2);
	p0 = rt_model_find(&m, "rxe0", 1);
	c = find(p0, "sent_pkts");
	EXPECT_TRUE(c && c->hist);
	EXPECT_EQ(rt_hist_len(c->hist), 6);
	rt_hist_last(c->hist, 6, v);
	EXPECT_TRUE(isnan(v[0]));			/* first */
	EXPECT_DBL(v[1], 100, 1e-6);
	EXPECT_DBL(v[2], 200, 1e-6);
	EXPECT_DBL(v[3], 0, 0);				/* zero stays zero */
	EXPECT_TRUE(isnan(v[4]));			/* the reset is a gap */
	EXPECT_DBL(v[5], 400, 1e-6);
	EXPECT_STREQ(rt_spark(buf, sizeof(buf), v, 6, rt_hist_max(v, 6), false), " :=_ #");
	/* the port's packet rate (rx + tx) follows; concept series take the counters of it */
	EXPECT_TRUE(rt_port_series(p0, NULL, false, 6, v, NULL));
	EXPECT_TRUE(isnan(v[0]));
	EXPECT_DBL(v[2], 200, 1e-6);
	EXPECT_TRUE(rt_port_series(p0, "tx_packets", true, 6, v, NULL));
	EXPECT_DBL(v[5], 400, 1e-6);
	EXPECT_TRUE(!rt_port_series(p0, "no_such_counter", false, 6, v, NULL));

	/* rxe1 vanishes: gaps from then on, and the rings still advance together */
	a[0].value = 505;
	ingest(&m, 7, one, 2, a, 2);
	p0 = rt_model_find(&m, "rxe0", 1);
	p1 = rt_model_find(&m, "rxe1", 1);
	EXPECT_TRUE(p1 && p1->gone);
	EXPECT_EQ(rt_hist_len(find(p1, "sent_pkts")->hist), 7);
	EXPECT_EQ(rt_hist_len(find(p0, "sent_pkts")->hist), 7);
	EXPECT_TRUE(isnan(rt_hist_at(find(p1, "sent_pkts")->hist, 0)));
	EXPECT_TRUE(isnan(rt_hist_at(&p1->pkts, 0)));
	EXPECT_DBL(rt_hist_at(find(p0, "sent_pkts")->hist, 0), 100, 1e-6);
	rt_model_free(&m);
}

int main(void)
{
	test_ring();
	test_levels();
	test_model();
	return tap_done();
}
