/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop thresholds; see thresh.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/threshold.h>

#include "common/eth_words.h"
#include "model.h"
#include "thresh.h"

struct rt_thresholds {
	struct rdiag_thresholds *t;
};

static int wrap(struct rt_thresholds **out, struct rdiag_thresholds *t)
{
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		rdiag_threshold_close(t);
		return -ENOMEM;
	}
	(*out)->t = t;
	return 0;
}

int rt_thresh_load(struct rt_thresholds **out, const char *path, char *err, size_t errlen)
{
	struct rdiag_thresholds *t = NULL;
	int r;

	if (err && errlen)
		err[0] = 0;
	r = rdiag_threshold_open(&t, &(const struct rdiag_threshold_opts){ .path = path });
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", rdiag_threshold_errmsg(NULL));
		return r;
	}
	return wrap(out, t);
}

int rt_thresh_parse(struct rt_thresholds **out, const char *buf, char *err, size_t errlen)
{
	struct rdiag_thresholds *t = NULL;
	int r;

	if (err && errlen)
		err[0] = 0;
	r = rdiag_threshold_open(&t, &(const struct rdiag_threshold_opts){ .buf = buf,
								     .len = strlen(buf) });
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", rdiag_threshold_errmsg(NULL));
		return r;
	}
	return wrap(out, t);
}

void rt_thresh_free(struct rt_thresholds *t)
{
	if (!t)
		return;
	rdiag_threshold_close(t->t);
	free(t);
}

size_t rt_thresh_count(const struct rt_thresholds *t)
{
	return t && t->t ? t->t->n : 0;
}

bool rt_thresh_match(const struct rt_thresholds *t, const char *dev, unsigned port,
		     struct rt_ctr *c)
{
	struct rdiag_sample s;
	struct rdiag_breach *list = NULL;
	size_t n = 0;
	int r;

	if (!t || !t->t || !t->t->n)
		return false;
	rt_meta_sample(&s, &c->meta, dev, port, c->name, c->raw, c->ts_ns);
	/* the rate only counts when the library called it valid; a baseline reset ('r') does
	 * not change absolute rules, which compare the kernel's own value */
	r = rdiag_threshold_eval(t->t, &s, c->last.state == RDIAG_RATE_VALID ? &c->last : NULL,
				 &list, &n);
	if (r > 0 && n) {
		c->breach_line = list[0].rule->line;
		c->observed = list[0].observed;
	}
	free(list);
	return r > 0;
}

size_t rt_thresh_eth_keys(const struct rt_thresholds *t, const char **keys, size_t max)
{
	size_t i, n = 0;

	for (i = 0; t && t->t && i < t->t->n && n < max; i++)
		if (eth_word_known(t->t->rule[i].key))
			keys[n++] = t->t->rule[i].key;
	return n;
}

const char *rt_thresh_rule_text(const struct rt_thresholds *t, unsigned line, char *buf,
				size_t len)
{
	size_t i;

	buf[0] = 0;
	for (i = 0; t && t->t && i < t->t->n; i++) {
		const struct rdiag_threshold_rule *r = &t->t->rule[i];
		char where[96] = "";

		if (r->line != line)
			continue;
		if (r->dev && r->port)
			snprintf(where, sizeof(where), "@%s/%u", r->dev, r->port);
		else if (r->dev)
			snprintf(where, sizeof(where), "@%s", r->dev);
		snprintf(buf, len, "%s%s > %s%g%s", r->key, where,
			 r->kind == RDIAG_THR_DELTA ? "+" : "", r->limit,
			 r->kind == RDIAG_THR_RATE ? "/s" : "");
		break;
	}
	return buf;
}
