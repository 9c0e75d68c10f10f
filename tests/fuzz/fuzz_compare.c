/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: rdmadoctor compare's reader (rdiag_describe_compare_add/run: documents
 * from many hosts, collected by whatever the site uses, so anything goes).
 *
 * Input: lines, each one document, from exactly sized heap copies: read by the one parser of
 * the host description (local -j's "host" object, the line a listener serves).  Every add is
 * 0, -EINVAL (not a host description, or a member of the wrong type) or -ENOMEM; after run,
 * every property has a name and a field inside it, majority plus differing hosts never exceed the hosts, each differing host has a
 * name and a value other than the majority, and the properties that differ come first.  What
 * the text output prints of them (names, values, hosts: another party's bytes) carries no
 * control to a terminal once escaped (tools/common/esc.c: C0, DEL, C1 raw or in UTF-8). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/describe.h"
#include "common/esc.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void esc_clean(const char *s)
{
	char b[512];

	if (s)
		CHECK(!tool_needs_esc(tool_esc(s, b, sizeof(b))));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_describe_compare *c;
	size_t off = 0, i, j, n;
	bool same_seen = false;

	if (size > 65536 || rdiag_describe_compare_open(&c, NULL))
		return 0;
	while (off < size) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (data + off)) : size - off;
		char *line = malloc(len ? len : 1);
		int ret;

		memcpy(line, data + off, len);
		ret = rdiag_describe_compare_add(c, line, len, "f");
		CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
		free(line);
		off += len + 1;
	}
	CHECK(rdiag_describe_compare_run(c) == 0);
	n = rdiag_describe_compare_nprops(c);
	for (i = 0; i < n; i++) {
		const struct rdiag_desc_cmp_prop *p = rdiag_describe_compare_prop(c, i);

		CHECK(p && p->name && p->field && p->field >= p->name &&
		      p->field < p->name + strlen(p->name) + 1);
		CHECK(rdiag_cmp_impact_name(p->impact) && p->why);
		CHECK(p->nmajority + p->ndiffer <= rdiag_describe_compare_nhosts(c));
		CHECK(!p->ndiffer || !same_seen);	/* differing ones first */
		if (!p->ndiffer)
			same_seen = true;
		esc_clean(p->name);
		esc_clean(p->majority);
		for (j = 0; j < p->ndiffer; j++) {
			CHECK(p->differ[j].host);
			esc_clean(p->differ[j].host);
			esc_clean(p->differ[j].value);
			CHECK(!(p->majority && p->differ[j].value &&
				!strcmp(p->majority, p->differ[j].value)));
			CHECK(p->majority || p->differ[j].value);
		}
	}
	CHECK(rdiag_describe_compare_prop(c, n) == NULL);
	rdiag_describe_compare_close(c);
	return 0;
}
