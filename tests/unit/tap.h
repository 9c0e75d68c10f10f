/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Minimal TAP helper for the C unit tests: no framework, one header.
 *
 *   int main(void) { EXPECT_EQ(1 + 1, 2); EXPECT_STREQ(s, "x"); return tap_done(); }
 *
 * Every EXPECT_* prints one "ok N - expr" or "not ok N - expr" line with the expected and
 * actual values and the source line on failure.  tap_done() prints the plan and returns
 * non-zero when anything failed. */
#ifndef RDIAG_TAP_H
#define RDIAG_TAP_H
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void tap_result(int ok, const char *what, const char *file, int line)
{
	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_n, what);
	if (!ok)
		printf("#   at %s:%d\n", file, line);
}

#define EXPECT_TRUE(c) tap_result(!!(c), #c, __FILE__, __LINE__)
#define EXPECT_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	tap_result(a_ == b_, #a " == " #b, __FILE__, __LINE__); \
	if (a_ != b_) printf("#   got %lld (0x%llx), expected %lld (0x%llx)\n", a_, \
		(unsigned long long)a_, b_, (unsigned long long)b_); \
} while (0)
#define EXPECT_U64(a, b) do { \
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
	tap_result(a_ == b_, #a " == " #b, __FILE__, __LINE__); \
	if (a_ != b_) printf("#   got %" PRIu64 ", expected %" PRIu64 "\n", a_, b_); \
} while (0)
#define EXPECT_DBL(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	int ok_ = (a_ - b_ <= (eps)) && (b_ - a_ <= (eps)); \
	tap_result(ok_, #a " ~= " #b, __FILE__, __LINE__); \
	if (!ok_) printf("#   got %g, expected %g\n", a_, b_); \
} while (0)
#define EXPECT_STREQ(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	int ok_ = a_ && b_ && strcmp(a_, b_) == 0; \
	tap_result(ok_, #a " eq " #b, __FILE__, __LINE__); \
	if (!ok_) printf("#   got \"%s\", expected \"%s\"\n", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
