/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The tools' clocks, in ns, written once (the library's own, lib/util, is private to it). */
#ifndef RDIAG_CLOCK_H
#define RDIAG_CLOCK_H
#include <stdint.h>

/* CLOCK_MONOTONIC now: intervals, deadlines, the trace clock "mono" */
uint64_t tool_mono_ns(void);
/* CLOCK_REALTIME now: the wall clock, ns since the epoch */
uint64_t tool_real_ns(void);
/* the wall clock minus the monotonic one, both read now (the wall clock first): added to a
 * CLOCK_MONOTONIC time it gives the wall clock time */
int64_t tool_mono_to_real_ns(void);

#endif
