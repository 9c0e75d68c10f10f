/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The interval options of the tools that sample over time (rdmastat -i, rdmatop -d) and their
 * companion count (-n): one parser, one set of limits, one message, as rdmadiag(7) states. */
#ifndef RDIAG_INTERVAL_H
#define RDIAG_INTERVAL_H
#include <stdint.h>

#define TOOL_INTERVAL_MIN 0.001		/* seconds */
#define TOOL_INTERVAL_MAX 86400.0	/* one day */
#define TOOL_COUNT_MAX UINT32_MAX

/* SECONDS: a decimal number, fractions allowed, TOOL_INTERVAL_MIN to TOOL_INTERVAL_MAX; anything
 * else is a usage error (exit 2): "invalid interval 'x': seconds from 0.001 to 86400" */
double tool_interval_arg(const char *s);
/* COUNT: a whole number from 1 to TOOL_COUNT_MAX; anything else is a usage error (exit 2) */
uint64_t tool_count_arg(const char *s);

#endif
