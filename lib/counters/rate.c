/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Rates between two samples of one counter: a pure function with explicit states. */
#include <errno.h>
#include <string.h>

#include <rdmadiag/rate.h>

int rdiag_rate_compute(const struct rdiag_rate_spec *spec, const struct rdiag_rate_point *prev,
		       const struct rdiag_rate_point *cur, struct rdiag_rate *out)
{
	uint64_t max, d, dt;
	uint32_t scale;

	memset(out, 0, sizeof(*out));
	if (!spec || !cur || spec->width == 0 || spec->width > 64)
		return -EINVAL;
	scale = spec->scale ? spec->scale : 1;
	max = spec->width == 64 ? UINT64_MAX : (1ull << spec->width) - 1;
	out->saturated = spec->behaviour == RDIAG_CNT_SATURATE && cur->value >= max;
	if (!prev) {
		out->state = RDIAG_RATE_FIRST;
		return 0;
	}
	if (cur->ts_ns <= prev->ts_ns) {
		out->state = RDIAG_RATE_STALE;	/* no time passed: no information */
		return 0;
	}
	dt = cur->ts_ns - prev->ts_ns;
	if (spec->behaviour == RDIAG_CNT_GAUGE) {
		/* a gauge has no rate; report the signed change as 0 and state valid */
		out->state = RDIAG_RATE_VALID;
		return 0;
	}
	if (cur->value == prev->value && dt < spec->cache_ns) {
		/* a cached read inside the cache lifetime: unchanged proves nothing */
		out->state = RDIAG_RATE_STALE;
		return 0;
	}
	if (cur->value >= prev->value) {
		d = cur->value - prev->value;
	} else if (spec->behaviour == RDIAG_CNT_WRAP && spec->width < 64 && prev->value <= max) {
		/* narrower than 64 bits: went past 2^width */
		d = (max - prev->value) + cur->value + 1;
		out->wrapped = true;
	} else {
		/* 64-bit or saturating counters never go backwards on their own: a reset */
		out->state = RDIAG_RATE_RESET;
		return 0;
	}
	out->state = RDIAG_RATE_VALID;
	if (d > UINT64_MAX / scale)
		out->delta = UINT64_MAX;
	else
		out->delta = d * scale;
	out->per_sec = (double)d * (double)scale * 1e9 / (double)dt;
	return 0;
}

void rdiag_rate_spec_for(const struct rdiag_sample *s, struct rdiag_rate_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->width = 64;
	spec->behaviour = RDIAG_CNT_WRAP;
	spec->scale = 1;
	if (s->cat) {
		spec->width = s->cat->width ? s->cat->width : 64;
		spec->behaviour = s->cat->behaviour;
		spec->scale = s->cat->scale ? s->cat->scale : 1;
	}
	spec->cache_ns = (uint64_t)s->cache_ms * 1000000ull;
}

int rdiag_rate_samples(const struct rdiag_sample *prev, const struct rdiag_sample *cur,
		       struct rdiag_rate *out)
{
	struct rdiag_rate_spec spec;
	struct rdiag_rate_point p, c;

	rdiag_rate_spec_for(cur, &spec);
	c.value = cur->value;
	c.ts_ns = cur->ts_ns;
	if (prev && !prev->err && !cur->err) {
		p.value = prev->value;
		p.ts_ns = prev->ts_ns;
		return rdiag_rate_compute(&spec, &p, &c, out);
	}
	return rdiag_rate_compute(&spec, NULL, &c, out);
}
