/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop thresholds: the library's rule file (rdiag_threshold_*), evaluated per counter of
 * the model.  Same file format as rdmastat --thresholds. */
#ifndef RDMATOP_THRESH_H
#define RDMATOP_THRESH_H
#include <stdbool.h>
#include <stddef.h>

struct rt_ctr;
struct rt_thresholds;

/* 0, or -errno with err holding "line N: ..." or the open error */
int rt_thresh_load(struct rt_thresholds **out, const char *path, char *err, size_t errlen);
int rt_thresh_parse(struct rt_thresholds **out, const char *buf, char *err, size_t errlen);
void rt_thresh_free(struct rt_thresholds *t);
size_t rt_thresh_count(const struct rt_thresholds *t);
/* does any rule fire on this counter of dev/port?  Sets c->breach_line and c->observed. */
bool rt_thresh_match(const struct rt_thresholds *t, const char *dev, unsigned port,
		     struct rt_ctr *c);
/* the rules' keys that name Ethernet statistics (eth_words.h: a driver's ethtool -S name or a
 * catalogue concept), at most max of them, into keys; how many */
size_t rt_thresh_eth_keys(const struct rt_thresholds *t, const char **keys, size_t max);
/* "rnr_nak_received > 10/s" of the rule on that line, for messages; "" if none */
const char *rt_thresh_rule_text(const struct rt_thresholds *t, unsigned line, char *buf,
				size_t len);

#endif
