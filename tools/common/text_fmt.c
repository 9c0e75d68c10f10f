/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Text-mode output of one value through a printf format (see text_fmt.h).  rdmadump's packet
 * lines are a few dozen such fields each: through fprintf they cost about 4 000 instructions
 * per line, most of it vfprintf parsing the format and setting up; here a field is a scan of
 * its format (once per format for a caller that keeps the parsed form), the digit writer
 * (put_u64.h) or a hex loop, and a copy into the caller's buffer. */
#include <string.h>

#include "put_u64.h"
#include "text_fmt.h"

/* literal text up to the first '%' (no "%%" anywhere: those fall back) */
int text_conv_parse(struct text_conv *cv, const char *fmt)
{
	const char *p = strchr(fmt, '%');

	if (!p)
		return -1;
	cv->pre = fmt;
	cv->npre = (size_t)(p - fmt);
	p++;
	cv->zero = cv->left = false;
	for (;; p++) {
		if (*p == '0')
			cv->zero = true;
		else if (*p == '-')
			cv->left = true;
		else
			break;
	}
	cv->width = 0;
	while (*p >= '0' && *p <= '9') {
		cv->width = cv->width * 10 + (unsigned int)(*p++ - '0');
		if (cv->width > 4096)
			return -1;
	}
	cv->wide = false;
	if (*p == 'l') {
		p++;
		if (*p == 'l')
			p++;
		cv->wide = true;
	} else if (*p == 'j' || *p == 'z') {
		p++;
		cv->wide = true;
	}
	cv->c = *p;
	if (cv->c != 's' && cv->c != 'u' && cv->c != 'x' && cv->c != 'X')
		return -1;
	cv->post = p + 1;
	p = strchrnul(cv->post, '%');
	if (*p)
		return -1;
	cv->npost = (size_t)(p - cv->post);
	if (cv->left)
		cv->zero = false;	/* '-' overrides '0' */
	cv->inl = cv->npre <= TEXT_LIT && cv->npost <= TEXT_LIT && cv->width <= TEXT_WIDTH_FAST;
	if (cv->inl) {
		memset(cv->lit_pre, 0, TEXT_LIT);
		memset(cv->lit_post, 0, TEXT_LIT);
		memcpy(cv->lit_pre, cv->pre, cv->npre);
		memcpy(cv->lit_post, cv->post, cv->npost);
	}
	return 0;
}

/* the field into dst (at most cap bytes, no NUL): its length, or -1 when it does not fit.
 * s: n bytes, or NULL when the n digits already sit at dst + npre + pad (written in place) */
static int put_padded(char *dst, size_t cap, const struct text_conv *cv, const char *s, size_t n,
		      bool number)
{
	size_t pad = cv->width > n ? cv->width - n : 0;
	size_t total = cv->npre + pad + n + cv->npost;
	/* '0' pads numbers only; for %s glibc pads with spaces whatever the flag */
	char fill = cv->zero && number ? '0' : ' ', *q = dst;

	if (total > cap || total > INT32_MAX)
		return -1;
	memcpy(q, cv->pre, cv->npre);
	q += cv->npre;
	if (!cv->left) {
		memset(q, fill, pad);
		q += pad;
	}
	memcpy(q, s, n);
	q += n;
	if (cv->left) {
		memset(q, ' ', pad);
		q += pad;
	}
	memcpy(q, cv->post, cv->npost);
	return (int)total;
}

/* the digits of v into b, ending at b + 24 (b has 48 bytes: a fixed 24-byte move from the
 * start of the digits stays inside): their start */
static char *digits(char b[48], const struct text_conv *cv, uint64_t v)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	char *q = b + 24;

	if (cv->c == 'u') {
		char t[24];
		size_t n = (size_t)(put_u64(t, v) - t);

		q -= n;
		memcpy(q, t, n);
		return q;
	}
	{
		const char *dig = cv->c == 'x' ? lower : upper;

		do
			*--q = dig[v & 15];
		while (v >>= 4);
	}
	return q;
}

int text_conv_u64(char *dst, size_t cap, const struct text_conv *cv, uint64_t v)
{
	char b[48], *s;
	size_t n, pad;
	char *q;

	if (cv->c == 's' || !cv->wide)
		return -1;
	if (!cv->inl || cap < TEXT_CONV_ROOM) {
		s = digits(b, cv, v);
		return put_padded(dst, cap, cv, s, (size_t)(b + 24 - s), true);
	}
	/* room for everything: fixed-size moves, surplus bytes past the field are scratch */
	q = dst;
	memcpy(q, cv->lit_pre, TEXT_LIT);
	q += cv->npre;
	if (cv->c == 'u' && !cv->width) {
		q = put_u64(q, v);	/* most fields: no width, the digits in place */
	} else {
		s = digits(b, cv, v);
		n = (size_t)(b + 24 - s);
		pad = cv->width > n ? cv->width - n : 0;
		if (cv->left) {
			memcpy(q, s, 24);
			q += n;
			memset(q, ' ', TEXT_WIDTH_FAST);
			q += pad;
		} else {
			memset(q, cv->zero ? '0' : ' ', TEXT_WIDTH_FAST);
			q += pad;
			memcpy(q, s, 24);
			q += n;
		}
	}
	memcpy(q, cv->lit_post, TEXT_LIT);
	q += cv->npost;
	return (int)(q - dst);
}

/* n bytes of s to d: short strings (names, addresses) as overlapping words, within s */
static inline void copy_short(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, e;

	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&c, s, 4);
		memcpy(&e, s + n - 4, 4);
		memcpy(d, &c, 4);
		memcpy(d + n - 4, &e, 4);
	} else if (n > 16) {
		memcpy(d, s, n);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

int text_conv_str(char *dst, size_t cap, const struct text_conv *cv, const char *s,
		  size_t s_len)
{
	size_t pad;
	char *q;

	if (cv->c != 's' || cv->wide)
		return -1;
	if (!cv->inl || cap < TEXT_CONV_ROOM + s_len)
		return put_padded(dst, cap, cv, s, s_len, false);
	q = dst;
	pad = cv->width > s_len ? cv->width - s_len : 0;
	memcpy(q, cv->lit_pre, TEXT_LIT);
	q += cv->npre;
	if (!cv->left) {
		memset(q, ' ', TEXT_WIDTH_FAST);
		q += pad;
	}
	copy_short(q, s, s_len);
	q += s_len;
	if (cv->left) {
		memset(q, ' ', TEXT_WIDTH_FAST);
		q += pad;
	}
	memcpy(q, cv->lit_post, TEXT_LIT);
	q += cv->npost;
	return (int)(q - dst);
}

int text_fmt_u64(char *dst, size_t cap, const char *fmt, uint64_t v)
{
	struct text_conv cv;

	if (text_conv_parse(&cv, fmt) < 0)
		return -1;
	return text_conv_u64(dst, cap, &cv, v);
}

int text_fmt_str(char *dst, size_t cap, const char *fmt, const char *s)
{
	struct text_conv cv;

	if (text_conv_parse(&cv, fmt) < 0)
		return -1;
	return text_conv_str(dst, cap, &cv, s, strlen(s));
}
