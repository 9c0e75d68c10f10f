/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Text-mode fields without printf (tools/common/text_fmt.c): for every format shape the fast path
 * takes, and for shapes it hands back to printf, out's text output is byte for byte what
 * snprintf makes of the same format and value - written at once, and assembled in the
 * writer's buffer while it is held (out_hold, rdmadump reading a file). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "common/out.h"
#include "common/text_fmt.h"

/* the formats are built at run time on purpose: snprintf is the reference */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* one value through out (text; held or not) and through snprintf; 1 when they differ.
 * kind: 0 out_u64, 1 out_hex64, 2 out_str (s) */
static int differs_held(int kind, const char *fmt, uint64_t v, const char *s, bool held)
{
	char *buf = NULL, want[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, OUT_TEXT);
	int bad;

	out_hold(o, held);
	if (kind == 2)
		out_str(o, "k", fmt, s);
	else if (kind == 1)
		out_hex64(o, "k", fmt, v);
	else
		out_u64(o, "k", fmt, v);
	out_free(o);
	fclose(f);
	if (kind == 2)
		snprintf(want, sizeof(want), fmt, s);
	else
		snprintf(want, sizeof(want), fmt, v);
	bad = strcmp(buf, want) != 0;
	if (bad)
		printf("# '%s'%s: got '%s' want '%s'\n", fmt, held ? " (held)" : "", buf, want);
	free(buf);
	return bad;
}

static int differs(int kind, const char *fmt, uint64_t v, const char *s)
{
	return differs_held(kind, fmt, v, s, false) + differs_held(kind, fmt, v, s, true);
}

/* the fast path on its own: 0 when it took the format (and its bytes are snprintf's) */
static int fast_u64(const char *fmt, uint64_t v)
{
	char got[512], want[512];
	int n = text_fmt_u64(got, sizeof(got), fmt, v);

	if (n < 0)
		return -1;
	snprintf(want, sizeof(want), fmt, v);
	return (size_t)n == strlen(want) && !memcmp(got, want, (size_t)n) ? 0 : -2;
}

static int fast_str(const char *fmt, const char *s)
{
	char got[512], want[512];
	int n = text_fmt_str(got, sizeof(got), fmt, s);

	if (n < 0)
		return -1;
	snprintf(want, sizeof(want), fmt, s);
	return (size_t)n == strlen(want) && !memcmp(got, want, (size_t)n) ? 0 : -2;
}

static int differs_u64(const char *fmt, uint64_t v, int hex)
{
	return differs(hex ? 1 : 0, fmt, v, NULL);
}

static int differs_str(const char *fmt, const char *s)
{
	return differs(2, fmt, 0, s);
}

int main(void)
{
	static const char *const len_mods[] = { "l", "ll", "j", "z" };
	static const char convs[] = "uxX";
	static const char *const flags[] = { "", "0", "-", "0-", "-0", "00" };
	static const char *const strs[] = { "", "a", "SEND_ONLY", "10.1.0.32 > 10.1.0.62",
					    "a string longer than most widths used here" };
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char fmt[64];
	int bad = 0, n = 0, fast = 0;

	/* numbers: every flag set, widths 0..63, every 64-bit length, u/x/X, literal text on
	 * both sides, values from 0 and 1 to all ones */
	for (size_t fl = 0; fl < sizeof(flags) / sizeof(flags[0]); fl++)
		for (unsigned int w = 0; w < 64; w += (w < 20 ? 1 : 7))
			for (size_t m = 0; m < 4; m++)
				for (size_t c = 0; c < 3; c++) {
					char ws[8] = "";

					if (w)
						snprintf(ws, sizeof(ws), "%u", w);
					snprintf(fmt, sizeof(fmt), " qp 0x%%%s%s%s%c]", flags[fl], ws,
						 len_mods[m], convs[c]);
					for (int i = 0; i < 8; i++) {
						uint64_t v = i == 0 ? 0 : i == 1 ? 1 : i == 2 ? UINT64_MAX :
							     rnd(&seed) >> (rnd(&seed) % 64);

						bad += differs_u64(fmt, v, i & 1);
						n++;
					}
					fast += fast_u64(fmt, 1) == 0;
				}
	printf("# %d number fields compared\n", n);
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(fast, 6 * 27 * 4 * 3);	/* every one of those took the fast path */

	/* strings: flags, widths, empty and long strings */
	for (bad = 0, fast = 0, n = 0; n < 6 * 40; n++) {
		unsigned int w = (unsigned int)n / 6;

		snprintf(fmt, sizeof(fmt), "%s%%%s%.0u%s", n % 2 ? " > " : "", flags[n % 6], w, "s (x)");
		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
			bad += differs_str(fmt, strs[i]);
		fast += fast_str(fmt, "x") == 0;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(fast, 6 * 40);

	/* shapes handed back to fprintf (output compared where the format takes one 64-bit
	 * value: the others would be undefined with one argument) */
	{
		static const struct { const char *fmt; int compare; } other[] = {
			{ "%%u %lu", 1 }, { "%lu%%", 1 }, { "%#lx", 1 }, { "%+lu", 1 },
			{ "% lu", 1 }, { "%.3lu", 1 }, { "%8.3lx", 1 }, { "%5000lu", 0 },
			{ "no conversion", 1 }, { "%lu and %lu", 0 }, { "%hlu", 0 }, { "%Lu", 0 },
			{ "%u", 0 }, { "%s", 0 },
		};

		for (bad = 0, fast = 0, n = 0; n < (int)(sizeof(other) / sizeof(other[0])); n++) {
			fast += fast_u64(other[n].fmt, 5) == 0;
			if (other[n].compare)
				bad += differs_u64(other[n].fmt, 123456789, 0);
		}
		EXPECT_EQ(bad, 0);
		EXPECT_EQ(fast, 0);
		EXPECT_EQ(fast_str("%lu", "x"), -1);
		EXPECT_EQ(fast_str("%-.2s", "x"), -1);
		EXPECT_EQ(differs_str(" %s%%", "x"), 0);
	}
	/* fields wider than the room they are given go through printf, the same bytes */
	{
		static const char *const wide[] = { "%150lu", "%-200lx]", " %0210lX", "%-150s|",
						    "%155s", "%s" };
		char big[230];

		memset(big, 'q', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		for (bad = 0, fast = 0, n = 0; n < 6; n++) {
			if (strchr(wide[n], 's')) {
				bad += differs_str(wide[n], "abc") + differs_str(wide[n], big + 60);
				fast += fast_str(wide[n], "abc") == 0;
			} else {
				bad += differs_u64(wide[n], UINT64_MAX, 0) + differs_u64(wide[n], 7, 1);
				fast += fast_u64(wide[n], 7) == 0;
			}
		}
		EXPECT_EQ(bad, 0);
		EXPECT_EQ(fast, 6);
	}
	/* a held writer gives the same bytes as one that writes at once, across its buffer's
	 * end: many lines, out_text() with printf-only formats, and values longer than the
	 * buffer itself */
	{
		char *big = malloc(100000), *out[2] = { NULL, NULL };
		size_t len[2] = { 0, 0 };

		memset(big, 'z', 99999);
		big[99999] = '\0';
		for (int held = 0; held < 2; held++) {
			FILE *f = open_memstream(&out[held], &len[held]);
			struct out *o = out_new(f, OUT_TEXT);

			out_hold(o, held);
			for (int i = 0; i < 3000; i++) {
				out_u64(o, "n", "#%" PRIu64 " ", (uint64_t)i);
				out_str(o, "s", "%-12s", i % 7 ? "RC_SEND_ONLY" : "x");
				out_text(o, " %.3f %+d", i / 7.0, -i);
				out_hex64(o, "q", " qp 0x%06" PRIx64, (uint64_t)i * 977);
				if (i % 1000 == 999)
					out_str(o, "big", " %s", big);
				out_text(o, "\n");
			}
			out_free(o);
			fclose(f);
		}
		EXPECT_TRUE(len[0] > 3 * 65536);
		EXPECT_EQ(len[1], len[0]);
		EXPECT_TRUE(len[0] == len[1] && !memcmp(out[0], out[1], len[0]));
		free(out[0]);
		free(out[1]);
		free(big);
	}
	/* keyed calls (a format parsed once and kept in the key, strings checked eight bytes at
	 * a time) give the bytes of the unkeyed ones: strings of every length 0..40 with and
	 * without control, DEL and non-ASCII bytes (those go through tool_esc), one key taking
	 * two formats in turn, numbers with widths, literal text; held and not */
	{
		static const char *const sfmt[] = { " %s", " > %-9s|", "%12s" };
		static const char *const ufmt[] = { " psn %" PRIu64, " qp 0x%06" PRIx64, "%-5" PRIu64 "]" };
		char str[48], *out[2][2] = { { NULL, NULL }, { NULL, NULL } };
		size_t len[2][2] = { { 0, 0 }, { 0, 0 } };

		for (int keyed = 0; keyed < 2; keyed++)
			for (int held = 0; held < 2; held++) {
				FILE *f = open_memstream(&out[keyed][held], &len[keyed][held]);
				struct out *o = out_new(f, OUT_TEXT);

				out_hold(o, held);
				for (int i = 0; i < 41 * 6; i++) {
					int sl = i / 6;
					const char *sf = sfmt[i % 3], *uf = ufmt[i % 3];

					for (int j = 0; j < sl; j++)
						str[j] = (char)('a' + (i + j) % 26);
					str[sl] = '\0';
					if (sl && i % 6 == 1)
						str[sl / 2] = '\033';
					else if (sl && i % 6 == 3)
						str[sl - 1] = 0x7f;
					else if (sl > 1 && i % 6 == 5) {
						str[0] = (char)0xc2;	/* a C1 control as UTF-8 */
						str[1] = (char)0x9b;
					}
					if (keyed) {
						out_str_k(o, RDIAG_KEY("s"), sf, str);
						out_u64_k(o, RDIAG_KEY("u"), uf, (uint64_t)i * 40503u);
					} else {
						out_str(o, "s", sf, str);
						out_u64(o, "u", uf, (uint64_t)i * 40503u);
					}
					out_text_lit(o, " |\n", 3);
				}
				out_free(o);
				fclose(f);
			}
		EXPECT_TRUE(len[0][0] > 1000);
		for (int k = 0; k < 4; k++)
			EXPECT_TRUE(len[k / 2][k % 2] == len[0][0] &&
				    !memcmp(out[k / 2][k % 2], out[0][0], len[0][0]));
		EXPECT_TRUE(memchr(out[0][0], '\033', len[0][0]) == NULL);	/* escaped */
		for (int k = 0; k < 4; k++)
			free(out[k / 2][k % 2]);
	}
	return tap_done();
}
