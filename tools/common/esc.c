/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Control bytes of data escaped for a terminal; see esc.h. */
#include <stdio.h>
#include <string.h>

#include "esc.h"

static bool c1_at(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

bool tool_needs_esc(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f || c1_at(p))
			return true;
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
	for (; *p; p++) {
		char e[12];
		size_t n;

		switch (*p) {
		case '\n': memcpy(e, "\\n", 3); break;
		case '\t': memcpy(e, "\\t", 3); break;
		case '\r': memcpy(e, "\\r", 3); break;
		case '\\': memcpy(e, "\\\\", 3); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				snprintf(e, sizeof(e), "\\%03o", *p);
			} else if (c1_at(p)) {
				snprintf(e, sizeof(e), "\\%03o\\%03o", p[0], p[1]);
				p++;
			} else {
				e[0] = (char)*p;
				e[1] = '\0';
			}
		}
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
