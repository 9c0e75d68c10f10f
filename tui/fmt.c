/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop number formatting; see fmt.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

static const char *scaled(char *buf, size_t len, double v, double base, const char *const *sfx,
			  bool whole)
{
	int i = 0;

	if (v < 0)
		v = 0;
	if (v < 10000) {
		/* small packet rates exactly: 3.5/s should not read as "4"; bytes are whole */
		if (whole || v == (double)(uint64_t)v)
			snprintf(buf, len, "%.0f%s", v, sfx[0]);
		else
			snprintf(buf, len, "%.1f%s", v, sfx[0]);
		return buf;
	}
	while (v >= base && sfx[i + 1]) {
		v /= base;
		i++;
	}
	if (v >= 100)
		snprintf(buf, len, "%.0f%s", v, sfx[i]);
	else if (v >= 10)
		snprintf(buf, len, "%.1f%s", v, sfx[i]);
	else
		snprintf(buf, len, "%.2f%s", v, sfx[i]);
	return buf;
}

const char *rt_fmt_si(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T", "P", NULL };

	return scaled(buf, len, v, 1000, sfx, false);
}

const char *rt_fmt_bytes(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "B", "KB", "MB", "GB", "TB", "PB", NULL };

	return scaled(buf, len, v, 1000, sfx, true);
}

const char *rt_fmt_gbps(char *buf, size_t len, double g)
{
	if (g <= 0)
		snprintf(buf, len, "-");
	else if (g < 1)
		snprintf(buf, len, "%.0fM", g * 1000);
	else if (g == (double)(unsigned long)g)
		snprintf(buf, len, "%.0fG", g);
	else
		snprintf(buf, len, "%.1fG", g);
	return buf;
}

const char *rt_fmt_bar(char *buf, size_t len, double u, int w)
{
	int i, fill;

	if ((size_t)w + 3 > len)
		w = (int)len - 3;
	if (u < 0) {
		snprintf(buf, len, "%-*s", w + 2, "-");
		return buf;
	}
	fill = (int)(u * w + 0.5);
	if (u > 0 && fill == 0)
		fill = 1;	/* any traffic at all shows */
	buf[0] = '[';
	for (i = 0; i < w; i++)
		buf[1 + i] = i < fill ? '#' : ' ';
	buf[1 + w] = ']';
	buf[2 + w] = 0;
	return buf;
}

const char *rt_fmt_interval(char *buf, size_t len, double s)
{
	if (s >= 60 && s == (double)(unsigned long)s && (unsigned long)s % 60 == 0)
		snprintf(buf, len, "%lum", (unsigned long)s / 60);
	else
		snprintf(buf, len, "%gs", s);
	return buf;
}
