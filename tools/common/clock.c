/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The tools' clocks; see clock.h. */
#include <time.h>

#include "clock.h"

uint64_t tool_mono_ns(void)
{
	struct timespec m;

	clock_gettime(CLOCK_MONOTONIC, &m);
	return (uint64_t)m.tv_sec * 1000000000ull + (uint64_t)m.tv_nsec;
}

uint64_t tool_real_ns(void)
{
	struct timespec r;

	clock_gettime(CLOCK_REALTIME, &r);
	return (uint64_t)r.tv_sec * 1000000000ull + (uint64_t)r.tv_nsec;
}

int64_t tool_mono_to_real_ns(void)
{
	struct timespec r, m;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	return ((int64_t)r.tv_sec - (int64_t)m.tv_sec) * 1000000000ll +
	       ((int64_t)r.tv_nsec - (int64_t)m.tv_nsec);
}
