/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/trace/format_check.c: every format file of the QEMU tier's kernel
 * (tests/fixtures/trace/rxe-6.1/events/SYSTEM/EVENT/format) passes rd_trace_parse_format,
 * and each shape the kernel never writes is refused before libtraceevent sees it: the
 * print fmt line that does not end the file or runs over several lines (the fuzzer's find
 * that crashed libtraceevent 1.7, crash-format-print-fmt-lines), an unclosed string, brackets
 * that do not pair, an empty argument, a dangling operator or '->', a '?' without ':', a bare
 * name (crash-format-print-fmt-bare-name: "R%C->dev_index" made it divide by zero), a
 * division by 0 or by a field. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tap.h"
#include "trace/internal.h"

#define EVENTS "tests/fixtures/trace/rxe-6.1/events"

static int parse(const char *buf, const char *sys)
{
	struct tep_handle *tep = tep_alloc();
	int r;

	if (!tep)
		return -12;
	r = rd_trace_parse_format(tep, buf, strlen(buf), sys);
	tep_free(tep);
	return r;
}

static char *slurp(const char *path)
{
	char *b = NULL;
	size_t n;

	return rd_trace_slurp(path, &b, &n) == 0 ? b : NULL;
}

/* every format of the kernel parses */
static void test_kernel_formats(void)
{
	static const char *const systems[] = { "rdma_cma", "ib_cma", "ib_mad" };
	size_t i, n = 0, ok = 0;

	for (i = 0; i < 3; i++) {
		char dir[256];
		struct dirent *d;
		DIR *dp;

		snprintf(dir, sizeof(dir), EVENTS "/%s", systems[i]);
		dp = opendir(dir);
		EXPECT_TRUE(dp != NULL);
		while (dp && (d = readdir(dp))) {
			char path[600], *b;

			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/format", dir, d->d_name);
			if (!(b = slurp(path)))
				continue;
			n++;
			if (parse(b, systems[i]) == 0)
				ok++;
			else
				printf("# refused: %s\n", path);
			free(b);
		}
		if (dp)
			closedir(dp);
	}
	EXPECT_U64(66, n);
	EXPECT_U64(n, ok);
}

/* the kernel's cm_event_handler format with its print fmt line replaced by "print fmt: " REST */
static char *with_print(const char *base, const char *rest)
{
	const char *p = strstr(base, "\nprint fmt: ");
	size_t head = (size_t)(p - base) + 12;
	char *b = malloc(head + strlen(rest) + 1);

	memcpy(b, base, head);
	strcpy(b + head, rest);
	return b;
}

static void test_print_fmt(void)
{
	static const struct {
		const char *rest;
		int ok;
	} cases[] = {
		/* the kernel's shapes */
		{ "\"cm.id=%u\", REC->cm_id\n", 1 },
		{ "\"cm.id=%u tos=%u\", REC->cm_id, REC->tos\n", 1 },
		{ "\"%s\", __print_symbolic(REC->event, { 0, \"A\" }, { 1, \"B\" })\n", 1 },
		{ "\"%llx\", (__u64)__builtin_bswap64((__u64)(( __u64)(__be64)(REC->cm_id)))\n", 1 },
		{ "\"%d\", REC->tos ? REC->tos : 1\n", 1 },
		{ "\"%p\", (void *)REC->cm_id\n", 1 },
		{ "\"no arguments\"\n", 1 },
		{ "\"a \\\" quote\", REC->cm_id\n", 1 },
		{ "\"%u\", REC->cm_id\n\n", 1 },
		{ "\"%s\", __get_str(devname)\n", 1 },
		{ "\"%u\", REC->cm_id / 1000\n", 1 },
		{ "\"%u\", REC->cm_id % 0x10UL\n", 1 },
		/* never the kernel's */
		{ "\"%u\", REC->cm_id\nname: x\n", 0 },		/* not the file's last line */
		{ "\"%u\nname: x\", REC->cm_id\n", 0 },		/* the string runs on */
		{ "\"%u, REC->cm_id\n", 0 },			/* unclosed string */
		{ "\"%u\" REC->cm_id\n", 0 },			/* no comma */
		{ "\"%u\", (REC->cm_id\n", 0 },			/* unclosed bracket */
		{ "\"%u\", REC->cm_id)\n", 0 },			/* unopened bracket */
		{ "\"%s\", __print_symbolic(REC->event, { 0, \"A\" )}\n", 0 },	/* crossed */
		{ "\"%u %u\", REC->cm_id,, REC->tos\n", 0 },	/* empty argument */
		{ "\"%u\", REC->cm_id,\n", 0 },			/* trailing comma */
		{ "\"%u\", REC->cm_id +\n", 0 },		/* dangling operator */
		{ "\"%u\", (REC->cm_id -)\n", 0 },
		{ "\"%u\", REC->\n", 0 },			/* '->' with no name */
		{ "\"%u\", REC->->cm_id\n", 0 },
		{ "\"%u\", ->cm_id\n", 0 },
		{ "\"%u\", REC->cm_id REC->tos\n", 0 },		/* two operands */
		{ "\"%d\", REC->tos ? REC->tos\n", 0 },		/* '?' without ':' */
		{ "\"%d\", REC->tos : 1\n", 0 },
		{ "\"%u\", REC->cm_id @ 1\n", 0 },		/* not a C operator */
		{ "\"%u\", R%C->cm_id\n", 0 },		/* bare names (libtraceevent: SIGFPE) */
		{ "\"%u\", cm_id\n", 0 },
		{ "\"%u\", REC->cm_id / 0\n", 0 },		/* by zero */
		{ "\"%u\", REC->cm_id % 0x0\n", 0 },
		{ "\"%u\", REC->cm_id / REC->tos\n", 0 },	/* by a field: 0 in a record */
		{ "\"%u\", 1 (REC->cm_id)\n", 0 },		/* not a call */
		{ "\"%u\", REC->cm_id\nprint fmt: \"%u\", REC->cm_id\n", 0 },	/* twice */
	};
	char *base = slurp(EVENTS "/rdma_cma/cm_event_handler/format");
	size_t i;

	EXPECT_TRUE(base != NULL);
	if (!base)
		return;
	EXPECT_EQ(0, parse(base, "rdma_cma"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *b = with_print(base, cases[i].rest);
		int r = parse(b, "rdma_cma");

		if ((r == 0) != cases[i].ok)
			printf("# case %zu: print fmt: %s", i, cases[i].rest);
		EXPECT_EQ(cases[i].ok, r == 0);
		free(b);
	}
	free(base);
}

int main(void)
{
	test_kernel_formats();
	test_print_fmt();
	return tap_done();
}
