/* Shared bits of every rdmadiag tool; see tool.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void tool_init(const char *name)
{
	progname = name;
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
