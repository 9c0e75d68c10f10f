/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump's durations in text: "812ns", "12.3us", "1.23ms", "2.05s" (%.0f below a
 * microsecond, else three significant digits, %.3g, of the largest unit up to seconds).
 * dump_dur_ns() gives dump_dur()'s bytes for a whole number of ns without printf (the -S table
 * writes two per flow).  buf: 24 bytes; both return buf. */
#ifndef RDIAG_DUMP_DUR_H
#define RDIAG_DUMP_DUR_H
#include <stddef.h>
#include <stdint.h>

const char *dump_dur(char *buf, size_t len, double ns);
const char *dump_dur_ns(char *buf, size_t len, uint64_t ns);
#endif
