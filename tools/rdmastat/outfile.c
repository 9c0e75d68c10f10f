/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat -o FILE; see outfile.h.
 *
 * The tool writes its reports to stdout (printf, the out writer); rather than thread a FILE
 * pointer through every formatter, a report's stdout is pointed (dup2) at the temporary
 * file and back.  The temporary is ".NAME.XXXXXX" in FILE's directory: the same file system,
 * so rename(2) is atomic, and a name node_exporter's textfile collector (*.prom) skips. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/esc.h"
#include "common/tool.h"
#include "outfile.h"

static const char *target;		/* FILE, NULL without -o */
static char templ[PATH_MAX];		/* DIR/.NAME.XXXXXX */
static char tmp[PATH_MAX];		/* the temporary of the report being written */
static volatile sig_atomic_t tmp_live;	/* tmp exists and is ours to remove */
static int saved_fd = -1;		/* what stdout was */

/* the temporary goes, stdout comes back; what the report had written is dropped */
static void discard(void)
{
	if (!tmp_live)
		return;
	__fpurge(stdout);
	clearerr(stdout);
	dup2(saved_fd, STDOUT_FILENO);
	unlink(tmp);
	tmp_live = 0;
}

/* a signal that ends the tool in the middle of a report (SIGTERM from systemd's stop, a
 * timeout) leaves no temporary behind; then it ends the tool as it would have */
static void on_fatal_signal(int sig)
{
	if (tmp_live)
		unlink(tmp);
	tmp_live = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

void outfile_init(const char *path)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	size_t dlen = slash ? (size_t)(slash - path) : 0;
	struct stat st;
	size_t i;

	if (!*path)
		tool_usage_error("--output needs a file name");
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		tool_die("cannot write '%s': Is a directory", tool_esc_tmp(path));
	if (strlen(path) + 9 >= sizeof(templ))
		tool_die("cannot write '%s': File name too long", tool_esc_tmp(path));
	if (!slash)
		memcpy(dir, ".", 2);
	else if (!dlen)
		memcpy(dir, "/", 2);
	else {
		memcpy(dir, path, dlen);
		dir[dlen] = '\0';
	}
	if (stat(dir, &st) < 0 && errno == ENOENT)
		tool_die("cannot write '%s': directory '%s' does not exist", tool_esc_tmp(path),
			 tool_esc_tmp(dir));
	if (stat(dir, &st) < 0)
		tool_die("cannot write '%s': directory '%s': %s", tool_esc_tmp(path),
			 tool_esc_tmp(dir), strerror(errno));
	if (!S_ISDIR(st.st_mode))
		tool_die("cannot write '%s': '%s' is not a directory", tool_esc_tmp(path),
			 tool_esc_tmp(dir));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		tool_die("cannot write '%s': Is a directory", tool_esc_tmp(path));
	snprintf(templ, sizeof(templ), "%.*s%s.%s.XXXXXX", (int)dlen, path, slash ? "/" : "",
		 base);

	/* stdout closed (>&-): the reports still go to FILE, and stdout is /dev/null after */
	saved_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_fd < 0)
		saved_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved_fd < 0)
		tool_die("cannot write '%s': %s", tool_esc_tmp(path), strerror(errno));
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			signal(sigs[i], on_fatal_signal);
	}
	/* runs before tool_init's check of stdout (atexit handlers run last first): an exit in
	 * the middle of a report (a read that fails) leaves FILE and no temporary */
	atexit(discard);
	target = path;
}

bool outfile_on(void)
{
	return target != NULL;
}

void outfile_begin(void)
{
	int fd;

	if (!target || tmp_live)
		return;
	fflush(stdout);
	memcpy(tmp, templ, sizeof(tmp));
	/* O_CREAT | O_EXCL: a name that exists, a symlink included, is never opened */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		tool_die("cannot write '%s': cannot create a temporary file next to it: %s",
			 tool_esc_tmp(target), strerror(errno));
	tmp_live = 1;
	if (dup2(fd, STDOUT_FILENO) < 0) {
		int e = errno;

		close(fd);
		discard();
		tool_die("cannot write '%s': %s", tool_esc_tmp(target), strerror(e));
	}
	close(fd);
}

/* Why a write into the temporary failed.  stdio's error flag says that one did, but errno
 * has moved on since (the counters read after it).  The temporary is dropped anyway, so
 * write to its end again, which fails the same way (EFBIG, ENOSPC, EDQUOT, EIO); a few 64 KiB
 * blocks, as a full disk may still take what fits in the last one. */
static int write_errno(void)
{
	static const char zeros[65536];
	struct stat st;
	int i;

	if (fstat(STDOUT_FILENO, &st) < 0)
		return EIO;
	for (i = 0; i < 4; i++) {
		ssize_t n = pwrite(STDOUT_FILENO, zeros, sizeof(zeros), st.st_size);

		if (n < 0)
			return errno;
		st.st_size += n;
	}
	return EIO;
}

void outfile_commit(void)
{
	int err = 0;

	if (!target || !tmp_live)
		return;
	if (fflush(stdout) == EOF || ferror(stdout))
		err = write_errno();
	/* mkostemp made it 0600; node_exporter runs as its own user */
	else if (fchmod(STDOUT_FILENO, 0644) < 0 || fsync(STDOUT_FILENO) < 0)
		err = errno;
	if (!err && dup2(saved_fd, STDOUT_FILENO) < 0)
		err = errno;
	if (!err && rename(tmp, target) < 0)
		err = errno;
	if (err) {
		discard();
		tool_die("cannot write '%s': %s", tool_esc_tmp(target), strerror(err));
	}
	tmp_live = 0;
}
