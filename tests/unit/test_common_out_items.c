/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit tests of out_items (a run of members in one call) and out_hold (JSON lines
 * held until the buffer is full): the bytes must be those of the single-value calls, in every
 * mode, for every value shape the fast path treats on its own (digit counts, string lengths
 * around the eight-byte chunks, each byte class that needs escapes, strings past 256 bytes,
 * nested objects, members of arrays, runs longer than one buffer check). */
#include <stdlib.h>
#include "tap.h"
#include "common/out.h"

#define MAX_ITEMS 4096

struct script {
	struct out_item it[MAX_ITEMS];
	unsigned int n;
	char strs[MAX_ITEMS / 4][400];
	unsigned int n_strs;
};

static struct out_key *keys[5];

static void add(struct script *s, struct out_key *k, const char *fmt, enum out_type t)
{
	struct out_item *it = &s->it[s->n++];

	if (s->n > MAX_ITEMS)
		abort();
	it->k = k;
	it->fmt = fmt;
	it->type = t;
	it->u = 0;
}

static void add_u64(struct script *s, unsigned int i, uint64_t v)
{
	add(s, keys[i % 5], i % 3 ? " u%" PRIu64 : NULL, OUT_U64);
	s->it[s->n - 1].u = v;
}

static void add_str(struct script *s, unsigned int i, const char *v)
{
	add(s, keys[i % 5], i % 4 ? " s%s" : NULL, OUT_STR);
	s->it[s->n - 1].s = v;
}

static char *new_str(struct script *s)
{
	return s->strs[s->n_strs++];
}

/* a top-level object with every shape, a nested one, an empty one, a second line */
static void build(struct script *s)
{
	static const unsigned char bad[] = { 0x01, 0x1f, 0x7f, 0x80, 0xff, '"', '\\', '\n' };
	static const unsigned char edge[] = { 0x20, 0x7e, '!', '#', '[', ']', 'a' };
	unsigned int i = 0;
	uint64_t p = 1;

	s->n = 0;
	s->n_strs = 0;
	add(s, NULL, NULL, OUT_BEGIN);
	for (int d = 0; d < 20; d++, p *= 10) {
		add_u64(s, i++, p - 1);
		add_u64(s, i++, p);
		add_u64(s, i++, p + 1);
	}
	add_u64(s, i++, UINT32_MAX);
	add_u64(s, i++, (uint64_t)UINT32_MAX + 1);
	add_u64(s, i++, UINT64_MAX);
	add(s, keys[1], " h%" PRIx64, OUT_HEX64);
	s->it[s->n - 1].u = 0xdeadbeefcafe0123ull;
	add(s, keys[2], " b%s", OUT_BOOL);
	s->it[s->n - 1].b = true;
	add(s, keys[0], NULL, OUT_BOOL);
	s->it[s->n - 1].b = false;
	add_str(s, i++, NULL);
	/* plain strings of every length around the chunks, one with each edge byte */
	for (unsigned int len = 0; len <= 40; len++) {
		char *t = new_str(s);

		for (unsigned int j = 0; j < len; j++)
			t[j] = (char)('A' + j % 26);
		t[len] = '\0';
		if (len)
			t[len - 1] = (char)edge[len % sizeof(edge)];
		add_str(s, i++, t);
	}
	/* one byte that needs an escape (or is UTF-8) at each place of strings up to 17 bytes */
	for (unsigned int b = 0; b < sizeof(bad); b++) {
		for (unsigned int len = 1; len <= 17; len += 2) {
			char *t = new_str(s);

			memset(t, 'x', len);
			t[len] = '\0';
			t[(len * 7 + b) % len] = (char)bad[b];
			add_str(s, i++, t);
		}
	}
	{
		/* UTF-8 of two, three and four bytes passes; cut or invalid sequences are escaped */
		static const char *const utf8[] = {
			"caf\xc3\xa9 ok", "\xe2\x82\xac", "x\xf0\x9f\x98\x80y", "\xe2\x82", "ab\xc3",
			"\xf8\x80\x80", "\xc3\xa9\xc3", "\r\t\b\x1b", "\xf0\x9f\x98",
		};
		static char big[70001];

		for (unsigned int j = 0; j < sizeof(utf8) / sizeof(utf8[0]); j++)
			add_str(s, i++, utf8[j]);
		/* more than the whole buffer once escaped, in the middle of a run */
		for (unsigned int j = 0; j < sizeof(big) - 1; j++)
			big[j] = j % 3 ? '"' : (char)('a' + j % 26);
		add_str(s, i++, big);
	}
	/* 255, 256, 257 and 300 bytes: the fast path takes at most 256 */
	for (unsigned int len = 255; len <= 300; len += len < 257 ? 1 : 43) {
		char *t = new_str(s);

		memset(t, 'y', len);
		t[len] = '\0';
		add_str(s, i++, t);
	}
	add(s, keys[3], NULL, OUT_BEGIN);
	add_u64(s, i++, 42);
	add(s, keys[4], NULL, OUT_BEGIN);
	add(s, NULL, NULL, OUT_END);
	add_str(s, i++, "inner");
	add(s, NULL, NULL, OUT_END);
	add_u64(s, i++, 7);
	add(s, NULL, NULL, OUT_END);
	add(s, NULL, NULL, OUT_BEGIN);
	add_u64(s, i++, 8);
	add(s, NULL, NULL, OUT_END);
}

/* the single-value call that an item stands for */
static void one(struct out *o, const struct out_item *it)
{
	switch (it->type) {
	case OUT_U64:
		out_u64_k(o, it->k, it->fmt, it->u);
		break;
	case OUT_STR:
		out_str_k(o, it->k, it->fmt, it->s);
		break;
	case OUT_HEX64:
		out_hex64_k(o, it->k, it->fmt, it->u);
		break;
	case OUT_BOOL:
		out_bool_k(o, it->k, it->fmt, it->b);
		break;
	case OUT_BEGIN:
		if (it->k)
			out_obj_begin_k(o, it->k);
		else
			out_obj_begin(o, NULL);
		break;
	case OUT_END:
		out_obj_end(o);
		break;
	}
}

/* JSON lines of a script written here by hand, strings and keys through json_escape (its
 * own check and escapes, not the writer's eight-byte one): an oracle that shares no code with
 * the writer's fast path */
static char *reference(const struct script *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first[8] = { true };
	int depth = 0;

	for (unsigned int i = 0; i < s->n; i++) {
		const struct out_item *it = &s->it[i];

		if (it->type == OUT_END) {
			depth--;
			fputs(depth ? "}" : "}\n", f);
			continue;
		}
		if (depth > 0) {
			if (!first[depth])
				putc(',', f);
			first[depth] = false;
			json_escape(f, it->k->name);
			putc(':', f);
		}
		switch (it->type) {
		case OUT_U64:
			fprintf(f, "%" PRIu64, it->u);
			break;
		case OUT_STR:
			if (it->s)
				json_escape(f, it->s);
			else
				fputs("null", f);
			break;
		case OUT_HEX64:
			fprintf(f, "\"0x%016" PRIx64 "\"", it->u);
			break;
		case OUT_BOOL:
			fputs(it->b ? "true" : "false", f);
			break;
		case OUT_BEGIN:
			putc('{', f);
			first[++depth] = true;
			break;
		case OUT_END:
			break;
		}
	}
	fclose(f);
	return buf;
}

enum how { SINGLE, ALL, CHUNKS, IN_ARRAY_SINGLE, IN_ARRAY_ITEMS };

static char *render(const struct script *s, enum out_mode mode, enum how how, bool hold)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, mode);
	unsigned int i, c;

	out_hold(o, hold);
	switch (how) {
	case SINGLE:
		for (i = 0; i < s->n; i++)
			one(o, &s->it[i]);
		break;
	case ALL:
		out_items(o, s->it, s->n);
		break;
	case CHUNKS:	/* runs of 1 to 7 items */
		for (i = 0, c = 1; i < s->n; i += c, c = c % 7 + 1)
			out_items(o, s->it + i, c <= s->n - i ? c : s->n - i);
		break;
	case IN_ARRAY_SINGLE:
	case IN_ARRAY_ITEMS:
		/* members of an array have no key: the items take the long way */
		out_obj_begin(o, NULL);
		out_arr_begin(o, "arr");
		for (i = 1; i < 60; i++) {
			if (how == IN_ARRAY_SINGLE)
				one(o, &s->it[i]);
			else
				out_items(o, &s->it[i], 1);
		}
		out_arr_end(o);
		out_items(o, s->it + 1, 5);
		out_obj_end(o);
		break;
	}
	out_free(o);
	fclose(f);
	return buf;
}

static void same_bytes(const struct script *s)
{
	static const enum out_mode modes[] = {
		OUT_TEXT, OUT_JSON, OUT_JSON_PRETTY,
	};

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		char *want = render(s, modes[m], SINGLE, false);
		char *all = render(s, modes[m], ALL, false);
		char *chunks = render(s, modes[m], CHUNKS, false);
		char *held = render(s, modes[m], ALL, true);
		char *arr_want = render(s, modes[m], IN_ARRAY_SINGLE, false);
		char *arr = render(s, modes[m], IN_ARRAY_ITEMS, false);

		EXPECT_TRUE(strlen(want) > 1000);
		if (modes[m] == OUT_JSON) {
			char *ref = reference(s);

			EXPECT_STREQ(all, ref);
			free(ref);
		}
		EXPECT_STREQ(all, want);
		EXPECT_STREQ(chunks, want);
		EXPECT_STREQ(held, want);
		EXPECT_STREQ(arr, arr_want);
		free(want);
		free(all);
		free(chunks);
		free(held);
		free(arr_want);
		free(arr);
	}
}

/* a few members spelled out, so that a change in both paths at once is seen too */
static void literal(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, OUT_JSON);
	const struct out_item it[] = {
		{ NULL, NULL, OUT_BEGIN, { 0 } },
		{ RDIAG_KEY("n"), "#%" PRIu64, OUT_U64, { .u = 1234567 } },
		{ RDIAG_KEY("op"), " %s", OUT_STR, { .s = "RC_SEND_ONLY" } },
		{ RDIAG_KEY("bth"), NULL, OUT_BEGIN, { 0 } },
		{ RDIAG_KEY("psn"), " psn %" PRIu64, OUT_U64, { .u = 0 } },
		{ RDIAG_KEY("x"), NULL, OUT_STR, { .s = "tab\there" } },
		{ NULL, NULL, OUT_END, { 0 } },
		{ RDIAG_KEY("va"), NULL, OUT_HEX64, { .u = 0x7f00 } },
		{ RDIAG_KEY("ok"), NULL, OUT_BOOL, { .b = false } },
		{ NULL, NULL, OUT_END, { 0 } },
	};

	out_items(o, it, sizeof(it) / sizeof(it[0]));
	out_free(o);
	fclose(f);
	EXPECT_STREQ(buf, "{\"n\":1234567,\"op\":\"RC_SEND_ONLY\",\"bth\":{\"psn\":0,\"x\":\"tab\\there\"},"
		     "\"va\":\"0x0000000000007f00\",\"ok\":false}\n");
	free(buf);
}

/* held lines stay in the writer until flushed; not held, each line reaches the stream */
static void hold(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, OUT_JSON);
	char *want = NULL;
	size_t want_len = 0, mid;
	FILE *g = open_memstream(&want, &want_len);
	struct out *p = out_new(g, OUT_JSON);

	out_obj_begin(o, NULL);
	out_u64(o, "a", NULL, 1);
	out_obj_end(o);
	fflush(f);
	EXPECT_EQ(len, 8);		/* {"a":1}\n */
	out_hold(o, true);
	out_obj_begin(o, NULL);
	out_u64(o, "b", NULL, 2);
	out_obj_end(o);
	fflush(f);
	EXPECT_EQ(len, 8);		/* held */
	out_flush(o);
	fflush(f);
	EXPECT_EQ(len, 16);
	/* 100 000 held lines, several buffers full, are the lines written one by one */
	for (unsigned int i = 0; i < 100000; i++) {
		const struct out_item it[] = {
			{ NULL, NULL, OUT_BEGIN, { 0 } },
			{ RDIAG_KEY("i"), NULL, OUT_U64, { .u = i } },
			{ RDIAG_KEY("s"), NULL, OUT_STR, { .s = "a string of some length" } },
			{ NULL, NULL, OUT_END, { 0 } },
		};

		out_items(o, it, 4);
		out_obj_begin(p, NULL);
		out_u64(p, "i", NULL, i);
		out_str(p, "s", NULL, "a string of some length");
		out_obj_end(p);
	}
	fflush(f);
	mid = len;
	out_hold(o, false);	/* writes what is held */
	fflush(f);
	out_free(p);
	fclose(g);
	/* full buffers went out on the way, less than one buffer was still held */
	EXPECT_TRUE(want_len > 4000000 && mid > 16 + want_len - 65536 && mid < 16 + want_len);
	EXPECT_EQ(len, 16 + want_len);
	EXPECT_TRUE(len == 16 + want_len && memcmp(buf + 16, want, want_len) == 0);
	out_free(o);
	fclose(f);
	free(buf);
	free(want);
}

/* numbers of every magnitude (random bit lengths, random digits) against printf, through the
 * single-value call and through items */
static void numbers(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int bad = 0;

	for (unsigned int i = 0; i < 200000; i++) {
		char *buf = NULL, want[64];
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct out *o = out_new(f, OUT_JSON);
		uint64_t v;
		struct out_item it[3] = {
			{ NULL, NULL, OUT_BEGIN, { 0 } },
			{ RDIAG_KEY("v"), NULL, OUT_U64, { 0 } },
			{ NULL, NULL, OUT_END, { 0 } },
		};

		x ^= x << 13;	/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 64);
		it[1].u = v;
		out_items(o, it, 3);
		out_obj_begin(o, NULL);
		out_u64(o, "v", NULL, v);
		out_obj_end(o);
		out_free(o);
		fclose(f);
		snprintf(want, sizeof(want), "{\"v\":%" PRIu64 "}\n{\"v\":%" PRIu64 "}\n", v, v);
		if (strcmp(buf, want) != 0 && bad++ < 5)
			printf("# %s != %s", buf, want);
		free(buf);
	}
	EXPECT_EQ(bad, 0);
}

/* a run whose escaped string leaves the buffer anywhere between empty and full, then sixty
 * long members: the rest of the run must get its room again (a sanitizer build sees a write
 * past the buffer, the plain build wrong bytes) */
static void room_after_escape(void)
{
	static char big[70001], plain[251];
	unsigned int bad = 0;

	memset(plain, 'p', sizeof(plain) - 1);
	for (unsigned int len = 20000; len < 70000; len += 997) {
		static struct out_item it[64];
		char *a = NULL, *b = NULL;
		size_t alen = 0, blen = 0;
		FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
		struct out *oa = out_new(fa, OUT_JSON);
		struct out *ob = out_new(fb, OUT_JSON);
		unsigned int n = 0;

		memset(big, '"', len);
		big[len] = '\0';
		it[n++] = (struct out_item){ NULL, NULL, OUT_BEGIN, { 0 } };
		it[n++] = (struct out_item){ RDIAG_KEY("big"), NULL, OUT_STR, { .s = big } };
		while (n < 63)
			it[n++] = (struct out_item){ RDIAG_KEY("p"), NULL, OUT_STR, { .s = plain } };
		it[n++] = (struct out_item){ NULL, NULL, OUT_END, { 0 } };
		out_hold(oa, true);
		out_hold(ob, true);
		for (unsigned int r = 0; r < 3; r++) {
			out_items(oa, it, n);
			for (unsigned int j = 0; j < n; j++)
				one(ob, &it[j]);
		}
		out_free(oa);
		out_free(ob);
		fclose(fa);
		fclose(fb);
		bad += alen != blen || memcmp(a, b, alen) != 0;
		free(a);
		free(b);
	}
	EXPECT_EQ(bad, 0);
}

int main(void)
{
	static struct script s;

	keys[0] = RDIAG_KEY("a");
	keys[1] = RDIAG_KEY("bb");
	keys[2] = RDIAG_KEY("say \"hi\"");
	keys[3] = RDIAG_KEY("abcdefghijklmnopqrstuvwxyz012");
	keys[4] = RDIAG_KEY("caf\xc3\xa9");
	build(&s);
	same_bytes(&s);
	literal();
	numbers();
	room_after_escape();
	hold();
	return tap_done();
}
