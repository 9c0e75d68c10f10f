/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One output path for text and JSON; see out.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>

#include "esc.h"
#include "out.h"
#include "put_u64.h"
#include "text_fmt.h"

/* the text formats come from the callers by design (iproute2 print_* style) */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define OUT_MAX_DEPTH 32
/* the per-value steps, inlined into each out_* (one call per value, not three) */
#define OUT_HOT static inline __attribute__((always_inline))

struct out {
	FILE *f;
	enum out_mode mode;
	int depth;
	bool first[OUT_MAX_DEPTH];	/* no member written yet at this depth */
	bool is_arr[OUT_MAX_DEPTH];
	bool hold;			/* whole lines wait for a full buffer (out_hold) */
	/* JSON is assembled here and written once per top-level value (or per full buffer when
	 * held): a packet's JSON line is a hundred small tokens, and a stdio call per token
	 * dominated rdmadump -j */
	size_t len;
	char buf[65536];
};

static void ob_flush(struct out *o)
{
	if (o->len) {
		fwrite(o->buf, 1, o->len, o->f);
		o->len = 0;
	}
}

static void ob_put(struct out *o, const char *s, size_t n)
{
	if (o->len + n > sizeof(o->buf)) {
		ob_flush(o);
		if (n > sizeof(o->buf)) {
			fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void ob_c(struct out *o, char c)
{
	if (o->len == sizeof(o->buf))
		ob_flush(o);
	o->buf[o->len++] = c;
}

struct out *out_new(FILE *f, enum out_mode mode)
{
	/* everything but the buffer is zeroed: clearing 64 KiB would touch sixteen pages that a
	 * short output never uses (page faults are what a one-shot tool's start-up costs most
	 * under emulation) */
	struct out *o = malloc(sizeof(*o));

	if (!o)
		return NULL;
	memset(o, 0, offsetof(struct out, buf));
	o->f = f;
	o->mode = mode;
	o->first[0] = true;
	return o;
}

void out_free(struct out *o)
{
	if (!o)
		return;
	ob_flush(o);
	fflush(o->f);
	free(o);
}

bool out_json(const struct out *o)
{
	return o->mode != OUT_TEXT;
}

void out_hold(struct out *o, bool hold)
{
	o->hold = hold;
	if (!hold)
		ob_flush(o);
}

void out_flush(struct out *o)
{
	ob_flush(o);
}

char *out_reserve(struct out *o, size_t n)
{
	/* JSON lines between two top-level values only (a value written at the top level
	 * without a container leaves first[0] false: the next one gets a comma) */
	if (!o->hold || o->depth != 0 || !o->first[0] || o->mode == OUT_JSON_PRETTY ||
	    n > sizeof(o->buf))
		return NULL;
	if (sizeof(o->buf) - o->len < n)
		ob_flush(o);
	return o->buf + o->len;
}

void out_commit(struct out *o, const char *end)
{
	o->len = (size_t)(end - o->buf);
}

FILE *out_file(const struct out *o)
{
	/* the caller may write to the stream directly: what was assembled goes first */
	ob_flush((struct out *)o);
	return o->f;
}

/* JSON lines of packets are written at millions of values per second: plain ASCII strings and
 * numbers skip printf and the per-call stdio locking */
static bool plain_ascii(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return false;
	*len = (size_t)(p - (const unsigned char *)s);
	return true;
}

/* The body of a JSON string, escaped: '"', '\\', newline, CR and tab as two-character
 * escapes, other control bytes and DEL as \u00XX, valid UTF-8 sequences passed through, stray
 * bytes as \u00XX.  Escapes from *pp into dst as many source bytes as fit (room >= 6: the
 * longest output of one step) and advances *pp past them; returns the bytes written.  The one
 * implementation behind json_escape (to a stream) and ob_escape (into the buffer). */
static size_t escape_some(const unsigned char **pp, char *dst, size_t room)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = *pp;
	size_t o = 0;

	for (; *p && room - o >= 6; p++) {
		unsigned char c = *p;
		char two = c == '"' ? '"' : c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' :
			   c == '\t' ? 't' : 0;

		if (two) {
			dst[o++] = '\\';
			dst[o++] = two;
			continue;
		}
		if (c >= 0x20 && c < 0x7f) {
			dst[o++] = (char)c;
			continue;
		}
		if (c >= 0x80) {
			int n = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 :
				(c & 0xf8) == 0xf0 ? 3 : -1;
			int i;

			for (i = 1; n > 0 && i <= n; i++)
				if ((p[i] & 0xc0) != 0x80)
					break;
			if (n > 0 && i > n) {
				memcpy(dst + o, p, (size_t)n + 1);
				o += (size_t)n + 1;
				p += n;
				continue;
			}
		}
		memcpy(dst + o, "\\u00", 4);
		dst[o + 4] = hex[c >> 4];
		dst[o + 5] = hex[c & 0xf];
		o += 6;
	}
	*pp = p;
	return o;
}

int json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t plain;
	char b[256];

	if (plain_ascii(s, &plain)) {
		putc_unlocked('"', f);
		fwrite_unlocked(s, 1, plain, f);
		return putc_unlocked('"', f) == EOF ? -EIO : 0;
	}
	if (putc('"', f) == EOF)
		return -EIO;
	while (*p)
		fwrite(b, 1, escape_some(&p, b, sizeof(b)), f);
	return putc('"', f) == EOF ? -EIO : 0;
}

int csv_escape(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' '))
		return fputs(s, f) == EOF ? -EIO : 0;
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	return putc('"', f) == EOF ? -EIO : 0;
}

int xml_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = strcspn((const char *)p, "&<>\"'"), k;

		/* the plain run up to the next character that needs care, in one fwrite */
		for (k = 0; k < n; k++)
			if (p[k] < 0x20 || p[k] >= 0x7f)
				break;
		if (k)
			fwrite(p, 1, k, f);
		p += k;
		if (!*p)
			break;
		switch (*p) {
		case '&': fputs("&amp;", f); p++; continue;
		case '<': fputs("&lt;", f); p++; continue;
		case '>': fputs("&gt;", f); p++; continue;
		case '"': fputs("&quot;", f); p++; continue;
		case '\'': fputs("&#39;", f); p++; continue;
		case '\t': case '\n': case '\r': putc(*p++, f); continue;
		default: break;
		}
		n = *p >= 0x80 ? tool_utf8_len(p) : 0;
		/* U+FFFE and U+FFFF are no XML characters */
		if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)
			n = 0;
		if (n) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\%03o", *p++);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* the text between the characters to escape in one fwrite, each of those as its escape */
int prom_escape_chars(FILE *f, const char *s, const char *special)
{
	size_t n;

	for (;;) {
		n = strcspn(s, special);
		if (n)
			fwrite(s, 1, n, f);
		s += n;
		if (!*s)
			break;
		fputs(*s == '\n' ? "\\n" : *s == '"' ? "\\\"" : "\\\\", f);
		s++;
	}
	return ferror(f) ? -EIO : 0;
}

int prom_label_escape(FILE *f, const char *s)
{
	return prom_escape_chars(f, s, "\\\"\n");
}

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/* snake_case, as Prometheus's naming rules (and promtool check metrics) want: a word starts
 * at an upper-case letter after a lower-case one or a digit ("cnpHandled", "ip4InOctets"), and
 * at the last capital of an acronym followed by a lower-case letter ("RxECNMrkd" is
 * rx_ecn_mrkd); every letter is lower-cased ("RNR sent" is rnr_sent) */
int prom_name(char *buf, size_t len, const char *s)
{
	const char *start = s;
	size_t i = 0;

	if (len < 2)
		return -ENOSPC;
	if (*s >= '0' && *s <= '9')
		buf[i++] = '_';
	for (; *s && i + 1 < len; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == ':'))
			c = '_';
		if (is_upper(c) && s > start && i > 0 && buf[i - 1] != '_' &&
		    (is_lower_or_digit(s[-1]) || (is_upper(s[-1]) && s[1] >= 'a' && s[1] <= 'z'))) {
			if (i + 2 >= len)
				break;
			buf[i++] = '_';
		}
		if (is_upper(c))
			c = (char)(c - 'A' + 'a');
		buf[i++] = c;
	}
	buf[i] = '\0';
	return *s ? -ENOSPC : 0;
}

/* bytes a JSON string carries as they are: printable ASCII but '"' and '\\' (and not NUL) */
static const bool json_plain[256] = {
	[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7e] = true,	/* '"' 0x22, '\\' 0x5c */
};

/* copy a plain string to b[n] (room for 256 bytes guaranteed); the length copied, or -1 when
 * it needs escapes or is longer.  One table lookup per byte: keys and most values are short */
static long ob_plain_copy(char *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long i = 0;

	while (json_plain[p[i]]) {
		b[i] = (char)p[i];
		if (++i == 256)
			return -1;
	}
	return p[i] ? -1 : i;
}

/* room for one member: the separator, a short key and a number, without further checks */
#define OB_ROOM 300

static void ob_room(struct out *o)
{
	if (sizeof(o->buf) - o->len < OB_ROOM)
		ob_flush(o);
}

/* eight bytes at once: none is a control character, DEL or above, '"' or '\\' (each test is
 * the exact "has a byte less than / more than / equal to" bit trick, so no false answers) */
static inline bool plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t lt = (x - ones * 0x20) & ~x & high;		/* a byte < 0x20 */
	uint64_t gt = ((x + ones) | x) & high;			/* a byte > 0x7e */
	uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');

	q = (q - ones) & ~q & high;
	bs = (bs - ones) & ~bs & high;
	return !(lt | gt | q | bs);
}

/* a JSON string to p, checked and copied eight bytes at a time (this is most of a packet's
 * bytes: time stamp, addresses, opcode name): the end written, or NULL when the string needs
 * escapes or is longer than 256 bytes (p has room for 2 + 256 bytes).  A short tail is read
 * as overlapping words, never byte by byte into memory that is then read as one word (that
 * store-to-load forward fails and stalls). */
OUT_HOT char *put_str(char *p, const char *s)
{
	size_t n = strlen(s), i;
	uint64_t x;

	if (n > 256)
		return NULL;
	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&x, s + i, 8);
			if (!plain8(x))
				return NULL;
			memcpy(p + 1 + i, &x, 8);
		}
		if (i < n) {
			memcpy(&x, s + n - 8, 8);
			if (!plain8(x))
				return NULL;
			memcpy(p + 1 + n - 8, &x, 8);
		}
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (!plain8((uint64_t)b << 32 | a))
			return NULL;
		memcpy(p + 1, &a, 4);
		memcpy(p + 1 + n - 4, &b, 4);
	} else if (n) {
		uint64_t a = (unsigned char)s[0], b = (unsigned char)s[n / 2];
		uint64_t c = (unsigned char)s[n - 1];

		/* the first, middle and last byte are all of one to three; "a" pads */
		if (!plain8(0x6161616161000000ull | c << 16 | b << 8 | a))
			return NULL;
		p[1] = s[0];
		p[1 + n / 2] = s[n / 2];
		p[n] = s[n - 1];
	}
	p[0] = '"';
	p[n + 1] = '"';
	return p + n + 2;
}

/* a string that needs escapes, escaped into the buffer (to the stream it would be a stdio
 * call per byte, a write(2) each on an unbuffered stream) */
static void ob_escape(struct out *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char b[256];

	ob_c(o, '"');
	while (*p)
		ob_put(o, b, escape_some(&p, b, sizeof(b)));
	ob_c(o, '"');
}

static void ob_str(struct out *o, const char *s)
{
	char *e;

	ob_room(o);
	e = put_str(o->buf + o->len, s);
	if (e) {
		o->len = (size_t)(e - o->buf);
		return;
	}
	ob_escape(o, s);
}

OUT_HOT void ob_u64(struct out *o, uint64_t v)
{
	ob_room(o);
	o->len = (size_t)(put_u64(o->buf + o->len, v) - o->buf);
}

static void ob_indent(struct out *o, int n)
{
	while (n-- > 0)
		ob_c(o, ' ');
}

/* JSON: separator and key before a member; a plain key is written as ,"key": in one go */
static void json_member(struct out *o, const char *key)
{
	bool comma = !o->first[o->depth];
	char *b;
	long n;

	o->first[o->depth] = false;
	if (o->mode == OUT_JSON_PRETTY) {
		if (comma)
			ob_c(o, ',');
		comma = false;
		if (o->depth > 0) {
			ob_c(o, '\n');
			ob_indent(o, o->depth * 2);
		}
	}
	if (!key || o->depth == 0 || o->is_arr[o->depth]) {
		if (comma)
			ob_c(o, ',');
		return;
	}
	ob_room(o);
	b = o->buf + o->len;
	*b = ',';
	b += comma;
	n = ob_plain_copy(b + 1, key);
	if (n >= 0 && o->mode != OUT_JSON_PRETTY) {
		b[0] = '"';
		b[n + 1] = '"';
		b[n + 2] = ':';
		o->len += (size_t)comma + (size_t)n + 3;
		return;
	}
	o->len += comma;
	ob_str(o, key);
	if (o->mode == OUT_JSON_PRETTY)
		ob_put(o, ": ", 2);
	else
		ob_c(o, ':');
}

/* a key object's escape check, done on its first use (keys are string literals, so the answer
 * never changes; concurrent first uses store the same value) */
static bool key_check(struct out_key *k)
{
	char tmp[260];
	long n = ob_plain_copy(tmp, k->name);
	signed char v = n >= 0 && (size_t)n == k->len && (size_t)k->len + 3 <= sizeof(k->json) ? 1 : -1;

	__atomic_store_n(&k->plain, v, __ATOMIC_RELAXED);
	return v > 0;
}

static inline bool key_plain(struct out_key *k)
{
	signed char v = __atomic_load_n(&k->plain, __ATOMIC_RELAXED);

	return __builtin_expect(v != 0, 1) ? v > 0 : key_check(k);
}

/* JSON lines: ,"key": from the key object in one fixed-size move */
OUT_HOT void json_member_k(struct out *o, struct out_key *k)
{
	bool comma;
	char *b;

	if (o->mode != OUT_JSON || o->depth == 0 || o->is_arr[o->depth] || !key_plain(k)) {
		json_member(o, k->name);
		return;
	}
	comma = !o->first[o->depth];
	o->first[o->depth] = false;
	ob_room(o);
	b = o->buf + o->len;
	*b = ',';
	memcpy(b + comma, k->json, sizeof(k->json));
	o->len += (size_t)comma + k->len + 3;
}

OUT_HOT void member(struct out *o, const char *key, struct out_key *k)
{
	if (k)
		json_member_k(o, k);
	else
		json_member(o, key);
}

static void open_container(struct out *o, const char *key, struct out_key *k, bool arr)
{
	if (o->mode == OUT_TEXT)
		return;
	member(o, key, k);
	ob_c(o, arr ? '[' : '{');
	if (o->depth + 1 < OUT_MAX_DEPTH)
		o->depth++;
	o->first[o->depth] = true;
	o->is_arr[o->depth] = arr;
}

static void close_container(struct out *o, bool arr)
{
	bool empty;

	if (o->mode == OUT_TEXT)
		return;
	empty = o->first[o->depth];
	if (o->depth > 0)
		o->depth--;
	if (o->mode == OUT_JSON_PRETTY && !empty) {
		ob_c(o, '\n');
		ob_indent(o, o->depth * 2);
	}
	ob_c(o, arr ? ']' : '}');
	if (o->depth == 0) {
		ob_c(o, '\n');
		if (!o->hold)
			ob_flush(o);
		o->first[0] = true;	/* JSON lines: each top-level value stands alone */
	}
}

void out_obj_begin(struct out *o, const char *key)
{
	open_container(o, key, NULL, false);
}

void out_obj_begin_k(struct out *o, struct out_key *k)
{
	open_container(o, NULL, k, false);
}

void out_obj_end(struct out *o)
{
	close_container(o, false);
}

void out_arr_begin(struct out *o, const char *key)
{
	open_container(o, key, NULL, true);
}

void out_arr_end(struct out *o)
{
	close_container(o, true);
}

/* each value writer below takes the key as a string (key) or as a key object (k) */
#define TEXT_OR_JSON(o, key, k, fmt, textval, ...) do { \
	if ((o)->mode == OUT_TEXT) { \
		if (fmt) \
			textf(o, fmt, textval); \
		return; \
	} \
	member(o, key, k); \
	__VA_ARGS__; \
} while (0)

/* Text: printf-like output.  While the writer is held (out_hold) text is assembled in buf as
 * JSON is and written when the buffer is full, so a file's packet lines cost one copy and no
 * stdio call per field; otherwise it goes to the stream at once, so a tool may mix out_*()
 * with its own writes to the stream. */
static void textf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vtextf(struct out *o, const char *fmt, va_list ap)
{
	va_list again;
	size_t room;
	int n;

	if (!o->hold) {
		vfprintf(o->f, fmt, ap);
		return;
	}
	room = sizeof(o->buf) - o->len;
	va_copy(again, ap);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	if (n >= 0 && (size_t)n < room) {
		o->len += (size_t)n;
	} else if (n >= 0) {
		ob_flush(o);
		if ((size_t)n < sizeof(o->buf))
			o->len = (size_t)vsnprintf(o->buf, sizeof(o->buf), fmt, again);
		else
			vfprintf(o->f, fmt, again);
	}
	va_end(again);
}

static void textf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtextf(o, fmt, ap);
	va_end(ap);
}

/* the common formats without printf (text_fmt.c) into buf or a field's worth of stack, the
 * rest through printf */
#define TEXT_FIELD_MAX 256
static char *text_room(struct out *o, char *stack, size_t *cap)
{
	if (!o->hold) {
		*cap = TEXT_FIELD_MAX;
		return stack;
	}
	if (sizeof(o->buf) - o->len < TEXT_FIELD_MAX)
		ob_flush(o);
	*cap = sizeof(o->buf) - o->len;
	return o->buf + o->len;
}

static void text_done(struct out *o, const char *d, int n)
{
	if (o->hold)
		o->len += (size_t)n;
	else
		fwrite_unlocked(d, 1, (size_t)n, o->f);
}

static void emit_text_u64(struct out *o, const char *fmt, uint64_t v)
{
	char stack[TEXT_FIELD_MAX], *d;
	size_t cap;
	int n;

	if (!fmt)
		return;
	d = text_room(o, stack, &cap);
	n = text_fmt_u64(d, cap, fmt, v);
	if (n >= 0)
		text_done(o, d, n);
	else
		textf(o, fmt, v);
}

static void emit_text_str(struct out *o, const char *fmt, const char *s)
{
	char stack[TEXT_FIELD_MAX], *d, esc[1024];
	size_t cap;
	int n;

	if (!fmt)
		return;
	s = tool_esc(s, esc, sizeof(esc));	/* a value's control bytes never reach a terminal */
	d = text_room(o, stack, &cap);
	n = text_fmt_str(d, cap, fmt, s);
	if (n >= 0)
		text_done(o, d, n);
	else
		textf(o, fmt, s);
}

/* a key's format, parsed on its first use with that format: NULL when printf must do it */
static const struct text_conv *key_conv(struct out_key *k, const char *fmt)
{
	if (k->tfmt != fmt) {
		k->tfmt_ok = text_conv_parse(&k->tconv, fmt) == 0;
		k->tfmt = fmt;
	}
	return k->tfmt_ok ? &k->tconv : NULL;
}

static void emit_text_u64_k(struct out *o, struct out_key *k, const char *fmt, uint64_t v)
{
	char stack[TEXT_FIELD_MAX], *d;
	const struct text_conv *cv;
	size_t cap;
	int n;

	if (!fmt)
		return;
	if (!k || !(cv = key_conv(k, fmt))) {
		emit_text_u64(o, fmt, v);
		return;
	}
	d = text_room(o, stack, &cap);
	n = text_conv_u64(d, cap, cv, v);
	if (n >= 0)
		text_done(o, d, n);
	else
		textf(o, fmt, v);
}

/* the length of s when it is printable ASCII only (nothing tool_esc() would change) and at
 * most 256 bytes, else -1: checked eight bytes at a time, within the string */
static long text_plain_len(const char *s)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	size_t n = strlen(s), i;
	uint64_t x, bad = 0;

	if (n > 256)
		return -1;
	/* a byte < 0x20, or > 0x7e (DEL and every non-ASCII byte) */
#define TEXT_BAD(x) ((((x) - ones * 0x20) & ~(x) & high) | ((((x) + ones) | (x)) & high))
	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&x, s + i, 8);
			bad |= TEXT_BAD(x);
		}
		if (i < n) {
			memcpy(&x, s + n - 8, 8);
			bad |= TEXT_BAD(x);
		}
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);	/* overlapping words: every byte is in one */
		memcpy(&b, s + n - 4, 4);
		x = (uint64_t)b << 32 | a;
		bad = TEXT_BAD(x);
	} else if (n) {
		/* the first, middle and last byte are all of one to three; "a" pads */
		x = 0x6161616161000000ull | (uint64_t)(unsigned char)s[n - 1] << 16 |
		    (uint64_t)(unsigned char)s[n / 2] << 8 | (unsigned char)s[0];
		bad = TEXT_BAD(x);
	}
#undef TEXT_BAD
	return bad ? -1 : (long)n;
}

static void emit_text_str_k(struct out *o, struct out_key *k, const char *fmt, const char *s)
{
	char stack[TEXT_FIELD_MAX], *d;
	const struct text_conv *cv;
	size_t cap;
	long len;
	int n;

	if (!fmt)
		return;
	if (!k || !(cv = key_conv(k, fmt)) || (len = text_plain_len(s)) < 0) {
		emit_text_str(o, fmt, s);
		return;
	}
	d = text_room(o, stack, &cap);
	n = text_conv_str(d, cap, cv, s, (size_t)len);
	if (n >= 0)
		text_done(o, d, n);
	else
		emit_text_str(o, fmt, s);
}

static void emit_u64(struct out *o, const char *key, struct out_key *k, const char *fmt,
		    uint64_t v)
{
	if (o->mode == OUT_TEXT) {
		emit_text_u64_k(o, k, fmt, v);
		return;
	}
	member(o, key, k);
	ob_u64(o, v);
}

void out_u64(struct out *o, const char *key, const char *fmt, uint64_t v)
{
	emit_u64(o, key, NULL, fmt, v);
}

void out_u64_k(struct out *o, struct out_key *k, const char *fmt, uint64_t v)
{
	emit_u64(o, NULL, k, fmt, v);
}

void out_i64(struct out *o, const char *key, const char *fmt, int64_t v)
{
	TEXT_OR_JSON(o, key, NULL, fmt, v, (v < 0 ? ob_c(o, '-') : (void)0),
		     ob_u64(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v));
}

static void emit_dbl(struct out *o, const char *key, struct out_key *k, const char *fmt,
		    double v)
{
	char b[32];
	int n;

	if (o->mode != OUT_TEXT && !(v != v || v - v != 0)) {
		n = snprintf(b, sizeof(b), "%.6g", v);
		member(o, key, k);
		ob_put(o, b, (size_t)n);
		return;
	}
	TEXT_OR_JSON(o, key, k, fmt, v, ob_put(o, "null", 4));
}

void out_dbl(struct out *o, const char *key, const char *fmt, double v)
{
	emit_dbl(o, key, NULL, fmt, v);
}

void out_dbl_k(struct out *o, struct out_key *k, const char *fmt, double v)
{
	emit_dbl(o, NULL, k, fmt, v);
}

static void emit_str(struct out *o, const char *key, struct out_key *k, const char *fmt,
		    const char *s)
{
	if (o->mode == OUT_TEXT) {
		emit_text_str_k(o, k, fmt, s ? s : "");
		return;
	}
	member(o, key, k);
	if (s)
		ob_str(o, s);
	else
		ob_put(o, "null", 4);
}

void out_str(struct out *o, const char *key, const char *fmt, const char *s)
{
	emit_str(o, key, NULL, fmt, s);
}

void out_str_k(struct out *o, struct out_key *k, const char *fmt, const char *s)
{
	emit_str(o, NULL, k, fmt, s);
}

static void emit_bool(struct out *o, const char *key, struct out_key *k, const char *fmt,
		     bool v)
{
	if (o->mode == OUT_TEXT) {
		emit_text_str_k(o, k, fmt, v ? "true" : "false");
		return;
	}
	member(o, key, k);
	ob_put(o, v ? "true" : "false", v ? 4 : 5);
}

void out_bool(struct out *o, const char *key, const char *fmt, bool v)
{
	emit_bool(o, key, NULL, fmt, v);
}

void out_bool_k(struct out *o, struct out_key *k, const char *fmt, bool v)
{
	emit_bool(o, NULL, k, fmt, v);
}

/* "0x" and 16 hex digits, quoted: 20 bytes */
OUT_HOT char *put_hex64(char *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";

	b[0] = '"';
	b[1] = '0';
	b[2] = 'x';
	for (int i = 0; i < 16; i++)
		b[3 + i] = hex[(v >> (60 - 4 * i)) & 0xf];
	b[19] = '"';
	return b + 20;
}

static void emit_hex64(struct out *o, const char *key, struct out_key *k,
		      const char *fmt, uint64_t v)
{
	if (o->mode == OUT_TEXT) {
		emit_text_u64_k(o, k, fmt, v);
		return;
	}
	member(o, key, k);
	ob_room(o);
	o->len = (size_t)(put_hex64(o->buf + o->len, v) - o->buf);
}

void out_hex64(struct out *o, const char *key, const char *fmt, uint64_t v)
{
	emit_hex64(o, key, NULL, fmt, v);
}

void out_hex64_k(struct out *o, struct out_key *k, const char *fmt, uint64_t v)
{
	emit_hex64(o, NULL, k, fmt, v);
}

void out_null(struct out *o, const char *key)
{
	if (o->mode == OUT_TEXT)
		return;
	json_member(o, key);
	ob_put(o, "null", 4);
}

void out_json_raw(struct out *o, const char *key, const char *json, size_t len)
{
	if (o->mode == OUT_TEXT)
		return;
	json_member(o, key);
	ob_put(o, json, len);
}

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->mode != OUT_TEXT)
		return;
	va_start(ap, fmt);
	vtextf(o, fmt, ap);
	va_end(ap);
}

void out_text_lit(struct out *o, const char *s, size_t n)
{
	if (o->mode != OUT_TEXT || !n)
		return;
	if (!o->hold) {
		fwrite_unlocked(s, 1, n, o->f);
		return;
	}
	ob_put(o, s, n);
}

/* one item the long way, through the single-value calls (text mode, pretty JSON, a key that
 * needs escapes, a member of an array or of nothing) */
static void item_slow(struct out *o, const struct out_item *it)
{
	switch (it->type) {
	case OUT_U64:
		emit_u64(o, NULL, it->k, it->fmt, it->u);
		break;
	case OUT_STR:
		emit_str(o, NULL, it->k, it->fmt, it->s);
		break;
	case OUT_HEX64:
		emit_hex64(o, NULL, it->k, it->fmt, it->u);
		break;
	case OUT_BOOL:
		emit_bool(o, NULL, it->k, it->fmt, it->b);
		break;
	case OUT_BEGIN:
		open_container(o, NULL, it->k, false);
		break;
	case OUT_END:
		close_container(o, false);
		break;
	}
}

/* JSON lines: a run of members written through a local pointer (a store through o->buf may
 * alias o->len, so the single-value writers reload and store it around every byte).  What
 * those check per value is checked here once per run (the mode, the buffer space: ITEM_ROOM
 * bytes per member at most) or once per container (a member of an object, not of an array or
 * of nothing). */
#define ITEM_ROOM (1 + sizeof(((struct out_key *)0)->json) + 2 + 256 + 7)
#define ITEM_RUN 64

static void items_run(struct out *o, const struct out_item *it, unsigned int n)
{
	const struct out_item *end = it + n;
	char *p = o->buf + o->len;
	bool *first = &o->first[o->depth];
	bool comma = !*first;
	bool fast = o->depth > 0 && !o->is_arr[o->depth];

	for (; it < end; it++) {
		struct out_key *k = it->k;
		enum out_type t = it->type;
		char *e;

		/* a key seen for the first time (plain 0) takes the long way once, which checks it */
		if (__builtin_expect(fast && t != OUT_END && k &&
				     __atomic_load_n(&k->plain, __ATOMIC_RELAXED) > 0, 1)) {
			/* a member of an object: ,"key": then the value */
			*p = ',';
			p += comma;
			comma = true;
			*first = false;
			memcpy(p, k->json, sizeof(k->json));
			p += k->len + 3;
			if (t == OUT_U64) {	/* most members */
				p = put_u64(p, it->u);
				continue;
			}
			switch (t) {
			case OUT_STR:
				if (!it->s) {
					memcpy(p, "null", 4);
					p += 4;
					break;
				}
				e = put_str(p, it->s);
				if (e) {
					p = e;
					break;
				}
				/* escapes (or a long string) may take more than the room of
				 * one item: the rest of the run gets its room again */
				o->len = (size_t)(p - o->buf);
				ob_escape(o, it->s);
				if (sizeof(o->buf) - o->len < OB_ROOM + (size_t)(end - it) * ITEM_ROOM)
					ob_flush(o);
				p = o->buf + o->len;
				break;
			case OUT_HEX64:
				p = put_hex64(p, it->u);
				break;
			case OUT_BOOL:
				if (it->b)
					memcpy(p, "true", 4);
				else
					memcpy(p, "false", 5);
				p += 5 - it->b;
				break;
			case OUT_BEGIN:
				*p++ = '{';
				if (o->depth + 1 < OUT_MAX_DEPTH)
					o->depth++;
				first = &o->first[o->depth];
				*first = true;
				comma = false;
				o->is_arr[o->depth] = false;
				break;
			case OUT_U64:
			case OUT_END:
				break;
			}
			continue;
		}
		if (t == OUT_END && fast) {
			/* close_container for an object of JSON lines */
			*p++ = '}';
			if (--o->depth == 0) {
				*p++ = '\n';
				o->first[0] = true;	/* JSON lines: each top-level value stands alone */
				if (!o->hold) {
					o->len = (size_t)(p - o->buf);
					ob_flush(o);
					p = o->buf;
				}
			}
		} else {
			/* the long way checks its own space, but may use more than one item's
			 * (an escaped key or string): the rest of the run gets its room again */
			o->len = (size_t)(p - o->buf);
			item_slow(o, it);
			if (sizeof(o->buf) - o->len < OB_ROOM + (size_t)(end - it) * ITEM_ROOM)
				ob_flush(o);
			p = o->buf + o->len;
		}
		first = &o->first[o->depth];
		comma = !*first;
		fast = o->depth > 0 && !o->is_arr[o->depth];
	}
	o->len = (size_t)(p - o->buf);
}

void out_items(struct out *o, const struct out_item *it, unsigned int n)
{
	if (o->mode != OUT_JSON) {
		for (unsigned int i = 0; i < n; i++)
			item_slow(o, it + i);
		return;
	}
	while (n) {
		unsigned int run = n < ITEM_RUN ? n : ITEM_RUN;

		if (sizeof(o->buf) - o->len < OB_ROOM + run * ITEM_ROOM)
			ob_flush(o);
		items_run(o, it, run);
		it += run;
		n -= run;
	}
}
