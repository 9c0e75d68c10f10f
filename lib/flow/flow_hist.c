/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Latency (and size) distribution: exact quantiles for small n, a log-bucket histogram past it.
 *
 * The first RD_HIST_EXACT values are kept as they are, so the median and p99 of up to that many
 * samples are samples (nearest rank).  The next value moves them into buckets and frees them:
 * values below 8 have a bucket each; above, every power of two is split into 8 buckets, so a
 * quantile is then off by at most half a bucket (< 6.25 %).  min, max and the mean stay exact.
 * Memory: at most RD_HIST_EXACT * 8 bytes of samples or RD_HIST_BUCKETS * 4 bytes of buckets
 * (both 1 KiB), never both for longer than the switch. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

unsigned int rd_hist_bucket(uint64_t v)
{
	unsigned int e, b;

	if (v < RD_HIST_SUB)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	b = (e - RD_HIST_SUB_BITS + 1) * RD_HIST_SUB +
	    (unsigned int)((v >> (e - RD_HIST_SUB_BITS)) & (RD_HIST_SUB - 1));
	return b < RD_HIST_BUCKETS ? b : RD_HIST_BUCKETS - 1;
}

uint64_t rd_hist_bucket_lo(unsigned int b)
{
	unsigned int e, m;

	if (b < RD_HIST_SUB)
		return b;
	e = b / RD_HIST_SUB + RD_HIST_SUB_BITS - 1;
	m = b % RD_HIST_SUB;
	return (uint64_t)(RD_HIST_SUB + m) << (e - RD_HIST_SUB_BITS);
}

uint64_t rd_hist_bucket_hi(unsigned int b)
{
	unsigned int e, m;

	if (b < RD_HIST_SUB)
		return b + 1;
	e = b / RD_HIST_SUB + RD_HIST_SUB_BITS - 1;
	m = b % RD_HIST_SUB;
	return (uint64_t)(RD_HIST_SUB + m + 1) << (e - RD_HIST_SUB_BITS);
}

/* past RD_HIST_EXACT samples: into buckets; -ENOMEM leaves the samples as they were */
static int to_buckets(struct rd_hist *h)
{
	h->b = calloc(RD_HIST_BUCKETS, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nv; i++)
		h->b[rd_hist_bucket(h->v[i])]++;
	free(h->v);
	h->v = NULL;
	h->nv = h->capv = 0;
	return 0;
}

static int keep_sample(struct rd_hist *h, uint64_t v)
{
	if (h->nv == h->capv) {
		uint32_t nc = h->capv ? h->capv * 2 : 4;
		uint64_t *q;

		if (nc > RD_HIST_EXACT)
			nc = RD_HIST_EXACT;
		q = realloc(h->v, nc * sizeof(*q));
		if (!q)
			return -ENOMEM;
		h->v = q;
		h->capv = nc;
	}
	h->v[h->nv++] = v;
	return 0;
}

int rd_hist_add(struct rd_hist *h, uint64_t v)
{
	int r = 0;

	if (!h->b && h->nv == RD_HIST_EXACT)
		r = to_buckets(h);
	if (!r)
		r = h->b ? (h->b[rd_hist_bucket(v)]++, 0) : keep_sample(h, v);
	/* n, min, max and the sum count every value, even one that found no room */
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
	return r;
}

void rd_hist_free(struct rd_hist *h)
{
	if (!h)
		return;
	free(h->v);
	free(h->b);
	memset(h, 0, sizeof(*h));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank: the value at rank ceil(q * n) of the sorted values, 1 <= rank <= n */
static uint64_t rank_of(uint64_t n, double q)
{
	uint64_t rank = (uint64_t)ceil(q * (double)n - 1e-9);

	return rank < 1 ? 1 : rank > n ? n : rank;
}

uint64_t rd_hist_quantile(const struct rd_hist *h, double q)
{
	uint64_t rank, seen = 0, v, sorted[RD_HIST_EXACT];
	unsigned int i;

	if (!h->n)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	if (!h->b) {
		/* exact: the samples themselves (all of them, unless memory ran out) */
		if (!h->nv)
			return h->min;
		memcpy(sorted, h->v, h->nv * sizeof(*sorted));
		qsort(sorted, h->nv, sizeof(*sorted), cmp_u64);
		return sorted[rank_of(h->nv, q) - 1];
	}
	rank = rank_of(h->n, q);
	for (i = 0; i < RD_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == RD_HIST_BUCKETS)
		return h->max;
	v = rd_hist_bucket_lo(i) + (rd_hist_bucket_hi(i) - rd_hist_bucket_lo(i)) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void rd_hist_latency(const struct rd_hist *h, struct rdiag_latency *out)
{
	memset(out, 0, sizeof(*out));
	if (!h || !h->n)
		return;
	out->n = h->n;
	out->min_ns = h->min;
	out->max_ns = h->max;
	out->median_ns = rd_hist_quantile(h, 0.5);
	out->p99_ns = rd_hist_quantile(h, 0.99);
	out->mean_ns = h->sum / (double)h->n;
}
