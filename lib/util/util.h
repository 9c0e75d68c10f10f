/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal to the library: the small utilities every module shares (the monotonic clock, the
 * RDMADIAG_SYSFS_ROOT test seam), written once here so that no module keeps its own copy.
 * util uses no other module.  banned.h beside it is not included from here: the build
 * force-includes it into every object of lib/, tools/ and tui/ (GNUmakefile, BANNED_CFLAGS). */
#ifndef RD_UTIL_INTERNAL_H
#define RD_UTIL_INTERNAL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns (the clock that stamps samples and measures intervals) */
uint64_t rd_mono_ns(void);
/* the same clock in ms, as a double (timeouts and the durations of steps) */
double rd_mono_ms(void);

/* the value 0-15 of hexadecimal digit c (either case), -1 when it is not one */
int rd_hexval(char c);

/* The sysfs root override, RDMADIAG_SYSFS_ROOT, read with secure_getenv(): ignored in a
 * setuid/setgid or file-capability process, which must not be pointed at a fake tree.  The
 * value goes into buf (len bytes) without its trailing slashes, "/" staying "/"; "" when it is
 * unset or empty (the real /).  Returns 0, or -ENAMETOOLONG when the value does not fit in
 * len - 1 bytes: buf then holds the part that fits (snprintf), without trailing slashes. */
int rd_sysfs_root(char *buf, size_t len);

/* root followed by the printf-formatted absolute path, in buf (cut to len, always ended):
 * a file of the host a sysfs root describes (root "" = this host); buf */
const char *rd_root_vpath(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

#endif
