/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop glue to the library's catalogue and rate function; see rate_glue.h. */
#include <string.h>

#include "rate_glue.h"

void rt_meta_sample(struct rdiag_sample *s, const struct rt_meta *meta, const char *dev,
		    unsigned port, const char *name, uint64_t raw, uint64_t ts_ns)
{
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->port = port;
	s->name = name;
	s->value = raw;
	s->origin = meta->origin;
	s->ts_ns = ts_ns;
	s->cache_ms = meta->cache_ms;
	s->cat = meta->cat;
	s->eth_concept = meta->eth_concept;
	s->eth_prio = meta->eth_concept ? meta->eth_prio : -1;
	s->eth_cat = meta->eth_cat;
}

void rt_meta_from_sample(struct rt_meta *meta, const struct rdiag_sample *s)
{
	meta->cat = s->cat;
	meta->origin = s->origin;
	meta->cache_ms = s->cache_ms;
	meta->eth_concept = s->eth_concept;
	meta->eth_prio = s->eth_prio;
	meta->eth_cat = s->eth_cat;
}

void rt_rate_step(struct rt_rate_prev *prev, const struct rt_meta *meta, uint64_t raw,
		  uint64_t ts_ns, struct rdiag_rate *out)
{
	struct rdiag_sample s;
	struct rdiag_rate_spec spec;
	struct rdiag_rate_point cur = { raw, ts_ns };

	rt_meta_sample(&s, meta, "", 0, "", raw, ts_ns);
	rdiag_rate_spec_for(&s, &spec);
	if (rdiag_rate_compute(&spec, prev->valid ? &prev->pt : NULL, &cur, out) < 0) {
		memset(out, 0, sizeof(*out));
		out->state = RDIAG_RATE_FIRST;
	}
	if (out->state != RDIAG_RATE_STALE) {
		prev->pt = cur;
		prev->valid = true;
	}
}

uint64_t rt_meta_scale(const struct rt_meta *meta, uint64_t raw)
{
	unsigned scale = meta->cat && meta->cat->scale > 1 ? meta->cat->scale : 1;

	return raw * scale;
}

const char *rt_meta_concept(const struct rt_meta *meta)
{
	return meta->cat && meta->cat->concept ? meta->cat->concept : "";
}

const char *rt_meta_meaning(const struct rt_meta *meta)
{
	return meta->cat && meta->cat->meaning ? meta->cat->meaning : "";
}

const char *rt_meta_check(const struct rt_meta *meta)
{
	return meta->cat && meta->cat->hint ? meta->cat->hint : "";
}

const char *rt_meta_unit(const struct rt_meta *meta)
{
	return meta->cat ? rdiag_unit_name(meta->cat->unit) : "";
}

enum rt_sev rt_meta_sev(const struct rt_meta *meta)
{
	if (!meta->cat)
		return RT_SEV_INFO;
	switch (meta->cat->severity) {
	case RDIAG_SEV_ERROR: return RT_SEV_ERR;
	case RDIAG_SEV_WARNING: return RT_SEV_WARN;
	case RDIAG_SEV_INFO: break;
	}
	return RT_SEV_INFO;
}

bool rt_meta_gauge(const struct rt_meta *meta)
{
	return meta->cat && meta->cat->behaviour == RDIAG_CNT_GAUGE;
}

const char *rt_sev_name(enum rt_sev s)
{
	switch (s) {
	case RT_SEV_ERR: return "error";
	case RT_SEV_WARN: return "warning";
	case RT_SEV_INFO: break;
	}
	return "info";
}

const char *rt_rate_state_name(enum rt_rate_state s)
{
	return rdiag_rate_state_name((enum rdiag_rate_state)s);
}

void rt_meta_lookup(struct rt_meta *meta, const char *name, const char *driver,
		    enum rdiag_origin origin)
{
	memset(meta, 0, sizeof(*meta));
	meta->origin = origin;
	meta->cat = rdiag_catalog_lookup(name, driver, origin);
}
