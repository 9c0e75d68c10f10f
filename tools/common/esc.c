/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Control bytes of data escaped for a terminal; see esc.h. */
#include <stdio.h>
#include <string.h>

#include "esc.h"

size_t tool_utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* the unit of s at p: how many bytes, and whether a terminal would act on them.  Controls are
 * C0 (below 0x20), DEL, and C1: U+0080-U+009F encoded in UTF-8 (0xc2 0x80-0x9f), and a byte
 * 0x80-0x9f that no valid UTF-8 sequence holds, which a terminal in an 8-bit mode takes as
 * the C1 control itself (0x9b is CSI, as ESC [ is) */
static size_t unit(const unsigned char *p, bool *ctl)
{
	size_t n;

	*ctl = p[0] < 0x20 || p[0] == 0x7f;
	if (p[0] < 0x80)
		return 1;
	n = tool_utf8_len(p);
	if (!n) {
		*ctl = p[0] <= 0x9f;
		return 1;
	}
	*ctl = p[0] == 0xc2 && p[1] <= 0x9f;
	return n;
}

bool tool_needs_esc(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool ctl;

	while (*p) {
		p += unit(p, &ctl);
		if (ctl)
			return true;
	}
	return false;
}

const char *tool_esc(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (!tool_needs_esc(s))
		return s;
	if (!len)
		return "";
	while (*p) {
		char e[16];
		bool ctl;
		size_t n = unit(p, &ctl), k, m = 0;

		switch (*p) {
		case '\n': memcpy(e, "\\n", 3); break;
		case '\t': memcpy(e, "\\t", 3); break;
		case '\r': memcpy(e, "\\r", 3); break;
		case '\\': memcpy(e, "\\\\", 3); break;
		default:
			/* a control as \ooo a byte; anything else as it is */
			for (k = 0; k < n; k++)
				m += (size_t)snprintf(e + m, sizeof(e) - m, ctl ? "\\%03o" : "%c",
						      p[k]);
		}
		p += n;
		n = strlen(e);
		if (o + n >= len)
			break;
		memcpy(buf + o, e, n);
		o += n;
	}
	buf[o] = '\0';
	return buf;
}

const char *tool_esc_tmp(const char *s)
{
	static char ring[8][512];
	static unsigned int next;

	if (!tool_needs_esc(s))
		return s;
	return tool_esc(s, ring[next++ % 8], sizeof(ring[0]));
}
