/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The interval and count options shared by rdmastat and rdmatop; see interval.h. */
#include "interval.h"
#include "tool.h"

double tool_interval_arg(const char *s)
{
	double v;

	if (tool_parse_double(s, TOOL_INTERVAL_MIN, TOOL_INTERVAL_MAX, &v) < 0)
		tool_usage_error("invalid interval '%s': seconds from %g to %g", s,
				 TOOL_INTERVAL_MIN, TOOL_INTERVAL_MAX);
	return v;
}

uint64_t tool_count_arg(const char *s)
{
	uint64_t v;

	if (tool_parse_u64(s, TOOL_COUNT_MAX, &v) < 0 || !v)
		tool_usage_error("invalid count '%s': a whole number from 1 to %u", s,
				 (unsigned int)TOOL_COUNT_MAX);
	return v;
}
