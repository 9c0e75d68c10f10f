/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: a log line as rdmadoctor explain reads it (rdiag_explain_line: text from
 * another program's log, anything goes).
 *
 * Input: the line, from an exactly sized heap copy without a terminator.  The result is 0 or
 * -ENOENT; a recognised line has a printer, a first cause and 1..RDIAG_EXPLAIN_MAX_CAUSES
 * causes with terminated checks, a status with a name (or a firmware command instead), a
 * status source exactly when there is a status, a vendor confidence exactly when there is a
 * vendor error, and a syndrome name only for a syndrome the mlx5 provider defines; reading the
 * same line twice gives the same record. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/explain.h"
#include "rdmadiag/selftest.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rdiag_explain a, b;
	char *line;
	size_t i;
	int r1, r2;

	if (size > 8192)
		return 0;
	line = malloc(size ? size : 1);
	memcpy(line, data, size);
	r1 = rdiag_explain_line(line, size, &a);
	r2 = rdiag_explain_line(line, size, &b);
	CHECK(r1 == 0 || r1 == -ENOENT);
	CHECK(r1 == r2);
	if (r1 == 0) {
		CHECK(!memcmp(&a, &b, sizeof(a)));
		CHECK(a.printer && a.cause);
		CHECK(a.ncauses >= 1 && a.ncauses <= RDIAG_EXPLAIN_MAX_CAUSES);
		CHECK(!strcmp(a.cause, a.causes[0].id));
		for (i = 0; i < a.ncauses; i++)
			CHECK(a.causes[i].id && a.causes[i].text &&
			      memchr(a.causes[i].check, 0, sizeof(a.causes[i].check)));
		CHECK(memchr(a.device, 0, sizeof(a.device)) && memchr(a.peer, 0, sizeof(a.peer)) &&
		      memchr(a.cmd, 0, sizeof(a.cmd)) &&
		      memchr(a.cmd_status_str, 0, sizeof(a.cmd_status_str)));
		if (a.wc_status >= 0)
			CHECK(rdiag_wc_status_name(a.wc_status) && a.wc_status > 0 && a.status_from);
		else
			CHECK(a.has_cmd && !a.status_from);
		CHECK(!a.has_vendor_err == !a.vendor_confidence);
		if (a.syndrome_name)
			CHECK(a.has_syndrome && rdiag_mlx5_syndrome_wc_status(a.syndrome) > 0);
	}
	free(line);
	return 0;
}
