/* Text-mode output of one value through a printf format, without printf for the formats the
 * tools use most (literal text around one %s, %u, %x or %X conversion with optional '0' / '-'
 * flags, a width and an l / ll / j / z length); internal to tools/common. */
#ifndef RD_TEXT_FMT_H
#define RD_TEXT_FMT_H
#include <stdint.h>
#include <stdio.h>

/* 0 when written; -1 when fmt is not one of those shapes (the caller uses fprintf); the
 * output is byte for byte what fprintf(f, fmt, v) writes */
int text_fmt_u64(FILE *f, const char *fmt, uint64_t v);
int text_fmt_str(FILE *f, const char *fmt, const char *s);
#endif
