/* rdmadiag/out.h: one output path for text and JSON (the iproute2 print_*(PRINT_ANY) idea).
 *
 * Every value a tool prints goes through rdiag_out_*(o, key, fmt, value): in JSON mode the
 * key/value pair is emitted (fmt ignored); in text mode fmt is printf'd with the value
 * (nothing when fmt is NULL).  Text and JSON therefore never disagree.
 *
 * JSON mode writes "JSON lines": each top-level object ends with a newline when closed.
 * Keys are escaped; strings are escaped (control characters, quotes, backslashes, invalid
 * UTF-8 bytes as \u00XX).  64-bit identifiers (VAs, GUIDs, service IDs) use rdiag_out_hex64,
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

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_out;

enum rdiag_out_mode {
	RDIAG_OUT_TEXT = 0,
	RDIAG_OUT_JSON = 1,	/* JSON lines */
	RDIAG_OUT_JSON_PRETTY = 2,
};

struct rdiag_out *rdiag_out_new(FILE *f, enum rdiag_out_mode mode);
void rdiag_out_free(struct rdiag_out *o);
bool rdiag_out_json(const struct rdiag_out *o);
FILE *rdiag_out_file(const struct rdiag_out *o);

/* containers: key is NULL at top level and inside arrays */
void rdiag_out_obj_begin(struct rdiag_out *o, const char *key);
void rdiag_out_obj_end(struct rdiag_out *o);
void rdiag_out_arr_begin(struct rdiag_out *o, const char *key);
void rdiag_out_arr_end(struct rdiag_out *o);

/* values: fmt is the text-mode format for the value (may be NULL = not shown in text) */
void rdiag_out_u64(struct rdiag_out *o, const char *key, const char *fmt, uint64_t v);
void rdiag_out_i64(struct rdiag_out *o, const char *key, const char *fmt, int64_t v);
void rdiag_out_dbl(struct rdiag_out *o, const char *key, const char *fmt, double v);
void rdiag_out_str(struct rdiag_out *o, const char *key, const char *fmt, const char *s);
void rdiag_out_bool(struct rdiag_out *o, const char *key, const char *fmt, bool v);
void rdiag_out_hex64(struct rdiag_out *o, const char *key, const char *fmt, uint64_t v);
void rdiag_out_null(struct rdiag_out *o, const char *key);

/* The same with a key known at compile time, for output written per packet: RDIAG_KEY("name")
 * (a string literal of at most 29 bytes) renders "name": once, so each value skips the key's
 * scan and escape check.  Output is byte for byte that of the calls above. */
struct rdiag_out_key {
	const char *name;
	char json[32];		/* "name": (no terminating NUL needed) */
	unsigned char len;	/* strlen(name) */
	signed char plain;	/* 0 not looked at yet, 1 no escapes needed, -1 needs escapes */
};
#define RDIAG_KEY(lit) (__extension__ ({ \
	static struct rdiag_out_key rdiag_key_ = { "" lit "", "\"" lit "\":", sizeof(lit) - 1, 0 }; \
	&rdiag_key_; }))

void rdiag_out_obj_begin_k(struct rdiag_out *o, struct rdiag_out_key *k);
void rdiag_out_u64_k(struct rdiag_out *o, struct rdiag_out_key *k, const char *fmt, uint64_t v);
void rdiag_out_dbl_k(struct rdiag_out *o, struct rdiag_out_key *k, const char *fmt, double v);
void rdiag_out_str_k(struct rdiag_out *o, struct rdiag_out_key *k, const char *fmt, const char *s);
void rdiag_out_bool_k(struct rdiag_out *o, struct rdiag_out_key *k, const char *fmt, bool v);
void rdiag_out_hex64_k(struct rdiag_out *o, struct rdiag_out_key *k, const char *fmt, uint64_t v);

/* A run of members written in one call, for output written per packet: the same bytes as the
 * single-value calls above, in order, without a call, a mode check and a container check per
 * value.  Text mode prints each item's fmt (NULL = not shown) with its value; JSON mode writes
 * "key":value.  RDIAG_OUT_BEGIN opens an object under k (fmt and value unused) and
 * RDIAG_OUT_END closes it (k unused), so a header with its fields is one call. */
enum rdiag_out_type {
	RDIAG_OUT_U64,		/* .u */
	RDIAG_OUT_STR,		/* .s (NULL = null in JSON, "" in text) */
	RDIAG_OUT_HEX64,	/* .u */
	RDIAG_OUT_BOOL,		/* .b */
	RDIAG_OUT_BEGIN,
	RDIAG_OUT_END,
};
struct rdiag_out_item {
	struct rdiag_out_key *k;
	const char *fmt;
	enum rdiag_out_type type;
	union {
		uint64_t u;
		const char *s;
		bool b;
	};
};
void rdiag_out_items(struct rdiag_out *o, const struct rdiag_out_item *it, unsigned int n);

/* JSON lines normally leave for the stream once per top-level value (a reader of a live
 * capture sees each line at once).  Held, they collect until the buffer (64 KiB) is full,
 * and the stream gets one big write instead of one per line: for reading files.  Whatever
 * is held is written by rdiag_out_flush(), rdiag_out_file() and rdiag_out_free(). */
void rdiag_out_hold(struct rdiag_out *o, bool hold);
void rdiag_out_flush(struct rdiag_out *o);

/* text-only output (ignored in JSON mode) */
void rdiag_out_text(struct rdiag_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* escaping helpers for other formats; each writes to f and returns 0 or -errno */
int rdiag_json_escape(FILE *f, const char *s);
int rdiag_csv_escape(FILE *f, const char *s);		/* RFC 4180 field */
int rdiag_prom_label_escape(FILE *f, const char *s);	/* \\, \", \n escaped */
int rdiag_prom_name(char *buf, size_t len, const char *s); /* [a-zA-Z_:][a-zA-Z0-9_:]* */

#ifdef __cplusplus
}
#endif
#endif
