/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop's narrow view of the library's catalogue and rate function.
 *
 * The model never subtracts counters itself: rt_rate_step() hands the previous and the new
 * sample to rdiag_rate_compute() (with the spec rdiag_rate_spec_for() derives from the
 * catalogue: width, wrap/saturate, scale, cache age) and copies out its verdict. */
#ifndef RDMATOP_RATE_GLUE_H
#define RDMATOP_RATE_GLUE_H
#include <stdbool.h>
#include <stdint.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/rate.h>

enum rt_sev { RT_SEV_INFO = 0, RT_SEV_WARN = 1, RT_SEV_ERR = 2 };

enum rt_rate_state {
	RT_RATE_FIRST = RDIAG_RATE_FIRST,	/* no previous sample: no rate yet */
	RT_RATE_VALID = RDIAG_RATE_VALID,
	RT_RATE_STALE = RDIAG_RATE_STALE,	/* cached copy / no time passed: no data */
	RT_RATE_RESET = RDIAG_RATE_RESET,	/* went backwards: reset, new base */
};

/* what the catalogue says about one counter (cat NULL: unknown counter) */
struct rt_meta {
	const struct rdiag_catalog_entry *cat;
	enum rdiag_origin origin;
	uint32_t cache_ms;	/* sysfs hw_counters lifespan the value may be cached for */
	/* an Ethernet statistic's catalogue facts (RDIAG_ORIG_ETH; static data), for threshold
	 * rules naming a concept ("prio3_pause"); eth_concept NULL otherwise */
	const char *eth_concept;
	int eth_prio;
	const struct rdiag_eth_catalog_entry *eth_cat;
};

/* the previous sample kept per counter */
struct rt_rate_prev {
	struct rdiag_rate_point pt;
	bool valid;
};

/* feed one new raw sample; updates prev (kept as is when the verdict is STALE, so the next
 * interval measures from the last fresh value) */
void rt_rate_step(struct rt_rate_prev *prev, const struct rt_meta *meta, uint64_t raw,
		  uint64_t ts_ns, struct rdiag_rate *out);
/* raw value in display units (x4 for PMA data words) */
uint64_t rt_meta_scale(const struct rt_meta *meta, uint64_t raw);
/* our fields from a library sample */
void rt_meta_from_sample(struct rt_meta *meta, const struct rdiag_sample *s);
/* fill a library sample from our fields (for spec and threshold calls) */
void rt_meta_sample(struct rdiag_sample *s, const struct rt_meta *meta, const char *dev,
		    unsigned port, const char *name, uint64_t raw, uint64_t ts_ns);

const char *rt_meta_concept(const struct rt_meta *meta);	/* "" unknown */
const char *rt_meta_meaning(const struct rt_meta *meta);	/* "" unknown */
const char *rt_meta_check(const struct rt_meta *meta);		/* what to check, "" */
const char *rt_meta_unit(const struct rt_meta *meta);		/* "packets" ... "" */
enum rt_sev rt_meta_sev(const struct rt_meta *meta);
bool rt_meta_gauge(const struct rt_meta *meta);
const char *rt_sev_name(enum rt_sev s);
const char *rt_rate_state_name(enum rt_rate_state s);
/* look a counter up by raw name (unit tests, synthetic snapshots) */
void rt_meta_lookup(struct rt_meta *meta, const char *name, const char *driver,
		    enum rdiag_origin origin);

#endif
