/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: every tool's command line (rdmastat, rdmadump, rdmacheck, rdmadoctor,
 * rdmatop), in-process.
 *
 * What it covers: the option parsing of each tool's main() - getopt_long() with the tool's
 * option table, every option's handler and value parser (counts, intervals, ports, QP
 * numbers, opcodes, sources ...), and the usage errors, --help and --version they end in.
 * What it does not: anything after the options (rdmastat's command words, the checks that
 * combine options, the work itself).  Each tool's main() is built as <tool>_main (fuzz.mk)
 * and the link wraps three functions (-Wl,--wrap=...):
 *   getopt_long  when it returns -1 (the options are over) the run ends there, so no tool
 *                reaches a device, the network or a file;
 *   exit         ends the run (a usage error, --help) instead of the process;
 *   atexit       a tool's exit handlers are not registered once per run.
 * Output goes to /dev/null; a sanitizer report still reaches the original stderr.
 * Input: byte 0 picks the tool, the rest is its arguments, separated by NUL or newline
 * (at most 24). */
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rdmastat_main(int argc, char **argv);
int rdmadump_main(int argc, char **argv);
int rdmacheck_main(int argc, char **argv);
int rdmadoctor_main(int argc, char **argv);
int rdmatop_main(int argc, char **argv);
int rdmatrace_main(int argc, char **argv);

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} tools[] = {
	{ "rdmastat", rdmastat_main }, { "rdmadump", rdmadump_main },
	{ "rdmacheck", rdmacheck_main }, { "rdmadoctor", rdmadoctor_main },
	{ "rdmatop", rdmatop_main },
	/* after the five the corpus was grown for: byte 0xfe or 0xff picks it, so that every
	 * earlier seed keeps its tool (byte % 5) */
	{ "rdmatrace", rdmatrace_main },
};

#define MAX_ARGS 24

static jmp_buf back;
static int in_tool;

/* LeakSanitizer: what a tool allocates before the run ends is not freed (its main() does not
 * return); weak, so that the unit test's build without sanitizers links too */
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

void __real_exit(int code) __attribute__((noreturn));
void __wrap_exit(int code) __attribute__((noreturn));
int __real_getopt_long(int argc, char *const argv[], const char *optstring,
		       const struct option *longopts, int *longindex);
int __wrap_getopt_long(int argc, char *const argv[], const char *optstring,
		       const struct option *longopts, int *longindex);
int __real_atexit(void (*fn)(void));
int __wrap_atexit(void (*fn)(void));

void __wrap_exit(int code)
{
	if (in_tool)
		longjmp(back, 0x100 | (code & 0xff));
	__real_exit(code);
}

int __wrap_getopt_long(int argc, char *const argv[], const char *optstring,
		       const struct option *longopts, int *longindex)
{
	int r = __real_getopt_long(argc, argv, optstring, longopts, longindex);

	if (r == -1 && in_tool)
		longjmp(back, 1);
	return r;
}

int __wrap_atexit(void (*fn)(void))
{
	return in_tool ? 0 : __real_atexit(fn);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int devnull = -1, saved_out, saved_err;
	char *argv[MAX_ARGS + 2], *buf;
	int argc = 1, t;
	size_t i, start;

	if (size < 1 || size > 4096)
		return 0;
	if (devnull < 0) {
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		saved_out = dup(STDOUT_FILENO);
		saved_err = dup(STDERR_FILENO);
		if (devnull < 0 || saved_out < 0 || saved_err < 0)
			abort();
		if (__sanitizer_set_report_fd)
			__sanitizer_set_report_fd((void *)(intptr_t)saved_err);
	}
	t = data[0] >= 0xfe ? 5 : data[0] % 5;
	/* exactly sized strings, so ASan flags a read past an argument */
	buf = malloc(size);
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (char *)tools[t].name;
	for (i = start = 0; i < size && argc <= MAX_ARGS; i++) {
		if (buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		argv[argc++] = strdup(buf + start);
		start = i + 1;
	}
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	dup2(devnull, STDOUT_FILENO);
	dup2(devnull, STDERR_FILENO);
	if (__lsan_disable)
		__lsan_disable();
	optind = 0;	/* glibc: a full re-initialisation of getopt */
	opterr = 1;	/* rdmatop turns it off */
	in_tool = 1;
	if (setjmp(back) == 0)
		(void)tools[t].main(argc, argv);
	in_tool = 0;
	if (__lsan_enable)
		__lsan_enable();
	fflush(stdout);
	fflush(stderr);
	clearerr(stdout);
	clearerr(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);

	for (i = 1; i < (size_t)argc; i++)
		free(argv[i]);
	free(buf);
	return 0;
}
