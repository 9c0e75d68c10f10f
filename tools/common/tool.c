/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Shared bits of every rdmadiag tool; see tool.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

#include "tool.h"

static const char *progname = "rdmadiag";

/* At exit: output that could not be written is an error, never a silent success (a full
 * disk or /dev/full must not leave a cut-off file behind exit status 0).  As coreutils'
 * close_stdout does; a closed pipe ends the tool with SIGPIPE before it gets here. */
static void close_stdout(void)
{
	int bad = fflush(stdout) == EOF || ferror(stdout);

	if (bad || fclose(stdout) == EOF) {
		fprintf(stderr, "%s: write error: %s\n", progname, strerror(errno ? errno : EIO));
		_exit(EXIT_USAGE);
	}
}

/* Effective capabilities that let a process write or read any file whatever its mode
 * (CAP_DAC_OVERRIDE 1, CAP_DAC_READ_SEARCH 2, CAP_FOWNER 3): from /proc/self/status. */
static bool file_override_caps(void)
{
	char line[256];
	unsigned long long eff = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return true;		/* cannot tell: refuse rather than guess */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return !found || (eff & 0xeull);
}

/* Privileged installs: a setuid or setgid copy, or one given file capabilities that override
 * file permissions, would open the paths its user names (rdmadump -w, --nl-record,
 * --thresholds, --sysfs-root ...) with rights the user does not have.  The tools refuse to
 * run so; the supported way is root, or file capabilities that do not touch files
 * (CAP_NET_RAW for rdmadump -i, CAP_NET_ADMIN, CAP_IPC_LOCK), with which every path is still
 * opened as the user. */
static void refuse_privileged(void)
{
	const char *why = NULL;

	if (!getauxval(AT_SECURE) || getuid() == 0)
		return;
	if (geteuid() != getuid() || getegid() != getgid())
		why = "setuid or setgid";
	else if (file_override_caps())
		why = "with capabilities that override file permissions";
	if (why) {
		fprintf(stderr, "%s: refusing to run %s: it would open the files you name with "
			"rights you do not have (run it as root, or grant only CAP_NET_RAW, "
			"CAP_NET_ADMIN or CAP_IPC_LOCK)\n", progname, why);
		_exit(EXIT_USAGE);	/* before anything ran: no exit handler has work to do */
	}
}

void tool_init(const char *name, char **argv)
{
	progname = name;
	if (argv && argv[0])
		argv[0] = (char *)name;
	refuse_privileged();
	atexit(close_stdout);
}

const char *tool_name(void)
{
	return progname;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", progname, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void tool_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void tool_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

void tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", progname);
	exit(EXIT_USAGE);
}

void tool_version(void)
{
	printf("%s (rdmadiag) %s\n", progname, RDIAG_VERSION);
}

void tool_die_no_devices(const char *sysfs_root)
{
	tool_die("no RDMA devices under %s/sys/class/infiniband: is ib_core and a driver "
		 "(mlx5_ib, rdma_rxe, ...) loaded, or is this a container without the device?",
		 sysfs_root ? sysfs_root : "");
}

int tool_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tool_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || v != v)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
