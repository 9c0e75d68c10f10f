/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Subcommands: one table per tool and one dispatcher; see cmd.h. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "tool.h"

const struct tool_cmd *tool_cmd_find(const struct tool_cmd *cmds, size_t n, const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < n; i++)
		if (cmds[i].name && !strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* "a, b or c": the names of the table, for a usage message */
static const char *cmd_list(const struct tool_cmd *cmds, size_t n, char *buf, size_t len)
{
	size_t i, off = 0, named = 0, seen = 0;

	for (i = 0; i < n; i++)
		named += cmds[i].name != NULL;
	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++) {
		if (!cmds[i].name)
			continue;
		seen++;
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					seen == 1 ? "" : seen == named ? " or " : ", ", cmds[i].name);
	}
	return buf;
}

int tool_dispatch(const struct tool_cmd *cmds, size_t n, int argc, char **argv, void *ctx)
{
	const struct tool_cmd *c = argc > 1 ? tool_cmd_find(cmds, n, argv[1]) : NULL;
	char list[256];
	size_t i;

	if (c) {
		argv[1] = argv[0];
		return c->run(argc - 1, argv + 1, ctx);
	}
	for (i = 0; i < n; i++)
		if (!cmds[i].name)
			return cmds[i].run(argc, argv, ctx);
	if (argc < 2)
		tool_usage_error("missing command (%s)", cmd_list(cmds, n, list, sizeof(list)));
	tool_usage_error("unknown command '%s' (%s)", argv[1], cmd_list(cmds, n, list, sizeof(list)));
}
