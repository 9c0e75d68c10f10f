/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Points in time in the tools' JSON, one format in every tool (rdmadiag(7)): RFC 3339 in UTC
 * with nine fraction digits, "2026-12-01T21:04:59.123456789Z". */
#ifndef RDIAG_TIMEFMT_H
#define RDIAG_TIMEFMT_H
#include <stddef.h>
#include <stdint.h>

#define TOOL_TIME_LEN 31	/* the string and its NUL, for years up to 9999 */

/* sec.nsec after the epoch into buf; returns buf ("" when len is too small).  Written by hand,
 * without gmtime_r or snprintf: rdmadump writes one per packet. */
const char *tool_time_str(char *buf, size_t len, uint64_t sec, uint32_t nsec);
/* the wall clock (CLOCK_REALTIME) now, the same way */
const char *tool_time_now(char *buf, size_t len);

#endif
