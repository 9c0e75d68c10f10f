/* Log-bucket latency histogram: median and p99 in bounded memory (no samples kept).
 * Values below 8 ns have a bucket each; above, every power of two is split into 8 buckets, so
 * a quantile is off by at most half a bucket (< 6.25 %), and min/max stay exact. */
#include <math.h>
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

void rd_hist_add(struct rd_hist *h, uint64_t v)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
	h->b[rd_hist_bucket(v)]++;
}

void rd_hist_merge(struct rd_hist *dst, const struct rd_hist *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	for (unsigned int i = 0; i < RD_HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t rd_hist_quantile(const struct rd_hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned int i;

	if (!h->n)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
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
