/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the doctor's firewall scanners (lib/doctor/doctor_fw.c) on what
 * 'nft -j list ruleset' and 'iptables-save' print.
 *
 * Input: byte 0 picks the scanner (even: nft JSON, odd: iptables-save text), the rest is
 * the tool's output, NUL-terminated in an exactly sized heap copy.  The result's invariants
 * are checked: at most 16 hits, each with a known strength and terminated strings. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/internal.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_fw_result res;
	size_t i;
	char *b;
	int r;

	if (size < 1 || size > (1 << 20))
		return 0;
	b = malloc(size);
	memcpy(b, data + 1, size - 1);
	b[size - 1] = '\0';
	if (data[0] & 1)
		r = rd_fw_scan_iptables(b, &res);
	else
		r = rd_fw_scan_nft_json(b, &res);
	CHECK(r == 0 || r == -EINVAL);
	if (r == 0) {
		CHECK(res.n <= sizeof(res.hit) / sizeof(res.hit[0]));
		for (i = 0; i < res.n; i++) {
			CHECK(res.hit[i].strength == RD_FW_WEAK || res.hit[i].strength == RD_FW_STRONG);
			CHECK(memchr(res.hit[i].where, 0, sizeof(res.hit[i].where)));
			CHECK(memchr(res.hit[i].text, 0, sizeof(res.hit[i].text)));
		}
	}
	free(b);
	return 0;
}
