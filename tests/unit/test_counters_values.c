/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A counter value is what the kernel writes, decimal digits and a newline; anything else is an
 * unreadable counter that carries its text, never a number made up from it: a blank or empty
 * file is not 0, "0x10" is not 16, "-1" is not 2^64 - 1, and a value past 2^64 - 1 is out of
 * range.  "010" is ten (decimal, not octal).  Through the public API on a scratch sysfs tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdmadiag/counters.h>
#include "scratch_tree.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char r[512];

	snprintf(r, sizeof(r), "%s/%s", "sys/class/infiniband/rxe9", rel);
	tree_put(root, r, text);
}

static const struct { const char *name, *text; int err; unsigned long long value;
		      const char *shown; } cases[] = {
	{ "c_plain", "12\n", 0, 12, NULL },
	{ "c_max", "18446744073709551615\n", 0, 18446744073709551615ull, NULL },
	{ "c_leading_zero", "010\n", 0, 10, NULL },
	{ "c_trailing_blank", "7 \n", 0, 7, NULL },
	{ "c_blank", "  \n", -EINVAL, 0, "" },
	{ "c_newline", "\n", -EINVAL, 0, "" },
	{ "c_empty", "", -EINVAL, 0, "" },
	{ "c_hex", "0x10\n", -EINVAL, 0, "0x10" },
	{ "c_negative", "-1\n", -EINVAL, 0, "-1" },
	{ "c_plus", "+5\n", -EINVAL, 0, "+5" },
	{ "c_leading_blank", " 5\n", -EINVAL, 0, " 5" },
	{ "c_text", "N/A\n", -EINVAL, 0, "N/A" },
	{ "c_two", "1 2\n", -EINVAL, 0, "1 2" },
	{ "c_overflow", "18446744073709551616\n", -ERANGE, 0, "18446744073709551616" },
};

int main(void)
{
	struct rdiag_counters_opts o = { .source = RDIAG_SRC_SYSFS };
	struct rdiag_filter f = { NULL, 0 };
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *s = NULL;
	char cmd[128], rel[128];
	size_t i;

	strcpy(root, "/tmp/rdiag-values-XXXXXX");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	put("node_type", "1: CA\n");
	put("ports/1/state", "4: ACTIVE\n");
	put("ports/1/link_layer", "Ethernet\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(rel, sizeof(rel), "ports/1/hw_counters/%s", cases[i].name);
		put(rel, cases[i].text);
	}
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	EXPECT_EQ(rdiag_counters_open(&c, &o), 0);
	EXPECT_EQ(rdiag_counters_sample(c, &f, &s), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rdiag_sample *x = rdiag_samples_find(s, "rxe9", 1, cases[i].name);

		printf("# %s: %s\n", cases[i].name, x ? (x->err ? "unreadable" : "value") : "absent");
		EXPECT_TRUE(x != NULL);
		if (!x)
			continue;
		EXPECT_EQ(x->err, cases[i].err);
		if (!cases[i].err) {
			EXPECT_EQ(x->value, cases[i].value);
			EXPECT_TRUE(x->text == NULL);
		} else {
			EXPECT_TRUE(x->text != NULL);
			EXPECT_STREQ(x->text ? x->text : "(null)", cases[i].shown);
		}
	}
	rdiag_samples_free(s);
	rdiag_counters_close(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ(system(cmd), 0);
	return tap_done();
}
