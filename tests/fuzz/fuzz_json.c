/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the JSON reader of lib/describe (lib/describe/json.c, which reads host
 * descriptions, and for the doctor 'nft -j list ruleset' and a peer's counters).
 *
 * Input: the JSON text, from an exactly sized heap copy with no terminating NUL (the reader
 * takes a length, so ASan flags any read past it).  The tree is walked to the bottom,
 * every member looked up by name, then freed (LeakSanitizer checks the free). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "describe/describe.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static size_t walk(const struct rd_json *j, const struct rd_json *parent, int depth)
{
	size_t n = 0;

	CHECK(depth <= 1000);
	for (; j; j = j->next) {
		n++;
		CHECK(j->type <= RD_JOBJ);
		if (j->type == RD_JSTR)
			CHECK(j->str != NULL);
		if (parent && parent->type == RD_JOBJ) {
			CHECK(j->key != NULL);
			/* the first member of that name is found by name */
			CHECK(rd_json_get(parent, j->key) != NULL);
		}
		if (j->type == RD_JARR || j->type == RD_JOBJ)
			n += walk(j->child, j, depth + 1);
		else
			CHECK(j->child == NULL);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_json *root;
	char *b;

	if (size > (1 << 20))
		return 0;
	b = malloc(size ? size : 1);
	memcpy(b, data, size);
	root = rd_json_parse(b, size);
	if (root) {
		(void)walk(root, NULL, 0);
		(void)rd_json_get(root, "nftables");
		(void)rd_json_get(root, "");
	}
	rd_json_free(root);
	free(b);
	return 0;
}
