/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* tool_cmd_find() and tool_dispatch() (tools/common/cmd.c): the command named by argv[1] runs
 * with the program as argv[0] and the tool's context; without a named command the default
 * row runs with the whole command line.  The usage errors exit, and are checked on the tools
 * by tests/bats/rdmadoctor.bats. */
#include <string.h>

#include "common/cmd.h"
#include "tap.h"

static const char *ran;
static int ran_argc;
static char **ran_argv;
static void *ran_ctx;

static int note(const char *what, int argc, char **argv, void *ctx)
{
	ran = what;
	ran_argc = argc;
	ran_argv = argv;
	ran_ctx = ctx;
	return 7;
}
static int run_a(int argc, char **argv, void *ctx) { return note("a", argc, argv, ctx); }
static int run_b(int argc, char **argv, void *ctx) { return note("b", argc, argv, ctx); }
static int run_default(int argc, char **argv, void *ctx) { return note("default", argc, argv, ctx); }

int main(void)
{
	static const struct tool_cmd named[] = { { "alpha", run_a, NULL }, { "beta", run_b, "x" } };
	static const struct tool_cmd with_default[] = {
		{ NULL, run_default, NULL }, { "alpha", run_a, NULL },
	};
	char *argv1[] = { (char *)"prog", (char *)"beta", (char *)"arg", NULL };
	char *argv2[] = { (char *)"prog", (char *)"-c", NULL };
	char *argv3[] = { (char *)"prog", NULL };
	int ctx;

	EXPECT_TRUE(tool_cmd_find(named, 2, "alpha") == &named[0]);
	EXPECT_TRUE(tool_cmd_find(named, 2, "beta") == &named[1]);
	EXPECT_STREQ(tool_cmd_find(named, 2, "beta")->data, "x");
	EXPECT_TRUE(tool_cmd_find(named, 2, "gamma") == NULL);
	EXPECT_TRUE(tool_cmd_find(named, 2, "alph") == NULL);		/* whole names only */
	EXPECT_TRUE(tool_cmd_find(named, 2, NULL) == NULL);
	EXPECT_TRUE(tool_cmd_find(with_default, 2, NULL) == NULL);	/* the default has no name */

	/* a named command: its argv[0] is its name, the tool's context passed on */
	EXPECT_EQ(tool_dispatch(named, 2, 3, argv1, &ctx), 7);
	EXPECT_STREQ(ran, "b");
	EXPECT_EQ(ran_argc, 2);
	EXPECT_TRUE(ran_argv == argv1 + 1);
	EXPECT_STREQ(ran_argv[0], "prog");	/* getopt's messages name the tool */
	EXPECT_STREQ(ran_argv[1], "arg");
	EXPECT_TRUE(ran_ctx == &ctx);

	/* no command named: the default row, with the whole command line */
	EXPECT_EQ(tool_dispatch(with_default, 2, 2, argv2, NULL), 7);
	EXPECT_STREQ(ran, "default");
	EXPECT_EQ(ran_argc, 2);
	EXPECT_TRUE(ran_argv == argv2);
	EXPECT_EQ(tool_dispatch(with_default, 2, 1, argv3, NULL), 7);
	EXPECT_STREQ(ran, "default");
	EXPECT_EQ(ran_argc, 1);
	argv1[1] = (char *)"alpha";
	argv1[2] = (char *)"arg";
	EXPECT_EQ(tool_dispatch(with_default, 2, 3, argv1, NULL), 7);
	EXPECT_STREQ(ran, "a");
	EXPECT_EQ(ran_argc, 2);
	return tap_done();
}
