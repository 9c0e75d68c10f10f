/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One output path for text and JSON (the iproute2 print_*(PRINT_ANY) idea), kept in the
 * tools' common code as iproute2 keeps lib/json_print.c out of any installed library.
 *
 * Every value a tool prints goes through out_*(o, key, fmt, value): in JSON mode the
 * key/value pair is emitted (fmt ignored); in text mode fmt is printf'd with the value
 * (nothing when fmt is NULL).  Text and JSON therefore never disagree.
 *
 * JSON mode writes "JSON lines": each top-level object ends with a newline when closed.
 * Keys are escaped; strings are escaped (control characters, quotes, backslashes, invalid
 * UTF-8 bytes as \u00XX).  64-bit identifiers (VAs, GUIDs, service IDs) use out_hex64,
 * which writes the string "0x" + 16 hex digits in JSON.
 *
 * A handle belongs to one thread, and so does its FILE while the handle writes to it: text
 * fields go out with stdio's unlocked calls (JSON is buffered in the handle and flushed).
 */
#ifndef RDMADIAG_OUT_H
#define RDMADIAG_OUT_H
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

#include "text_fmt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct out;

enum out_mode {
	OUT_TEXT = 0,
	OUT_JSON = 1,	/* JSON lines */
	OUT_JSON_PRETTY = 2,
};

struct out *out_new(FILE *f, enum out_mode mode);
void out_free(struct out *o);
bool out_json(const struct out *o);
FILE *out_file(const struct out *o);

/* containers: key is NULL at top level and inside arrays */
void out_obj_begin(struct out *o, const char *key);
void out_obj_end(struct out *o);
void out_arr_begin(struct out *o, const char *key);
void out_arr_end(struct out *o);

/* values: fmt is the text-mode format for the value (may be NULL = not shown in text) */
void out_u64(struct out *o, const char *key, const char *fmt, uint64_t v);
void out_i64(struct out *o, const char *key, const char *fmt, int64_t v);
void out_dbl(struct out *o, const char *key, const char *fmt, double v);
void out_str(struct out *o, const char *key, const char *fmt, const char *s);
void out_bool(struct out *o, const char *key, const char *fmt, bool v);
void out_hex64(struct out *o, const char *key, const char *fmt, uint64_t v);
void out_null(struct out *o, const char *key);
/* a value that is already JSON (len bytes, one valid JSON value made by the library, written
 * as it is: not indented in OUT_JSON_PRETTY); nothing in text mode */
void out_json_raw(struct out *o, const char *key, const char *json, size_t len);

/* The same with a key known at compile time, for output written per packet: RDIAG_KEY("name")
 * (a string literal of at most 29 bytes) renders "name": once, so each value skips the key's
 * scan and escape check.  Output is byte for byte that of the calls above. */
struct out_key {
	const char *name;
	char json[32];		/* "name": (no terminating NUL needed) */
	unsigned char len;	/* strlen(name) */
	signed char plain;	/* 0 not looked at yet, 1 no escapes needed, -1 needs escapes */
	/* text mode: the last format written with this key, parsed once (tfmt_ok: it has a
	 * shape text_fmt.h takes).  A _k call's format must be a string literal (one address,
	 * one text); the keys are static, so _k calls in text mode belong to one thread */
	const char *tfmt;
	bool tfmt_ok;
	struct text_conv tconv;
};
#define RDIAG_KEY(lit) (__extension__ ({ \
	static struct out_key rdiag_key_ = { .name = "" lit "", .json = "\"" lit "\":", \
					     .len = sizeof(lit) - 1 }; \
	&rdiag_key_; }))

void out_obj_begin_k(struct out *o, struct out_key *k);
void out_u64_k(struct out *o, struct out_key *k, const char *fmt, uint64_t v);
void out_dbl_k(struct out *o, struct out_key *k, const char *fmt, double v);
void out_str_k(struct out *o, struct out_key *k, const char *fmt, const char *s);
void out_bool_k(struct out *o, struct out_key *k, const char *fmt, bool v);
void out_hex64_k(struct out *o, struct out_key *k, const char *fmt, uint64_t v);

/* A run of members written in one call, for output written per packet: the same bytes as the
 * single-value calls above, in order, without a call, a mode check and a container check per
 * value.  Text mode prints each item's fmt (NULL = not shown) with its value; JSON mode writes
 * "key":value.  OUT_BEGIN opens an object under k (fmt and value unused) and
 * OUT_END closes it (k unused), so a header with its fields is one call. */
enum out_type {
	OUT_U64,		/* .u */
	OUT_STR,		/* .s (NULL = null in JSON, "" in text) */
	OUT_HEX64,	/* .u */
	OUT_BOOL,		/* .b */
	OUT_BEGIN,
	OUT_END,
};
struct out_item {
	struct out_key *k;
	const char *fmt;
	enum out_type type;
	union {
		uint64_t u;
		const char *s;
		bool b;
	};
};
void out_items(struct out *o, const struct out_item *it, unsigned int n);

/* JSON lines normally leave for the stream once per top-level value (a reader of a live
 * capture sees each line at once).  Held, they collect until the buffer (64 KiB) is full,
 * and the stream gets one big write instead of one per line: for reading files.  Whatever
 * is held is written by out_flush(), out_file() and out_free(). */
void out_hold(struct out *o, bool hold);
void out_flush(struct out *o);

/* A whole record formatted by the caller straight into a held writer's buffer (rdmadump's
 * common packet lines): out_reserve() gives room for n bytes after what the writer holds, or
 * NULL when it is not held, a JSON container is open, it pretty-prints JSON or n is more than the buffer; the caller
 * writes at most n bytes there and hands the end to out_commit().  The bytes go out as they
 * are (the caller escapes and separates them itself). */
char *out_reserve(struct out *o, size_t n);
void out_commit(struct out *o, const char *end);

/* text-only output (ignored in JSON mode) */
void out_text(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* n bytes of text as they are (the caller's own literal text: not escaped) */
void out_text_lit(struct out *o, const char *s, size_t n);

/* escaping helpers for other formats; each writes to f and returns 0 or -errno */
int json_escape(FILE *f, const char *s);
int csv_escape(FILE *f, const char *s);		/* RFC 4180 field */
/* XML 1.0 character data or attribute value: & < > " ' as references; the bytes XML cannot
 * hold at all (C0 controls but tab, newline and CR; a byte outside valid UTF-8; U+FFFE,
 * U+FFFF) as the text \ooo, as tool_esc() shows them */
int xml_escape(FILE *f, const char *s);
int prom_label_escape(FILE *f, const char *s);	/* \\, \", \n escaped */
/* each of SPECIAL's characters in S (of \\, \", newline) escaped, the rest as it is */
int prom_escape_chars(FILE *f, const char *s, const char *special);
int prom_name(char *buf, size_t len, const char *s); /* snake_case [a-z_:][a-z0-9_:]* */

#ifdef __cplusplus
}
#endif
#endif
