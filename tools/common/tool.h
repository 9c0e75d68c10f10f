/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Shared bits of every rdmadiag tool: program name, messages, exit codes, number parsing.
 *
 * Messages follow one style (git CodingGuidelines): "prog: cannot open 'x': reason", lower
 * case, no trailing full stop, the subject quoted, what failed first. */
#ifndef RDIAG_TOOL_H
#define RDIAG_TOOL_H
#include <stdint.h>
#include <stdbool.h>

/* documented in every man page */
enum {
	EXIT_OK = 0,
	EXIT_FOUND = 1,		/* a problem was found / threshold exceeded / test failed */
	EXIT_USAGE = 2,		/* usage, input or environment error */
};

/* the tool's name in every message, getopt's own too (argv[0] becomes NAME: an invocation by
 * path says "rdmastat: invalid option", not "/usr/local/bin/rdmastat: ...") */
void tool_init(const char *name, char **argv);
const char *tool_name(void);

/* "prog: msg\n" on stderr */
void tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tool_err + exit(EXIT_USAGE) */
void tool_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "prog: msg\nTry 'prog --help' for more information.\n", exit(EXIT_USAGE) */
void tool_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void tool_version(void);
/* "prog: no RDMA devices under ROOT/sys/class/infiniband: is ... loaded, ...?", exit(EXIT_USAGE):
 * no device to look at is an environment error in every tool (rdmadiag(7)); root "" = / */
void tool_die_no_devices(const char *sysfs_root) __attribute__((noreturn));

/* a name from the library's tables, which give NULL for a value without a name, or the
 * tool's fallback ("UNKNOWN", "?") */
static inline const char *tool_name_or(const char *name, const char *fallback)
{
	return name ? name : fallback;
}

/* strict number parsing: whole string, range checked; 0 or -EINVAL/-ERANGE */
int tool_parse_u64(const char *s, uint64_t max, uint64_t *out);
int tool_parse_double(const char *s, double min, double max, double *out);

#endif
