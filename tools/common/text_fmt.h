/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Text-mode output of one value through a printf format, without printf for the formats the
 * tools use most (literal text around one %s, %u, %x or %X conversion with optional '0' / '-'
 * flags, a width and an l / ll / j / z length); internal to tools/common. */
#ifndef RD_TEXT_FMT_H
#define RD_TEXT_FMT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The field into dst (at most cap bytes, no NUL): its length; -1 when fmt is not one of those
 * shapes or the field does not fit (the caller then uses printf).  The bytes are exactly what
 * printf(fmt, v) writes. */
int text_fmt_u64(char *dst, size_t cap, const char *fmt, uint64_t v);
int text_fmt_str(char *dst, size_t cap, const char *fmt, const char *s);

/* A format parsed once, for a caller that writes the same format many times (out's keyed
 * calls: one per packet field).  Literal text of up to TEXT_LIT bytes on either side is kept
 * in the struct, so that a field with room for TEXT_CONV_ROOM bytes in dst is written with
 * fixed-size moves and no scan of the format. */
#define TEXT_LIT 32
#define TEXT_WIDTH_FAST 64
#define TEXT_CONV_ROOM (2 * TEXT_LIT + 2 * TEXT_WIDTH_FAST + 24)
struct text_conv {
	const char *pre, *post;		/* literal text before and after the conversion */
	size_t npre, npost;
	unsigned int width;
	bool zero, left;
	bool wide;			/* an l, ll, j or z length: a 64-bit argument */
	bool inl;			/* pre/post fit in lit_pre/lit_post, width <= 64 */
	char c;				/* 's', 'u', 'x' or 'X' */
	char lit_pre[TEXT_LIT], lit_post[TEXT_LIT];
};
/* 0, or -1 when fmt is not one of the shapes above */
int text_conv_parse(struct text_conv *cv, const char *fmt);
/* as text_fmt_u64 / text_fmt_str with a parsed format (-1 also when its conversion is not
 * for this type); s_len: strlen(s) */
int text_conv_u64(char *dst, size_t cap, const struct text_conv *cv, uint64_t v);
int text_conv_str(char *dst, size_t cap, const struct text_conv *cv, const char *s,
		  size_t s_len);
#endif
