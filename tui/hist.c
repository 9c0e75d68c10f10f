/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop history rings and sparklines; see hist.h. */
#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fmt.h"
#include "hist.h"

void rt_hist_init(struct rt_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void rt_hist_push(struct rt_hist *h, double rate)
{
	if (!isfinite(rate) || rate < 0)
		rate = NAN;
	h->v[h->head] = (float)rate;
	h->head = (uint16_t)((h->head + 1) % RT_HIST_CAP);
	if (h->n < RT_HIST_CAP)
		h->n++;
}

size_t rt_hist_len(const struct rt_hist *h)
{
	return h->n;
}

double rt_hist_at(const struct rt_hist *h, size_t age)
{
	if (age >= h->n)
		return NAN;
	return h->v[(h->head + RT_HIST_CAP - 1 - age) % RT_HIST_CAP];
}

size_t rt_hist_last(const struct rt_hist *h, size_t n, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[n - 1 - i] = rt_hist_at(h, i);
	return n < h->n ? n : h->n;
}

double rt_hist_max(const double *v, size_t n)
{
	double max = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > max)
			max = v[i];
	return max;
}

int rt_hist_height(double v, double max, int rows)
{
	int top = rows * RT_HIST_LEVELS, l;

	if (isnan(v))
		return -1;
	if (!(max > 0) || v <= 0)
		return 0;
	if (v >= max)
		return top - 1;
	l = (int)lround(v / max * (top - 1));
	return l < 1 ? 1 : l;	/* anything that moved shows */
}

int rt_hist_level(double v, double max)
{
	return rt_hist_height(v, max, 1);
}

const char *rt_spark_glyph(int level, bool utf8)
{
	static const char *const blocks[RT_HIST_LEVELS] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const ascii[RT_HIST_LEVELS] = {
		"_", ".", ":", "-", "=", "+", "*", "#",
	};

	if (level < 0)
		return " ";
	if (level >= RT_HIST_LEVELS)
		level = RT_HIST_LEVELS - 1;
	return utf8 ? blocks[level] : ascii[level];
}

const char *rt_spark(char *buf, size_t len, const double *v, size_t n, double max, bool utf8)
{
	size_t i, off = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		const char *g = rt_spark_glyph(rt_hist_level(v[i], max), utf8);
		size_t gl = strlen(g);

		if (off + gl >= len)
			break;		/* whole glyphs only */
		memcpy(buf + off, g, gl);
		off += gl;
	}
	buf[off] = 0;
	return buf;
}

const char *rt_hist_scale(char *buf, size_t len, double max, const char *unit)
{
	char n[32];

	if (!strcmp(unit, "bytes") || !strcmp(unit, "4-octet words")) {
		/* PMA data words are scaled to bytes by the model */
		snprintf(buf, len, "%s/s", rt_fmt_bytes(n, sizeof(n), max));
		return buf;
	}
	if (max >= 100 && max < 10000)
		snprintf(n, sizeof(n), "%.0f", max);	/* whole: the scale stays narrow */
	else
		rt_fmt_si(n, sizeof(n), max);
	if (!strcmp(unit, "packets"))
		snprintf(buf, len, "%s pkt/s", n);
	else if (!strcmp(unit, "messages"))
		snprintf(buf, len, "%s msg/s", n);
	else
		snprintf(buf, len, "%s/s", n);
	return buf;
}

bool rt_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}
