/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop history: the last RT_HIST_CAP rates of a counter (or of a port's packet rate) and
 * how they become a sparkline or a graph.
 *
 * The model pushes one sample per counter per ingested snapshot, so every ring of the model
 * advances together and sample k back is the same moment in all of them.  A sample without a
 * valid rate (the first one, a stale cached copy, a counter reset, a port that could not be
 * read or is gone) is a gap (NaN), never a zero: a sparkline shows a hole there, not a dip.
 * Nothing here touches curses: the views and the unit test share it. */
#ifndef RDMATOP_HIST_H
#define RDMATOP_HIST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_HIST_CAP 256		/* samples kept: wider than any sparkline or graph drawn */
#define RT_HIST_LEVELS 8	/* the heights of a sparkline glyph: 0 .. 7 */

struct rt_hist {
	float v[RT_HIST_CAP];	/* rates per second; NaN = a gap */
	uint16_t head;		/* where the next sample goes */
	uint16_t n;		/* samples held, up to RT_HIST_CAP */
};

void rt_hist_init(struct rt_hist *h);
/* one sample: a rate >= 0, or NaN / a negative / an infinite value for a gap */
void rt_hist_push(struct rt_hist *h, double rate);
size_t rt_hist_len(const struct rt_hist *h);
/* sample age back (0 = the newest); NaN beyond what is held */
double rt_hist_at(const struct rt_hist *h, size_t age);
/* the last n samples oldest first into out[n]; when fewer are held, the front is gaps (so
 * series of the same model line up at their right end); returns how many are real */
size_t rt_hist_last(const struct rt_hist *h, size_t n, double *out);

/* the largest valid value of v[0..n-1] (0 when none: all gaps or all zero) */
double rt_hist_max(const double *v, size_t n);
/* the height of v against max: -1 for a gap (NaN), 0 for 0 (and anything when max is 0),
 * RT_HIST_LEVELS - 1 for max and above, and at least 1 for any value above 0 */
int rt_hist_level(double v, double max);
/* the same on a scale of rows * RT_HIST_LEVELS eighths (a graph of rows lines): -1 gap */
int rt_hist_height(double v, double max, int rows);

/* the glyph of a level: UTF-8 blocks U+2581..U+2588 or ASCII "_.:-=+*#"; a gap is a space */
const char *rt_spark_glyph(int level, bool utf8);
/* v[0..n-1] as a sparkline scaled to max into buf (NUL-terminated, as many glyphs as fit);
 * returns buf */
const char *rt_spark(char *buf, size_t len, const double *v, size_t n, double max, bool utf8);
/* the scale beside a sparkline: max per second with the counter's unit ("1.23k pkt/s",
 * "12.3MB/s", "40/s") */
const char *rt_hist_scale(char *buf, size_t len, double max, const char *unit);

/* whether the locale's character set is UTF-8 (after setlocale(LC_CTYPE, "")) */
bool rt_locale_utf8(void);

#endif
