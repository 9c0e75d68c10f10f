/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/rate.h: deltas and rates between two samples of one counter.
 *
 * A pure function: no clock, no I/O.  Explicit states instead of guessing:
 *   FIRST  no previous sample: nothing to report yet;
 *   VALID  delta and rate are meaningful;
 *   STALE  the interval is shorter than the source's cache (sysfs hw_counters lifespan) and
 *          the value did not move, or time did not advance: "no data", NOT a zero rate;
 *   RESET  the value went backwards on a counter that does not wrap (64-bit or saturating):
 *          someone reset it (perfquery -R, driver reload); the new value is the new base.
 * Wrapping counters narrower than 64 bits (mlx5 Q counters, 32-bit) are unwrapped by width.
 * Saturating counters (IB PMA) at all-ones set `saturated`: the delta is a lower bound.
 * scale converts raw units (4-octet words) to unit-ful values (bytes) in delta and per_sec.
 */
#ifndef RDMADIAG_RATE_H
#define RDMADIAG_RATE_H
#include <stdbool.h>
#include <stdint.h>
#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rdiag_rate_state {
	RDIAG_RATE_FIRST = 0,
	RDIAG_RATE_VALID,
	RDIAG_RATE_STALE,
	RDIAG_RATE_RESET,
};

struct rdiag_rate_spec {
	uint8_t width;			/* 1..64 bits */
	enum rdiag_behaviour behaviour;
	uint32_t scale;			/* >= 1 */
	uint64_t cache_ns;		/* values may be this old (0 = fresh reads) */
};

struct rdiag_rate {
	enum rdiag_rate_state state;
	uint64_t delta;			/* scaled increase (0 unless VALID) */
	double per_sec;			/* scaled increase per second (0 unless VALID) */
	bool wrapped;			/* unwrapped across 2^width */
	bool saturated;			/* saturating counter at its maximum */
};

/* prev may be NULL (first sample).  Returns 0, or -EINVAL on a bad spec. */
struct rdiag_rate_point {
	uint64_t value;
	uint64_t ts_ns;
};
int rdiag_rate_compute(const struct rdiag_rate_spec *spec, const struct rdiag_rate_point *prev,
		       const struct rdiag_rate_point *cur, struct rdiag_rate *out);

/* the spec for a sample: catalogue width/behaviour/scale (64-bit wrapping when unknown) and
 * the sample's cache age */
void rdiag_rate_spec_for(const struct rdiag_sample *s, struct rdiag_rate_spec *spec);
/* convenience: compute between two samples of the same counter (prev may be NULL) */
int rdiag_rate_samples(const struct rdiag_sample *prev, const struct rdiag_sample *cur,
		       struct rdiag_rate *out);

const char *rdiag_rate_state_name(enum rdiag_rate_state s);	/* "first" "valid" ... */

#ifdef __cplusplus
}
#endif
#endif
