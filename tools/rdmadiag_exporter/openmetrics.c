/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Text exposition 0.0.4 -> OpenMetrics 1.0, for a scraper whose Accept asks for it.  The
 * collectors write one format; this rewrites its metadata lines: a counter's family drops
 * _total in # HELP and # TYPE (its samples keep it), a gauge named *_info of value 1 becomes
 * an info family, a family ending in _bytes or _seconds gets its # UNIT, a '"' in HELP text
 * is escaped, and the body ends with # EOF.  The writer puts each family's # HELP and # TYPE
 * on two lines in a row, before its samples. */
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n > k && !memcmp(s + n - k, suf, k);
}

/* the next line [p, end) without its newline; *next is after it */
static size_t line(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	*next = nl ? nl + 1 : end;
	return (size_t)((nl ? nl : end) - p);
}

char *agent_openmetrics(const char *text, size_t len, size_t *out_len)
{
	const char *p = text, *end = text + len, *next, *next2 = NULL;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return NULL;
	while (p < end) {
		size_t n = line(p, end, &next), nn, k, fl;
		const char *name, *help, *type, *tl, *fam_end;
		const char *omtype;

		if (n < 7 || memcmp(p, "# HELP ", 7)) {
			fwrite(p, 1, n, f);
			putc('\n', f);
			p = next;
			continue;
		}
		/* # HELP NAME TEXT, then # TYPE NAME KIND */
		name = p + 7;
		help = memchr(name, ' ', n - 7);
		fl = help ? (size_t)(help - name) : n - 7;
		tl = next;
		nn = tl < end ? line(tl, end, &next2) : 0;
		if (nn < 7 + fl + 1 || memcmp(tl, "# TYPE ", 7) || memcmp(tl + 7, name, fl) ||
		    tl[7 + fl] != ' ') {
			fwrite(p, 1, n, f);	/* not the writer's pair: as it is */
			putc('\n', f);
			p = next;
			continue;
		}
		type = tl + 7 + fl + 1;
		k = nn - (7 + fl + 1);
		fam_end = name + fl;
		omtype = NULL;
		if (k == 7 && !memcmp(type, "counter", 7)) {
			if (ends_with(name, fl, "_total"))
				fam_end -= 6, omtype = "counter";
			else
				omtype = "unknown";
		} else if (k == 5 && !memcmp(type, "gauge", 5) && ends_with(name, fl, "_info")) {
			fam_end -= 5, omtype = "info";
		}
		fl = (size_t)(fam_end - name);
		fputs("# HELP ", f);
		fwrite(name, 1, fl, f);
		if (help) {
			const char *h;

			for (h = help; h < p + n; h++) {
				if (*h == '"')
					putc('\\', f);
				putc(*h, f);
			}
		}
		fputs("\n# TYPE ", f);
		fwrite(name, 1, fl, f);
		putc(' ', f);
		if (omtype)
			fputs(omtype, f);
		else
			fwrite(type, 1, k, f);
		putc('\n', f);
		if (ends_with(name, fl, "_bytes") || ends_with(name, fl, "_seconds")) {
			fputs("# UNIT ", f);
			fwrite(name, 1, fl, f);
			fputs(ends_with(name, fl, "_bytes") ? " bytes\n" : " seconds\n", f);
		}
		p = next2;
	}
	fputs("# EOF\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	*out_len = blen;
	return buf;
}
