/* Text-mode output of one value through a printf format, without printf for the formats the
 * tools use most (literal text around one %s, %u, %x or %X conversion with optional '0' / '-'
 * flags, a width and an l / ll / j / z length); internal to tools/common. */
#ifndef RD_TEXT_FMT_H
#define RD_TEXT_FMT_H
#include <stddef.h>
#include <stdint.h>

/* The field into dst (at most cap bytes, no NUL): its length; -1 when fmt is not one of those
 * shapes or the field does not fit (the caller then uses printf).  The bytes are exactly what
 * printf(fmt, v) writes. */
int text_fmt_u64(char *dst, size_t cap, const char *fmt, uint64_t v);
int text_fmt_str(char *dst, size_t cap, const char *fmt, const char *s);
#endif
