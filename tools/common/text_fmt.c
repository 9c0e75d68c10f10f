/* Text-mode output of one value through a printf format (see text_fmt.h).  rdmadump's packet
 * lines are a few dozen such fields each: through fprintf they cost about 4 000 instructions
 * per line, most of it vfprintf parsing the format and setting up; here a field is a scan of
 * its format, the digit writer (put_u64.h) or a hex loop, and a copy into the caller's
 * buffer. */
#include <stdbool.h>
#include <string.h>

#include "put_u64.h"
#include "text_fmt.h"

struct conv {
	const char *pre, *post;		/* literal text before and after the conversion */
	size_t npre, npost;
	bool zero, left;
	unsigned int width;
	bool wide;			/* an l, ll, j or z length: a 64-bit argument */
	char c;				/* 's', 'u', 'x' or 'X' */
};

/* literal text up to the first '%' (no "%%" anywhere: those fall back) */
static int parse(const char *fmt, struct conv *cv)
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
	return 0;
}

/* the field into dst (at most cap bytes, no NUL): its length, or -1 when it does not fit */
static int put_padded(char *dst, size_t cap, const struct conv *cv, const char *s, size_t n,
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

int text_fmt_u64(char *dst, size_t cap, const char *fmt, uint64_t v)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	struct conv cv;
	char b[24], *e = b + sizeof(b), *q = e;

	if (parse(fmt, &cv) < 0 || cv.c == 's' || !cv.wide)
		return -1;
	if (cv.c == 'u') {
		q = b;
		e = put_u64(b, v);
	} else {
		const char *dig = cv.c == 'x' ? lower : upper;

		do
			*--q = dig[v & 15];
		while (v >>= 4);
	}
	return put_padded(dst, cap, &cv, q, (size_t)(e - q), true);
}

int text_fmt_str(char *dst, size_t cap, const char *fmt, const char *s)
{
	struct conv cv;

	if (parse(fmt, &cv) < 0 || cv.c != 's' || cv.wide)
		return -1;
	return put_padded(dst, cap, &cv, s, strlen(s), false);
}
