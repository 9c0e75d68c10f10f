/* One output path for text and JSON; see rdmadiag/out.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>

#include "rdmadiag/out.h"

/* the text formats come from the callers by design (iproute2 print_* style) */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define OUT_MAX_DEPTH 32

struct rdiag_out {
	FILE *f;
	enum rdiag_out_mode mode;
	int depth;
	bool first[OUT_MAX_DEPTH];	/* no member written yet at this depth */
	bool is_arr[OUT_MAX_DEPTH];
};

struct rdiag_out *rdiag_out_new(FILE *f, enum rdiag_out_mode mode)
{
	struct rdiag_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->f = f;
	o->mode = mode;
	o->first[0] = true;
	return o;
}

void rdiag_out_free(struct rdiag_out *o)
{
	if (!o)
		return;
	fflush(o->f);
	free(o);
}

bool rdiag_out_json(const struct rdiag_out *o)
{
	return o->mode != RDIAG_OUT_TEXT;
}

FILE *rdiag_out_file(const struct rdiag_out *o)
{
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

static void put_u64(FILE *f, uint64_t v)
{
	char b[24], *e = b + sizeof(b), *q = e;

	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite_unlocked(q, 1, (size_t)(e - q), f);
}

static void put_hex64_str(FILE *f, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char b[21];

	b[0] = '"';
	b[1] = '0';
	b[2] = 'x';
	for (int i = 0; i < 16; i++)
		b[3 + i] = hex[(v >> (60 - 4 * i)) & 0xf];
	b[19] = '"';
	fwrite_unlocked(b, 1, 20, f);
}

int rdiag_json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t plain;

	if (plain_ascii(s, &plain)) {
		putc_unlocked('"', f);
		fwrite_unlocked(s, 1, plain, f);
		return putc_unlocked('"', f) == EOF ? -EIO : 0;
	}
	if (putc('"', f) == EOF)
		return -EIO;
	for (; *p; p++) {
		unsigned char c = *p;

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else if (c >= 0x80) {
				/* pass valid UTF-8 sequences through, escape stray bytes */
				int n = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 :
					(c & 0xf8) == 0xf0 ? 3 : -1;
				int i;

				for (i = 1; n > 0 && i <= n; i++)
					if ((p[i] & 0xc0) != 0x80)
						break;
				if (n > 0 && i > n) {
					fwrite(p, 1, (size_t)n + 1, f);
					p += n;
				} else {
					fprintf(f, "\\u%04x", c);
				}
			} else
				putc(c, f);
		}
	}
	return putc('"', f) == EOF ? -EIO : 0;
}

int rdiag_csv_escape(FILE *f, const char *s)
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

int rdiag_prom_label_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			putc(*s, f);
	}
	return ferror(f) ? -EIO : 0;
}

int rdiag_prom_name(char *buf, size_t len, const char *s)
{
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
		buf[i++] = c;
	}
	buf[i] = '\0';
	return *s ? -ENOSPC : 0;
}

/* JSON: separator and key before a member */
static void json_member(struct rdiag_out *o, const char *key)
{
	if (!o->first[o->depth])
		putc_unlocked(',', o->f);
	o->first[o->depth] = false;
	if (o->mode == RDIAG_OUT_JSON_PRETTY && o->depth > 0) {
		putc('\n', o->f);
		fprintf(o->f, "%*s", o->depth * 2, "");
	}
	if (key && o->depth > 0 && !o->is_arr[o->depth]) {
		rdiag_json_escape(o->f, key);
		if (o->mode == RDIAG_OUT_JSON_PRETTY)
			fputs(": ", o->f);
		else
			putc_unlocked(':', o->f);
	}
}

static void open_container(struct rdiag_out *o, const char *key, bool arr)
{
	if (o->mode == RDIAG_OUT_TEXT)
		return;
	json_member(o, key);
	putc_unlocked(arr ? '[' : '{', o->f);
	if (o->depth + 1 < OUT_MAX_DEPTH)
		o->depth++;
	o->first[o->depth] = true;
	o->is_arr[o->depth] = arr;
}

static void close_container(struct rdiag_out *o, bool arr)
{
	bool empty;

	if (o->mode == RDIAG_OUT_TEXT)
		return;
	empty = o->first[o->depth];
	if (o->depth > 0)
		o->depth--;
	if (o->mode == RDIAG_OUT_JSON_PRETTY && !empty)
		fprintf(o->f, "\n%*s", o->depth * 2, "");
	putc_unlocked(arr ? ']' : '}', o->f);
	if (o->depth == 0) {
		putc_unlocked('\n', o->f);
		o->first[0] = true;	/* JSON lines: each top-level value stands alone */
	}
}

void rdiag_out_obj_begin(struct rdiag_out *o, const char *key)
{
	open_container(o, key, false);
}

void rdiag_out_obj_end(struct rdiag_out *o)
{
	close_container(o, false);
}

void rdiag_out_arr_begin(struct rdiag_out *o, const char *key)
{
	open_container(o, key, true);
}

void rdiag_out_arr_end(struct rdiag_out *o)
{
	close_container(o, true);
}

#define TEXT_OR_JSON(o, key, fmt, textval, ...) do { \
	if ((o)->mode == RDIAG_OUT_TEXT) { \
		if (fmt) \
			fprintf((o)->f, fmt, textval); \
		return; \
	} \
	json_member(o, key); \
	__VA_ARGS__; \
} while (0)

void rdiag_out_u64(struct rdiag_out *o, const char *key, const char *fmt, uint64_t v)
{
	TEXT_OR_JSON(o, key, fmt, v, put_u64(o->f, v));
}

void rdiag_out_i64(struct rdiag_out *o, const char *key, const char *fmt, int64_t v)
{
	TEXT_OR_JSON(o, key, fmt, v, fprintf(o->f, "%" PRId64, v));
}

void rdiag_out_dbl(struct rdiag_out *o, const char *key, const char *fmt, double v)
{
	TEXT_OR_JSON(o, key, fmt, v,
		     (v != v || v - v != 0) ? (void)fputs("null", o->f) :
		     (void)fprintf(o->f, "%.6g", v));
}

void rdiag_out_str(struct rdiag_out *o, const char *key, const char *fmt, const char *s)
{
	TEXT_OR_JSON(o, key, fmt, s ? s : "", s ? (void)rdiag_json_escape(o->f, s) :
		     (void)fputs("null", o->f));
}

void rdiag_out_bool(struct rdiag_out *o, const char *key, const char *fmt, bool v)
{
	TEXT_OR_JSON(o, key, fmt, v ? "true" : "false", fputs(v ? "true" : "false", o->f));
}

void rdiag_out_hex64(struct rdiag_out *o, const char *key, const char *fmt, uint64_t v)
{
	TEXT_OR_JSON(o, key, fmt, v, put_hex64_str(o->f, v));
}

void rdiag_out_null(struct rdiag_out *o, const char *key)
{
	if (o->mode == RDIAG_OUT_TEXT)
		return;
	json_member(o, key);
	fputs("null", o->f);
}

void rdiag_out_text(struct rdiag_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->mode != RDIAG_OUT_TEXT)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}
