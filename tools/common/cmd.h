/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Subcommands: one table per tool and one dispatcher, as iproute2's rdma tool has its rd_cmd
 * tables and rd_exec_cmd().  rdmastat, rdmadoctor and rdmatrace name their subcommands in a
 * table of struct tool_cmd; tool_cmd_find looks one up, tool_dispatch runs it. */
#ifndef RDIAG_CMD_H
#define RDIAG_CMD_H
#include <stddef.h>

struct tool_cmd {
	const char *name;	/* NULL: the default, run when no command is named */
	/* argv[0] is the program, argv[1 .. argc) the command's arguments; ctx is the tool's
	 * (its parsed options); the tool's exit status */
	int (*run)(int argc, char **argv, void *ctx);
	const void *data;	/* what the tool keeps of the command (what it takes) */
};

/* the command of cmds[0 .. n) named name, or NULL (name NULL: NULL) */
const struct tool_cmd *tool_cmd_find(const struct tool_cmd *cmds, size_t n, const char *name);

/* argv[0] is the program and argv[1] names the command: the command runs with (argc - 1,
 * argv + 1, ctx), its argv[0] set to the program's (argv[1] is overwritten), so that getopt's
 * messages name the tool as the tool's own options do.  When argv[1] is missing or names no
 * command, a table with a default row (name NULL) runs that row with (argc, argv, ctx), the
 * whole command line; a table without one fails: "missing command (a, b or c)" or "unknown
 * command 'x' (a, b or c)", usage errors (tool_usage_error: exit 2). */
int tool_dispatch(const struct tool_cmd *cmds, size_t n, int argc, char **argv, void *ctx);
#endif
